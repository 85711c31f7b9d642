"""The --explain-json report: one JSON object per line, one line per denial the sandbox
made (DENIAL REPORTS in landlock-run(1)). parse_denials() turns it into typed objects and
gives each path back as its exact bytes.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Literal, TypeAlias, Union

KINDS = ("fs", "net", "scope", "syscall", "capability")
ERRNOS = ("EACCES", "EPERM", "EXDEV")
# What the system-call filter answers (--no-network, the baseline): a kernel without it.
# ENODEV: root's shared mapping of a file where it can write a directory (a file system without mmap)
FILTER_ERRNOS = ("EAFNOSUPPORT", "ENOSYS", "EPERM", "EACCES", "EOPNOTSUPP", "ENODEV")


@dataclasses.dataclass(frozen=True, kw_only=True)
class _Denial:
    pid: int
    """The process that made the call (a thread's call is its process's)."""
    comm: str
    """Its name."""
    syscall: str
    """The system call, as this architecture names it: openat, execve, connect..."""
    right: str
    """The first of rights."""
    rights: tuple[str, ...]
    """The rights refused, as -v names them: make_reg, write_file, tcp_connect, signal..."""
    errno: str
    """EACCES, EPERM or EXDEV (for a syscall denial, what the filter answered)."""
    allow: tuple[str, ...]
    """The options that would allow it, e.g. ('--rw', '/etc'), or two pairs; empty when no
    option does (see hidden, hidden_beneath, remove) or none is advised (see why)."""
    replace: str | None = None
    """allow cannot be added beside this option (--tcp-bind none, --no-tcp): replace it."""
    hidden: str | None = None
    """The --hide path the object is in: no grant may reveal it."""
    hidden_beneath: str | None = None
    """The --hide path beneath the object (a directory on its way): no grant allows it."""
    why: str | None = None
    """The grant that would allow it is never advised (/proc/PID, /proc/sys, $HOME and the
    directories above it...; landlock-run(1), NEVER ADVISED), and why; allow is then empty."""
    also_refused_by: Literal["mode_bits"] | None = None
    """'mode_bits': the file's mode bits (or its ACL) refuse it too. Landlock refused it
    first (the kernel asks it before the mode bits for a creation, removal, rename or link),
    so the grant in allow is needed but alone does not make the call work."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class FsDenial(_Denial):
    """A file; path is canonical (for something to be made, its directory's path and the name)."""

    kind: Literal["fs"] = "fs"
    path: str
    """The path, a byte that is not UTF-8 as a surrogate escape (os functions take it as is)."""
    path_bytes: bytes
    """The path's exact bytes."""
    pattern: str | None = None
    """The denials of one kind beneath /proc/PID (the same rights, call, comm and advice):
    path with the process's number as PID (and a thread's as TID), e.g. /proc/PID/status;
    path is the first of them, pid the process that made it."""
    count: int = 1
    """How many processes (threads, for a pattern with TID) it stands for: 2 or more
    with a pattern."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class NetDenial(_Denial):
    """A TCP or UDP port (--tcp-bind, --tcp-connect, --udp-bind, --udp-connect)."""

    kind: Literal["net"] = "net"
    port: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class ScopeDenial(_Denial):
    """A scope: a signal to target (a pid), or a connection to the abstract socket path (@name)."""

    kind: Literal["scope"] = "scope"
    scope: str
    """The scope to leave out of scopes to allow it."""
    target: int | None = None
    path: str | None = None
    path_bytes: bytes | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class SyscallDenial(_Denial):
    """A call the system-call filter refused: no_network, or a group of the baseline
    (right is 'network' or the group)."""

    kind: Literal["syscall"] = "syscall"
    family: str | None = None
    """For a socket: the family refused, AF_INET..."""
    remove: str | None = None
    """The option to leave out to allow it (--no-network)."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class CapabilityDenial(_Denial):
    """A call only a capability the launcher dropped refuses (errno EPERM): a change of owner
    (right cap_chown), of mode or times of someone else's file (cap_fowner), a device made
    (cap_mknod). No grant gives it back: allow is empty, and why says so."""

    kind: Literal["capability"] = "capability"
    path: str
    """The file, a byte that is not UTF-8 as a surrogate escape (os functions take it as is)."""
    path_bytes: bytes
    """The path's exact bytes."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class UnlistedDenials:
    """The report's last line when more denials happened than it lists (10,000 distinct ones)."""

    kind: Literal["unlisted"] = "unlisted"
    denials: int
    """How many were not listed, repeats counted."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class UnseenCalls:
    """Processes that made themselves non-dumpable (ssh, gpg-agent) had calls fail that the
    tracer could not look into: the report may lack their denials."""

    kind: Literal["unseen"] = "unseen"
    calls: int
    pid: int
    """The first such process."""
    comm: str


Denial: TypeAlias = Union[
    FsDenial, NetDenial, ScopeDenial, SyscallDenial, CapabilityDenial, UnlistedDenials, UnseenCalls
]


def _bytes(path: str) -> bytes:
    # the launcher writes a byte that is not valid UTF-8 as \udcXX: Python's surrogateescape
    return path.encode("utf-8", "surrogateescape")


class _Line:
    """One line of the report; each getter returns its key's value typed, or raises
    ValueError naming the line and what is wrong."""

    def __init__(self, text: str, number: int) -> None:
        self.number = number
        try:
            d = json.loads(text)
        except ValueError as e:
            raise self.error(f"not JSON ({e})") from None
        if not isinstance(d, dict):
            raise self.error("not a JSON object")
        self.d: dict[str, object] = d

    def error(self, what: str) -> ValueError:
        return ValueError(f"--explain-json line {self.number}: {what}")

    def integer(self, key: str, what: str, minimum: int | None = None) -> int:
        v = self.d.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or (minimum is not None and v < minimum):
            raise self.error(what)
        return v

    def text(self, key: str, what: str) -> str:
        v = self.d.get(key)
        if not isinstance(v, str):
            raise self.error(what)
        return v

    def optional(self, key: str) -> str | None:
        return None if self.d.get(key) is None else self.text(key, f"{key} is not a string")

    def strings(self, key: str, what: str) -> tuple[str, ...]:
        v = self.d.get(key)
        if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
            raise self.error(what)
        return tuple(v)

    def denial(self) -> Denial:
        kind = self.d.get("kind")
        if kind == "unlisted":
            return UnlistedDenials(denials=self.integer("denials", "unlisted is not a count", 1))
        if kind == "unseen":
            what = "unseen is not a count with a process"
            return UnseenCalls(calls=self.integer("calls", what, 1), pid=self.integer("pid", what), comm=self.text("comm", what))
        if kind not in KINDS:
            raise self.error(f"unknown kind {kind!r}")
        what = "right, rights or errno not as documented"
        rights, right, errno = self.strings("rights", what), self.text("right", what), self.text("errno", what)
        if not rights or rights[0] != right or errno not in (FILTER_ERRNOS if kind == "syscall" else ERRNOS):
            raise self.error(what)
        why = self.optional("why")
        also = self.optional("also_refused_by")
        if also not in (None, "mode_bits"):
            raise self.error(f"also_refused_by is not mode_bits: {also!r}")
        mode_bits: Literal["mode_bits"] | None = None if also is None else "mode_bits"
        if (why is None) == ("allow" not in self.d):
            raise self.error("neither allow nor why, or both")
        allow = () if why is not None else self.strings("allow", "allow is not options and arguments")
        if len(allow) not in (0, 2, 4):
            raise self.error("allow is not options and arguments")
        what = "pid, comm or syscall missing"
        common = _Denial(
            pid=self.integer("pid", what), comm=self.text("comm", what), syscall=self.text("syscall", what), right=right,
            rights=rights, errno=errno, allow=allow, replace=self.optional("replace"), hidden=self.optional("hidden"),
            hidden_beneath=self.optional("hidden_beneath"), why=why, also_refused_by=mode_bits,
        )  # fmt: skip
        fields = {f.name: getattr(common, f.name) for f in dataclasses.fields(common)}
        path = self.optional("path")
        if kind == "fs":
            if path is None:
                raise self.error("a filesystem denial without a path")
            pattern, count = self.optional("pattern"), 1
            if pattern is not None or "count" in self.d:
                what = "pattern and count are not a fold of processes"
                pattern, count = self.text("pattern", what), self.integer("count", what, 2)
            return FsDenial(**fields, path=path, path_bytes=_bytes(path), pattern=pattern, count=count)
        if kind == "capability":
            if path is None or why is None:
                raise self.error("a capability refusal without its path or why")
            return CapabilityDenial(**fields, path=path, path_bytes=_bytes(path))
        if kind == "net":
            return NetDenial(**fields, port=self.integer("port", "a network denial without a port"))
        if kind == "scope":
            what = "a scope denial without its scope, target or path"
            target = None if path is not None and "target" not in self.d else self.integer("target", what)
            return ScopeDenial(**fields, scope=self.text("scope", what), target=target, path=path,
                               path_bytes=None if path is None else _bytes(path))  # fmt: skip
        return SyscallDenial(**fields, family=self.optional("family"), remove=self.optional("remove"))


def parse_denials(data: str | bytes) -> list[Denial]:
    """The denials of an --explain-json report (its text, or the bytes read from the file),
    in the order the launcher reported them. A last line without its newline (the launcher
    killed while writing it) is left out; any other line that is not a denial is a
    ValueError naming its line."""
    if isinstance(data, bytes):
        data = data.decode("utf-8", "surrogateescape")
    elif not isinstance(data, str):
        raise TypeError(f"parse_denials takes str or bytes, not {type(data).__name__}")
    lines = data.split("\n")[:-1]  # after the last newline: nothing, or a line not finished
    return [_Line(line, n).denial() for n, line in enumerate(lines, 1) if line != ""]
