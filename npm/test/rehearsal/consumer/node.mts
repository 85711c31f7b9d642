// Compiled with @types/node only: the API together with Node's own types.
import { spawnSync } from 'node:child_process';
import { command, isLauncherFailure } from 'landlock-run';

const [file, ...args] = command({ ro: ['/'] }, ['true']);
const r = spawnSync(file!, args);
const blamed: boolean = isLauncherFailure(r.status, r.stderr); // a Buffer is a Uint8Array
console.log(blamed);
