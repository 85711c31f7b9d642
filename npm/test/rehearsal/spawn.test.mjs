// The rehearsal for spawnConfined(): the installed launcher's --status-fd (landlock-run(1))
// read back as the API promises. A forged launcher failure (the command prints the
// launcher's line and exits 125) comes out executed, a real one not, and the command
// cannot write the status descriptor. Its --kill-tree ends everything the command started
// on child.kill() and on spawn's timeout, which signal the launcher alone, and the status
// is the end record; each beside a plain run of command()'s argv, whose tree survives.
// See lib.mjs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { importIn, installed, kernelAbi, scratch } from './lib.mjs';

const app = installed('spawn');
const lr = await importIn(app);
const landlock = { skip: kernelAbi > 0 ? false : 'this kernel has no Landlock' };
const FORGED = 'landlock-run: cannot open --rw path /x: No such file or directory';

/** The child's end: { code, signal, stdout, stderr }; call it before awaiting the status. */
const ended = (child) => new Promise((resolve) => {
	const out = { stdout: '', stderr: '' };
	child.stdout?.on('data', (d) => { out.stdout += d; });
	child.stderr?.on('data', (d) => { out.stderr += d; });
	child.on('close', (code, signal) => resolve({ ...out, code, signal }));
});
const run = (policy, argv, options) => {
	const { child, status } = lr.spawnConfined(policy, argv, options);
	return { child, status, end: ended(child) };
};

// Trees of sleeps, each told by pid and its exact command line (`sleep SECS`, SECS unique to
// the run), so a recycled pid never reads as a survivor. Whatever is left is killed after.
const sleepers = new Map(); // pid -> its cmdline
const alive = (pid) => {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'latin1') === sleepers.get(pid); // a zombie's is empty
	} catch {
		return false;
	}
};
after(() => {
	for (const pid of sleepers.keys()) if (alive(pid)) process.kill(pid, 'SIGKILL');
});
let nextSecs = 4000 + (process.pid % 1000) * 10;
/**
 * A command that ignores SIGTERM (inherited by what it starts), starts a background job,
 * a double fork (its parent exits at once) and a setsid daemon, prints the four pids
 * (its own first) and becomes a sleep too; with exit, it exits instead of sleeping.
 */
function tree({ exit = false } = {}) {
	const secs = [0, 1, 2, 3].map(() => nextSecs++);
	const quiet = '>&- 2>&-'; // not /dev/null: under ro: ['/'] it cannot be opened for writing
	const script = `trap '' TERM; echo $$; sleep ${secs[1]} ${quiet} & echo $!; sh -c 'sleep ${secs[2]} ${quiet} & echo $!'; ` +
		`setsid sh -c 'echo $$; exec sleep ${secs[3]} ${quiet}' & ${exit ? 'sleep 1; exit 0' : `exec sleep ${secs[0]} ${quiet}`}`;
	return { argv: ['sh', '-c', script], secs: exit ? secs.slice(1) : secs };
}
/** The pids the tree printed, once all of them are up (each running its sleep). */
async function started(child, { secs }) {
	let out = '';
	child.stdout.on('data', (d) => { out += d; });
	for (let i = 0; i < 200; i++) {
		const pids = out.split('\n').filter((l) => /^\d+$/.test(l)).map(Number);
		if (pids.length === 4) {
			const grown = pids.slice(4 - secs.length);
			grown.forEach((pid, k) => sleepers.set(pid, `sleep\0${secs[k]}\0`));
			if (grown.every(alive)) return pids;
		}
		await sleep(50);
	}
	throw new Error(`the tree did not start: ${JSON.stringify(out)}`);
}
const survivors = (pids) => pids.filter(alive);
/** Kill what a control left behind, and see it gone (so after() finds nothing). */
async function reap(pids) {
	for (const pid of survivors(pids)) process.kill(pid, 'SIGKILL');
	for (let i = 0; i < 100 && survivors(pids).length > 0; i++) await sleep(20);
	assert.deepEqual(survivors(pids), [], 'the control\'s leftovers would not die');
}
/** command()'s argv spawned as it is: the launcher execs the command (no --kill-tree). */
const plain = (policy, argv, options) => {
	const [file, ...args] = lr.command(policy, argv);
	return spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'], ...options });
};
const exitOf = (child) => new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

test('a run: executed, as a child of the launcher (--status-fd: the whole-tree mode), under what probe() says is enforced', landlock, async () => {
	const probed = await lr.probe();
	const { child, status, end } = run({ ro: ['/'] }, ['sh', '-c', 'echo $$']);
	const s = await status;
	const r = await end;
	assert.equal(r.code, 0, r.stderr);
	assert.deepEqual(s, {
		executed: true, pid: Number(r.stdout), abi: kernelAbi, abiUsed: probed.abiUsed, enforcement: probed.enforcement, status: null, error: null,
		exit: 0, signal: null,
	});
	assert.notEqual(s.pid, child.pid);
});

test('a forged launcher failure is executed; a real one (a --rw path that does not exist) is not', landlock, async () => {
	const forged = run({ ro: ['/'] }, ['sh', '-c', `echo '${FORGED}' >&2; exit 125`]);
	const f = await forged.end;
	assert.deepEqual([f.code, f.stderr], [125, `${FORGED}\n`]);
	assert.equal(lr.isLauncherFailure(f.code, f.stderr), true, 'exit status and stderr cannot tell them apart');
	const fs = await forged.status;
	assert.deepEqual([fs.executed, Number.isInteger(fs.pid), fs.status, fs.error], [true, true, null, null]);

	const dir = realpathSync(scratch('real-failure'));
	const missing = join(dir, 'missing');
	const marker = join(dir, 'ran');
	const real = run({ ro: ['/'], rw: [missing, dir] }, ['touch', marker]);
	const r = await real.end;
	const rs = await real.status;
	assert.equal(r.code, 125);
	assert.deepEqual([rs.executed, rs.status, rs.error], [false, 125, r.stderr.replace(/\n$/, '')]);
	assert.match(rs.error, /^landlock-run: .*--rw path .*missing/);
	assert.ok(!existsSync(marker), 'the command ran');
	// the same, told without reading stderr at all
	const quiet = lr.spawnConfined({ rw: [missing] }, ['touch', marker], { stdio: 'ignore' });
	assert.deepEqual([(await quiet.status).executed, (await quiet.status).status], [false, 125]);
	// control: the same command with the grant that exists runs
	const ok = run({ ro: ['/'], rw: [dir] }, ['touch', marker]);
	assert.equal((await ok.status).executed, true);
	assert.equal((await ok.end).code, 0);
	assert.ok(existsSync(marker));
});

test('the command does not hold the status descriptor: it cannot write a line there', landlock, async () => {
	const line = '{"exec":false,"status":125,"error":"landlock-run: forged"}';
	const attack = ['sh', '-c', `echo '${line}' >&3 && echo wrote`];
	const { status, end } = run({ ro: ['/'] }, attack);
	const r = await end;
	assert.notEqual(r.code, 0, `descriptor 3 was open in the command: ${r.stdout}`);
	assert.deepEqual([(await status).executed, (await status).status], [true, null]);
	// control: a command that does hold a pipe at 3 writes the line there
	const held = spawn(attack[0], attack.slice(1), { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
	let said = '';
	held.stdio[3].on('data', (d) => { said += d; });
	assert.equal((await ended(held)).code, 0);
	assert.equal(said, `${line}\n`);
	// and closeFds (which closes the command's descriptors above 2) changes nothing of it
	const closing = run({ ro: ['/'], closeFds: true }, ['true']);
	assert.deepEqual([(await closing.status).executed, (await closing.end).code], [true, 0]);
});

test('an exec that fails: 127 not found, 126 not executable, not executed, with the launcher\'s line', landlock, async () => {
	const dir = scratch('exec-failure');
	const plain = join(dir, 'not-executable');
	writeFileSync(plain, '#!/bin/sh\ntrue\n');
	chmodSync(plain, 0o644);
	for (const [argv, want] of [[['no-such-command-landlock-run'], 127], [[plain], 126]]) {
		const { child, status, end } = run({ ro: ['/'] }, argv);
		const r = await end;
		const s = await status;
		assert.equal(r.code, want, r.stderr);
		assert.deepEqual([s.executed, s.status, s.error, Number.isInteger(s.pid)], [false, want, r.stderr.replace(/\n$/, ''), true], argv[0]);
		assert.notEqual(s.pid, child.pid);
	}
});

test('explain: the command is the launcher\'s child, and the status settles when the launcher exits', landlock, async () => {
	const { child, status, end } = run({ ro: ['/'], explain: true }, ['sh', '-c', 'echo $$; exit 4']);
	const r = await end;
	const s = await status;
	assert.equal(r.code, 4, r.stderr);
	assert.equal(s.executed, true);
	assert.equal(s.pid, Number(r.stdout));
	assert.notEqual(s.pid, child.pid);
});

test('learn: the command runs unconfined, and says so; a policy it cannot write after the run is executed with 125', async () => {
	const dir = scratch('learn');
	mkdirSync(join(dir, 'out'));
	const { status, end } = run({ learn: join(dir, 'build.policy') }, ['touch', join(dir, 'out', 'f')]);
	assert.equal((await end).code, 0);
	const s = await status;
	assert.deepEqual([s.executed, s.enforcement, s.status], [true, 'none', null]);
	assert.ok(existsSync(join(dir, 'build.policy')));
	// the command removes the directory the policy was to be written in
	const gone = run({ learn: join(dir, 'out', 'build.policy') }, ['rm', '-r', join(dir, 'out')]);
	const r = await gone.end;
	const g = await gone.status;
	assert.equal(r.code, 125);
	// stderr: the note that the policy is outside the policy directories (@FILE reads none elsewhere), then the failure
	const [note, failure] = r.stderr.replace(/\n$/, '').split('\n');
	assert.match(note, /^landlock-run --learn: .* move it to /);
	assert.deepEqual([g.executed, g.enforcement, g.status, g.error], [true, 'none', 125, failure]);
	assert.match(g.error, /^landlock-run: cannot write the --learn file /);
});

test('the end record: the command\'s exit status, the signal that killed it, a launcher failure\'s 125, an exec failure\'s 127', landlock, async () => {
	for (const [argv, exit, signal] of [
		[['sh', '-c', 'exit 3'], 3, null],
		[['sh', '-c', 'kill -KILL $$'], null, 'SIGKILL'],
		[['sh', '-c', 'kill -USR1 $$'], null, 'SIGUSR1'],
		[['no-such-command-landlock-run'], 127, null],
	]) {
		const { status, end } = run({ ro: ['/'] }, argv);
		const r = await end;
		const s = await status;
		assert.deepEqual([s.exit, s.signal], [exit, signal], argv.join(' '));
		assert.deepEqual([r.code, r.signal], [exit, signal], 'the launcher ends as its end record says');
	}
	const failed = await run({ rw: [join(scratch('end-record'), 'missing')] }, ['true']).status;
	assert.deepEqual([failed.executed, failed.status, failed.exit, failed.signal], [false, 125, 125, null]);
});

test('a command that exits at once: its tree is gone when the status arrives, {"exit":0}; control: a plain run leaves it', landlock, async () => {
	const t = tree({ exit: true });
	const { child, status } = lr.spawnConfined({ ro: ['/'] }, t.argv, { stdio: ['ignore', 'pipe', 'inherit'] });
	const pids = (await started(child, t)).slice(1);
	const s = await status;
	assert.deepEqual([s.executed, s.exit, s.signal], [true, 0, null]);
	assert.deepEqual(survivors(pids), [], 'processes the command started outlived the run');

	const c = tree({ exit: true });
	const control = plain({ ro: ['/'] }, c.argv);
	const exited = exitOf(control);
	const left = (await started(control, c)).slice(1);
	assert.deepEqual(await exited, { code: 0, signal: null });
	await sleep(300);
	assert.deepEqual(survivors(left), left, 'without --kill-tree the background job, double fork and daemon live on');
	await reap(left);
});

test('child.kill(\'SIGKILL\') ends the whole tree, the status is {"signal":"SIGKILL"}; control: a plain run\'s tree survives it', landlock, async () => {
	const t = tree();
	const { child, status } = lr.spawnConfined({ ro: ['/'] }, t.argv, { stdio: ['ignore', 'pipe', 'inherit'] });
	const killed = exitOf(child);
	const pids = await started(child, t);
	assert.notEqual(pids[0], child.pid, 'the command is not the launcher');
	assert.equal(child.kill('SIGKILL'), true);
	const s = await status;
	assert.deepEqual([s.executed, s.pid, s.exit, s.signal], [true, pids[0], null, 'SIGKILL']);
	assert.deepEqual(survivors(pids), [], 'the command or what it started outlived child.kill()');
	assert.deepEqual(await killed, { code: null, signal: 'SIGKILL' });

	const c = tree();
	const control = plain({ ro: ['/'] }, c.argv);
	const exited = exitOf(control);
	const left = await started(control, c);
	assert.equal(left[0], control.pid, 'the plain run execs the command');
	control.kill('SIGKILL');
	assert.deepEqual(await exited, { code: null, signal: 'SIGKILL' });
	await sleep(300);
	assert.deepEqual(survivors(left), left.slice(1), 'only the launcher (the command itself) is gone; what it started lives on');
	await reap(left);
});

test('spawn\'s timeout against a tree that ignores SIGTERM ends it all at once, {"signal":"SIGTERM"}; control: a plain run is not ended', landlock, async () => {
	const t = tree();
	const begun = Date.now();
	const { child, status } = lr.spawnConfined({ ro: ['/'] }, t.argv, { stdio: ['ignore', 'pipe', 'inherit'], timeout: 500 });
	const timedOut = exitOf(child);
	const pids = await started(child, t);
	const s = await status;
	const took = Date.now() - begun;
	assert.deepEqual([s.executed, s.exit, s.signal], [true, null, 'SIGTERM']);
	assert.deepEqual(survivors(pids), [], 'the command or what it started outlived the timeout');
	assert.deepEqual(await timedOut, { code: null, signal: 'SIGTERM' });
	// the command would sleep for over an hour: the run ended at the timeout (and the launcher's 1 s grace)
	assert.ok(took < 30000, `the run took ${took} ms`);

	const c = tree();
	const control = plain({ ro: ['/'] }, c.argv, { timeout: 500 });
	const exited = exitOf(control);
	const left = await started(control, c);
	await sleep(2500); // the timeout and a launcher's grace, twice over
	assert.deepEqual([control.exitCode, control.signalCode], [null, null], 'the plain run ended');
	assert.deepEqual(survivors(left), left, 'SIGTERM ended something of the plain run');
	await reap(left);
	assert.deepEqual(await exited, { code: null, signal: 'SIGKILL' });
});
