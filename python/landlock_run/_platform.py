"""Which launcher binary this machine runs: the one in this package's _bin/, put there by
the wheel for one architecture, whose _bin/manifest.json says which (and names the wheel
of every architecture). pip installs the wheel whose tag matches the machine; a wheel for
another one got here by pip install --platform/--target or a copied environment.

No environment variable is consulted: whoever sets the environment must not choose the
binary that confines a process. A function argument (launcher=) does.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from typing import Literal, TypeAlias

LauncherErrorCode: TypeAlias = Literal["UNSUPPORTED_PLATFORM", "WRONG_PLATFORM", "NOT_INSTALLED"]

_BIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin")
LAUNCHER_BIN = "landlock-run"
_REINSTALL = "pip install --force-reinstall landlock-run"


class LauncherError(RuntimeError):
    """launcher_path() found no launcher this machine can run; the message names the fix.
    code: UNSUPPORTED_PLATFORM (no wheel for this machine), WRONG_PLATFORM (the wheel of
    another architecture is installed), NOT_INSTALLED (the binary or its manifest is
    missing or not executable)."""

    def __init__(self, code: LauncherErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: LauncherErrorCode = code


class _Manifest:
    """_bin/manifest.json, written by the wheel builder (scripts/write-wheel.py)."""

    def __init__(self, data: object) -> None:
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        arch, version, wheel, wheels = (data.get(k) for k in ("arch", "version", "wheel", "wheels"))
        if not (isinstance(arch, str) and isinstance(version, str) and isinstance(wheel, str) and isinstance(wheels, dict)):
            raise ValueError("arch, version, wheel or wheels missing")
        self.arch: str = arch
        self.version: str = version
        self.wheel: str = wheel
        self.wheels: dict[str, str] = {str(k): str(v) for k, v in wheels.items()}


def _manifest() -> _Manifest:
    path = os.path.join(_BIN, "manifest.json")
    try:
        with open(path, encoding="utf-8") as f:
            return _Manifest(json.load(f))
    except (OSError, ValueError) as e:
        raise LauncherError("NOT_INSTALLED", f"the launcher's manifest {path} is unreadable ({e}): {_REINSTALL}") from None


def machine() -> str:
    """The kernel's architecture as uname -m names it: the binary runs on the kernel, not
    the interpreter (a 32-bit Python on x86_64 runs the x86_64 launcher)."""
    return os.uname().machine if hasattr(os, "uname") else platform.machine()


def launcher_path() -> str:
    """Absolute path of this machine's launcher binary. Raises LauncherError, naming the
    wheel installed and the one this machine needs."""
    manifest = _manifest()
    here = machine()
    known = ", ".join(sorted(manifest.wheels))
    if not sys.platform.startswith("linux") or here not in manifest.wheels:
        raise LauncherError(
            "UNSUPPORTED_PLATFORM",
            f"no landlock-run wheel for {platform.system()} {here} (there are wheels for Linux {known}); Landlock is Linux-only",
        )
    if manifest.arch != here:
        raise LauncherError(
            "WRONG_PLATFORM",
            f"the {manifest.arch} wheel {manifest.wheel} is installed, but this machine ({here}) needs"
            f" {manifest.wheels[here]}: the environment was installed for another machine (pip install"
            f" --platform or --target, or copied from one); run {_REINSTALL}=={manifest.version} on this machine",
        )
    path = os.path.join(_BIN, LAUNCHER_BIN)
    if not os.access(path, os.X_OK):
        raise LauncherError(
            "NOT_INSTALLED", f"the launcher {path} is missing or not executable: {_REINSTALL}=={manifest.version}"
        )
    return path
