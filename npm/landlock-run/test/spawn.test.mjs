// spawnConfined() against a shell-script double of the launcher's --status-fd protocol
// (landlock-run(1)); npm/test/rehearsal/spawn.test.mjs runs it with the real binary.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { isLauncherFailure, spawnConfined } from '../index.js';
import { cleanup, fakeLauncher, tempDir } from './helpers.mjs';

after(cleanup);

// The double (test/status-double.sh): the protocol's lines, the launcher's failures.
const DOUBLE = join(dirname(fileURLToPath(import.meta.url)), 'status-double.sh');
const double = (silent = '') => fakeLauncher(`SILENT='${silent}' exec sh '${DOUBLE}' "$@"`);
/** Wait for the child to end: { code, signal, stdout, stderr } (whatever the caller's stdio made of them). */
const ended = (child) => new Promise((resolve) => {
	const out = { stdout: '', stderr: '' };
	child.stdout?.on('data', (d) => { out.stdout += d; });
	child.stderr?.on('data', (d) => { out.stderr += d; });
	child.on('close', (code, signal) => resolve({ ...out, code, signal }));
});
const FORGED = 'landlock-run: cannot open --rw path /x: No such file or directory';

test('a run: the pid line, the exec line, the end record: executed, with what the launcher enforces and how it ended', async () => {
	const { child, status } = spawnConfined({ ro: ['/'] }, ['sh', '-c', 'echo $$; exit 3'], { launcher: double() });
	const run = ended(child);
	const s = await status;
	const r = await run;
	assert.equal(r.code, 3);
	assert.deepEqual(s, {
		executed: true, pid: Number(r.stdout), abi: 7, abiUsed: 7, enforcement: 'partial', status: null, error: null, exit: 3, signal: null,
	});
	assert.notEqual(s.pid, child.pid);
});

test('the launcher gets --status-fd 3 first, then the policy with --kill-tree, --, the command', async () => {
	const log = join(tempDir(), 'argv');
	const launcher = fakeLauncher(`printf '%s\\n' "$@" >${log}; exec sh '${DOUBLE}' "$@"`);
	const argv = () => readFileSync(log, 'utf8').split('\n').slice(0, -1);
	const want = ['--status-fd', '3', '--ro', '/', '--rw', '/tmp', '--kill-tree', '--', 'true', 'a b'];
	assert.equal((await spawnConfined({ ro: ['/'], rw: ['/tmp'] }, ['true', 'a b'], { launcher }).status).executed, true);
	assert.deepEqual(argv(), want);
	// asked for, it is there once
	assert.equal((await spawnConfined({ ro: ['/'], rw: ['/tmp'], killTree: true }, ['true', 'a b'], { launcher }).status).executed, true);
	assert.deepEqual(argv(), want);
});

test('a command killed by a signal: the end record names it, and the launcher dies of it', async () => {
	const { child, status } = spawnConfined({}, ['sh', '-c', 'kill -TERM $$'], { launcher: double() });
	const r = await ended(child);
	const s = await status;
	assert.deepEqual([r.code, r.signal], [null, 'SIGTERM']);
	assert.deepEqual([s.executed, s.status, s.error, s.exit, s.signal], [true, null, null, null, 'SIGTERM']);
});

test('no end record (the launcher and its supervisor killed after the exec): executed, exit and signal null', async () => {
	const pid = '{"pid":42,"abi":7,"abi_used":7,"enforcement":"partial"}';
	const launcher = fakeLauncher(`printf '%s\\n' '${pid}' '{"exec":true,"pid":42}' >&3; kill -KILL $$`);
	const { child, status } = spawnConfined({}, ['true'], { launcher });
	const r = await ended(child);
	assert.equal(r.signal, 'SIGKILL');
	assert.deepEqual(await status,
		{ executed: true, pid: 42, abi: 7, abiUsed: 7, enforcement: 'partial', status: null, error: null, exit: null, signal: null });
	// control: the same lines and the end record the supervisor writes when the launcher is killed
	const told = fakeLauncher(`printf '%s\\n' '${pid}' '{"exec":true,"pid":42}' '{"signal":"SIGKILL"}' >&3; kill -KILL $$`);
	assert.deepEqual(await spawnConfined({}, ['true'], { launcher: told }).status,
		{ executed: true, pid: 42, abi: 7, abiUsed: 7, enforcement: 'partial', status: null, error: null, exit: null, signal: 'SIGKILL' });
});

test('an end record of the wrong shape is not one', async () => {
	const pid = '{"pid":9,"abi":7,"abi_used":7,"enforcement":"full"}';
	for (const end of ['{"exit":"3"}', '{"exit":1.5}', '{"signal":9}', '{"signal":""}', '{"exec":true,"exit":3}', '[{"exit":3}]']) {
		const launcher = fakeLauncher(`printf '%s\\n' '${pid}' '${end}' >&3; exit 0`);
		const s = await spawnConfined({}, ['true'], { launcher }).status;
		assert.deepEqual([s.executed, s.exit, s.signal], [true, null, null], end);
	}
});

test('a forged failure: the command prints the launcher\'s line and exits 125, and was executed', async () => {
	const { child, status } = spawnConfined({}, ['sh', '-c', `echo '${FORGED}' >&2; exit 125`], { launcher: double() });
	const r = await ended(child);
	assert.equal(r.code, 125);
	assert.equal(isLauncherFailure(r.code, r.stderr), true, 'stderr and the status cannot tell: the forgery works there');
	const s = await status;
	assert.notEqual(s.pid, child.pid);
	assert.deepEqual({ ...s, pid: 0 },
		{ executed: true, pid: 0, abi: 7, abiUsed: 7, enforcement: 'partial', status: null, error: null, exit: 125, signal: null });
});

test('the command cannot write the status descriptor: it is not open in the command', async () => {
	const line = '{"exec":false,"status":125,"error":"landlock-run: forged"}';
	const { child, status } = spawnConfined({}, ['sh', '-c', `echo '${line}' >&3`], { launcher: double() });
	const r = await ended(child);
	assert.notEqual(r.code, 0, 'descriptor 3 was open in the command');
	assert.equal((await status).executed, true);
});

test('a real launcher failure: not executed, its status and its stderr line, also with stderr ignored', async () => {
	const missing = join(tempDir(), 'missing');
	const error = `landlock-run: cannot open --rw path ${missing}: No such file or directory`;
	const { child, status } = spawnConfined({ rw: [missing] }, ['sh', '-c', 'echo ran'], { launcher: double() });
	const r = await ended(child);
	assert.deepEqual([r.code, r.stdout, r.stderr], [125, '', `${error}\n`]);
	const failed = { executed: false, pid: null, abi: null, abiUsed: null, enforcement: null, status: 125, error, exit: 125, signal: null };
	assert.deepEqual(await status, failed);
	// the test that does not rely on stderr: nothing is read from it here
	const quiet = spawnConfined({ rw: [missing] }, ['true'], { launcher: double(), stdio: 'ignore' });
	assert.deepEqual([quiet.child.stdout, quiet.child.stderr], [null, null]);
	assert.deepEqual(await quiet.status, failed);
});

test('an exec failure after the pid line: not executed, 127 or 126 and the line', async () => {
	const { child, status } = spawnConfined({}, ['no-such-command-landlock-run'], { launcher: double() });
	assert.deepEqual(await status, {
		executed: false, pid: child.pid, abi: 7, abiUsed: 7, enforcement: 'partial', status: 127,
		error: 'landlock-run: cannot run no-such-command-landlock-run: No such file or directory', exit: 127, signal: null,
	});
	const pid = '{"pid":42,"abi":7,"abi_used":7,"enforcement":"partial"}';
	const told = spawnConfined({}, ['true'], { launcher: fakeLauncher(`printf '%s\\n' '${pid}' '{"exec":false,"status":126,"error":"landlock-run: cannot run x: Permission denied"}' >&3; exit 126`) });
	assert.deepEqual(await told.status, {
		executed: false, pid: 42, abi: 7, abiUsed: 7, enforcement: 'partial', status: 126, error: 'landlock-run: cannot run x: Permission denied',
		exit: null, signal: null,
	});
});

test('nothing on the descriptor: a usage error before it, or a launcher killed, is not executed', async () => {
	const usage = spawnConfined({}, ['sh', '-c', 'echo ran'], { launcher: double('usage') });
	const r = await ended(usage.child);
	assert.deepEqual([r.code, r.stdout], [125, '']);
	const s = await usage.status;
	assert.deepEqual({ ...s, error: null },
		{ executed: false, pid: null, abi: null, abiUsed: null, enforcement: null, status: 125, error: null, exit: null, signal: null });
	assert.match(s.error, /reported nothing on --status-fd and exited with status 125/);
	const killed = await spawnConfined({}, ['true'], { launcher: double('kill') }).status;
	assert.deepEqual([killed.executed, killed.status, killed.exit, killed.signal], [false, null, null, null]);
	assert.match(killed.error, /was killed by SIGKILL/);
});

test('--explain: the command is the launcher\'s child; the status settles when the launcher exits', async () => {
	const { child, status } = spawnConfined({ explain: true }, ['sh', '-c', 'echo $$; exit 4'], { launcher: double() });
	const r = await ended(child);
	const s = await status;
	assert.equal(r.code, 4);
	assert.equal(s.pid, Number(r.stdout));
	assert.notEqual(s.pid, child.pid);
	assert.deepEqual({ ...s, pid: 0 },
		{ executed: true, pid: 0, abi: 7, abiUsed: 7, enforcement: 'partial', status: null, error: null, exit: 4, signal: null });
});

test('--learn: "none" enforced; a policy it cannot write after the run is executed with status 125', async () => {
	const dir = tempDir();
	const ok = await spawnConfined({ learn: join(dir, 'p') }, ['true'], { launcher: double() }).status;
	assert.deepEqual([ok.executed, ok.enforcement, ok.status, ok.exit], [true, 'none', null, 0]);
	const bad = join(dir, 'missing', 'p');
	const { child, status } = spawnConfined({ learn: bad }, ['true'], { launcher: double() });
	assert.equal((await ended(child)).code, 125);
	const s = await status;
	assert.deepEqual([s.executed, s.enforcement, s.status, s.error, s.exit],
		[true, 'none', 125, `landlock-run: cannot write --learn file ${bad}: No such file or directory`, 125]);
});

test('lines that are not the protocol\'s, and an unfinished last line, are ignored', async () => {
	const launcher = fakeLauncher(`printf 'not json\\n[1]\\n"x"\\nnull\\n{"pid":9,"abi":7,"abi_used":7,"enforcement":"full","new_key":1}\\n{"exec":false' >&3; exit 0`);
	assert.deepEqual(await spawnConfined({}, ['true'], { launcher }).status,
		{ executed: true, pid: 9, abi: 7, abiUsed: 7, enforcement: 'full', status: null, error: null, exit: null, signal: null });
});

test('a launcher that cannot be run: not executed, the spawn error, and the promise does not reject', async () => {
	const missing = join(tempDir(), 'no-launcher');
	const { child, status } = spawnConfined({}, ['true'], { launcher: missing });
	assert.deepEqual(await status, {
		executed: false, pid: null, abi: null, abiUsed: null, enforcement: null, status: null, error: `cannot run ${missing}: ENOENT`,
		exit: null, signal: null,
	});
	assert.equal(child.pid, undefined);
});

test('the caller\'s stdio and options are kept; index 3 is the status pipe, 4 and on are passed', async () => {
	const { child, status } = spawnConfined({}, ['sh', '-c', 'echo "$V in $PWD"; cat; echo four >&4'], {
		launcher: double(), cwd: '/', env: { ...process.env, V: 'v' }, stdio: ['pipe', 'pipe', 'inherit', null, 'pipe'],
	});
	child.stdin.end('input\n');
	let four = '';
	child.stdio[4].on('data', (d) => { four += d; });
	const r = await ended(child);
	assert.deepEqual([r.stdout, four, child.stderr], ['v in /\ninput\n', 'four\n', null]);
	assert.equal((await status).executed, true);
	for (const stdio of ['inherit', 'ignore', ['ignore'], ['ignore', 'ignore', 'ignore', undefined]]) {
		assert.equal((await spawnConfined({}, ['true'], { launcher: double(), stdio }).status).executed, true, JSON.stringify(stdio));
	}
});

test('bad arguments are TypeErrors, thrown before anything is spawned', () => {
	const spawned = join(tempDir(), 'spawned');
	const launcher = fakeLauncher(`touch '${spawned}'`);
	for (const [policy, argv, options] of [
		[{ nope: true }, ['true'], { launcher }],
		[{}, [], { launcher }],
		[{}, ['true'], { launcher: '' }],
		[{}, ['true'], { launcher, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] }],
		[{}, ['true'], { launcher, stdio: ['pipe', 'pipe', 'pipe', 'ipc'] }],
		[{}, ['true'], { launcher, stdio: ['pipe', 'pipe', 'pipe', 5] }],
		[{}, ['true'], { launcher, stdio: 42 }],
		[{}, ['true'], { launcher, shell: true }],
		[{}, ['true'], { launcher, shell: '/bin/sh' }],
		[{ killTree: false }, ['true'], { launcher }],
		[{ killTree: 'no' }, ['true'], { launcher }],
		['policy', ['true'], { launcher }],
	]) assert.throws(() => spawnConfined(policy, argv, options), TypeError, JSON.stringify([policy, argv, options]));
	assert.throws(() => spawnConfined({}, ['true'], { launcher, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] }), /stdio\[3\] is the launcher's status descriptor/);
	assert.throws(() => spawnConfined({ killTree: false }, ['true'], { launcher }), /killTree: false is not possible in spawnConfined\(\)/);
	assert.equal(existsSync(spawned), false, 'a launcher was spawned');
});

test('control: without the status pipe, or without --kill-tree, the double refuses (so the tests above saw them)', async () => {
	assert.equal((await ended(spawn(double(), ['--', 'true']))).code, 125);
	const r = await ended(spawn(double(), ['--status-fd', '3', '--', 'true'], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] }));
	assert.deepEqual([r.code, r.stderr], [125, 'landlock-run: double: no --kill-tree\n']);
});
