'use strict';
// landlock-run: run a command under the Linux Landlock LSM, from Node.js. The launcher is
// a static binary in @landlock-run/<os>-<cpu> (an optional dependency); this module finds
// it, builds its argv from a policy object and asks it what the kernel enforces.
// CommonJS, so require() works on every Node that engines admits; ESM imports it by name.
const { launcherPath } = require('./lib/platform.js');
const { grantArgs, POLICY_OPTIONS, SCOPES, SYSCALL_GROUPS } = require('./lib/policy.js');
const { probe, FAILURE_PREFIX } = require('./lib/probe.js');
const { parseDenials } = require('./lib/denials.js');

/** [launcher, ...grantArgs(policy), '--', ...argv], ready for child_process.spawn. */
function command(policy, argv, options = {}) {
	const grants = grantArgs(policy);
	if (!Array.isArray(argv) || argv.length === 0 || argv[0] === '' ||
		!argv.every((a) => typeof a === 'string' && !a.includes('\0'))) {
		throw new TypeError('landlock-run: argv must be a non-empty array of strings (the command and its arguments)');
	}
	const { launcher } = options ?? {};
	if (launcher !== undefined && (typeof launcher !== 'string' || launcher === '')) {
		throw new TypeError('landlock-run: launcher must be a non-empty path');
	}
	return [launcher ?? launcherPath(), ...grants, '--', ...argv];
}

/** True only when the launcher itself failed (status 125 and a `landlock-run: ` line). */
function isLauncherFailure(status, stderr) {
	if (status !== 125 || stderr === undefined || stderr === null) return false;
	const text = typeof stderr === 'string' ? stderr : new TextDecoder().decode(stderr);
	return text.split('\n').some((l) => l.startsWith(FAILURE_PREFIX));
}

module.exports = { launcherPath, grantArgs, command, probe, isLauncherFailure, parseDenials, SCOPES, SYSCALL_GROUPS, POLICY_OPTIONS };
