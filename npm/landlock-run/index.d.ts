// Type declarations for landlock-run (ESM). See README.md.

/** A Landlock scope name accepted by `--scope`. */
export type Scope = 'abstract-unix' | 'signal';

/** Every scope name this package knows, in the launcher's order. */
export declare const SCOPES: readonly Scope[];

/**
 * A confinement policy. Every field is optional; unknown fields are a TypeError.
 * grantArgs() emits the options in the order of these fields, and within one
 * field in the caller's order.
 */
export interface Policy {
	/** Read-only (execute, read file, read dir) beneath each path: `--ro PATH`. Giving any ro/roTry path confines reads and exec too. */
	ro?: readonly string[];
	/** Every handled right beneath each path: `--rw PATH`. */
	rw?: readonly string[];
	/** Like `ro`, but a missing path is skipped: `--ro-try PATH`. */
	roTry?: readonly string[];
	/** Like `rw`, but a missing path is skipped: `--rw-try PATH`. */
	rwTry?: readonly string[];
	/**
	 * TCP ports the command may bind, one `--tcp-bind N` per port (integers 0..65535).
	 * `'none'` or an empty array both mean "confine bind, allow no port" (`--tcp-bind none`).
	 * Leave it undefined to not confine bind at all. Needs Landlock ABI 4.
	 */
	tcpBind?: readonly number[] | 'none';
	/** TCP ports the command may connect to; same rules as `tcpBind` (`--tcp-connect`). Needs ABI 4. */
	tcpConnect?: readonly number[] | 'none';
	/** IPC scopes to confine, one `--scope S` each. Needs ABI 6. */
	scopes?: readonly Scope[];
	/** Behave as if the kernel's Landlock ABI were min(abi, real): `--abi N`. A positive integer. */
	abi?: number;
	/** Refuse to run (status 125) unless at least ABI 5 is in use: `--strict`. */
	strict?: boolean;
}

/** The code of an Error thrown by launcherPath() (and command()). */
export type LauncherErrorCode = 'LANDLOCK_RUN_UNSUPPORTED_PLATFORM' | 'LANDLOCK_RUN_NOT_INSTALLED';

export interface LauncherError extends Error {
	code: LauncherErrorCode;
}

/**
 * Absolute path of this machine's launcher binary (from @landlock-run/<platform>-<arch>).
 * @throws {LauncherError} code LANDLOCK_RUN_UNSUPPORTED_PLATFORM when no package exists for
 * this os/cpu, LANDLOCK_RUN_NOT_INSTALLED when the package is absent (e.g. `--omit=optional`)
 * or its binary is missing or not executable.
 */
export declare function launcherPath(): string;

/**
 * The launcher options for `policy`, e.g. `{ro: ['/'], rw: ['/tmp']}` gives
 * `['--ro', '/', '--rw', '/tmp']`.
 * @throws {TypeError} for an unknown field, an empty / non-string / NUL-containing path or `'--'`,
 * a port outside 0..65535, an unknown scope, a non-positive-integer abi, a non-boolean strict.
 */
export declare function grantArgs(policy?: Policy): string[];

/**
 * `[launcherPath(), ...grantArgs(policy), '--', ...argv]`, ready for
 * `child_process.spawn(cmd[0], cmd.slice(1))`. The command is looked up in PATH after
 * confinement. Exit status 125 with a `landlock-run: ` stderr line means the launcher
 * failed and the command never ran (see isLauncherFailure); 126/127: cannot execute / not found.
 * @throws {TypeError} for a bad policy or an empty argv; {LauncherError} as launcherPath().
 */
export declare function command(policy: Policy | undefined, argv: readonly string[]): string[];

export interface ProbeOptions {
	/** Launcher to ask; defaults to launcherPath(). */
	launcher?: string;
	/** Give up (and kill the probe) after this many milliseconds; default 10000. */
	timeoutMs?: number;
	/** Also check that this policy can be enforced (e.g. tcpBind needs ABI 4, strict needs 5). */
	policy?: Policy;
}

export interface ProbeResult {
	/** True when Landlock confines on this kernel (enforcement 'full' or 'partial'). */
	enforced: boolean;
	/**
	 * 'full': the ABI in use handles every filesystem right the launcher knows (ABI >= 5);
	 * 'partial': an older ABI, some rights are not confinable;
	 * 'unusable': no confinement possible here (see `error`).
	 */
	enforcement: 'full' | 'partial' | 'unusable';
	/** The kernel's Landlock ABI version; null when unusable. */
	abi: number | null;
	/** The ABI the launcher uses (after `policy.abi` and its own known maximum); null when unusable. */
	abiUsed: number | null;
	/** The kernel's Landlock errata bitmask; null when unknown or unusable. */
	errata: number | null;
	/** Whether TCP bind/connect can be confined (ABI >= 4). */
	tcp: boolean;
	/** The scopes that can be confined (ABI >= 6). */
	scopes: Scope[];
	/**
	 * null when enforced; otherwise why not: the launcher's `landlock-run: ` line (e.g. the
	 * kernel lacks Landlock), a LANDLOCK_RUN_* code and message, a timeout or a signal.
	 */
	error: string | null;
}

/**
 * Run `launcher --probe --json [policy options]` and report what this kernel enforces.
 * Never throws and never rejects; cache the result if you call it often.
 */
export declare function probe(options?: ProbeOptions): Promise<ProbeResult>;

/**
 * True only for status 125 together with a stderr line starting `landlock-run: `: the
 * launcher failed and the command never ran. A command that itself exits 125 gives false
 * (unless it printed such a line, e.g. a nested landlock-run that failed).
 */
export declare function isLauncherFailure(
	status: number | null | undefined,
	stderr: string | Buffer | null | undefined,
): boolean;
