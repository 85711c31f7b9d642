// Test helpers: throwaway node_modules trees holding a copy of this package, and fake
// launchers (shell scripts) standing in for the binary.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const pkgDir = dirname(dirname(fileURLToPath(import.meta.url)));
export const platformPkg = `@landlock-run/${process.platform}-${process.arch}`;

const dirs = [];
export function tempDir() {
	const d = mkdtempSync(join(tmpdir(), 'landlock-run-test-'));
	dirs.push(d);
	return d;
}
export function cleanup() {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** The other platform package of the pair, standing in for "installed for another cpu". */
export const otherPkg = platformPkg.endsWith('-x64') ? platformPkg.replace(/-x64$/, '-arm64') : platformPkg.replace(/-[^-]+$/, '-x64');

/**
 * A project dir with <root>/<entryAt>/landlock-run (a copy of this package but its tests; entryAt
 * defaults to node_modules) and, unless platform is false, <root>/node_modules/<platform>
 * (default platformPkg) with a launcher. Returns { root, mod and compat (the copy's two
 * entries, imported), binary (its launcher path), bin (the entry's sh launcher) }.
 */
export async function fakeInstall({ platform = platformPkg, binaryMode = 0o755,
	body = 'echo fake launcher', entryAt = 'node_modules' } = {}) {
	const root = tempDir();
	const entry = join(root, entryAt, 'landlock-run');
	cpSync(pkgDir, entry, { recursive: true, filter: (src) => !src.startsWith(join(pkgDir, 'test')) });
	chmodSync(join(entry, 'bin', 'landlock-run'), 0o755);
	let binary = null;
	if (platform) {
		const dir = join(root, 'node_modules', ...platform.split('/'));
		mkdirSync(join(dir, 'bin'), { recursive: true });
		writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: platform, version: '0.0.0' }));
		binary = join(dir, 'bin', 'landlock-run');
		writeFileSync(binary, `#!/bin/sh\n${body}\n`);
		chmodSync(binary, binaryMode);
	}
	const mod = await import(pathToFileURL(join(entry, 'index.js')).href);
	const compat = await import(pathToFileURL(join(entry, 'compat.js')).href);
	return { root, mod, compat, binary, bin: join(entry, 'bin', 'landlock-run') };
}

/** A fake launcher: an executable shell script with this body. */
export function fakeLauncher(body) {
	const file = join(tempDir(), 'landlock-run');
	writeFileSync(file, `#!/bin/sh\n${body}\n`);
	chmodSync(file, 0o755);
	return file;
}
