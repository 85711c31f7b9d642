// require() of both entries, run on every Node the tests have (engines: >=18).
const lr = require('landlock-run');
const compat = require('landlock-run/compat');

const argv = lr.command({ ro: ['/'] }, ['sh', '-c', 'exit 3']);
const r = require('node:child_process').spawnSync(argv[0], argv.slice(1));
console.log(JSON.stringify({ status: r.status, verdict: compat.probe(), grants: compat.grantArgs({ readOnly: ['/'] }) }));
