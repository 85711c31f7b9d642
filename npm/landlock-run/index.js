'use strict';
// landlock-run: run a command under the Linux Landlock LSM, from Node.js. The launcher is
// a static binary in @landlock-run/<os>-<cpu> (an optional dependency); this module finds
// it, builds its argv from a policy object, spawns it with a status descriptor and asks it
// what the kernel enforces.
// CommonJS, so require() works on every Node that engines admits; ESM imports it by name.
const { launcherPath } = require('./lib/platform.js');
const { grantArgs, POLICY_OPTIONS, SCOPES, SYSCALL_GROUPS } = require('./lib/policy.js');
const { probe } = require('./lib/probe.js');
const { command, isLauncherFailure, spawnConfined } = require('./lib/run.js');
const { parseDenials } = require('./lib/denials.js');

module.exports = {
	launcherPath, grantArgs, command, spawnConfined, probe, isLauncherFailure, parseDenials, SCOPES, SYSCALL_GROUPS,
	POLICY_OPTIONS,
};
