"""The other architecture's wheel: its binary, taken from the wheel, runs under qemu-user
(which has no Landlock system calls: a kernel without Landlock for it), prints its version
and fails closed, and the API reads that as no Landlock."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

import landlock_run as lr
from landlock_run import compat
from support import FOREIGN, FOREIGN_RUN, VERSION, fake_launcher, sh, wheel

pytestmark = pytest.mark.skipif(not FOREIGN_RUN, reason=f"no qemu-user for {FOREIGN} in platform/*.env")


@pytest.fixture
def foreign(tmp_path: Path) -> str:
    """A launcher that runs the foreign wheel's binary under qemu-user."""
    binary = tmp_path / "landlock-run"
    with zipfile.ZipFile(wheel(FOREIGN)) as z:
        binary.write_bytes(z.read("landlock_run/_bin/landlock-run"))
        assert z.getinfo("landlock_run/_bin/landlock-run").external_attr >> 16 == 0o100755
    binary.chmod(0o755)
    return fake_launcher(tmp_path, f'exec {FOREIGN_RUN} {binary} "$@"', "under-qemu")


def test_it_runs_and_prints_its_version(foreign: str) -> None:
    r = sh(foreign, "--version")
    assert (r.returncode, r.stdout) == (0, f"landlock-run {VERSION}\n"), r.stderr


def test_it_fails_closed_the_command_never_runs(foreign: str, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    # a command exec'd from inside qemu-user runs natively: a launcher that went on would make it
    r = lr.run(lr.Policy(rw=[tmp_path]), ["touch", marker], launcher=foreign, capture_output=True, text=True)
    assert r.returncode == 125 and not marker.exists()
    assert (r.status.executed, r.status.status) == (False, 125)
    assert r.status.error == r.stderr.rstrip("\n") and r.status.error.startswith("landlock-run: ")


def test_probe_says_no_landlock(foreign: str) -> None:
    p = lr.probe(launcher=foreign)
    assert (p.enforced, p.enforcement, p.code) == (False, "unusable", "NO_LANDLOCK")
    assert p.error and p.error.startswith("landlock-run: ") and ("Function not implemented" in p.error or "ENOSYS" in p.error)
    assert compat.probe(foreign) == "unusable"
