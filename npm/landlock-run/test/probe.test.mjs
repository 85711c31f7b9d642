import assert from 'node:assert/strict';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { probe } from '../index.js';
import { cleanup, fakeInstall, fakeLauncher, tempDir } from './helpers.mjs';

after(cleanup);

const FULL = '{"abi":10,"abi_used":10,"enforcement":"full","errata":15,"fs":"full",' +
	'"fs_handled":["execute","write_file"],"fs_missing":[],"pathname_sockets":true,"tcp":true,"udp":true,' +
	'"scopes":["abstract-unix","signal"],"log_flags":true,"unused":["tsync","quiet"],' +
	'"proven":["read_dir","read_file","write_file","resolve_unix"],"self_test":"passed"}';
const PARTIAL = '{"abi":2,"abi_used":2,"enforcement":"partial","errata":null,"fs":"partial",' +
	'"fs_handled":["execute"],"fs_missing":["truncate","ioctl_dev","resolve_unix"],' +
	'"pathname_sockets":false,"tcp":false,"udp":false,"scopes":[],"log_flags":false,"unused":[],' +
	'"proven":["read_dir","read_file","write_file"],"self_test":"passed"}';

test('probe: full enforcement', async () => {
	const r = await probe({ launcher: fakeLauncher(`echo '${FULL}'`) });
	assert.deepEqual(r, {
		enforced: true, enforcement: 'full', abi: 10, abiUsed: 10, errata: 15, pathnameSockets: true,
		tcp: true, udp: true, scopes: ['abstract-unix', 'signal'], networkConfined: 'nothing', network: 'none', baseline: [], noUnix: false, explain: false,
		where: [], code: null, error: null,
	});
});

test('probe: whether explaining works here, and what stands in the way', async () => {
	const inContainer = FULL.replace('}', ',"explain":true,"where":["seccomp_filter"]}');
	let r = await probe({ launcher: fakeLauncher(`echo '${inContainer}'`) });
	assert.deepEqual([r.explain, r.where], [true, ['seccomp_filter']]);
	const noPtrace = FULL.replace('}', ',"explain":false,"where":["seccomp_filter","ptrace_refused","proc_missing","later"]}');
	r = await probe({ launcher: fakeLauncher(`echo '${noPtrace}'`) });
	assert.deepEqual([r.explain, r.where], [false, ['seccomp_filter', 'ptrace_refused', 'proc_missing']]);
});

test('probe: what the system-call filter refuses: network and baseline', async () => {
	const facts = FULL.replace('}', ',"network_confined":"all","network":"all","baseline":["io_uring","userns"]}');
	const r = await probe({ launcher: fakeLauncher(`echo '${facts}'`), policy: { noNetwork: true } });
	assert.equal(r.networkConfined, 'all');
	assert.equal(r.network, 'all');
	const odd = FULL.replace('}', ',"network_confined":"everything"}');
	assert.equal((await probe({ launcher: fakeLauncher(`echo '${odd}'`) })).networkConfined, 'nothing');
	assert.deepEqual(r.baseline, ['io_uring', 'userns']);
});

test('probe: partial enforcement on an old ABI, errata unknown', async () => {
	const r = await probe({ launcher: fakeLauncher(`echo '${PARTIAL}'`) });
	assert.deepEqual(r, {
		enforced: true, enforcement: 'partial', abi: 2, abiUsed: 2, errata: null, pathnameSockets: false,
		tcp: false, udp: false, scopes: [], networkConfined: 'nothing', network: 'none', baseline: [], noUnix: false, explain: false, where: [], code: null, error: null,
	});
});

test('probe: passes --probe --json and the policy options', async () => {
	const log = join(tempDir(), 'args');
	const launcher = fakeLauncher(`printf '%s\\n' "$@" >${log}; echo '${FULL}'`);
	await probe({ launcher, policy: { ro: ['/'], tcpBind: [80], scopes: ['signal'], abi: 6, strict: true } });
	assert.deepEqual(readFileSync(log, 'utf8').trimEnd().split('\n'),
		['--probe', '--json', '--ro', '/', '--tcp-bind', '80', '--scope', 'signal', '--abi', '6', '--strict']);
});

const unusableShape = {
	enforced: false, enforcement: 'unusable', abi: null, abiUsed: null, errata: null, pathnameSockets: false, tcp: false,
	udp: false, scopes: [], networkConfined: 'nothing', network: 'none', baseline: [], noUnix: false, explain: false, where: [],
};

test('probe: launcher failure (125) is NO_LANDLOCK with its landlock-run: line', async () => {
	const line = 'landlock-run: Landlock is not supported by this kernel (ENOSYS)';
	const launcher = fakeLauncher(`echo '${line}' >&2; exit 125`);
	assert.deepEqual(await probe({ launcher }), { ...unusableShape, code: 'NO_LANDLOCK', error: line });
	// with a policy too: the bare probe fails as well, so it is the host
	assert.deepEqual(await probe({ launcher, policy: { ro: ['/x'] } }), { ...unusableShape, code: 'NO_LANDLOCK', error: line });
});

test('probe: a seccomp filter that refuses the Landlock calls is SECCOMP, and where says so', async () => {
	const line = 'landlock-run: a seccomp filter refuses the Landlock system calls (Seccomp: 2 in /proc/self/status): ' +
		'allow ...: Operation not permitted';
	const launcher = fakeLauncher(`echo '${line}' >&2; exit 125`);
	assert.deepEqual(await probe({ launcher }), { ...unusableShape, where: ['seccomp_filter'], code: 'SECCOMP', error: line });
});

test('probe: refused with a policy, enforced without one -> POLICY with the launcher line', async () => {
	const line = 'landlock-run: cannot open --ro path /nonexistent: No such file or directory';
	const launcher = fakeLauncher(`[ $# -eq 2 ] && echo '${FULL}' && exit 0; echo '${line}' >&2; exit 125`);
	assert.deepEqual(await probe({ launcher, policy: { ro: ['/nonexistent'] } }), { ...unusableShape, code: 'POLICY', error: line });
	assert.equal((await probe({ launcher })).enforcement, 'full');
});

test('probe: a timeout is unusable, and the probe is killed', async () => {
	const started = Date.now();
	const r = await probe({ launcher: fakeLauncher('exec sleep 30'), timeoutMs: 300 });
	assert.deepEqual(r, { ...unusableShape, code: 'TIMEOUT', error: 'probe timed out after 300 ms' });
	assert.ok(Date.now() - started < 5000);
});

// A deadline that falls as the probe exits once lost its output (OUTPUT with ""): each answer
// is now the probe's verdict or TIMEOUT, never anything else.
test('probe: a deadline that falls as the probe finishes is the verdict or TIMEOUT', async () => {
	const launcher = fakeLauncher(`echo '${PARTIAL}'`);
	const codes = new Set();
	for (let i = 0; i < 300; i++) {
		const r = await probe({ launcher, timeoutMs: 1 + (i % 5) });
		codes.add(r.code ?? r.enforcement);
	}
	assert.deepEqual([...codes].filter((c) => c !== 'partial' && c !== 'TIMEOUT'), []);
});

test('probe: a missing binary is unusable', async () => {
	const r = await probe({ launcher: join(tempDir(), 'no-such-launcher') });
	assert.equal(r.enforcement, 'unusable');
	assert.equal(r.code, 'NOT_INSTALLED');
	assert.match(r.error, /ENOENT/);
});

test('probe: a non-executable launcher is unusable', async () => {
	const launcher = fakeLauncher(`echo '${FULL}'`);
	chmodSync(launcher, 0o644);
	const r = await probe({ launcher });
	assert.equal(r.enforcement, 'unusable');
	assert.equal(r.code, 'EXEC');
	assert.match(r.error, /EACCES/);
});

test('probe: killed by a signal is unusable and names the signal', async () => {
	for (const sig of ['SEGV', 'KILL']) {
		const r = await probe({ launcher: fakeLauncher(`kill -${sig} $$`) });
		assert.deepEqual(r, { ...unusableShape, code: 'SIGNAL', error: `probe was killed by signal SIG${sig}` });
	}
});

test('probe: output that is not the JSON report is unusable', async () => {
	for (const body of ['echo "landlock: fully enforced"', 'true', `echo '{"abi":7}'`, `echo '{"abi":7,"abi_used":7,"enforcement":"maybe"}'`]) {
		const r = await probe({ launcher: fakeLauncher(body) });
		assert.equal(r.enforcement, 'unusable', body);
		assert.equal(r.code, 'OUTPUT', body);
		assert.match(r.error, /probe output/);
	}
});

test('probe: another non-zero status without a landlock-run: line is unusable with the status', async () => {
	const r = await probe({ launcher: fakeLauncher('exit 3') });
	assert.deepEqual(r, { ...unusableShape, code: 'EXEC', error: 'probe exited with status 3' });
});

test('probe: never throws on bad options', async () => {
	for (const opts of [{ launcher: 42 }, { launcher: '' }, { policy: { ro: '/' } }, { timeoutMs: -1 }, { timeoutMs: 'soon' }]) {
		const launcher = fakeLauncher(`echo '${FULL}'`);
		const r = await probe({ launcher, ...opts });
		assert.equal(r.enforcement, 'unusable', JSON.stringify(opts));
		assert.equal(r.code, 'OPTIONS', JSON.stringify(opts));
		assert.match(r.error, /^landlock-run: /);
	}
});

test('probe: default launcher not installed -> unusable naming LANDLOCK_RUN_NOT_INSTALLED', async () => {
	const { mod } = await fakeInstall({ platform: false });
	const r = await mod.probe();
	assert.equal(r.enforcement, 'unusable');
	assert.equal(r.enforced, false);
	assert.equal(r.code, 'NOT_INSTALLED');
	assert.match(r.error, /^the launcher package @landlock-run\/.* is not installed/);
});

test('probe: default launcher is launcherPath()', async () => {
	const { mod, binary } = await fakeInstall();
	const { writeFileSync } = await import('node:fs');
	writeFileSync(binary, `#!/bin/sh\necho '${FULL}'\n`);
	const r = await mod.probe();
	assert.equal(r.enforcement, 'full');
});
