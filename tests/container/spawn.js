// tests/container/spawn.js DIR_GRANTED DIR_OUTSIDE: the npm package as a Node program
// in the container uses it (tests/container/check.sh, c_npm): probe(), then
// spawnConfined() of a command that writes in both directories with only the first
// granted. Prints one JSON line: {"probe":{...},"status":{...},"exit":N}.
'use strict';
const { probe, spawnConfined } = require('/opt/landlock-run');

const launcher = '/bin/landlock-run';
const [granted, outside] = process.argv.slice(2);

(async () => {
	const p = await probe({ launcher });
	const script = `echo denied >${outside}/npm; echo granted >${granted}/npm`;
	const { child, status } = spawnConfined({ rw: [granted] }, ['sh', '-c', script], { launcher, stdio: ['ignore', 'ignore', 'ignore'] });
	const exit = new Promise((resolve) => child.on('close', (code) => resolve(code)));
	const s = await status;
	console.log(JSON.stringify({
		probe: { enforced: p.enforced, code: p.code, where: p.where, explain: p.explain },
		status: { executed: s.executed, status: s.status, error: s.error, enforcement: s.enforcement },
		exit: await exit,
	}));
})();
