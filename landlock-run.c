/*
 * landlock-run: run a command under the Landlock LSM.
 *
 * main() is the story of the process narrowing: parse the command line,
 * ask the kernel which Landlock ABI it has and plan the policy for it,
 * build the ruleset from the grants, then either prove enforcement
 * (--probe) or set no_new_privs, restrict itself, install the system-call
 * filter, drop its capabilities and exec the command.
 * Any failure before exec is exit 125 with one "landlock-run: " line; the
 * command never runs unconfined.
 *
 * Each step's file has a header of its own (policy.h holds the types they
 * share); README.md's Layout lists them in the order main() runs them. The
 * launcher forks with _Fork(), not fork(): it has one thread and no atfork
 * handler, and musl's fork() would bring 2.5 KiB of thread locks, a clock
 * and the vDSO lookup along for nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <termios.h>
#include <unistd.h>

#include "abi.h"
#include "argfile.h"
#include "fd.h"
#include "grants.h"
#include "guard.h"
#include "hide.h"
#include "inherit.h"
#include "interp.h"
#include "out.h"
#include "probe.h"
#include "seccomp.h"
#include "status.h"
#include "supervise.h"
#include "tmpdir.h"
#include "trace/trace.h"

static const char usage_text[] =
	"Usage: landlock-run [OPTION]... -- COMMAND [ARG]...\n"
	"       landlock-run --learn FILE -- COMMAND [ARG]...\n"
	"       landlock-run --probe [--json] [OPTION]...\n"
	"       landlock-run --help | --version\n"
	"\n"
	"Run COMMAND under the Linux Landlock LSM. Writes, and connecting to UNIX\n"
	"sockets bound to a path (ABI 9+), are denied everywhere but beneath --rw\n"
	"grants; once any --ro grant is given, reading and executing are confined\n"
	"to --ro and --rw grants too. COMMAND gets no capabilities, even run by root,\n"
	"cannot push input into a terminal, and is refused the baseline's calls.\n"
	"\n"
	"Filesystem:\n"
	"  --ro PATH            read files, list directories and execute beneath PATH\n"
	"  --rw PATH            every handled right beneath PATH: also write, truncate,\n"
	"                       create, remove, rename, device ioctl, connect to sockets\n"
	"  --ro-try PATH        like --ro, but skip PATH when it does not exist\n"
	"  --rw-try PATH        like --rw, but skip PATH when it does not exist\n"
	"  --hide PATH          withhold PATH from reading, listing and executing, even\n"
	"                       beneath --ro (with no --ro, all else stays readable);\n"
	"                       the directories on the way to it can be entered, not\n"
	"                       listed, and what is made in them later is unreadable\n"
	"  --no-symlinks        refuse a grant or hidden PATH that goes through a symlink\n"
	"Network and IPC:\n"
	"  --unix PATH          allow connecting to the UNIX socket PATH, or to those\n"
	"                       beneath the directory PATH (needs ABI 9 to matter)\n"
	"  --tcp-bind PORTS     allow TCP bind only to PORTS: a comma list of ports and\n"
	"                       ranges A-B, or none\n"
	"  --tcp-connect PORTS  allow TCP connect only to PORTS (the same)\n"
	"  --no-tcp             same as --tcp-bind none --tcp-connect none\n"
	"  --udp-bind PORTS     allow UDP bind only to PORTS; 0 is an ephemeral port,\n"
	"                       which sending from an unbound socket needs (ABI 10)\n"
	"  --udp-connect PORTS  allow UDP connect and send only to PORTS (ABI 10)\n"
	"  --no-udp             same as --udp-bind none --udp-connect none\n"
	"  --no-network         no socket but AF_UNIX (any ABI), no port where the ABI\n"
	"                       has rules; UNIX sockets keep theirs (--unix, --scope)\n"
	"  --no-unix            no UNIX socket but a stream or seqpacket socketpair\n"
	"                       (any ABI): nothing outside, pathname or abstract, can\n"
	"                       be connected to; inherited sockets keep working\n"
	"  --scope KINDS        signal, abstract-unix: nothing outside the sandbox\n"
	"                       can be signalled or reached by abstract UNIX socket\n"
	"Audit log:\n"
	"  --log-subprocesses   also log denials after exec: COMMAND and what it runs\n"
	"  --no-log             log no denials before exec (e.g. of COMMAND itself)\n"
	"  --no-log-nested      log no denials of sandboxes nested inside this one\n"
	"Explaining denials:\n"
	"  --explain            report on stderr each access the sandbox refuses, and\n"
	"                       the option that would allow it (COMMAND runs as a child\n"
	"                       of landlock-run, traced with ptrace)\n"
	"  --explain-json FILE  the same as JSON, one object per line in FILE\n"
	"  --learn FILE         run COMMAND WITHOUT THE SANDBOX (trusted commands only)\n"
	"                       and write the policy it needs to FILE, to run it again\n"
	"                       with landlock-run @FILE -- COMMAND (--hide still hides)\n"
	"                       (FILE, as --explain-json's: not a symlink, replaced\n"
	"                       whole, mode 0600, outside every write grant; or\n"
	"                       /dev/fd/N, a pipe or socket); FILE outside the policy\n"
	"                       directories (see @FILE) is said before and after\n"
	"System calls:\n"
	"  --allow-syscalls GROUPS\n"
	"                       allow what the baseline refuses, of: io_uring, userns,\n"
	"                       keyring, bpf, perf, userfaultfd, metadata (for uid 0)\n"
	"Process:\n"
	"  --keep-caps          keep the caller's capabilities (dangerous: root stays root)\n"
	"  --new-session        run COMMAND in a new session: no controlling terminal\n"
	"  --kill-tree          stay COMMAND's parent, and when it exits (or the launcher\n"
	"                       gets SIGTERM, SIGINT, SIGHUP or SIGQUIT) kill every\n"
	"                       process it started (also on with --die-with-parent,\n"
	"                       with --explain, --learn and --status-fd, for a\n"
	"                       process group leader's --new-session, and when 0, 1\n"
	"                       or 2 is a terminal or the caller has a controlling\n"
	"                       terminal); COMMAND\n"
	"                       cannot stop or kill the launcher (or the tracer) of\n"
	"                       the mode\n"
	"  --private-tmp        a new directory of the run's own, 0700, in /tmp, granted\n"
	"                       read-write and named by TMPDIR, TMP, TEMP and TEMPDIR;\n"
	"                       removed with all in it when the run ends (the option\n"
	"                       implies the whole-tree mode); the host's /tmp is then\n"
	"                       hidden, unless a grant names it\n"
	"  --die-with-parent    end COMMAND and all it started when the caller of\n"
	"                       landlock-run exits\n"
	"  --close-fds          close the descriptors above 2 that COMMAND would inherit\n"
	"  --clearenv           empty COMMAND's environment\n"
	"  --setenv VAR=VALUE   set VAR in it (these three in command-line order)\n"
	"  --unsetenv VAR       remove VAR from it\n"
	"Policy:\n"
	"  --abi N              use at most Landlock ABI N (1 to 10)\n"
	"  --strict             fail unless every filesystem right is enforced (ABI 9+)\n"
	"  --probe              prove that this host enforces the policy; run nothing\n"
	"  --json               with --probe, print one JSON object\n"
	"  -v, --verbose        print the effective policy to stderr before running;\n"
	"                       with --probe, also the whole report on stdout\n"
	"  --status-fd FD       report on descriptor FD (above 2, which COMMAND never\n"
	"                       holds) as JSON lines whether COMMAND ran and, once all\n"
	"                       it started is gone, {\"exit\":N} or {\"signal\":\"NAME\"};\n"
	"                       FD: a pipe, a socket, or a file outside every write\n"
	"                       grant\n"
	"  @FILE                before --: the arguments in FILE, one per line (lines\n"
	"                       empty or starting with # are skipped); FILE must be\n"
	"                       in ~/.config/landlock-run ($XDG_CONFIG_HOME) or\n"
	"                       /etc/landlock-run, yours or root's, writable by no\n"
	"                       one else; or a pipe (/dev/stdin). No --rw may be on,\n"
	"                       above or in those directories\n"
	"  -h, --help           print this help and exit\n"
	"  -V, --version        print the version and exit\n"
	"\n"
	"Exit status: 125 if landlock-run failed (COMMAND did not run), 126 if COMMAND\n"
	"could not be executed, 127 if it was not found, else the status of COMMAND.\n";

enum option_id {
	OPT_RO = 256,
	OPT_RW,
	OPT_RO_TRY,
	OPT_RW_TRY,
	OPT_UNIX,
	OPT_TCP_BIND,
	OPT_TCP_CONNECT,
	OPT_NO_TCP,
	OPT_UDP_BIND,
	OPT_UDP_CONNECT,
	OPT_NO_UDP,
	OPT_NO_NETWORK,
	OPT_NO_UNIX,
	OPT_ALLOW_SYSCALLS,
	OPT_SCOPE,
	OPT_LOG_SUBPROCESSES,
	OPT_NO_LOG,
	OPT_NO_LOG_NESTED,
	OPT_ABI,
	OPT_STRICT,
	OPT_PROBE,
	OPT_JSON,
	OPT_KEEP_CAPS,
	OPT_EXPLAIN,
	OPT_EXPLAIN_JSON,
	OPT_LEARN,
	OPT_NO_SYMLINKS,
	OPT_HIDE,
	OPT_NEW_SESSION,
	OPT_DIE_WITH_PARENT,
	OPT_KILL_TREE,
	OPT_PRIVATE_TMP,
	OPT_CLOSE_FDS,
	OPT_CLEARENV,
	OPT_SETENV,
	OPT_UNSETENV,
	OPT_STATUS_FD,
};

static const struct option options[] = {
	{"ro", required_argument, NULL, OPT_RO},
	{"rw", required_argument, NULL, OPT_RW},
	{"ro-try", required_argument, NULL, OPT_RO_TRY},
	{"rw-try", required_argument, NULL, OPT_RW_TRY},
	{"hide", required_argument, NULL, OPT_HIDE},
	{"no-symlinks", no_argument, NULL, OPT_NO_SYMLINKS},
	{"unix", required_argument, NULL, OPT_UNIX},
	{"tcp-bind", required_argument, NULL, OPT_TCP_BIND},
	{"tcp-connect", required_argument, NULL, OPT_TCP_CONNECT},
	{"no-tcp", no_argument, NULL, OPT_NO_TCP},
	{"udp-bind", required_argument, NULL, OPT_UDP_BIND},
	{"udp-connect", required_argument, NULL, OPT_UDP_CONNECT},
	{"no-udp", no_argument, NULL, OPT_NO_UDP},
	{"no-network", no_argument, NULL, OPT_NO_NETWORK},
	{"no-unix", no_argument, NULL, OPT_NO_UNIX},
	{"allow-syscalls", required_argument, NULL, OPT_ALLOW_SYSCALLS},
	{"scope", required_argument, NULL, OPT_SCOPE},
	{"log-subprocesses", no_argument, NULL, OPT_LOG_SUBPROCESSES},
	{"no-log", no_argument, NULL, OPT_NO_LOG},
	{"explain", no_argument, NULL, OPT_EXPLAIN},
	{"explain-json", required_argument, NULL, OPT_EXPLAIN_JSON},
	{"learn", required_argument, NULL, OPT_LEARN},
	{"no-log-nested", no_argument, NULL, OPT_NO_LOG_NESTED},
	{"abi", required_argument, NULL, OPT_ABI},
	{"strict", no_argument, NULL, OPT_STRICT},
	{"probe", no_argument, NULL, OPT_PROBE},
	{"json", no_argument, NULL, OPT_JSON},
	{"keep-caps", no_argument, NULL, OPT_KEEP_CAPS},
	{"new-session", no_argument, NULL, OPT_NEW_SESSION},
	{"die-with-parent", no_argument, NULL, OPT_DIE_WITH_PARENT},
	{"kill-tree", no_argument, NULL, OPT_KILL_TREE},
	{"private-tmp", no_argument, NULL, OPT_PRIVATE_TMP},
	{"close-fds", no_argument, NULL, OPT_CLOSE_FDS},
	{"clearenv", no_argument, NULL, OPT_CLEARENV},
	{"setenv", required_argument, NULL, OPT_SETENV},
	{"unsetenv", required_argument, NULL, OPT_UNSETENV},
	{"status-fd", required_argument, NULL, OPT_STATUS_FD},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static void print_stdout(const char *text)
{
	struct out o = {.fd = STDOUT_FILENO};

	outf(&o, "%s", text);
	flush_stdout(&o);
}

/* The index in argv of the option getopt_long just returned. */
static int option_index(char **argv)
{
	if (optarg && optind >= 2 && optarg == argv[optind - 1])
		return optind - 2;
	return optind - 1;
}

/* The text of that option, as the user wrote it. */
static const char *option_text(char **argv)
{
	return argv[option_index(argv)];
}

/* " (@FILE line N)" when argument I came from an argument file, else "". */
static const char *where(const char **from, int i)
{
	return from ? from[i] : "";
}

/*
 * getopt_long accepts any unambiguous prefix (--pro for --probe). A prefix
 * that is unambiguous today can change meaning when an option is added, so
 * a script's command line must spell options out.
 */
static void check_spelling(char **argv, const struct option *opt, const char *at)
{
	const char *text = option_text(argv) + 2;
	size_t len = strcspn(text, "=");

	if (strlen(opt->name) != len)
		die("option --%.*s is abbreviated: write --%s%s", (int)len, text, opt->name, at);
}

/* A short-option cluster of this table, such as -v or -vh. */
static int is_short_cluster(const char *arg)
{
	return arg[0] == '-' && arg[1] != '\0' && arg[1 + strspn(arg + 1, "hvV")] == '\0';
}

/*
 * An option argument that is itself an option was swallowed: with an empty
 * $DIR, "--rw-try $DIR --no-tcp" would grant a path named --no-tcp and leave
 * TCP open. "--" is one of them, so "--ro -- cmd" never grants "--".
 */
static void check_argument(char **argv, const char *at)
{
	const char *opt = option_text(argv);
	int len = (int)strcspn(opt, "=");

	if (optarg[0] == '\0')
		die("option %.*s needs an argument, got ''%s (try 'landlock-run --help')", len, opt,
		    at);
	if (strncmp(optarg, "--", 2) == 0 || is_short_cluster(optarg))
		die("option %.*s needs an argument, got the option '%s'%s (a path that starts "
		    "with - is written ./%s)",
		    len, opt, optarg, at, optarg);
}

/* Levenshtein distance between A and the first N bytes of B, both short. */
static size_t distance(const char *a, const char *b, size_t n)
{
	size_t row[33], i, j, diag, up;

	for (j = 0; j <= n; j++)
		row[j] = j;
	for (i = 1; a[i - 1]; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= n; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[n];
}

static size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	while (i < n && a[i] && a[i] == b[i])
		i++;
	return i;
}

/* The long option nearest to NAME (N bytes), within two edits, or NULL; of
 * equally near ones, the one that starts most like NAME (--rwo: --rw). */
static const char *nearest_option(const char *name, size_t n)
{
	const struct option *o, *best = NULL;
	size_t d, best_d = 3, prefix, best_prefix = 0;

	if (n > 32)
		return NULL;
	for (o = options; o->name; o++) {
		d = distance(o->name, name, n);
		prefix = common_prefix(o->name, name, n);
		if (d < best_d || (d == best_d && prefix > best_prefix)) {
			best = o;
			best_d = d;
			best_prefix = prefix;
		}
	}
	return best ? best->name : NULL;
}

static void unknown_long_option(const char *text, const char *at)
{
	size_t n = strcspn(text, "=");
	const char *near = nearest_option(text + 2, n - 2);

	if (near)
		die("unknown option %.*s%s (did you mean --%s?)", (int)n, text, at, near);
	die("unknown option %.*s%s (try 'landlock-run --help')", (int)n, text, at);
}

/* musl and glibc set optopt to 0 for an unknown long option, to the
 * option's value for a long option given an argument it does not take, and
 * to the character for an unknown short option, which may sit in a cluster
 * after the element argv[optind - 1] names. */
static void bad_option(int c, char **argv, const char *at)
{
	const char *text = argv[optind - 1];
	int len = (int)strcspn(text, "=");

	if (c == ':')
		die("option %s needs an argument%s (try 'landlock-run --help')", text, at);
	if (optopt == 0)
		unknown_long_option(text, at);
	if (optopt < 256 && !strchr("hvV", optopt))
		die("unknown option -%c%s (try 'landlock-run --help')", optopt, at);
	die("option %.*s takes no argument%s (try 'landlock-run --help')", len, text, at);
}

static int parse_abi(const char *text, const char *at)
{
	long n = number_at(text, NULL, ABI_KNOWN);

	if (n < 1)
		die("--abi: invalid ABI version '%s'%s (this landlock-run knows ABI 1 to %d)", text,
		    at, ABI_KNOWN);
	return (int)n;
}

/* --status-fd: an open descriptor above stderr, made close-on-exec at once,
 * so that COMMAND never holds it and every failure from here on is told;
 * a pipe, a socket, or a file COMMAND cannot write (guard.c). */
static int status_descriptor(struct request *r, const char *text, const char *at)
{
	long n = number_at(text, NULL, INT_MAX);
	char what[64];
	struct stat st;

	if (n < 0)
		die("--status-fd: invalid descriptor '%s'%s", text, at);
	join(what, sizeof what, "--status-fd ", text, NULL);
	take_descriptor((int)n, what, &st);
	status_start((int)n);
	guard_descriptor(r, (int)n, what, &st);
	return (int)n;
}

/* VAR=VALUE for --setenv, VAR for --unsetenv: a non-empty name, no '='. */
static const char *env_edit(const char *option, const char *arg, int assign, const char *at)
{
	size_t len = strcspn(arg, "=");

	if (len == 0 || (arg[len] == '=') != assign)
		die("%s: invalid argument '%s'%s (write %s)", option, arg, at,
		    assign ? "VAR=VALUE" : "a variable name, without =");
	return arg;
}

/* --no-tcp, --no-udp: both kinds of a protocol handled, no port allowed. */
static void no_ports(struct request *r, enum net_kind bind, enum net_kind connect,
		     const char *option, const char *at)
{
	add_ports(&r->net[bind], option, "none", at);
	add_ports(&r->net[connect], option, "none", at);
}

static void apply_option(struct request *r, int id, const char *arg, const char *at)
{
	switch (id) {
	case OPT_RO: add_grant(r, "--ro", arg, GRANT_RO, 0); break;
	case OPT_RW: add_grant(r, "--rw", arg, GRANT_RW, 0); break;
	case OPT_RO_TRY: add_grant(r, "--ro-try", arg, GRANT_RO, 1); break;
	case OPT_RW_TRY: add_grant(r, "--rw-try", arg, GRANT_RW, 1); break;
	case OPT_UNIX: add_grant(r, "--unix", arg, GRANT_UNIX, 0); break;
	case OPT_HIDE: add_hidden(r, arg); break;
	case OPT_TCP_BIND: add_ports(&r->net[NET_TCP_BIND], "--tcp-bind", arg, at); break;
	case OPT_TCP_CONNECT: add_ports(&r->net[NET_TCP_CONNECT], "--tcp-connect", arg, at); break;
	case OPT_NO_TCP: no_ports(r, NET_TCP_BIND, NET_TCP_CONNECT, "--no-tcp", at); break;
	case OPT_UDP_BIND: add_ports(&r->net[NET_UDP_BIND], "--udp-bind", arg, at); break;
	case OPT_UDP_CONNECT: add_ports(&r->net[NET_UDP_CONNECT], "--udp-connect", arg, at); break;
	case OPT_NO_UDP: no_ports(r, NET_UDP_BIND, NET_UDP_CONNECT, "--no-udp", at); break;
	case OPT_NO_NETWORK: r->no_network = 1; break;
	case OPT_NO_UNIX: r->no_unix = 1; break;
	case OPT_ALLOW_SYSCALLS:
		r->allowed_syscalls |= parse_names(syscall_groups, "--allow-syscalls", arg, at);
		break;
	case OPT_SCOPE: r->scopes |= parse_names(scope_names, "--scope", arg, at); break;
	case OPT_LOG_SUBPROCESSES: r->log_flags |= LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON; break;
	case OPT_NO_LOG: r->log_flags |= LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF; break;
	case OPT_NO_LOG_NESTED: r->log_flags |= LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF; break;
	case OPT_ABI: r->abi_limit = parse_abi(arg, at); break;
	case OPT_STRICT: r->strict = 1; break;
	case OPT_PROBE: r->probe = 1; break;
	case OPT_JSON: r->json = 1; break;
	case OPT_KEEP_CAPS: r->keep_caps = 1; break;
	case OPT_EXPLAIN: r->explain = 1; break;
	case OPT_EXPLAIN_JSON: r->explain_json = arg; break;
	case OPT_LEARN: r->learn = arg; break;
	case OPT_NO_SYMLINKS: r->no_symlinks = 1; break;
	case OPT_NEW_SESSION: r->new_session = 1; break;
	case OPT_DIE_WITH_PARENT:
		r->die_with_parent = 1;
		r->parent = getppid();
		break;
	case OPT_KILL_TREE: r->kill_tree = 1; break;
	case OPT_PRIVATE_TMP: r->private_tmp = 1; break;
	case OPT_CLOSE_FDS: r->close_fds = 1; break;
	case OPT_CLEARENV: r->env[r->nenv++] = NULL; break;
	case OPT_SETENV: r->env[r->nenv++] = env_edit("--setenv", arg, 1, at); break;
	case OPT_UNSETENV: r->env[r->nenv++] = env_edit("--unsetenv", arg, 0, at); break;
	case OPT_STATUS_FD: r->status_fd = status_descriptor(r, arg, at); break;
	case 'v': r->verbose = 1; break;
	case 'h': print_stdout(usage_text); exit(0);
	case 'V': print_stdout("landlock-run " LR_VERSION "\n"); exit(0);
	}
}

/* The first option given that makes a policy, or NULL. */
static const char *policy_option(const struct request *r)
{
	const struct name *f;
	int i;

	if (r->ngrants)
		return r->grants[0].option;
	for (i = 0; i < NET_KINDS; i++)
		if (r->net[i].option)
			return r->net[i].option;
	for (f = log_flags; f->name; f++)
		if (r->log_flags & f->bit)
			return f->name;
	if (r->no_network)
		return "--no-network";
	if (r->no_unix)
		return "--no-unix";
	return r->scopes ? "--scope" : r->strict ? "--strict" : NULL;
}

/* Cross-option checks, each with its own message. */
static void check_command(struct request *r, int argc, char **argv, const char **from)
{
	int dashdash = optind >= 2 && strcmp(argv[optind - 1], "--") == 0, i;

	/* as "none" with ports is: the ports would be allowed after all */
	for (i = 0; i < NET_KINDS; i++)
		if (r->no_network && r->net[i].listed)
			die("%s %s contradicts --no-network, which allows no port: give one or the "
			    "other",
			    r->net[i].listed, r->net[i].list);
	if ((r->no_network || r->no_unix) && (r->allowed_syscalls & GROUP_IO_URING))
		die("--allow-syscalls io_uring contradicts %s: io_uring creates sockets "
		    "the filter cannot see",
		    r->no_network ? "--no-network" : "--no-unix");
	if (r->json && !r->probe)
		die("--json needs --probe");
	if (r->probe && (r->explain || r->explain_json || r->learn))
		die("--probe runs no command: remove --%s", r->learn	 ? "learn"
							    : r->explain ? "explain"
									 : "explain-json");
	if (r->learn && (r->explain || r->explain_json))
		die("--learn runs COMMAND without the sandbox: nothing is denied to explain "
		    "(remove --explain%s)",
		    r->explain ? "" : "-json");
	if (r->learn && policy_option(r))
		die("--learn runs COMMAND without the sandbox and writes the policy it needs: "
		    "remove %s",
		    policy_option(r));
	if (r->probe && r->status_fd >= 0)
		die("--probe runs no command: remove --status-fd");
	if (r->probe && r->kill_tree)
		die("--probe runs no command: remove --kill-tree");
	if (r->probe && r->private_tmp)
		die("--probe runs no command: remove --private-tmp");
	if (r->learn && r->private_tmp)
		die("--learn runs COMMAND without the sandbox, and the policy it writes would "
		    "name this run's directory: remove --private-tmp");
	if (r->probe && (dashdash || optind < argc))
		die("--probe runs no command: remove '%s' and what follows",
		    dashdash ? "--" : argv[optind]);
	if (r->probe)
		return;
	if (!dashdash && optind < argc)
		die("missing -- before the command '%s'%s (usage: landlock-run [OPTION]... -- "
		    "COMMAND [ARG]...)",
		    argv[optind], where(from, optind));
	if (optind == argc)
		die("no command given after %s (usage: landlock-run [OPTION]... -- COMMAND "
		    "[ARG]...)",
		    dashdash ? "--" : "the options");
	r->command = argv + optind;
}

/*
 * The one allocation, owned by main: at most one grant, one hidden path and
 * one environment edit per argument (and --private-tmp's variables), an
 * 8 KiB port bitmap per kind of port rule, and the policy directories
 * (unless an @FILE needed them first). An anonymous mapping is zero-filled
 * on first touch, so a bitmap costs nothing unless ports of its kind are
 * listed, and musl's malloc stays out of the binary.
 */
static void allocate(struct request *r, size_t nargs)
{
	struct arena {
		struct policy_dirs dirs;
		uint64_t bits[NET_KINDS][65536 / 64];
	} * arena;
	size_t lists = nargs * (sizeof(struct grant) + sizeof(struct hidden)) +
		       (nargs + TMP_VARS) * sizeof(char *);
	char *at;
	int i;

	/* the lists first, then the directories' inodes: a short command
	 * line's both on one page */
	lists = (lists + _Alignof(struct arena) - 1) & ~(_Alignof(struct arena) - 1);
	at = mapped(lists + sizeof *arena, "the grant list");
	arena = (struct arena *)(at + lists);
	for (i = 0; i < NET_KINDS; i++)
		r->net[i].bits = arena->bits[i];
	r->grants = (struct grant *)at;
	r->hidden = (struct hidden *)(r->grants + nargs);
	r->env = (const char **)(r->hidden + nargs);
	r->dirs_room = &arena->dirs;
}

static void parse_args(struct request *r, int argc, char **argv)
{
	const char **from, *at;
	int c, index;
	size_t i;

	/* execve with an empty argv: argv + 1 would point into the environment. */
	if (argc < 1)
		die("no arguments at all, not even a program name (usage: landlock-run "
		    "[OPTION]... -- COMMAND [ARG]...)");
	memset(r, 0, sizeof *r);
	r->status_fd = -1;
	expand_argfiles(r, &argc, &argv, &from);
	allocate(r, (size_t)argc);
	opterr = 0;
	/* '+': stop at the first non-option; ':': report a missing argument. */
	for (;;) {
		index = -1;
		c = getopt_long(argc, argv, "+:hvV", options, &index);
		if (c == -1)
			break;
		if (c == '?' || c == ':')
			bad_option(c, argv, where(from, optind - 1));
		at = where(from, option_index(argv));
		if (index >= 0)
			check_spelling(argv, &options[index], at);
		if (index >= 0 && options[index].has_arg)
			check_argument(argv, at);
		apply_option(r, c, optarg, at);
	}
	check_command(r, argc, argv, from);
	if (r->explain_json)
		open_report(r, &r->json_report, "--explain-json", r->explain_json);
	if (r->learn)
		open_report(r, &r->learn_report, "--learn", r->learn);
	if (r->learn)
		check_learn_target(r);
	for (i = 0; i < r->ngrants; i++)
		if (r->grants[i].kind == GRANT_RW) {
			find_policy_dirs(r); /* no --rw may reach them: guard.c */
			break;
		}
}

/* The kernel requires no_new_privs of unprivileged callers; set it for root
 * too, so a setuid program cannot regain what the sandbox takes away. The
 * ruleset is left to the exec, which closes it (Landlock's descriptors are
 * close-on-exec). */
static void enforce(const struct policy *p, int ruleset)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die_errno("cannot set no_new_privs");
	if (landlock_restrict_self(ruleset, p->asked.log_flags))
		die_errno("cannot enforce the Landlock ruleset");
}

/* Why the exec of COMMAND failed with ERR, said and exited. Apart from run():
 * its 12 KiB of paths would otherwise sit on the stack of every launch. */
__attribute__((noreturn, noinline)) static void exec_failed(const struct policy *p, int err)
{
	char *const *command = p->asked.command;
	char found[PATH_MAX], path[PATH_MAX], canon[PATH_MAX];
	const char *role, *file;
	const struct hidden *hidden;
	int stop;

	/* Name the file that stopped it, when it can be known from here. Traced,
	 * the denial reports name it, and the probing would add its own. */
	file = first_in_path(command[0], found);
	stop = tracing(&p->asked) ? 0 : exec_stop(file, &role, path, canon);
	if (err == ENOENT && stop == STOP_MISSING)
		fail(EXIT_NOT_FOUND, "cannot run %s: %s %s does not exist", command[0], role, path);
	if (err == ENOENT)
		fail(EXIT_NOT_FOUND, "cannot run %s: command not found", command[0]);
	hidden = stop == STOP_DENIED ? hidden_at(&p->asked, canon) : NULL;
	if (err == EACCES && hidden)
		fail(EXIT_CANNOT_EXEC, "cannot execute %s: %s (%s is hidden by --hide %s)",
		     command[0], strerror(err), canon, hidden->path);
	if (err == EACCES && stop == STOP_DENIED && !role)
		fail(EXIT_CANNOT_EXEC,
		     "cannot execute %s: %s (the sandbox denies executing %s: grant "
		     "it with --ro %s)",
		     command[0], strerror(err), canon, canon);
	if (err == EACCES && stop == STOP_DENIED)
		fail(EXIT_CANNOT_EXEC,
		     "cannot execute %s: %s (the sandbox denies %s %s%s%s: grant it "
		     "with --ro %s)",
		     command[0], strerror(err), role, path, strcmp(path, canon) ? ", that is " : "",
		     strcmp(path, canon) ? canon : "", canon);
	fail(EXIT_CANNOT_EXEC, "cannot execute %s: %s", command[0], strerror(err));
}

/*
 * musl's execvp: a name with a slash is executed as is; otherwise PATH is
 * searched (default /usr/local/bin:/bin:/usr/bin when unset), remembering an
 * EACCES and going on. No /bin/sh fallback for scripts without a #! line.
 */
__attribute__((noreturn)) static void run(const struct policy *p)
{
	if (p->asked.nenv)
		edit_environment(p->asked.env, p->asked.nenv);
	if (!tracing(&p->asked))
		status_running(p, 0, enforcement(p));
	/* after the last write, which would hold it again */
	give_back_sigpipe();
	execvp(p->asked.command[0], p->asked.command);
	exec_failed(p, errno);
}

/*
 * The whole-tree mode (supervise.c): asked for, or what an option needs.
 * --die-with-parent: a parent-death signal reaches COMMAND alone, never
 * what it started. --private-tmp: its directory is removed once nothing
 * the command started can write to it any more. --new-session from a
 * process group leader: setsid(2) works only in a child. --explain,
 * --learn: the tracer is a parent. --status-fd: its end record is written
 * once the whole tree is gone.
 */
static int whole_tree(const struct request *r)
{
	return r->kill_tree || r->private_tmp || r->die_with_parent || tracing(r) ||
	       r->status_fd >= 0 || (r->new_session && getpgrp() == getpid());
}

/*
 * The driver answers an open of /dev/tty with ENXIO to a session without a
 * controlling terminal, and opens it for one (read-only: a sandbox around
 * this one that lets it be read need not let it be written). Any other
 * refusal (no /dev/tty, a sandbox around this one, an exclusive terminal)
 * is asked of tty_nr in /proc/self/stat; where neither answers, a terminal
 * is assumed.
 */
enum { NO_TERMINAL, TERMINAL, TERMINAL_NOT_RULED_OUT };

static int controlling_terminal(void)
{
	uint64_t tty;
	int fd = open_at(AT_FDCWD, "/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK, 0);

	if (fd >= 0) {
		(void)close(fd);
		return TERMINAL;
	}
	if (errno == ENXIO)
		return NO_TERMINAL;
	if (stat_field("/proc/self/stat", 7, &tty) != 0)
		return TERMINAL_NOT_RULED_OUT;
	return tty != 0 ? TERMINAL : NO_TERMINAL;
}

/*
 * A terminal on 0, 1 or 2 (TCGETS answers for a terminal alone), or a
 * controlling terminal behind none of them (a harness at a shell runs
 * `</dev/null >log 2>&1`; the command opens /dev/tty): what the command
 * leaves could take it over (tcsetpgrp, with SIGTTOU ignored) or, out of
 * its session (--new-session), read it unstopped once the caller's shell
 * has it back. The whole-tree mode ends all of it first.
 */
static int on_terminal(void)
{
	struct termios t;
	int fd;

	for (fd = 0; fd <= STDERR_FILENO; fd++)
		if (ioctl(fd, TCGETS, &t) == 0)
			return TERMINAL;
	return controlling_terminal();
}

/* The option that asked for the plain whole-tree mode, or the terminal. */
static const char *supervisor_name(const struct request *r, int terminal)
{
	if (!r->kill_tree && r->status_fd >= 0)
		return "--status-fd";
	if (whole_tree(r))
		return "--kill-tree";
	return terminal == TERMINAL ? "--kill-tree (on for the terminal)"
				    : "--kill-tree (on: a controlling terminal is not ruled out, "
				      "/dev/tty and /proc/self/stat refused)";
}

/* The supervisor, named for messages by the option that asked for it; it
 * needs /proc, the tracer to follow what the command's calls name. */
static void start_supervisor(struct supervisor *sv, const struct request *r, int terminal)
{
	if (tracing(r))
		supervise_start(sv, r->learn ? "--learn" : "--explain",
				"follow the command's paths and descriptors (/proc/PID)");
	else
		supervise_start(sv, supervisor_name(r, terminal),
				"find what COMMAND leaves running (/proc/thread-self/children)");
}

/* --private-tmp: the host's /tmp hidden, unless a grant asks for it; a
 * grant within it is no contradiction (hide.c). */
static void hide_host_tmp(struct request *r, const char *tmp)
{
	if (!tmp)
		return;
	add_hidden(r, tmp);
	r->hidden[r->nhidden - 1].implicit = 1;
}

/* --probe: the same policy, proven in a child instead of enforced here. */
__attribute__((noreturn)) static void answer_probe(const struct policy *p, int ruleset)
{
	/* Here, not at the top: a run need not clear 4 KiB of buffer. */
	struct out out = {.fd = STDOUT_FILENO};

	if (close(ruleset))
		die_errno("cannot close the Landlock ruleset");
	probe(p, &out);
	flush_stdout(&out);
	exit(0);
}

#ifndef LR_NO_MAIN
int main(int argc, char **argv)
{
	struct policy p;
	struct out *verbose = NULL;
	struct supervisor sv;
	int ruleset, tree, terminal;
	uint64_t more; /* the filter's groups the grants add */

	parse_args(&p.asked, argc, argv);
	if (p.asked.die_with_parent)
		die_with_parent(p.asked.parent);
	/* before the plan: hiding /tmp confines reading */
	if (p.asked.private_tmp)
		hide_host_tmp(&p.asked, private_tmp_make(&p.asked));
	plan_policy(&p, detect_abi());
	resolve_hidden(&p.asked);
	warn_hidden_sockets(&p);
	if (p.asked.verbose) {
		/* mapped: its 4 KiB on main's stack would cost every run pages */
		verbose = mapped(sizeof *verbose, "the --verbose text");
		out_start(verbose, STDERR_FILENO, ESCAPE_CONTROL);
		print_policy(&p, verbose);
	}
	/* The launcher stays outside and waits, or traces, and COMMAND runs
	 * below; or it execs COMMAND next, and execve closes the descriptors
	 * the rules were made from (O_CLOEXEC), with no close(2) of its own. */
	tree = !p.asked.probe && whole_tree(&p.asked);
	terminal = tree || p.asked.probe ? NO_TERMINAL : on_terminal();
	tree = tree || terminal != NO_TERMINAL;
	/* --learn: no sandbox but --hide; the parent records what COMMAND uses. */
	more = 0;
	ruleset = p.asked.learn && !p.asked.nhidden
			  ? -1
			  : build_ruleset(&p, verbose, &more, !tree && !p.asked.probe);
	p.kernel.refused |= more;
	/* Diagnostics only: a closed stderr must not stop the command. */
	if (verbose)
		out_flush(verbose);
	if (p.asked.probe)
		answer_probe(&p, ruleset);
	if (tree) {
		hold_sigpipe();
		sv.tmp = p.asked.tmp;
		sv.ruleset = ruleset;
		start_supervisor(&sv, &p.asked, terminal);
		if (tracing(&p.asked))
			trace(&p, ruleset, &sv);
		else
			supervise(&sv, ruleset);
	}
	if (ruleset >= 0)
		enforce(&p, ruleset);
	if (filter_syscalls(p.kernel.refused | (tracing(&p.asked) ? GROUP_TRACED : 0),
			    p.asked.explain || p.asked.explain_json))
		die_errno("cannot install the seccomp filter");
	/* the launcher and the supervisor outside: COMMAND cannot freeze them */
	if (tree && filter_observer(sv.launcher, sv.self, sv.group))
		die_errno("cannot install the seccomp filter that keeps COMMAND from the launcher");
	if (!p.asked.keep_caps)
		drop_capabilities();
	if (p.asked.new_session)
		new_session();
	if (p.asked.close_fds)
		close_fds();
	run(&p);
}
#endif
