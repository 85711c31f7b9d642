'use strict';
// landlock-run/compat: the launcher module shapes of the agent harness this launcher family
// was written for, so such a consumer switches to this package by changing only its import
// specifier. It spawns [launcherPath(), ...grantArgs({ readOnly, readWrite }), '--', ...argv],
// asks probe() synchronously for a verdict, and blames the launcher for a status of
// LAUNCHER_FAILURE_EXIT together with a `landlock-run: ` stderr line.
const { spawnSync } = require('node:child_process');
const { dirname, join } = require('node:path');
const { platformPackage } = require('./lib/platform.js');
const { grantArgs: policyArgs } = require('./lib/policy.js');

const LAUNCHER_FAILURE_EXIT = 125;
const LAUNCHER_BIN = 'landlock-run';
// The harness's CLI contract: `LAUNCHER --probe` exits 0 and prints one verdict line.
const VERDICTS = new Map([
	['landlock: fully enforced', 'full'],
	['landlock: partially enforced (older ABI)', 'partial'],
]);
const DEFAULT_TIMEOUT_MS = 10000;
const MAX_OUTPUT = 4096; // the verdict is 41 bytes; more is not the contract

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

/**
 * 'full' | 'partial' | 'unusable', synchronously; never throws. Runs `launcher --probe`
 * (default launcherPath()) and reads its standard output whole: the verdict line is the
 * only thing on it, with or without its newline. Exit 0 and exactly `landlock: fully
 * enforced` is 'full', exit 0 and exactly `landlock: partially enforced (older ABI)` is
 * 'partial'; anything else is 'unusable': other output (a second line, a space or a \r
 * more), a non-zero exit (125 included), a signal, a launcher that cannot be run, a bad
 * argument, or no exit within timeoutMs (default 10000), after which it is killed.
 * Standard error is not read.
 */
function probe(launcher, options = {}) {
	try {
		const file = launcher === undefined ? launcherPath() : launcher;
		const timeoutMs = options?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		if (typeof file !== 'string' || file === '' || !(Number.isFinite(timeoutMs) && timeoutMs > 0)) return 'unusable';
		const r = spawnSync(file, ['--probe'], {
			stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: MAX_OUTPUT,
		});
		if (r.error || r.status !== 0) return 'unusable';
		return VERDICTS.get(r.stdout.endsWith('\n') ? r.stdout.slice(0, -1) : r.stdout) ?? 'unusable';
	} catch {
		return 'unusable';
	}
}

module.exports = { launcherPath, grantArgs, probe, LAUNCHER_FAILURE_EXIT, LAUNCHER_BIN };
