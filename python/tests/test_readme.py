"""The README's examples run as written, in a fresh environment with the wheel installed
offline, and print what the README says they print."""

from __future__ import annotations

import os
import re
from pathlib import Path

from support import KERNEL_ABI, ROOT, VERDICT, Venv, needs_landlock, sh

README = (ROOT / "python" / "README.md").read_text()
DENIED = Path("/tmp/landlock-run-denied.txt")


def example(heading: str) -> str:
    (code,) = re.findall(r"```python\n(.*?)```", README[README.index(heading):], re.S)[:1]
    return code


@needs_landlock
def test_the_example_runs_as_documented(fresh: Venv, tmp_path: Path) -> None:
    (tmp_path / "example.py").write_text(example("## Use from Python"))
    DENIED.unlink(missing_ok=True)
    try:
        r = sh(fresh.python, "example.py", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert r.stdout == (f"Landlock: {VERDICT} (ABI {KERNEL_ABI})\n"
                            "exit 2: sh: 1: cannot create /tmp/landlock-run-denied.txt: Permission denied\n")  # fmt: skip
        assert (tmp_path / "granted.txt").read_text() == "ok\n"
        assert not DENIED.exists(), "the denied write landed"
    finally:
        DENIED.unlink(missing_ok=True)
    assert "`Landlock: partial (ABI 7)`" in README and "`exit 2: sh: 1: cannot create /tmp/landlock-run-denied.txt: Permission\ndenied`" in README


@needs_landlock
def test_the_report_example_prints_the_denial_and_its_advice(fresh: Venv, tmp_path: Path) -> None:
    (tmp_path / "report.py").write_text(example("Reading a report"))
    (tmp_path / "Makefile").write_text("all:\n\t@touch /opt/landlock-run-readme\n")
    try:
        # as from a shell: not a sub-make of make test's (which would say where it enters)
        env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
        r = sh(fresh.python, "report.py", cwd=tmp_path, env=env)
        assert r.returncode == 0, r.stderr
        assert r.stdout == "make_reg /opt/landlock-run-readme ('--rw', '/opt')\n"
        assert not Path("/opt/landlock-run-readme").exists()
    finally:
        Path("/opt/landlock-run-readme").unlink(missing_ok=True)


def test_the_install_line_names_what_exists() -> None:
    assert "python3 -m venv .venv && .venv/bin/pip install landlock-run" in README
    assert "pip install --no-index dist/python/landlock_run-VERSION-py3-none-*_x86_64.whl" in README
