"""landlock_run: run a command under the Linux Landlock LSM, from Python.

The launcher is a static binary inside this package (one wheel per architecture); this
module finds it, builds its argv from a policy, runs it with a status descriptor the
command cannot forge, asks it what the kernel enforces and reads its denial reports.
See README.md (the package's description) and landlock-run(1).
"""

from ._denials import CapabilityDenial, Denial, FsDenial, NetDenial, ScopeDenial, SyscallDenial, UnlistedDenials, UnseenCalls, parse_denials
from ._platform import LauncherError, LauncherErrorCode, launcher_path
from ._policy import (
    POLICY_OPTIONS,
    SCOPES,
    SYSCALL_GROUPS,
    PathArg,
    Policy,
    PolicyDict,
    PolicyError,
    PolicyLike,
    Port,
    Ports,
    Scope,
    SyscallGroup,
    grant_args,
)
from ._probe import NetworkConfined, ProbeErrorCode, ProbeResult, probe
from ._run import (
    Arg,
    ConfinedCompleted,
    ConfinedProcess,
    ConfinedProcessError,
    ConfinedTimeout,
    command,
    is_launcher_failure,
    run,
    spawn_confined,
)
from ._status import ConfinedStatus, Enforcement

__all__ = [
    "POLICY_OPTIONS", "SCOPES", "SYSCALL_GROUPS", "Arg", "CapabilityDenial", "ConfinedCompleted", "ConfinedProcess", "ConfinedProcessError",
    "ConfinedStatus", "ConfinedTimeout", "Denial", "Enforcement", "FsDenial", "LauncherError", "LauncherErrorCode",
    "NetDenial", "NetworkConfined", "PathArg", "Policy", "PolicyDict", "PolicyError", "PolicyLike", "Port", "Ports", "ProbeErrorCode",
    "ProbeResult", "Scope", "ScopeDenial", "SyscallDenial", "SyscallGroup", "UnlistedDenials", "UnseenCalls", "command",
    "grant_args", "is_launcher_failure", "launcher_path", "parse_denials", "probe", "run", "spawn_confined",
]  # fmt: skip
