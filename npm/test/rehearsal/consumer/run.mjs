// import by name of both entries, run on every Node the tests have (engines: >=18).
import { spawnSync } from 'node:child_process';
import { command, probe } from 'landlock-run';
import { grantArgs, probe as verdict } from 'landlock-run/compat';

const argv = command({ ro: ['/'] }, ['sh', '-c', 'exit 3']);
const r = spawnSync(argv[0], argv.slice(1));
console.log(JSON.stringify({ status: r.status, verdict: verdict(), grants: grantArgs({ readOnly: ['/'] }), probe: (await probe()).enforcement }));
