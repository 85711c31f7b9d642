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

/**
 * Synchronously run `launcher --probe` (default launcherPath()) and map its verdict line;
 * never throws. The verdict line is the whole of standard output, with or without its
 * newline: exit 0 with exactly `landlock: fully enforced` is 'full', exit 0 with exactly
 * `landlock: partially enforced (older ABI)` is 'partial'. Anything else is 'unusable':
 * other output (a second line included), a non-zero exit (125 included), a signal, a
 * launcher that cannot be run, or no exit within `timeoutMs` (default 10000; it is then
 * killed). Standard error is not read.
 */
export declare function probe(launcher?: string, options?: { timeoutMs?: number }): ProbeVerdict;

/**
 * The launcher's own failure status. With a `landlock-run: ` stderr line it says the
 * command never ran, but the command can print that line and exit 125 itself: never fall
 * back to an unconfined run on it (landlock-run's spawnConfined() tells them apart).
 */
export declare const LAUNCHER_FAILURE_EXIT: 125;

/** The launcher's name, as in node_modules/.bin. */
export declare const LAUNCHER_BIN: 'landlock-run';
