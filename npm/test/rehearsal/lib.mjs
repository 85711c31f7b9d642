// Shared by the packed-install rehearsal's tests (npm/test/rehearsal/*.test.mjs), run by
// scripts/npm-rehearsal.sh, which sets the environment:
//   LR_DIST tarball dir, LR_WORK scratch dir, LR_ROOT the repository, LR_VERSION,
//   LR_BUILD_BINARY (the tested build for this machine), LR_KERNEL_ABI (asked of the
//   kernel without the launcher), LR_NATIVE / LR_FOREIGN platform package names
//   (linux-x64 / linux-arm64 on x86_64), LR_FOREIGN_RUN: a command that runs the foreign
//   binary under qemu-user (no Landlock), LR_TOOLS: node_modules of scripts/setup.sh's npm
//   tools (typescript, @types/node, Node 18, npm 10).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const names = ['LR_DIST', 'LR_WORK', 'LR_ROOT', 'LR_VERSION', 'LR_BUILD_BINARY', 'LR_KERNEL_ABI', 'LR_NATIVE', 'LR_FOREIGN', 'LR_TOOLS'];
for (const k of names) if (!process.env[k]) throw new Error(`${k} is not set: run scripts/npm-rehearsal.sh`);
export const env = process.env;
export const kernelAbi = Number(env.LR_KERNEL_ABI);
// From the one table of rights per ABI (tests/rights.sh, rows "KIND NAME ABI"): the ABI
// from which the probe says full (its newest filesystem right) and the newest it knows.
const rights = readFileSync(join(env.LR_ROOT, 'tests', 'rights.sh'), 'utf8')
	.match(/^[a-z]+ \S+ \d+$/gm).map((row) => row.split(' '));
const newest = (rows) => Math.max(...rows.map(([, , abi]) => Number(abi)));
export const FULL_ABI = newest(rights.filter(([kind]) => kind === 'fs'));
export const KNOWN_ABI = newest(rights);
export const rightAbi = (name) => newest(rights.filter(([, right]) => right === name));
export const tarball = (name) => join(env.LR_DIST,
	name === 'landlock-run' ? `landlock-run-${env.LR_VERSION}.tgz` : `landlock-run-${name}-${env.LR_VERSION}.tgz`);

/**
 * A throwaway project that depends on the entry tarball; the platform packages resolve to
 * their tarballs through `overrides`, so npm itself picks by os/cpu, as from a registry.
 */
export function project(name) {
	const dir = mkdtempSync(join(env.LR_WORK, `${name}-`));
	writeFileSync(join(dir, 'package.json'), JSON.stringify({
		name: `rehearsal-${name}`, version: '0.0.0', private: true,
		overrides: Object.fromEntries([env.LR_NATIVE, env.LR_FOREIGN].map((p) => [`@landlock-run/${p}`, `file:${tarball(p)}`])),
	}, null, 2));
	return dir;
}
export const npm = (dir, args) => spawnSync('npm', args, { cwd: dir, encoding: 'utf8' });
export const importIn = (dir, entry = 'index.js') => import(pathToFileURL(join(dir, 'node_modules', 'landlock-run', entry)).href);

/** project(name) with the entry tarball installed (extra npm install flags allowed); throws on failure. */
export function installed(name, ...flags) {
	const dir = project(name);
	const r = npm(dir, ['install', '--offline', ...flags, tarball('landlock-run')]);
	if (r.status !== 0) throw new Error(`npm install in ${dir}: ${r.stdout}${r.stderr}`);
	return dir;
}

/** A fresh directory under the scratch dir. */
export const scratch = (name) => mkdtempSync(join(env.LR_WORK, `${name}-`));
