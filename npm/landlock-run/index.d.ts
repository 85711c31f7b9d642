// Type declarations for landlock-run. See README.md. Self-contained: no @types/node needed.
// With @types/node, spawnConfined() takes node:child_process's SpawnOptions and returns its
// ChildProcess; without, a small shape of each (WithNode below).

// @ts-ignore: without @types/node there is no such module: WithNode then picks the fallback
import type { ChildProcess as NodeChildProcess, SpawnOptions as NodeSpawnOptions } from 'node:child_process';

/** N where Node's types are present (@types/node declares the global `process`), else Fallback. */
type WithNode<N, Fallback> = typeof globalThis extends { process: unknown } ? N : Fallback;

/** A Landlock scope name accepted by `--scope`. */
export type Scope = 'abstract-unix' | 'signal';

/** A group of system calls the launcher's baseline refuses, named by `--allow-syscalls`. */
export type SyscallGroup = 'io_uring' | 'userns' | 'keyring' | 'bpf' | 'perf' | 'userfaultfd' | 'metadata';

/** Every system-call group this package knows, in the launcher's order. */
export declare const SYSCALL_GROUPS: readonly SyscallGroup[];

/** A port 0..65535, or a range of them 'A-B' with A <= B. */
export type Port = number | `${number}-${number}`;

/** Every scope name this package knows, in the launcher's order. */
export declare const SCOPES: readonly Scope[];

/**
 * A confinement policy: one field per launcher option, all optional; an unknown field is a
 * TypeError. grantArgs() emits the options in the order of these fields (POLICY_OPTIONS),
 * and within one field in the caller's order.
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
	 * Paths nothing beneath which can be read, listed or executed, though an `ro` path (or,
	 * with no `ro`/`roTry`, unconfined reading: then reading is confined to all but these)
	 * holds them: `--hide PATH`. The directories on the way to each can be entered but not
	 * listed, and what is made in them later is unreadable. A hidden path beneath an
	 * `rw`/`rwTry`/`unix` path, a grant within a hidden path, and `'/'` are refused (status 125).
	 */
	hide?: readonly string[];
	/** `--no-symlinks`: a grant path that goes through a symlink is refused (status 125). */
	noSymlinks?: boolean;
	/**
	 * Connecting to the UNIX socket at each path, or to those beneath each directory:
	 * `--unix PATH`. From Landlock ABI 9 every other pathname socket made outside the sandbox
	 * is out of reach (as writes are); below ABI 9 all are reachable and this changes nothing.
	 */
	unix?: readonly string[];
	/**
	 * TCP ports the command may bind, one `--tcp-bind N` per port: integers 0..65535, or
	 * ranges 'A-B' (A <= B) that allow each port from A to B.
	 * `'none'` or an empty array both mean "confine bind, allow no port" (`--tcp-bind none`).
	 * Leave it undefined to not confine bind at all. Needs Landlock ABI 4.
	 */
	tcpBind?: readonly Port[] | 'none';
	/** TCP ports the command may connect to; same rules as `tcpBind` (`--tcp-connect`). Needs ABI 4. */
	tcpConnect?: readonly Port[] | 'none';
	/** `--no-tcp`: the same as tcpBind and tcpConnect 'none'; given with either of them, a TypeError. */
	noTcp?: boolean;
	/**
	 * UDP ports the command may bind (`--udp-bind`), as for `tcpBind`. Port 0 is an ephemeral
	 * port, which a socket that sends before it binds takes: with udpBind given, a client
	 * needs 0 in it to send at all. Needs ABI 10.
	 */
	udpBind?: readonly Port[] | 'none';
	/** UDP ports the command may connect or send to (`--udp-connect`). Needs ABI 10. */
	udpConnect?: readonly Port[] | 'none';
	/** `--no-udp`: the same as udpBind and udpConnect 'none'; given with either of them, a TypeError. */
	noUdp?: boolean;
	/**
	 * `--no-network`: the command creates no socket but AF_UNIX, on every ABI, and where the
	 * ABI has them no TCP (ABI 4) or UDP (ABI 10) port is allowed either. A port list in
	 * tcpBind/tcpConnect/udpBind/udpConnect beside it is a TypeError ('none' is not).
	 */
	noNetwork?: boolean;
	/**
	 * `--no-unix`: the command creates no UNIX socket but a stream or seqpacket socketpair, on
	 * every ABI (EAFNOSUPPORT), so nothing outside the sandbox (an ssh-agent, docker.sock, a
	 * relay to the network) can be connected to, by path or abstract name; sockets it inherits
	 * keep working. The only control of pathname sockets below ABI 9. `'io_uring'` in
	 * allowSyscalls beside it is a TypeError.
	 */
	noUnix?: boolean;
	/** IPC scopes to confine, one `--scope S` each. Needs ABI 6. */
	scopes?: readonly Scope[];
	/**
	 * Groups of the baseline to allow, one `--allow-syscalls G` each: by default io_uring,
	 * user namespaces, the keyring, bpf, perf_event_open and userfaultfd are refused, and run
	 * as uid 0 setuid/setgid modes and extended attributes (`metadata`). `'io_uring'` with
	 * noNetwork is a TypeError.
	 */
	allowSyscalls?: readonly SyscallGroup[];
	/** `--log-subprocesses`: the audit log also gets the denials of the command and all it runs. Needs ABI 7. */
	logSubprocesses?: boolean;
	/** `--no-log`: log no denials before the exec. Needs ABI 7. */
	noLog?: boolean;
	/** `--no-log-nested`: log none of the sandboxes the command nests inside this one. Needs ABI 7. */
	noLogNested?: boolean;
	/**
	 * `--explain`: the launcher stays outside as an unconfined parent (the command runs as its
	 * child, with another pid) and prints a `landlock-run denied: ` line on stderr for each
	 * access the sandbox refuses, with the option that would allow it.
	 */
	explain?: boolean;
	/** `--explain-json FILE`: the same reports as JSON lines in FILE; read them with parseDenials(). */
	explainJson?: string;
	/**
	 * `--learn FILE`: run the command WITHOUT the sandbox (trusted commands only) and write the
	 * policy it needs to FILE, for `@FILE` on a later run, which reads it only from
	 * `~/.config/landlock-run/` (`$XDG_CONFIG_HOME`) or `/etc/landlock-run/` (a FILE elsewhere is
	 * still written, and stderr says where to move it). Takes no other field but hide,
	 * keepCaps, abi and verbose (a TypeError otherwise); the hidden paths stay unreadable.
	 */
	learn?: string;
	/** `--keep-caps`: keep the caller's capabilities (dangerous: root keeps every privilege); by default the command gets none. */
	keepCaps?: boolean;
	/** `--new-session`: the command runs in a new session, without a controlling terminal. */
	newSession?: boolean;
	/**
	 * `--die-with-parent`: when the launcher's parent exits, the command and everything it
	 * started are killed (the whole-tree mode, as `killTree`).
	 */
	dieWithParent?: boolean;
	/**
	 * `--kill-tree`: the whole-tree mode. The launcher stays the command's parent, and when the
	 * command exits (or the launcher gets SIGTERM, SIGINT, SIGHUP or SIGQUIT, or SIGKILL) every
	 * process the command started is killed: background jobs, daemons, a fork loop. The command
	 * then runs as the launcher's grandchild, with another pid. On with explain, explainJson,
	 * learn and dieWithParent, and always in spawnConfined(), which refuses `false` (its
	 * `--status-fd` needs the mode): spawn command()'s argv for a run that execs the command.
	 */
	killTree?: boolean;
	/**
	 * `--private-tmp`: a new directory of the run's own in `/tmp` (`landlock-run.` and ten random
	 * letters), mode 0700, the caller's, granted read-write; `TMPDIR`, `TMP`, `TEMP` and `TEMPDIR`
	 * name it. It is removed with everything in it once the whole tree has ended (it implies
	 * `killTree`), also after a SIGTERM or a launcher failure. The host's `/tmp` is hidden unless a
	 * grant names it (a grant within `/tmp` is granted alone). A program that writes a fixed
	 * `/tmp` path, not `$TMPDIR`, is refused there.
	 */
	privateTmp?: boolean;
	/** `--close-fds`: every descriptor above 2 is closed when the command starts. */
	closeFds?: boolean;
	/** `--clearenv`: the command starts with an empty environment (before setenv and unsetenv). */
	clearenv?: boolean;
	/** `--setenv VAR=VALUE` each, in your order, after clearenv. */
	setenv?: readonly string[];
	/** `--unsetenv VAR` each, after setenv. */
	unsetenv?: readonly string[];
	/** Behave as if the kernel's Landlock ABI were min(abi, real): `--abi N`. A positive integer. */
	abi?: number;
	/** `--strict`: refuse to run (status 125) unless every filesystem right is enforced (ABI 9+). */
	strict?: boolean;
	/** `--verbose`: the launcher prints the effective policy to stderr (`landlock-run policy: ` lines). */
	verbose?: boolean;
}

/** What a denial refused; `errno` the error the call got. */
export type DenialErrno = 'EACCES' | 'EPERM' | 'EXDEV';
/** What the system-call filter answers a call it refuses: a kernel without that call (EOPNOTSUPP: root's xattr calls, a filesystem without xattrs; ENODEV: root's shared mapping of a file, a filesystem without mmap). */
export type FilterErrno = 'EAFNOSUPPORT' | 'ENOSYS' | 'EPERM' | 'EACCES' | 'EOPNOTSUPP' | 'ENODEV';

interface DenialBase {
	/** The process that made the call (a thread's call is its process's). */
	pid: number;
	/** Its name (comm). */
	comm: string;
	/** The system call, as this architecture names it: `openat`, `execve`, `connect`... */
	syscall: string;
	/** The first of `rights`. */
	right: string;
	/** The rights refused, as `-v` names them: `make_reg`, `write_file`, `tcp_connect`, `signal`... */
	rights: string[];
	errno: DenialErrno;
	/**
	 * The options that would allow it, e.g. `['--rw', '/etc']`, or two pairs; empty when no
	 * option does (see `hidden`, `hiddenBeneath`, `remove`) or none is advised (see `why`).
	 */
	allow: string[];
	/**
	 * The grant that would allow it is never advised (`/proc/PID`, `/proc/sys`, `$HOME` and
	 * the directories above it...; landlock-run(1), NEVER ADVISED), and why.
	 */
	why?: string;
	/** `allow` cannot be added beside this option (`--tcp-bind none`, `--no-tcp`): replace it. */
	replace?: string;
	/** The `--hide` path the object is in: no grant may reveal it. */
	hidden?: string;
	/** The `--hide` path beneath the object (a directory on its way): no grant allows it. */
	hiddenBeneath?: string;
	/**
	 * `'mode_bits'`: the file's mode bits (or its ACL) refuse it too. Landlock refused it
	 * first (the kernel asks it before the mode bits for a creation, removal, rename or
	 * link), so the grant in `allow` is needed but alone does not make the call work.
	 */
	alsoRefusedBy?: 'mode_bits';
}

/** A file: `path` is canonical (for something to be made, its directory's path and the name). */
export interface FsDenial extends DenialBase {
	kind: 'fs';
	path: string;
	/** The exact bytes of the path (a path need not be valid UTF-8). */
	pathBytes: Uint8Array;
	/**
	 * The denials of one kind beneath `/proc/PID` (the same rights, call, `comm` and advice):
	 * `path` with the process's number as `PID` (and a thread's as `TID`), e.g.
	 * `/proc/PID/status`; `path` is the first of them, `pid` the process that made it.
	 */
	pattern?: string;
	/** With `pattern`: how many processes (threads, for a pattern with `TID`), 2 or more. */
	count?: number;
}

/** A TCP or UDP port (`--tcp-bind`, `--tcp-connect`, `--udp-bind`, `--udp-connect`). */
export interface NetDenial extends DenialBase {
	kind: 'net';
	port: number;
}

/** A scope: a signal to `target` (a pid), or a connection to the abstract socket `path` (@name). */
export interface ScopeDenial extends DenialBase {
	kind: 'scope';
	/** The scope to leave out of `scopes` to allow it. */
	scope: Scope;
	target?: number;
	path?: string;
	pathBytes?: Uint8Array;
}

/** A call the system-call filter refused: `--no-network`, or a group of the baseline. */
export interface SyscallDenial extends Omit<DenialBase, 'errno'> {
	kind: 'syscall';
	/** `network`, or the `--allow-syscalls` group: `userns`, `keyring`, `bpf`... */
	right: string;
	errno: FilterErrno;
	/** For a socket: the family refused, `AF_INET`... */
	family?: string;
	/** The option to leave out to allow it (`--no-network`). */
	remove?: string;
}

/**
 * A call only a capability the launcher dropped refuses (`errno` EPERM): a change of owner
 * (`right` `cap_chown`), of mode or times of someone else's file (`cap_fowner`), a device
 * made (`cap_mknod`). No grant gives it back: `allow` is empty, and `why` says so.
 */
export interface CapabilityDenial extends DenialBase {
	kind: 'capability';
	right: 'cap_chown' | 'cap_fowner' | 'cap_mknod';
	path: string;
	/** The exact bytes of the path (a path need not be valid UTF-8). */
	pathBytes: Uint8Array;
	why: string;
}

/** The report's last line when more denials happened than it lists (10,000 distinct ones). */
export interface UnlistedDenials {
	kind: 'unlisted';
	/** How many were not listed, repeats counted. */
	denials: number;
}

/**
 * A line at the report's end when processes that made themselves non-dumpable (ssh, gpg-agent)
 * had calls fail that the tracer could not look into: the report may lack their denials.
 */
export interface UnseenCalls {
	kind: 'unseen';
	/** How many failed calls could not be examined. */
	calls: number;
	/** The first such process. */
	pid: number;
	comm: string;
}

export type Denial =
	| FsDenial
	| NetDenial
	| ScopeDenial
	| SyscallDenial
	| CapabilityDenial
	| UnlistedDenials
	| UnseenCalls;

/**
 * The denials of an `--explain-json` report (its text, or the bytes read from the file), in
 * the order the launcher reported them. A last line without its newline (the launcher killed
 * while writing it) is left out.
 * @throws {TypeError} for a line that is not a denial as landlock-run(1) documents it.
 */
export declare function parseDenials(data: string | Uint8Array): Denial[];

/** Each Policy field and the launcher option it becomes, in grantArgs() order. */
export declare const POLICY_OPTIONS: Readonly<Record<keyof Policy, string>>;

/** The code of an Error thrown by launcherPath() (and command()). */
export type LauncherErrorCode =
	| 'LANDLOCK_RUN_UNSUPPORTED_PLATFORM'
	| 'LANDLOCK_RUN_WRONG_PLATFORM'
	| 'LANDLOCK_RUN_NOT_INSTALLED';

export interface LauncherError extends Error {
	code: LauncherErrorCode;
}

/**
 * Absolute path of this machine's launcher binary (from @landlock-run/<platform>-<arch>).
 * No environment variable changes it: pass `{ launcher }` to command() or probe() instead.
 * @throws {LauncherError} UNSUPPORTED_PLATFORM: no package for this os/cpu; WRONG_PLATFORM:
 * only another os/cpu's package is installed (npm --cpu/--os, a copied node_modules);
 * NOT_INSTALLED: the package is absent (e.g. `--omit=optional`) or its binary is not executable.
 */
export declare function launcherPath(): string;

/**
 * The launcher options for `policy`, e.g. `{ro: ['/'], rw: ['/tmp']}` gives
 * `['--ro', '/', '--rw', '/tmp']`.
 * @throws {TypeError} for an unknown field, an empty / non-string / NUL-containing path or `'--'`,
 * a port outside 0..65535, an unknown scope, a non-positive-integer abi, a non-boolean flag,
 * noTcp together with tcpBind or tcpConnect.
 */
export declare function grantArgs(policy?: Policy): string[];

export interface CommandOptions {
	/** The launcher binary to use instead of launcherPath(). */
	launcher?: string;
}

/**
 * `[launcher, ...grantArgs(policy), '--', ...argv]`, ready for
 * `child_process.spawn(cmd[0], cmd.slice(1))`. The command is looked up in PATH after
 * confinement. Exit status 125 is the launcher's failure (the command never ran), 126/127:
 * cannot execute / not found; but the command can exit with those itself, and print the
 * launcher's `landlock-run: ` line too: spawnConfined() tells them apart.
 * @throws {TypeError} for a bad policy, argv or launcher; {LauncherError} as launcherPath()
 * when no launcher is given.
 */
export declare function command(policy: Policy | undefined, argv: readonly string[], options?: CommandOptions): string[];

/** What spawnConfined() takes without @types/node (with it: node:child_process's SpawnOptions). */
export interface SpawnOptionsFallback {
	cwd?: string;
	env?: Record<string, string | undefined>;
	/** As for child_process.spawn, except index 3, which is the status pipe. */
	stdio?: string | readonly unknown[];
	argv0?: string;
	detached?: boolean;
	uid?: number;
	gid?: number;
	timeout?: number;
	killSignal?: string | number;
}

/**
 * The options of spawnConfined(): child_process.spawn's (stdio index 3 excepted), `launcher`
 * as for command(), and no `shell` (a TypeError: run `['sh', '-c', script]` as argv instead).
 */
export type SpawnConfinedOptions = WithNode<Omit<NodeSpawnOptions, 'shell'>, SpawnOptionsFallback> & CommandOptions & { shell?: false };

/** What spawnConfined() returns as the child without @types/node (with it: node:child_process's ChildProcess). */
export interface ChildProcessFallback {
	/** The launcher's pid; undefined when it could not be spawned. */
	readonly pid?: number;
	readonly exitCode: number | null;
	readonly signalCode: string | null;
	readonly stdio: readonly unknown[];
	kill(signal?: string | number): boolean;
	on(event: string, listener: (...args: any[]) => void): this;
	once(event: string, listener: (...args: any[]) => void): this;
}

/** The launcher's process: node:child_process's ChildProcess (with @types/node). */
export type ConfinedChild = WithNode<NodeChildProcess, ChildProcessFallback>;

/** What the launcher enforces: 'none' under `learn`, which runs the command unconfined. */
export type Enforcement = 'full' | 'partial' | 'none';

/**
 * How the run ended, from the end record the launcher writes last on its status descriptor,
 * once nothing COMMAND started is left: `{"exit":N}` or `{"signal":"NAME"}`. Exactly one of
 * `exit` and `signal` is set when the record came; both are null when it did not: the
 * launcher failed before it read `--status-fd` (a usage error), could not be spawned, or was
 * killed together with its supervisor (with `executed: true`, what COMMAND started may then
 * still be running). A SIGKILL to the launcher alone (`child.kill('SIGKILL')`) is not that
 * case: its supervisor ends the tree and writes `{"signal":"SIGKILL"}`.
 */
export interface ConfinedEnd {
	/**
	 * The status the launcher exits with: COMMAND's own once it ran, 125 on a launcher failure,
	 * 126 or 127 when the exec failed; null with a signal or without an end record.
	 */
	exit: number | null;
	/**
	 * The signal the launcher dies of, as kill(1) names it (`'SIGKILL'`, `'SIGTERM'`; a
	 * real-time one as `'SIG34'`): the one that killed COMMAND, or the one the launcher got
	 * (child.kill(), spawn's `timeout`); null with an exit status or without an end record.
	 */
	signal: string | null;
}

/** COMMAND was executed (under `enforcement`); the launcher may still have failed after it ran. */
export interface ConfinedExecuted extends ConfinedEnd {
	executed: true;
	/** The pid COMMAND runs as: the launcher's grandchild (the launcher and its supervisor stay outside). */
	pid: number;
	/** The kernel's Landlock ABI. */
	abi: number;
	/** The ABI the launcher uses. */
	abiUsed: number;
	enforcement: Enforcement;
	/** 125 when the launcher failed after COMMAND ran (a `learn` policy it could not write); else null. */
	status: number | null;
	/** That failure's `landlock-run: ` line; else null. */
	error: string | null;
}

/** COMMAND was not executed: never fall back to running it unconfined. */
export interface ConfinedNotExecuted extends ConfinedEnd {
	executed: false;
	/** Set when the launcher got as far as its pid line (an exec that then failed). */
	pid: number | null;
	abi: number | null;
	abiUsed: number | null;
	enforcement: Enforcement | null;
	/**
	 * 125: the launcher failed; 126, 127: the exec failed (cannot execute, not found). When the
	 * launcher reported nothing (a usage error before --status-fd, or it was killed): its exit
	 * status, or null when killed or when it could not be spawned.
	 */
	status: number | null;
	/** The launcher's `landlock-run: ` line (as on its stderr), or what else went wrong. */
	error: string;
}

/** What the launcher reported on its status descriptor; narrows on `executed`. */
export type ConfinedStatus = ConfinedExecuted | ConfinedNotExecuted;

export interface Confined {
	/** The launcher's process (with its stdio as you asked for it, and the status pipe at stdio[3]). */
	child: ConfinedChild;
	/**
	 * Settles when the status descriptor reaches EOF, after the end record, once the whole tree
	 * has ended (the launcher stays COMMAND's parent) or the launcher failed. Never rejects.
	 * Attach to child's streams before awaiting it: Node drops what an exited child's unread
	 * pipes hold.
	 */
	status: Promise<ConfinedStatus>;
}

/**
 * Spawn `[launcher, '--status-fd', '3', ...grantArgs({ ...policy, killTree: true }), '--',
 * ...argv]` with these child_process.spawn options and a pipe as the launcher's descriptor
 * 3, on which it reports whether COMMAND was executed and how the run ended (see
 * --status-fd in landlock-run(1)). Only the launcher writes that pipe (it is close-on-exec:
 * COMMAND never holds it), so unlike isLauncherFailure() the result cannot be forged by the
 * command. In the whole-tree mode (`killTree`), `child.kill()` and spawn's `timeout`, which
 * signal the launcher alone, end everything COMMAND started: SIGTERM is passed on to COMMAND
 * and a second later the tree is killed; SIGKILL kills it at once.
 * @throws {TypeError} for a bad policy, argv or launcher, `killTree: false`, a `shell`, or a
 * `stdio` with an entry at index 3 (pass your own descriptors at 4 and above);
 * {LauncherError} as launcherPath() when no launcher is given.
 */
export declare function spawnConfined(policy: Policy | undefined, argv: readonly string[], options?: SpawnConfinedOptions): Confined;

export interface ProbeOptions {
	/** Launcher to ask; defaults to launcherPath(). */
	launcher?: string;
	/** Give up (and kill the probe) after this many milliseconds; default 10000. */
	timeoutMs?: number;
	/** Also check that this policy can be enforced (e.g. tcpBind needs ABI 4, a grant path must exist). */
	policy?: Policy;
}

/** Why a probe is unusable. */
export type ProbeErrorCode =
	/** launcherPath() found no package for this os/cpu. */
	| 'UNSUPPORTED_PLATFORM'
	/** Only another os/cpu's platform package is installed. */
	| 'WRONG_PLATFORM'
	/** The platform package or the launcher file is missing. */
	| 'NOT_INSTALLED'
	/** The launcher refused: this host cannot confine (no Landlock, disabled, self-test failed). */
	| 'NO_LANDLOCK'
	/**
	 * The launcher refused: a seccomp filter (a container runtime's profile) refuses the Landlock
	 * system calls; the kernel may well have Landlock. Allow them in the profile.
	 */
	| 'SECCOMP'
	/** The launcher refused the policy, though it confines without one (a missing grant path, an option the ABI lacks). */
	| 'POLICY'
	/** The probe did not finish within timeoutMs. */
	| 'TIMEOUT'
	/** The probe was killed by a signal. */
	| 'SIGNAL'
	/** The launcher could not be run, or failed without its `landlock-run: ` line. */
	| 'EXEC'
	/** The launcher printed something other than its JSON report. */
	| 'OUTPUT'
	/** probe() was given bad options (a TypeError's message is in `error`). */
	| 'OPTIONS';

/**
 * What the place the launcher runs in stands in the way of: `seccomp_filter`, it runs under a
 * seccomp filter it did not install (a container's profile); `ptrace_refused`, its own child
 * cannot be traced (Yama's ptrace_scope, a profile without ptrace); `proc_missing`, /proc is
 * not mounted. New words may appear.
 */
export type Where = 'seccomp_filter' | 'ptrace_refused' | 'proc_missing';

/** This kernel confines: `enforcement` says how fully. */
export interface ProbeEnforced {
	enforced: true;
	/** 'full': the ABI in use enforces every filesystem right the launcher knows; 'partial': an older ABI. */
	enforcement: 'full' | 'partial';
	/** The kernel's Landlock ABI version. */
	abi: number;
	/** The ABI the launcher uses (after `policy.abi` and its own known maximum). */
	abiUsed: number;
	/** The kernel's Landlock errata bitmask; null when the kernel does not say. */
	errata: number | null;
	/** Whether connecting to pathname UNIX sockets made outside the sandbox is confined (ABI >= 9). */
	pathnameSockets: boolean;
	/** Whether TCP bind/connect can be confined (ABI >= 4). */
	tcp: boolean;
	/** Whether UDP bind/connect/send can be confined (ABI >= 10). */
	udp: boolean;
	/** The scopes that can be confined (ABI >= 6). */
	scopes: Scope[];
	/**
	 * What this policy confines of the network: 'all' (`noNetwork`: no socket but AF_UNIX), the
	 * protocols whose ports Landlock confines ('tcp', 'udp', 'tcp,udp'), or 'nothing'.
	 */
	networkConfined: 'all' | 'tcp' | 'udp' | 'tcp,udp' | 'nothing';
	/**
	 * @deprecated The same as `networkConfined`, with 'none' for 'nothing' (which read as "no
	 * network"); kept until the next release.
	 */
	network: string;
	/** The system-call groups this policy's filter refuses (and the probe proved or could not). */
	baseline: SyscallGroup[];
	/** Whether this policy's filter refuses UNIX sockets (`noUnix`), proven. */
	noUnix: boolean;
	/** Whether `explain`, `explainJson` and `learn` can work here: the probe traced a child of its own, and /proc is mounted. */
	explain: boolean;
	/** What stands in the way here (see Where); [] when nothing does. */
	where: Where[];
	code: null;
	error: null;
}

/** No confinement here (or not of this policy): `code` says why, `error` in words. */
export interface ProbeUnusable {
	enforced: false;
	enforcement: 'unusable';
	abi: null;
	abiUsed: null;
	errata: null;
	pathnameSockets: false;
	tcp: false;
	udp: false;
	scopes: [];
	networkConfined: 'nothing';
	/** @deprecated see ProbeEnforced.network */
	network: 'none';
	baseline: [];
	noUnix: false;
	explain: false;
	/** ['seccomp_filter'] with code SECCOMP, else []. */
	where: Where[];
	code: ProbeErrorCode;
	/** The launcher's `landlock-run: ` line, or what else went wrong. */
	error: string;
}

/** A discriminated union on `enforced` (and `enforcement`). */
export type ProbeResult = ProbeEnforced | ProbeUnusable;

/**
 * Run `launcher --probe --json [policy options]` and report what this kernel enforces.
 * Never throws and never rejects; cache the result if you call it often.
 */
export declare function probe(options?: ProbeOptions): Promise<ProbeResult>;

/**
 * True for status 125 together with a stderr line starting `landlock-run: `, the sign of a
 * launcher failure, for callers that cannot pass a status descriptor. A command can forge
 * it: it can print such a line and exit 125 itself (a nested landlock-run that failed does
 * so honestly), so true does not prove the command never ran. Never fall back to an
 * unconfined run on it: use spawnConfined(), whose status the command cannot write.
 */
export declare function isLauncherFailure(
	status: number | null | undefined,
	stderr: string | Uint8Array | null | undefined,
): boolean;
