// The build targets, read from platform/*.env (one file per target, VAR=value lines), for
// the Node parts of the release tooling: the pack gate, the package.json writer and their
// tests. The shell side reads the same files with platform_var in scripts/lib.sh.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** { 'linux-x64': { ARCH: 'x86_64', NPM_CPU: 'x64', ... }, ... } in file-name order. */
export function readPlatforms(root) {
	const dir = join(root, 'platform');
	const platforms = {};
	for (const file of readdirSync(dir).filter((f) => f.endsWith('.env')).sort()) {
		const vars = {};
		for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
			const m = line.match(/^([A-Z_][A-Z0-9_]*)=(.*)$/);
			if (m) vars[m[1]] = m[2];
		}
		platforms[file.slice(0, -'.env'.length)] = vars;
	}
	return platforms;
}

/** The name of the platform entry for the machine Node runs on, or undefined. */
export function hostPlatform(platforms) {
	return Object.keys(platforms).find((name) => name === `${process.platform}-${process.arch}`);
}
