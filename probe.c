/*
 * --probe: prove in a short-lived child that the kernel denies what a
 * sandbox granting nothing must refuse, then report what this kernel
 * enforces. Every attempt would be harmless if it were allowed.
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

	const struct landlock_ruleset_attr *h = &p->kernel.handled;

	if (h->handled_access_net & LANDLOCK_ACCESS_NET_BIND_TCP)
		wanted |= CHECK_TCP_BIND;
	if (h->handled_access_net & LANDLOCK_ACCESS_NET_CONNECT_TCP)
		wanted |= CHECK_TCP_CONNECT;
	if (h->scoped & LANDLOCK_SCOPE_SIGNAL)
		wanted |= CHECK_SIGNAL;
	if (h->scoped & LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET)
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
	const struct effective *k = &p->kernel;
	struct landlock_ruleset_attr attr = k->handled;
	/* Keep the probe's deliberate denials out of the audit log. */
	uint32_t quiet =
		rights_at(log_flags, k->abi, 0) ? LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF : 0;
	int ruleset;

	attr.handled_access_fs = k->fs_abi;
	ruleset = landlock_create_ruleset(&attr, k->attr_size, 0);

	v->stage = STAGE_RULESET;
	if (ruleset < 0)
		return -1;
	v->stage = STAGE_NO_NEW_PRIVS;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	v->stage = STAGE_RESTRICT;
	if (landlock_restrict_self(ruleset, p->asked.log_flags | quiet))
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

	struct sigaction dfl = {.sa_handler = SIG_DFL};

	/* A caller that ignores SIGCHLD would have the child reaped unwaited. */
	if (sigaction(SIGCHLD, &dfl, NULL))
		die_errno("self-test: cannot reset SIGCHLD");
	if (pipe2(pipefd, O_CLOEXEC))
		die_errno("self-test: cannot create a pipe");
	pid = fork();
	if (pid < 0)
		die_errno("self-test: cannot fork");
	if (pid == 0)
		self_test_child(p, pipefd[1]);
	/* Our copy of the write end would keep read() from ever seeing EOF. */
	if (close(pipefd[1]))
		die_errno("self-test: cannot close a pipe");
	do
		n = read(pipefd[0], v, sizeof *v);
	while (n < 0 && errno == EINTR);
	if (close(pipefd[0]))
		die_errno("self-test: cannot close a pipe");
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("self-test: cannot wait for the child");
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
static void kv_checks(struct kv *kv, const char *key, uint32_t mask)
{
	struct name names[NCHECKS + 1] = {{0, NULL, 0, 0}};
	int i;

	for (i = 0; i < NCHECKS; i++) {
		names[i].bit = 1U << i;
		names[i].name = checks[i].name;
	}
	kv_names(kv, key, names, mask);
}

/* One writer for both forms, so text and JSON cannot disagree on a key. */
static void report(struct out *o, const struct policy *p, const struct verdict *v)
{
	const struct effective *k = &p->kernel;
	int full = k->abi >= newest_abi(fs_rights);
	struct kv kv = {.o = o, .prefix = "", .json = p->asked.json};

	if (!kv.json)
		outf(o, "landlock: %s\n",
		     full ? "fully enforced" : "partially enforced (older ABI)");
	/* The verdict line alone is the contract scripts compare; -v adds the rest. */
	if (!kv.json && !p->asked.verbose)
		return;
	kv_abi_version(&kv, p);
	if (kv.json) /* the text form says it on its first line */
		kv_word(&kv, "enforcement", full ? "full" : "partial");
	kv_word(&kv, "fs", full ? "full" : "partial");
	kv_fs(&kv, p);
	kv_bool(&kv, "tcp", rights_at(net_rights, k->abi, 0) != 0);
	kv_names(&kv, "scopes", scope_names, rights_at(scope_names, k->abi, 0));
	kv_bool(&kv, "log_flags", rights_at(log_flags, k->abi, 0) != 0);
	kv_checks(&kv, "proven", v->proven);
	kv_word(&kv, "self_test", "passed");
	kv_end(&kv);
}

/* Prove in a child that the kernel denies, then report; the caller flushes. */
void probe(const struct policy *p, struct out *o)
{
	struct verdict v;

	run_self_test(p, &v);
	judge(&v);
	report(o, p, &v);
}
