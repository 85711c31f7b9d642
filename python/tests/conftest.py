"""pytest's configuration for python/tests (helpers are in support.py): the fresh
environment fixture, and one last line "N passed, N failed" for make test's tally."""

from __future__ import annotations

import pytest

from support import NATIVE, Venv, wheel


@pytest.fixture(scope="session")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """A fresh environment with this machine's wheel installed offline, as a user would."""
    venv = Venv(tmp_path_factory.mktemp("fresh") / "venv")
    r = venv.pip("install", "--no-index", wheel(NATIVE))
    assert r.returncode == 0, r.stdout + r.stderr
    return venv


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    stats = terminalreporter.stats
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    terminalreporter.write_line(f"{len(stats.get('passed', []))} passed, {failed} failed")
