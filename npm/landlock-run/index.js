// landlock-run: run a command under the Linux Landlock LSM, from Node.js.
// The launcher itself is a static binary shipped in @landlock-run/<os>-<cpu>
// (an optional dependency); this module finds it and builds its argv.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const { optionalDependencies } = require('./package.json');

export const SCOPES = Object.freeze(['abstract-unix', 'signal']);
const POLICY_KEYS = ['ro', 'rw', 'roTry', 'rwTry', 'tcpBind', 'tcpConnect', 'scopes', 'abi', 'strict'];
const PATH_FLAGS = { ro: '--ro', rw: '--rw', roTry: '--ro-try', rwTry: '--rw-try' };
const PORT_FLAGS = { tcpBind: '--tcp-bind', tcpConnect: '--tcp-connect' };
const FAILURE_PREFIX = 'landlock-run: ';

function codedError(code, message) {
	const err = new Error(message);
	err.code = code;
	return err;
}

const installedPackage = (pkg) => {
	try {
		return dirname(require.resolve(`${pkg}/package.json`));
	} catch {
		return null;
	}
};

/**
 * Absolute path of the launcher binary for this machine's os/cpu. The messages are the
 * ones bin/landlock-run prints for the same cases (the rehearsal compares them).
 */
export function launcherPath() {
	const platforms = Object.keys(optionalDependencies ?? {});
	const need = `@landlock-run/${process.platform}-${process.arch}`;
	if (!platforms.includes(need)) {
		throw codedError('LANDLOCK_RUN_UNSUPPORTED_PLATFORM',
			`no launcher package for ${process.platform}-${process.arch} (there are ${platforms.join(', ')}); ` +
			'Landlock is Linux-only');
	}
	const dir = installedPackage(need);
	if (dir === null) {
		const other = platforms.find((p) => installedPackage(p) !== null);
		if (other) {
			throw codedError('LANDLOCK_RUN_WRONG_PLATFORM',
				`${other} is installed, but this machine needs ${need}: node_modules was installed for another ` +
				'cpu or os (npm --cpu/--os, or copied from another machine); run npm ci or npm install on this machine');
		}
		throw codedError('LANDLOCK_RUN_NOT_INSTALLED',
			`the launcher package ${need} is not installed: optional dependencies were omitted ` +
			'(--omit=optional, --no-optional) or skipped; reinstall with them (npm install --include=optional) ' +
			`rather than adding ${need} to your dependencies, which breaks installs on other platforms`);
	}
	const file = join(dir, 'bin', 'landlock-run');
	try {
		accessSync(file, constants.X_OK);
	} catch {
		throw codedError('LANDLOCK_RUN_NOT_INSTALLED',
			`the launcher ${file} is missing or not executable: reinstall ${need}`);
	}
	return file;
}

function checkPaths(key, value) {
	if (!Array.isArray(value)) {
		throw new TypeError(`landlock-run: ${key} must be an array of paths`);
	}
	for (const p of value) {
		if (typeof p !== 'string' || p === '' || p.includes('\0') || p === '--') {
			throw new TypeError(`landlock-run: ${key} has an invalid path ${JSON.stringify(p)} ` +
				'(paths are non-empty strings without NUL, and not "--")');
		}
	}
	return value;
}

function checkPorts(key, value) {
	if (value === 'none') return [];
	if (!Array.isArray(value)) {
		throw new TypeError(`landlock-run: ${key} must be an array of ports or 'none'`);
	}
	for (const p of value) {
		if (!Number.isInteger(p) || p < 0 || p > 65535) {
			throw new TypeError(`landlock-run: ${key} has an invalid port ${JSON.stringify(p)} ` +
				'(ports are integers 0..65535)');
		}
	}
	return value;
}

/** The launcher options for a policy, in a fixed order; throws TypeError on a bad policy. */
export function grantArgs(policy = {}) {
	if (policy === null || typeof policy !== 'object' || Array.isArray(policy)) {
		throw new TypeError('landlock-run: policy must be an object');
	}
	for (const key of Object.keys(policy)) {
		if (!POLICY_KEYS.includes(key)) {
			throw new TypeError(`landlock-run: unknown policy option ${JSON.stringify(key)} ` +
				`(known: ${POLICY_KEYS.join(', ')})`);
		}
	}
	const args = [];
	for (const key of POLICY_KEYS) {
		const value = policy[key];
		if (value === undefined) continue;
		if (key in PATH_FLAGS) {
			for (const p of checkPaths(key, value)) args.push(PATH_FLAGS[key], p);
		} else if (key in PORT_FLAGS) {
			const ports = checkPorts(key, value);
			// an empty allow-list handles TCP and allows no port, like 'none'
			if (ports.length === 0) args.push(PORT_FLAGS[key], 'none');
			for (const p of ports) args.push(PORT_FLAGS[key], String(p));
		} else if (key === 'scopes') {
			if (!Array.isArray(value)) {
				throw new TypeError('landlock-run: scopes must be an array of scope names');
			}
			for (const s of value) {
				if (!SCOPES.includes(s)) {
					throw new TypeError(`landlock-run: unknown scope ${JSON.stringify(s)} ` +
						`(known: ${SCOPES.join(', ')})`);
				}
				args.push('--scope', s);
			}
		} else if (key === 'abi') {
			if (!Number.isInteger(value) || value < 1 || value > 0x7fffffff) {
				throw new TypeError(`landlock-run: abi must be a positive integer, not ${JSON.stringify(value)}`);
			}
			args.push('--abi', String(value));
		} else if (key === 'strict') {
			if (typeof value !== 'boolean') {
				throw new TypeError('landlock-run: strict must be a boolean');
			}
			if (value) args.push('--strict');
		}
	}
	return args;
}

/** [launcher, ...grantArgs(policy), '--', ...argv], ready for child_process.spawn. */
export function command(policy, argv) {
	const grants = grantArgs(policy);
	if (!Array.isArray(argv) || argv.length === 0 ||
		!argv.every((a) => typeof a === 'string' && !a.includes('\0')) || argv[0] === '') {
		throw new TypeError('landlock-run: argv must be a non-empty array of strings (the command and its arguments)');
	}
	return [launcherPath(), ...grants, '--', ...argv];
}

function unusable(error, extra = {}) {
	return {
		enforced: false, enforcement: 'unusable', abi: null, abiUsed: null, errata: null,
		tcp: false, scopes: [], error, ...extra,
	};
}

function firstLine(text) {
	return String(text ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
}

/** Ask the launcher what this kernel enforces (`--probe --json`). Never throws. */
export function probe({ launcher, timeoutMs = 10000, policy } = {}) {
	return new Promise((resolve) => {
		let file = launcher;
		let args;
		try {
			if (file === undefined) file = launcherPath();
			else if (typeof file !== 'string' || file === '') throw new TypeError('landlock-run: launcher must be a path');
			if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
				throw new TypeError('landlock-run: timeoutMs must be a positive number');
			}
			args = ['--probe', '--json', ...grantArgs(policy)];
		} catch (e) {
			resolve(unusable(e.code ? `${e.code}: ${e.message}` : e.message));
			return;
		}
		execFile(file, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20, encoding: 'utf8' },
			(err, stdout, stderr) => {
				if (err) {
					if (err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
						resolve(unusable('probe printed too much output'));
					} else if (err.killed) {
						resolve(unusable(`probe timed out after ${timeoutMs} ms`));
					} else if (err.signal) {
						resolve(unusable(`probe was killed by signal ${err.signal}`));
					} else if (typeof err.code === 'number') {
						const lines = String(stderr ?? '').split('\n');
						const line = lines.find((l) => l.startsWith(FAILURE_PREFIX)) ?? firstLine(stderr);
						resolve(unusable(line || `probe exited with status ${err.code}`));
					} else {
						resolve(unusable(`cannot run ${file}: ${err.code ?? err.message}`));
					}
					return;
				}
				let facts;
				try {
					facts = JSON.parse(firstLine(stdout));
				} catch {
					resolve(unusable(`unreadable probe output: ${JSON.stringify(firstLine(stdout).slice(0, 200))}`));
					return;
				}
				if (!facts || (facts.enforcement !== 'full' && facts.enforcement !== 'partial') ||
					!Number.isInteger(facts.abi) || !Number.isInteger(facts.abi_used)) {
					resolve(unusable(`unexpected probe output: ${firstLine(stdout).slice(0, 200)}`));
					return;
				}
				resolve({
					enforced: true,
					enforcement: facts.enforcement,
					abi: facts.abi,
					abiUsed: facts.abi_used,
					errata: Number.isInteger(facts.errata) ? facts.errata : null,
					tcp: facts.tcp === true,
					scopes: Array.isArray(facts.scopes) ? facts.scopes.filter((s) => typeof s === 'string') : [],
					error: null,
				});
			});
	});
}

/** True only when the launcher itself failed (status 125 and a `landlock-run: ` line). */
export function isLauncherFailure(status, stderr) {
	if (status !== 125 || stderr === undefined || stderr === null) return false;
	return String(stderr).split('\n').some((l) => l.startsWith(FAILURE_PREFIX));
}
