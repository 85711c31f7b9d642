// bin/landlock-run.js (what `npx landlock-run` runs) against fake launchers.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, test } from 'node:test';
import { cleanup, fakeInstall } from './helpers.js';

after(cleanup);

const run = (bin, args, input) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input });

test('bin: passes argv and stdio through and ends with the launcher status', async () => {
	const { bin } = await fakeInstall({ body: 'printf "<%s>" "$@"; cat; echo err >&2; exit 42' });
	const r = run(bin, ['--probe', 'a b', '--', ''], 'from stdin');
	assert.equal(r.status, 42);
	assert.equal(r.stdout, '<--probe><a b><--><>from stdin');
	assert.equal(r.stderr, 'err\n');
});

test('bin: status 0 and 125 pass through', async () => {
	for (const status of [0, 125]) {
		const { bin } = await fakeInstall({ body: `exit ${status}` });
		assert.equal(run(bin, []).status, status);
	}
});

test('bin: a launcher killed by a signal kills the wrapper with the same signal', async () => {
	const { bin } = await fakeInstall({ body: 'kill -TERM $$' });
	const r = run(bin, []);
	assert.equal(r.status, null);
	assert.equal(r.signal, 'SIGTERM');
});

test('bin: no platform package -> 125 and one landlock-run: line', async () => {
	const { bin } = await fakeInstall({ platform: false });
	const r = run(bin, ['--probe']);
	assert.equal(r.status, 125);
	assert.equal(r.stdout, '');
	assert.match(r.stderr, /^landlock-run: .*not installed.*\n$/);
	assert.equal(r.stderr.split('\n').length, 2);
});
