// landlock-run/compat against fake installs and fake launchers: the harness's shapes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { after, test } from 'node:test';
import { cleanup, fakeInstall, fakeLauncher, platformPkg, tempDir } from './helpers.mjs';

after(cleanup);

const FULL = `echo '{"abi":7,"abi_used":7,"enforcement":"full"}'`;
const PARTIAL = `echo '{"abi":2,"abi_used":2,"enforcement":"partial"}'`;

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

test('compat probe(): a synchronous verdict string', async () => {
	const { compat } = await fakeInstall({ body: FULL });
	const verdict = compat.probe();
	assert.equal(verdict, 'full', 'the default launcher is launcherPath()');
	assert.equal(compat.probe(fakeLauncher(PARTIAL), { timeoutMs: 5000 }), 'partial');
	assert.equal(compat.probe(fakeLauncher('echo "landlock-run: no Landlock" >&2; exit 125')), 'unusable');
	assert.equal(compat.probe(join(tempDir(), 'missing')), 'unusable');
	const started = Date.now();
	assert.equal(compat.probe(fakeLauncher('exec sleep 30'), { timeoutMs: 300 }), 'unusable');
	assert.ok(Date.now() - started < 5000);
	for (const bad of [[42], [null], [''], [fakeLauncher(FULL), { timeoutMs: -1 }]]) {
		assert.equal(compat.probe(...bad), 'unusable', JSON.stringify(bad));
	}
});

test('compat probe(): asks --probe --json and nothing else', async () => {
	const log = join(tempDir(), 'args');
	const { compat } = await fakeInstall();
	assert.equal(compat.probe(fakeLauncher(`printf '%s\\n' "$@" >${log}; ${FULL}`)), 'full');
	assert.equal(readFileSync(log, 'utf8'), '--probe\n--json\n');
});
