"""The types, checked by Debian's mypy in strict mode against the installed package (found
through its py.typed): the package itself, for the oldest Python it admits too; a program
using the whole API with its types asserted; the README's examples; and, so the check can
fail, a program of misuses that must be refused line by line."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from support import NATIVE, ROOT, Venv, sh, wheel

HERE = Path(__file__).parent / "typecheck"


def mypy(tmp_path: Path, *args: str | Path, python: str | Path = sys.executable) -> tuple[int, str]:
    r = sh("mypy", "--strict", "--no-error-summary", "--hide-error-context", f"--cache-dir={tmp_path / 'cache'}",
           f"--python-executable={python}", *args)  # fmt: skip
    return r.returncode, r.stdout + r.stderr


def readme_examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "python" / "README.md").read_text(), re.S)


def test_the_installed_package_is_strict_clean_for_3_10_and_this_python(tmp_path: Path, fresh: Venv) -> None:
    for version in ("3.10", f"{sys.version_info.major}.{sys.version_info.minor}"):
        rc, out = mypy(tmp_path, "--python-version", version, "-p", "landlock_run", python=fresh.python)
        assert rc == 0, out


def test_a_program_using_the_whole_api_passes_with_its_types(tmp_path: Path, fresh: Venv) -> None:
    rc, out = mypy(tmp_path, HERE / "uses.py", python=fresh.python)
    assert rc == 0, out


def test_the_readme_examples_pass(tmp_path: Path, fresh: Venv) -> None:
    examples = readme_examples()
    assert len(examples) == 2
    for i, code in enumerate(examples):
        (tmp_path / f"example{i}.py").write_text(code)
        rc, out = mypy(tmp_path, tmp_path / f"example{i}.py", python=fresh.python)
        assert rc == 0, out


def test_misuses_are_refused_each_on_its_line(tmp_path: Path, fresh: Venv) -> None:
    source = (HERE / "misuses.py").read_text().splitlines()
    want = {(n, m[1]) for n, line in enumerate(source, 1) if (m := re.search(r"# E: ([a-z-]+)$", line))}
    assert len(want) >= 12
    rc, out = mypy(tmp_path, HERE / "misuses.py", python=fresh.python)
    got = {(int(m[1]), m[2]) for m in re.finditer(r"misuses\.py:(\d+): error: .*\[([a-z-]+)\]$", out, re.M)}
    assert rc == 1 and got == want, out


def test_without_the_package_or_its_py_typed_mypy_refuses_the_program(tmp_path: Path) -> None:
    # control: the import cannot be typed without the wheel, nor without its marker
    venv = Venv(tmp_path / "venv")
    rc, out = mypy(tmp_path, HERE / "uses.py", python=venv.python)
    assert rc == 1 and 'Cannot find implementation or library stub for module named "landlock_run"' in out, out
    assert venv.pip("install", "--no-index", wheel(NATIVE)).returncode == 0
    (marker,) = venv.path.glob("lib/python*/site-packages/landlock_run/py.typed")
    marker.unlink()
    rc, out = mypy(tmp_path, HERE / "uses.py", python=venv.python)
    assert rc == 1 and "module is installed, but missing library stubs or py.typed marker" in out, out
