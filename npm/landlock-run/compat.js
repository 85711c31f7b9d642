'use strict';
// landlock-run/compat: the launcher module shapes of the agent harness this launcher family
// was written for, so such a consumer switches to this package by changing only its import
// specifier. It spawns [launcherPath(), ...grantArgs({ readOnly, readWrite }), '--', ...argv],
// asks probe() synchronously for a verdict, and blames the launcher for a status of
// LAUNCHER_FAILURE_EXIT together with a `landlock-run: ` stderr line.
const { dirname, join } = require('node:path');
const { platformPackage } = require('./lib/platform.js');
const { grantArgs: policyArgs } = require('./lib/policy.js');
const { probeSync } = require('./lib/probe.js');

const LAUNCHER_FAILURE_EXIT = 125;
const LAUNCHER_BIN = 'landlock-run';

/**
 * This machine's launcher binary. resolvePackageJson (the harness's test hook; default
 * require.resolve) gets '<platform package>/package.json' and returns its absolute path, or
 * throws when the package is not installed. Never throws: without the package the result is
 * <this package>/node_modules/<platform package>/bin/landlock-run, which does not exist, so
 * probe() then says 'unusable'.
 */
function launcherPath(resolvePackageJson = (request) => require.resolve(request)) {
	const pkg = platformPackage();
	try {
		const manifest = resolvePackageJson(`${pkg}/package.json`);
		if (typeof manifest === 'string' && manifest !== '') return join(dirname(manifest), 'bin', LAUNCHER_BIN);
	} catch {
		// not installed: the never-existing path below
	}
	return join(__dirname, 'node_modules', pkg, 'bin', LAUNCHER_BIN);
}

/** ['--ro', P, ..., '--rw', P, ...]; throws TypeError on anything but readOnly/readWrite path lists. */
function grantArgs(grants = {}) {
	const { readOnly, readWrite, ...rest } = grants ?? {};
	const extra = Object.keys(rest);
	if (extra.length > 0) throw new TypeError(`landlock-run: unknown grant field ${JSON.stringify(extra[0])} (known: readOnly, readWrite)`);
	return policyArgs({ ro: readOnly, rw: readWrite });
}

/** 'full' | 'partial' | 'unusable', synchronously; never throws. */
function probe(launcher = launcherPath(), options = {}) {
	return probeSync({ launcher, timeoutMs: options?.timeoutMs }).enforcement;
}

module.exports = { launcherPath, grantArgs, probe, LAUNCHER_FAILURE_EXIT, LAUNCHER_BIN };
