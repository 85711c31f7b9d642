"""A policy to the launcher's options: one row per CLI option, in the one order
grant_args() emits them (also the order of Policy's fields, of PolicyDict's and of the
README's table).

Adding a CLI option to the API is one row in FIELDS and one field in Policy and in
PolicyDict. The tests compare the rows with `landlock-run --help`, and Policy's fields with
the rows, so a CLI option without a row fails make test.
"""

from __future__ import annotations

import dataclasses
import os
import re
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Literal, TypeAlias, TypedDict, TypeGuard, Union

PathArg: TypeAlias = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
"""A path as os functions take it; bytes (and str with surrogate escapes) for any bytes."""
Port: TypeAlias = Union[int, str]
"""A port 0..65535, or a range of them 'A-B' (a string) with A <= B."""
Ports: TypeAlias = Union[Sequence[Port], Literal["none"]]
"""Ports to allow; 'none' or an empty sequence confine that kind and allow none."""
Scope: TypeAlias = Literal["abstract-unix", "signal"]
SyscallGroup: TypeAlias = Literal["io_uring", "userns", "keyring", "bpf", "perf", "userfaultfd", "metadata"]

SCOPES: tuple[Scope, ...] = ("abstract-unix", "signal")
"""Every scope name --scope takes, in the launcher's order."""
SYSCALL_GROUPS: tuple[SyscallGroup, ...] = ("io_uring", "userns", "keyring", "bpf", "perf", "userfaultfd", "metadata")
"""Every group --allow-syscalls names, in the launcher's order."""


class PolicyError(TypeError, ValueError):
    """A policy the launcher would refuse, or a value of the wrong type: both a TypeError
    and a ValueError, so either catches it."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Policy:
    """A confinement policy: one field per launcher option, each optional. None (or False
    for a flag) leaves the option out. Checked when made: a bad value is a PolicyError."""

    ro: Sequence[PathArg] | None = None
    """--ro: read files, list directories and execute beneath each path. Any ro or ro_try
    path confines reading and executing to the ro and rw paths."""
    rw: Sequence[PathArg] | None = None
    """--rw: every handled right beneath each path."""
    ro_try: Sequence[PathArg] | None = None
    """--ro-try: like ro, but a path that does not exist is skipped."""
    rw_try: Sequence[PathArg] | None = None
    """--rw-try: like rw, but a path that does not exist is skipped."""
    hide: Sequence[PathArg] | None = None
    """--hide: nothing beneath these paths can be read, listed or executed, though ro (or,
    with no ro, unconfined reading) holds them; allowed with learn."""
    no_symlinks: bool = False
    """--no-symlinks: a grant or hidden path through a symlink is refused (status 125)."""
    unix: Sequence[PathArg] | None = None
    """--unix: connecting to the UNIX socket at each path, or beneath each directory (ABI 9)."""
    tcp_bind: Ports | None = None
    """--tcp-bind: the TCP ports the command may bind (ABI 4); None leaves bind unconfined."""
    tcp_connect: Ports | None = None
    """--tcp-connect: the TCP ports the command may connect to (ABI 4)."""
    no_tcp: bool = False
    """--no-tcp: tcp_bind and tcp_connect 'none'; not together with either."""
    udp_bind: Ports | None = None
    """--udp-bind (ABI 10): a client that sends from an unbound socket needs 0 once it is given."""
    udp_connect: Ports | None = None
    """--udp-connect: the UDP ports the command may connect or send to (ABI 10)."""
    no_udp: bool = False
    """--no-udp: udp_bind and udp_connect 'none'; not together with either."""
    no_network: bool = False
    """--no-network: no socket but AF_UNIX on any ABI, and no TCP or UDP port where the ABI
    has port rules; not together with a port list."""
    no_unix: bool = False
    """--no-unix: no UNIX socket but a stream or seqpacket socketpair on any ABI
    (EAFNOSUPPORT), so nothing outside (an ssh-agent, docker.sock, a relay to the network)
    can be connected to; inherited sockets keep working. The only control of pathname
    sockets below ABI 9."""
    scopes: Sequence[Scope] | None = None
    """--scope: 'signal', 'abstract-unix' (ABI 6)."""
    allow_syscalls: Sequence[SyscallGroup] | None = None
    """--allow-syscalls: groups of the baseline to allow (SYSCALL_GROUPS); not 'io_uring'
    with no_network or no_unix."""
    log_subprocesses: bool = False
    """--log-subprocesses: the audit log gets the command's denials too (ABI 7)."""
    no_log: bool = False
    """--no-log: log no denials before the exec (ABI 7)."""
    no_log_nested: bool = False
    """--no-log-nested: log none of the sandboxes nested inside this one (ABI 7)."""
    explain: bool = False
    """--explain: a `landlock-run denied: ` line on stderr per access the sandbox refuses,
    with the option that would allow it (the command runs as the launcher's child)."""
    explain_json: PathArg | None = None
    """--explain-json: the same as JSON lines in this file, for parse_denials()."""
    learn: PathArg | None = None
    """--learn: run the command WITHOUT the sandbox (trusted commands only) and write the
    policy it needs to this file; with no other field but hide, keep_caps, abi and verbose.
    @FILE reads it only from ~/.config/landlock-run/ ($XDG_CONFIG_HOME) or /etc/landlock-run/."""
    keep_caps: bool = False
    """--keep-caps: keep the caller's capabilities (dangerous: root stays root)."""
    new_session: bool = False
    """--new-session: the command runs in a new session, without a controlling terminal."""
    die_with_parent: bool = False
    """--die-with-parent: the command and all it started are killed when the launcher's
    parent exits (the whole-tree mode, as kill_tree)."""
    kill_tree: bool = False
    """--kill-tree: the launcher stays the command's parent and, when the command exits or the
    launcher is signalled, kills every process the command started (another pid)."""
    private_tmp: bool = False
    """--private-tmp: a new 0700 directory of the run's own in /tmp, granted read-write and named
    by TMPDIR, TMP, TEMP and TEMPDIR, removed with all in it when the run ends; the host's /tmp is
    hidden unless a grant names it (the whole-tree mode, as kill_tree)."""
    close_fds: bool = False
    """--close-fds: the descriptors above 2 are closed when the command starts."""
    clearenv: bool = False
    """--clearenv: the command starts with an empty environment (before setenv, unsetenv)."""
    setenv: Sequence[str] | Mapping[str, str] | None = None
    """--setenv: 'VAR=VALUE' strings, or a mapping of names to values, in order."""
    unsetenv: Sequence[str] | None = None
    """--unsetenv: variable names, after setenv."""
    abi: int | None = None
    """--abi: behave as if the kernel's Landlock ABI were min(abi, real); a positive integer."""
    strict: bool = False
    """--strict: refuse to run (status 125) unless every filesystem right is enforced."""
    verbose: bool = False
    """--verbose: the launcher prints the effective policy to stderr."""

    def __post_init__(self) -> None:
        options(_given_fields(self))


class PolicyDict(TypedDict, total=False):
    """Policy's fields as a mapping, for grant_args({"ro": ["/"]}) to be type-checked."""

    ro: Sequence[PathArg] | None
    rw: Sequence[PathArg] | None
    ro_try: Sequence[PathArg] | None
    rw_try: Sequence[PathArg] | None
    hide: Sequence[PathArg] | None
    no_symlinks: bool
    unix: Sequence[PathArg] | None
    tcp_bind: Ports | None
    tcp_connect: Ports | None
    no_tcp: bool
    udp_bind: Ports | None
    udp_connect: Ports | None
    no_udp: bool
    no_network: bool
    no_unix: bool
    scopes: Sequence[Scope] | None
    allow_syscalls: Sequence[SyscallGroup] | None
    log_subprocesses: bool
    no_log: bool
    no_log_nested: bool
    explain: bool
    explain_json: PathArg | None
    learn: PathArg | None
    keep_caps: bool
    new_session: bool
    die_with_parent: bool
    kill_tree: bool
    private_tmp: bool
    close_fds: bool
    clearenv: bool
    setenv: Sequence[str] | Mapping[str, str] | None
    unsetenv: Sequence[str] | None
    abi: int | None
    strict: bool
    verbose: bool


PolicyLike: TypeAlias = Union[Policy, PolicyDict, None]
"""What grant_args() and the functions that run the launcher take as a policy."""


def _fail(message: str) -> PolicyError:
    return PolicyError(message)


# The launcher refuses an option argument that is itself an option (--anything, -v, -hV):
# it would have swallowed one. A path that starts with - is written ./-name.
def _looks_like_option(v: str) -> bool:
    return v.startswith("--") or re.fullmatch(r"-[hvV]+", v) is not None


def _is_list(v: object) -> TypeGuard[Sequence[object]]:
    # a str or bytes is a sequence too: ro="/" would be one grant per character
    return isinstance(v, Sequence) and not isinstance(v, (str, bytes))


# Checks of one value: return its option argument (a str) or raise PolicyError.
def _path(key: str, p: object) -> str:
    s = os.fsdecode(p) if isinstance(p, (str, bytes, os.PathLike)) else None
    if s is None or s == "" or "\0" in s or _looks_like_option(s):
        raise _fail(
            f"{key} has an invalid path {p!r} (paths are non-empty str, bytes or os.PathLike without NUL;"
            " one that starts with - is written ./-name)"
        )
    return s


def _is_port(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 65535


def _port(key: str, p: object) -> str:
    m = re.fullmatch(r"(0|[1-9][0-9]{0,4})-(0|[1-9][0-9]{0,4})", p) if isinstance(p, str) else None
    ok = _is_port(int(m[1])) and _is_port(int(m[2])) and int(m[1]) <= int(m[2]) if m else _is_port(p)
    if not ok:
        raise _fail(f"{key} has an invalid port {p!r} (ports are int 0..65535, ranges str 'A-B' with A <= B)")
    return str(p)


def _member(names: Sequence[str], what: str) -> Callable[[str, object], str]:
    def check(key: str, v: object) -> str:
        if not isinstance(v, str) or v not in names:
            raise _fail(f"unknown {what} {v!r} in {key} (known: {', '.join(names)})")
        return v

    return check


def _env_entry(assign: bool) -> Callable[[str, object], str]:
    """'VAR=VALUE' for setenv, 'VAR' for unsetenv: a name that is not empty and has no '='."""

    want = "'VAR=VALUE'" if assign else "a variable name, without '='"

    def check(key: str, v: object) -> str:
        if not isinstance(v, str) or v.startswith("=") or v == "" or "\0" in v or _looks_like_option(v) or ("=" in v) != assign:
            raise _fail(f"{key} has an invalid entry {v!r} ({want})")
        return v

    return check


def _abi(key: str, n: object) -> str:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 0x7FFFFFFF:
        raise _fail(f"{key} must be a positive int, not {n!r}")
    return str(n)


# Kinds of field: how a value becomes options.
Kind: TypeAlias = Callable[[str, str, object], list[str]]


def _list(check: Callable[[str, object], str]) -> Kind:
    def kind(key: str, option: str, value: object) -> list[str]:
        if not _is_list(value):
            one = f": write {key}=[{value!r}]" if isinstance(value, (str, bytes, os.PathLike, int)) else ""
            raise _fail(f"{key} must be a list or tuple, not {type(value).__name__}{one}")
        return [a for v in value for a in (option, check(key, v))]

    return kind


def _one(check: Callable[[str, object], str]) -> Kind:
    return lambda key, option, value: [option, check(key, value)]


def _flag(key: str, option: str, value: object) -> list[str]:
    if not isinstance(value, bool):
        raise _fail(f"{key} must be a bool, not {value!r}")
    return [option] if value else []


# 'none' or an empty sequence confine that kind and allow no port; a list allows those ports.
def _ports(key: str, option: str, value: object) -> list[str]:
    if value == "none" or (_is_list(value) and len(value) == 0):
        return [option, "none"]
    if not _is_list(value):
        raise _fail(f"{key} must be a list of ports or 'none', not {value!r}")
    return _list(_port)(key, option, value)


# setenv: 'VAR=VALUE' strings, or a mapping of names to values
def _setenv(key: str, option: str, value: object) -> list[str]:
    if isinstance(value, Mapping):
        for name, v in value.items():
            if not isinstance(name, str) or name == "" or "=" in name or not isinstance(v, str):
                raise _fail(f"{key} has an invalid entry {name!r}: {v!r} (names without '=' to str values)")
        value = [f"{name}={v}" for name, v in value.items()]
    return _list(_env_entry(True))(key, option, value)


FIELDS: tuple[tuple[str, str, Kind], ...] = (
    ("ro", "--ro", _list(_path)),
    ("rw", "--rw", _list(_path)),
    ("ro_try", "--ro-try", _list(_path)),
    ("rw_try", "--rw-try", _list(_path)),
    ("hide", "--hide", _list(_path)),
    ("no_symlinks", "--no-symlinks", _flag),
    ("unix", "--unix", _list(_path)),
    ("tcp_bind", "--tcp-bind", _ports),
    ("tcp_connect", "--tcp-connect", _ports),
    ("no_tcp", "--no-tcp", _flag),
    ("udp_bind", "--udp-bind", _ports),
    ("udp_connect", "--udp-connect", _ports),
    ("no_udp", "--no-udp", _flag),
    ("no_network", "--no-network", _flag),
    ("no_unix", "--no-unix", _flag),
    ("scopes", "--scope", _list(_member(SCOPES, "scope"))),
    ("allow_syscalls", "--allow-syscalls", _list(_member(SYSCALL_GROUPS, "system-call group"))),
    ("log_subprocesses", "--log-subprocesses", _flag),
    ("no_log", "--no-log", _flag),
    ("no_log_nested", "--no-log-nested", _flag),
    ("explain", "--explain", _flag),
    ("explain_json", "--explain-json", _one(_path)),
    ("learn", "--learn", _one(_path)),
    ("keep_caps", "--keep-caps", _flag),
    ("new_session", "--new-session", _flag),
    ("die_with_parent", "--die-with-parent", _flag),
    ("kill_tree", "--kill-tree", _flag),
    ("private_tmp", "--private-tmp", _flag),
    ("close_fds", "--close-fds", _flag),
    ("clearenv", "--clearenv", _flag),
    ("setenv", "--setenv", _setenv),
    ("unsetenv", "--unsetenv", _list(_env_entry(False))),
    ("abi", "--abi", _one(_abi)),
    ("strict", "--strict", _flag),
    ("verbose", "--verbose", _flag),
)

POLICY_OPTIONS: Mapping[str, str] = types.MappingProxyType({key: option for key, option, _ in FIELDS})
"""Each Policy field and the launcher option it becomes, in grant_args() order."""

# What the launcher refuses beside --learn: a policy, and explaining one (--hide it takes:
# the learning run cannot read the hidden paths).
NOT_WITH_LEARN = (
    "ro", "rw", "ro_try", "rw_try", "unix", "tcp_bind", "tcp_connect", "no_tcp", "udp_bind", "udp_connect",
    "no_udp", "no_network", "no_unix", "scopes", "log_subprocesses", "no_log", "no_log_nested", "strict", "explain",
    "explain_json",
)  # fmt: skip


def _given_fields(policy: Policy) -> dict[str, object]:
    return {f.name: getattr(policy, f.name) for f in dataclasses.fields(policy)}


def _suggestion(key: str) -> str:
    """' (did you mean ...?)' for a Node or CLI spelling of a field: roTry, --ro-try."""
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key.lstrip("-")).replace("-", "_").lower()
    for key2, option, _ in FIELDS:
        if snake in (key2, option.lstrip("-").replace("-", "_")):
            return f" (did you mean {key2!r}?)"
    return ""


def _given_mapping(policy: Mapping[str, object]) -> dict[str, object]:
    for key in policy:
        if not isinstance(key, str) or key not in POLICY_OPTIONS:
            raise _fail(f"unknown policy field {key!r}{_suggestion(str(key))} (known: {', '.join(POLICY_OPTIONS)})")
    return {str(k): v for k, v in policy.items()}


def options(values: Mapping[str, object]) -> list[str]:
    """The options for these field values (None and False mean not given); PolicyError."""
    given = {k: v for k, v in values.items() if v is not None and v is not False}
    # contradictory, so refused rather than merged (a merge would silently allow the ports)
    for no, bind, connect in (("no_tcp", "tcp_bind", "tcp_connect"), ("no_udp", "udp_bind", "udp_connect")):
        if no in given and (bind in given or connect in given):
            raise _fail(f"{no} contradicts {bind}/{connect}: give one or the other")
    # no_network allows no port: a port list would be allowed after all
    for key in ("tcp_bind", "tcp_connect", "udp_bind", "udp_connect"):
        v = given.get(key)
        if "no_network" in given and v is not None and v != "none" and not (_is_list(v) and len(v) == 0):
            raise _fail(f"{key} contradicts no_network, which allows no port: give one or the other")
    # io_uring's own socket operation passes by the filter
    groups = given.get("allow_syscalls")
    for no in ("no_network", "no_unix"):
        if no in given and _is_list(groups) and "io_uring" in groups:
            raise _fail(f"allow_syscalls 'io_uring' contradicts {no}: io_uring creates sockets the filter cannot see")
    # --learn runs the command without the sandbox: it takes no policy and explains nothing
    if "learn" in given:
        other = next((k for k in NOT_WITH_LEARN if k in given), None)
        if other is not None:
            raise _fail(
                f"learn runs the command without the sandbox and takes no {other}: drop {other}, or learn first and"
                " give the policy it writes to a run without learn"
            )
    return [a for key, option, kind in FIELDS if key in given for a in kind(key, option, given[key])]


def grant_args(policy: PolicyLike = None) -> list[str]:
    """The launcher options for a policy (a Policy, or a mapping with its field names), in
    the order of POLICY_OPTIONS and within one field in the caller's order:
    grant_args(Policy(ro=["/"], rw=["/tmp"])) == ["--ro", "/", "--rw", "/tmp"].
    Raises PolicyError (a TypeError and a ValueError) for a policy the launcher refuses."""
    if policy is None:
        return []
    if isinstance(policy, Policy):
        return options(_given_fields(policy))
    if isinstance(policy, Mapping):
        return options(_given_mapping(policy))
    raise _fail(f"policy must be a Policy or a mapping of its fields, not {type(policy).__name__}")
