// scripts/bump-version.sh on a scratch copy of the repository's version sources.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const dirs = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function scratch() {
	const d = mkdtempSync(join(tmpdir(), 'landlock-run-bump-'));
	dirs.push(d);
	for (const p of ['VERSION', 'platform', 'scripts/bump-version.sh', 'scripts/write-packages.mjs', 'scripts/platforms.mjs', 'npm/landlock-run/package.json',
		'npm/linux-x64/package.json', 'npm/linux-arm64/package.json']) {
		cpSync(join(root, p), join(d, p), { recursive: true });
	}
	return d;
}
const bump = (d, ...args) => spawnSync('bash', [join(d, 'scripts', 'bump-version.sh'), ...args], { encoding: 'utf8' });
const json = (d, p) => JSON.parse(readFileSync(join(d, p), 'utf8'));

test('bump-version writes VERSION, all three versions and the exact optionalDependencies', () => {
	const d = scratch();
	const r = bump(d, '1.2.3-rc.1');
	assert.equal(r.status, 0, r.stderr);
	assert.equal(readFileSync(join(d, 'VERSION'), 'utf8'), '1.2.3-rc.1\n');
	const entry = json(d, 'npm/landlock-run/package.json');
	assert.equal(entry.version, '1.2.3-rc.1');
	assert.deepEqual(entry.optionalDependencies,
		{ '@landlock-run/linux-arm64': '1.2.3-rc.1', '@landlock-run/linux-x64': '1.2.3-rc.1' });
	assert.deepEqual(Object.keys(entry), Object.keys(json(root, 'npm/landlock-run/package.json')), 'fields kept in place');
	for (const [name, cpu] of [['linux-x64', 'x64'], ['linux-arm64', 'arm64']]) {
		const p = json(d, `npm/${name}/package.json`);
		assert.equal(p.version, '1.2.3-rc.1');
		assert.deepEqual([p.name, p.os, p.cpu, p.libc, p.scripts], [`@landlock-run/${name}`, ['linux'], [cpu], undefined, undefined]);
	}
});

test('bump-version with the current version changes nothing (the committed files are its output)', () => {
	const d = scratch();
	const version = readFileSync(join(root, 'VERSION'), 'utf8').trim();
	assert.equal(bump(d, version).status, 0);
	for (const p of ['VERSION', 'npm/landlock-run/package.json', 'npm/linux-x64/package.json', 'npm/linux-arm64/package.json']) {
		assert.equal(readFileSync(join(d, p), 'utf8'), readFileSync(join(root, p), 'utf8'), p);
	}
});

test('adding a target is one platform/*.env file', () => {
	const d = scratch();
	writeFileSync(join(d, 'platform', 'linux-riscv64.env'),
		'ARCH=riscv64\nCC=riscv64-linux-gnu-gcc\nSPECS=\nELF_MACHINE=243\nNPM_CPU=riscv64\n');
	assert.equal(bump(d, '0.9.0').status, 0);
	assert.deepEqual(json(d, 'npm/linux-riscv64/package.json').cpu, ['riscv64']);
	assert.equal(json(d, 'npm/landlock-run/package.json').optionalDependencies['@landlock-run/linux-riscv64'], '0.9.0');
});

test('bump-version refuses a non-semver version and a misnamed platform entry, changing nothing', () => {
	let d = scratch();
	for (const bad of ['1.2', 'v1.2.3', '01.2.3', '1.2.3 ', '']) {
		const r = bump(d, bad);
		assert.equal(r.status, 2, bad);
		assert.equal(readFileSync(join(d, 'VERSION'), 'utf8'), readFileSync(join(root, 'VERSION'), 'utf8'));
	}
	assert.equal(bump(d).status, 2);
	d = scratch();
	writeFileSync(join(d, 'platform', 'linux-riscv.env'), 'ARCH=riscv64\nNPM_CPU=riscv64\n');
	const r = bump(d, '0.9.0');
	assert.equal(r.status, 1);
	assert.match(r.stderr, /linux-riscv64\.env/);
	assert.equal(readFileSync(join(d, 'VERSION'), 'utf8'), readFileSync(join(root, 'VERSION'), 'utf8'));
	assert.ok(!existsSync(join(d, 'npm', 'linux-riscv')));
});
