// Compiled with @types/node only: the API together with Node's own types.
import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { command, isLauncherFailure, spawnConfined } from 'landlock-run';

const [file, ...args] = command({ ro: ['/'] }, ['true']);
const r = spawnSync(file!, args);
const blamed: boolean = isLauncherFailure(r.status, r.stderr); // a Buffer is a Uint8Array
console.log(blamed);

// with @types/node: spawn's own options (streams in stdio) and its ChildProcess
const { child, status } = spawnConfined({ ro: ['/'] }, ['true'], { stdio: ['ignore', process.stdout, 'pipe'], env: process.env, signal: AbortSignal.timeout(1000) });
const proc: ChildProcess = child;
child.stderr?.on('data', (d: Buffer) => console.log(d.length));
status.then((s) => console.log(proc.pid, s.executed));
