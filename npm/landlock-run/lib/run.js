'use strict';
// Running the launcher: command() builds its argv; spawnConfined() spawns it with
// `--status-fd 3` on a pipe of its own and `--kill-tree`, and reads back what the launcher
// reports there (landlock-run(1), --status-fd). Only the launcher writes that pipe: it marks
// the descriptor close-on-exec, so the command never holds it and cannot forge it, as it can
// forge what isLauncherFailure() reads (a `landlock-run: ` line on stderr and exit 125).
// The whole-tree mode makes child.kill() and spawn's `timeout` (which signal only the
// launcher) end everything the command started: landlock-run(1), --kill-tree.
const { spawn } = require('node:child_process');
const { launcherPath } = require('./platform.js');
const { grantArgs } = require('./policy.js');
const { FAILURE_PREFIX } = require('./probe.js');

const STATUS_FD = 3;
// The launcher writes three or four short lines; an error line holds a path or two.
const MAX_STATUS = 1 << 16;

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

/**
 * True only when status is 125 and stderr has a `landlock-run: ` line. The command can
 * print that line and exit 125 itself: never fall back to an unconfined run on it.
 */
function isLauncherFailure(status, stderr) {
	if (status !== 125 || stderr === undefined || stderr === null) return false;
	const text = typeof stderr === 'string' ? stderr : new TextDecoder().decode(stderr);
	return text.split('\n').some((l) => l.startsWith(FAILURE_PREFIX));
}

/** The caller's stdio with a pipe at index 3 for the status; TypeError if 3 is taken. */
function withStatusPipe(stdio) {
	let given;
	if (stdio === undefined || stdio === null) given = [];
	else if (typeof stdio === 'string') given = [stdio, stdio, stdio];
	else if (Array.isArray(stdio)) given = stdio;
	else throw new TypeError('landlock-run: stdio must be a string or an array');
	if (given[STATUS_FD] !== undefined && given[STATUS_FD] !== null) {
		throw new TypeError(`landlock-run: stdio[${STATUS_FD}] is the launcher's status descriptor (--status-fd ${STATUS_FD}); ` +
			`pass your own descriptors at ${STATUS_FD + 1} and above`);
	}
	const out = Array.from({ length: Math.max(given.length, STATUS_FD + 1) }, (_, i) => given[i]);
	out[STATUS_FD] = 'pipe';
	return out;
}

const objects = (lines) => lines.flatMap((l) => {
	try {
		const o = JSON.parse(l);
		return o !== null && typeof o === 'object' && !Array.isArray(o) ? [o] : [];
	} catch {
		return []; // not a line of the protocol: the contract is read from the lines that are
	}
});
const int = (v) => (Number.isInteger(v) ? v : null);
const str = (v) => (typeof v === 'string' ? v : null);
const name = (v) => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The status lines as a result. COMMAND was executed exactly when a pid line (one with a
 * pid and no "exec") arrived and no "exec":false line followed it; a failure after it ran
 * ("exec":true with a status: a --learn policy that cannot be written) is reported too.
 * The end record, {"exit":N} or {"signal":"NAME"}, comes last, once the whole tree is gone.
 */
function interpret(lines) {
	let start = null;
	let failure = null;
	let late = null;
	let end = null;
	for (const o of objects(lines)) {
		if (o.exec === undefined && int(o.pid) !== null) start ??= o;
		else if (o.exec === false) failure ??= { ...o, afterStart: start !== null };
		else if (o.exec === true && int(o.status) !== null) late ??= o;
		else if (o.exec === undefined && (int(o.exit) !== null || name(o.signal) !== null)) end ??= o;
	}
	const executed = start !== null && !failure?.afterStart;
	const failed = executed ? late : failure;
	return {
		executed,
		pid: int(start?.pid),
		abi: int(start?.abi),
		abiUsed: int(start?.abi_used),
		enforcement: str(start?.enforcement),
		status: int(failed?.status),
		error: failed ? str(failed.error) ?? `the launcher failed with status ${failed.status}` : null,
		exit: int(end?.exit),
		signal: name(end?.signal),
	};
}

/** The result when the launcher said nothing: it failed before it knew FD, or was killed. */
function silent(child) {
	const how = child.signalCode ? `was killed by ${child.signalCode}` : `exited with status ${child.exitCode}`;
	return {
		executed: false, pid: null, abi: null, abiUsed: null, enforcement: null, status: child.exitCode,
		error: `the launcher reported nothing on --status-fd and ${how}: COMMAND was not executed`,
		exit: null, signal: null,
	};
}

/** Resolves once the status pipe reaches EOF (or the spawn fails); never rejects. */
function readStatus(child, file) {
	return new Promise((resolve) => {
		let text = '';
		let settled = false;
		const settle = (result) => {
			if (!settled) resolve(result);
			settled = true;
		};
		const exited = () => child.exitCode !== null || child.signalCode !== null;
		child.once('error', (e) => {
			if (child.pid !== undefined) return; // spawned: a later error (kill) is not the status
			settle({ ...silent(child), status: null, error: `cannot run ${file}: ${e.code ?? e.message}` });
		});
		const pipe = child.stdio[STATUS_FD];
		pipe.setEncoding('utf8');
		pipe.on('data', (chunk) => {
			text += chunk;
			if (text.length > MAX_STATUS) pipe.destroy(); // not the launcher's few lines: read what came
		});
		pipe.once('close', () => {
			const lines = text.split('\n');
			lines.pop(); // after the last newline: nothing, or a line the launcher did not finish
			const result = interpret(lines);
			if (result.executed || result.error !== null) return settle(result);
			// no line at all (or no failure line): the launcher is gone, or going
			if (exited()) return settle(silent(child));
			child.once('exit', () => settle(silent(child)));
		});
	});
}

/**
 * Spawn `[launcher, '--status-fd', '3', ...grantArgs({ ...policy, killTree: true }), '--',
 * ...argv]` with the caller's spawn options and a pipe as the child's descriptor 3, and read
 * the launcher's report from it: { child, status }, status a promise of a ConfinedStatus
 * (index.d.ts). killTree: false is refused: --status-fd keeps the launcher in the
 * whole-tree mode, so it could not be honoured.
 */
function spawnConfined(policy, argv, options = {}) {
	const { launcher, stdio, shell, ...spawnOptions } = options ?? {};
	if (shell !== undefined && shell !== false) {
		throw new TypeError("landlock-run: shell is not supported: run ['sh', '-c', script] as argv, inside the sandbox");
	}
	grantArgs(policy); // a bad policy is its TypeError, before it is copied
	if (policy?.killTree === false) {
		throw new TypeError('landlock-run: killTree: false is not possible in spawnConfined(): its --status-fd keeps the ' +
			'launcher in the whole-tree mode; spawn command(policy, argv) for a run that execs the command');
	}
	const [file, ...args] = command({ ...policy, killTree: true }, argv, { launcher });
	const child = spawn(file, ['--status-fd', String(STATUS_FD), ...args], { ...spawnOptions, stdio: withStatusPipe(stdio) });
	return { child, status: readStatus(child, file) };
}

module.exports = { command, isLauncherFailure, spawnConfined, STATUS_FD };
