#!/usr/bin/env bash
# scripts/npm-gate.sh [TARBALL...]: the pack gate. Opens each npm tarball (default:
# dist/npm/*.tgz) in a scratch directory and refuses anything that must not be published:
#   platform package (@landlock-run/<platform/*.env name>): bin/landlock-run present, mode
#     0755, an ELF of the right class and machine, static (no PT_INTERP, no PT_DYNAMIC),
#     within the size budget, sha256 equal to manifest.json's, `--version` equal to VERSION,
#     os/cpu from the platform entry, no libc field, no scripts, no JavaScript;
#   entry package (landlock-run): index.js and index.d.ts, no install scripts, exactly one
#     exact-version optionalDependency per platform entry and no other dependencies.
# Every package's version must equal VERSION. Prints one line per check and ends with
# "N passed, N failed"; exits 1 when any check failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"

command -v python3 >/dev/null || need_packages python3
command -v node >/dev/null || need_packages nodejs
# a foreign-architecture binary's --version runs under qemu-user (no Landlock needed)
for env in "$root"/platform/*.env; do
	qemu=$(platform_var "$env" QEMU_USER)
	if [ "$(platform_var "$env" ARCH)" != "$(uname -m)" ] && [ -n "$qemu" ]; then
		command -v "$qemu" >/dev/null || need_packages qemu-user-static
	fi
done

if [ $# -eq 0 ]; then
	shopt -s nullglob
	set -- "$root"/dist/npm/*.tgz
	shopt -u nullglob
	[ $# -gt 0 ] || { echo "npm-gate: no tarballs in dist/npm (run make npm)" >&2; echo "0 passed, 1 failed"; exit 1; }
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

rc=0
python3 - "$root" "$scratch" "$@" <<'PY' || rc=$?
import hashlib, json, os, platform, re, stat, struct, subprocess, sys, tarfile

root, scratch, tarballs = sys.argv[1], sys.argv[2], sys.argv[3:]
VERSION = open(os.path.join(root, 'VERSION')).read().strip()
# Size budgets in bytes when platform/*.env has no SIZE_BUDGET. x86_64: 48 KiB. aarch64:
# 72 KiB. The default 64 KiB max-page-size (kept so the binary loads on 16K/64K-page
# kernels) puts the RW segment just below the next 64 KiB boundary (its RELRO part ends
# on one), so even a static "hello" is ~65 KiB and the size moves in 64 KiB steps: 72 KiB
# means the code fits the first 64 KiB page and the data in 8 KiB; one more page would
# make it ~130 KiB. It is also 1.5x x86_64's, about aarch64's fixed-width code overhead.
DEFAULT_BUDGET = {'x86_64': 48 * 1024, 'aarch64': 72 * 1024}
SCRIPTS_FORBIDDEN = ('preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare')

def read_env(path):
	env = {}
	for line in open(path):
		m = re.match(r'^([A-Z_][A-Z0-9_]*)=(.*)$', line.strip())
		if m:
			env[m.group(1)] = m.group(2)
	return env

platforms = {}
for f in sorted(os.listdir(os.path.join(root, 'platform'))):
	if f.endswith('.env'):
		platforms[f[:-4]] = read_env(os.path.join(root, 'platform', f))

passed = failed = 0
def check(label, ok, why=''):
	global passed, failed
	if ok:
		passed += 1
		print(f'ok {passed + failed} - {label}')
	else:
		failed += 1
		print(f'not ok {passed + failed} - {label}' + (f': {why}' if why else ''))
	return ok

def elf_facts(path):
	"""class, endianness, machine and program header types of an ELF file (or an error)."""
	with open(path, 'rb') as f:
		data = f.read()
	if data[:4] != b'\x7fELF':
		return {'error': 'not an ELF file'}
	cls, enc = data[4], data[5]
	if enc not in (1, 2):
		return {'error': f'bad ELF data encoding {enc}'}
	e = '<' if enc == 1 else '>'
	if cls == 2:
		e_type, e_machine = struct.unpack_from(e + 'HH', data, 16)
		e_phoff, = struct.unpack_from(e + 'Q', data, 32)
		e_phentsize, e_phnum = struct.unpack_from(e + 'HH', data, 54)
	elif cls == 1:
		e_type, e_machine = struct.unpack_from(e + 'HH', data, 16)
		e_phoff, = struct.unpack_from(e + 'I', data, 28)
		e_phentsize, e_phnum = struct.unpack_from(e + 'HH', data, 42)
	else:
		return {'error': f'bad ELF class {cls}'}
	if e_phoff + e_phentsize * e_phnum > len(data) or e_phnum == 0:
		return {'error': 'program headers out of range'}
	ptypes = [struct.unpack_from(e + 'I', data, e_phoff + i * e_phentsize)[0] for i in range(e_phnum)]
	return {'class': 64 if cls == 2 else 32, 'little': enc == 1, 'type': e_type,
		'machine': e_machine, 'ptypes': ptypes}

def open_tarball(tgz, dest):
	"""tar -x into dest; returns ({name: TarInfo} from the headers, package.json dict)."""
	os.makedirs(dest)
	subprocess.run(['tar', '-xzf', tgz, '-C', dest, '--no-same-owner'], check=True,
		stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
	with tarfile.open(tgz, 'r:gz') as t:
		members = {m.name: m for m in t.getmembers()}
	with open(os.path.join(dest, 'package', 'package.json')) as f:
		return members, json.load(f)

def run_version(binary, env):
	cmd = [binary, '--version']
	if env.get('ARCH') != platform.machine():
		if not env.get('QEMU_USER'):
			return None, f'cannot run an {env.get("ARCH")} binary here (no QEMU_USER)'
		cmd = [env['QEMU_USER']] + cmd
	try:
		r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
	except OSError as e:
		return None, str(e)
	return r, None

def gate_platform(tag, pkg, name, members, dest):
	env = platforms[name]
	arch, machine, cpu = env.get('ARCH'), int(env.get('ELF_MACHINE', '-1')), env.get('NPM_CPU')
	check(f'{tag}: os is ["linux"] and cpu is ["{cpu}"] (platform/{name}.env)',
		pkg.get('os') == [name.split('-')[0]] and pkg.get('cpu') == [cpu],
		f'os={pkg.get("os")} cpu={pkg.get("cpu")}')
	check(f'{tag}: no libc field (the binary is static)', 'libc' not in pkg)
	check(f'{tag}: no scripts', not pkg.get('scripts'), f'scripts={pkg.get("scripts")}')
	check(f'{tag}: no dependencies', not any(pkg.get(k) for k in
		('dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies')))
	files = sorted(n[len('package/'):] for n, m in members.items() if m.isfile())
	check(f'{tag}: no JavaScript', not [f for f in files if re.search(r'\.(c|m)?js$|\.node$', f)], f'files={files}')
	allowed = {'package.json', 'manifest.json', 'bin/landlock-run', 'README.md', 'LICENSE'}
	check(f'{tag}: only the binary, its manifest and docs', set(files) <= allowed,
		f'unexpected {sorted(set(files) - allowed)}')
	member = members.get('package/bin/landlock-run')
	binary = os.path.join(dest, 'package', 'bin', 'landlock-run')
	if not check(f'{tag}: bin/landlock-run present, a regular file',
			member is not None and member.isfile() and os.path.isfile(binary), 'missing'):
		return
	mode = stat.S_IMODE(member.mode)
	check(f'{tag}: bin/landlock-run mode 0755 in the tarball', mode == 0o755, f'mode {mode:04o}')
	facts = elf_facts(binary)
	if not check(f'{tag}: bin/landlock-run is an ELF', 'error' not in facts, facts.get('error', '')):
		return
	check(f'{tag}: ELF class 64, little-endian', facts['class'] == 64 and facts['little'],
		f'class {facts["class"]}, little-endian {facts["little"]}')
	check(f'{tag}: ELF machine {machine} ({arch})', facts['machine'] == machine,
		f'machine {facts["machine"]}')
	check(f'{tag}: executable, static: no PT_INTERP, no PT_DYNAMIC',
		facts['type'] == 2 and 3 not in facts['ptypes'] and 2 not in facts['ptypes'],
		f'e_type {facts["type"]}, ' + ('has PT_INTERP (dynamic) ' if 3 in facts['ptypes'] else '') +
		('has PT_DYNAMIC (dynamic)' if 2 in facts['ptypes'] else ''))
	budget = int(env['SIZE_BUDGET']) if env.get('SIZE_BUDGET') else DEFAULT_BUDGET.get(arch)
	size = os.path.getsize(binary)
	check(f'{tag}: size within the {arch} budget', budget is not None and size <= budget,
		f'{size} bytes, budget {budget} bytes')
	try:
		with open(os.path.join(dest, 'package', 'manifest.json')) as f:
			manifest = json.load(f)
	except (OSError, ValueError) as e:
		check(f'{tag}: manifest.json readable', False, str(e))
		return
	sha = hashlib.sha256(open(binary, 'rb').read()).hexdigest()
	check(f'{tag}: sha256 equals manifest.json', manifest.get('sha256') == sha,
		f'binary {sha}, manifest {manifest.get("sha256")}')
	check(f'{tag}: manifest names bin/landlock-run, {arch}, machine {machine}',
		manifest.get('binary') == 'bin/landlock-run' and manifest.get('arch') == arch and
		manifest.get('elfMachine') == machine, json.dumps(manifest))
	r, err = run_version(binary, env)
	want = f'landlock-run {VERSION}'
	check(f'{tag}: `landlock-run --version` prints "{want}"',
		r is not None and r.returncode == 0 and r.stdout.strip() == want,
		err or f'status {r.returncode}, stdout {r.stdout.strip()!r}, stderr {r.stderr.strip()[:200]!r}')

def gate_entry(tag, pkg, members, dest, given):
	files = {n[len('package/'):] for n, m in members.items() if m.isfile()}
	scripts = pkg.get('scripts') or {}
	check(f'{tag}: no install scripts', not any(k in scripts for k in SCRIPTS_FORBIDDEN),
		f'scripts={scripts}')
	check(f'{tag}: ESM (type module) with index.js', pkg.get('type') == 'module' and 'index.js' in files)
	check(f'{tag}: TypeScript declarations index.d.ts present and declared',
		'index.d.ts' in files and pkg.get('types', '').lstrip('./') == 'index.d.ts',
		f'types={pkg.get("types")}')
	binfile = (pkg.get('bin') or {}).get('landlock-run', '').lstrip('./')
	check(f'{tag}: bin landlock-run present with a node shebang', binfile in files and
		open(os.path.join(dest, 'package', binfile)).readline().startswith('#!/usr/bin/env node')
		if binfile in files else False, f'bin={pkg.get("bin")}')
	want = {f'@landlock-run/{n}': VERSION for n in platforms}
	got = pkg.get('optionalDependencies') or {}
	check(f'{tag}: optionalDependencies are exactly the platform packages at {VERSION}',
		got == want, f'got {got}, want {want}')
	check(f'{tag}: no other dependencies', not any(pkg.get(k) for k in
		('dependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies')))
	js = sorted(f for f in files if f.endswith('.js'))
	bad = [f for f in js if subprocess.run(['node', '--check', os.path.join(dest, 'package', f)],
		capture_output=True).returncode != 0]
	check(f'{tag}: JavaScript parses (node --check)', js and not bad, f'bad {bad}')
	probe = ("const m = await import(process.argv[1]);"
		"const want = ['launcherPath', 'grantArgs', 'command', 'probe', 'isLauncherFailure'];"
		"const missing = want.filter((f) => typeof m[f] !== 'function');"
		"if (missing.length) { console.log(missing.join(' ')); process.exit(1); }")
	r = subprocess.run(['node', '--input-type=module', '-e', probe,
		'file://' + os.path.join(dest, 'package', 'index.js')], capture_output=True, text=True)
	check(f'{tag}: index.js exports the API', r.returncode == 0, (r.stdout + r.stderr).strip()[:300])
	for dep, ver in got.items():
		check(f'{tag}: {dep}@{ver} is among the gated tarballs', given.get(dep) == ver,
			f'gated: {given}')

opened = []
for i, tgz in enumerate(tarballs):
	tag = os.path.basename(tgz)
	dest = os.path.join(scratch, str(i))
	try:
		members, pkg = open_tarball(tgz, dest)
	except Exception as e:
		check(f'{tag}: opens as an npm tarball with package/package.json', False,
			getattr(e, 'stderr', b'').decode().strip() if getattr(e, 'stderr', None) else str(e))
		continue
	check(f'{tag}: opens as an npm tarball with package/package.json', True)
	opened.append((tgz, tag, dest, members, pkg))
given = {pkg.get('name'): pkg.get('version') for _, _, _, _, pkg in opened}

for tgz, tag, dest, members, pkg in opened:
	name = pkg.get('name', '')
	check(f'{tag}: version {pkg.get("version")} equals VERSION ({VERSION})', pkg.get('version') == VERSION)
	if name == 'landlock-run':
		gate_entry(tag, pkg, members, dest, given)
	elif name.startswith('@landlock-run/') and name[len('@landlock-run/'):] in platforms:
		gate_platform(tag, pkg, name[len('@landlock-run/'):], members, dest)
	else:
		check(f'{tag}: a landlock-run package (landlock-run or @landlock-run/<platform/*.env>)',
			False, f'name {name!r}')

print(f'{passed} passed, {failed} failed')
sys.exit(1 if failed else 0)
PY
exit "$rc"
