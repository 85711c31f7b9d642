#!/usr/bin/env node
// `npx landlock-run ...`: exec this machine's launcher with the same arguments and stdio,
// and end with its exit status (or its signal). Node cannot exec(2) in place, so it waits.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { launcherPath } from '../index.js';

let file;
try {
	file = launcherPath();
} catch (e) {
	// the launcher's own failure convention: status 125, one `landlock-run: ` line
	process.stderr.write(`landlock-run: ${e.message}\n`);
	process.exit(125);
}

const child = spawn(file, process.argv.slice(2), { stdio: 'inherit' });
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];
for (const sig of forwarded) process.on(sig, () => child.kill(sig));
child.on('error', (e) => {
	process.stderr.write(`landlock-run: cannot run ${file}: ${e.code ?? e.message}\n`);
	process.exit(125);
});
child.on('exit', (status, signal) => {
	if (signal) {
		for (const sig of forwarded) process.removeAllListeners(sig);
		process.kill(process.pid, signal);
		// still here (a signal Node ignores, e.g. SIGPIPE): the shell convention
		process.exit(128 + (constants.signals[signal] ?? 0));
	}
	process.exit(status);
});
