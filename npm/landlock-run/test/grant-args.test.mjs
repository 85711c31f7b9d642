import assert from 'node:assert/strict';
import { test } from 'node:test';
import { grantArgs, isLauncherFailure, POLICY_OPTIONS, SCOPES, SYSCALL_GROUPS } from '../index.js';

test('the example from the API: caller order within an option', () => {
	assert.deepEqual(grantArgs({ ro: ['/'], rw: ['/tmp'] }), ['--ro', '/', '--rw', '/tmp']);
	assert.deepEqual(grantArgs({ ro: ['/usr', '/etc', '/bin'] }), ['--ro', '/usr', '--ro', '/etc', '--ro', '/bin']);
});

test('no policy or an empty one gives no options', () => {
	assert.deepEqual(grantArgs(), []);
	assert.deepEqual(grantArgs(undefined), []);
	assert.deepEqual(grantArgs({}), []);
	assert.deepEqual(grantArgs({ ro: [], scopes: [], strict: false }), []);
});

test('options come in the fixed order whatever the key order of the policy', () => {
	const policy = {
		verbose: true, strict: true, abi: 4, unsetenv: ['U'], setenv: ['A=1', 'B=x=y'], clearenv: true,
		closeFds: true, privateTmp: true, killTree: true, dieWithParent: true, newSession: true, keepCaps: true, noLogNested: true, noLog: true,
		logSubprocesses: true, noSymlinks: true, allowSyscalls: ['userns', 'metadata'],
		scopes: ['signal', 'abstract-unix'], udpConnect: [53, '5353-5355'], udpBind: [0], tcpConnect: [443, 80],
		tcpBind: [8080], unix: ['/run/s', '/run/d'], hide: ['/h1', '/h2'], rwTry: ['/rwtry'], roTry: ['/rotry'],
		rw: ['/rw'], ro: ['/ro'],
	};
	assert.deepEqual(grantArgs(policy), [
		'--ro', '/ro', '--rw', '/rw', '--ro-try', '/rotry', '--rw-try', '/rwtry', '--hide', '/h1', '--hide', '/h2',
		'--no-symlinks',
		'--unix', '/run/s', '--unix', '/run/d',
		'--tcp-bind', '8080', '--tcp-connect', '443', '--tcp-connect', '80',
		'--udp-bind', '0', '--udp-connect', '53', '--udp-connect', '5353-5355',
		'--scope', 'signal', '--scope', 'abstract-unix', '--allow-syscalls', 'userns', '--allow-syscalls', 'metadata',
		'--log-subprocesses', '--no-log', '--no-log-nested',
		'--keep-caps', '--new-session', '--die-with-parent', '--kill-tree', '--private-tmp', '--close-fds', '--clearenv',
		'--setenv', 'A=1', '--setenv', 'B=x=y', '--unsetenv', 'U', '--abi', '4', '--strict', '--verbose',
	]);
	assert.deepEqual(grantArgs({ noTcp: true }), ['--no-tcp']);
	assert.deepEqual(grantArgs({ noUdp: true, noTcp: true }), ['--no-tcp', '--no-udp']);
	assert.deepEqual(grantArgs({ scopes: ['signal'], noNetwork: true, noUdp: true }),
		['--no-udp', '--no-network', '--scope', 'signal']);
});

test("noNetwork: with 'none' ports and the other groups, not with a port list or io_uring", () => {
	assert.deepEqual(grantArgs({ noNetwork: true, tcpConnect: 'none', udpBind: [] }),
		['--tcp-connect', 'none', '--udp-bind', 'none', '--no-network']);
	assert.deepEqual(grantArgs({ noNetwork: true, allowSyscalls: ['userns', 'keyring'] }),
		['--no-network', '--allow-syscalls', 'userns', '--allow-syscalls', 'keyring']);
	for (const key of ['tcpBind', 'tcpConnect', 'udpBind', 'udpConnect']) {
		assert.throws(() => grantArgs({ noNetwork: true, [key]: [443] }),
			(e) => e instanceof TypeError && e.message === `landlock-run: ${key} contradicts noNetwork, which allows no port: give one or the other`);
	}
	assert.throws(() => grantArgs({ noNetwork: true, allowSyscalls: ['io_uring'] }), /contradicts noNetwork/);
	assert.deepEqual(grantArgs({ noUnix: true, noNetwork: true }), ['--no-network', '--no-unix']);
	assert.throws(() => grantArgs({ noUnix: true, allowSyscalls: ['io_uring'] }), /contradicts noUnix/);
	assert.throws(() => grantArgs({ learn: 'p', noUnix: true }), /learn runs the command without the sandbox/);
	assert.deepEqual(grantArgs({ allowSyscalls: [...SYSCALL_GROUPS] }),
		SYSCALL_GROUPS.flatMap((g) => ['--allow-syscalls', g]));
	assert.throws(() => grantArgs({ learn: 'p', noNetwork: true }), /learn runs the command without the sandbox/);
	assert.deepEqual(grantArgs({ learn: 'p', allowSyscalls: ['io_uring'] }), ['--allow-syscalls', 'io_uring', '--learn', 'p']);
});

test('POLICY_OPTIONS: each field and its option, in the order grantArgs emits them', () => {
	assert.deepEqual(Object.entries(POLICY_OPTIONS), [
		['ro', '--ro'], ['rw', '--rw'], ['roTry', '--ro-try'], ['rwTry', '--rw-try'], ['hide', '--hide'],
		['noSymlinks', '--no-symlinks'],
		['unix', '--unix'], ['tcpBind', '--tcp-bind'], ['tcpConnect', '--tcp-connect'], ['noTcp', '--no-tcp'],
		['udpBind', '--udp-bind'], ['udpConnect', '--udp-connect'], ['noUdp', '--no-udp'],
		['noNetwork', '--no-network'], ['noUnix', '--no-unix'], ['scopes', '--scope'], ['allowSyscalls', '--allow-syscalls'],
		['logSubprocesses', '--log-subprocesses'], ['noLog', '--no-log'], ['noLogNested', '--no-log-nested'],
		['explain', '--explain'], ['explainJson', '--explain-json'], ['learn', '--learn'],
		['keepCaps', '--keep-caps'], ['newSession', '--new-session'], ['dieWithParent', '--die-with-parent'],
		['killTree', '--kill-tree'], ['privateTmp', '--private-tmp'], ['closeFds', '--close-fds'], ['clearenv', '--clearenv'], ['setenv', '--setenv'], ['unsetenv', '--unsetenv'],
		['abi', '--abi'], ['strict', '--strict'], ['verbose', '--verbose'],
	]);
	assert.ok(Object.isFrozen(POLICY_OPTIONS));
	// false flags give nothing, true ones their option
	for (const key of ['noSymlinks', 'noTcp', 'noUdp', 'noNetwork', 'noUnix', 'logSubprocesses', 'noLog', 'noLogNested', 'explain', 'keepCaps',
		'newSession', 'dieWithParent', 'killTree', 'privateTmp', 'closeFds', 'clearenv', 'strict', 'verbose']) {
		assert.deepEqual(grantArgs({ [key]: false }), []);
		assert.deepEqual(grantArgs({ [key]: true }), [POLICY_OPTIONS[key]]);
	}
});

test('explain, explainJson and learn: their options, in their place; learn takes no policy', () => {
	assert.deepEqual(grantArgs({ explainJson: 'd.json', ro: ['/'], explain: true }),
		['--ro', '/', '--explain', '--explain-json', 'd.json']);
	assert.deepEqual(grantArgs({ learn: 'p', keepCaps: true, abi: 4, newSession: true }),
		['--learn', 'p', '--keep-caps', '--new-session', '--abi', '4']);
	// --learn takes --hide: the learning run cannot read the hidden paths
	assert.deepEqual(grantArgs({ learn: 'p', hide: ['/home/u/.ssh'] }), ['--hide', '/home/u/.ssh', '--learn', 'p']);
	for (const other of [{ ro: ['/'] }, { explain: true }, { scopes: [] }, { strict: false }]) {
		assert.throws(() => grantArgs({ learn: 'p', ...other }),
			(e) => e instanceof TypeError && /^landlock-run: learn runs the command without the sandbox/.test(e.message));
	}
	for (const path of ['', '--', 'a\0b', 42]) {
		assert.throws(() => grantArgs({ explainJson: path }), TypeError);
		assert.throws(() => grantArgs({ learn: path }), TypeError);
	}
});

test("ports: one option per port; 'none' and [] both mean none", () => {
	assert.deepEqual(grantArgs({ tcpBind: [0, 65535] }), ['--tcp-bind', '0', '--tcp-bind', '65535']);
	assert.deepEqual(grantArgs({ tcpBind: 'none' }), ['--tcp-bind', 'none']);
	assert.deepEqual(grantArgs({ tcpBind: [] }), ['--tcp-bind', 'none']);
	assert.deepEqual(grantArgs({ tcpConnect: 'none', tcpBind: [] }),
		['--tcp-bind', 'none', '--tcp-connect', 'none']);
	assert.deepEqual(grantArgs({ udpConnect: 'none', udpBind: [0] }),
		['--udp-bind', '0', '--udp-connect', 'none']);
});

test("ranges: 'A-B' strings with A <= B, passed as the CLI takes them", () => {
	assert.deepEqual(grantArgs({ tcpConnect: ['8000-8999', 443, '0-65535', '7-7'] }),
		['--tcp-connect', '8000-8999', '--tcp-connect', '443', '--tcp-connect', '0-65535', '--tcp-connect', '7-7']);
	assert.deepEqual(grantArgs({ udpBind: ['5000-5010'] }), ['--udp-bind', '5000-5010']);
});

test('paths are passed through verbatim (relative, spaces, leading dash)', () => {
	assert.deepEqual(grantArgs({ rw: ['a b', './-x', 'rel/dir'] }),
		['--rw', 'a b', '--rw', './-x', '--rw', 'rel/dir']);
});

const bad = {
	'null policy': null,
	'array policy': [['/']],
	'string policy': '/',
	'unknown option (typo)': { readOnly: ['/'] },
	'a CLI spelling instead of the field': { 'no-log': true },
	'flag as a number': { verbose: 1 },
	'noTcp with tcpBind': { noTcp: true, tcpBind: [80] },
	'noTcp with tcpConnect none': { noTcp: true, tcpConnect: 'none' },
	'ro as a string': { ro: '/' },
	'empty path': { ro: [''] },
	'non-string path': { rw: [42] },
	'undefined path': { rwTry: [undefined] },
	'path with NUL': { roTry: ['/tmp\0/x'] },
	'path "--"': { rw: ['--'] },
	'unix as a string': { unix: '/run/s' },
	'empty unix path': { unix: [''] },
	'hide as a string': { hide: '/home/u/.ssh' },
	'a hidden path that is an option': { hide: ['--ro'] },
	'a path that is an option': { rwTry: ['--no-tcp'] },
	'a path that is a short option': { ro: ['-v'] },
	'setenv without =': { setenv: ['A'] },
	'setenv without a name': { setenv: ['=1'] },
	'setenv as a string': { setenv: 'A=1' },
	'unsetenv with =': { unsetenv: ['A=1'] },
	'empty unsetenv name': { unsetenv: [''] },
	'newSession as a string': { newSession: 'yes' },
	'port above 65535': { tcpBind: [65536] },
	'negative port': { tcpConnect: [-1] },
	'fractional port': { tcpBind: [80.5] },
	'port as a string': { tcpBind: ['80'] },
	'ports as a string other than none': { tcpConnect: 'all' },
	'NaN port': { tcpBind: [NaN] },
	'range the wrong way round': { tcpConnect: ['9000-8000'] },
	'range past 65535': { udpConnect: ['1-65536'] },
	'range with spaces': { tcpBind: ['1 - 2'] },
	'range with a leading zero': { tcpBind: ['01-2'] },
	'half a range': { udpBind: ['80-'] },
	'a range of three': { tcpBind: ['1-2-3'] },
	'a range as an array': { tcpBind: [[1, 2]] },
	'noUdp with udpBind': { noUdp: true, udpBind: [0] },
	'noUdp with udpConnect none': { noUdp: true, udpConnect: 'none' },
	'udpConnect as a number': { udpConnect: 53 },
	'unknown scope': { scopes: ['network'] },
	'scopes as a string': { scopes: 'signal' },
	'noNetwork as a string': { noNetwork: 'yes' },
	'unknown system-call group': { allowSyscalls: ['io-uring'] },
	'allowSyscalls as a string': { allowSyscalls: 'userns' },
	'an empty group name': { allowSyscalls: [''] },
	'abi 0': { abi: 0 },
	'abi as a string': { abi: '5' },
	'fractional abi': { abi: 4.5 },
	'strict as a string': { strict: 'yes' },
};
for (const [name, policy] of Object.entries(bad)) {
	test(`TypeError: ${name}`, () => {
		assert.throws(() => grantArgs(policy), (e) => e instanceof TypeError && /^landlock-run: /.test(e.message));
	});
}

test('SCOPES lists the launcher scope names', () => {
	assert.deepEqual([...SCOPES].sort(), ['abstract-unix', 'signal']);
	assert.ok(Object.isFrozen(SCOPES));
});

test('SYSCALL_GROUPS lists the names --allow-syscalls takes, in its order', () => {
	assert.deepEqual(SYSCALL_GROUPS, ['io_uring', 'userns', 'keyring', 'bpf', 'perf', 'userfaultfd', 'metadata']);
	assert.ok(Object.isFrozen(SYSCALL_GROUPS));
});

test('isLauncherFailure: 125 with a landlock-run: line only', () => {
	const line = 'landlock-run: Landlock is not supported by this kernel (ENOSYS)\n';
	assert.equal(isLauncherFailure(125, line), true);
	assert.equal(isLauncherFailure(125, Buffer.from(line)), true);
	assert.equal(isLauncherFailure(125, `landlock-run policy: abi=7\n${line}`), true);
	assert.equal(isLauncherFailure(125, 'make: *** [all] Error 125\n'), false);
	assert.equal(isLauncherFailure(125, 'landlock-run policy: abi=7\n'), false);
	assert.equal(isLauncherFailure(125, ' landlock-run: indented\n'), false);
	assert.equal(isLauncherFailure(125, ''), false);
	assert.equal(isLauncherFailure(125, undefined), false);
	assert.equal(isLauncherFailure(1, line), false);
	assert.equal(isLauncherFailure(126, line), false);
	assert.equal(isLauncherFailure(127, line), false);
	assert.equal(isLauncherFailure(null, line), false);
	assert.equal(isLauncherFailure('125', line), false);
});
