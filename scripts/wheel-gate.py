#!/usr/bin/python3
"""scripts/wheel-gate.py [--sums FILE] WHEEL...: the wheel gate. Reads each wheel as
written and refuses anything that must not be published:
  name:    landlock_run-VERSION-py3-none-TAGS.whl, TAGS a platform/*.env's WHEEL_PLATFORM,
           VERSION the tree's; WHEEL's Tag lines are those tags, Root-Is-Purelib false;
  members: exactly the package python/landlock_run (byte for byte as in the tree, with
           py.typed), _bin/landlock-run and its manifest, the same binary as the data
           scripts' landlock-run, the man page, METADATA, WHEEL, LICENSE and RECORD; RECORD
           lists every other member once with its sha256 and size;
  binary:  mode 0755, an ELF of the entry's class and machine, static, within its size
           budget, sha256 equal to the manifest's, `--version` printing VERSION (under
           the entry's QEMU_USER for another architecture);
  manifest: its arch, machine, version, this wheel's name and every entry's wheel;
  metadata: name landlock-run, VERSION, License MIT (LICENSE the tree's), Requires-Python.
Prints one line per check and the sha256 of each wheel, ends with "N passed, N failed",
exits 1 when any check failed. With --sums FILE and no failure, writes those sha256s to
FILE in sha256sum(1) format: the record of exactly what was checked.
"""

from __future__ import annotations

import base64
import email.parser
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "landlock_run"
counts = {"passed": 0, "failed": 0}


def check(label: str, ok: bool, why: str = "") -> bool:
    counts["passed" if ok else "failed"] += 1
    n = counts["passed"] + counts["failed"]
    print(f"{'ok' if ok else 'not ok'} {n} - {label}{'' if ok or not why else ': ' + why}")
    return ok


def read(path: str) -> bytes:
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def platforms() -> dict[str, dict[str, str]]:
    """platform/*.env by ARCH."""
    out = {}
    for name in sorted(os.listdir(os.path.join(ROOT, "platform"))):
        if name.endswith(".env"):
            env = dict(re.findall(r"^([A-Z_][A-Z0-9_]*)=(.*)$", read(f"platform/{name}").decode(), re.M))
            out[env["ARCH"]] = env
    return out


VERSION = read("VERSION").decode().strip()
ENVS = platforms()
TRYOP = os.path.join(ROOT, "build", platform.machine(), "tryop")  # the tree's one ELF reader


def record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def elf_facts(data: bytes) -> dict[str, str]:
    """`tryop elf FILE` as {class, endian, type, machine, interp, dynamic, link}, or {error}."""
    with tempfile.NamedTemporaryFile() as f:
        f.write(data)
        f.flush()
        try:
            r = subprocess.run([TRYOP, "elf", f.name], capture_output=True, text=True)
        except OSError as e:
            return {"error": f"{TRYOP}: {e.strerror} (make test-helpers builds it)"}
    line = r.stdout.strip()
    if r.returncode != 0 or line.startswith("elf: "):
        return {"error": line.removeprefix("elf: ") or r.stderr.strip()}
    return dict(kv.split("=", 1) for kv in line.split())


def run_version(data: bytes, env: dict[str, str]) -> tuple[int | None, str]:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "landlock-run")
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, 0o755)
        foreign = env["ARCH"] != platform.machine()
        if foreign and not env.get("QEMU_USER"):
            return None, f"cannot run an {env['ARCH']} binary here (no QEMU_USER)"
        r = subprocess.run([env["QEMU_USER"], path, "--version"] if foreign else [path, "--version"],
                           capture_output=True, text=True, timeout=60)  # fmt: skip
        return r.returncode, r.stdout.strip() or r.stderr.strip()[:200]


def gate_binary(tag: str, env: dict[str, str], data: bytes, mode: int, manifest: dict[str, object]) -> None:
    arch, machine = env["ARCH"], env["ELF_MACHINE"]
    check(f"{tag}: {PACKAGE}/_bin/landlock-run mode 0755 in the wheel", mode == 0o100755, f"mode {mode:o}")
    elf = elf_facts(data)
    if not check(f"{tag}: {PACKAGE}/_bin/landlock-run is an ELF", "error" not in elf, elf.get("error", "")):
        return
    check(f"{tag}: ELF class 64, little-endian", elf["class"] == "64" and elf["endian"] == "little", str(elf))
    check(f"{tag}: ELF machine {machine} ({arch})", elf["machine"] == machine, f"machine {elf['machine']}")
    check(f"{tag}: executable, static: no PT_INTERP, no PT_DYNAMIC", elf["type"] == "exec" and elf["link"] == "static",
          f"type {elf['type']}, interp {elf['interp']}, dynamic {elf['dynamic']}")  # fmt: skip
    budget = int(env.get("SIZE_BUDGET") or 0)
    check(f"{tag}: size within the {arch} budget", 0 < len(data) <= budget, f"{len(data)} bytes, budget {budget}")
    sha = hashlib.sha256(data).hexdigest()
    check(f"{tag}: sha256 equals the manifest's", manifest.get("sha256") == sha, f"binary {sha}, manifest {manifest.get('sha256')}")
    status, out = run_version(data, env)
    want = f"landlock-run {VERSION}"
    check(f'{tag}: `landlock-run --version` prints "{want}"', status == 0 and out == want, f"status {status}: {out!r}")


def gate_metadata(tag: str, files: dict[str, bytes], dist_info: str, tags: list[str]) -> None:
    meta = email.parser.BytesParser().parsebytes(files.get(f"{dist_info}/METADATA", b""))
    check(f"{tag}: METADATA: landlock-run {VERSION}, License MIT, Requires-Python",
          (meta["Name"], meta["Version"], meta["License"]) == ("landlock-run", VERSION, "MIT") and bool(meta["Requires-Python"]),
          f"{meta['Name']} {meta['Version']} {meta['License']} {meta['Requires-Python']}")  # fmt: skip
    check(f"{tag}: METADATA's description is python/README.md", meta.get_payload(decode=True) == read("python/README.md"))
    check(f"{tag}: LICENSE is the tree's", files.get(f"{dist_info}/LICENSE") == read("LICENSE"))
    wheel = email.parser.BytesParser().parsebytes(files.get(f"{dist_info}/WHEEL", b""))
    check(f"{tag}: WHEEL: version 1.0, not purelib, Tag lines py3-none-{{{','.join(tags)}}}",
          wheel["Wheel-Version"] == "1.0" and wheel["Root-Is-Purelib"] == "false"
          and wheel.get_all("Tag") == [f"py3-none-{t}" for t in tags], str(wheel.items()))  # fmt: skip


def gate_record(tag: str, files: dict[str, bytes], dist_info: str) -> None:
    record = f"{dist_info}/RECORD"
    rows = [line.split(",") for line in files.get(record, b"").decode().splitlines()]
    want = sorted([name, record_hash(data), str(len(data))] for name, data in files.items() if name != record)
    listed = sorted(r for r in rows if r[0] != record)
    check(f"{tag}: RECORD lists every member once with its sha256 and size, itself unhashed, and nothing else",
          listed == want and rows.count([record, "", ""]) == 1 and len(rows) == len(files),
          f"{len(rows)} rows for {len(files)} members")  # fmt: skip


def gate(path: str) -> None:
    tag = os.path.basename(path)
    m = re.fullmatch(rf"{PACKAGE}-([^-]+)-py3-none-([a-z0-9_.]+)\.whl", tag)
    env = next((e for e in ENVS.values() if m and e.get("WHEEL_PLATFORM") == m[2]), None)
    if not check(f"{tag}: named {PACKAGE}-VERSION-py3-none-TAGS.whl, TAGS a platform/*.env's WHEEL_PLATFORM", env is not None):
        return
    assert m and env
    check(f"{tag}: version {m[1]} equals VERSION ({VERSION})", m[1] == VERSION)
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
            files = {i.filename: z.read(i) for i in infos}
    except (OSError, zipfile.BadZipFile) as e:
        check(f"{tag}: opens as a zip", False, str(e))
        return
    modes = {i.filename: i.external_attr >> 16 for i in infos}
    check(f"{tag}: no member twice", len(files) == len(infos))
    data, dist_info = f"{PACKAGE}-{VERSION}.data", f"{PACKAGE}-{VERSION}.dist-info"
    src = os.path.join(ROOT, "python", PACKAGE)
    package = {f"{PACKAGE}/{n}": read(f"python/{PACKAGE}/{n}") for n in os.listdir(src) if n != "__pycache__"}
    want = {*package, f"{PACKAGE}/_bin/landlock-run", f"{PACKAGE}/_bin/manifest.json", f"{data}/scripts/landlock-run",
            f"{data}/data/share/man/man1/landlock-run.1", *(f"{dist_info}/{n}" for n in ("METADATA", "WHEEL", "LICENSE", "RECORD"))}  # fmt: skip
    check(f"{tag}: exactly the package, the binary and its manifest, the man page and the dist-info", set(files) == want,
          f"unexpected {sorted(set(files) - want)}, missing {sorted(want - set(files))}")  # fmt: skip
    check(f"{tag}: the package is python/{PACKAGE} byte for byte, py.typed included, no bytecode",
          all(files.get(n) == b for n, b in package.items()) and f"{PACKAGE}/py.typed" in package)  # fmt: skip
    bad = [n for n in package if n.endswith(".py") and not compiles(files.get(n, b""), n)]
    check(f"{tag}: the package's Python compiles", not bad, f"bad {bad}")
    check(f"{tag}: the man page is landlock-run.1, mode 0644",
          files.get(f"{data}/data/share/man/man1/landlock-run.1") == read("landlock-run.1")
          and modes.get(f"{data}/data/share/man/man1/landlock-run.1") == 0o100644)  # fmt: skip
    binary = files.get(f"{PACKAGE}/_bin/landlock-run", b"")
    check(f"{tag}: the scripts' landlock-run is the package's binary, mode 0755",
          files.get(f"{data}/scripts/landlock-run") == binary and modes.get(f"{data}/scripts/landlock-run") == 0o100755)  # fmt: skip
    try:
        manifest = json.loads(files.get(f"{PACKAGE}/_bin/manifest.json", b""))
    except ValueError as e:
        manifest = {}
        check(f"{tag}: manifest.json readable", False, str(e))
    wheels = {arch: f"{PACKAGE}-{VERSION}-py3-none-{e['WHEEL_PLATFORM']}.whl" for arch, e in ENVS.items()}
    check(f"{tag}: manifest names {env['ARCH']}, machine {env['ELF_MACHINE']}, {VERSION}, this wheel and every entry's",
          (manifest.get("arch"), manifest.get("elf_machine"), manifest.get("version"), manifest.get("wheel"), manifest.get("wheels"))
          == (env["ARCH"], int(env["ELF_MACHINE"]), VERSION, tag, wheels), json.dumps(manifest))  # fmt: skip
    gate_binary(tag, env, binary, modes.get(f"{PACKAGE}/_bin/landlock-run", 0), manifest)
    gate_metadata(tag, files, dist_info, m[2].split("."))
    gate_record(tag, files, dist_info)


def compiles(source: bytes, name: str) -> bool:
    try:
        compile(source, name, "exec", dont_inherit=True)
    except SyntaxError:
        return False
    return True


def main() -> None:
    args = sys.argv[1:]
    sums = args[1] if args[:1] == ["--sums"] and len(args) > 1 else None
    wheels = args[2:] if sums else args
    if not wheels:
        sys.exit("usage: scripts/wheel-gate.py [--sums FILE] WHEEL...")
    for w in wheels:
        gate(w)
    digests = [(hashlib.sha256(open(w, "rb").read()).hexdigest(), os.path.basename(w)) for w in wheels]
    for sha, name in digests:
        print(f"# sha256 {sha}  {name}")
    if sums and counts["failed"] == 0:
        with open(sums, "w") as f:
            f.writelines(f"{sha}  {name}\n" for sha, name in digests)
    elif sums and os.path.exists(sums):
        os.remove(sums)
    print(f"{counts['passed']} passed, {counts['failed']} failed")
    sys.exit(1 if counts["failed"] else 0)


if __name__ == "__main__":
    main()
