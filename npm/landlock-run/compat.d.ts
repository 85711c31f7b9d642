// Type declarations for landlock-run/compat: the agent harness's launcher module shapes.
// Self-contained: no @types/node needed.

/**
 * This machine's launcher binary; never throws. `resolvePackageJson` (default
 * require.resolve) receives '<platform package>/package.json' and returns its absolute
 * path, or throws when that package is not installed; then the result is the absolute path
 * `<landlock-run>/node_modules/<platform package>/bin/landlock-run`, which does not exist.
 */
export declare function launcherPath(resolvePackageJson?: (request: string) => string): string;

export interface Grants {
	/** `--ro PATH` each, in order. */
	readOnly?: readonly string[];
	/** `--rw PATH` each, in order, after the readOnly ones. */
	readWrite?: readonly string[];
}

/** `['--ro', P, ..., '--rw', P, ...]`. @throws {TypeError} for another field or a bad path. */
export declare function grantArgs(grants: Grants): string[];

export type ProbeVerdict = 'full' | 'partial' | 'unusable';

/** Synchronously ask `launcher` (default launcherPath()) what this kernel enforces; never throws. */
export declare function probe(launcher?: string, options?: { timeoutMs?: number }): ProbeVerdict;

/** The launcher's own failure status: with a `landlock-run: ` stderr line, the command never ran. */
export declare const LAUNCHER_FAILURE_EXIT: 125;

/** The launcher's name, as in node_modules/.bin. */
export declare const LAUNCHER_BIN: 'landlock-run';
