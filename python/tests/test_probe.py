"""probe(): what this kernel enforces, asked of the installed launcher, and every way the
answer can be 'unusable' (stand-ins for the launcher), never an exception."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import landlock_run as lr
from support import FULL_ABI, KERNEL_ABI, KNOWN_ABI, fake_launcher, needs_landlock, right_abi

FULL = ('{"abi":10,"abi_used":10,"enforcement":"full","errata":15,"pathname_sockets":true,"tcp":true,"udp":true,'
        '"scopes":["abstract-unix","signal"],"network_confined":"all","network":"all","baseline":["io_uring","userns"],"no_unix":true,"explain":true,'
        '"where":["seccomp_filter","ptrace_refused","later"],"new_key":[1]}')  # fmt: skip
PARTIAL = '{"abi":2,"abi_used":2,"enforcement":"partial","errata":null,"pathname_sockets":false,"tcp":false,"udp":false,"scopes":[]}'


@needs_landlock
def test_this_kernels_abi_and_verdict() -> None:
    p = lr.probe()
    assert (p.error, p.code, p.enforced) == (None, None, True)
    assert (p.abi, p.abi_used) == (KERNEL_ABI, min(KERNEL_ABI, KNOWN_ABI))
    assert p.enforcement == ("full" if KERNEL_ABI >= FULL_ABI else "partial")
    assert p.pathname_sockets == (KERNEL_ABI >= right_abi("resolve_unix"))
    assert (p.tcp, p.udp) == (KERNEL_ABI >= 4, KERNEL_ABI >= right_abi("udp_connect"))
    assert p.scopes == (("abstract-unix", "signal") if KERNEL_ABI >= 6 else ())
    assert "io_uring" in p.baseline and p.network_confined == "nothing"
    # the tests run where ptrace and /proc work; a seccomp filter only where the runner has one
    filtered = any(line.split() == ["Seccomp:", "2"] for line in Path("/proc/self/status").read_text().splitlines())
    assert (p.explain, p.where) == (True, ("seccomp_filter",) if filtered else ())


@needs_landlock
def test_a_policy_an_older_abi_is_partial_one_this_host_cannot_enforce_is_policy(tmp_path: Path) -> None:
    p = lr.probe(policy=lr.Policy(abi=3))
    assert (p.enforcement, p.abi, p.abi_used, p.tcp) == ("partial", KERNEL_ABI, 3, False)
    assert lr.probe(policy={"no_network": True}).network_confined == "all"
    assert lr.probe(policy={"no_unix": True}).no_unix and not lr.probe().no_unix
    assert lr.probe(policy={"tcp_connect": [443]}).network_confined == ("tcp" if KERNEL_ABI >= 4 else "nothing")
    # a future key: what is not one of the documented values is 'nothing', not whatever came
    facts = FULL.replace('"network_confined":"all"', '"network_confined":"sctp"')
    odd = lr.probe(launcher=fake_launcher(tmp_path, f"echo '{facts}'"))
    assert odd.network_confined == "nothing"
    for policy in (lr.Policy(abi=3, strict=True), lr.Policy(ro=[tmp_path / "nonexistent"])):
        s = lr.probe(policy=policy)
        assert (s.enforcement, s.code, s.enforced) == ("unusable", "POLICY", False), policy
        assert s.error and s.error.startswith("landlock-run: ")


def test_the_report_read_from_a_stand_in(tmp_path: Path) -> None:
    full = lr.probe(launcher=fake_launcher(tmp_path, f"echo '{FULL}'"))
    assert full == lr.ProbeResult(
        enforced=True, enforcement="full", abi=10, abi_used=10, errata=15, pathname_sockets=True, tcp=True, udp=True,
        scopes=("abstract-unix", "signal"), network_confined="all", baseline=("io_uring", "userns"), no_unix=True, explain=True,
        where=("seccomp_filter", "ptrace_refused"), code=None, error=None,
    )  # fmt: skip
    partial = lr.probe(launcher=fake_launcher(tmp_path, f"echo '{PARTIAL}'"))
    assert (partial.enforcement, partial.errata, partial.scopes, partial.network_confined, partial.baseline) == ("partial", None, (), "nothing", ())
    assert (partial.explain, partial.where) == (False, ())


def test_it_passes_probe_json_and_the_policys_options(tmp_path: Path) -> None:
    log = tmp_path / "args"
    lr.probe(launcher=fake_launcher(tmp_path, f"printf '%s\\n' \"$@\" >{log}; echo '{FULL}'"),
             policy=lr.Policy(ro=["/"], tcp_bind=[80], scopes=["signal"], abi=6, strict=True))  # fmt: skip
    assert log.read_text().split() == ["--probe", "--json", "--ro", "/", "--tcp-bind", "80", "--scope", "signal", "--abi", "6", "--strict"]


CASES = {
    "NO_LANDLOCK": ("echo 'landlock-run: Landlock is not supported by this kernel (ENOSYS)' >&2; exit 125",
                    "landlock-run: Landlock is not supported by this kernel (ENOSYS)"),
    "SECCOMP": ("echo 'landlock-run: a seccomp filter refuses the Landlock system calls (Seccomp: 2 ...): EPERM' >&2; exit 125",
                "landlock-run: a seccomp filter refuses the Landlock system calls (Seccomp: 2 ...): EPERM"),
    "EXEC": ("echo 'something broke' >&2; exit 3", "something broke"),
    "SIGNAL": ("kill -TERM $$", "probe was killed by SIGTERM"),
    "OUTPUT": ("echo 'landlock: fully enforced'", "unreadable probe output: 'landlock: fully enforced'"),
}  # fmt: skip


@pytest.mark.parametrize("code", CASES)
def test_unusable_with_a_code_and_a_message(tmp_path: Path, code: str) -> None:
    body, error = CASES[code]
    p = lr.probe(launcher=fake_launcher(tmp_path, body))
    assert (p.enforced, p.enforcement, p.code, p.error) == (False, "unusable", code, error)
    assert (p.abi, p.abi_used, p.errata, p.scopes, p.baseline, p.network_confined) == (None, None, None, (), (), "nothing")
    assert (p.explain, p.where) == (False, ("seccomp_filter",) if code == "SECCOMP" else ())


def test_unusable_output_a_timeout_a_missing_launcher_bad_options(tmp_path: Path) -> None:
    assert lr.probe(launcher=fake_launcher(tmp_path, "echo '{\"abi\":7}'")).code == "OUTPUT"
    assert lr.probe(launcher=fake_launcher(tmp_path, "head -c 2000000 /dev/zero")).code == "OUTPUT"
    t = time.monotonic()
    slow = lr.probe(launcher=fake_launcher(tmp_path, "exec sleep 60"), timeout=0.5)
    assert (slow.code, slow.error) == ("TIMEOUT", "probe timed out after 0.5 s") and time.monotonic() - t < 10
    # a launcher that closes its output and goes on is waited for no longer either
    assert lr.probe(launcher=fake_launcher(tmp_path, f"echo '{FULL}'; exec >&- 2>&-; sleep 60"), timeout=0.5).code == "TIMEOUT"
    missing = lr.probe(launcher=tmp_path / "missing")
    assert (missing.code, missing.error) == ("NOT_INSTALLED", f"cannot run {tmp_path / 'missing'}: ENOENT")
    (tmp_path / "plain").write_text("x")
    assert lr.probe(launcher=tmp_path / "plain").code == "EXEC"
    for kwargs in ({"timeout": 0}, {"timeout": -1}, {"timeout": float("nan")}, {"timeout": True}, {"launcher": ""},
                   {"policy": {"nope": 1}}, {"policy": lr.Policy(), "timeout": "5"}):  # fmt: skip
        p = lr.probe(**kwargs)
        assert (p.code, p.enforced) == ("OPTIONS", False), kwargs


@needs_landlock
def test_the_policy_code_needs_the_bare_probe_to_enforce(tmp_path: Path) -> None:
    # a stand-in that refuses everything: a policy's refusal is then the host's, not the policy's
    refuse = fake_launcher(tmp_path, "echo 'landlock-run: Landlock is disabled' >&2; exit 125")
    assert lr.probe(launcher=refuse, policy=lr.Policy(ro=["/"])).code == "NO_LANDLOCK"
