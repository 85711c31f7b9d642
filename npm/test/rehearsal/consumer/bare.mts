// Compiled by api.test.mjs without @types/node only: spawnConfined's child and options are
// then the small fallback shapes of index.d.ts, not any.
import { spawnConfined } from 'landlock-run';

const { child } = spawnConfined({}, ['true'], { cwd: '/', stdio: 'inherit' });
export const pid: number | undefined = child.pid;
// @ts-expect-error the fallback has no streams: a ChildProcess needs @types/node
child.stdout;
// @ts-expect-error nor spawn options it does not know
spawnConfined({}, ['true'], { windowsHide: true });
