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
	if (option != PR_CAPBSET_DROP)
		finding("prctl(%d, %lu): the stand-in knows no_new_privs, "
			"PR_SET_PDEATHSIG and PR_CAPBSET_DROP",
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
 * builder emits; anything else is a finding. */
static uint32_t run_filter(uint32_t arch, uint32_t nr, uint64_t arg1)
{
	uint32_t data[16] = {nr, arch}, a = 0;
	unsigned pc = 0;

	data[SECCOMP_DATA_ARG(1) / 4] = (uint32_t)arg1; /* little-endian */
	data[SECCOMP_DATA_ARG(1) / 4 + 1] = (uint32_t)(arg1 >> 32);
	while (pc < proc.filter_len) {
		const struct sock_filter *i = &proc.filter[pc++];

		if (i->code == BPF_LD_ABS && i->k % 4 == 0 && i->k < sizeof data)
			a = data[i->k / 4];
		else if (i->code == BPF_JEQ_K)
			pc += a == i->k ? i->jt : i->jf;
		else if (i->code == BPF_RET_K)
			return i->k;
		else
			finding("seccomp filter: instruction 0x%x at %u", i->code, pc - 1);
	}
	finding("seccomp filter runs off its end");
}

#define DENY (SECCOMP_RET_ERRNO | EPERM)

/* What the contract says of each ABI, written here apart from platform/:
 * the native one and the 32-bit one (AUDIT_ARCH values, ioctl and write). */
#if defined(__x86_64__)
#define NATIVE	  0xc000003e
#define COMPAT	  0x40000003
#define IOCTL	  16
#define WRITE	  1
#define COMPAT_WR 4
#elif defined(__aarch64__)
#define NATIVE	  0xc00000b7
#define COMPAT	  0x40000028
#define IOCTL	  29
#define WRITE	  64
#define COMPAT_WR 4
#else
#error "fuzz_args: no seccomp test vectors for this target"
#endif

static const struct vector {
	const char *what;
	uint32_t arch, nr;
	uint64_t arg1, want;
} vectors[] = {
	{"TIOCSTI", NATIVE, IOCTL, 0x5412, DENY},
	{"TIOCSTI with high bits", NATIVE, IOCTL, 0xffffffff00005412, DENY},
	{"TIOCLINUX", NATIVE, IOCTL, 0x541c, DENY},
	{"TCGETS", NATIVE, IOCTL, 0x5401, SECCOMP_RET_ALLOW},
	{"write", NATIVE, WRITE, 0x5412, SECCOMP_RET_ALLOW},
	{"32-bit TIOCSTI", COMPAT, 54, 0x5412, DENY},
	{"32-bit TIOCLINUX", COMPAT, 54, 0x541c, DENY},
	{"32-bit TCGETS", COMPAT, 54, 0x5401, SECCOMP_RET_ALLOW},
	{"32-bit write", COMPAT, COMPAT_WR, 0x5412, SECCOMP_RET_ALLOW},
#if defined(__x86_64__)
	{"x32 TIOCSTI", NATIVE, 0x40000000 | 514, 0x5412, DENY},
	{"x32 TIOCLINUX", NATIVE, 0x40000000 | 514, 0x10000541c, DENY},
#endif
	{"an unknown ABI", 0x12345678, IOCTL, 0x5412, SECCOMP_RET_KILL_PROCESS},
};

static void check_filter(void)
{
	size_t i;

	if (proc.filters != 1 || proc.filter_before_nnp)
		finding("exec after %d seccomp filters (%s no_new_privs)", proc.filters,
			proc.filter_before_nnp ? "one before" : "after");
	for (i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
		const struct vector *v = &vectors[i];
		uint32_t got = run_filter(v->arch, v->nr, v->arg1);

		if (got != v->want)
			finding("seccomp filter answers %s with 0x%x, not 0x%llx", v->what, got,
				(unsigned long long)v->want);
	}
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

pid_t process_setsid(void)
{
	proc.setsid = 1;
	return getpid();
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
	check_filter();
	check_process(a);
}
