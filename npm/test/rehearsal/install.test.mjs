// The packed-install rehearsal: install the tarballs from dist/npm the way a user would
// (npm install, offline, into throwaway projects) and check that what got installed runs
// the tested binary, confines for real, and fails with the coded errors. See lib.mjs.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { env, FULL_ABI, importIn, kernelAbi, KNOWN_ABI, npm, project, rightAbi, scratch, tarball } from './lib.mjs';

const { LR_DIST, LR_WORK, LR_VERSION, LR_BUILD_BINARY, LR_NATIVE, LR_FOREIGN, LR_ROOT } = env;
const app = project('app');
let lr;

test('npm install --offline of the entry tarball installs it and this machine\'s platform package only', async () => {
	const r = npm(app, ['install', '--offline', tarball('landlock-run')]);
	assert.equal(r.status, 0, r.stdout + r.stderr);
	assert.ok(existsSync(join(app, 'node_modules', '@landlock-run', LR_NATIVE, 'manifest.json')));
	assert.ok(!existsSync(join(app, 'node_modules', '@landlock-run', LR_FOREIGN)), `${LR_FOREIGN} was installed`);
	const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
	assert.equal(lock.packages[`node_modules/@landlock-run/${LR_FOREIGN}`]?.optional, true,
		'the foreign package was resolved (and skipped for its cpu), not lost');
	lr = await importIn(app);
});

test('npm sbom: every landlock-run package declares the MIT license; the man page is installed', () => {
	const r = npm(app, ['sbom', '--sbom-format', 'spdx']);
	assert.equal(r.status, 0, r.stderr);
	const licenses = Object.fromEntries(JSON.parse(r.stdout).packages.map((p) => [p.name, p.licenseDeclared]));
	assert.deepEqual(licenses, { 'rehearsal-app': 'NOASSERTION', 'landlock-run': 'MIT', [`@landlock-run/${LR_NATIVE}`]: 'MIT' });
	const man = join(app, 'node_modules', 'landlock-run', 'landlock-run.1');
	assert.ok(readFileSync(man, 'utf8').includes('\n.Os Linux\n'), man);
});

test('launcherPath(): exists, executable, byte-identical to the tested build', () => {
	const p = lr.launcherPath();
	assert.equal(p, join(app, 'node_modules', '@landlock-run', LR_NATIVE, 'bin', 'landlock-run'));
	accessSync(p, constants.X_OK);
	assert.equal(statSync(p).mode & 0o777, 0o755);
	assert.ok(readFileSync(p).equals(readFileSync(LR_BUILD_BINARY)), `${p} differs from ${LR_BUILD_BINARY}`);
});

test(`probe(): this kernel's ABI (${kernelAbi}) and ${kernelAbi >= FULL_ABI ? 'full' : 'partial'}`, async () => {
	const p = await lr.probe();
	assert.equal(p.error, null);
	assert.equal(p.enforced, true);
	assert.equal(p.abi, kernelAbi);
	assert.equal(p.abiUsed, Math.min(kernelAbi, KNOWN_ABI));
	assert.equal(p.enforcement, kernelAbi >= FULL_ABI ? 'full' : 'partial');
	assert.equal(p.pathnameSockets, kernelAbi >= rightAbi('resolve_unix'));
	assert.equal(p.udp, kernelAbi >= rightAbi('udp_connect'));
	assert.equal(p.tcp, kernelAbi >= 4);
	assert.deepEqual(p.scopes, kernelAbi >= 6 ? ['abstract-unix', 'signal'] : []);
	// the tests run where ptrace and /proc work; a seccomp filter only where the runner has one
	assert.equal(p.explain, true);
	const filtered = /^Seccomp:\s*2$/m.test(readFileSync('/proc/self/status', 'utf8'));
	assert.deepEqual(p.where, filtered ? ['seccomp_filter'] : []);
});

test('probe({policy}): an older ABI is partial; a policy this host cannot enforce is POLICY, not NO_LANDLOCK', async () => {
	const p = await lr.probe({ policy: { abi: 3 } });
	assert.deepEqual([p.enforcement, p.abi, p.abiUsed, p.tcp], ['partial', kernelAbi, 3, false]);
	for (const policy of [{ abi: 3, strict: true }, { ro: [join(LR_WORK, 'nonexistent')] }]) {
		const s = await lr.probe({ policy });
		assert.deepEqual([s.enforcement, s.code], ['unusable', 'POLICY'], JSON.stringify(policy));
		assert.match(s.error, /^landlock-run: /);
	}
});

test('command(): a denied write leaves no file, a granted write lands', () => {
	const allowed = join(LR_WORK, 'allowed');
	const denied = join(LR_WORK, 'denied');
	mkdirSync(allowed);
	mkdirSync(denied);
	const write = (dir) => ['sh', '-c', `echo data > '${dir}/file'`];
	// control: without the launcher both writes work
	assert.equal(spawnSync(write(denied)[0], write(denied).slice(1)).status, 0);
	assert.ok(existsSync(join(denied, 'file')));
	rmSync(join(denied, 'file'));

	const [file, ...args] = lr.command({ rw: [allowed] }, write(denied));
	const d = spawnSync(file, args, { encoding: 'utf8' });
	assert.notEqual(d.status, 0);
	assert.match(d.stderr, /Permission denied/);
	assert.equal(lr.isLauncherFailure(d.status, d.stderr), false);
	assert.ok(!existsSync(join(denied, 'file')), 'the denied write landed');

	const [file2, ...args2] = lr.command({ rw: [allowed] }, write(allowed));
	const g = spawnSync(file2, args2, { encoding: 'utf8' });
	assert.equal(g.status, 0, g.stderr);
	assert.equal(readFileSync(join(allowed, 'file'), 'utf8'), 'data\n');
});

test('command(): a launcher failure is told apart from a command exiting 125', () => {
	const [f1, ...a1] = lr.command({ ro: [join(LR_WORK, 'no-such-dir')] }, ['true']);
	const fail = spawnSync(f1, a1, { encoding: 'utf8' });
	assert.equal(fail.status, 125);
	assert.equal(lr.isLauncherFailure(fail.status, fail.stderr), true, fail.stderr);
	const [f2, ...a2] = lr.command({}, ['sh', '-c', 'exit 125']);
	const own = spawnSync(f2, a2, { encoding: 'utf8' });
	assert.equal(own.status, 125);
	assert.equal(lr.isLauncherFailure(own.status, own.stderr), false);
});

test('node_modules/.bin/landlock-run is the sh launcher, which execs the binary: the command keeps the pid', async () => {
	const link = join(app, 'node_modules', '.bin', 'landlock-run');
	assert.equal(realpathSync(link), join(app, 'node_modules', 'landlock-run', 'bin', 'landlock-run'));
	// the command runs in the very process the caller spawned
	const child = spawn(link, ['--ro', '/', '--', 'sh', '-c', 'echo $$'], { stdio: ['ignore', 'pipe', 'inherit'] });
	let out = '';
	child.stdout.on('data', (d) => { out += d; });
	await new Promise((resolve) => child.on('close', resolve));
	assert.equal(Number(out), child.pid);
});

test('npm 10 (what Node 20 and 22 bring) links .bin/landlock-run too, and it runs the binary', () => {
	const dir = project('npm10');
	const npm10 = join(env.LR_TOOLS, 'npm', 'bin', 'npm-cli.js');
	const r = spawnSync(process.execPath, [npm10, 'install', '--offline', tarball('landlock-run')], { cwd: dir, encoding: 'utf8' });
	assert.equal(r.status, 0, r.stdout + r.stderr);
	assert.match(spawnSync(process.execPath, [npm10, '--version'], { encoding: 'utf8' }).stdout, /^10\./);
	const bin = join(dir, 'node_modules', '.bin', 'landlock-run');
	assert.ok(existsSync(bin), 'npm 10 left no .bin/landlock-run (a skipped optional package declaring the same bin deletes it)');
	const run = spawnSync(bin, ['--ro', '/', '--', 'sh', '-c', 'exit 7'], { encoding: 'utf8' });
	assert.equal(run.status, 7, run.stderr);
});

test('the entry package\'s sh launcher, run by its own path, execs the same binary', () => {
	const sh = join(app, 'node_modules', 'landlock-run', 'bin', 'landlock-run');
	const r = spawnSync(sh, ['--ro', '/', '--', 'sh', '-c', 'echo "$0|$1"; exit 9', 'a b', ''], { encoding: 'utf8' });
	assert.deepEqual([r.status, r.stdout, r.stderr], [9, 'a b|\n', '']);
	assert.equal(spawnSync(sh, ['--version'], { encoding: 'utf8' }).stdout, `landlock-run ${LR_VERSION}\n`);
});

test('npx landlock-run --probe / --version / a run work from the installed bin', () => {
	const probe = spawnSync('npx', ['--offline', 'landlock-run', '--probe'], { cwd: app, encoding: 'utf8' });
	assert.equal(probe.status, 0, probe.stderr);
	assert.equal(probe.stdout, `landlock: ${kernelAbi >= FULL_ABI ? 'fully enforced' : 'partially enforced (older ABI)'}\n`);
	const version = spawnSync('npx', ['--offline', 'landlock-run', '--version'], { cwd: app, encoding: 'utf8' });
	assert.equal(version.stdout, `landlock-run ${LR_VERSION}\n`);
	const run = spawnSync('npx', ['--offline', 'landlock-run', '--ro', '/', '--', 'sh', '-c', 'exit 7'], { cwd: app, encoding: 'utf8' });
	assert.equal(run.status, 7, run.stderr);
});

test('the README example runs as written', () => {
	const md = readFileSync(join(LR_ROOT, 'npm', 'landlock-run', 'README.md'), 'utf8');
	const example = md.slice(md.indexOf('## Use from Node.js')).match(/```js\n([\s\S]*?)```/)[1];
	writeFileSync(join(app, 'example.mjs'), example);
	const denied = '/tmp/landlock-run-denied.txt';
	rmSync(denied, { force: true });
	const r = spawnSync(process.execPath, ['example.mjs'], { cwd: app, encoding: 'utf8' });
	try {
		assert.equal(r.status, 0, r.stderr);
		assert.match(r.stdout, new RegExp(`^Landlock: ${kernelAbi >= FULL_ABI ? 'full' : 'partial'} \\(ABI ${kernelAbi}\\)\n`));
		assert.match(r.stdout, /\nexit 2: sh: 1: cannot create \/tmp\/landlock-run-denied\.txt: Permission denied\n$/);
		assert.equal(readFileSync(join(app, 'granted.txt'), 'utf8'), 'ok\n');
		assert.ok(!existsSync(denied), 'the denied write landed');
	} finally {
		rmSync(denied, { force: true });
	}
});

test('docs/development.md\'s local-install recipe works as written', () => {
	const md = readFileSync(join(LR_ROOT, 'docs', 'development.md'), 'utf8');
	const recipe = md.slice(md.indexOf('To use a local build')).match(/```sh\n[^\n]*\n([\s\S]*?)```/)[1];
	const dir = scratch('recipe');
	writeFileSync(join(dir, 'package.json'), '{"name":"recipe","version":"0.0.0","private":true}');
	const r = spawnSync('sh', ['-ec', recipe], { cwd: dir, encoding: 'utf8', env: { ...process.env, DIST: LR_DIST, VERSION: LR_VERSION } });
	assert.equal(r.status, 0, r.stdout + r.stderr);
	const run = spawnSync(join(dir, 'node_modules', '.bin', 'landlock-run'), ['--version'], { encoding: 'utf8' });
	assert.equal(run.stdout, `landlock-run ${LR_VERSION}\n`);
});

test('probe() on a kernel without Landlock (the foreign binary under qemu-user) is unusable', async (t) => {
	const { LR_FOREIGN_RUN } = process.env;
	if (!LR_FOREIGN_RUN) return t.skip(`no qemu-user for ${LR_FOREIGN} in platform/${LR_FOREIGN}.env`);
	const dir = scratch('foreign-bin');
	spawnSync('tar', ['-xzf', tarball(LR_FOREIGN), '-C', dir]);
	const wrapper = join(dir, 'launcher');
	writeFileSync(wrapper, `#!/bin/sh\nexec ${LR_FOREIGN_RUN} ${join(dir, 'package', 'bin', 'landlock-run')} "$@"\n`, { mode: 0o755 });
	const p = await lr.probe({ launcher: wrapper });
	assert.equal(p.enforcement, 'unusable');
	assert.equal(p.enforced, false);
	assert.equal(p.code, 'NO_LANDLOCK');
	assert.match(p.error, /^landlock-run: .*(Function not implemented|ENOSYS)/);
});

test('--omit=optional: launcherPath() throws LANDLOCK_RUN_NOT_INSTALLED, probe() is unusable', async () => {
	const dir = project('omit');
	const r = npm(dir, ['install', '--offline', '--omit=optional', tarball('landlock-run')]);
	assert.equal(r.status, 0, r.stdout + r.stderr);
	assert.ok(!existsSync(join(dir, 'node_modules', '@landlock-run')));
	const mod = await importIn(dir);
	assert.throws(() => mod.launcherPath(), (e) => e.code === 'LANDLOCK_RUN_NOT_INSTALLED' && /optional/.test(e.message));
	const p = await mod.probe();
	assert.equal(p.enforcement, 'unusable');
	assert.equal(p.enforced, false);
	assert.equal(p.code, 'NOT_INSTALLED');
	// npm linked the entry's sh launcher: the same coded message, as the launcher's one line
	const message = (() => { try { mod.launcherPath(); } catch (e) { return e.message; } })();
	for (const [file, args] of [['npx', ['--offline', 'landlock-run', '--probe']], [join(dir, 'node_modules', '.bin', 'landlock-run'), ['--probe']]]) {
		const r = spawnSync(file, args, { cwd: dir, encoding: 'utf8' });
		assert.deepEqual([r.status, r.stdout, r.stderr], [125, '', `landlock-run: ${message}\n`], file);
	}
});

test(`installed for another cpu (--cpu=${LR_FOREIGN.split('-')[1]}): launcherPath() and the sh launcher name both packages`, async () => {
	const dir = project('wrong-cpu');
	const cpu = LR_FOREIGN.split('-')[1];
	const r = npm(dir, ['install', '--offline', `--cpu=${cpu}`, tarball('landlock-run')]);
	assert.equal(r.status, 0, r.stdout + r.stderr);
	assert.ok(existsSync(join(dir, 'node_modules', '@landlock-run', LR_FOREIGN)));
	const mod = await importIn(dir);
	let message;
	assert.throws(() => mod.launcherPath(), (e) => {
		message = e.message;
		return e.code === 'LANDLOCK_RUN_WRONG_PLATFORM' &&
			e.message.startsWith(`@landlock-run/${LR_FOREIGN} is installed, but this machine needs @landlock-run/${LR_NATIVE}: `);
	});
	for (const file of [join(dir, 'node_modules', '.bin', 'landlock-run'), join(dir, 'node_modules', 'landlock-run', 'bin', 'landlock-run')]) {
		const sh = spawnSync(file, ['--probe'], { encoding: 'utf8' });
		assert.deepEqual([sh.status, sh.stdout, sh.stderr], [125, '', `landlock-run: ${message}\n`], file);
	}
});

test(`installing the ${LR_FOREIGN} tarball directly is refused with EBADPLATFORM`, () => {
	const dir = scratch('foreign');
	writeFileSync(join(dir, 'package.json'), '{"name":"rehearsal-foreign","private":true}');
	const r = npm(dir, ['install', '--offline', tarball(LR_FOREIGN)]);
	assert.notEqual(r.status, 0);
	assert.match(r.stdout + r.stderr, /EBADPLATFORM/);
	assert.ok(!existsSync(join(dir, 'node_modules', '@landlock-run', LR_FOREIGN)));
});
