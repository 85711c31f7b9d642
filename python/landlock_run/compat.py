"""landlock_run.compat: the launcher contract of the agent harness this launcher family was
first written for (its Node module is landlock-run/compat), for harnesses that want only
that: the binary's path, --ro/--rw options, and a synchronous one-word verdict. It never
raises where that contract says it does not.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Literal, TypeAlias

from ._platform import _BIN, LAUNCHER_BIN, LauncherError, machine
from ._platform import launcher_path as _launcher_path
from ._policy import PathArg, grant_args as _grant_args
from ._probe import bounded_run
from ._run import LAUNCHER_FAILURE_EXIT

__all__ = ["LAUNCHER_BIN", "LAUNCHER_FAILURE_EXIT", "ProbeVerdict", "grant_args", "launcher_path", "probe"]

ProbeVerdict: TypeAlias = Literal["full", "partial", "unusable"]
# The harness's CLI contract: `LAUNCHER --probe` exits 0 and prints one verdict line.
_VERDICTS: dict[bytes, ProbeVerdict] = {
    b"landlock: fully enforced": "full",
    b"landlock: partially enforced (older ABI)": "partial",
}
_MAX_OUTPUT = 4096  # the verdict is 41 bytes; more is not the contract


def launcher_path() -> str:
    """This machine's launcher binary; never raises. Where launcher_path() of landlock_run
    would raise (another machine's wheel, a binary missing), the result is the absolute
    path <package>/_bin/<machine>/landlock-run, which never exists, so probe() then says
    'unusable' and running it fails with FileNotFoundError."""
    try:
        return _launcher_path()
    except LauncherError:
        return os.path.join(_BIN, machine(), LAUNCHER_BIN)


def grant_args(*, read_only: Sequence[PathArg] = (), read_write: Sequence[PathArg] = ()) -> list[str]:
    """['--ro', P, ..., '--rw', P, ...]: --ro for each read-only path, then --rw for each
    writable one. PolicyError (a TypeError and a ValueError) for a bad path."""
    return _grant_args({"ro": read_only, "rw": read_write})


def probe(launcher: PathArg | None = None, *, timeout: float = 10.0) -> ProbeVerdict:
    """'full' | 'partial' | 'unusable', synchronously; never raises. Runs `launcher --probe`
    (default launcher_path()) and reads its standard output whole: exit 0 and exactly
    `landlock: fully enforced` (the newline ending it optional) is 'full', exit 0 and exactly
    `landlock: partially enforced (older ABI)` is 'partial'; anything else is 'unusable':
    other output (a second line, a space more), a non-zero exit (125 included), a signal, a
    launcher that cannot be run, a bad argument, or no exit within timeout seconds, after
    which it is killed. Standard error is not read."""
    try:
        file = launcher_path() if launcher is None else os.fsdecode(launcher)
        if file == "" or isinstance(timeout, bool) or not (timeout > 0 and timeout != float("inf")):
            return "unusable"
        ran = bounded_run([file, "--probe"], timeout, _MAX_OUTPUT, stderr=False)
    except Exception:
        return "unusable"
    if ran.spawn_error or ran.timed_out or ran.overflow or ran.returncode != 0:
        return "unusable"
    out = ran.stdout[:-1] if ran.stdout.endswith(b"\n") else ran.stdout
    return _VERDICTS.get(out, "unusable")
