#!/usr/bin/python3
"""scripts/write-wheel.py OUTDIR ENV...: write one wheel per platform/*.env entry ENV into
OUTDIR (run by scripts/wheel.sh, which builds the binaries first), with nothing but
Python's zipfile: no setuptools, no network.

Each wheel, landlock_run-VERSION-py3-none-WHEEL_PLATFORM.whl, holds
  landlock_run/                the package (python/landlock_run: *.py and py.typed)
  landlock_run/_bin/           the static launcher build/ARCH/landlock-run (0755) and
                               manifest.json (its arch, machine, sha256, version, and the
                               wheel of every architecture, for launcher_path()'s errors)
  landlock_run-VERSION.data/   scripts/landlock-run (the same binary, on the environment's
                               PATH) and data/share/man/man1/landlock-run.1
  landlock_run-VERSION.dist-info/  METADATA (python/README.md as the description), WHEEL,
                               LICENSE, RECORD (sha256 of every other member), last
Reproducible: members in a fixed order, every one dated SOURCE_DATE_EPOCH (required), with
a fixed mode and deflate level, so the same tree gives the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import sys
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "landlock-run"
PACKAGE = "landlock_run"
SUMMARY = "Run a command under the Linux Landlock LSM: a static launcher binary and a typed API to run, probe and explain"
REQUIRES_PYTHON = ">=3.10"
CLASSIFIERS = (
    "Development Status :: 4 - Beta",
    "Intended Audience :: Developers",
    "License :: OSI Approved :: MIT License",
    "Operating System :: POSIX :: Linux",
    "Programming Language :: Python :: 3",
    "Programming Language :: Python :: 3 :: Only",
    "Topic :: Security",
    "Typing :: Typed",
)


def read(path: str) -> bytes:
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def platform_env(path: str) -> dict[str, str]:
    """A platform/*.env entry: VAR=value lines, as scripts/lib.sh's platform_var reads them."""
    env = dict(re.findall(r"^([A-Z_][A-Z0-9_]*)=(.*)$", read(path).decode(), re.M))
    for key in ("ARCH", "ELF_MACHINE", "WHEEL_PLATFORM"):
        if not env.get(key):
            sys.exit(f"write-wheel: {path} has no {key}")
    return env


def wheel_name(version: str, env: dict[str, str]) -> str:
    return f"{PACKAGE}-{version}-py3-none-{env['WHEEL_PLATFORM']}.whl"


def metadata(version: str) -> bytes:
    head = [
        "Metadata-Version: 2.1", f"Name: {NAME}", f"Version: {version}", f"Summary: {SUMMARY}", "License: MIT",
        "Keywords: landlock,sandbox,linux,security,lsm", *(f"Classifier: {c}" for c in CLASSIFIERS),
        f"Requires-Python: {REQUIRES_PYTHON}", "Description-Content-Type: text/markdown",
    ]  # fmt: skip
    return ("\n".join(head) + "\n\n").encode() + read("python/README.md")


def wheel_file(env: dict[str, str]) -> bytes:
    tags = "".join(f"Tag: py3-none-{platform}\n" for platform in env["WHEEL_PLATFORM"].split("."))
    return f"Wheel-Version: 1.0\nGenerator: landlock-run scripts/write-wheel.py\nRoot-Is-Purelib: false\n{tags}".encode()


def package_files() -> list[tuple[str, bytes, int]]:
    """The package's sources: every *.py and py.typed of python/landlock_run, nothing else."""
    src = os.path.join("python", PACKAGE)
    names = sorted(n for n in os.listdir(os.path.join(ROOT, src)) if n != "__pycache__")
    stray = [n for n in names if not (n.endswith(".py") or n == "py.typed")]
    if stray:
        sys.exit(f"write-wheel: {src} holds {', '.join(stray)}, which is no part of the package")
    return [(f"{PACKAGE}/{n}", read(os.path.join(src, n)), 0o644) for n in names]


def record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def write(out: str, members: list[tuple[str, bytes, int]], epoch: int) -> None:
    stamp = time.gmtime(max(epoch, 315532800))[:6]  # a zip cannot date before 1980
    record = "".join(f"{name},{record_hash(data)},{len(data)}\n" for name, data, _ in members)
    dist_info = members[-1][0].rsplit("/", 1)[0]
    members = [*members, (f"{dist_info}/RECORD", f"{record}{dist_info}/RECORD,,\n".encode(), 0o644)]
    tmp = out + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data, mode in members:
            info = zipfile.ZipInfo(name, stamp)
            info.create_system = 3  # unix: the mode below is read
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data, compresslevel=9)
    os.replace(tmp, out)


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit("usage: scripts/write-wheel.py OUTDIR platform/NAME.env...")
    out, env_paths = sys.argv[1], sys.argv[2:]
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if not epoch.isdigit():
        sys.exit("write-wheel: SOURCE_DATE_EPOCH must be set (scripts/wheel.sh sets the commit's time)")
    version = read("VERSION").decode().strip()
    envs = [platform_env(p) for p in env_paths]
    wheels = {env["ARCH"]: wheel_name(version, env) for env in envs}
    package = package_files()
    for env in envs:
        binary = read(os.path.join("build", env["ARCH"], "landlock-run"))
        manifest = {
            "arch": env["ARCH"], "binary": "landlock-run", "elf_machine": int(env["ELF_MACHINE"]),
            "sha256": hashlib.sha256(binary).hexdigest(), "version": version, "wheel": wheels[env["ARCH"]],
            "wheels": wheels,
        }  # fmt: skip
        data, dist_info = f"{PACKAGE}-{version}.data", f"{PACKAGE}-{version}.dist-info"
        members = [
            *package,
            (f"{PACKAGE}/_bin/landlock-run", binary, 0o755),
            (f"{PACKAGE}/_bin/manifest.json", (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode(), 0o644),
            (f"{data}/data/share/man/man1/landlock-run.1", read("landlock-run.1"), 0o644),
            (f"{data}/scripts/landlock-run", binary, 0o755),
            (f"{dist_info}/LICENSE", read("LICENSE"), 0o644),
            (f"{dist_info}/METADATA", metadata(version), 0o644),
            (f"{dist_info}/WHEEL", wheel_file(env), 0o644),
        ]
        path = os.path.join(out, wheels[env["ARCH"]])
        write(path, members, int(epoch))
        print(f"write-wheel: {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
