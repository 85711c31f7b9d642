"""The wheel as pip installs it: what lands where, which wheel pip takes on which machine,
and the errors when the wheel of another machine got installed anyway."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import sys
import sysconfig
import zipfile
from pathlib import Path
from unittest import mock

import pytest

import landlock_run
from support import BUILD_BINARY, FOREIGN, NATIVE, ROOT, VERSION, Venv, executable, fake_launcher, sh, wheel

SITE = Path(sysconfig.get_paths()["purelib"])


def test_the_package_comes_from_the_environment_not_the_tree() -> None:
    assert Path(landlock_run.__file__).parent == SITE / "landlock_run"
    assert not str(Path(landlock_run.__file__)).startswith(str(ROOT))


def test_launcher_path_is_the_tested_build_mode_0755_and_so_is_the_scripts_copy() -> None:
    path = Path(landlock_run.launcher_path())
    assert path == SITE / "landlock_run" / "_bin" / "landlock-run"
    assert path.stat().st_mode & 0o777 == 0o755
    assert path.read_bytes() == BUILD_BINARY.read_bytes()
    on_path = Path(sys.prefix) / "bin" / "landlock-run"
    assert executable(on_path) and on_path.read_bytes() == BUILD_BINARY.read_bytes()
    assert sh(on_path, "--version").stdout == f"landlock-run {VERSION}\n"


def test_the_man_page_is_installed_where_man_finds_it_from_path() -> None:
    page = Path(sys.prefix) / "share" / "man" / "man1" / "landlock-run.1"
    assert page.read_bytes() == (ROOT / "landlock-run.1").read_bytes()
    r = sh("man", "-w", "landlock-run", env={**os.environ, "PATH": f"{sys.prefix}/bin:/usr/bin:/bin", "MANPATH": ""})
    assert r.stdout.strip() == str(page), r.stderr


def test_metadata_version_license_and_typed_marker() -> None:
    meta = importlib.metadata.metadata("landlock-run")
    assert (meta["Name"], meta["Version"], meta["License"]) == ("landlock-run", VERSION, "MIT")
    assert "Typing :: Typed" in meta.get_all("Classifier")
    assert (SITE / "landlock_run" / "py.typed").exists()
    files = {str(f) for f in importlib.metadata.files("landlock-run") or []}
    assert {"landlock_run/_bin/landlock-run", f"landlock_run-{VERSION}.dist-info/LICENSE"} <= files


def test_pip_check_and_show_in_a_fresh_environment(fresh: Venv) -> None:
    assert fresh.pip("check").returncode == 0
    r = fresh.run("import landlock_run, sys; print(landlock_run.launcher_path().startswith(sys.prefix))")
    assert r.stdout == "True\n", r.stderr


def test_python_m_landlock_run_execs_the_launcher_in_the_same_process() -> None:
    assert sh(sys.executable, "-m", "landlock_run", "--version").stdout == f"landlock-run {VERSION}\n"
    # the command is the very process that was started: exec, no child in between
    child = sh(sys.executable, "-c", "import subprocess, sys\n"
               "p = subprocess.Popen([sys.executable, '-m', 'landlock_run', '--ro', '/', '--', 'sh', '-c', 'echo $$'],"
               " stdout=subprocess.PIPE, text=True)\nprint(p.pid, p.communicate()[0])")  # fmt: skip
    pid, inner = child.stdout.split()
    assert pid == inner, child.stderr


def _ignores_sigpipe(status: str) -> bool:
    """From a /proc/PID/status: whether SIGPIPE (13, bit 12 of SigIgn) is ignored."""
    (mask,) = (line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:"))
    return bool(int(mask, 16) & 1 << 12)


def test_python_m_landlock_run_gives_the_command_the_default_sigpipe() -> None:
    # Python ignores SIGPIPE for itself, and an exec keeps an ignored signal ignored
    control = sh(sys.executable, "-c", "import os; os.execv('/bin/cat', ['cat', '/proc/self/status'])")
    assert _ignores_sigpipe(control.stdout), "control: a plain exec from Python leaves SIGPIPE ignored"
    r = sh(sys.executable, "-m", "landlock_run", "--ro", "/", "--", "cat", "/proc/self/status")
    assert r.returncode == 0 and not _ignores_sigpipe(r.stdout), r.stderr


def test_no_environment_variable_chooses_the_binary(tmp_path: Path) -> None:
    marker = tmp_path / "decoy-ran"
    decoy = fake_launcher(tmp_path, f"touch '{marker}'\necho '{{\"abi\":99,\"abi_used\":99,\"enforcement\":\"full\"}}'", "decoy")
    names = ("LANDLOCK_RUN_BINARY_PATH", "LANDLOCK_RUN_LAUNCHER", "LANDLOCK_RUN_PATH", "LANDLOCK_RUN", "LANDLOCK_RUN_BIN")
    code = "import landlock_run as lr; print(lr.launcher_path(), lr.probe().abi)"
    plain = sh(sys.executable, "-P", "-c", code)
    swapped = sh(sys.executable, "-P", "-c", code, env={**os.environ, **dict.fromkeys(names, decoy), "PATH": f"{tmp_path}:{os.environ['PATH']}"})
    assert swapped.returncode == 0 and swapped.stdout == plain.stdout, swapped.stderr
    assert not marker.exists(), "the decoy ran"
    # control: the decoy runs when given as the launcher argument
    assert landlock_run.probe(launcher=decoy).abi == 99 and marker.exists()


def _platforms_pip_takes(arch: str, glibc: tuple[int, int] | None, musl: tuple[int, int] | None) -> set[str]:
    """The platform tags pip's own logic (its vendored packaging, this pip's API) accepts
    on an arch machine with this glibc or musl."""
    from pip._vendor.packaging import _manylinux, _musllinux

    if glibc:
        with mock.patch.object(_manylinux, "_get_glibc_version", lambda: glibc), \
                mock.patch.object(_manylinux, "_have_compatible_abi", lambda arch: True):  # fmt: skip
            return set(_manylinux.platform_tags(f"linux_{arch}", arch))
    assert musl
    with mock.patch.object(_musllinux, "_get_musl_version", lambda executable: _musllinux._MuslVersion(*musl)):
        return set(_musllinux.platform_tags(arch))


@pytest.mark.parametrize("glibc, musl", [((2, 5), None), ((2, 17), None), ((2, 28), None), ((2, 40), None), (None, (1, 1)), (None, (1, 2))])
def test_pip_takes_each_wheel_on_every_glibc_and_musl_of_its_architecture_only(
    glibc: tuple[int, int] | None, musl: tuple[int, int] | None
) -> None:
    from pip._vendor.packaging import tags

    for arch, other in ((NATIVE, FOREIGN), (FOREIGN, NATIVE)):
        supported = _platforms_pip_takes(arch, glibc, musl)
        if arch == "aarch64" and glibc and glibc < (2, 17):
            assert not supported  # no glibc this old has a manylinux tag for aarch64
            continue
        assert supported, (arch, glibc, musl)
        for whl, want in ((wheel(arch), True), (wheel(other), False)):
            platforms = {t.platform for t in tags.parse_tag(whl.name.removesuffix(".whl").split("-", 2)[2])}
            assert bool(platforms & supported) == want, (whl.name, arch, glibc, musl)


def test_this_machine_pip_installs_its_wheel_and_refuses_the_other(tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    r = venv.pip("install", "--no-index", wheel(FOREIGN))
    assert r.returncode != 0
    assert f"{wheel(FOREIGN).name} is not a supported wheel on this platform" in r.stderr
    assert not (Path(venv.path) / "bin" / "landlock-run").exists()
    assert venv.pip("install", "--no-index", wheel(NATIVE)).returncode == 0


def _installed_for(arch: str, target: Path) -> None:
    """pip install --target of the wheel for arch, as one does for another machine."""
    platform = wheel(arch).name.split("-")[4].split(".")[0]
    r = sh(sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--only-binary=:all:", f"--platform={platform}",
           f"--target={target}", wheel(arch))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_other_machines_wheel_installed_anyway_names_both_wheels(tmp_path: Path) -> None:
    _installed_for(FOREIGN, tmp_path / "t")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import landlock_run as lr\n"
            "try: lr.launcher_path()\nexcept lr.LauncherError as e: print(e.code); print(e)\n"
            "p = lr.probe(); print(p.code)\nfrom landlock_run import compat; print(compat.probe(), compat.launcher_path())")  # fmt: skip
    r = sh(sys.executable, "-P", "-c", code, str(tmp_path / "t"))
    code_line, message, probe_code, compat = r.stdout.splitlines()
    assert (code_line, probe_code) == ("WRONG_PLATFORM", "WRONG_PLATFORM"), r.stderr
    assert message == (
        f"the {FOREIGN} wheel {wheel(FOREIGN).name} is installed, but this machine ({NATIVE}) needs {wheel(NATIVE).name}:"
        " the environment was installed for another machine (pip install --platform or --target, or copied from one);"
        f" run pip install --force-reinstall landlock-run=={VERSION} on this machine"
    )
    verdict, path = compat.split(" ", 1)
    assert verdict == "unusable" and not Path(path).exists() and Path(path).is_absolute()
    # python -m landlock_run: the same line, as the launcher's own failure
    m = sh(sys.executable, "-P", "-c", "import sys, runpy; sys.path.insert(0, sys.argv.pop(1)); runpy.run_module('landlock_run', run_name='__main__')",
           str(tmp_path / "t"), "--version")  # fmt: skip
    assert (m.returncode, m.stdout, m.stderr) == (125, "", f"landlock-run: {message}\n")


def test_a_machine_without_a_wheel_and_a_missing_binary(tmp_path: Path) -> None:
    _installed_for(NATIVE, tmp_path / "t")
    code = ("import os, sys; sys.path.insert(0, sys.argv[1]); import landlock_run as lr\n"
            "if sys.argv[2] == 'uname': os.uname = lambda: os.uname_result(('Linux', 'h', '6', '#1', 'riscv64'))\n"
            "else: os.chmod(lr.launcher_path(), 0o644)\n"
            "try: lr.launcher_path()\nexcept lr.LauncherError as e: print(e.code); print(e)\n")  # fmt: skip
    r = sh(sys.executable, "-P", "-c", code, str(tmp_path / "t"), "uname")
    assert r.stdout.splitlines() == [
        "UNSUPPORTED_PLATFORM",
        f"no landlock-run wheel for Linux riscv64 (there are wheels for Linux {', '.join(sorted((NATIVE, FOREIGN)))}); Landlock is Linux-only",
    ], r.stderr
    r = sh(sys.executable, "-P", "-c", code, str(tmp_path / "t"), "chmod")
    binary = tmp_path / "t" / "landlock_run" / "_bin" / "landlock-run"
    assert r.stdout.splitlines() == [
        "NOT_INSTALLED", f"the launcher {binary} is missing or not executable: pip install --force-reinstall landlock-run=={VERSION}"
    ], r.stderr
    (tmp_path / "t" / "landlock_run" / "_bin" / "manifest.json").unlink()
    r = sh(sys.executable, "-P", "-c", code, str(tmp_path / "t"), "uname")
    assert r.stdout.splitlines()[0] == "NOT_INSTALLED" and "manifest" in r.stdout, r.stderr


def test_the_manifest_names_this_binary_and_every_wheel() -> None:
    manifest = json.loads((SITE / "landlock_run" / "_bin" / "manifest.json").read_text())
    assert manifest["sha256"] == hashlib.sha256(BUILD_BINARY.read_bytes()).hexdigest()
    assert (manifest["arch"], manifest["version"], manifest["wheel"]) == (NATIVE, VERSION, wheel(NATIVE).name)
    assert manifest["wheels"] == {NATIVE: wheel(NATIVE).name, FOREIGN: wheel(FOREIGN).name}


def test_the_foreign_wheel_holds_the_foreign_build() -> None:
    with zipfile.ZipFile(wheel(FOREIGN)) as z:
        assert z.read("landlock_run/_bin/landlock-run") == (ROOT / "build" / FOREIGN / "landlock-run").read_bytes()
