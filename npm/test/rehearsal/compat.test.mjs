// The rehearsal for landlock-run/compat, driven exactly as the agent harness drives its
// launcher module: [launcherPath(), ...grantArgs({ readOnly, readWrite }), '--', ...argv],
// a synchronous probe(launcher, { timeoutMs }) verdict, LAUNCHER_FAILURE_EXIT plus the
// `landlock-run: ` line to blame the launcher. Also the CLI's one-line --probe. See lib.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { env, FULL_ABI, importIn, installed, kernelAbi, scratch } from './lib.mjs';

const app = installed('compat');
// the workspace-write mode grants /tmp, where the scratch dir is: these go elsewhere
const places = mkdtempSync('/var/tmp/landlock-run-rehearsal-');
after(() => rmSync(places, { recursive: true, force: true }));
const place = (name) => mkdtempSync(join(places, `${name}-`));
const { grantArgs, launcherPath, probe, LAUNCHER_BIN, LAUNCHER_FAILURE_EXIT } = await importIn(app, 'compat.js');
const expected = kernelAbi >= FULL_ABI ? 'full' : 'partial';
const modes = {
	readOnly: () => grantArgs({ readOnly: ['/'], readWrite: ['/dev/null'] }),
	workspaceWrite: (workspace) => grantArgs({ readOnly: ['/'], readWrite: ['/dev/null', '/tmp', workspace] }),
};
/** The harness's spawn: launcher, grants, '--', the shell command. */
const run = (grants, script) => spawnSync(launcherPath(), [...grants, '--', 'sh', '-c', script], { encoding: 'utf8' });
const blamesLauncher = (r) => r.status === LAUNCHER_FAILURE_EXIT && r.stderr.split('\n').some((l) => l.startsWith('landlock-run: '));

test(`the verdict: probe(launcherPath(), { timeoutMs }) is '${expected}', synchronously`, () => {
	assert.equal(probe(launcherPath(), { timeoutMs: 10000 }), expected);
	assert.equal(probe(), expected);
	assert.equal(launcherPath(), join(app, 'node_modules', '@landlock-run', env.LR_NATIVE, 'bin', LAUNCHER_BIN));
	assert.ok(existsSync(join(app, 'node_modules', '.bin', LAUNCHER_BIN)));
});

test('the CLI contract: `landlock-run --probe` prints exactly the verdict line', () => {
	const r = spawnSync(launcherPath(), ['--probe'], { encoding: 'utf8' });
	assert.equal(r.status, 0, r.stderr);
	assert.equal(r.stdout, { full: 'landlock: fully enforced\n', partial: 'landlock: partially enforced (older ABI)\n' }[expected]);
	// the key=value report is `--probe -v`
	const v = spawnSync(launcherPath(), ['--probe', '-v'], { encoding: 'utf8' });
	assert.match(v.stdout, new RegExp(`\nabi=${kernelAbi}\n`));
});

test('the verdict of the real binary, refusing or at an older ABI, through launchers that wrap it', () => {
	const wrap = (name, args) => {
		const file = join(scratch('wrapped'), name);
		writeFileSync(file, `#!/bin/sh\nexec '${launcherPath()}' ${args} "$@"\n`, { mode: 0o755 });
		return file;
	};
	// a launcher failure (125, its line on stderr) is unusable, whatever the kernel
	assert.equal(probe(wrap('refuses', '--ro /nonexistent-landlock-run-grant'), { timeoutMs: 10000 }), 'unusable');
	assert.equal(probe(wrap('at-abi-2', '--abi 2'), { timeoutMs: 10000 }), kernelAbi > 0 ? 'partial' : 'unusable');
	// control: the wrapper itself changes nothing
	assert.equal(probe(wrap('plain', ''), { timeoutMs: 10000 }), expected);
});

test('workspace-write mode: the workspace and /tmp are writable, elsewhere "permission denied"', () => {
	const workspace = place('workspace');
	const outside = place('outside');
	const ok = run(modes.workspaceWrite(workspace), `echo data > '${workspace}/file'`);
	assert.equal(ok.status, 0, ok.stderr);
	assert.equal(readFileSync(join(workspace, 'file'), 'utf8'), 'data\n');
	// control: the same write without the launcher lands
	assert.equal(spawnSync('sh', ['-c', `echo data > '${outside}/control'`]).status, 0);
	assert.ok(existsSync(join(outside, 'control')));
	const denied = run(modes.workspaceWrite(workspace), `echo data > '${outside}/file'`);
	assert.notEqual(denied.status, 0);
	assert.ok(denied.stderr.toLowerCase().includes('permission denied'), denied.stderr);
	assert.equal(blamesLauncher(denied), false, 'a denial is the command\'s failure, not the launcher\'s');
	assert.ok(!existsSync(join(outside, 'file')), 'the denied write landed');
});

test('read-only mode: even the workspace is read-only, and it still reads', () => {
	const workspace = place('workspace-ro');
	const denied = run(modes.readOnly(), `echo data > '${workspace}/file'`);
	assert.ok(denied.stderr.toLowerCase().includes('permission denied'), denied.stderr);
	assert.ok(!existsSync(join(workspace, 'file')));
	const read = run(modes.readOnly(), `cat '${join(app, 'package.json')}' >/dev/null`);
	assert.equal(read.status, 0, read.stderr);
});

test('a launcher failure is LAUNCHER_FAILURE_EXIT plus the landlock-run: line; a command\'s own 125 is not', () => {
	const gone = join(scratch('gone'), 'no-such-workspace');
	const failed = run(modes.workspaceWrite(gone), 'echo never');
	assert.equal(failed.stdout, '', 'the command ran');
	assert.ok(blamesLauncher(failed), failed.stderr);
	const own = run(modes.readOnly(), 'exit 125');
	assert.equal(own.status, LAUNCHER_FAILURE_EXIT);
	assert.equal(blamesLauncher(own), false);
});

test('a missing binary: launcherPath(hook that throws) is a path that does not exist, and it probes unusable', () => {
	const missing = launcherPath(() => { throw new Error(`Cannot find module '@landlock-run/${env.LR_NATIVE}/package.json'`); });
	assert.equal(missing, join(app, 'node_modules', 'landlock-run', 'node_modules', '@landlock-run', env.LR_NATIVE, 'bin', LAUNCHER_BIN));
	assert.ok(!existsSync(missing));
	assert.equal(probe(missing, { timeoutMs: 10000 }), 'unusable');
});
