/*
 * landlock-run: run a command under the Landlock LSM.
 *
 * main() is the story of the process narrowing: parse the command line,
 * ask the kernel which Landlock ABI it has, open every grant, build the
 * ruleset, then either prove enforcement (--probe) or set no_new_privs,
 * restrict itself and exec the command. Any failure before exec is exit
 * 125 with one "landlock-run: " line; the command never runs unconfined.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "landlock-run.h"

static const char usage_text[] =
	"Usage: landlock-run [OPTION]... -- COMMAND [ARG]...\n"
	"       landlock-run --probe [--json] [OPTION]...\n"
	"       landlock-run --help | --version\n"
	"\n"
	"Run COMMAND under the Linux Landlock LSM. Writes are denied everywhere\n"
	"but beneath --rw grants; once any --ro grant is given, reading and\n"
	"executing are confined to --ro and --rw grants too.\n"
	"\n"
	"Filesystem:\n"
	"  --ro PATH            read files, list directories and execute beneath PATH\n"
	"  --rw PATH            every handled right beneath PATH: also write, truncate,\n"
	"                       create, remove, rename, device ioctl\n"
	"  --ro-try PATH        like --ro, but skip PATH when it does not exist\n"
	"  --rw-try PATH        like --rw, but skip PATH when it does not exist\n"
	"Network and IPC:\n"
	"  --tcp-bind PORTS     allow TCP bind only to PORTS (comma list, or none)\n"
	"  --tcp-connect PORTS  allow TCP connect only to PORTS (comma list, or none)\n"
	"  --no-tcp             same as --tcp-bind none --tcp-connect none\n"
	"  --scope KINDS        signal, abstract-unix: nothing outside the sandbox\n"
	"                       can be signalled or reached by abstract UNIX socket\n"
	"Audit log:\n"
	"  --log-subprocesses   also log denials after exec: COMMAND and what it runs\n"
	"  --no-log             log no denials before exec (e.g. of COMMAND itself)\n"
	"  --no-log-nested      log no denials of sandboxes nested inside this one\n"
	"Policy:\n"
	"  --abi N              use at most Landlock ABI N\n"
	"  --strict             fail unless every filesystem right is enforced\n"
	"  --probe              prove that this host enforces the policy; run nothing\n"
	"  --json               with --probe, print one JSON object\n"
	"  -v, --verbose        print the effective policy to stderr before running\n"
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
	OPT_TCP_BIND,
	OPT_TCP_CONNECT,
	OPT_NO_TCP,
	OPT_SCOPE,
	OPT_LOG_SUBPROCESSES,
	OPT_NO_LOG,
	OPT_NO_LOG_NESTED,
	OPT_ABI,
	OPT_STRICT,
	OPT_PROBE,
	OPT_JSON,
};

static const struct option options[] = {
	{"ro", required_argument, NULL, OPT_RO},
	{"rw", required_argument, NULL, OPT_RW},
	{"ro-try", required_argument, NULL, OPT_RO_TRY},
	{"rw-try", required_argument, NULL, OPT_RW_TRY},
	{"tcp-bind", required_argument, NULL, OPT_TCP_BIND},
	{"tcp-connect", required_argument, NULL, OPT_TCP_CONNECT},
	{"no-tcp", no_argument, NULL, OPT_NO_TCP},
	{"scope", required_argument, NULL, OPT_SCOPE},
	{"log-subprocesses", no_argument, NULL, OPT_LOG_SUBPROCESSES},
	{"no-log", no_argument, NULL, OPT_NO_LOG},
	{"no-log-nested", no_argument, NULL, OPT_NO_LOG_NESTED},
	{"abi", required_argument, NULL, OPT_ABI},
	{"strict", no_argument, NULL, OPT_STRICT},
	{"probe", no_argument, NULL, OPT_PROBE},
	{"json", no_argument, NULL, OPT_JSON},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static void put(struct out *o, const char *s, size_t n)
{
	while (n > 0) {
		size_t room = sizeof o->buf - o->len;

		if (room == 0 && o->fd < 0)
			return;
		if (room == 0) {
			out_flush(o);
			continue;
		}
		room = room < n ? room : n;
		memcpy(o->buf + o->len, s, room);
		o->len += room;
		s += room;
		n -= room;
	}
}

static void put_number(struct out *o, unsigned long long n, unsigned base, int negative)
{
	char digits[24];
	size_t i = sizeof digits;

	do
		digits[--i] = "0123456789abcdef"[n % base];
	while ((n /= base) > 0);
	if (negative)
		digits[--i] = '-';
	put(o, digits + i, sizeof digits - i);
}

static void put_integer(struct out *o, char conv, char size, va_list *ap)
{
	unsigned long long n;
	long long v;

	if (conv == 'd') {
		v = size == 'l'	  ? va_arg(*ap, long)
		    : size == 'z' ? va_arg(*ap, ssize_t)
				  : va_arg(*ap, int);
		put_number(o, v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v, 10, v < 0);
		return;
	}
	n = size == 'l'	  ? va_arg(*ap, unsigned long)
	    : size == 'z' ? va_arg(*ap, size_t)
			  : va_arg(*ap, unsigned);
	put_number(o, n, conv == 'x' ? 16 : 10, 0);
}

static void voutf(struct out *o, const char *fmt, va_list *ap)
{
	while (*fmt) {
		size_t len = strcspn(fmt, "%");
		int precision = -1;
		char size = 0;
		const char *s;

		put(o, fmt, len);
		fmt += len;
		if (!*fmt++)
			return;
		if (fmt[0] == '.' && fmt[1] == '*') {
			precision = va_arg(*ap, int);
			fmt += 2;
		}
		if (*fmt == 'l' || *fmt == 'z')
			size = *fmt++;
		switch (*fmt) {
		case 's':
			s = va_arg(*ap, const char *);
			put(o, s, precision >= 0 ? strnlen(s, (size_t)precision) : strlen(s));
			break;
		case 'c': {
			char c = (char)va_arg(*ap, int);
			put(o, &c, 1);
			break;
		}
		case 'd':
		case 'u':
		case 'x': put_integer(o, *fmt, size, ap); break;
		default: put(o, fmt, 1);
		}
		fmt++;
	}
}

void outf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	voutf(o, fmt, &ap);
	va_end(ap);
}

void out_flush(struct out *o)
{
	size_t done = 0;

	while (done < o->len) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->failed = 1;
			break;
		}
		done += (size_t)n;
	}
	o->len = 0;
}

void fail(int status, const char *fmt, ...)
{
	struct out line = {.fd = -1};
	va_list ap;
	size_t i;

	outf(&line, "landlock-run: ");
	va_start(ap, fmt);
	voutf(&line, fmt, &ap);
	va_end(ap);
	/* One line, whatever bytes a path holds: consumers match on it. */
	line.len = line.len < sizeof line.buf ? line.len : sizeof line.buf - 1;
	for (i = 0; i < line.len; i++)
		if ((unsigned char)line.buf[i] < 0x20 || line.buf[i] == 0x7f)
			line.buf[i] = '?';
	line.buf[line.len++] = '\n';
	line.fd = STDERR_FILENO;
	/* Nothing is left to report a failed write to; the status still tells. */
	out_flush(&line);
	exit(status);
}

/* What a consumer reads from stdout must arrive whole, or the status says not. */
static void flush_stdout(struct out *o)
{
	out_flush(o);
	if (o->failed)
		die("cannot write to standard output: %s", strerror(errno));
}

static void print_stdout(const char *text)
{
	struct out o = {.fd = STDOUT_FILENO};

	outf(&o, "%s", text);
	flush_stdout(&o);
}

/* The text of the option getopt_long just returned, as the user wrote it. */
static const char *option_text(char **argv)
{
	if (optarg && optind >= 2 && optarg == argv[optind - 1])
		return argv[optind - 2];
	return argv[optind - 1];
}

/*
 * getopt_long accepts any unambiguous prefix (--pro for --probe). A prefix
 * that is unambiguous today can change meaning when an option is added, so
 * a script's command line must spell options out.
 */
static void check_spelling(char **argv, const struct option *opt)
{
	const char *text = option_text(argv) + 2;
	size_t len = strcspn(text, "=");

	if (strlen(opt->name) != len)
		die("option --%.*s is abbreviated: write --%s", (int)len, text, opt->name);
}

static void check_argument(char **argv)
{
	/* "--ro -- cmd" must not take "--" as a path. */
	if (optarg[0] == '\0' || strcmp(optarg, "--") == 0)
		die("option %.*s needs an argument, got '%s' (try 'landlock-run --help')",
		    (int)strcspn(option_text(argv), "="), option_text(argv), optarg);
}

static void bad_option(int c, char **argv)
{
	const char *text = argv[optind - 1];

	if (c == ':')
		die("option %s needs an argument (try 'landlock-run --help')", text);
	if (strncmp(text, "--", 2) == 0 && optopt != 0)
		die("option %.*s takes no argument (try 'landlock-run --help')",
		    (int)strcspn(text, "="), text);
	if (strncmp(text, "--", 2) == 0)
		die("unknown option %.*s (try 'landlock-run --help')", (int)strcspn(text, "="),
		    text);
	die("unknown option -%c (try 'landlock-run --help')", optopt);
}

static int parse_abi(const char *text)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || *end || errno || n < 1 || n > 999)
		die("--abi: invalid ABI version '%s' (a number from 1)", text);
	return (int)n;
}

static void apply_option(struct policy *p, int id, const char *arg)
{
	switch (id) {
	case OPT_RO: add_grant(p, "--ro", arg, ACCESS_RO, 0); break;
	case OPT_RW: add_grant(p, "--rw", arg, ACCESS_RW, 0); break;
	case OPT_RO_TRY: add_grant(p, "--ro-try", arg, ACCESS_RO, 1); break;
	case OPT_RW_TRY: add_grant(p, "--rw-try", arg, ACCESS_RW, 1); break;
	case OPT_TCP_BIND: add_ports(p->tcp_bind, "--tcp-bind", arg); break;
	case OPT_TCP_CONNECT: add_ports(p->tcp_connect, "--tcp-connect", arg); break;
	case OPT_NO_TCP:
		add_ports(p->tcp_bind, "--no-tcp", "none");
		add_ports(p->tcp_connect, "--no-tcp", "none");
		break;
	case OPT_SCOPE: p->scopes |= parse_scopes(arg); break;
	case OPT_LOG_SUBPROCESSES: p->log_flags |= LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON; break;
	case OPT_NO_LOG: p->log_flags |= LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF; break;
	case OPT_NO_LOG_NESTED: p->log_flags |= LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF; break;
	case OPT_ABI: p->abi_limit = parse_abi(arg); break;
	case OPT_STRICT: p->strict = 1; break;
	case OPT_PROBE: p->probe = 1; break;
	case OPT_JSON: p->json = 1; break;
	case 'v': p->verbose = 1; break;
	case 'h': print_stdout(usage_text); exit(0);
	case 'V': print_stdout("landlock-run " LR_VERSION "\n"); exit(0);
	}
}

/* Cross-option checks, each with its own message. */
static void check_command(struct policy *p, int argc, char **argv)
{
	int dashdash = optind >= 2 && strcmp(argv[optind - 1], "--") == 0;

	if (p->json && !p->probe)
		die("--json needs --probe");
	if (p->probe && (dashdash || optind < argc))
		die("--probe runs no command: remove '%s' and what follows",
		    dashdash ? "--" : argv[optind]);
	if (p->probe)
		return;
	if (!dashdash && optind < argc)
		die("missing -- before the command '%s' (usage: landlock-run [OPTION]... -- "
		    "COMMAND [ARG]...)",
		    argv[optind]);
	if (optind == argc)
		die("no command given after %s (usage: landlock-run [OPTION]... -- COMMAND "
		    "[ARG]...)",
		    dashdash ? "--" : "the options");
	p->command = argv + optind;
}

/*
 * The one allocation, owned by main: at most one grant per argument, the
 * scratch list that finds repeated paths, and the two 8 KiB port bitmaps.
 * An anonymous mapping is zero-filled on first touch, so the bitmaps cost
 * nothing unless --tcp-* is given, and musl's malloc stays out of the binary.
 */
static void allocate(struct policy *p, size_t nargs)
{
	struct arena {
		struct ports tcp_bind, tcp_connect;
		struct grant grants[];
	} * arena;
	size_t size = sizeof *arena + nargs * (sizeof(struct grant) + sizeof(struct grant *));

	arena = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED)
		die("cannot allocate the grant list: %s", strerror(errno));
	p->tcp_bind = &arena->tcp_bind;
	p->tcp_connect = &arena->tcp_connect;
	p->grants = arena->grants;
	p->by_path = (struct grant **)(arena->grants + nargs);
}

void parse_args(struct policy *p, int argc, char **argv)
{
	int c, index;

	memset(p, 0, sizeof *p);
	allocate(p, (size_t)argc);
	opterr = 0;
	/* '+': stop at the first non-option; ':': report a missing argument. */
	for (;;) {
		index = -1;
		c = getopt_long(argc, argv, "+:hvV", options, &index);
		if (c == -1)
			break;
		if (c == '?' || c == ':')
			bad_option(c, argv);
		if (index >= 0)
			check_spelling(argv, &options[index]);
		if (index >= 0 && options[index].has_arg)
			check_argument(argv);
		apply_option(p, c, optarg);
	}
	check_command(p, argc, argv);
}

static void enforce(const struct policy *p, int ruleset)
{
	/* The kernel requires it of unprivileged callers; set it for root too so
	 * a setuid program cannot regain what the sandbox takes away. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die("cannot set no_new_privs: %s", strerror(errno));
	if (landlock_restrict_self(ruleset, p->log_flags))
		die("cannot enforce the Landlock ruleset: %s", strerror(errno));
}

/*
 * musl's execvp: a name with a slash is executed as is; otherwise PATH is
 * searched (default /usr/local/bin:/bin:/usr/bin when unset), remembering an
 * EACCES and going on. No /bin/sh fallback for scripts without a #! line.
 */
__attribute__((noreturn)) static void run(const struct policy *p)
{
	int err;

	execvp(p->command[0], p->command);
	err = errno;
	if (err == ENOENT)
		fail(EXIT_NOT_FOUND, "cannot run %s: command not found", p->command[0]);
	if (err == EACCES && p->handled.handled_access_fs & LANDLOCK_ACCESS_FS_EXECUTE)
		fail(EXIT_CANNOT_EXEC,
		     "cannot execute %s: %s (the sandbox may deny executing it, its "
		     "interpreter or a shared library: grant them with --ro)",
		     p->command[0], strerror(err));
	fail(EXIT_CANNOT_EXEC, "cannot execute %s: %s", p->command[0], strerror(err));
}

#ifndef LR_NO_MAIN
int main(int argc, char **argv)
{
	struct policy p;
	int ruleset;

	parse_args(&p, argc, argv);
	p.kernel_abi = detect_abi();
	settle_abi(&p);
	open_grants(&p);
	ruleset = build_ruleset(&p);
	if (p.verbose)
		print_policy(&p);
	if (p.probe) {
		/* Here, not at the top: a run need not clear 4 KiB of buffer. */
		struct out out = {.fd = STDOUT_FILENO};

		close_grants(&p, ruleset);
		probe(&p, &out);
		flush_stdout(&out);
		return 0;
	}
	enforce(&p, ruleset);
	close_grants(&p, ruleset);
	run(&p);
}
#endif
