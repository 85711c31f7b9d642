'use strict';
// A policy object to the launcher's options: one row per CLI option, in the one order
// grantArgs() emits them (also the order of Policy in index.d.ts and of the README).
//
// Adding a CLI option to the API is one row here and one field in Policy (index.d.ts), e.g.
//   ['explain', '--explain', flag]
// The rehearsal compares the rows with `landlock-run --help`, so a CLI option without a
// row fails make test.

const SCOPES = Object.freeze(['abstract-unix', 'signal']);
// The groups --allow-syscalls names, in the launcher's order.
const SYSCALL_GROUPS = Object.freeze(['io_uring', 'userns', 'keyring', 'bpf', 'perf', 'userfaultfd', 'metadata']);

const fail = (message) => {
	throw new TypeError(`landlock-run: ${message}`);
};
const show = (v) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

// The launcher refuses an option argument that is itself an option (--anything, -v, -hV):
// it would have swallowed one. A path that starts with - is written ./-name.
const looksLikeOption = (v) => v.startsWith('--') || /^-[hvV]+$/.test(v);

// Checks of one value: return its option argument (a string) or throw TypeError.
function path(key, p) {
	if (typeof p !== 'string' || p === '' || p.includes('\0') || looksLikeOption(p)) {
		fail(`${key} has an invalid path ${show(p)} (paths are non-empty strings without NUL; one that starts with - is written ./-name)`);
	}
	return p;
}
// A port is an integer 0..65535, or a range 'A-B' of them with A <= B (as the CLI takes).
const isPort = (n) => Number.isInteger(n) && n >= 0 && n <= 65535;

// 'VAR=VALUE' for setenv, 'VAR' for unsetenv: a name that is not empty and has no '='.
const envEntry = (assign) => (key, v) => {
	const name = typeof v === 'string' ? v.split('=')[0] : '';
	if (name === '' || v.includes('\0') || looksLikeOption(v) || v.includes('=') !== assign) {
		fail(`${key} has an invalid entry ${show(v)} (${assign ? "'VAR=VALUE'" : "a variable name, without '='"})`);
	}
	return v;
};
function port(key, p) {
	const range = typeof p === 'string' && /^(0|[1-9][0-9]{0,4})-(0|[1-9][0-9]{0,4})$/.exec(p);
	if (range ? !(isPort(+range[1]) && isPort(+range[2]) && +range[1] <= +range[2]) : !isPort(p)) {
		fail(`${key} has an invalid port ${show(p)} (ports are integers 0..65535, ranges strings 'A-B' with A <= B)`);
	}
	return String(p);
}
function scope(key, s) {
	if (!SCOPES.includes(s)) fail(`unknown scope ${show(s)} in ${key} (known: ${SCOPES.join(', ')})`);
	return s;
}
function syscallGroup(key, g) {
	if (!SYSCALL_GROUPS.includes(g)) fail(`unknown system-call group ${show(g)} in ${key} (known: ${SYSCALL_GROUPS.join(', ')})`);
	return g;
}
function abiVersion(key, n) {
	if (!Number.isInteger(n) || n < 1 || n > 0x7fffffff) fail(`${key} must be a positive integer, not ${show(n)}`);
	return String(n);
}

// Kinds of field: how a value becomes options.
const list = (check) => (key, option, value) => {
	if (!Array.isArray(value)) fail(`${key} must be an array`);
	return value.flatMap((v) => [option, check(key, v)]);
};
const one = (check) => (key, option, value) => [option, check(key, value)];
function flag(key, option, value) {
	if (typeof value !== 'boolean') fail(`${key} must be a boolean`);
	return value ? [option] : [];
}
// 'none' or [] confine that kind of TCP and allow no port; a list allows those ports.
function ports(key, option, value) {
	if (value === 'none' || (Array.isArray(value) && value.length === 0)) return [option, 'none'];
	if (!Array.isArray(value)) fail(`${key} must be an array of ports or 'none'`);
	return list(port)(key, option, value);
}

const FIELDS = [
	['ro', '--ro', list(path)],
	['rw', '--rw', list(path)],
	['roTry', '--ro-try', list(path)],
	['rwTry', '--rw-try', list(path)],
	['hide', '--hide', list(path)],
	['noSymlinks', '--no-symlinks', flag],
	['unix', '--unix', list(path)],
	['tcpBind', '--tcp-bind', ports],
	['tcpConnect', '--tcp-connect', ports],
	['noTcp', '--no-tcp', flag],
	['udpBind', '--udp-bind', ports],
	['udpConnect', '--udp-connect', ports],
	['noUdp', '--no-udp', flag],
	['noNetwork', '--no-network', flag],
	['noUnix', '--no-unix', flag],
	['scopes', '--scope', list(scope)],
	['allowSyscalls', '--allow-syscalls', list(syscallGroup)],
	['logSubprocesses', '--log-subprocesses', flag],
	['noLog', '--no-log', flag],
	['noLogNested', '--no-log-nested', flag],
	['explain', '--explain', flag],
	['explainJson', '--explain-json', one(path)],
	['learn', '--learn', one(path)],
	['keepCaps', '--keep-caps', flag],
	['newSession', '--new-session', flag],
	['dieWithParent', '--die-with-parent', flag],
	['killTree', '--kill-tree', flag],
	['privateTmp', '--private-tmp', flag],
	['closeFds', '--close-fds', flag],
	['clearenv', '--clearenv', flag],
	['setenv', '--setenv', list(envEntry(true))],
	['unsetenv', '--unsetenv', list(envEntry(false))],
	['abi', '--abi', one(abiVersion)],
	['strict', '--strict', flag],
	['verbose', '--verbose', flag],
];

// What the launcher refuses beside --learn: a policy, and explaining one (--hide it takes:
// the learning run cannot read the hidden paths).
const NOT_WITH_LEARN = ['ro', 'rw', 'roTry', 'rwTry', 'unix', 'tcpBind', 'tcpConnect', 'noTcp', 'udpBind',
	'udpConnect', 'noUdp', 'noNetwork', 'noUnix', 'scopes', 'logSubprocesses', 'noLog', 'noLogNested', 'strict', 'explain', 'explainJson'];

/** { ro: '--ro', ... }: each Policy field and the CLI option it becomes, in order. */
const POLICY_OPTIONS = Object.freeze(Object.fromEntries(FIELDS.map(([key, option]) => [key, option])));

/** The launcher options for a policy, in the order of FIELDS; throws TypeError on a bad policy. */
function grantArgs(policy = {}) {
	if (policy === null || typeof policy !== 'object' || Array.isArray(policy)) fail('policy must be an object');
	for (const key of Object.keys(policy)) {
		if (!(key in POLICY_OPTIONS)) fail(`unknown policy field ${show(key)} (known: ${Object.keys(POLICY_OPTIONS).join(', ')})`);
	}
	// contradictory, so refused rather than merged (a merge would silently allow the ports)
	for (const [no, bind, connect] of [['noTcp', 'tcpBind', 'tcpConnect'], ['noUdp', 'udpBind', 'udpConnect']]) {
		if (policy[no] && (policy[bind] !== undefined || policy[connect] !== undefined)) {
			fail(`${no} contradicts ${bind}/${connect}: give one or the other`);
		}
	}
	// noNetwork allows no port: a port list would be allowed after all
	for (const key of ['tcpBind', 'tcpConnect', 'udpBind', 'udpConnect']) {
		const v = policy[key];
		if (policy.noNetwork && v !== undefined && v !== 'none' && !(Array.isArray(v) && v.length === 0)) {
			fail(`${key} contradicts noNetwork, which allows no port: give one or the other`);
		}
	}
	// io_uring's own socket operation passes by the filter
	for (const no of ['noNetwork', 'noUnix']) {
		if (policy[no] && Array.isArray(policy.allowSyscalls) && policy.allowSyscalls.includes('io_uring')) {
			fail(`allowSyscalls 'io_uring' contradicts ${no}: io_uring creates sockets the filter cannot see`);
		}
	}
	// --learn runs the command without the sandbox: it takes no policy and explains nothing
	if (policy.learn !== undefined) {
		const other = Object.keys(policy).find((k) => NOT_WITH_LEARN.includes(k));
		if (other) fail(`learn runs the command without the sandbox and takes no ${other}`);
	}
	return FIELDS.flatMap(([key, option, kind]) => (policy[key] === undefined ? [] : kind(key, option, policy[key])));
}

module.exports = { grantArgs, POLICY_OPTIONS, SCOPES, SYSCALL_GROUPS };
