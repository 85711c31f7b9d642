"""What this kernel enforces, asked of the launcher: `LAUNCHER --probe --json [policy
options]`. Never raises: every failure is an 'unusable' result with a code and a message.
(compat.probe() reads the one-line verdict of plain --probe instead.)
"""

from __future__ import annotations

import dataclasses
import errno
import json
import math
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import Literal, TypeAlias

from ._platform import LauncherError, launcher_path
from ._policy import PathArg, PolicyLike, grant_args
from ._run import FAILURE_PREFIX

ProbeErrorCode: TypeAlias = Literal[
    "UNSUPPORTED_PLATFORM", "WRONG_PLATFORM", "NOT_INSTALLED", "NO_LANDLOCK", "SECCOMP", "POLICY", "TIMEOUT", "SIGNAL",
    "EXEC", "OUTPUT", "OPTIONS",
]  # fmt: skip
NetworkConfined: TypeAlias = Literal["all", "tcp", "udp", "tcp,udp", "nothing"]
_NETWORK_CONFINED: dict[str, NetworkConfined] = {"all": "all", "tcp": "tcp", "udp": "udp", "tcp,udp": "tcp,udp", "nothing": "nothing"}
MAX_OUTPUT = 1 << 20
# The launcher's line when a seccomp filter (a container's profile) refuses the Landlock
# system calls: the one refusal a harness can fix in the runtime's settings.
SECCOMP_REFUSAL = "landlock-run: a seccomp filter refuses the Landlock system calls"
WHERE = ("seccomp_filter", "ptrace_refused", "proc_missing")


@dataclasses.dataclass(frozen=True, kw_only=True)
class ProbeResult:
    """What probe() found. enforced: this kernel confines (the policy, when one was
    given); enforcement says how fully. Otherwise enforcement is 'unusable', code says why
    and error in words, and the other fields are empty."""

    enforced: bool
    enforcement: Literal["full", "partial", "unusable"]
    """'full': the ABI in use enforces every filesystem right the launcher knows; 'partial':
    an older ABI."""
    abi: int | None
    """The kernel's Landlock ABI."""
    abi_used: int | None
    """The ABI the launcher uses (after policy.abi and its own known maximum)."""
    errata: int | None
    """The kernel's Landlock errata bitmask; None when it does not say."""
    pathname_sockets: bool
    """Connecting to pathname UNIX sockets made outside is confined (ABI 9)."""
    tcp: bool
    """TCP bind and connect can be confined (ABI 4)."""
    udp: bool
    """UDP bind, connect and send can be confined (ABI 10)."""
    scopes: tuple[str, ...]
    """The scopes that can be confined (ABI 6)."""
    network_confined: NetworkConfined
    """What this policy confines of the network: 'all' (no_network), the protocols whose
    ports are confined ('tcp', 'udp', 'tcp,udp'), or 'nothing'. (The launcher's deprecated
    key network, which says 'none' for 'nothing', is not read.)"""
    baseline: tuple[str, ...]
    """The system-call groups this policy's filter refuses."""
    no_unix: bool
    """This policy's filter refuses UNIX sockets (no_unix), proven."""
    explain: bool
    """explain, explain_json and learn can work here: the probe traced a child of its own,
    and /proc is mounted."""
    where: tuple[str, ...]
    """What the place it runs in stands in the way of: 'seccomp_filter' (it runs under a
    seccomp filter it did not install, as in a container), 'ptrace_refused' (Yama's
    ptrace_scope, a profile without ptrace), 'proc_missing'; () when nothing is. With code
    SECCOMP, ('seccomp_filter',)."""
    code: ProbeErrorCode | None
    """Why it is unusable: NO_LANDLOCK (this host cannot confine), SECCOMP (a seccomp filter,
    a container runtime's profile, refuses the Landlock calls: allow them in it), POLICY (it
    confines, but not this policy), NOT_INSTALLED, WRONG_PLATFORM, UNSUPPORTED_PLATFORM, TIMEOUT, SIGNAL,
    EXEC (the launcher could not run, or failed without its line), OUTPUT or OPTIONS."""
    error: str | None
    """The launcher's `landlock-run: ` line, or what else went wrong."""


def unusable(code: ProbeErrorCode, error: str) -> ProbeResult:
    return ProbeResult(
        enforced=False, enforcement="unusable", abi=None, abi_used=None, errata=None, pathname_sockets=False,
        tcp=False, udp=False, scopes=(), network_confined="nothing", baseline=(), no_unix=False, explain=False,
        where=("seccomp_filter",) if code == "SECCOMP" else (), code=code, error=error,
    )  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Ran:
    """A finished run of the launcher: spawn_error an errno name, returncode Popen's."""

    spawn_error: str | None = None
    timed_out: bool = False
    overflow: bool = False
    returncode: int | None = None
    stdout: bytes = b""
    stderr: bytes = b""


def bounded_run(argv: Sequence[str], timeout: float, limit: int, stderr: bool = True) -> Ran:
    """Run argv with no input, reading at most limit bytes of each output; killed (SIGKILL)
    past the limit or the timeout."""
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE if stderr else subprocess.DEVNULL
        )
    except OSError as e:
        return Ran(spawn_error=errno.errorcode.get(e.errno or 0, str(e)))
    fd_out, fd_err = (-1 if s is None else s.fileno() for s in (proc.stdout, proc.stderr))
    streams = {s.fileno(): s for s in (proc.stdout, proc.stderr) if s is not None}
    out = dict.fromkeys(streams, b"")
    deadline = time.monotonic() + timeout
    overflow = timed_out = False
    with proc, selectors.DefaultSelector() as sel:
        for stream in streams.values():
            sel.register(stream, selectors.EVENT_READ)
        while sel.get_map() and not (overflow or timed_out):
            ready = sel.select(max(0.0, deadline - time.monotonic()))
            timed_out = not ready
            for key, _ in ready:
                chunk = os.read(key.fd, 65536)
                out[key.fd] += chunk
                overflow = overflow or len(out[key.fd]) > limit
                if not chunk:
                    sel.unregister(key.fileobj)
        if overflow or timed_out:
            proc.kill()
        try:
            returncode = proc.wait(None if overflow or timed_out else max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:  # closed its output, but goes on
            proc.kill()
            returncode, timed_out = proc.wait(), True
    return Ran(None, timed_out, overflow, returncode, out.get(fd_out, b""), out.get(fd_err, b""))


def signal_name(n: int) -> str:
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def _first_line(text: bytes) -> str:
    return next((line for line in text.decode("utf-8", "replace").split("\n") if line.strip()), "")


def _interpret(ran: Ran, file: str, timeout: float) -> ProbeResult:
    if ran.overflow:
        return unusable("OUTPUT", "probe printed too much output")
    if ran.timed_out:
        return unusable("TIMEOUT", f"probe timed out after {timeout:g} s")
    if ran.spawn_error is not None:
        return unusable("NOT_INSTALLED" if ran.spawn_error == "ENOENT" else "EXEC", f"cannot run {file}: {ran.spawn_error}")
    if ran.returncode is not None and ran.returncode < 0:
        return unusable("SIGNAL", f"probe was killed by {signal_name(-ran.returncode)}")
    if ran.returncode != 0:
        lines = ran.stderr.decode("utf-8", "replace").split("\n")
        line = next((x for x in lines if x.startswith(FAILURE_PREFIX)), "")
        # the launcher's own refusal: the host, or (see probe) the policy
        if ran.returncode == 125 and line:
            return unusable("SECCOMP" if line.startswith(SECCOMP_REFUSAL) else "NO_LANDLOCK", line)
        return unusable("EXEC", line or _first_line(ran.stderr) or f"probe exited with status {ran.returncode}")
    first = _first_line(ran.stdout)
    try:
        facts = json.loads(first)
    except ValueError:
        return unusable("OUTPUT", f"unreadable probe output: {first[:200]!r}")
    if not isinstance(facts, dict) or facts.get("enforcement") not in ("full", "partial") or not all(
        isinstance(facts.get(k), int) and not isinstance(facts.get(k), bool) for k in ("abi", "abi_used")
    ):
        return unusable("OUTPUT", f"unexpected probe output: {first[:200]}")

    def strings(key: str) -> tuple[str, ...]:
        v = facts.get(key)
        return tuple(s for s in v if isinstance(s, str)) if isinstance(v, list) else ()

    errata = facts.get("errata")
    return ProbeResult(
        enforced=True,
        enforcement="full" if facts["enforcement"] == "full" else "partial",
        abi=facts["abi"],
        abi_used=facts["abi_used"],
        errata=errata if isinstance(errata, int) and not isinstance(errata, bool) else None,
        pathname_sockets=facts.get("pathname_sockets") is True,
        tcp=facts.get("tcp") is True,
        udp=facts.get("udp") is True,
        scopes=strings("scopes"),
        network_confined=_NETWORK_CONFINED.get(str(facts.get("network_confined")), "nothing"),
        baseline=strings("baseline"),
        no_unix=facts.get("no_unix") is True,
        explain=facts.get("explain") is True,
        where=tuple(w for w in strings("where") if w in WHERE),
        code=None,
        error=None,
    )


def probe(*, launcher: PathArg | None = None, timeout: float = 10.0, policy: PolicyLike = None) -> ProbeResult:
    """Run `launcher --probe --json [policy options]` (default launcher_path()) and report
    what this kernel enforces, within timeout seconds. Never raises; cache the result if
    you call it often."""
    try:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not (math.isfinite(timeout) and timeout > 0):
            raise TypeError(f"timeout must be a positive number of seconds, not {timeout!r}")
        if launcher is not None and (not isinstance(launcher, (str, bytes, os.PathLike)) or os.fsdecode(launcher) == ""):
            raise TypeError("launcher must be a non-empty path")
        policy_args = grant_args(policy)
        file = launcher_path() if launcher is None else os.fsdecode(launcher)
    except LauncherError as e:
        return unusable(e.code, str(e))
    except (TypeError, ValueError) as e:
        return unusable("OPTIONS", str(e))
    result = _interpret(bounded_run([file, "--probe", "--json", *policy_args], timeout, MAX_OUTPUT), file, timeout)
    # A refusal with policy options is the policy's fault when the same launcher, asked with
    # none, enforces: a bad grant path is then POLICY, not a host without Landlock.
    if result.code == "NO_LANDLOCK" and policy_args:
        bare = _interpret(bounded_run([file, "--probe", "--json"], timeout, MAX_OUTPUT), file, timeout)
        if bare.enforced:
            return dataclasses.replace(result, code="POLICY")
    return result
