import assert from 'node:assert/strict';
import { accessSync, constants } from 'node:fs';
import { isAbsolute } from 'node:path';
import { after, test } from 'node:test';
import { join } from 'node:path';
import { cleanup, fakeInstall, otherPkg, platformPkg, tempDir } from './helpers.mjs';

after(cleanup);

test('launcherPath: the installed platform package binary, absolute and executable', async () => {
	const { mod, binary } = await fakeInstall();
	const p = mod.launcherPath();
	assert.equal(p, binary);
	assert.ok(isAbsolute(p));
	accessSync(p, constants.X_OK);
});

test('launcherPath: platform package absent -> LANDLOCK_RUN_NOT_INSTALLED with a fix that keeps other platforms working', async () => {
	const { mod } = await fakeInstall({ platform: false });
	assert.throws(() => mod.launcherPath(), (e) => {
		assert.equal(e.code, 'LANDLOCK_RUN_NOT_INSTALLED');
		assert.ok(e.message.startsWith(`the launcher package ${platformPkg} is not installed: optional dependencies were omitted`), e.message);
		assert.match(e.message, /npm install --include=optional\) rather than adding/);
		assert.doesNotMatch(e.message, /landlock-run: /);
		return true;
	});
});

test('launcherPath: only the other platform package installed -> LANDLOCK_RUN_WRONG_PLATFORM naming both', async () => {
	const { mod } = await fakeInstall({ platform: otherPkg });
	assert.throws(() => mod.launcherPath(), (e) => {
		assert.equal(e.code, 'LANDLOCK_RUN_WRONG_PLATFORM');
		assert.ok(e.message.startsWith(`${otherPkg} is installed, but this machine needs ${platformPkg}: `), e.message);
		assert.match(e.message, /run npm ci or npm install on this machine$/);
		return true;
	});
});

test('launcherPath: binary without its exec bit -> LANDLOCK_RUN_NOT_INSTALLED', async () => {
	const { mod } = await fakeInstall({ binaryMode: 0o644 });
	assert.throws(() => mod.launcherPath(), { code: 'LANDLOCK_RUN_NOT_INSTALLED', message: /is missing or not executable: reinstall / });
});

test('launcherPath: an os/cpu without a package -> LANDLOCK_RUN_UNSUPPORTED_PLATFORM', async () => {
	const { mod } = await fakeInstall();
	for (const [key, value] of [['arch', 's390x'], ['platform', 'darwin']]) {
		const saved = Object.getOwnPropertyDescriptor(process, key);
		Object.defineProperty(process, key, { ...saved, value });
		try {
			assert.throws(() => mod.launcherPath(), (e) => {
				assert.equal(e.code, 'LANDLOCK_RUN_UNSUPPORTED_PLATFORM');
				assert.match(e.message, /there are @landlock-run\/linux-arm64, @landlock-run\/linux-x64\); Landlock is Linux-only$/);
				assert.ok(e.message.includes(key === 'arch' ? `${process.platform}-s390x` : `darwin-`), e.message);
				return true;
			});
		} finally {
			Object.defineProperty(process, key, saved);
		}
	}
	assert.doesNotThrow(() => mod.launcherPath());
});

test('command: launcher, grants, --, argv', async () => {
	const { mod, binary } = await fakeInstall();
	assert.deepEqual(mod.command({ ro: ['/'], rw: ['/tmp'] }, ['sh', '-c', 'echo hi']),
		[binary, '--ro', '/', '--rw', '/tmp', '--', 'sh', '-c', 'echo hi']);
	assert.deepEqual(mod.command(undefined, ['true']), [binary, '--', 'true']);
	assert.deepEqual(mod.command({}, ['--', '-x']), [binary, '--', '--', '-x']);
});

test('command: a bad argv or policy is a TypeError, checked before the launcher is looked up', async () => {
	const { mod } = await fakeInstall({ platform: false });
	for (const argv of [[], 'ls', undefined, [1], [''], ['a\0b']]) {
		assert.throws(() => mod.command({}, argv), TypeError, `argv ${JSON.stringify(argv)}`);
	}
	assert.throws(() => mod.command({ ro: '/' }, ['ls']), TypeError);
	assert.throws(() => mod.command({}, ['ls']), { code: 'LANDLOCK_RUN_NOT_INSTALLED' });
});

test('command: {launcher} replaces launcherPath(), which is then not consulted', async () => {
	const { mod } = await fakeInstall({ platform: false });
	assert.deepEqual(mod.command({ ro: ['/'] }, ['true'], { launcher: '/opt/lr/landlock-run' }),
		['/opt/lr/landlock-run', '--ro', '/', '--', 'true']);
	for (const launcher of ['', 42, null]) {
		assert.throws(() => mod.command({}, ['true'], { launcher }), TypeError, JSON.stringify(launcher));
	}
});

test('no environment variable moves launcherPath(), command() or the probe\'s default launcher', async () => {
	const { mod, binary } = await fakeInstall({ body: `echo '{"abi":7,"abi_used":7,"enforcement":"full"}'` });
	const decoy = join(tempDir(), 'decoy');
	const names = ['LANDLOCK_RUN_BINARY_PATH', 'LANDLOCK_RUN_LAUNCHER', 'LANDLOCK_RUN_PATH', 'ESBUILD_BINARY_PATH', 'NODE_PATH'];
	const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
	try {
		for (const n of names) process.env[n] = decoy;
		assert.equal(mod.launcherPath(), binary);
		assert.equal(mod.command({}, ['true'])[0], binary);
		assert.equal((await mod.probe()).enforcement, 'full');
	} finally {
		for (const n of names) if (saved[n] === undefined) delete process.env[n]; else process.env[n] = saved[n];
	}
});

test('isLauncherFailure: stderr as a string, a Buffer or a plain Uint8Array', async () => {
	const { mod } = await fakeInstall();
	const line = 'landlock-run: cannot open --ro path /x: No such file or directory\n';
	for (const stderr of [line, Buffer.from(line), new TextEncoder().encode(line)]) assert.equal(mod.isLauncherFailure(125, stderr), true);
});
