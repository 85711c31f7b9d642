#!/usr/bin/env node
// scripts/npm-gate.mjs [--sums FILE] TARBALL...: the pack gate. Reads each npm tarball as
// packed and refuses anything that must not be published:
//   platform package (@landlock-run/<platform/*.env name>): bin/landlock-run, mode 0755, an
//     ELF of the right class and machine, static, within the size budget, sha256 equal to
//     manifest.json's, `--version` equal to VERSION; os/cpu from the platform entry; no
//     bin, libc field, scripts, dependencies or JavaScript;
//   entry package (landlock-run): the CommonJS API and compat entry with their declarations,
//     exporting by name to require() and import; the POSIX sh bin whose
//     platform table matches platform/*.env, the man page, no install scripts, one
//     exact-version optionalDependency per platform entry, nothing else.
// Every package: version equal to VERSION, license MIT, README.md and LICENSE shipped.
// Prints one line per check and the sha256 of each tarball, ends with "N passed, N failed",
// exits 1 when any check failed. With --sums FILE and no failure, writes those sha256s to
// FILE in sha256sum(1) format: the record of exactly what was checked.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { hostPlatform, readPlatforms } from './platforms.mjs';
import { readTarball } from './tarball.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const VERSION = readFileSync(join(root, 'VERSION'), 'utf8').trim();
const platforms = readPlatforms(root);
// the one ELF reader of the tree (tests/tryop.c), built for this machine by make test-helpers
const tryop = join(root, 'build', platforms[hostPlatform(platforms)]?.ARCH ?? 'unknown', 'tryop');
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'];
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies'];
const ENTRY_API = ['launcherPath', 'grantArgs', 'command', 'spawnConfined', 'probe', 'isLauncherFailure', 'parseDenials', 'SCOPES',
	'POLICY_OPTIONS'];
const COMPAT_API = ['launcherPath', 'grantArgs', 'probe', 'LAUNCHER_FAILURE_EXIT', 'LAUNCHER_BIN'];

let passed = 0;
let failed = 0;
function check(label, ok, why = '') {
	if (ok) passed++;
	else failed++;
	console.log(`${ok ? 'ok' : 'not ok'} ${passed + failed} - ${label}${ok || !why ? '' : `: ${why}`}`);
	return ok;
}

/** Files of a package (names without "package/") -> member. */
const filesOf = (members) => new Map([...members].filter(([n, m]) => m.type === 'file' && n.startsWith('package/'))
	.map(([n, m]) => [n.slice('package/'.length), m]));

function gateCommon(tag, pkg, files) {
	check(`${tag}: version ${pkg.version} equals VERSION (${VERSION})`, pkg.version === VERSION);
	check(`${tag}: license MIT, LICENSE and README.md shipped`,
		pkg.license === 'MIT' && files.has('LICENSE') && files.has('README.md'),
		`license ${JSON.stringify(pkg.license)}, files ${[...files.keys()].join(' ')}`);
}

/** `tryop elf FILE` as { class, endian, type, machine, interp, dynamic, link } or { error }. */
function elfFacts(file) {
	const r = spawnSync(tryop, ['elf', file], { encoding: 'utf8' });
	if (r.error) return { error: `${tryop}: ${r.error.code} (make test-helpers builds it)` };
	const line = r.stdout.trim();
	if (r.status !== 0 || line.startsWith('elf: ')) return { error: line.replace(/^elf: /, '') || r.stderr.trim() };
	return Object.fromEntries(line.split(' ').map((kv) => kv.split('=')));
}

function runVersion(file, env) {
	const foreign = env.ARCH !== { x64: 'x86_64', arm64: 'aarch64' }[process.arch];
	if (foreign && !env.QEMU_USER) return { error: `cannot run an ${env.ARCH} binary here (no QEMU_USER)` };
	const [cmd, ...args] = foreign ? [env.QEMU_USER, file, '--version'] : [file, '--version'];
	return spawnSync(cmd, args, { encoding: 'utf8', timeout: 60000 });
}

function gatePlatform(tag, pkg, name, files, scratch) {
	const env = platforms[name];
	const machine = Number(env.ELF_MACHINE);
	check(`${tag}: os is ["linux"] and cpu is ["${env.NPM_CPU}"] (platform/${name}.env)`,
		JSON.stringify(pkg.os) === JSON.stringify([name.split('-')[0]]) && JSON.stringify(pkg.cpu) === JSON.stringify([env.NPM_CPU]),
		`os=${JSON.stringify(pkg.os)} cpu=${JSON.stringify(pkg.cpu)}`);
	check(`${tag}: no libc field (the binary is static)`, !('libc' in pkg));
	check(`${tag}: no scripts`, !pkg.scripts, `scripts=${JSON.stringify(pkg.scripts)}`);
	check(`${tag}: no dependencies`, ![...DEPENDENCY_FIELDS, 'optionalDependencies'].some((k) => pkg[k]));
	// npm 9 and 10 would delete .bin/landlock-run along with the other cpu's skipped package
	check(`${tag}: no bin (the entry package's is the only landlock-run bin)`, pkg.bin === undefined,
		`bin=${JSON.stringify(pkg.bin)}`);
	const names = [...files.keys()];
	check(`${tag}: no JavaScript`, !names.some((f) => /\.(c|m)?js$|\.node$/.test(f)), `files ${names.join(' ')}`);
	const allowed = ['package.json', 'manifest.json', 'bin/landlock-run', 'README.md', 'LICENSE'];
	const extra = names.filter((f) => !allowed.includes(f));
	check(`${tag}: only the binary, its manifest and docs`, extra.length === 0, `unexpected ${extra.join(' ')}`);
	const member = files.get('bin/landlock-run');
	if (!check(`${tag}: bin/landlock-run present, a regular file`, member !== undefined, 'missing')) return;
	check(`${tag}: bin/landlock-run mode 0755 in the tarball`, member.mode === 0o755, `mode ${member.mode.toString(8).padStart(4, '0')}`);
	const file = join(scratch, 'landlock-run');
	writeFileSync(file, member.data, { mode: member.mode });
	const elf = elfFacts(file);
	if (!check(`${tag}: bin/landlock-run is an ELF`, !elf.error, elf.error)) return;
	check(`${tag}: ELF class 64, little-endian`, elf.class === '64' && elf.endian === 'little', `class ${elf.class}, ${elf.endian}-endian`);
	check(`${tag}: ELF machine ${machine} (${env.ARCH})`, elf.machine === String(machine), `machine ${elf.machine}`);
	check(`${tag}: executable, static: no PT_INTERP, no PT_DYNAMIC`, elf.type === 'exec' && elf.link === 'static',
		`type ${elf.type}, interp ${elf.interp}, dynamic ${elf.dynamic}`);
	const budget = env.SIZE_BUDGET ? Number(env.SIZE_BUDGET) : undefined; // platform/*.env
	check(`${tag}: size within the ${env.ARCH} budget`, budget !== undefined && member.data.length <= budget,
		`${member.data.length} bytes, budget ${budget} bytes`);
	let manifest = {};
	try {
		manifest = JSON.parse(files.get('manifest.json')?.data ?? '');
	} catch (e) {
		check(`${tag}: manifest.json readable`, false, e.message);
	}
	const sha = createHash('sha256').update(member.data).digest('hex');
	check(`${tag}: sha256 equals manifest.json`, manifest.sha256 === sha, `binary ${sha}, manifest ${manifest.sha256}`);
	check(`${tag}: manifest names bin/landlock-run, ${env.ARCH}, machine ${machine}`,
		manifest.binary === 'bin/landlock-run' && manifest.arch === env.ARCH && manifest.elfMachine === machine,
		JSON.stringify(manifest));
	const r = runVersion(file, env);
	const want = `landlock-run ${VERSION}`;
	check(`${tag}: \`landlock-run --version\` prints "${want}"`, r.status === 0 && r.stdout.trim() === want,
		r.error ? String(r.error) : `status ${r.status}, stdout ${JSON.stringify(r.stdout.trim())}, stderr ${JSON.stringify(r.stderr.trim().slice(0, 200))}`);
}

function gateEntry(tag, pkg, files, scratch, gated) {
	const scripts = pkg.scripts ?? {};
	check(`${tag}: no install scripts`, !INSTALL_SCRIPTS.some((k) => k in scripts), `scripts=${JSON.stringify(scripts)}`);
	check(`${tag}: CommonJS (no "type": "module") with index.js and compat.js`,
		pkg.type !== 'module' && files.has('index.js') && files.has('compat.js'), `type=${pkg.type}`);
	const exp = pkg.exports ?? {};
	check(`${tag}: exports ".", "./compat" with their declarations`,
		exp['.']?.types === './index.d.ts' && files.has('index.d.ts') && exp['./compat']?.types === './compat.d.ts' &&
		files.has('compat.d.ts'), `exports=${JSON.stringify(exp)}`);
	const launcher = files.get(pkg.bin?.['landlock-run']?.replace(/^\.\//, '') ?? '');
	check(`${tag}: bin landlock-run is a POSIX sh launcher, mode 0755`,
		launcher !== undefined && launcher.mode === 0o755 && launcher.data.toString().startsWith('#!/bin/sh\n'),
		`bin=${JSON.stringify(pkg.bin)}${launcher ? `, mode ${launcher.mode.toString(8)}` : ''}`);
	const table = launcher?.data.toString().match(/^platforms='([^']*)'$/m)?.[1] ?? '';
	const want = Object.entries(platforms).map(([name, env]) => `${env.ARCH}:${name}`).sort().join(' ');
	check(`${tag}: the launcher's platform table is platform/*.env`, table === want, `got '${table}', want '${want}'`);
	check(`${tag}: man page landlock-run.1 shipped and declared`,
		files.has('landlock-run.1') && JSON.stringify(pkg.man) === '["./landlock-run.1"]', `man=${JSON.stringify(pkg.man)}`);
	const optional = pkg.optionalDependencies ?? {};
	const wantOptional = Object.fromEntries(Object.keys(platforms).map((n) => [`@landlock-run/${n}`, VERSION]));
	check(`${tag}: optionalDependencies are exactly the platform packages at ${VERSION}`,
		JSON.stringify(optional) === JSON.stringify(wantOptional), `got ${JSON.stringify(optional)}, want ${JSON.stringify(wantOptional)}`);
	check(`${tag}: no other dependencies`, !DEPENDENCY_FIELDS.some((k) => pkg[k]));
	for (const [name, member] of files) {
		mkdirSync(dirname(join(scratch, name)), { recursive: true });
		writeFileSync(join(scratch, name), member.data);
	}
	const js = [...files.keys()].filter((f) => f.endsWith('.js'));
	const bad = js.filter((f) => spawnSync(process.execPath, ['--check', join(scratch, f)]).status !== 0);
	check(`${tag}: JavaScript parses (node --check)`, js.length > 0 && bad.length === 0, `bad ${bad.join(' ')}`);
	// both ways a consumer loads it: require(), and import by name (Node reads CommonJS names)
	for (const [file, api] of [['index.js', ENTRY_API], ['compat.js', COMPAT_API]]) {
		const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import { createRequire } from 'node:module';
			const [url, ...names] = process.argv.slice(1);
			const required = createRequire(url)(new URL(url).pathname), imported = await import(url);
			console.log(names.filter((k) => required[k] === undefined || imported[k] === undefined).join(' '))`,
		pathToFileURL(join(scratch, file)).href, ...api], { encoding: 'utf8' });
		check(`${tag}: ${file} exports ${api.join(', ')} to require() and import`, r.status === 0 && r.stdout.trim() === '',
			(r.stdout + r.stderr).trim().slice(0, 300));
	}
	for (const [dep, version] of Object.entries(optional)) {
		check(`${tag}: ${dep}@${version} is among the gated tarballs`, gated[dep] === version, `gated: ${JSON.stringify(gated)}`);
	}
}

const args = process.argv.slice(2);
const sums = args[0] === '--sums' ? args.splice(0, 2)[1] : null;
if (args.length === 0) {
	console.error('usage: scripts/npm-gate.mjs [--sums FILE] TARBALL...');
	process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), 'landlock-run-gate-'));
const opened = [];
for (const tgz of args) {
	let files;
	let pkg;
	try {
		files = filesOf(readTarball(tgz));
		pkg = JSON.parse(files.get('package.json')?.data ?? '');
	} catch (e) {
		check(`${basename(tgz)}: opens as an npm tarball with package/package.json`, false, e.message);
		continue;
	}
	check(`${basename(tgz)}: opens as an npm tarball with package/package.json`, true);
	opened.push({ tgz, files, pkg, sha: createHash('sha256').update(readFileSync(tgz)).digest('hex') });
}
const gated = Object.fromEntries(opened.map(({ pkg }) => [pkg.name, pkg.version]));
opened.forEach(({ tgz, files, pkg }, i) => {
	const tag = basename(tgz);
	const dir = join(scratch, String(i));
	mkdirSync(dir);
	const name = pkg.name ?? '';
	const platform = name.replace(/^@landlock-run\//, '');
	gateCommon(tag, pkg, files);
	if (name === 'landlock-run') gateEntry(tag, pkg, files, dir, gated);
	else if (platform !== name && platform in platforms) gatePlatform(tag, pkg, platform, files, dir);
	else check(`${tag}: a landlock-run package (landlock-run or @landlock-run/<platform/*.env>)`, false, `name ${JSON.stringify(name)}`);
});
rmSync(scratch, { recursive: true, force: true });
for (const { tgz, sha } of opened) console.log(`# sha256 ${sha}  ${basename(tgz)}`);
if (sums && failed === 0) writeFileSync(sums, opened.map(({ tgz, sha }) => `${sha}  ${basename(tgz)}\n`).join(''));
else if (sums) rmSync(sums, { force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
