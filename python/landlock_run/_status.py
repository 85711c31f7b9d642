"""The launcher's status descriptor (STATUS DESCRIPTOR in landlock-run(1)): JSON lines on
a pipe that only the launcher holds (it marks the descriptor close-on-exec, so the command
never does), read back as a ConfinedStatus. Unlike an exit status of 125 with a
`landlock-run: ` line on stderr, the command cannot forge it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import select
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeAlias

Enforcement: TypeAlias = Literal["full", "partial", "none"]

# The launcher writes two or three short lines; an error line holds a path or two.
MAX_STATUS = 1 << 16


@dataclasses.dataclass(frozen=True, kw_only=True)
class ConfinedStatus:
    """What the launcher reported. executed is True exactly when COMMAND was executed
    (under enforcement); when False, never run it unconfined instead."""

    executed: bool
    """COMMAND was executed: a pid line came and no failure line followed it."""
    pid: int | None
    """The pid COMMAND runs as: in the whole-tree mode (the default) and with explain,
    explain_json or learn a child of the launcher, else the launcher's own; set too when an
    exec failed after the pid line."""
    abi: int | None
    """The kernel's Landlock ABI."""
    abi_used: int | None
    """The ABI the launcher uses."""
    enforcement: Enforcement | None
    """'full', 'partial', or 'none' under learn (which runs COMMAND unconfined)."""
    status: int | None
    """Not executed: 125 (the launcher failed) or 126, 127 (the exec did; cannot execute,
    not found); when the launcher reported nothing, its exit status (None when killed).
    Executed: 125 when the launcher failed after COMMAND ran (a learn policy it could not
    write), else None."""
    error: str | None
    """That failure's `landlock-run: ` line (as on stderr), or what else went wrong; None
    when nothing did."""
    exit: int | None
    """The end record, the launcher's last line, once nothing COMMAND started is left:
    {"exit":N}, the status the launcher exits with (COMMAND's, or 125 for a launcher
    failure). None with no end record: the launcher and its supervisor were both killed
    (what COMMAND started may still run), or a launcher that does not write one."""
    signal: str | None
    """The end record's {"signal":"NAME"}: the signal the launcher dies of (COMMAND's, as
    kill -l names it), "SIGKILL" too when the launcher itself was killed and its supervisor
    ended the tree."""


def _objects(lines: Sequence[bytes]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for line in lines:
        try:
            o = json.loads(line)
        except ValueError:
            continue  # not a line of the protocol: the contract is read from the lines that are
        if isinstance(o, dict):
            out.append(o)
    return out


def _int(v: object) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


_ENFORCEMENTS: dict[str, Enforcement] = {"full": "full", "partial": "partial", "none": "none"}


def _enforcement(v: object) -> Enforcement | None:
    return _ENFORCEMENTS.get(v) if isinstance(v, str) else None


def _end(o: dict[str, object]) -> bool:
    """The end record: {"exit":N} or {"signal":"NAME"}, the run's last line."""
    return "exec" not in o and "pid" not in o and (_int(o.get("exit")) is not None or _signal(o.get("signal")) is not None)


def _signal(v: object) -> str | None:
    return v if isinstance(v, str) and v != "" else None


def _silent(returncode: int | None) -> ConfinedStatus:
    """No line at all: the launcher failed before it knew the descriptor, or was killed."""
    killed = returncode is not None and returncode < 0
    how = f"was killed by signal {-returncode}" if returncode is not None and killed else f"exited with status {returncode}"
    return ConfinedStatus(
        executed=False, pid=None, abi=None, abi_used=None, enforcement=None,
        status=None if killed else returncode,
        error=f"the launcher reported nothing on --status-fd and {how}: COMMAND was not executed",
        exit=None, signal=None,
    )  # fmt: skip


def interpret(lines: Sequence[bytes], returncode: int | None = None) -> ConfinedStatus:
    """The status lines as a ConfinedStatus. COMMAND was executed exactly when a pid line
    (one with a pid and no "exec") arrived and no "exec":false line followed it; a failure
    after it ran ("exec":true with a status: a learn policy it could not write) is reported
    too, and the end record ({"exit":N} or {"signal":"NAME"}), how the run ended.
    returncode: the launcher's (Popen's, negative for a signal), for when it said nothing."""
    start: dict[str, object] | None = None
    failure: dict[str, object] | None = None
    late: dict[str, object] | None = None
    end: dict[str, object] | None = None
    failed_after_start = False
    for o in _objects(lines):
        if _end(o):
            end = o  # the last one: the launcher writes it once, as its last line
        elif "exec" not in o and _int(o.get("pid")) is not None:
            start = start or o
        elif o.get("exec") is False and failure is None:
            failure, failed_after_start = o, start is not None
        elif o.get("exec") is True and _int(o.get("status")) is not None:
            late = late or o
    executed = start is not None and not failed_after_start
    failed = late if executed else failure
    if start is None and failed is None:
        return _silent(returncode)
    error = failed.get("error") if failed else None
    if failed is not None and not isinstance(error, str):
        error = f"the launcher failed with status {failed.get('status')}"
    return ConfinedStatus(
        executed=executed,
        pid=_int(start.get("pid")) if start else None,
        abi=_int(start.get("abi")) if start else None,
        abi_used=_int(start.get("abi_used")) if start else None,
        enforcement=_enforcement(start.get("enforcement")) if start else None,
        status=_int(failed.get("status")) if failed else None,
        error=error if isinstance(error, str) else None,
        exit=_int(end.get("exit")) if end else None,
        signal=_signal(end.get("signal")) if end else None,
    )


def decided(lines: Sequence[bytes]) -> bool:
    """Whether these lines already say whether COMMAND was executed: a failure line, or an
    exec line after the pid line (explain, learn). A plain run says so by end of file."""
    objects = _objects(lines)
    started = any("exec" not in o and _int(o.get("pid")) is not None for o in objects)
    return any(o.get("exec") is False or (started and o.get("exec") is True) for o in objects)


class StatusPipe:
    """The read end of the status pipe: read up to end of file (or MAX_STATUS bytes), on
    demand, by whoever asks first; closed at end of file or when collected."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd
        self._poll = select.poll()  # not select(): no limit on the descriptor's number
        self._poll.register(fd, select.POLLIN)
        self._data = b""
        self._lock = threading.Lock()

    def read(self, enough: Callable[[list[bytes]], bool], timeout: float | None, args: Any) -> tuple[list[bytes], bool]:
        """(the complete lines so far, whether end of file came), reading until enough(lines)
        or end of file; subprocess.TimeoutExpired(args, timeout) when time runs out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while self._fd is not None and not enough(self._lines()):
                left = None if deadline is None else max(0, math.ceil((deadline - time.monotonic()) * 1000))
                if not self._poll.poll(left):
                    raise subprocess.TimeoutExpired(args, timeout if timeout is not None else 0.0)
                chunk = os.read(self._fd, 4096)
                self._data += chunk
                if not chunk or len(self._data) > MAX_STATUS:  # not the launcher's few lines: read what came
                    self.close()
            return self._lines(), self._fd is None

    def _lines(self) -> list[bytes]:
        # after the last newline: nothing, or a line the launcher did not finish
        return self._data.split(b"\n")[:-1]

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:
        self.close()
