/*
 * The process calls of the stand-in kernel (process.h): a caller that is
 * root with every capability, or holds none, and the kernel's rules for
 * changing the capability sets, as far as the launcher relies on them; the
 * seccomp filter it installs, kept and run on test vectors at exec.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "process.h"

#define CAP_LAST      40 /* CAP_CHECKPOINT_RESTORE, Linux 5.9 */
#define CAP_SETPCAP   8
#define CAP_ALL	      ((1ULL << (CAP_LAST + 1)) - 1)
#define CAP_VERSION_3 0x20080522

struct process proc;

/* The caller's environment in every run, and the harness's own meanwhile. */
static char *test_env[] = {"LR_A=1", "PATH=/usr/bin:/bin", "LR_B=2", "LR_A=dup", NULL};
static char **harness_env;

struct cap_header {
	uint32_t version;
	int pid;
};

struct cap_data {
	uint32_t effective, permitted, inheritable;
};

static long refuse(int err)
{
	errno = err;
	return -1;
}

void process_start(int root)
{
	harness_env = environ;
	environ = test_env;
	memset(&proc, 0, sizeof proc);
	proc.root = root;
	proc.bounding = CAP_ALL;
	if (root)
		proc.effective = proc.permitted = CAP_ALL;
}

void process_end(void)
{
	environ = harness_env;
}

int process_prctl(int option, unsigned long arg)
{
	if (option == PR_SET_NO_NEW_PRIVS && arg == 1) {
		proc.nnp = 1;
		return 0;
	}
	if (option == PR_SET_PDEATHSIG) {
		proc.pdeathsig = (int)arg;
		return 0;
	}
	if (option == PR_SET_CHILD_SUBREAPER)
		return 0; /* the whole-tree mode, whose fork then fails (fuzz_args.c) */
	if (option != PR_CAPBSET_DROP)
		finding("prctl(%d, %lu): the stand-in knows no_new_privs, PR_SET_PDEATHSIG, "
			"PR_SET_CHILD_SUBREAPER and PR_CAPBSET_DROP",
			option, arg);
	if (!(proc.effective & 1ULL << CAP_SETPCAP))
		return (int)refuse(EPERM);
	if (arg > CAP_LAST)
		return (int)refuse(EINVAL);
	proc.bounding &= ~(1ULL << arg);
	return 0;
}

static void check_header(const struct cap_header *h)
{
	if (h->version != CAP_VERSION_3 || h->pid != 0)
		finding("capget/capset with version 0x%x pid %d", h->version, h->pid);
}

long process_capget(void *header, void *data)
{
	struct cap_data *d = data;
	int i;

	check_header(header);
	for (i = 0; i < 2; i++) {
		d[i].effective = (uint32_t)(proc.effective >> 32 * i);
		d[i].permitted = (uint32_t)(proc.permitted >> 32 * i);
		d[i].inheritable = (uint32_t)(proc.inheritable >> 32 * i);
	}
	return 0;
}

static uint64_t join(const struct cap_data *d, size_t field)
{
	uint32_t lo, hi;

	memcpy(&lo, (const char *)&d[0] + field, sizeof lo);
	memcpy(&hi, (const char *)&d[1] + field, sizeof hi);
	return (uint64_t)hi << 32 | lo;
}

/* The kernel's rules: permitted never grows, effective stays within it. */
long process_capset(const void *header, const void *data)
{
	uint64_t eff = join(data, offsetof(struct cap_data, effective));
	uint64_t perm = join(data, offsetof(struct cap_data, permitted));
	uint64_t inh = join(data, offsetof(struct cap_data, inheritable));

	check_header(header);
	if (perm & ~proc.permitted || eff & ~perm || inh & ~(proc.inheritable | proc.permitted))
		return refuse(EPERM);
	proc.effective = eff;
	proc.permitted = perm;
	proc.inheritable = inh;
	return 0;
}

long process_seccomp(unsigned op, unsigned flags, const void *prog)
{
	const struct sock_fprog *p = prog;

	if (op != SECCOMP_SET_MODE_FILTER || flags || !p || !p->len || p->len > FILTER_MAX)
		finding("seccomp(%u, %u, len %u): not one filter the kernel takes", op, flags,
			p ? p->len : 0);
	proc.filters++;
	proc.filter_before_nnp |= !proc.nnp;
	memcpy(proc.filter, p->filter, p->len * sizeof *p->filter);
	proc.filter_len = p->len;
	return 0;
}

/* Classic BPF as the kernel runs it, for the instructions the launcher's
 * builder emits; anything else is a finding. *loaded_arg says whether an
 * argument was read: a call without a rule must be decided without, so
 * that the kernel's action cache can answer it. */
static uint32_t run_filter(uint32_t arch, uint32_t nr, unsigned argi, uint64_t arg, int *loaded_arg)
{
	uint32_t data[16] = {nr, arch}, a = 0;
	unsigned pc = 0;

	data[SECCOMP_DATA_ARG(argi) / 4] = (uint32_t)arg; /* little-endian */
	data[SECCOMP_DATA_ARG(argi) / 4 + 1] = (uint32_t)(arg >> 32);
	*loaded_arg = 0;
	while (pc < proc.filter_len) {
		const struct sock_filter *i = &proc.filter[pc++];

		if (i->code == BPF_LD_ABS && i->k % 4 == 0 && i->k < sizeof data) {
			a = data[i->k / 4];
			*loaded_arg |= i->k >= SECCOMP_DATA_ARG(0);
		} else if (i->code == BPF_JEQ_K)
			pc += a == i->k ? i->jt : i->jf;
		else if (i->code == BPF_LD_IMM)
			a = i->k;
		else if (i->code == BPF_AND_K)
			a &= i->k;
		else if (i->code == BPF_JGT_K)
			pc += a > i->k ? i->jt : i->jf;
		else if (i->code == BPF_JSET_K)
			pc += a & i->k ? i->jt : i->jf;
		else if (i->code == BPF_JA)
			pc += i->k;
		else if (i->code == BPF_RET_K)
			return i->k;
		else
			finding("seccomp filter: instruction 0x%x at %u", i->code, pc - 1);
	}
	finding("seccomp filter runs off its end");
}

#define DENY(e) (SECCOMP_RET_ERRNO | (e))
#define X32	0x40000000
#define NEWUSER 0x10000000
#define ALLOW	SECCOMP_RET_ALLOW

/* What the contract says of each ABI, written here apart from platform/:
 * the native one and the 32-bit one (AUDIT_ARCH values and the numbers,
 * from the kernel's tables). */
#if defined(__x86_64__)
#define NATIVE 0xc000003e
#define COMPAT 0x40000003
enum {
	IOCTL = 16,
	WRITE = 1,
	SOCKET = 41,
	SOCKETPAIR = 53,
	UNSHARE = 272,
	CLONE = 56,
	KEYCTL = 250,
	BPF = 321,
	PERF = 298,
	UFFD = 323,
	FCHMODAT = 268,
	OPENAT = 257,
	SETXATTR = 188,
	C_IOCTL = 54,
	C_WRITE = 4,
	C_SOCKET = 359,
	C_CLONE = 120,
	C_UNSHARE = 310,
	C_CHMOD = 15,
	C_SETXATTR = 226,
	C_KEYCTL = 288
};
#elif defined(__aarch64__)
#define NATIVE 0xc00000b7
#define COMPAT 0x40000028
enum {
	IOCTL = 29,
	WRITE = 64,
	SOCKET = 198,
	SOCKETPAIR = 199,
	UNSHARE = 97,
	CLONE = 220,
	KEYCTL = 219,
	BPF = 280,
	PERF = 241,
	UFFD = 282,
	FCHMODAT = 53,
	OPENAT = 56,
	SETXATTR = 5,
	C_IOCTL = 54,
	C_WRITE = 4,
	C_SOCKET = 281,
	C_CLONE = 120,
	C_UNSHARE = 337,
	C_CHMOD = 15,
	C_SETXATTR = 226,
	C_KEYCTL = 311
};
#else
#error "fuzz_args: no seccomp test vectors for this target"
#endif

/* A call, the one argument that matters, and what it gets when its group
 * is in force; ALLOW otherwise, or always with group 0. */
static const struct vector {
	const char *what;
	uint32_t arch, nr;
	unsigned argi;
	uint64_t arg;
	unsigned group;
	uint32_t refused;
} vectors[] = {
	{"TIOCSTI", NATIVE, IOCTL, 1, 0x5412, F_TTY, DENY(EPERM)},
	{"TIOCSTI with high bits", NATIVE, IOCTL, 1, 0xffffffff00005412, F_TTY, DENY(EPERM)},
	{"TIOCLINUX", NATIVE, IOCTL, 1, 0x541c, F_TTY, DENY(EPERM)},
	{"TCGETS", NATIVE, IOCTL, 1, 0x5401, 0, ALLOW},
	{"write", NATIVE, WRITE, 1, 0x5412, 0, ALLOW},
	{"32-bit TIOCSTI", COMPAT, C_IOCTL, 1, 0x5412, F_TTY, DENY(EPERM)},
	{"32-bit TIOCLINUX", COMPAT, C_IOCTL, 1, 0x541c, F_TTY, DENY(EPERM)},
	{"32-bit TCGETS", COMPAT, C_IOCTL, 1, 0x5401, 0, ALLOW},
	{"32-bit write", COMPAT, C_WRITE, 1, 0x5412, 0, ALLOW},
	{"socket(AF_INET)", NATIVE, SOCKET, 0, 2, F_NETWORK, DENY(EAFNOSUPPORT)},
	{"socket(AF_INET6) with high bits", NATIVE, SOCKET, 0, 1ULL << 32 | 10, F_NETWORK,
	 DENY(EAFNOSUPPORT)},
	{"socket(AF_UNIX)", NATIVE, SOCKET, 0, 1, 0, ALLOW},
	{"socket(AF_UNIX) with high bits", NATIVE, SOCKET, 0, 1ULL << 32 | 1, 0, ALLOW},
	{"socketpair(AF_INET)", NATIVE, SOCKETPAIR, 0, 2, F_NETWORK, DENY(EAFNOSUPPORT)},
	{"32-bit socket(AF_NETLINK)", COMPAT, C_SOCKET, 0, 16, F_NETWORK, DENY(EAFNOSUPPORT)},
	{"32-bit socket(AF_UNIX)", COMPAT, C_SOCKET, 0, 1, 0, ALLOW},
	{"io_uring_setup", NATIVE, 425, 0, 0, F_IO_URING, DENY(ENOSYS)},
	{"32-bit io_uring_enter", COMPAT, 426, 0, 0, F_IO_URING, DENY(ENOSYS)},
	{"unshare(CLONE_NEWUSER)", NATIVE, UNSHARE, 0, NEWUSER | 0x20000, F_USERNS, DENY(EPERM)},
	{"unshare(CLONE_NEWNS)", NATIVE, UNSHARE, 0, 0x20000, 0, ALLOW},
	{"clone(CLONE_NEWUSER)", NATIVE, CLONE, 0, NEWUSER | 17, F_USERNS, DENY(EPERM)},
	{"clone(SIGCHLD)", NATIVE, CLONE, 0, 17, 0, ALLOW},
	{"clone with CLONE_NEWUSER in argument 1", NATIVE, CLONE, 1, NEWUSER, 0, ALLOW},
	{"32-bit clone(CLONE_NEWUSER)", COMPAT, C_CLONE, 0, NEWUSER, F_USERNS, DENY(EPERM)},
	{"32-bit unshare(CLONE_NEWUSER)", COMPAT, C_UNSHARE, 0, NEWUSER, F_USERNS, DENY(EPERM)},
	{"clone3", NATIVE, 435, 0, 0, F_USERNS, DENY(ENOSYS)},
	{"keyctl", NATIVE, KEYCTL, 0, 0, F_KEYRING, DENY(ENOSYS)},
	{"32-bit keyctl", COMPAT, C_KEYCTL, 0, 0, F_KEYRING, DENY(ENOSYS)},
	{"bpf", NATIVE, BPF, 0, 0, F_BPF, DENY(EPERM)},
	{"perf_event_open", NATIVE, PERF, 0, 0, F_PERF, DENY(EACCES)},
	{"userfaultfd", NATIVE, UFFD, 0, 0, F_USERFAULTFD, DENY(EPERM)},
	{"fchmodat 04755", NATIVE, FCHMODAT, 2, 04755, F_METADATA, DENY(EPERM)},
	{"fchmodat 02755 with high bits", NATIVE, FCHMODAT, 2, 1ULL << 40 | 02755, F_METADATA,
	 DENY(EPERM)},
	{"fchmodat 0755", NATIVE, FCHMODAT, 2, 0755, 0, ALLOW},
	{"fchmodat2 06755", NATIVE, 452, 2, 06755, F_METADATA, DENY(EPERM)},
	{"openat O_CREAT 04755", NATIVE, OPENAT, 3, 04755, F_METADATA, DENY(EPERM)},
	{"openat 0644", NATIVE, OPENAT, 3, 0644, 0, ALLOW},
	{"openat2", NATIVE, 437, 0, 0, F_METADATA, DENY(ENOSYS)},
	{"setxattr", NATIVE, SETXATTR, 0, 0, F_METADATA, DENY(EOPNOTSUPP)},
	{"removexattrat", NATIVE, 466, 0, 0, F_METADATA, DENY(EOPNOTSUPP)},
	{"32-bit chmod 04755", COMPAT, C_CHMOD, 1, 04755, F_METADATA, DENY(EPERM)},
	{"32-bit setxattr", COMPAT, C_SETXATTR, 0, 0, F_METADATA, DENY(EOPNOTSUPP)},
#if defined(__x86_64__)
	{"x32 TIOCSTI", NATIVE, X32 | 514, 1, 0x5412, F_TTY, DENY(EPERM)},
	{"x32 TIOCLINUX", NATIVE, X32 | 514, 1, 0x10000541c, F_TTY, DENY(EPERM)},
	{"x32 socket(AF_INET)", NATIVE, X32 | SOCKET, 0, 2, F_NETWORK, DENY(EAFNOSUPPORT)},
	{"x32 clone(CLONE_NEWUSER)", NATIVE, X32 | CLONE, 0, NEWUSER, F_USERNS, DENY(EPERM)},
	{"x32 io_uring_setup", NATIVE, X32 | 425, 0, 0, F_IO_URING, DENY(ENOSYS)},
	{"i386 socketcall(SYS_SOCKET)", COMPAT, 102, 0, 1, F_NETWORK, DENY(EAFNOSUPPORT)},
	{"i386 socketcall(SYS_SOCKETPAIR)", COMPAT, 102, 0, 8, F_NETWORK, DENY(EAFNOSUPPORT)},
	{"i386 socketcall(SYS_CONNECT)", COMPAT, 102, 0, 3, 0, ALLOW},
#endif
	{"an unknown ABI", 0x12345678, IOCTL, 1, 0x5412, 0, SECCOMP_RET_KILL_PROCESS},
};

/* The groups in force: the terminal's always, the baseline's but what
 * --allow-syscalls names, the network's with --no-network, metadata for
 * root (who holds uid 0 in the stand-in). */
static unsigned groups_in_force(const struct asked_process *a)
{
	unsigned groups = F_TTY | F_IO_URING | F_USERNS | F_KEYRING | F_BPF | F_PERF |
			  F_USERFAULTFD | (proc.root ? F_METADATA : 0);

	return (groups | (a->no_network ? F_NETWORK : 0)) & ~a->allowed;
}

static void check_filter(const struct asked_process *a)
{
	unsigned groups = groups_in_force(a);
	size_t i;
	int loaded;

	if (proc.filters != 1 || proc.filter_before_nnp)
		finding("exec after %d seccomp filters (%s no_new_privs)", proc.filters,
			proc.filter_before_nnp ? "one before" : "after");
	for (i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
		const struct vector *v = &vectors[i];
		uint32_t want = v->group & groups ? v->refused : v->group ? ALLOW : v->refused;
		uint32_t got = run_filter(v->arch, v->nr, v->argi, v->arg, &loaded);

		if (got != want)
			finding("seccomp filter answers %s with 0x%x, not 0x%x (groups 0x%x)",
				v->what, got, want, groups);
		/* a call without a rule in force: the action cache's, no argument read */
		if (v->group && !(v->group & groups) && loaded)
			finding("seccomp filter reads an argument of %s, whose group 0x%x is not "
				"in "
				"force",
				v->what, v->group);
	}
	if (run_filter(NATIVE, WRITE, 0, 0, &loaded) != ALLOW || loaded)
		finding("seccomp filter reads an argument of write, which has no rule");
}

/* The grants' own closes go to the kernel; --close-fds is recorded only, or
 * it would mark the fuzzer's descriptors close-on-exec. */
long process_close_range(unsigned first, unsigned last, unsigned flags)
{
	if (flags == 0)
		return syscall(__NR_close_range, first, last, flags);
	if (flags != 4 || last != ~0U) /* CLOSE_RANGE_CLOEXEC */
		finding("close_range(%u, %u, 0x%x): not --close-fds", first, last, flags);
	proc.cloexec_from = (int)first;
	return 0;
}

/* The ids the kernel hands over at exec: root's, or 1000's. */
unsigned long process_getauxval(unsigned long type)
{
	if (type == AT_UID || type == AT_EUID)
		return proc.root ? 0 : 1000;
	return getauxval(type);
}

pid_t process_setsid(void)
{
	proc.setsid = 1;
	return getpid();
}

/* The kernel's rules: a 64-bit set, HOW one of three, SIGKILL and SIGSTOP
 * never blocked, the old mask written only by a call that succeeds; the
 * fuzzer's own mask is never touched. */
long process_sigprocmask(int how, const uint64_t *set, uint64_t *old, size_t size)
{
	const uint64_t unblockable = 1ULL << (SIGKILL - 1) | 1ULL << (SIGSTOP - 1);
	uint64_t was = proc.blocked;

	if (size != sizeof *set ||
	    (set && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK))
		return refuse(EINVAL);
	if (set && how == SIG_BLOCK)
		proc.blocked |= *set;
	else if (set && how == SIG_UNBLOCK)
		proc.blocked &= ~*set;
	else if (set)
		proc.blocked = *set;
	proc.blocked &= ~unblockable;
	if (old)
		*old = was;
	return 0;
}

/* How many entries of ENV set NAME (LEN bytes), and the last one. */
static int count_named(char **env, const char *name, size_t len, const char **last)
{
	int n = 0;

	for (; *env; env++)
		if (strncmp(*env, name, len) == 0 && (*env)[len] == '=') {
			n++;
			*last = *env;
		}
	return n;
}

/* The contract for each variable an edit or the caller names: the last of
 * --clearenv, --setenv and --unsetenv on it decides, else the caller's. */
static void check_name(const struct asked_process *a, const char *name, size_t len)
{
	const char *want = NULL, *got = NULL;
	int i, kept = 1, n;

	for (i = 0; i < a->nenv; i++) {
		if (!a->env[i]) {
			kept = 0;
			want = NULL;
		} else if (strncmp(a->env[i], name, len) == 0 &&
			   (a->env[i][len] == '=' || a->env[i][len] == '\0')) {
			kept = 0;
			want = a->env[i][len] == '=' ? a->env[i] : NULL;
		}
	}
	n = count_named(environ, name, len, &got);
	if (kept && n != count_named(test_env, name, len, &want))
		finding("exec with %d entries for %.*s, the caller gave more or fewer", n, (int)len,
			name);
	if (!kept && (n != (want != NULL) || (want && strcmp(want, got) != 0)))
		finding("exec with %.*s %s, the edits say %s", (int)len, name, n ? got : "unset",
			want ? want : "unset");
}

static void check_process(const struct asked_process *a)
{
	int i;

	if (a->new_session != proc.setsid)
		finding("exec %s setsid, --new-session %s", proc.setsid ? "after" : "without",
			a->new_session ? "given" : "not given");
	if (a->die_with_parent != (proc.pdeathsig == SIGKILL))
		finding("exec with parent-death signal %d", proc.pdeathsig);
	if (a->close_fds != (proc.cloexec_from == 3))
		finding("exec with descriptors from %d close-on-exec", proc.cloexec_from);
	if (proc.blocked) /* the caller's mask is none (process_start) */
		finding("exec with signals 0x%llx blocked", (unsigned long long)proc.blocked);
	for (i = 0; test_env[i]; i++)
		check_name(a, test_env[i], strcspn(test_env[i], "="));
	for (i = 0; i < a->nenv; i++)
		if (a->env[i])
			check_name(a, a->env[i], strcspn(a->env[i], "="));
	for (i = 0; environ[i]; i++)
		check_name(a, environ[i], strcspn(environ[i], "="));
}

void process_check_exec(const struct asked_process *a)
{
	uint64_t caller = proc.root ? CAP_ALL : 0;
	int keep_caps = a->keep_caps;

	if (keep_caps && (proc.permitted != caller || proc.bounding != CAP_ALL))
		finding("--keep-caps: exec with permitted 0x%llx bounding 0x%llx",
			(unsigned long long)proc.permitted, (unsigned long long)proc.bounding);
	if (!keep_caps && (proc.effective | proc.permitted | proc.inheritable))
		finding("exec with capabilities left: effective 0x%llx permitted 0x%llx",
			(unsigned long long)proc.effective, (unsigned long long)proc.permitted);
	/* Root's exec gets the bounding set, whatever permitted was. */
	if (!keep_caps && proc.root && proc.bounding)
		finding("root's exec with bounding set 0x%llx", (unsigned long long)proc.bounding);
	check_filter(a);
	check_process(a);
}
