// The pack gate (scripts/npm-gate.mjs) against known-good and deliberately broken
// tarballs. The good platform packages carry a tiny static stand-in binary built with each
// platform/*.env compiler (it prints `landlock-run VERSION` for --version), so these tests
// do not depend on the launcher; each breakage must fail exactly the checks named.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	appendFileSync, chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync,
	rmSync, unlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { hostPlatform, readPlatforms } from '../../scripts/platforms.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const gate = join(root, 'scripts', 'npm-gate.mjs');
const VERSION = readFileSync(join(root, 'VERSION'), 'utf8').trim();
const work = mkdtempSync(join(tmpdir(), 'landlock-run-gate-'));
after(() => rmSync(work, { recursive: true, force: true }));

const envs = readPlatforms(root);
const host = hostPlatform(envs);

const sh = (cmd, args, opts = {}) => {
	const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
	assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.error ?? ''}${r.stderr}`);
	return r.stdout;
};
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

function stubSource(version) {
	return `#include <stdio.h>\n#include <string.h>\nint main(int c, char **v) {\n` +
		`\tif (c == 2 && !strcmp(v[1], "--version")) { puts("landlock-run ${version}"); return 0; }\n` +
		`\treturn 125;\n}\n`;
}
function compile(name, out, { version = VERSION, cc } = {}) {
	const env = envs[name];
	const src = join(work, `stub-${version}.c`);
	writeFileSync(src, stubSource(version));
	const specs = env.SPECS ? ['-specs', env.SPECS] : [];
	sh(cc ?? env.CC, [...(cc ? [] : specs), ...(cc ? [] : ['-static']), '-Os', '-s', '-o', out, src]);
	return out;
}

const stubs = {};
let stage = 0;
/** A staged package dir (copy of the source package.json + files); returns its path. */
function stagePlatform(name) {
	const dir = join(work, `stage-${stage++}`, 'package');
	mkdirSync(join(dir, 'bin'), { recursive: true });
	copyFileSync(join(root, 'npm', name, 'package.json'), join(dir, 'package.json'));
	copyFileSync(join(root, 'npm', name, 'README.md'), join(dir, 'README.md'));
	copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
	copyFileSync(stubs[name], join(dir, 'bin', 'landlock-run'));
	chmodSync(join(dir, 'bin', 'landlock-run'), 0o755);
	writeManifest(dir, name);
	return dir;
}
function writeManifest(dir, name, extra = {}) {
	writeFileSync(join(dir, 'manifest.json'), JSON.stringify({
		binary: 'bin/landlock-run', arch: envs[name].ARCH, elfMachine: Number(envs[name].ELF_MACHINE),
		sha256: sha256(join(dir, 'bin', 'landlock-run')), ...extra,
	}));
}
function stageEntry() {
	const dir = join(work, `stage-${stage++}`, 'package');
	mkdirSync(dirname(dir), { recursive: true });
	cpSync(join(root, 'npm', 'landlock-run'), dir, { recursive: true, filter: (s) => !s.includes('/test') });
	for (const doc of ['LICENSE', 'landlock-run.1']) copyFileSync(join(root, doc), join(dir, doc));
	return dir;
}
function editJson(file, edit) {
	const obj = JSON.parse(readFileSync(file, 'utf8'));
	edit(obj);
	writeFileSync(file, JSON.stringify(obj));
}
function pack(dir, file) {
	const out = join(dirname(dir), file);
	sh('tar', ['-czf', out, '-C', dirname(dir), 'package']);
	return out;
}
const tarballName = (name) => name === 'landlock-run' ? `landlock-run-${VERSION}.tgz` : `landlock-run-${name}-${VERSION}.tgz`;

/** Run the gate; returns { status, failed: [check labels that failed], out }. */
function runGate(tarballs) {
	const r = spawnSync(process.execPath, [gate, ...tarballs], { encoding: 'utf8' });
	const failed = r.stdout.split('\n').filter((l) => l.startsWith('not ok '))
		.map((l) => l.replace(/^not ok \d+ - [^:]+: /, ''));
	return { status: r.status, failed, out: r.stdout + r.stderr };
}
/** The gate refuses, and the checks that failed are exactly those matching `expect`. */
function refuses(tarballs, ...expect) {
	const r = runGate(tarballs);
	assert.equal(r.status, 1, r.out);
	assert.match(r.out, /\n\d+ passed, [1-9]\d* failed\n$/);
	assert.equal(r.failed.length, expect.length, `failed: ${JSON.stringify(r.failed)}`);
	for (const re of expect) assert.ok(r.failed.some((f) => re.test(f)), `${re} not among ${JSON.stringify(r.failed)}`);
}

const good = {};
before(() => {
	for (const name of Object.keys(envs)) {
		stubs[name] = compile(name, join(work, `stub-${name}`));
		good[name] = pack(stagePlatform(name), tarballName(name));
	}
	good['landlock-run'] = pack(stageEntry(), tarballName('landlock-run'));
});
const all = () => Object.values(good);
const native = () => host;

test('control: the good tarballs pass, and the gate says how many checks ran', () => {
	const r = runGate(all());
	assert.equal(r.status, 0, r.out);
	assert.match(r.out, /\n(\d+) passed, 0 failed\n$/);
	assert.ok(Number(r.out.match(/\n(\d+) passed/)[1]) > 30);
});

test('control: --sums records the sha256 of exactly the tarballs that passed, and only when all passed', () => {
	const sums = join(work, 'SHA256SUMS');
	const r = spawnSync(process.execPath, [gate, '--sums', sums, ...all()], { encoding: 'utf8' });
	assert.equal(r.status, 0, r.stdout + r.stderr);
	assert.equal(readFileSync(sums, 'utf8'), all().map((f) => `${sha256(f)}  ${f.slice(f.lastIndexOf('/') + 1)}\n`).join(''));
	const bad = join(work, 'bad.tgz');
	writeFileSync(bad, 'not gzip');
	assert.equal(spawnSync(process.execPath, [gate, '--sums', sums, ...all(), bad]).status, 1);
	assert.ok(!existsSync(sums), 'a failed gate left a record');
});

test('control: each platform tarball passes alone', () => {
	for (const name of Object.keys(envs)) assert.equal(runGate([good[name]]).status, 0, name);
});

test('refused: binary without its exec bit (0644)', () => {
	const dir = stagePlatform(native());
	chmodSync(join(dir, 'bin', 'landlock-run'), 0o644);
	refuses([pack(dir, tarballName(native()))], /mode 0755/, /--version/);
});

test('refused: binary with a group-writable mode (0775)', () => {
	const dir = stagePlatform(native());
	chmodSync(join(dir, 'bin', 'landlock-run'), 0o775);
	refuses([pack(dir, tarballName(native()))], /mode 0755.*mode 0775/);
});

test('refused: a dynamically linked binary', () => {
	const dir = stagePlatform(native());
	compile(native(), join(dir, 'bin', 'landlock-run'), { cc: 'gcc' });
	writeManifest(dir, native());
	refuses([pack(dir, tarballName(native()))], /static: no PT_INTERP.*interp yes/);
});

test('refused: the wrong ELF machine', () => {
	const dir = stagePlatform(native());
	const bin = join(dir, 'bin', 'landlock-run');
	const bytes = readFileSync(bin);
	bytes.writeUInt16LE(native() === 'linux-x64' ? 183 : 62, 18);
	writeFileSync(bin, bytes);
	writeManifest(dir, native());
	refuses([pack(dir, tarballName(native()))], /ELF machine/, /--version/);
});

test('refused: the other platform binary in this package', () => {
	const other = Object.keys(envs).find((n) => n !== native());
	const dir = stagePlatform(native());
	copyFileSync(stubs[other], join(dir, 'bin', 'landlock-run'));
	writeManifest(dir, native());
	// a static aarch64 binary is at least 64 KiB (segment alignment): maybe over budget too
	const r = runGate([pack(dir, tarballName(native()))]);
	assert.equal(r.status, 1, r.out);
	for (const re of [/ELF machine/, /--version/]) assert.ok(r.failed.some((f) => re.test(f)), r.out);
	assert.ok(r.failed.every((f) => /ELF machine|--version|size within/.test(f)), r.out);
});

test('refused: sha256 differs from the manifest', () => {
	const dir = stagePlatform(native());
	appendFileSync(join(dir, 'bin', 'landlock-run'), '\0');
	refuses([pack(dir, tarballName(native()))], /sha256 equals manifest/);
});

test('refused: the manifest names another architecture', () => {
	const dir = stagePlatform(native());
	writeManifest(dir, native(), { arch: 'riscv64' });
	refuses([pack(dir, tarballName(native()))], /manifest names/);
});

test('refused: no binary', () => {
	const dir = stagePlatform(native());
	unlinkSync(join(dir, 'bin', 'landlock-run'));
	refuses([pack(dir, tarballName(native()))], /bin\/landlock-run present/);
});

test('refused: over the size budget', () => {
	const dir = stagePlatform(native());
	appendFileSync(join(dir, 'bin', 'landlock-run'), Buffer.alloc(200 * 1024));
	writeManifest(dir, native());
	refuses([pack(dir, tarballName(native()))], /size within/);
});

test('refused: the binary reports another version', () => {
	const dir = stagePlatform(native());
	compile(native(), join(dir, 'bin', 'landlock-run'), { version: '0.0.0-other' });
	writeManifest(dir, native());
	refuses([pack(dir, tarballName(native()))], /--version/);
});

test('refused: package.json version is not VERSION', () => {
	const dir = stagePlatform(native());
	editJson(join(dir, 'package.json'), (p) => { p.version = '9.9.9'; });
	refuses([pack(dir, tarballName(native()))], /version 9\.9\.9 equals VERSION/);
});

test('refused: wrong cpu, a libc field, scripts, JavaScript', () => {
	let dir = stagePlatform(native());
	editJson(join(dir, 'package.json'), (p) => { p.cpu = ['ia32']; });
	refuses([pack(dir, tarballName(native()))], /os is .* and cpu is/);
	dir = stagePlatform(native());
	editJson(join(dir, 'package.json'), (p) => { p.libc = ['glibc']; });
	refuses([pack(dir, tarballName(native()))], /no libc field/);
	dir = stagePlatform(native());
	editJson(join(dir, 'package.json'), (p) => { p.scripts = { postinstall: 'node x.js' }; });
	refuses([pack(dir, tarballName(native()))], /no scripts/);
	dir = stagePlatform(native());
	writeFileSync(join(dir, 'install.js'), '');
	refuses([pack(dir, tarballName(native()))], /no JavaScript/, /only the binary/);
});

test('refused: no LICENSE, another license, no README (every package)', () => {
	for (const name of [native(), 'landlock-run']) {
		const stageAny = () => (name === 'landlock-run' ? stageEntry() : stagePlatform(name));
		const others = all().filter((f) => !f.endsWith(tarballName(name)));
		for (const edit of [(d) => unlinkSync(join(d, 'LICENSE')), (d) => unlinkSync(join(d, 'README.md')),
			(d) => editJson(join(d, 'package.json'), (p) => { p.license = 'UNLICENSED'; })]) {
			const dir = stageAny();
			edit(dir);
			refuses([...others, pack(dir, tarballName(name))], /license MIT, LICENSE and README\.md shipped/);
		}
	}
});

test('refused: entry package without its man page', () => {
	const others = all().filter((f) => !f.endsWith(tarballName('landlock-run')));
	let dir = stageEntry();
	unlinkSync(join(dir, 'landlock-run.1'));
	refuses([...others, pack(dir, tarballName('landlock-run'))], /man page/);
	dir = stageEntry();
	editJson(join(dir, 'package.json'), (p) => { delete p.man; });
	refuses([...others, pack(dir, tarballName('landlock-run'))], /man page/);
});

test('refused: not a tarball', () => {
	const file = join(work, 'garbage.tgz');
	writeFileSync(file, 'not gzip');
	refuses([file], /opens as an npm tarball/);
});

test('refused: entry package with an install script', () => {
	for (const script of ['preinstall', 'install', 'postinstall']) {
		const dir = stageEntry();
		editJson(join(dir, 'package.json'), (p) => { p.scripts = { [script]: 'node setup.js' }; });
		const t = all().filter((f) => !f.endsWith(tarballName('landlock-run'))).concat(pack(dir, tarballName('landlock-run')));
		refuses(t, /no install scripts/);
	}
});

test('refused: entry package with a range instead of the exact version', () => {
	const dir = stageEntry();
	editJson(join(dir, 'package.json'), (p) => { p.optionalDependencies[`@landlock-run/${native()}`] = `^${VERSION}`; });
	const t = all().filter((f) => !f.endsWith(tarballName('landlock-run'))).concat(pack(dir, tarballName('landlock-run')));
	refuses(t, /optionalDependencies are exactly/, /is among the gated tarballs/);
});

test('refused: entry package missing a platform package, or its declarations', () => {
	let dir = stageEntry();
	editJson(join(dir, 'package.json'), (p) => { delete p.optionalDependencies[`@landlock-run/${native()}`]; });
	let t = all().filter((f) => !f.endsWith(tarballName('landlock-run'))).concat(pack(dir, tarballName('landlock-run')));
	refuses(t, /optionalDependencies are exactly/);
	dir = stageEntry();
	unlinkSync(join(dir, 'index.d.ts'));
	t = all().filter((f) => !f.endsWith(tarballName('landlock-run'))).concat(pack(dir, tarballName('landlock-run')));
	refuses(t, /with their declarations/);
});

test('refused: a platform package with a bin, an entry launcher that is not sh or not 0755', () => {
	let dir = stagePlatform(native());
	editJson(join(dir, 'package.json'), (p) => { p.bin = { 'landlock-run': 'bin/landlock-run' }; });
	refuses([pack(dir, tarballName(native()))], /no bin \(the entry package's is the only landlock-run bin\)/);
	const others = all().filter((f) => !f.endsWith(tarballName('landlock-run')));
	dir = stageEntry();
	chmodSync(join(dir, 'bin', 'landlock-run'), 0o644);
	refuses([...others, pack(dir, tarballName('landlock-run'))], /POSIX sh launcher, mode 0755/);
	dir = stageEntry();
	writeFileSync(join(dir, 'bin', 'landlock-run'), '#!/usr/bin/env node\n', { mode: 0o755 });
	refuses([...others, pack(dir, tarballName('landlock-run'))], /POSIX sh launcher/, /platform table/);
});

test('refused: the launcher\'s platform table misses a platform/*.env entry', () => {
	const dir = stageEntry();
	const file = join(dir, 'bin', 'landlock-run');
	writeFileSync(file, readFileSync(file, 'utf8').replace(/^platforms='(.*) x86_64:linux-x64'$/m, "platforms='$1'"));
	const others = all().filter((f) => !f.endsWith(tarballName('landlock-run')));
	refuses([...others, pack(dir, tarballName('landlock-run'))], /platform table is platform\/\*\.env/);
});

test('refused: an entry that is ESM, lacks compat, or exports a name only to require()', () => {
	const others = all().filter((f) => !f.endsWith(tarballName('landlock-run')));
	let dir = stageEntry();
	editJson(join(dir, 'package.json'), (p) => { p.type = 'module'; });
	const r = runGate([...others, pack(dir, tarballName('landlock-run'))]);
	assert.ok(r.failed.some((f) => /CommonJS/.test(f)), r.out);
	dir = stageEntry();
	unlinkSync(join(dir, 'compat.js'));
	refuses([...others, pack(dir, tarballName('landlock-run'))], /CommonJS/, /JavaScript parses|compat\.js exports/);
	dir = stageEntry();
	// a computed export: require() sees it, Node's static reading of names for import does not
	appendFileSync(join(dir, 'compat.js'), "\nObject.assign(module.exports, { ['LAUNCHER_' + 'BIN']: 'x' });\n");
	writeFileSync(join(dir, 'compat.js'), readFileSync(join(dir, 'compat.js'), 'utf8').replace('LAUNCHER_FAILURE_EXIT, LAUNCHER_BIN }', 'LAUNCHER_FAILURE_EXIT }'));
	refuses([...others, pack(dir, tarballName('landlock-run'))], /compat\.js exports .* to require\(\) and import/);
});

test('refused: entry package gated without its platform tarballs', () => {
	refuses([good['landlock-run']], ...Object.keys(envs).map(() => /is among the gated tarballs/));
});
