/*
 * floor-trace, the floor of --explain for scripts/bench.sh: floor.c built
 * with -DWITH_TRACE (and the flags of floor-baseline-checks), linked with
 * this file.
 *
 *   floor-trace --ro / [--ro PATH | --rw PATH]... -- COMMAND [ARG]...
 *
 * The least a tracer that reports each refusal of a run can do: one fork;
 * the parent attaches the child (PTRACE_SEIZE, following every process it
 * starts), confines itself as the launcher's tracer does (no_new_privs, the
 * capability drop, not dumpable, a seccomp allowlist of the calls below),
 * and lets the child go on to confine itself as floor-baseline-checks and
 * execute COMMAND. The child's filter stops at the tracer the calls
 * --explain stops for the same policy (trace/watch.c, watched(); the calls
 * are platform/linux-*.h's WATCHED_CALLS): what writes or makes files, and
 * ioctl; a change of owner, mode or times only for root, whose capabilities
 * are dropped; not execve, since --ro / lets every file be executed, nor the
 * network and signal calls, since the floor handles no network right and no
 * scope (nor a socket's path: the floor's rights end at ABI 5). The same
 * argument tests as --explain's: an open only for reading or with O_PATH,
 * the ioctl commands Landlock permits on every file, and a change of times
 * with no times never stop. At a stop the tracer reads the call (one
 * PTRACE_GET_SYSCALL_INFO) and asks for its exit, where it reads the result
 * and writes one line for a call that failed as a refusal does (EACCES,
 * EPERM, EXDEV); an ioctl on what is not a device, and a change of owner,
 * mode or times through a descriptor of a file the caller owns (keeping its
 * owner, giving its own group), it lets go on at once, after one stat of
 * /proc/TID/fd/N, since nothing can refuse them. No policy, no path read, no
 * advice, no job control: what any tracer that must see each refusable
 * call's result pays the kernel. It exits with COMMAND's status (128 + the
 * signal that killed it); whatever COMMAND left running is killed with it
 * (PTRACE_O_EXITKILL). Only for runs that may read everywhere (--ro /
 * first), as every bench case; any failure of its own is exit 125.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__)
#include "../../platform/linux-x64.h"
#elif defined(__aarch64__)
#include "../../platform/linux-arm64.h"
#endif

void drop_caps(void); /* floor.c */

#define OPTIONS                                                                                   \
	(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | \
	 PTRACE_O_TRACEEXEC | PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL)
/* The seccomp and classic BPF UAPI (linux/seccomp.h, linux/filter.h, which
 * musl-gcc cannot see). */
struct insn {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};
enum { LD = 0x20, JEQ = 0x15, JSET = 0x45, RET = 0x06 };
enum { ALLOW = 0x7fff0000U, TRACE = 0x7ff00000U, KILL = 0x80000000U };
#define NR     0	      /* seccomp_data.nr */
#define ARCH   4	      /* seccomp_data.arch */
#define ARG(i) (16 + 8 * (i)) /* the low 32 bits of argument i (little-endian) */

#define X(name, nr) W_##name,
enum { WATCHED_CALLS(X) NWATCHED };
#undef X

static const int watched_nr[NWATCHED] = {
#define X(name, nr) nr,
	WATCHED_CALLS(X)
#undef X
};

/* The watched calls with a test, and the argument it reads; every other one
 * always stops. */
struct test {
	int call;
	int arg;
	enum { READ_ONLY, IOCTL_ALWAYS, NULL_PASSES } kind;
};

static const struct test tests[] = {
#ifdef __x86_64__
	{W_open, 1, READ_ONLY},	       {W_utime, 1, NULL_PASSES},  {W_utimes, 1, NULL_PASSES},
	{W_futimesat, 2, NULL_PASSES},
#endif
	{W_openat, 2, READ_ONLY},      {W_ioctl, 1, IOCTL_ALWAYS}, {W_utimensat, 2, NULL_PASSES},
};

static struct insn prog[512];
static unsigned short len;
static uid_t uid; /* the tracer's, which are COMMAND's */
static gid_t gid;

static void emit(uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	if (len == sizeof prog / sizeof prog[0])
		_exit(125);
	prog[len++] = (struct insn){code, jt, jf, k};
}

static void install(void)
{
	struct {
		unsigned short len;
		const void *filter;
	} fprog = {len, prog};

	if (syscall(__NR_seccomp, 1, 0, &fprog)) /* SECCOMP_SET_MODE_FILTER */
		_exit(125);
	len = 0;
}

/* The instructions after "nr == the call's": each path returns. */
static void emit_body(int call)
{
	static const uint32_t always[] = {FIOCLEX, FIONCLEX, FIONBIO, FIOASYNC};
	size_t i, j;

	for (i = 0; i < sizeof tests / sizeof tests[0] && tests[i].call != call; i++)
		;
	if (i < sizeof tests / sizeof tests[0]) {
		const struct test *t = &tests[i];

		emit(LD, 0, 0, ARG(t->arg));
		switch (t->kind) {
		case READ_ONLY:
			emit(JSET, 1, 0, O_PATH);
			emit(JSET, 1, 0, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC);
			emit(RET, 0, 0, ALLOW);
			break;
		case IOCTL_ALWAYS:
			for (j = 0; j < 4; j++)
				emit(JEQ, (uint8_t)(4 - j), 0, always[j]);
			break;
		case NULL_PASSES:
			emit(JEQ, 0, 3, 0);
			emit(LD, 0, 0, ARG(t->arg) + 4);
			emit(JEQ, 0, 1, 0);
			emit(RET, 0, 0, ALLOW);
			break;
		}
	}
	emit(RET, 0, 0, TRACE);
	if (i < sizeof tests / sizeof tests[0] && tests[i].kind == IOCTL_ALWAYS)
		emit(RET, 0, 0, ALLOW);
}

/* Whether the floor's policy can refuse the watched call CALL, as
 * --explain's watched() decides for the same policy; ROOT: the capability
 * drop takes what a change of owner, mode or times may need. */
static int refusable(int call, int root)
{
	switch (call) {
	case W_execve:
	case W_execveat: return 0; /* --ro /: executing is allowed everywhere */
	case W_bind:
	case W_connect:
	case W_sendto:
	case W_sendmsg: return 0; /* no network right handled */
	case W_kill:
	case W_tkill:
	case W_tgkill:
	case W_rt_sigqueueinfo:
	case W_rt_tgsigqueueinfo:
	case W_pidfd_send_signal: return 0; /* no scope */
	case W_chown:
	case W_fchown:
	case W_lchown:
	case W_fchownat:
	case W_chmod:
	case W_fchmod:
	case W_fchmodat:
	case W_fchmodat2:
	case W_utime:
	case W_utimes:
	case W_futimesat:
	case W_utimensat: return root;
	default: return 1;
	}
}

/* The child's filter, before it executes COMMAND (after no_new_privs). */
void trace_watch(void)
{
	int root = getuid() == 0 || geteuid() == 0;
	size_t i, at;

	emit(LD, 0, 0, ARCH);
	emit(JEQ, 1, 0, NATIVE_ARCH);
	emit(RET, 0, 0, ALLOW);
	emit(LD, 0, 0, NR);
	for (i = 0; i < NWATCHED; i++) {
		if (!refusable((int)i, root))
			continue;
		at = len;
		emit(JEQ, 0, 0, (uint32_t)watched_nr[i]);
		emit_body((int)i);
		/* the body's every path returns: past it, A is still the number */
		prog[at].jf = (uint8_t)(len - at - 1);
	}
	emit(RET, 0, 0, ALLOW);
	install();
}

/* The tracer's own allowlist: what its loop calls, nothing else. */
static void confine_tracer(void)
{
	static const int allowed[] = {
		__NR_wait4,	   __NR_ptrace,	    __NR_write, __NR_close, __NR_exit_group,
		__NR_rt_sigreturn, __NR_newfstatat, __NR_statx, /* musl's fstatat: statx, or ... */
#ifdef __NR_stat
		__NR_stat, /* ... stat, as on x86_64 */
#endif
	};
	size_t i, n = sizeof allowed / sizeof allowed[0];

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		_exit(125);
	drop_caps();
	emit(LD, 0, 0, ARCH);
	emit(JEQ, 1, 0, NATIVE_ARCH);
	emit(RET, 0, 0, KILL);
	emit(LD, 0, 0, NR);
	for (i = 0; i < n; i++)
		emit(JEQ, (uint8_t)(n - i), 0, (uint32_t)allowed[i]);
	emit(RET, 0, 0, KILL);
	emit(RET, 0, 0, ALLOW);
	install();
}

/* A descriptor of TID whose file no refusal can be about. */
static int nothing_refuses(pid_t tid, const struct __ptrace_syscall_info *in)
{
	const uint64_t *a = in->entry.args;
	int nr = (int)in->entry.nr, fd = (int)a[0];
	char proc[48];
	struct stat st;

	if (nr == watched_nr[W_utimensat] && a[1] != 0)
		return 0; /* by path */
	if (nr != watched_nr[W_ioctl] && nr != watched_nr[W_fchown] && nr != watched_nr[W_fchmod] &&
	    nr != watched_nr[W_utimensat])
		return 0;
	snprintf(proc, sizeof proc, "/proc/%d/fd/%d", tid, fd);
	if (fstatat(AT_FDCWD, proc, &st, 0))
		return 0;
	if (nr == watched_nr[W_ioctl])
		return !S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode);
	if (st.st_uid != uid)
		return 0;
	return nr != watched_nr[W_fchown] || /* the kernel reads 32 bits of each id */
	       (((uint32_t)a[1] == (uint32_t)-1 || (uint32_t)a[1] == st.st_uid) &&
		((uint32_t)a[2] == (uint32_t)-1 || (uint32_t)a[2] == st.st_gid ||
		 (uint32_t)a[2] == gid));
}

static void stopped(pid_t tid, int status)
{
	struct __ptrace_syscall_info in;
	int sig = WSTOPSIG(status), request = PTRACE_CONT, pass = 0;

	switch (status >> 16) {
	case PTRACE_EVENT_SECCOMP:
		if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof in, &in) > 0 &&
		    in.op == PTRACE_SYSCALL_INFO_SECCOMP && !nothing_refuses(tid, &in))
			request = PTRACE_SYSCALL;
		break;
	case PTRACE_EVENT_STOP:
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
			request = PTRACE_LISTEN;
		break;
	case 0:
		if (sig != (SIGTRAP | 0x80)) {
			pass = sig;
			break;
		}
		if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof in, &in) > 0 &&
		    in.op == PTRACE_SYSCALL_INFO_EXIT && in.exit.is_error &&
		    (in.exit.rval == -EACCES || in.exit.rval == -EPERM || in.exit.rval == -EXDEV))
			(void)!write(2, "floor-trace: a call was refused\n", 32);
		break;
	}
	ptrace(request, tid, 0, pass);
}

/* Parent: trace the child until it ends, and end as it did. The child
 * returns, once traced, to confine itself. */
void trace_start(char **argv)
{
	int go[2], status;
	char byte = 0;
	pid_t child, tid;

	if (!argv[0] || !argv[1] || strcmp(argv[0], "--ro") || strcmp(argv[1], "/") ||
	    pipe2(go, O_CLOEXEC) || (child = fork()) < 0)
		_exit(125);
	if (child == 0) {
		/* the tracer's end closed: it failed, and the child ends too */
		if (close(go[1]) || read(go[0], &byte, 1) != 1)
			_exit(125);
		return;
	}
	uid = geteuid();
	gid = getegid();
	if (ptrace(PTRACE_SEIZE, child, 0, OPTIONS))
		_exit(125);
	confine_tracer();
	if (write(go[1], &byte, 1) != 1 || close(go[1]))
		_exit(125);
	for (;;) {
		tid = (pid_t)syscall(__NR_wait4, -1, &status, __WALL, 0);
		if (tid < 0)
			_exit(125);
		if (WIFSTOPPED(status))
			stopped(tid, status);
		else if (tid == child)
			_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
}
