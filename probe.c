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
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi.h"
#include "out.h"
#include "probe.h"
#include "seccomp.h"
#include "where.h"

enum stage {
	STAGE_DONE,
	STAGE_LISTEN,
	STAGE_RULESET,
	STAGE_NO_NEW_PRIVS,
	STAGE_RESTRICT,
	STAGE_SECCOMP,
};

static const char *const stage_names[] = {
	[STAGE_LISTEN] = "create an abstract UNIX socket listener",
	[STAGE_RULESET] = "create a ruleset",
	[STAGE_NO_NEW_PRIVS] = "set no_new_privs",
	[STAGE_RESTRICT] = "enforce a ruleset",
	[STAGE_SECCOMP] = "install the seccomp filter",
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
	struct sockaddr_un pathname; /* a pathname socket the parent made */
	socklen_t pathname_len;	     /* 0: there is none */
	int pathname_fd;
	char dir[40]; /* the directory holding it, or "" */
	int tty;      /* in the child: a pty that is its controlling terminal, or -1 */
	int call;     /* the check's row of probe_calls[] */
};

/* Each attempt is told the right that should deny it. */
static int file_try(const struct probe_env *env, uint64_t right)
{
	const char *path = right == LANDLOCK_ACCESS_FS_READ_DIR ? "/" : "/dev/null";
	int flags = right == LANDLOCK_ACCESS_FS_WRITE_FILE ? O_WRONLY : O_RDONLY;
	int fd = open(path, flags | O_CLOEXEC);

	(void)env;
	return fd < 0 ? -1 : close(fd);
}

/*
 * A bind or a connect on 127.0.0.1 and a high port (below 1024 an
 * unprivileged bind fails with EACCES anyway), TCP or UDP as the right says.
 * A UDP connect is checked as a send with an address is, and sends nothing.
 */
static int port_try(const struct probe_env *env, uint64_t right)
{
	const uint64_t udp = LANDLOCK_ACCESS_NET_BIND_UDP | LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP;
	const uint64_t bind_rights = LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_BIND_UDP;
	struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(65535)};
	int fd = socket(AF_INET, (right & udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
	int ret, err;

	(void)env;
	if (fd < 0)
		return -1;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ret = (right & bind_rights ? bind : connect)(fd, (const struct sockaddr *)&addr,
						     sizeof addr);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

static int signal_parent(const struct probe_env *env, uint64_t right)
{
	(void)env, (void)right;
	return kill(getppid(), 0);
}

static int unix_connect(const struct sockaddr_un *addr, socklen_t len)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int ret, err;

	if (fd < 0)
		return -1;
	ret = connect(fd, (const struct sockaddr *)addr, len);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

static int abstract_connect(const struct probe_env *env, uint64_t right)
{
	(void)right;
	return unix_connect(&env->listener, env->listener_len);
}

static int pathname_connect(const struct probe_env *env, uint64_t right)
{
	(void)right;
	if (!env->pathname_len) {
		errno = ENOENT;
		return -1;
	}
	return unix_connect(&env->pathname, env->pathname_len);
}

/*
 * On its own controlling terminal the kernel answers TIOCSTI with 0 (or EIO
 * where dev.tty.legacy_tiocsti is off), TIOCLINUX with EINVAL or ENOTTY (no
 * virtual console), and either on a bad descriptor with EBADF: EPERM can
 * only be the seccomp filter's. A byte pushed into the child's own pty is
 * harmless.
 */
static int tty_ioctl(const struct probe_env *env, unsigned long cmd)
{
	char byte = '\0';

	return (int)syscall(SYS_ioctl, env->tty, cmd, &byte);
}

/* Also with high bits the kernel ignores (CVE-2019-10063). */
static int tiocsti(const struct probe_env *env, uint64_t right)
{
	(void)right;
	int ret = tty_ioctl(env, TIOCSTI);

	if (ret == 0 || errno != EPERM)
		return ret;
	return tty_ioctl(env, 1UL << 32 | TIOCSTI);
}

static int tioclinux(const struct probe_env *env, uint64_t right)
{
	(void)right;
	return tty_ioctl(env, TIOCLINUX);
}

static int inet_socket(int family)
{
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	return fd < 0 ? -1 : close(fd);
}

/* A stream pair stays allowed under --no-unix; a socket is refused. */
static int unix_socket(const struct probe_env *env, uint64_t right)
{
	(void)env, (void)right;
	return inet_socket(AF_UNIX);
}

static int inet4(const struct probe_env *env, uint64_t right)
{
	(void)env, (void)right;
	return inet_socket(AF_INET);
}

static int inet6(const struct probe_env *env, uint64_t right)
{
	(void)env, (void)right;
	return inet_socket(AF_INET6);
}

/*
 * The baseline's calls, each with arguments the kernel refuses with its own
 * errno (EFAULT, EINVAL, EOPNOTSUPP, EBADF) before it does anything: the
 * filter's errno differs, so the answer proves the rule, and nothing is
 * created. Where the kernel answers the filter's errno already (a kernel
 * without io_uring says ENOSYS), the check is unprovable.
 */
static const struct probe_call {
	int32_t nr, a, b, c;
} probe_calls[] = {
	{SYS_io_uring_setup, 0, 0, 0},		 /* params NULL: EFAULT */
	{SYS_unshare, 0x10000000 | 1, 0, 0},	 /* CLONE_NEWUSER | a signal: EINVAL */
	{SYS_clone, 0x10000000 | 0x200, 0, 0},	 /* CLONE_NEWUSER | CLONE_FS: EINVAL */
	{SYS_clone3, 0, 0, 0},			 /* size 0: EINVAL */
	{SYS_keyctl, 0x7fffffff, 0, 0},		 /* no such operation: EOPNOTSUPP */
	{SYS_bpf, 0x7fffffff, 0, 0},		 /* no such command: EINVAL */
	{SYS_perf_event_open, 0, 0, -1},	 /* attr NULL: EFAULT */
	{SYS_userfaultfd, 1 | 0x40000000, 0, 0}, /* user-mode only, a bad flag: EINVAL */
	{SYS_fchmod, -1, 04755, 0},		 /* EBADF */
	{SYS_fremovexattr, -1, 0, 0},		 /* EBADF, before the name is read */
};

/* A shared mapping of no file (descriptor -1): the kernel's own answer is
 * EBADF, the filter's ENODEV, and nothing is mapped. */
static int shared_map(const struct probe_env *env, uint64_t right)
{
	(void)env, (void)right;
	return mmap(NULL, 4096, PROT_READ, MAP_SHARED, -1, 0) == MAP_FAILED ? -1 : 0;
}

static int baseline_call(const struct probe_env *env, uint64_t right)
{
	const struct probe_call *c = &probe_calls[env->call];

	(void)right;
	return (int)syscall(c->nr, (long)c->a, (long)c->b, (long)c->c, -1L, 0L);
}

/* A check runs when the probe's ruleset handles its right: every
 * filesystem right of the ABI, the policy's network rights and scopes; the
 * filter's checks when the run's filter has their group (the right). */
enum handled_in { IN_FS, IN_NET, IN_SCOPED, IN_FILTER };

/* What the attempt before the sandbox must show, or the check proves
 * nothing: that it succeeds, or that it fails otherwise than the sandbox. */
enum control { UNCONTROLLED, SUCCEEDS, OTHER_ERRNO };

static const struct check {
	const char *name;
	int (*attempt)(const struct probe_env *, uint64_t right);
	uint8_t expect;	    /* the errno of the denial: Landlock's, or the filter's */
	uint8_t controlled; /* enum control */
	uint8_t in;	    /* enum handled_in */
	uint8_t call;	    /* baseline_call's row */
	uint32_t right;
} checks[] = {
	{"read_dir", file_try, EACCES, SUCCEEDS, IN_FS, 0, LANDLOCK_ACCESS_FS_READ_DIR},
	{"read_file", file_try, EACCES, SUCCEEDS, IN_FS, 0, LANDLOCK_ACCESS_FS_READ_FILE},
	{"write_file", file_try, EACCES, SUCCEEDS, IN_FS, 0, LANDLOCK_ACCESS_FS_WRITE_FILE},
	{"resolve_unix", pathname_connect, EACCES, SUCCEEDS, IN_FS, 0,
	 LANDLOCK_ACCESS_FS_RESOLVE_UNIX},
	{"tcp_bind", port_try, EACCES, UNCONTROLLED, IN_NET, 0, LANDLOCK_ACCESS_NET_BIND_TCP},
	{"tcp_connect", port_try, EACCES, UNCONTROLLED, IN_NET, 0, LANDLOCK_ACCESS_NET_CONNECT_TCP},
	{"udp_bind", port_try, EACCES, UNCONTROLLED, IN_NET, 0, LANDLOCK_ACCESS_NET_BIND_UDP},
	{"udp_connect", port_try, EACCES, UNCONTROLLED, IN_NET, 0,
	 LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP},
	{"signal", signal_parent, EPERM, SUCCEEDS, IN_SCOPED, 0, LANDLOCK_SCOPE_SIGNAL},
	{"abstract-unix", abstract_connect, EPERM, UNCONTROLLED, IN_SCOPED, 0,
	 LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET},
	{"tiocsti", tiocsti, EPERM, UNCONTROLLED, IN_FILTER, 0, GROUP_TTY},
	{"tioclinux", tioclinux, EPERM, UNCONTROLLED, IN_FILTER, 0, GROUP_TTY},
	{"inet", inet4, EAFNOSUPPORT, OTHER_ERRNO, IN_FILTER, 0, GROUP_NETWORK},
	{"inet6", inet6, EAFNOSUPPORT, OTHER_ERRNO, IN_FILTER, 0, GROUP_NETWORK},
	{"unix", unix_socket, EAFNOSUPPORT, OTHER_ERRNO, IN_FILTER, 0, GROUP_UNIX},
	{"io_uring", baseline_call, ENOSYS, OTHER_ERRNO, IN_FILTER, 0, GROUP_IO_URING},
	{"unshare", baseline_call, EPERM, OTHER_ERRNO, IN_FILTER, 1, GROUP_USERNS},
	{"clone", baseline_call, EPERM, OTHER_ERRNO, IN_FILTER, 2, GROUP_USERNS},
	{"clone3", baseline_call, ENOSYS, OTHER_ERRNO, IN_FILTER, 3, GROUP_USERNS},
	{"keyctl", baseline_call, ENOSYS, OTHER_ERRNO, IN_FILTER, 4, GROUP_KEYRING},
	{"bpf", baseline_call, EPERM, OTHER_ERRNO, IN_FILTER, 5, GROUP_BPF},
	{"perf_event_open", baseline_call, EACCES, OTHER_ERRNO, IN_FILTER, 6, GROUP_PERF},
	{"userfaultfd", baseline_call, EPERM, OTHER_ERRNO, IN_FILTER, 7, GROUP_USERFAULTFD},
	{"setuid_mode", baseline_call, EPERM, OTHER_ERRNO, IN_FILTER, 8, GROUP_METADATA},
	{"xattr", baseline_call, EOPNOTSUPP, OTHER_ERRNO, IN_FILTER, 9, GROUP_METADATA},
	{"shared_map", shared_map, ENODEV, OTHER_ERRNO, IN_FILTER, 0, GROUP_SETID_MAPS},
};

#define NCHECKS	 ((int)(sizeof checks / sizeof checks[0]))
#define CHECK_FS (1U << 0 | 1U << 1 | 1U << 2) /* the three that every ABI proves */

static uint32_t wanted_checks(const struct policy *p)
{
	const struct landlock_ruleset_attr *h = &p->kernel.handled;
	const uint64_t in[] = {
		[IN_FS] = p->kernel.fs_abi,
		[IN_NET] = h->handled_access_net,
		[IN_SCOPED] = h->scoped,
		[IN_FILTER] = p->kernel.refused,
	};
	uint32_t wanted = 0;
	int i;

	for (i = 0; i < NCHECKS; i++)
		if (in[checks[i].in] & checks[i].right)
			wanted |= 1U << i;
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

/* The checks of one kind, and of some of the filter's groups, as bits. */
static uint32_t checks_in(enum handled_in in, uint64_t groups)
{
	uint32_t mask = 0;
	int i;

	for (i = 0; i < NCHECKS; i++)
		if (checks[i].in == in && (in != IN_FILTER || (checks[i].right & groups)))
			mask |= 1U << i;
	return mask;
}

/* A new pty made this child's controlling terminal, or -1. The child of a
 * fork leads no process group, so it can start a session; the master stays
 * open until the child exits. */
static int own_tty(void)
{
	int unlock = 0, slave = -1;
	int master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (master >= 0 && ioctl(master, TIOCSPTLCK, &unlock) == 0)
		slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (slave >= 0 && (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0))) {
		close(slave);
		slave = -1;
	}
	return slave;
}

/* Landlock first: its checks run before the filter, whose --no-network
 * would refuse the sockets the port checks need. */
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

/* The checks of MASK in the sandbox: 0, or -1 at the first not refused as
 * expected, with v->failed set. */
static int attempt_checks(struct probe_env *env, struct verdict *v, uint32_t mask)
{
	int i;

	for (i = 0; i < NCHECKS; i++) {
		if (!(mask & 1U << i) || (v->unprovable & 1U << i))
			continue;
		env->call = checks[i].call;
		if (checks[i].attempt(env, checks[i].right) == 0) {
			v->failed = i; /* failed_errno 0: not denied at all */
			return -1;
		}
		if (errno != checks[i].expect) {
			v->failed = i;
			v->failed_errno = errno;
			return -1;
		}
		v->proven |= 1U << i;
	}
	return 0;
}

static void self_test_child(const struct policy *p, struct probe_env *env, int out)
{
	struct verdict v = {.failed = -1};
	uint32_t wanted = wanted_checks(p), filtered = checks_in(IN_FILTER, ~0ULL);
	int abstract = (p->kernel.handled.scoped & LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET) != 0;
	int i;

	env->tty = own_tty();
	for (i = 0; i < NCHECKS; i++) {
		env->call = checks[i].call;
		if ((wanted & 1U << i) && checks[i].controlled &&
		    checks[i].attempt(env, checks[i].right) &&
		    (checks[i].controlled == SUCCEEDS || errno == checks[i].expect))
			v.unprovable |= 1U << i;
	}
	v.stage = STAGE_LISTEN;
	if ((!abstract || listen_abstract(env) == 0) && sandbox_nothing(p, &v) == 0 &&
	    attempt_checks(env, &v, wanted & ~filtered) == 0) {
		v.stage = STAGE_SECCOMP;
		if (filter_syscalls(p->kernel.refused, 0) == 0) {
			v.stage = STAGE_DONE;
			attempt_checks(env, &v, wanted & filtered);
		}
	}
	v.stage_errno = v.stage ? errno : 0;
	_exit(write(out, &v, sizeof v) == sizeof v ? 0 : 1);
}

/* The parent's pathname socket goes before the probe reports or fails. */
static void remove_pathname(struct probe_env *env)
{
	if (env->pathname_len && close(env->pathname_fd))
		die_errno("self-test: cannot close the socket %s", env->pathname.sun_path);
	if (env->pathname_len && unlink(env->pathname.sun_path))
		die_errno("self-test: cannot remove %s", env->pathname.sun_path);
	if (env->dir[0] && rmdir(env->dir))
		die_errno("self-test: cannot remove %s", env->dir);
	env->pathname_len = 0;
	env->dir[0] = '\0';
}

__attribute__((noreturn)) static void abort_test(struct probe_env *env, const char *what)
{
	int err = errno;

	remove_pathname(env);
	errno = err;
	die_errno("self-test: cannot %s", what);
}

/*
 * A pathname socket made here, outside the child's sandbox, in a fresh
 * directory under /tmp, else /dev/shm. Without one the denial could not be
 * proven, and the probe would vouch for more than it proved: it fails.
 */
static void listen_pathname(struct probe_env *env)
{
	static const char *const parents[] = {"/tmp", "/dev/shm"};
	struct out path = {.fd = -1};
	size_t i;
	int fd;

	/* mkdtemp(3) would bring a clock and the vDSO lookup for its name */
	for (i = 0; i < 2 * sizeof parents / sizeof *parents && !env->dir[0]; i++) {
		path.len = 0;
		outf(&path, "%s/landlock-run-probe.XXXXXX%c", parents[i / 2], '\0');
		random_letters(path.buf + path.len - 7, 6);
		memcpy(env->dir, path.buf, path.len);
		if (mkdir(env->dir, 0700))
			env->dir[0] = '\0';
	}
	if (!env->dir[0])
		die_errno("self-test: cannot make a directory for a pathname UNIX socket in /tmp "
			  "or /dev/shm");
	path.len = 0;
	outf(&path, "%s/socket%c", env->dir, '\0');
	env->pathname.sun_family = AF_UNIX;
	memcpy(env->pathname.sun_path, path.buf, path.len);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		abort_test(env, "make a pathname UNIX socket");
	env->pathname_fd = fd;
	if (bind(fd, (struct sockaddr *)&env->pathname, sizeof env->pathname))
		abort_test(env, "bind a pathname UNIX socket");
	env->pathname_len = sizeof env->pathname;
	if (listen(fd, 4))
		abort_test(env, "listen on a pathname UNIX socket");
}

static void run_self_test(const struct policy *p, struct probe_env *env, struct verdict *v)
{
	int pipefd[2], status;
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	ssize_t n;
	pid_t pid;

	/* A caller that ignores SIGCHLD would have the child reaped unwaited. */
	if (sigaction(SIGCHLD, &dfl, NULL))
		die_errno("self-test: cannot reset SIGCHLD");
	if (pipe2(pipefd, O_CLOEXEC))
		abort_test(env, "create a pipe");
	pid = _Fork();
	if (pid < 0)
		abort_test(env, "fork");
	if (pid == 0)
		self_test_child(p, env, pipefd[1]);
	/* Our copy of the write end would keep read() from ever seeing EOF. */
	if (close(pipefd[1]))
		abort_test(env, "close a pipe");
	do
		n = read(pipefd[0], v, sizeof *v);
	while (n < 0 && errno == EINTR);
	if (close(pipefd[0]))
		abort_test(env, "close a pipe");
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			abort_test(env, "wait for the child");
	remove_pathname(env);
	if (n != sizeof *v || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("self-test: the child process did not report (status 0x%x)", status);
}

static void judge(const struct verdict *v)
{
	const struct check *c = &checks[v->failed < 0 ? 0 : v->failed];

	if (v->stage)
		die("self-test: cannot %s: %s", stage_names[v->stage], strerror(v->stage_errno));
	if (v->failed >= 0 && v->failed_errno == 0)
		die("self-test: %s was not denied: the kernel does not enforce %s", c->name,
		    c->in == IN_FILTER ? "the seccomp filter" : "Landlock");
	if (v->failed >= 0)
		die("self-test: %s failed with \"%s\" instead of \"%s\"", c->name,
		    strerror(v->failed_errno), strerror(c->expect));
	if (!(v->proven & CHECK_FS))
		die("self-test: cannot prove a filesystem denial: / and /dev/null are "
		    "inaccessible before the sandbox");
}

/*
 * --explain and --learn trace the command: the tracer seizes its own child
 * as trace.c does, and reads what the command's calls reach through /proc.
 * WHERE_ bits of what stands in the way here, 0 when explaining can work.
 */
static uint64_t explain_blocked(void)
{
	uint64_t where = where_found();
	int go[2], seized;
	char byte;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		die_errno("self-test: cannot create a pipe");
	pid = _Fork();
	if (pid < 0)
		die_errno("self-test: cannot fork");
	if (pid == 0) {
		close(go[1]);
		_exit(read(go[0], &byte, 1) == 0 ? 0 : 1); /* until the parent is done */
	}
	close(go[0]);
	seized = ptrace(PTRACE_SEIZE, pid, 0, PTRACE_O_EXITKILL) == 0;
	kill(pid, SIGKILL);
	close(go[1]);
	while (waitpid(pid, NULL, 0) < 0)
		if (errno != EINTR)
			die_errno("self-test: cannot wait for the child");
	return where | (seized ? 0 : WHERE_NO_PTRACE);
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
	uint64_t net = rights_at(net_rights, k->abi, 0), where;
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
	kv_bool(&kv, "pathname_sockets", (k->fs_abi & LANDLOCK_ACCESS_FS_RESOLVE_UNIX) != 0);
	kv_bool(&kv, "tcp", (net & (1 << NET_TCP_BIND | 1 << NET_TCP_CONNECT)) != 0);
	kv_bool(&kv, "udp", (net & (1 << NET_UDP_BIND | 1 << NET_UDP_CONNECT)) != 0);
	kv_names(&kv, "scopes", scope_names, rights_at(scope_names, k->abi, 0));
	kv_bool(&kv, "log_flags", rights_at(log_flags, k->abi, 0) != 0);
	kv_names(&kv, "unused", unused_features, rights_at(unused_features, k->abi, 0));
	kv_checks(&kv, "proven", v->proven & ~checks_in(IN_FILTER, ~0ULL));
	kv_checks(&kv, "unprovable", v->unprovable);
	kv_word(&kv, "tty_injection",
		(v->proven & checks_in(IN_FILTER, GROUP_TTY)) == checks_in(IN_FILTER, GROUP_TTY)
			? "refused"
			: "unproven");
	/* every check of these was proven, or is listed as unprovable */
	kv_network(&kv, p);
	kv_names(&kv, "baseline", syscall_groups, k->refused);
	kv_bool(&kv, "no_unix", (k->refused & GROUP_UNIX) != 0);
	where = explain_blocked();
	kv_bool(&kv, "explain", !(where & (WHERE_NO_PTRACE | WHERE_NO_PROC)));
	kv_names(&kv, "where", where_names, where);
	kv_word(&kv, "self_test", "passed");
	kv_end(&kv);
}

/* Prove in a child that the kernel denies, then report; the caller flushes. */
void probe(const struct policy *p, struct out *o)
{
	struct probe_env env = {.listener_len = 0};
	struct verdict v;

	if (p->kernel.fs_abi & LANDLOCK_ACCESS_FS_RESOLVE_UNIX)
		listen_pathname(&env);
	run_self_test(p, &env, &v);
	judge(&v);
	report(o, p, &v);
}
