/*
 * What the kernel can do, and the proof that it does it: ABI detection,
 * the one table of rights per ABI, the self-test child behind --probe,
 * and the reports (--probe text and JSON, -v policy).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "landlock-run.h"

#define FS_ABI1	  ((1ULL << 13) - 1) /* execute .. make_sym */
#define FS_ABI2	  (FS_ABI1 | LANDLOCK_ACCESS_FS_REFER)
#define FS_ABI3	  (FS_ABI2 | LANDLOCK_ACCESS_FS_TRUNCATE)
#define FS_ABI5	  (FS_ABI3 | LANDLOCK_ACCESS_FS_IOCTL_DEV)
#define NET_ALL	  (LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP)
#define SCOPE_ALL (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL)
#define LOG_ALL                                                                              \
	(LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF | LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON | \
	 LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF)

/* The downgrade from what this launcher knows to what a kernel supports. */
static const struct abi_level {
	uint64_t fs, net, scoped;
	uint32_t restrict_flags;
} abi_levels[ABI_KNOWN + 1] = {
	[1] = {FS_ABI1, 0, 0, 0},		      /* Linux 5.13 */
	[2] = {FS_ABI2, 0, 0, 0},		      /* 5.19: refer (reparenting) */
	[3] = {FS_ABI3, 0, 0, 0},		      /* 6.2: truncate */
	[4] = {FS_ABI3, NET_ALL, 0, 0},		      /* 6.7: TCP bind and connect */
	[5] = {FS_ABI5, NET_ALL, 0, 0},		      /* 6.10: device ioctl */
	[6] = {FS_ABI5, NET_ALL, SCOPE_ALL, 0},	      /* 6.12: signal, abstract socket */
	[7] = {FS_ABI5, NET_ALL, SCOPE_ALL, LOG_ALL}, /* 6.15: audit log flags */
};

struct name {
	uint64_t bit;
	const char *name;
};

/* In bit order, so every list prints in one stable order. */
static const struct name fs_names[] = {
	{LANDLOCK_ACCESS_FS_EXECUTE, "execute"},
	{LANDLOCK_ACCESS_FS_WRITE_FILE, "write_file"},
	{LANDLOCK_ACCESS_FS_READ_FILE, "read_file"},
	{LANDLOCK_ACCESS_FS_READ_DIR, "read_dir"},
	{LANDLOCK_ACCESS_FS_REMOVE_DIR, "remove_dir"},
	{LANDLOCK_ACCESS_FS_REMOVE_FILE, "remove_file"},
	{LANDLOCK_ACCESS_FS_MAKE_CHAR, "make_char"},
	{LANDLOCK_ACCESS_FS_MAKE_DIR, "make_dir"},
	{LANDLOCK_ACCESS_FS_MAKE_REG, "make_reg"},
	{LANDLOCK_ACCESS_FS_MAKE_SOCK, "make_sock"},
	{LANDLOCK_ACCESS_FS_MAKE_FIFO, "make_fifo"},
	{LANDLOCK_ACCESS_FS_MAKE_BLOCK, "make_block"},
	{LANDLOCK_ACCESS_FS_MAKE_SYM, "make_sym"},
	{LANDLOCK_ACCESS_FS_REFER, "refer"},
	{LANDLOCK_ACCESS_FS_TRUNCATE, "truncate"},
	{LANDLOCK_ACCESS_FS_IOCTL_DEV, "ioctl_dev"},
	{0, NULL},
};

static const struct name scope_names[] = {
	{LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET, "abstract-unix"},
	{LANDLOCK_SCOPE_SIGNAL, "signal"},
	{0, NULL},
};

static const struct name log_names[] = {
	{LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF, "--no-log"},
	{LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON, "--log-subprocesses"},
	{LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF, "--no-log-nested"},
	{0, NULL},
};

int detect_abi(void)
{
	int abi = landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	if (abi < 0 && errno == ENOSYS)
		die("Landlock is not supported by this kernel: %s (it needs Linux 5.13 or "
		    "later built with CONFIG_SECURITY_LANDLOCK)",
		    strerror(errno));
	if (abi < 0 && errno == EOPNOTSUPP)
		die("Landlock is disabled on this system: %s (add landlock to the lsm= "
		    "kernel boot parameter)",
		    strerror(errno));
	if (abi < 1)
		die("cannot query the Landlock ABI version: %s",
		    abi < 0 ? strerror(errno) : "the kernel answered 0");
	return abi;
}

/* Kernels before the errata query (Linux 6.15) answer EINVAL. */
static long query_errata(void)
{
	long errata = landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_ERRATA);

	return errata < 0 ? -1 : errata;
}

static int first_abi_with(uint64_t fs, uint64_t net, uint64_t scoped, uint32_t flags)
{
	int abi;

	for (abi = 1; abi < ABI_KNOWN; abi++)
		if ((abi_levels[abi].fs & fs) == fs && (abi_levels[abi].net & net) == net &&
		    (abi_levels[abi].scoped & scoped) == scoped &&
		    (abi_levels[abi].restrict_flags & flags) == flags)
			break;
	return abi;
}

/* Features asked for by name are never dropped: refuse instead. */
static void require(const struct policy *p, const char *what, const char *name, int need)
{
	if (p->abi >= need)
		return;
	if (p->abi_limit && p->abi == p->abi_limit)
		die("%s%s needs Landlock ABI %d, but --abi %d limits it to ABI %d", what, name,
		    need, p->abi_limit, p->abi);
	die("%s%s needs Landlock ABI %d, but this kernel has ABI %d", what, name, need, p->abi);
}

static void require_each(const struct policy *p, const struct name *names, uint64_t asked,
			 const char *what, int need)
{
	for (; names->name; names++)
		if (asked & names->bit)
			require(p, what, names->name, need);
}

void settle_abi(struct policy *p)
{
	const struct abi_level *level;

	p->abi = p->kernel_abi < ABI_KNOWN ? p->kernel_abi : ABI_KNOWN;
	if (p->abi_limit && p->abi_limit < p->abi)
		p->abi = p->abi_limit;
	level = &abi_levels[p->abi];
	if (p->tcp_bind->option)
		require(p, p->tcp_bind->option, "",
			first_abi_with(0, LANDLOCK_ACCESS_NET_BIND_TCP, 0, 0));
	if (p->tcp_connect->option)
		require(p, p->tcp_connect->option, "",
			first_abi_with(0, LANDLOCK_ACCESS_NET_CONNECT_TCP, 0, 0));
	require_each(p, scope_names, p->scopes, "--scope ", first_abi_with(0, 0, SCOPE_ALL, 0));
	require_each(p, log_names, p->log_flags, "", first_abi_with(0, 0, 0, LOG_ALL));
	if (p->strict)
		require(p, "--strict", " (every filesystem right enforced)", ABI_FULL);

	p->handled.handled_access_fs = p->reads_handled ? level->fs : level->fs & ~FS_READ_SIDE;
	if (p->tcp_bind->option)
		p->handled.handled_access_net |= LANDLOCK_ACCESS_NET_BIND_TCP;
	if (p->tcp_connect->option)
		p->handled.handled_access_net |= LANDLOCK_ACCESS_NET_CONNECT_TCP;
	p->handled.scoped = p->scopes;
}

uint64_t parse_scopes(const char *list)
{
	uint64_t scopes = 0;
	const struct name *n;
	const char *s = list;

	for (;;) {
		size_t len = strcspn(s, ",");

		for (n = scope_names; n->name; n++)
			if (strlen(n->name) == len && strncmp(s, n->name, len) == 0)
				break;
		if (!n->name)
			die("--scope: unknown scope '%.*s' in '%s' (known: signal, "
			    "abstract-unix)",
			    (int)len, s, list);
		scopes |= n->bit;
		if (s[len] == '\0')
			return scopes;
		s += len + 1;
	}
}

/* A comma list, or a JSON array of strings; names are plain words. */
static void print_names(struct out *o, const struct name *names, uint64_t mask, int json)
{
	const char *sep = "";

	outf(o, "%s", json ? "[" : "");
	for (; names->name; names++) {
		if (!(mask & names->bit))
			continue;
		outf(o, json ? "%s\"%s\"" : "%s%s", sep, names->name);
		sep = ",";
	}
	outf(o, "%s", json ? "]" : "");
}

static void print_ports(struct out *o, const struct ports *ports)
{
	const char *sep = "";
	unsigned port;

	if (!ports->option) {
		outf(o, "any");
		return;
	}
	for (port = 0; port < 65536; port++)
		if (port_listed(ports, port)) {
			outf(o, "%s%u", sep, port);
			sep = ",";
		}
	outf(o, "%s", sep[0] ? "" : "none");
}

static void print_errata(struct out *o, long errata)
{
	if (errata < 0)
		outf(o, "unknown");
	else
		outf(o, "0x%lx", (unsigned long)errata);
}

/* -v: lines that cannot be mistaken for a failure ("landlock-run: "). */
void print_policy(const struct policy *p)
{
	const uint64_t fs = p->handled.handled_access_fs;
	struct out o = {.fd = STDERR_FILENO};
	size_t i;

	outf(&o, "landlock-run policy: abi=%d abi_used=%d errata=", p->kernel_abi, p->abi);
	print_errata(&o, query_errata());
	outf(&o, "\nlandlock-run policy: fs_handled=");
	print_names(&o, fs_names, fs, 0);
	outf(&o, "\nlandlock-run policy: fs_missing=");
	print_names(&o, fs_names, FS_ABI5 & ~abi_levels[p->abi].fs, 0);
	outf(&o, "\nlandlock-run policy: fs_unrestricted=");
	print_names(&o, fs_names, abi_levels[p->abi].fs & ~fs, 0);
	outf(&o, "\nlandlock-run policy: tcp_bind=");
	print_ports(&o, p->tcp_bind);
	outf(&o, "\nlandlock-run policy: tcp_connect=");
	print_ports(&o, p->tcp_connect);
	outf(&o, "\nlandlock-run policy: scopes=");
	print_names(&o, scope_names, p->scopes, 0);
	outf(&o, "\nlandlock-run policy: log=");
	print_names(&o, log_names, p->log_flags, 0);
	outf(&o, "\n");
	for (i = 0; i < p->ngrants; i++) {
		const struct grant *g = &p->grants[i];

		if (g->fd < 0)
			continue;
		outf(&o, "landlock-run rule: %s -> ", g->path);
		print_names(&o, fs_names, grant_rights(p, g), 0);
		outf(&o, " (%lu:%lu)\n", (unsigned long)g->dev, (unsigned long)g->ino);
	}
	/* Diagnostics only: a closed stderr must not stop the command. */
	out_flush(&o);
}

/* The self-test: what a sandbox that grants nothing must refuse. */

enum stage { STAGE_DONE, STAGE_LISTEN, STAGE_RULESET, STAGE_NO_NEW_PRIVS, STAGE_RESTRICT };

static const char *const stage_names[] = {
	[STAGE_LISTEN] = "create an abstract UNIX socket listener",
	[STAGE_RULESET] = "create a ruleset",
	[STAGE_NO_NEW_PRIVS] = "set no_new_privs",
	[STAGE_RESTRICT] = "enforce a ruleset",
};

struct verdict {
	int stage, stage_errno;
	uint32_t proven;     /* checks the kernel refused as expected */
	uint32_t unprovable; /* checks already refused before the sandbox existed */
	int failed;	     /* the check that was not refused, or -1 */
	int failed_errno;    /* 0 when it succeeded */
};

struct probe_env {
	struct sockaddr_un listener; /* an abstract socket outside the sandbox */
	socklen_t listener_len;
};

static int try_open(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	return fd < 0 ? -1 : close(fd);
}

static int read_dir(const struct probe_env *env)
{
	(void)env;
	return try_open("/", O_RDONLY | O_DIRECTORY);
}

static int read_file(const struct probe_env *env)
{
	(void)env;
	return try_open("/dev/null", O_RDONLY);
}

static int write_file(const struct probe_env *env)
{
	(void)env;
	return try_open("/dev/null", O_WRONLY);
}

/* A high port: below 1024 an unprivileged bind fails with EACCES anyway. */
static int tcp_try(int (*op)(int, const struct sockaddr *, socklen_t))
{
	struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(65535)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int ret, err;

	if (fd < 0)
		return -1;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ret = op(fd, (const struct sockaddr *)&addr, sizeof addr);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

static int tcp_bind(const struct probe_env *env)
{
	(void)env;
	return tcp_try(bind);
}

static int tcp_connect(const struct probe_env *env)
{
	(void)env;
	return tcp_try(connect);
}

static int signal_parent(const struct probe_env *env)
{
	(void)env;
	return kill(getppid(), 0);
}

static int abstract_connect(const struct probe_env *env)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int ret, err;

	if (fd < 0)
		return -1;
	ret = connect(fd, (const struct sockaddr *)&env->listener, env->listener_len);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

static const struct check {
	const char *name;
	int (*attempt)(const struct probe_env *);
	int expect;	/* the errno of a Landlock denial */
	int controlled; /* must succeed before the sandbox, or it proves nothing */
} checks[] = {
	{"read_dir", read_dir, EACCES, 1},
	{"read_file", read_file, EACCES, 1},
	{"write_file", write_file, EACCES, 1},
	{"tcp_bind", tcp_bind, EACCES, 0},
	{"tcp_connect", tcp_connect, EACCES, 0},
	{"signal", signal_parent, EPERM, 1},
	{"abstract-unix", abstract_connect, EPERM, 0},
};

/* One bit per row of checks[]. */
enum {
	CHECK_FS = 1 << 0 | 1 << 1 | 1 << 2,
	CHECK_TCP_BIND = 1 << 3,
	CHECK_TCP_CONNECT = 1 << 4,
	CHECK_SIGNAL = 1 << 5,
	CHECK_ABSTRACT = 1 << 6,
};
#define NCHECKS ((int)(sizeof checks / sizeof checks[0]))

static uint32_t wanted_checks(const struct policy *p)
{
	uint32_t wanted = CHECK_FS;

	if (p->handled.handled_access_net & LANDLOCK_ACCESS_NET_BIND_TCP)
		wanted |= CHECK_TCP_BIND;
	if (p->handled.handled_access_net & LANDLOCK_ACCESS_NET_CONNECT_TCP)
		wanted |= CHECK_TCP_CONNECT;
	if (p->scopes & LANDLOCK_SCOPE_SIGNAL)
		wanted |= CHECK_SIGNAL;
	if (p->scopes & LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET)
		wanted |= CHECK_ABSTRACT;
	return wanted;
}

static int listen_abstract(struct probe_env *env)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	/* Binding only the family autobinds a fresh abstract name. */
	env->listener.sun_family = AF_UNIX;
	env->listener_len = sizeof env->listener;
	if (fd < 0 || bind(fd, (struct sockaddr *)&env->listener, sizeof(sa_family_t)) ||
	    listen(fd, 1) || getsockname(fd, (struct sockaddr *)&env->listener, &env->listener_len))
		return -1;
	return 0;
}

static int sandbox_nothing(const struct policy *p, struct verdict *v)
{
	struct landlock_ruleset_attr attr = {
		.handled_access_fs = abi_levels[p->abi].fs,
		.handled_access_net = p->handled.handled_access_net,
		.scoped = p->scopes,
	};
	/* Keep the probe's deliberate denials out of the audit log. */
	uint32_t quiet = p->abi >= 7 ? LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF : 0;
	int ruleset = landlock_create_ruleset(&attr, sizeof attr, 0);

	v->stage = STAGE_RULESET;
	if (ruleset < 0)
		return -1;
	v->stage = STAGE_NO_NEW_PRIVS;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	v->stage = STAGE_RESTRICT;
	if (landlock_restrict_self(ruleset, p->log_flags | quiet))
		return -1;
	v->stage = STAGE_DONE;
	return close(ruleset);
}

static void self_test_child(const struct policy *p, int out)
{
	struct verdict v = {.failed = -1};
	struct probe_env env = {.listener_len = 0};
	uint32_t wanted = wanted_checks(p);
	int i;

	for (i = 0; i < NCHECKS; i++)
		if ((wanted & 1U << i) && checks[i].controlled && checks[i].attempt(&env))
			v.unprovable |= 1U << i;
	v.stage = STAGE_LISTEN;
	if ((!(wanted & CHECK_ABSTRACT) || listen_abstract(&env) == 0) &&
	    sandbox_nothing(p, &v) == 0)
		for (i = 0; i < NCHECKS; i++) {
			if (!(wanted & 1U << i) || (v.unprovable & 1U << i))
				continue;
			if (checks[i].attempt(&env) == 0) {
				v.failed = i; /* failed_errno 0: not denied at all */
				break;
			}
			if (errno != checks[i].expect) {
				v.failed = i;
				v.failed_errno = errno;
				break;
			}
			v.proven |= 1U << i;
		}
	v.stage_errno = v.stage ? errno : 0;
	_exit(write(out, &v, sizeof v) == sizeof v ? 0 : 1);
}

static void run_self_test(const struct policy *p, struct verdict *v)
{
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		die("self-test: cannot create a pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("self-test: cannot fork: %s", strerror(errno));
	if (pid == 0)
		self_test_child(p, pipefd[1]);
	/* Our copy of the write end would keep read() from ever seeing EOF. */
	if (close(pipefd[1]))
		die("self-test: cannot close a pipe: %s", strerror(errno));
	do
		n = read(pipefd[0], v, sizeof *v);
	while (n < 0 && errno == EINTR);
	if (close(pipefd[0]))
		die("self-test: cannot close a pipe: %s", strerror(errno));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("self-test: cannot wait for the child: %s", strerror(errno));
	if (n != sizeof *v || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("self-test: the child process did not report (status 0x%x)", status);
}

static void judge(const struct verdict *v)
{
	const struct check *c = &checks[v->failed < 0 ? 0 : v->failed];

	if (v->stage)
		die("self-test: cannot %s: %s", stage_names[v->stage], strerror(v->stage_errno));
	if (v->failed >= 0 && v->failed_errno == 0)
		die("self-test: %s was not denied: the kernel does not enforce Landlock", c->name);
	if (v->failed >= 0)
		die("self-test: %s failed with \"%s\" instead of \"%s\"", c->name,
		    strerror(v->failed_errno), strerror(c->expect));
	if (!(v->proven & CHECK_FS))
		die("self-test: cannot prove a filesystem denial: / and /dev/null are "
		    "inaccessible before the sandbox");
}

/* The proven checks, as a list of names like any other. */
static void print_checks(struct out *o, uint32_t mask, int json)
{
	struct name names[NCHECKS + 1] = {{0, NULL}};
	int i;

	for (i = 0; i < NCHECKS; i++) {
		names[i].bit = 1U << i;
		names[i].name = checks[i].name;
	}
	print_names(o, names, mask, json);
}

static void report_text(struct out *o, const struct policy *p, const struct verdict *v, long errata)
{
	const struct abi_level *l = &abi_levels[p->abi];
	int full = p->abi >= ABI_FULL;

	outf(o, "landlock: %s\nabi=%d\nabi_used=%d\nerrata=",
	     full ? "fully enforced" : "partially enforced (older ABI)", p->kernel_abi, p->abi);
	print_errata(o, errata);
	outf(o, "\nfs=%s\nfs_handled=", full ? "full" : "partial");
	print_names(o, fs_names, l->fs, 0);
	outf(o, "\nfs_missing=");
	print_names(o, fs_names, FS_ABI5 & ~l->fs, 0);
	outf(o, "\ntcp=%s\nscopes=", l->net ? "yes" : "no");
	print_names(o, scope_names, l->scoped, 0);
	outf(o, "\nlog_flags=%s\nproven=", l->restrict_flags ? "yes" : "no");
	print_checks(o, v->proven, 0);
	outf(o, "\nself_test=passed\n");
}

static void report_json(struct out *o, const struct policy *p, const struct verdict *v, long errata)
{
	const struct abi_level *l = &abi_levels[p->abi];
	const char *full = p->abi >= ABI_FULL ? "full" : "partial";

	outf(o, "{\"abi\":%d,\"abi_used\":%d,\"enforcement\":\"%s\",\"errata\":", p->kernel_abi,
	     p->abi, full);
	if (errata < 0)
		outf(o, "null");
	else
		outf(o, "%ld", errata);
	outf(o, ",\"fs\":\"%s\",\"fs_handled\":", full);
	print_names(o, fs_names, l->fs, 1);
	outf(o, ",\"fs_missing\":");
	print_names(o, fs_names, FS_ABI5 & ~l->fs, 1);
	outf(o, ",\"tcp\":%s,\"scopes\":", l->net ? "true" : "false");
	print_names(o, scope_names, l->scoped, 1);
	outf(o, ",\"log_flags\":%s,\"proven\":", l->restrict_flags ? "true" : "false");
	print_checks(o, v->proven, 1);
	outf(o, ",\"self_test\":\"passed\"}\n");
}

/* Prove in a child that the kernel denies, then report; the caller flushes. */
void probe(const struct policy *p, struct out *o)
{
	struct verdict v;

	run_self_test(p, &v);
	judge(&v);
	if (p->json)
		report_json(o, p, &v, query_errata());
	else
		report_text(o, p, &v, query_errata());
}
