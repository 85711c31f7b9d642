/*
 * libFuzzer harness for landlock-run's command line: the whole of main()
 * (compiled as lr_main, see hooks.h) runs on argument vectors made from the
 * fuzz input, against a stand-in for the kernel's Landlock calls.
 *
 * Input: byte 0 picks the kernel (ABI = 1 + byte % 16, so 11 and above are newer
 * than the launcher; bit 6 set: no errata query) and the caller (bit 4 set:
 * SIGPIPE ignored; bit 5 set: root with every capability), the rest is split on
 * NUL bytes into argv[1..].
 * Every run must end in exit(0 or 125) or in exec; the harness aborts (a finding) when
 *   - exec is reached without no_new_privs and restrict_self before it, or
 *     with a command that is not what follows the first bare "--", or with
 *     --probe/--help/--version on the line, or with a descriptor that would
 *     leak into the command, or with another SIGPIPE disposition than the
 *     caller gave, or with capabilities left (any without --keep-caps, or
 *     root's bounding set), or without the one seccomp filter that refuses
 *     TIOCSTI and TIOCLINUX on every ABI, the network with --no-network, the
 *     baseline but what --allow-syscalls allows, root's metadata, and allows
 *     the rest without reading an argument, or without the
 *     session, parent-death signal, close-on-exec descriptors and
 *     environment the process options ask for (process.c plays these calls,
 *     runs the filter on test vectors and models the environment);
 *   - an option took another option (--no-tcp, -v, ...) as its argument;
 *   - the ruleset handles other rights than the contract gives for that
 *     command line and ABI (writes always confined, reads once --ro or
 *     --hide is given, network/scope/log only as asked and only when the ABI has them),
 *     or a feature asked for by name runs on an ABI that lacks it (--strict
 *     below 9, --tcp-* below 4, --scope below 6, log flags below 7, --udp-*
 *     below 10);
 *   - a rule carries rights the ruleset does not handle, or directory rights
 *     on a file (the real kernel would say EINVAL);
 *   - a rule is on a --hide path or on a directory above it (canonical
 *     paths; the nearest existing ancestor of one that does not exist):
 *     that rule would reveal the hidden path;
 *   - any other exit status shows up.
 * ASan, UBSan and LSan catch the rest. The stand-in kernel never confines
 * the fuzzer: restrict_self only takes note, and fork fails (EAGAIN), so
 * --probe ends in 125 at its self-test. The launcher hands its one
 * allocation to exit or exec by design; the harness frees it after the run.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../landlock.h"
#include "../../out.h"
#include "hooks.h"
#include "process.h"

#include "unhook.h"

int lr_main(int argc, char **argv);

#define FS_ABI1 ((1ULL << 13) - 1)
#define FS_READ \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define FS_FILE                                                                  \
	(FS_READ | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV | LANDLOCK_ACCESS_FS_RESOLVE_UNIX)
#define NET_TCP	     (LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP)
#define NET_UDP	     (LANDLOCK_ACCESS_NET_BIND_UDP | LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP)
#define ABI_NEWEST   10	  /* the newest ABI the contract describes */
#define MAX_ALLOCS   2048 /* an @FILE argument maps its text */
#define MAX_RULESETS 4
#define MAX_HIDDEN   16

enum { BACK_EXIT = 1, BACK_EXEC };

static struct {
	int active; /* inside lr_main: the hooks act, else they pass through */
	jmp_buf back;
	int status;

	int abi, errata_unknown; /* the kernel the stand-in plays */
	int pipe_ignored;	 /* the caller's SIGPIPE disposition */
	int restricted;
	uint32_t restrict_flags;
	int rulesets[MAX_RULESETS], nrulesets;
	struct landlock_ruleset_attr handled;

	int argc;
	char **argv;
	void *allocs[MAX_ALLOCS];
	/* the --hide paths, canonical, of a command line without @FILE */
	char hidden[MAX_HIDDEN][PATH_MAX];
	int nhidden;
} run;

static int fd_baseline = -1;
static struct sigaction sigpipe, sigchld; /* libFuzzer's own, restored after a run */
static FILE *report;			  /* the real stderr: -close_fd_mask=2 silences fd 2 */
static struct rlimit nofile;

/* How runs ended, so scripts/fuzz.sh can tell the checks were reached. */
static struct {
	unsigned long runs, execs, exit0, exit125;
} stats;

void finding(const char *fmt, ...)
{
	va_list ap;
	int i;

	fputs("fuzz_args: ", report);
	va_start(ap, fmt);
	vfprintf(report, fmt, ap);
	va_end(ap);
	fprintf(report, "\nfuzz_args: abi=%d argv:", run.abi);
	for (i = 0; i < run.argc; i++)
		fprintf(report, " [%s]", run.argv[i]);
	fputc('\n', report);
	fflush(report);
	abort();
}

/* ---- what the contract says a command line asks for --------------------- */

static uint64_t fs_of_abi(int abi)
{
	uint64_t fs = FS_ABI1;

	if (abi >= 2)
		fs |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		fs |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	if (abi >= 9)
		fs |= LANDLOCK_ACCESS_FS_RESOLVE_UNIX;
	return fs;
}

struct asked {
	int reads, strict, probe, info, abi_limit;
	struct asked_process process;
	int argfile;   /* an @FILE before --: its options are not known here */
	int port_list; /* a --tcp-* or --udp-* with ports, not none */
	uint64_t net, scoped;
	uint32_t log;
};

/* --allow-syscalls: the names of the contract, as process.h's F_ bits. */
static unsigned groups_named(const char *list)
{
	static const char *const names[] = {"io_uring", "userns",      "keyring",  "bpf",
					    "perf",	"userfaultfd", "metadata", NULL};
	unsigned groups = 0;
	char *copy = strdup(list), *save = NULL, *tok;
	int i;

	if (!copy)
		abort();
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		for (i = 0; names[i]; i++)
			if (strcmp(tok, names[i]) == 0)
				groups |= F_IO_URING << i;
	free(copy);
	return groups;
}

static uint64_t scopes_named(const char *list)
{
	uint64_t scoped = 0;
	char *copy = strdup(list), *save = NULL, *tok;

	if (!copy)
		abort();
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "signal") == 0)
			scoped |= LANDLOCK_SCOPE_SIGNAL;
		if (strcmp(tok, "abstract-unix") == 0)
			scoped |= LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
	}
	free(copy);
	return scoped;
}

/* The contract: an option argument that is itself an option is refused. */
static int looks_like_option(const char *arg)
{
	return arg[0] == '-' && arg[1] != '\0' &&
	       (arg[1] == '-' || arg[1 + strspn(arg + 1, "hvV")] == '\0');
}

/* One long option, NAME or NAME=VALUE; returns how many argv slots it used. */
static int read_option(struct asked *a, char **argv, int i, int end)
{
	static const char *const with_arg[] = {
		"ro",	       "rw",	   "ro-try",	     "rw-try",
		"unix",	       "tcp-bind", "tcp-connect",    "udp-bind",
		"udp-connect", "scope",	   "allow-syscalls", "abi",
		"setenv",      "unsetenv", "hide",	     "status-fd",
		NULL};
	const char *text = argv[i] + 2, *eq = strchr(text, '=');
	size_t len = eq ? (size_t)(eq - text) : strlen(text);
	const char *value = eq ? eq + 1 : NULL;
	int k, used = 1;

#define IS(s) (len == strlen(s) && strncmp(text, (s), len) == 0)
	for (k = 0; with_arg[k]; k++)
		if (IS(with_arg[k]) && !value) {
			if (i + 1 >= end)
				finding("option %s without argument reached exec", argv[i]);
			value = argv[i + 1];
			used = 2;
		}
	for (k = 0; with_arg[k]; k++)
		if (IS(with_arg[k]) && looks_like_option(value))
			finding("option %s swallowed the option '%s'", argv[i], value);
	if (IS("ro") || IS("ro-try") || IS("hide"))
		a->reads = 1;
	if (IS("tcp-bind") || IS("no-tcp"))
		a->net |= LANDLOCK_ACCESS_NET_BIND_TCP;
	if (IS("tcp-connect") || IS("no-tcp"))
		a->net |= LANDLOCK_ACCESS_NET_CONNECT_TCP;
	if (IS("udp-bind") || IS("no-udp"))
		a->net |= LANDLOCK_ACCESS_NET_BIND_UDP;
	if (IS("udp-connect") || IS("no-udp"))
		a->net |= LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP;
	if (IS("scope"))
		a->scoped |= scopes_named(value);
	if (IS("allow-syscalls"))
		a->process.allowed |= groups_named(value);
	if (IS("no-network"))
		a->process.no_network = 1;
	if ((IS("tcp-bind") || IS("tcp-connect") || IS("udp-bind") || IS("udp-connect")) &&
	    strcmp(value, "none") != 0)
		a->port_list = 1;
	if (IS("abi"))
		a->abi_limit = (int)strtoul(value, NULL, 10);
	if (IS("strict"))
		a->strict = 1;
	if (IS("keep-caps"))
		a->process.keep_caps = 1;
	if (IS("new-session"))
		a->process.new_session = 1;
	if (IS("die-with-parent"))
		a->process.die_with_parent = 1;
	if (IS("close-fds"))
		a->process.close_fds = 1;
	if ((IS("setenv") || IS("unsetenv") || IS("clearenv")) && a->process.nenv < MAX_ENV_EDITS)
		a->process.env[a->process.nenv++] = IS("clearenv") ? NULL : value;
	if (IS("probe"))
		a->probe = 1;
	if (IS("help") || IS("version"))
		a->info = 1;
	if (IS("no-log"))
		a->log |= LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF;
	if (IS("log-subprocesses"))
		a->log |= LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON;
	if (IS("no-log-nested"))
		a->log |= LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF;
#undef IS
	return used;
}

/* Reads argv[1..end-1], the options before the "--" that led to exec. */
static void read_options(struct asked *a, char **argv, int end)
{
	int i = 1;

	memset(a, 0, sizeof *a);
	while (i < end) {
		if (strncmp(argv[i], "--", 2) == 0) {
			i += read_option(a, argv, i, end);
			continue;
		}
		if (argv[i][0] == '@') {
			a->argfile = 1;
			i++;
			continue;
		}
		if (argv[i][0] != '-')
			finding("operand '%s' before -- reached exec", argv[i]);
		if (strpbrk(argv[i] + 1, "hV"))
			a->info = 1;
		i++;
	}
}

/* ---- the checks at exec -------------------------------------------------- */

static int first_dashdash(void)
{
	int k;

	for (k = 1; k < run.argc; k++)
		if (strcmp(run.argv[k], "--") == 0)
			return k;
	finding("exec without a -- on the command line");
}

/* The command's index in argv. After @FILE expansion the launcher execs its
 * own copy of argv: the copy must hold the tail after the first "--". */
static int command_index(char *const argv[])
{
	int k, i;

	for (k = 2; k < run.argc; k++)
		if (argv == run.argv + k)
			return k;
	k = first_dashdash() + 1;
	for (i = 1; i < k && run.argv[i][0] != '@'; i++)
		;
	if (i == k)
		finding("exec of a vector that is not a tail of argv");
	for (i = 0; k + i < run.argc; i++)
		if (!argv[i] || strcmp(argv[i], run.argv[k + i]) != 0)
			finding("exec of a vector that is not the tail of argv");
	if (argv[i])
		finding("exec of a vector longer than the tail of argv");
	return k;
}

static void check_descriptors(void)
{
	int fd;

	for (fd = fd_baseline + 1; fd < fd_baseline + 256; fd++) {
		int flags = fcntl(fd, F_GETFD);
		char link[64], what[PATH_MAX] = "";

		if (flags < 0 || flags & FD_CLOEXEC)
			continue;
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		if (readlink(link, what, sizeof what - 1) < 0)
			snprintf(what, sizeof what, "?");
		finding("descriptor %d (%s) would leak into the command", fd, what);
	}
}

static void check_policy(const struct asked *a)
{
	int used = run.abi < ABI_NEWEST ? run.abi : ABI_NEWEST;
	uint64_t fs, net = a->net;

	if (a->abi_limit && a->abi_limit < used)
		used = a->abi_limit;
	if (a->strict && used < 9)
		finding("--strict ran at ABI %d", used);
	if (a->net & NET_TCP && used < 4)
		finding("--tcp-* ran at ABI %d", used);
	if (a->net & NET_UDP && used < 10)
		finding("--udp-* ran at ABI %d", used);
	if (a->scoped && used < 6)
		finding("--scope ran at ABI %d", used);
	if (a->log && used < 7)
		finding("log flags ran at ABI %d", used);
	if (a->process.no_network && a->port_list)
		finding("a port list with --no-network reached exec");
	if (a->process.no_network && (a->process.allowed & F_IO_URING))
		finding("--allow-syscalls io_uring with --no-network reached exec");
	fs = a->reads ? fs_of_abi(used) : fs_of_abi(used) & ~FS_READ;
	if (run.handled.handled_access_fs != fs)
		finding("handled fs 0x%llx, the contract says 0x%llx at ABI %d",
			(unsigned long long)run.handled.handled_access_fs, (unsigned long long)fs,
			used);
	/* --no-network: every port rule the ABI has, none allowed */
	if (a->process.no_network)
		net |= (used >= 4 ? NET_TCP : 0) | (used >= 10 ? NET_UDP : 0);
	if (run.handled.handled_access_net != net || run.handled.scoped != a->scoped)
		finding("handled net 0x%llx scoped 0x%llx, asked 0x%llx 0x%llx",
			(unsigned long long)run.handled.handled_access_net,
			(unsigned long long)run.handled.scoped, (unsigned long long)net,
			(unsigned long long)a->scoped);
	if (run.restrict_flags != a->log)
		finding("restrict_self flags 0x%x, asked 0x%x", run.restrict_flags, a->log);
}

static void check_signals(void)
{
	struct sigaction now;

	if (sigaction(SIGPIPE, NULL, &now))
		abort();
	if ((now.sa_handler == SIG_IGN) != run.pipe_ignored)
		finding("exec with SIGPIPE %s, the caller gave %s",
			now.sa_handler == SIG_IGN ? "ignored" : "not ignored",
			run.pipe_ignored ? "ignored" : "the default");
}

int lr_fuzz_execvp(const char *file, char *const argv[])
{
	struct asked a;
	int k;

	if (!run.active)
		abort();
	if (!proc.nnp || !run.restricted)
		finding("exec without no_new_privs and restrict_self before it");
	k = command_index(argv);
	if (strcmp(run.argv[k - 1], "--") != 0 || strcmp(file, argv[0]) != 0)
		finding("exec of '%s', not the command after --", file);
	read_options(&a, run.argv, k - 1);
	if (a.probe || a.info)
		finding("--probe, --help or --version reached exec");
	if (!a.argfile)
		check_policy(&a);
	check_descriptors();
	check_signals();
	if (!a.argfile)
		process_check_exec(&a.process);
	longjmp(run.back, BACK_EXEC);
}

/* ---- the rest of the process: exit, fork, prctl, memory ------------------ */

void lr_fuzz_exit(int status)
{
	if (!run.active)
		exit(status);
	run.status = status;
	longjmp(run.back, BACK_EXIT);
}

void lr_fuzz__exit(int status)
{
	lr_fuzz_exit(status);
}

pid_t lr_fuzz_fork(void)
{
	errno = EAGAIN;
	return -1;
}

pid_t lr_fuzz_setsid(void)
{
	return process_setsid();
}

unsigned long lr_fuzz_getauxval(unsigned long type)
{
	return process_getauxval(type);
}

int lr_fuzz_prctl(int option, ...)
{
	unsigned long arg;
	va_list ap;

	va_start(ap, option);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	return process_prctl(option, arg);
}

static void track(void *old, void *new)
{
	int i;

	for (i = 0; i < MAX_ALLOCS; i++)
		if (run.allocs[i] == old) {
			run.allocs[i] = new;
			return;
		}
	if (old == NULL)
		finding("more than %d live allocations", MAX_ALLOCS);
	finding("free or realloc of memory the launcher did not allocate");
}

void *lr_fuzz_calloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (p)
		track(NULL, p);
	return p;
}

void *lr_fuzz_malloc(size_t size)
{
	void *p = malloc(size);

	if (p)
		track(NULL, p);
	return p;
}

void *lr_fuzz_realloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size);

	if (p || size == 0)
		track(ptr, p);
	return p;
}

void lr_fuzz_free(void *ptr)
{
	if (ptr)
		track(ptr, NULL);
	free(ptr);
}

/* The launcher maps its one arena anonymously; model it as a tracked calloc
 * so the harness releases it after the run like any other allocation. */
void *lr_fuzz_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p;

	if (addr || fd != -1 || off || prot != (PROT_READ | PROT_WRITE) ||
	    flags != (MAP_PRIVATE | MAP_ANONYMOUS))
		finding("mmap other than a private anonymous read-write mapping");
	p = lr_fuzz_calloc(1, len);
	return p ? p : MAP_FAILED;
}

/* @FILE texts grow by mremap: model it as realloc of the tracked block. */
int lr_fuzz_munmap(void *addr, size_t len)
{
	return munmap(addr, len);
}

void *lr_fuzz_mremap(void *old, size_t old_len, size_t len, int flags, ...)
{
	void *p;

	if (flags != MREMAP_MAYMOVE || len < old_len)
		finding("mremap other than growing with MREMAP_MAYMOVE");
	p = realloc(old, len);
	if (!p)
		return MAP_FAILED;
	track(old, p);
	return p;
}

/* ---- the stand-in for the Landlock system calls -------------------------- */

static int is_ruleset(long fd)
{
	int i;

	for (i = 0; i < run.nrulesets; i++)
		if (run.rulesets[i] == fd)
			return 1;
	return 0;
}

static long fail_with(int err)
{
	errno = err;
	return -1;
}

static long create_ruleset(const struct landlock_ruleset_attr *attr, size_t size, uint32_t flags)
{
	struct landlock_ruleset_attr a = {0};
	int fd;

	if (flags == LANDLOCK_CREATE_RULESET_VERSION && !attr && !size)
		return run.abi;
	if (flags == LANDLOCK_CREATE_RULESET_ERRATA && !attr && !size)
		return run.errata_unknown ? fail_with(EINVAL) : 0x7;
	if (flags || !attr || size < sizeof a.handled_access_fs || size > sizeof a)
		finding("create_ruleset(%p, %zu, %u): a call the kernel refuses",
			(const void *)attr, size, flags);
	memcpy(&a, attr, size);
	if (a.handled_access_fs & ~fs_of_abi(run.abi) ||
	    (a.handled_access_net & NET_TCP && run.abi < 4) ||
	    (a.handled_access_net & NET_UDP && run.abi < 10) ||
	    a.handled_access_net & ~(NET_TCP | NET_UDP) || (a.scoped && run.abi < 6))
		finding("ruleset asks for more than ABI %d has", run.abi);
	if (a.quiet_access_fs || a.quiet_access_net || a.quiet_scoped)
		finding("ruleset with quiet rights, which the launcher does not offer");
	if (run.nrulesets == MAX_RULESETS)
		finding("more than %d rulesets", MAX_RULESETS);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		abort();
	run.rulesets[run.nrulesets++] = fd;
	run.handled = a;
	return fd;
}

/* ---- --hide: no rule on a hidden path or a directory above it ------------ */

/* PATH made canonical as the launcher does: its nearest existing ancestor's
 * real path; what is missing after it cannot change which directories are
 * above. Empty when nothing of it resolves. */
static void canonical_nearest(const char *path, char *out)
{
	char buf[PATH_MAX], *real, *slash;

	snprintf(buf, sizeof buf, "%s", path);
	while (!(real = realpath(buf[0] ? buf : ".", NULL)) && buf[0]) {
		slash = strrchr(buf, '/');
		if (!slash)
			buf[0] = '\0';
		else
			slash[slash == buf] = '\0'; /* "/x" becomes "/" */
	}
	snprintf(out, PATH_MAX, "%s", real ? real : "");
	free(real);
}

/* The --hide paths of the command line before --; none when an @FILE
 * holds options this harness does not read. */
static void note_hidden(void)
{
	int i;

	run.nhidden = 0;
	for (i = 1; i < run.argc && strcmp(run.argv[i], "--") != 0; i++) {
		const char *path = NULL;

		if (run.argv[i][0] == '@') {
			run.nhidden = 0;
			return;
		}
		if (strcmp(run.argv[i], "--hide") == 0 && i + 1 < run.argc)
			path = run.argv[++i];
		else if (strncmp(run.argv[i], "--hide=", 7) == 0)
			path = run.argv[i] + 7;
		if (path && path[0] && run.nhidden < MAX_HIDDEN)
			canonical_nearest(path, run.hidden[run.nhidden++]);
	}
}

static void check_not_hidden(int fd)
{
	char link[64], at[PATH_MAX];
	ssize_t n;
	size_t len;
	int i;

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, at, sizeof at - 1);
	if (n < 0)
		return;
	at[n] = '\0';
	len = (size_t)n;
	for (i = 0; i < run.nhidden; i++) {
		const char *h = run.hidden[i];

		if (h[0] && (strcmp(h, at) == 0 || strcmp(at, "/") == 0 ||
			     (strncmp(h, at, len) == 0 && h[len] == '/')))
			finding("a rule on %s, which is the hidden path %s or above it", at, h);
	}
}

static long add_rule(long fd, long type, const void *attr, uint32_t flags)
{
	struct landlock_path_beneath_attr path;
	struct landlock_net_port_attr port;
	struct stat st;

	if (!is_ruleset(fd) || flags || !attr)
		finding("add_rule on fd %ld flags %u", fd, flags);
	if (type == LANDLOCK_RULE_NET_PORT) {
		memcpy(&port, attr, sizeof port);
		if (!port.allowed_access || port.allowed_access & ~run.handled.handled_access_net ||
		    port.port > 65535)
			finding("port rule 0x%llx for port %llu",
				(unsigned long long)port.allowed_access,
				(unsigned long long)port.port);
		return 0;
	}
	memcpy(&path, attr, sizeof path);
	if (type != LANDLOCK_RULE_PATH_BENEATH || fstat(path.parent_fd, &st))
		finding("path rule of type %ld on fd %d", type, path.parent_fd);
	check_not_hidden(path.parent_fd);
	/* As the kernel does: the launcher tells a file by this answer. */
	if (!S_ISDIR(st.st_mode) && path.allowed_access & ~FS_FILE)
		return fail_with(EINVAL);
	if (!path.allowed_access || path.allowed_access & ~run.handled.handled_access_fs)
		finding("path rule with rights 0x%llx (handled 0x%llx, %s)",
			(unsigned long long)path.allowed_access,
			(unsigned long long)run.handled.handled_access_fs,
			S_ISDIR(st.st_mode) ? "directory" : "file");
	return 0;
}

static long restrict_self(long fd, uint32_t flags)
{
	if (!is_ruleset(fd) || flags & ~7U || (flags && run.abi < 7))
		finding("restrict_self(%ld, 0x%x) at ABI %d", fd, flags, run.abi);
	if (!proc.nnp)
		finding("restrict_self before no_new_privs");
	run.restricted = 1;
	run.restrict_flags = flags;
	return 0;
}

/* Only as many arguments as each call has: reading more is a read past the
 * caller's frame, which ASan rightly reports. */
long lr_fuzz_syscall(long nr, ...)
{
	long ret;
	va_list ap;

	va_start(ap, nr);
	if (nr == __NR_landlock_create_ruleset) {
		const void *attr = va_arg(ap, const void *);
		size_t size = va_arg(ap, size_t);

		ret = create_ruleset(attr, size, va_arg(ap, uint32_t));
	} else if (nr == __NR_landlock_add_rule) {
		int fd = va_arg(ap, int), type = va_arg(ap, int); /* as landlock.h passes them */
		const void *attr = va_arg(ap, const void *);

		ret = add_rule(fd, type, attr, va_arg(ap, uint32_t));
	} else if (nr == __NR_landlock_restrict_self) {
		int fd = va_arg(ap, int);

		ret = restrict_self(fd, va_arg(ap, uint32_t));
	} else if (nr == __NR_capget) {
		void *header = va_arg(ap, void *);

		ret = process_capget(header, va_arg(ap, void *));
	} else if (nr == __NR_capset) {
		const void *header = va_arg(ap, const void *);

		ret = process_capset(header, va_arg(ap, const void *));
	} else if (nr == __NR_seccomp) {
		unsigned op = va_arg(ap, unsigned), flags = va_arg(ap, unsigned);

		ret = process_seccomp(op, flags, va_arg(ap, const void *));
	} else if (nr == __NR_close_range) {
		unsigned first = va_arg(ap, unsigned), last = va_arg(ap, unsigned);

		ret = process_close_range(first, last, va_arg(ap, unsigned));
	} else if (nr == __NR_rt_sigprocmask) {
		int how = va_arg(ap, int);
		const uint64_t *set = va_arg(ap, const uint64_t *);
		uint64_t *old = va_arg(ap, uint64_t *);

		ret = process_sigprocmask(how, set, old, va_arg(ap, size_t));
	} else if (nr == __NR_getdents64) {
		int fd = va_arg(ap, int);
		void *buf = va_arg(ap, void *);

		ret = syscall(nr, fd, buf, va_arg(ap, size_t));
	} else if (nr == __NR_openat2) {
		int dirfd = va_arg(ap, int);
		const char *path = va_arg(ap, const char *);
		const void *how = va_arg(ap, const void *);

		ret = syscall(nr, dirfd, path, how, va_arg(ap, size_t));
	} else if (nr == __NR_getrandom) {
		void *buf = va_arg(ap, void *);
		size_t len = va_arg(ap, size_t);

		ret = syscall(nr, buf, len, va_arg(ap, unsigned));
	} else if (nr == __NR_fcntl) {
		/* --status-fd N: only a descriptor of the run's own, never libFuzzer's */
		int fd = va_arg(ap, int), cmd = va_arg(ap, int);

		ret = fd > fd_baseline ? syscall(nr, fd, cmd, va_arg(ap, long))
				       : (errno = EBADF, -1);
	} else {
		finding("syscall %ld: the stand-in does not know it", nr);
	}
	va_end(ap);
	return ret;
}

/* ---- one run --------------------------------------------------------------- */

/* The highest descriptor open before the first run (libFuzzer's own). */
static int highest_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int high = 2;

	if (!d)
		abort();
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) > high && atoi(e->d_name) != dirfd(d))
			high = atoi(e->d_name);
	closedir(d);
	return high;
}

/* Written at exit (libFuzzer exits when its time is up) to $LR_FUZZ_STATS. */
static void write_stats(void)
{
	const char *path = getenv("LR_FUZZ_STATS");
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	fprintf(f, "runs=%lu execs=%lu exit0=%lu exit125=%lu\n", stats.runs, stats.execs,
		stats.exit0, stats.exit125);
	fclose(f);
}

/* Each argument in its own allocation, so ASan sees a read past its end. */
static void make_argv(const uint8_t *data, size_t size)
{
	size_t start = 0, i;

	run.argv = calloc(size + 2, sizeof *run.argv);
	if (!run.argv)
		abort();
	run.argv[run.argc++] = strdup("landlock-run");
	if (!run.argv[0])
		abort();
	for (i = 0; size > 0 && i <= size; i++) {
		if (i < size && data[i] != '\0')
			continue;
		run.argv[run.argc] = strndup((const char *)data + start, i - start);
		if (!run.argv[run.argc++])
			abort();
		start = i + 1;
	}
}

/* What the launcher leaves to exit or exec, the harness undoes. */
static void clean_up(void)
{
	int i;

	for (i = 0; i < MAX_ALLOCS; i++)
		free(run.allocs[i]);
	for (i = 0; i < run.argc; i++)
		free(run.argv[i]);
	free(run.argv);
	if (close_range((unsigned)fd_baseline + 1, ~0U, 0))
		abort();
	process_end();
	/* a run that wrote and then exited keeps SIGPIPE held (out.c): handed
	 * back here, so the next run's first write saves its own caller's */
	give_back_sigpipe();
	if (setrlimit(RLIMIT_NOFILE, &nofile) || sigaction(SIGPIPE, &sigpipe, NULL) ||
	    sigaction(SIGCHLD, &sigchld, NULL))
		abort();
}

/* libFuzzer calls this before it acts on -close_fd_mask. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);

	(void)argc;
	(void)argv;
	report = fd < 0 ? stderr : fdopen(fd, "w");
	if (!report)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 4096)
		return -1;
	if (fd_baseline < 0) {
		fd_baseline = highest_fd();
		if (getrlimit(RLIMIT_NOFILE, &nofile) || atexit(write_stats) ||
		    sigaction(SIGPIPE, NULL, &sigpipe) || sigaction(SIGCHLD, NULL, &sigchld))
			abort();
	}
	memset(&run, 0, sizeof run);
	run.abi = 1 + data[0] % 16;
	run.errata_unknown = data[0] & 64;
	run.pipe_ignored = (data[0] & 16) != 0;
	process_start((data[0] & 32) != 0);
	if (sigaction(SIGPIPE,
		      &(struct sigaction){.sa_handler = run.pipe_ignored ? SIG_IGN : SIG_DFL},
		      NULL))
		abort();
	make_argv(data + 1, size - 1);
	note_hidden();
	optind = 0; /* glibc: start a fresh scan */
	run.active = 1;
	switch (setjmp(run.back)) {
	case 0:
		run.status = lr_main(run.argc, run.argv);
		if (run.status != 0)
			finding("main returned %d", run.status);
		stats.exit0++;
		break;
	case BACK_EXIT:
		if (run.status != 0 && run.status != 125)
			finding("exit status %d", run.status);
		stats.exit0 += run.status == 0;
		stats.exit125 += run.status == 125;
		break;
	case BACK_EXEC: stats.execs++; break;
	}
	run.active = 0;
	stats.runs++;
	clean_up();
	return 0;
}
