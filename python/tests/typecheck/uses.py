"""A program using the whole API as a harness would; mypy --strict must pass it, with the
types asserted here (test_typecheck.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, assert_type

import landlock_run as lr
from landlock_run import compat

policy = lr.Policy(ro=["/", Path("/usr"), b"/opt"], rw=[Path.cwd()], tcp_connect=[443, "8000-8999"], scopes=["signal"],
                   setenv={"PATH": "/usr/bin"}, abi=4)  # fmt: skip
mapping: lr.PolicyDict = {"ro": ["/"], "no_network": True, "allow_syscalls": ["userns"]}
assert_type(lr.grant_args(policy), list[str])
assert_type(lr.grant_args(mapping), list[str])
assert_type(lr.command(None, ["true"], launcher=Path("/usr/bin/landlock-run")), list[str])
assert_type(lr.launcher_path(), str)

done = lr.run(policy, ["make"], capture_output=True, text=True, timeout=60)
assert_type(done, lr.ConfinedCompleted[str])
assert_type(done.stdout, str)
raw = lr.run(policy, ["make"], capture_output=True, input=b"x")
assert_type(raw, lr.ConfinedCompleted[bytes])
status: lr.ConfinedStatus = done.status
if status.executed and status.enforcement == "partial":
    assert_type(status.pid, int | None)
assert_type(status.exit, int | None)
assert_type(status.signal, str | None)

proc = lr.spawn_confined(mapping, ["sleep", "1"], stdout=subprocess.PIPE, text=True, cwd="/")
assert_type(proc, lr.ConfinedProcess[str])
assert isinstance(proc, subprocess.Popen)
out, _ = proc.communicate(timeout=5)
assert_type(proc.started(timeout=1.5), lr.ConfinedStatus)
binary = lr.spawn_confined(None, ["true"])
assert_type(binary, lr.ConfinedProcess[bytes])
flag: bool = bool(len(out))
assert_type(lr.spawn_confined(None, ["true"], text=flag), lr.ConfinedProcess[Any])

try:
    lr.run(policy, ["true"], check=True, timeout=1)
except lr.ConfinedTimeout as e:
    assert_type(e.status, lr.ConfinedStatus)
except lr.ConfinedProcessError as e:
    assert_type(e.returncode, int)
except (lr.PolicyError, lr.LauncherError) as e:
    if isinstance(e, lr.LauncherError):
        assert_type(e.code, lr.LauncherErrorCode)

p = lr.probe(policy=policy, timeout=5)
assert_type(p, lr.ProbeResult)
code: lr.ProbeErrorCode | None = p.code
assert_type(p.scopes, tuple[str, ...])

for d in lr.parse_denials(Path("r.json").read_bytes()):
    if d.kind == "fs":
        assert_type(d, lr.FsDenial)
        assert_type(d.path_bytes, bytes)
    elif isinstance(d, lr.NetDenial):
        assert_type(d.port, int)
    elif isinstance(d, lr.UnlistedDenials):
        assert_type(d.denials, int)

assert_type(compat.probe(), compat.ProbeVerdict)
assert_type(compat.grant_args(read_only=["/"], read_write=[Path("/tmp")]), list[str])
assert_type(compat.LAUNCHER_FAILURE_EXIT, int)
assert_type(lr.is_launcher_failure(done.returncode, done.stderr), bool)
