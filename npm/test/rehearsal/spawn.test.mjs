// The rehearsal for spawnConfined(): the installed launcher's --status-fd (landlock-run(1))
// read back as the API promises. A forged launcher failure (the command prints the
// launcher's line and exits 125) comes out executed, a real one not, and the command
// cannot write the status descriptor. See lib.mjs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
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

test('a run: executed, as a child of the launcher (--status-fd: the whole-tree mode), under what probe() says is enforced', landlock, async () => {
	const probed = await lr.probe();
	const { child, status, end } = run({ ro: ['/'] }, ['sh', '-c', 'echo $$']);
	const s = await status;
	const r = await end;
	assert.equal(r.code, 0, r.stderr);
	assert.deepEqual(s, {
		executed: true, pid: Number(r.stdout), abi: kernelAbi, abiUsed: probed.abiUsed, enforcement: probed.enforcement, status: null, error: null,
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
	assert.deepEqual([g.executed, g.enforcement, g.status, g.error], [true, 'none', 125, r.stderr.replace(/\n$/, '')]);
	assert.match(g.error, /^landlock-run: cannot write the --learn file /);
});
