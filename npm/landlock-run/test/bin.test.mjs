// bin/landlock-run, the entry package's POSIX sh launcher, against fake platform binaries in
// the layouts npm makes: it must exec the binary (same pid, argv, status, signals), find it
// where Node would, ignore the environment, and fail with the coded messages of launcherPath().
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cleanup, fakeInstall, otherPkg, platformPkg } from './helpers.mjs';

after(cleanup);

const run = (file, args = [], opts = {}) => spawnSync(file, args, { encoding: 'utf8', ...opts });
/** npm's link: node_modules/.bin/landlock-run -> ../landlock-run/bin/landlock-run */
function binLink(root, at = 'node_modules') {
	mkdirSync(join(root, at, '.bin'), { recursive: true });
	const link = join(root, at, '.bin', 'landlock-run');
	symlinkSync('../landlock-run/bin/landlock-run', link);
	return link;
}

test('bin: argv bytes, stdio and the status pass through', async () => {
	const { bin } = await fakeInstall({ body: 'printf "<%s>" "$@"; cat; echo err >&2; exit 42' });
	const args = ['--probe', 'a b', '', '*', '$HOME', 'line\nbreak', 'ünï', '--'];
	const r = run(bin, args, { input: 'from stdin' });
	assert.equal(r.status, 42);
	assert.equal(r.stdout, `${args.map((a) => `<${a}>`).join('')}from stdin`);
	assert.equal(r.stderr, 'err\n');
});

test('bin: execs the binary: the same pid, and a signal death is the caller\'s to see', async () => {
	const { bin } = await fakeInstall({ body: 'echo $$' });
	const child = spawn(bin, [], { stdio: ['ignore', 'pipe', 'inherit'] });
	let out = '';
	child.stdout.on('data', (d) => { out += d; });
	await new Promise((resolve) => child.on('close', resolve));
	assert.equal(Number(out), child.pid);
	const killed = await fakeInstall({ body: 'kill -TERM $$' });
	const r = run(killed.bin);
	assert.deepEqual([r.status, r.signal], [null, 'SIGTERM']);
});

test('bin: found through npm\'s .bin link, absolute or relative, and from a nested install', async () => {
	const flat = await fakeInstall({ body: 'echo found' });
	const link = binLink(flat.root);
	assert.equal(run(link).stdout, 'found\n');
	assert.equal(run('node_modules/.bin/landlock-run', [], { cwd: flat.root }).stdout, 'found\n');
	assert.equal(run('sh', ['-c', 'landlock-run'], { cwd: flat.root, env: { PATH: `node_modules/.bin:${process.env.PATH}` } }).stdout, 'found\n');
	// the entry nested under another package, its platform package hoisted to the top
	const nested = await fakeInstall({ body: 'echo hoisted', entryAt: 'node_modules/app/node_modules' });
	assert.equal(run(binLink(nested.root, 'node_modules/app/node_modules')).stdout, 'hoisted\n');
	assert.equal(run(nested.bin).stdout, 'hoisted\n');
});

test('bin: no environment variable chooses the binary', async () => {
	const { bin } = await fakeInstall({ body: 'echo the-installed-one' });
	const env = { PATH: '/nonexistent', LANDLOCK_RUN_BINARY_PATH: '/bin/false', NODE_PATH: '/tmp', ESBUILD_BINARY_PATH: '/bin/false' };
	const r = run(bin, [], { env });
	assert.equal(r.stdout, 'the-installed-one\n', r.stderr);
});

/** The launcher's failure: status 125, nothing on stdout, one line `landlock-run: <launcherPath()'s message>`. */
function failsLike(r, mod, code) {
	assert.equal(r.status, 125, r.stderr);
	assert.equal(r.stdout, '');
	assert.throws(() => mod.launcherPath(), (e) => {
		assert.equal(e.code, code);
		assert.equal(r.stderr, `landlock-run: ${e.message}\n`);
		return true;
	});
}

test('bin: platform package missing -> 125 and the NOT_INSTALLED line of launcherPath()', async () => {
	const { bin, mod } = await fakeInstall({ platform: false });
	failsLike(run(bin, ['--probe']), mod, 'LANDLOCK_RUN_NOT_INSTALLED');
});

test('bin: only another platform\'s package -> 125 and the WRONG_PLATFORM line of launcherPath()', async () => {
	const { bin, mod } = await fakeInstall({ platform: otherPkg });
	failsLike(run(bin, ['--probe']), mod, 'LANDLOCK_RUN_WRONG_PLATFORM');
	assert.ok(platformPkg !== otherPkg);
});

test('bin: a binary without its exec bit -> 125, one line', async () => {
	const { bin, mod } = await fakeInstall({ binaryMode: 0o644 });
	failsLike(run(bin), mod, 'LANDLOCK_RUN_NOT_INSTALLED');
});
