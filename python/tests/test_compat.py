"""landlock_run.compat: the harness's simple contract, which never raises where it says so."""

from __future__ import annotations

from pathlib import Path

import pytest

import landlock_run as lr
from landlock_run import compat
from support import VERDICT, fake_launcher, needs_landlock


def test_launcher_path_is_the_packages_and_the_constants() -> None:
    assert compat.launcher_path() == lr.launcher_path()
    assert (compat.LAUNCHER_FAILURE_EXIT, compat.LAUNCHER_BIN) == (125, "landlock-run")


def test_grant_args_ro_then_rw() -> None:
    assert compat.grant_args(read_only=["/"], read_write=["/dev/null", "/tmp", Path("/w")]) == [
        "--ro", "/", "--rw", "/dev/null", "--rw", "/tmp", "--rw", "/w"]  # fmt: skip
    assert compat.grant_args() == []
    with pytest.raises(lr.PolicyError):
        compat.grant_args(read_only="/")
    with pytest.raises(TypeError):
        compat.grant_args(["/"])  # keyword only


@needs_landlock
def test_probe_of_the_installed_launcher() -> None:
    assert compat.probe() == VERDICT == compat.probe(lr.launcher_path(), timeout=30)


@pytest.mark.parametrize("out, want", [
    ("printf 'landlock: fully enforced\\n'", "full"), ("printf 'landlock: fully enforced'", "full"),
    ("printf 'landlock: partially enforced (older ABI)\\n'", "partial"),
    ("printf 'landlock: fully enforced \\n'", "unusable"), ("printf 'landlock: fully enforced\\r\\n'", "unusable"),
    ("printf 'landlock: fully enforced\\nmore\\n'", "unusable"), ("printf 'landlock: fully enforced\\n'; exit 1", "unusable"),
    ("echo 'landlock-run: no Landlock' >&2; exit 125", "unusable"), ("kill -KILL $$", "unusable"),
    ("head -c 100000 /dev/zero", "unusable"), ("echo 'landlock: fully enforced' >&2", "unusable"),
])  # fmt: skip
def test_probe_reads_the_verdict_line_and_nothing_else(tmp_path: Path, out: str, want: str) -> None:
    assert compat.probe(fake_launcher(tmp_path, out)) == want


def test_probe_never_raises(tmp_path: Path) -> None:
    assert compat.probe(fake_launcher(tmp_path, "exec sleep 60"), timeout=0.3) == "unusable"
    assert compat.probe(tmp_path / "missing") == "unusable"
    for launcher, timeout in (("", 1.0), (42, 1.0), (None, 0), (None, -1), (None, float("inf")), (None, "x")):
        assert compat.probe(launcher, timeout=timeout) == "unusable"
