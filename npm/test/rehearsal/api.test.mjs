// The rehearsal for the API: the installed package covers every CLI option, loads through
// require() and import on this Node and the oldest that engines admits, its declarations
// compile with tsc --strict with and without @types/node, and only a function argument,
// never the environment, picks another launcher. See lib.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { env, FULL_ABI, importIn, installed, kernelAbi, scratch } from './lib.mjs';

const app = installed('api');
const consumer = join(env.LR_ROOT, 'npm', 'test', 'rehearsal', 'consumer');
for (const f of readdirSync(consumer)) copyFileSync(join(consumer, f), join(app, f));
const lr = await importIn(app);
const verdict = kernelAbi >= FULL_ABI ? 'full' : kernelAbi > 0 ? 'partial' : 'unusable';
// what a run does, not its policy; --status-fd is spawnConfined()'s own
const MODES = ['--probe', '--json', '--help', '--version', '--status-fd'];

test('API = CLI: every option of the installed `landlock-run --help` is a field of POLICY_OPTIONS', () => {
	const help = spawnSync(lr.launcherPath(), ['--help'], { encoding: 'utf8' }).stdout;
	const cli = [...help.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]).filter((o) => !MODES.includes(o));
	const api = Object.values(lr.POLICY_OPTIONS);
	assert.ok(cli.length >= 14, help);
	assert.deepEqual(cli.filter((o) => !api.includes(o)), [],
		'a CLI option without an API field: add its row to npm/landlock-run/lib/policy.js and its field to Policy in index.d.ts');
	assert.deepEqual(api.filter((o) => !cli.includes(o)), [], 'an API field whose option the launcher does not have');
});

/** Run tsc in the project with these compiler options on these files. */
function tsc(name, compilerOptions, files) {
	writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify({
		compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true, ...compilerOptions },
		files,
	}));
	return spawnSync(process.execPath, [join(env.LR_TOOLS, 'typescript', 'bin', 'tsc'), '-p', `tsconfig.${name}.json`], { cwd: app, encoding: 'utf8' });
}

test('tsc --strict: the declarations compile without @types/node and with it; Policy has exactly the POLICY_OPTIONS fields', () => {
	// every field, and no other (an object literal with an unknown key is an error)
	writeFileSync(join(app, 'fields.mts'), "import type { Policy } from 'landlock-run';\n" +
		`export const fields: Record<keyof Policy, true> = { ${Object.keys(lr.POLICY_OPTIONS).map((k) => `${k}: true`).join(', ')} };\n`);
	const common = ['types.mts', 'require.cts', 'fields.mts'];
	const bare = tsc('bare', { types: [] }, [...common, 'bare.mts']);
	assert.equal(bare.status, 0, bare.stdout + bare.stderr);
	const withNode = tsc('node', { types: ['node'], typeRoots: [join(env.LR_TOOLS, '@types')] }, [...common, 'node.mts']);
	assert.equal(withNode.status, 0, withNode.stdout + withNode.stderr);
	// control: the bare configuration really has no Node types
	const control = tsc('control', { types: [] }, ['node.mts']);
	assert.notEqual(control.status, 0);
	assert.match(control.stdout, /Cannot find module 'node:child_process'/);
});

const node18 = join(env.LR_TOOLS, `node-linux-${process.arch}`, 'bin', 'node');
for (const [name, node] of [[`Node ${process.versions.node}`, process.execPath], ['Node 18', node18]]) {
	test(`${name}: require() and import of both entries work and confine`, () => {
		assert.ok(existsSync(node), `${node} is missing (make setup installs it)`);
		for (const script of ['run.cjs', 'run.mjs']) {
			const r = spawnSync(node, [script], { cwd: app, encoding: 'utf8' });
			assert.equal(r.status, 0, `${script}: ${r.stderr}`);
			const out = JSON.parse(r.stdout);
			assert.equal(out.status, 3, script);
			assert.equal(out.verdict, verdict, script);
			assert.deepEqual(out.grants, ['--ro', '/'], script);
			if (script === 'run.mjs') assert.equal(out.probe, verdict);
		}
	});
}

test('{launcher}: command() and probe() use the binary given, wherever it is', async () => {
	const launcher = join(scratch('own-launcher'), 'my-landlock-run');
	copyFileSync(lr.launcherPath(), launcher);
	chmodSync(launcher, 0o755);
	const argv = lr.command({ ro: ['/'] }, ['sh', '-c', 'exit 4'], { launcher });
	assert.equal(argv[0], launcher);
	assert.equal(spawnSync(argv[0], argv.slice(1)).status, 4);
	assert.equal((await lr.probe({ launcher })).enforcement, verdict);
	const missing = await lr.probe({ launcher: `${launcher}-missing` });
	assert.deepEqual([missing.enforcement, missing.code], ['unusable', 'NOT_INSTALLED']);
});

test('no environment variable chooses the binary: LANDLOCK_RUN_BINARY_PATH and the like change nothing', () => {
	const dir = scratch('decoy');
	const marker = join(dir, 'decoy-ran');
	const decoy = join(dir, 'decoy');
	writeFileSync(decoy, `#!/bin/sh\ntouch '${marker}'\necho '{"abi":99,"abi_used":99,"enforcement":"full"}'\n`, { mode: 0o755 });
	const decoys = Object.fromEntries(['LANDLOCK_RUN_BINARY_PATH', 'LANDLOCK_RUN_LAUNCHER', 'LANDLOCK_RUN_PATH', 'LANDLOCK_RUN',
		'ESBUILD_BINARY_PATH'].map((n) => [n, decoy]));
	const plain = spawnSync(process.execPath, ['run.mjs'], { cwd: app, encoding: 'utf8' });
	const swapped = spawnSync(process.execPath, ['run.mjs'], { cwd: app, encoding: 'utf8', env: { ...process.env, ...decoys } });
	assert.equal(swapped.status, 0, swapped.stderr);
	assert.equal(swapped.stdout, plain.stdout);
	const bin = spawnSync(join(app, 'node_modules', '.bin', 'landlock-run'), ['--version'], { encoding: 'utf8', env: { ...process.env, ...decoys } });
	assert.equal(bin.stdout, `landlock-run ${env.LR_VERSION}\n`);
	assert.ok(!existsSync(marker), 'the decoy ran');
	// control: the decoy does run when given as the launcher argument
	assert.equal(spawnSync(process.execPath, ['-e', `require('landlock-run').probe({ launcher: '${decoy}' }).then((p) => console.log(p.abi))`],
		{ cwd: app, encoding: 'utf8' }).stdout, '99\n');
	assert.ok(existsSync(marker));
});

test('explainJson: a denial produced for real by the installed launcher, read back by parseDenials',
	{ skip: kernelAbi > 0 ? false : 'this kernel has no Landlock' }, () => {
		const dir = realpathSync(scratch('explain'));
		const json = join(dir, 'denials.json');
		const argv = lr.command({ rw: [join(dir, 'ok')], explainJson: json }, ['sh', '-c', `echo x > '${dir}/new'`]);
		mkdirSync(join(dir, 'ok'));
		const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
		assert.notEqual(r.status, 0, 'the write was not denied');
		const denials = lr.parseDenials(readFileSync(json));
		assert.deepEqual(denials.map((d) => [d.kind, d.right, d.syscall, d.path, d.allow]),
			[['fs', 'make_reg', 'openat', `${dir}/new`, ['--rw', dir]]]);
		assert.equal(Buffer.from(denials[0].pathBytes).toString(), `${dir}/new`);
	});

test('explainJson: a denial the mode bits refuse too, made for real, is alsoRefusedBy mode_bits',
	{ skip: kernelAbi > 0 ? false : 'this kernel has no Landlock' }, () => {
		// Landlock is asked before the mode bits for a creation: in a directory another user
		// owns (root's, to the unprivileged; nobody's, to root, whose capabilities the
		// launcher drops) the record says the mode bits refuse it too.
		const dir = realpathSync(scratch('mode-bits'));
		const root = process.getuid() === 0;
		const theirs = root ? join(dir, 'theirs') : '/usr';
		if (root) {
			mkdirSync(theirs, { mode: 0o755 });
			chownSync(theirs, 65534, 65534);
		}
		const made = join(theirs, `lr-mode-bits-${process.pid}`), mine = join(dir, 'mine');
		const json = join(dir, 'denials.json');
		mkdirSync(join(dir, 'ok'));
		const argv = lr.command({ rw: [join(dir, 'ok')], explainJson: json }, ['sh', '-c', `mkdir '${made}'; mkdir '${mine}'; true`]);
		const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
		assert.equal(r.status, 0, r.stderr);
		assert.ok(!existsSync(made) && !existsSync(mine), 'a mkdir was not denied');
		const denials = lr.parseDenials(readFileSync(json)).filter((d) => d.kind === 'fs');
		assert.deepEqual(denials.map((d) => [d.path, d.right, d.alsoRefusedBy, d.allow]), [
			[made, 'make_dir', 'mode_bits', ['--rw', theirs]],
			// control: where only Landlock refuses, no word of the mode bits
			[mine, 'make_dir', undefined, ['--rw', dir]]]);
	});
