// Compiled by api.test.mjs with tsc --strict, without and with @types/node: the
// declarations must stand alone (so no console here either), and narrow as documented.
import { command, grantArgs, isLauncherFailure, launcherPath, POLICY_OPTIONS, probe, spawnConfined } from 'landlock-run';
import type { ConfinedStatus, Enforcement, Policy, ProbeErrorCode, ProbeResult, Scope, Where } from 'landlock-run';
import * as compat from 'landlock-run/compat';

export const seen: unknown[] = [];
const result: ProbeResult = await probe({ timeoutMs: 5000, policy: { ro: ['/'] } });
if (result.enforced) {
	const abi: number = result.abi; // a number once enforced: the union narrows on `enforced`
	const level: 'full' | 'partial' = result.enforcement;
	const scopes: Scope[] = result.scopes;
	const ipc: boolean = result.pathnameSockets && result.udp;
	const where: Where[] = result.where;
	seen.push(abi, level, scopes, ipc, result.errata ?? 'no errata', result.explain, where);
} else {
	const code: ProbeErrorCode = result.code;
	const filtered: boolean = code === 'SECCOMP' && result.where.includes('seccomp_filter');
	const why: string = result.error;
	seen.push(code, why.length, filtered);
}
const policy: Policy = {
	ro: ['/usr'], rw: ['/tmp'], roTry: [], rwTry: [], hide: ['/root/.ssh'], unix: ['/dev/log'], tcpBind: 'none', tcpConnect: [443, '8000-8999'],
	udpBind: [0], udpConnect: [53], scopes: ['signal'], logSubprocesses: false, noLog: false, noLogNested: false, abi: 7, strict: false, verbose: false,
};
const argv: string[] = command(policy, ['true'], { launcher: launcherPath() });
const options: string = POLICY_OPTIONS.tcpConnect;
const failed: boolean = isLauncherFailure(125, new Uint8Array(0)) || isLauncherFailure(null, undefined);
// @ts-expect-error a field the API does not have
grantArgs({ readOnly: ['/'] });
// @ts-expect-error ports are numbers, or ranges 'A-B'
grantArgs({ tcpBind: ['80'] });
// @ts-expect-error noUdp is a flag
grantArgs({ noUdp: 'yes' });

const { child, status } = spawnConfined({ ro: ['/'] }, ['true'], { launcher: launcherPath(), cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
const launcherPid: number | undefined = child.pid;
child.once('exit', () => {});
const ran: ConfinedStatus = await status;
if (ran.executed) {
	const pid: number = ran.pid; // a number once executed: the union narrows on `executed`
	const enforced: Enforcement = ran.enforcement;
	seen.push(pid, enforced, ran.status ?? 'no late failure');
} else {
	const why: string = ran.error;
	const st: number | null = ran.status;
	// @ts-expect-error no enforcement is promised when nothing was executed
	const enforced: Enforcement = ran.enforcement;
	seen.push(why, st, enforced);
}
const exitStatus: number | null = ran.exit;
const endSignal: string | null = ran.signal;
seen.push(exitStatus ?? endSignal ?? 'no end record');
// @ts-expect-error the end record's signal is a name, never a number
const signalNumber: number | null = ran.signal;
seen.push(signalNumber);
seen.push(launcherPid, child.kill('SIGTERM'));
// @ts-expect-error shell is not supported
spawnConfined({}, ['true'], { shell: true });
// @ts-expect-error argv is an array of strings
spawnConfined({}, 'true');

const verdict: 'full' | 'partial' | 'unusable' = compat.probe(compat.launcherPath((r: string) => r), { timeoutMs: 1000 });
const grants: string[] = compat.grantArgs({ readOnly: ['/'], readWrite: ['/dev/null', '/tmp'] });
const exit: 125 = compat.LAUNCHER_FAILURE_EXIT;
const bin: 'landlock-run' = compat.LAUNCHER_BIN;
// @ts-expect-error compat's probe is synchronous: a string, not a Promise
compat.probe().then(() => {});
seen.push(argv, options, failed, verdict, grants, exit, bin);
