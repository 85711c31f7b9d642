// landlock-run/compat against fake installs and fake launchers: the harness's shapes.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { after, test } from 'node:test';
import { cleanup, fakeInstall, fakeLauncher, platformPkg, tempDir } from './helpers.mjs';

after(cleanup);
const { compat } = await fakeInstall();

// The harness's CLI contract: `LAUNCHER --probe` exits 0 with one verdict line.
const FULL = "echo 'landlock: fully enforced'";
const PARTIAL = "echo 'landlock: partially enforced (older ABI)'";

test('compat: the constants', async () => {
	const { compat } = await fakeInstall();
	assert.equal(compat.LAUNCHER_FAILURE_EXIT, 125);
	assert.equal(compat.LAUNCHER_BIN, 'landlock-run');
});

test('compat launcherPath(): the installed binary; the hook gets <platform package>/package.json', async () => {
	const { compat, binary } = await fakeInstall();
	assert.equal(compat.launcherPath(), binary);
	const asked = [];
	const hooked = compat.launcherPath((request) => { asked.push(request); return '/opt/pkgs/x/package.json'; });
	assert.deepEqual(asked, [`${platformPkg}/package.json`]);
	assert.equal(hooked, '/opt/pkgs/x/bin/landlock-run');
});

test('compat launcherPath(): never throws; not installed gives the never-existing path inside the entry package', async () => {
	const { compat, root } = await fakeInstall({ platform: false });
	const want = join(root, 'node_modules', 'landlock-run', 'node_modules', ...platformPkg.split('/'), 'bin', 'landlock-run');
	assert.equal(compat.launcherPath(), want);
	assert.equal(compat.launcherPath(() => { throw new Error('Cannot find module'); }), want);
	assert.ok(isAbsolute(want) && !existsSync(want));
	assert.equal(compat.probe(want, { timeoutMs: 5000 }), 'unusable');
});

test('compat grantArgs(): readOnly then readWrite, each in order; anything else is a TypeError', async () => {
	const { compat } = await fakeInstall();
	const ws = tempDir();
	assert.deepEqual(compat.grantArgs({ readOnly: ['/'], readWrite: ['/dev/null', '/tmp', ws] }),
		['--ro', '/', '--rw', '/dev/null', '--rw', '/tmp', '--rw', ws]);
	assert.deepEqual(compat.grantArgs({ readWrite: ['/w'], readOnly: ['/r'] }), ['--ro', '/r', '--rw', '/w']);
	assert.deepEqual(compat.grantArgs({ readOnly: ['/'] }), ['--ro', '/']);
	for (const bad of [{ ro: ['/'] }, { readOnly: '/' }, { readWrite: [''] }, null]) {
		if (bad === null) assert.deepEqual(compat.grantArgs(bad), []);
		else assert.throws(() => compat.grantArgs(bad), TypeError, JSON.stringify(bad));
	}
});

test('compat probe(): each verdict line, as echo or printf writes it, whatever is on stderr', async () => {
	const { compat } = await fakeInstall({ body: FULL });
	assert.equal(compat.probe(), 'full', 'the default launcher is launcherPath()');
	assert.equal(compat.probe(undefined, { timeoutMs: 5000 }), 'full');
	for (const [body, verdict] of [
		[FULL, 'full'],
		[PARTIAL, 'partial'],
		["printf 'landlock: fully enforced'", 'full'],
		["printf 'landlock: partially enforced (older ABI)'", 'partial'],
		[`echo 'landlock-run: warning' >&2; ${PARTIAL}; echo more noise >&2`, 'partial'],
	]) assert.equal(compat.probe(fakeLauncher(body), { timeoutMs: 5000 }), verdict, body);
});

test('compat probe(): any other output, with exit 0, is unusable', () => {
	for (const body of [
		'true', // nothing
		"echo ''",
		"echo 'landlock: fully enforced '",
		"echo ' landlock: fully enforced'",
		"printf 'landlock: fully enforced\\r\\n'",
		"printf 'landlock: fully enforced\\n\\n'",
		`${FULL}; echo abi=7`, // a second line: the -v report is not the verdict
		`echo; ${FULL}`,
		"echo 'landlock: partially enforced'",
		"echo 'landlock: not enforced'",
		"echo 'LANDLOCK: FULLY ENFORCED'",
		`echo '{"abi":7,"abi_used":7,"enforcement":"full"}'`, // --probe --json is not the contract
		"echo 'landlock: fully enforced' >&2", // the verdict on the wrong stream
		"head -c 100000 /dev/zero | tr '\\0' x",
	]) assert.equal(compat.probe(fakeLauncher(body), { timeoutMs: 5000 }), 'unusable', body);
});

test('compat probe(): the verdict with a non-zero exit, 125 included, is unusable', () => {
	for (const status of [125, 1, 2, 126, 127, 255]) {
		assert.equal(compat.probe(fakeLauncher(`${FULL}; exit ${status}`), { timeoutMs: 5000 }), 'unusable', String(status));
	}
	assert.equal(compat.probe(fakeLauncher("echo 'landlock-run: Landlock is disabled' >&2; exit 125")), 'unusable');
});

test('compat probe(): a launcher killed by a signal is unusable, even after printing the verdict', () => {
	for (const sig of ['KILL', 'SEGV', 'TERM']) {
		assert.equal(compat.probe(fakeLauncher(`${FULL}; kill -${sig} $$`), { timeoutMs: 5000 }), 'unusable', sig);
	}
});

test('compat probe(): a launcher that cannot be run, or bad arguments, is unusable, and nothing throws', () => {
	const dir = tempDir();
	const noExec = fakeLauncher(FULL);
	chmodSync(noExec, 0o644);
	for (const args of [[join(dir, 'missing')], [noExec], [dir], [42], [null], [''], [{}],
		[fakeLauncher(FULL), { timeoutMs: -1 }], [fakeLauncher(FULL), { timeoutMs: 0 }], [fakeLauncher(FULL), { timeoutMs: 'soon' }],
		[fakeLauncher(FULL), { timeoutMs: NaN }], [fakeLauncher(FULL), { timeoutMs: Infinity }]]) {
		assert.equal(compat.probe(...args), 'unusable', JSON.stringify(args));
	}
	// options that are not an object mean the defaults
	assert.equal(compat.probe(fakeLauncher(FULL), null), 'full');
});

test('compat probe(): a hang past timeoutMs is unusable, on time, and the launcher is killed', () => {
	const dir = tempDir();
	const pid = join(dir, 'pid');
	const hangs = {
		'exec sleep': `echo $$ >${pid}; exec sleep 30`,
		// the shell is killed; the sleep it started still holds stdout open
		'a child holding stdout': `sleep 30 & echo $! >${pid}; wait`,
		// the verdict and exit 0, but stdout never reaches EOF
		'the verdict, then stdout held open': `${FULL}; sleep 30 & echo $! >${pid}`,
	};
	for (const [name, body] of Object.entries(hangs)) {
		const launcher = fakeLauncher(body);
		const started = Date.now();
		assert.equal(compat.probe(launcher, { timeoutMs: 300 }), 'unusable', name);
		const took = Date.now() - started;
		assert.ok(took >= 300 && took < 3000, `${name}: returned after ${took} ms`);
		const hung = Number(readFileSync(pid, 'utf8'));
		if (name === 'exec sleep') assert.throws(() => process.kill(hung, 0), { code: 'ESRCH' }, 'the launcher was not killed');
		else process.kill(hung, 'SIGKILL'); // the orphan this test made
	}
	// control: the same launchers within the timeout are not cut short
	assert.equal(compat.probe(fakeLauncher(`sleep 0.2; ${FULL}`), { timeoutMs: 5000 }), 'full');
});

test('compat probe(): asks --probe and nothing else, with nothing on stdin', async () => {
	const log = join(tempDir(), 'args');
	const { compat: installed } = await fakeInstall();
	assert.equal(installed.probe(fakeLauncher(`printf '%s\\n' "$@" >${log}; read -r x && exit 1; ${FULL}`)), 'full');
	assert.equal(readFileSync(log, 'utf8'), '--probe\n');
});
