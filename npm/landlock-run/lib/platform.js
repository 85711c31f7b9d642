'use strict';
// Which installed package holds this machine's launcher binary. The platform packages
// are the entry's optional dependencies, one per os/cpu; npm installs the one matching the
// machine. The messages are the ones bin/landlock-run prints for the same cases.
const { accessSync, constants } = require('node:fs');
const { dirname, join } = require('node:path');
const { optionalDependencies } = require('../package.json');

const PACKAGES = Object.keys(optionalDependencies);

/** The platform package this machine needs, e.g. '@landlock-run/linux-x64'. */
const platformPackage = () => `@landlock-run/${process.platform}-${process.arch}`;

function codedError(code, message) {
	const err = new Error(message);
	err.code = code;
	return err;
}

function installedDir(pkg) {
	try {
		return dirname(require.resolve(`${pkg}/package.json`));
	} catch {
		return null;
	}
}

/** Absolute path of this machine's launcher binary; throws an Error with a LANDLOCK_RUN_* code. */
function launcherPath() {
	const need = platformPackage();
	if (!PACKAGES.includes(need)) {
		throw codedError('LANDLOCK_RUN_UNSUPPORTED_PLATFORM',
			`no launcher package for ${process.platform}-${process.arch} (there are ${PACKAGES.join(', ')}); ` +
			'Landlock is Linux-only');
	}
	const dir = installedDir(need);
	if (dir === null) {
		const other = PACKAGES.find((p) => installedDir(p) !== null);
		if (other) {
			throw codedError('LANDLOCK_RUN_WRONG_PLATFORM',
				`${other} is installed, but this machine needs ${need}: node_modules was installed for another ` +
				'cpu or os (npm --cpu/--os, or copied from another machine); run npm ci or npm install on this machine');
		}
		throw codedError('LANDLOCK_RUN_NOT_INSTALLED',
			`the launcher package ${need} is not installed: optional dependencies were omitted ` +
			'(--omit=optional, --no-optional) or skipped; reinstall with them (npm install --include=optional) ' +
			`rather than adding ${need} to your dependencies, which breaks installs on other platforms`);
	}
	const file = join(dir, 'bin', 'landlock-run');
	try {
		accessSync(file, constants.X_OK);
	} catch {
		throw codedError('LANDLOCK_RUN_NOT_INSTALLED', `the launcher ${file} is missing or not executable: reinstall ${need}`);
	}
	return file;
}

module.exports = { launcherPath, platformPackage };
