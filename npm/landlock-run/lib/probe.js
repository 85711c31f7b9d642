'use strict';
// What this kernel enforces, asked of the launcher: `LAUNCHER --probe --json [policy options]`.
// Never throws: every failure is an 'unusable' result with a code and a message. (The compat
// entry's synchronous probe reads the one-line verdict of plain --probe instead.)
const { execFile } = require('node:child_process');
const { launcherPath } = require('./platform.js');
const { grantArgs } = require('./policy.js');

const FAILURE_PREFIX = 'landlock-run: ';
const MAX_OUTPUT = 1 << 20;
const NETWORK_CONFINED = ['all', 'tcp', 'udp', 'tcp,udp', 'nothing'];

// The launcher's line when a seccomp filter (a container's profile) refuses the Landlock
// system calls: the one refusal a harness can fix in the runtime's settings.
const SECCOMP_REFUSAL = 'landlock-run: a seccomp filter refuses the Landlock system calls';
const WHERE = ['seccomp_filter', 'ptrace_refused', 'proc_missing'];

const unusable = (code, error) => ({
	enforced: false, enforcement: 'unusable', abi: null, abiUsed: null, errata: null, pathnameSockets: false, tcp: false, udp: false, scopes: [],
	networkConfined: 'nothing', network: 'none', baseline: [], noUnix: false, explain: false, where: code === 'SECCOMP' ? ['seccomp_filter'] : [],
	code, error,
});
const firstLine = (text) => String(text ?? '').split('\n').find((l) => l.trim() !== '') ?? '';

/** { file, args, timeoutMs, policyArgs } to run, or { result } when there is nothing to run. */
function request({ launcher, timeoutMs = 10000, policy } = {}) {
	try {
		if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new TypeError('landlock-run: timeoutMs must be a positive number');
		if (launcher !== undefined && (typeof launcher !== 'string' || launcher === '')) {
			throw new TypeError('landlock-run: launcher must be a non-empty path');
		}
		const policyArgs = grantArgs(policy);
		return { file: launcher ?? launcherPath(), args: ['--probe', '--json', ...policyArgs], timeoutMs, policyArgs };
	} catch (e) {
		return { result: e instanceof TypeError ? unusable('OPTIONS', e.message) : unusable(e.code.replace(/^LANDLOCK_RUN_/, ''), e.message) };
	}
}

/** A finished run { spawnError, overflow, timedOut, signal, status, stdout, stderr } as a result. */
function interpret(run, { file, timeoutMs }) {
	if (run.overflow) return unusable('OUTPUT', 'probe printed too much output');
	if (run.timedOut) return unusable('TIMEOUT', `probe timed out after ${timeoutMs} ms`);
	if (run.spawnError) return unusable(run.spawnError === 'ENOENT' ? 'NOT_INSTALLED' : 'EXEC', `cannot run ${file}: ${run.spawnError}`);
	if (run.signal) return unusable('SIGNAL', `probe was killed by signal ${run.signal}`);
	if (run.status !== 0) {
		const line = String(run.stderr).split('\n').find((l) => l.startsWith(FAILURE_PREFIX));
		// the launcher's own refusal: the host, or (see blame) the policy
		if (run.status === 125 && line) return unusable(line.startsWith(SECCOMP_REFUSAL) ? 'SECCOMP' : 'NO_LANDLOCK', line);
		return unusable('EXEC', line || firstLine(run.stderr) || `probe exited with status ${run.status}`);
	}
	let facts;
	try {
		facts = JSON.parse(firstLine(run.stdout));
	} catch {
		return unusable('OUTPUT', `unreadable probe output: ${JSON.stringify(firstLine(run.stdout).slice(0, 200))}`);
	}
	if (!facts || !['full', 'partial'].includes(facts.enforcement) || !Number.isInteger(facts.abi) || !Number.isInteger(facts.abi_used)) {
		return unusable('OUTPUT', `unexpected probe output: ${firstLine(run.stdout).slice(0, 200)}`);
	}
	return {
		enforced: true,
		enforcement: facts.enforcement,
		abi: facts.abi,
		abiUsed: facts.abi_used,
		errata: Number.isInteger(facts.errata) ? facts.errata : null,
		pathnameSockets: facts.pathname_sockets === true,
		tcp: facts.tcp === true,
		udp: facts.udp === true,
		scopes: Array.isArray(facts.scopes) ? facts.scopes.filter((s) => typeof s === 'string') : [],
		networkConfined: NETWORK_CONFINED.includes(facts.network_confined) ? facts.network_confined : 'nothing',
		network: typeof facts.network === 'string' ? facts.network : 'none',
		baseline: Array.isArray(facts.baseline) ? facts.baseline.filter((s) => typeof s === 'string') : [],
		noUnix: facts.no_unix === true,
		explain: facts.explain === true,
		where: Array.isArray(facts.where) ? facts.where.filter((s) => WHERE.includes(s)) : [],
		code: null,
		error: null,
	};
}

// A refusal with policy options is the policy's fault when the same launcher, asked with
// none, enforces: a bad grant path is then POLICY, not a host without Landlock.
const mayBePolicy = (result, req) => result.code === 'NO_LANDLOCK' && req.policyArgs.length > 0;
const bareRequest = (req) => ({ ...req, args: ['--probe', '--json'], policyArgs: [] });
const blame = (result, bare) => (bare.enforced ? { ...result, code: 'POLICY' } : result);

// The deadline is ours, not execFile's: when its timer fires just as the probe exits, execFile
// has already destroyed the pipes and reports a clean exit with the output lost, which read
// as OUTPUT with "". Here a run that was still going at the deadline is a TIMEOUT, always.
function runAsync(req) {
	return new Promise((resolve) => {
		let timedOut = false;
		const child = execFile(req.file, req.args, { maxBuffer: MAX_OUTPUT, encoding: 'utf8' },
			(err, stdout, stderr) => {
				clearTimeout(timer);
				const code = err?.code;
				resolve(interpret({
					overflow: code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER',
					timedOut,
					spawnError: typeof code === 'string' && code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' ? code : null,
					signal: err?.signal ?? null,
					status: typeof code === 'number' ? code : 0,
					stdout,
					stderr,
				}, req));
			});
		const timer = setTimeout(() => {
			if (child.exitCode !== null || child.signalCode !== null) return;
			timedOut = true;
			child.kill('SIGKILL');
		}, req.timeoutMs);
	});
}

/** Resolves to a ProbeResult (see index.d.ts); never rejects. */
async function probe(options) {
	const req = request(options);
	if (req.result) return req.result;
	const result = await runAsync(req);
	return mayBePolicy(result, req) ? blame(result, await runAsync(bareRequest(req))) : result;
}

module.exports = { probe, FAILURE_PREFIX };
