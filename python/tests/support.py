"""Shared by the wheel rehearsal's tests (python/tests/test_*.py), run by
scripts/python-rehearsal.sh inside a fresh virtual environment that holds this machine's
wheel, which sets the environment:
  LR_ROOT the repository, LR_DIST the wheels (dist/python), LR_VERSION, LR_WORK a scratch
  directory, LR_KERNEL_ABI (asked of the kernel without the launcher), LR_NATIVE and
  LR_FOREIGN the architectures (x86_64 and aarch64 here), LR_FOREIGN_RUN the qemu-user that
  runs the foreign binary (no Landlock there), LR_VENV the environment, LR_SYSTEM_PYTHON
  Debian's python3 (for fresh environments of the tests' own).
"""

from __future__ import annotations

import glob
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

NAMES = ("LR_ROOT", "LR_DIST", "LR_VERSION", "LR_WORK", "LR_KERNEL_ABI", "LR_NATIVE", "LR_FOREIGN", "LR_VENV", "LR_SYSTEM_PYTHON")
missing = [k for k in NAMES if not os.environ.get(k)]
if missing:
    raise RuntimeError(f"{', '.join(missing)} not set: run scripts/python-rehearsal.sh")
ENV = {k: os.environ[k] for k in NAMES}
ROOT = Path(ENV["LR_ROOT"])
VERSION = ENV["LR_VERSION"]
KERNEL_ABI = int(ENV["LR_KERNEL_ABI"])
NATIVE, FOREIGN = ENV["LR_NATIVE"], ENV["LR_FOREIGN"]
FOREIGN_RUN = os.environ.get("LR_FOREIGN_RUN", "")
BUILD_BINARY = ROOT / "build" / NATIVE / "landlock-run"
TRYOP = ROOT / "build" / NATIVE / "tryop"

# From the one table of rights per ABI (tests/rights.sh, rows "KIND NAME ABI"): the ABI from
# which the probe says full (its newest filesystem right) and the newest it knows.
RIGHTS = [row.split() for row in re.findall(r"^[a-z]+ \S+ \d+$", (ROOT / "tests" / "rights.sh").read_text(), re.M)]
FULL_ABI = max(int(abi) for kind, _, abi in RIGHTS if kind == "fs")
KNOWN_ABI = max(int(abi) for _, _, abi in RIGHTS)


def right_abi(name: str) -> int:
    return max(int(abi) for _, right, abi in RIGHTS if right == name)


VERDICT = "full" if KERNEL_ABI >= FULL_ABI else "partial" if KERNEL_ABI > 0 else "unusable"
needs_landlock = pytest.mark.skipif(KERNEL_ABI == 0, reason="this kernel has no Landlock")


def wheel(arch: str) -> Path:
    (found,) = glob.glob(str(Path(ENV["LR_DIST"]) / f"landlock_run-{VERSION}-py3-none-*_{arch}.whl"))
    return Path(found)


def sh(*argv: str | os.PathLike[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run argv; its result, text, stdout and stderr captured."""
    return subprocess.run([os.fspath(a) for a in argv], capture_output=True, text=True, **kwargs)


def fake_launcher(directory: Path, body: str, name: str = "landlock-run") -> str:
    """A stand-in for the launcher: an executable bash script with this body (bash: dash
    cannot name a descriptor above 9, and the status descriptor may well be)."""
    path = directory / name
    path.write_text(f"#!/bin/bash\n{body}\n")
    path.chmod(0o755)
    return str(path)


class Venv:
    """A fresh virtual environment of the tests' own (Debian's python3 and its ensurepip,
    offline), with no site packages but its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.python = path / "bin" / "python"
        r = sh(ENV["LR_SYSTEM_PYTHON"], "-m", "venv", path)
        assert r.returncode == 0, r.stderr

    def pip(self, *args: str | os.PathLike[str]) -> subprocess.CompletedProcess[str]:
        return sh(self.python, "-m", "pip", *args)

    def run(self, code: str, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
        return sh(self.python, "-P", "-c", code, *args, **kwargs)


def executable(path: Path) -> bool:
    return path.is_file() and bool(path.stat().st_mode & stat.S_IXUSR)


assert sys.prefix == ENV["LR_VENV"], f"the suite runs in {ENV['LR_VENV']}, not {sys.prefix}"
