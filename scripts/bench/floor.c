/*
 * The floor for scripts/bench.sh: the least a launcher can cost.
 *
 *   floor [COMMAND [ARG]...]
 *     execve COMMAND (a path, no PATH lookup) with its arguments and the
 *     environment, nothing else. Without COMMAND it exits 0 at once: a
 *     static no-op command, the cheapest thing there is to launch.
 *
 * Built with -DWITH_LANDLOCK it is the floor of a Landlock launcher:
 *
 *   floor-landlock [--ro PATH | --rw PATH]... -- COMMAND [ARG]...
 *     the fewest system calls that confine COMMAND: one ruleset, then per
 *     grant one openat(O_PATH) and one landlock_add_rule (a second one for
 *     a file, after the kernel refused directory rights with EINVAL), then
 *     no_new_privs, restrict_self, execve. The descriptors are O_CLOEXEC:
 *     execve closes them, with no close(2) each. Same-inode grants are
 *     merged by the kernel itself (it ORs the rights of a rule it already
 *     has). No messages, no checks beyond the system calls' results: any
 *     failure is exit 125. Benchmark use only: the soft RLIMIT_NOFILE is
 *     raised to the hard one and left there.
 *
 * Built with -DWITH_SECCOMP as well it is floor-seccomp: floor-landlock that
 * also installs, after restrict_self, a seccomp filter of one instruction
 * (allow everything), what attaching any filter costs the kernel.
 *
 * With -DWITH_PROMISE instead it is floor-promise, the least that keeps the
 * launcher's promises without the baseline: floor-landlock, then a filter
 * that refuses TIOCSTI and TIOCLINUX on every system-call ABI of the target
 * (platform/linux-*.h), then the capability drop (bounding set, then every set),
 * as landlock-run does with every --allow-syscalls group. With
 * -DWITH_BASELINE as well it is floor-baseline: the same filter also
 * refuses what landlock-run's baseline and root's metadata rules refuse
 * (with the shared mappings of files, as where root's command writes a
 * directory), so it keeps every promise of a default run as root. Its filter is written
 * here, not by landlock-run's builder, as short as these rules allow: per
 * ABI a search on the number, calls with the same test sharing one body,
 * one return per action. It is what any launcher would pay for them.
 *
 * With -DWITH_CHECKS as well (floor-promise-checks, floor-baseline-checks)
 * it also makes, before its first rule, the checks of two promises every
 * run keeps beside its filter: that COMMAND shares no terminal (TCGETS on
 * 0, 1 and 2, then an open of /dev/tty: the launcher supervises a run that
 * has one, and this floor exits 125), and that no write grant is on, above
 * or inside a policy directory ($XDG_CONFIG_HOME/landlock-run or
 * ~/.config/landlock-run, and /etc/landlock-run): a stat of / and an lstat
 * of each prefix of their paths that exists, then per --rw grant an fstat
 * and, for a directory, one fstatat per level up until a directory those
 * lookups go through. The least those promises take: the launcher makes
 * the same calls, no more.
 *
 * With -DWITH_TRACE as well (and floor-trace.c) it is floor-trace, the
 * floor of --explain: floor-baseline-checks under the least tracer that
 * sees the result of each call the policy can refuse (see floor-trace.c).
 *
 * floor -> floor-landlock is what the kernel charges for Landlock;
 * floor-landlock -> floor-seccomp what it charges for any seccomp filter;
 * floor-landlock -> floor-promise what the terminal rules and the capability
 * drop cost; floor-promise -> floor-baseline what the baseline's rules cost
 * the kernel; floor-baseline -> floor-baseline-checks what the terminal and
 * policy-directory checks cost; floor-baseline-checks -> landlock-run what
 * the launcher adds; the confined run -> floor-trace what any ptrace
 * --explain pays the kernel, floor-trace -> --explain what ours adds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#include "../../platform/linux-x64.h"
#elif defined(__aarch64__)
#include "../../platform/linux-arm64.h"
#endif

extern char **environ;

#ifdef WITH_PROMISE
/* The capability UAPI (linux/capability.h, which musl-gcc cannot see). */
#define CAP_VERSION_3 0x20080522
struct cap_header {
	uint32_t version;
	int pid;
};
struct cap_data {
	uint32_t effective, permitted, inheritable;
};

struct insn {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

enum { LD = 0x20, JEQ = 0x15, JGT = 0x25, JSET = 0x45, AND = 0x54, RET = 0x06 };
enum { ALLOW = 0x7fff0000, KILL = 0x80000000, ERRNO = 0x00050000 };
enum { ALWAYS, SET, EQ2, MASKED }; /* no test; arg & k; arg == k or k2; (arg & k2) == k */

/* One call's rule: its numbers per ABI, the test, and the errno. */
struct rule {
	uint16_t nr[NABIS];
	uint8_t test, arg;
	uint32_t k, k2;
	uint16_t err;
};

/* clang-format off */
static const struct rule rules[] = {
	{NR_ioctl, EQ2, 1, 0x5412, 0x541c, EPERM}, /* TIOCSTI, TIOCLINUX */
#ifdef WITH_BASELINE
	{NR_io_uring_setup, ALWAYS, 0, 0, 0, ENOSYS},
	{NR_io_uring_enter, ALWAYS, 0, 0, 0, ENOSYS},
	{NR_io_uring_register, ALWAYS, 0, 0, 0, ENOSYS},
	{NR_unshare, SET, 0, 0x10000000, 0, EPERM}, /* CLONE_NEWUSER */
	{NR_clone, SET, 0, 0x10000000, 0, EPERM},
	{NR_clone3, ALWAYS, 0, 0, 0, ENOSYS},
	{NR_add_key, ALWAYS, 0, 0, 0, ENOSYS},
	{NR_request_key, ALWAYS, 0, 0, 0, ENOSYS},
	{NR_keyctl, ALWAYS, 0, 0, 0, ENOSYS},
	{NR_bpf, ALWAYS, 0, 0, 0, EPERM},
	{NR_perf_event_open, ALWAYS, 0, 0, 0, EACCES},
	{NR_userfaultfd, ALWAYS, 0, 0, 0, EPERM},
	{NR_chmod, SET, 1, 06000, 0, EPERM},
	{NR_fchmod, SET, 1, 06000, 0, EPERM},
	{NR_fchmodat, SET, 2, 06000, 0, EPERM},
	{NR_fchmodat2, SET, 2, 06000, 0, EPERM},
	{NR_open, SET, 2, 06000, 0, EPERM},
	{NR_creat, SET, 1, 06000, 0, EPERM},
	{NR_openat, SET, 3, 06000, 0, EPERM},
	{NR_mknod, SET, 1, 06000, 0, EPERM},
	{NR_mknodat, SET, 2, 06000, 0, EPERM},
	{NR_openat2, ALWAYS, 0, 0, 0, ENOSYS},
	{NR_setxattr, ALWAYS, 0, 0, 0, EOPNOTSUPP},
	{NR_lsetxattr, ALWAYS, 0, 0, 0, EOPNOTSUPP},
	{NR_fsetxattr, ALWAYS, 0, 0, 0, EOPNOTSUPP},
	{NR_setxattrat, ALWAYS, 0, 0, 0, EOPNOTSUPP},
	{NR_removexattr, ALWAYS, 0, 0, 0, EOPNOTSUPP},
	{NR_lremovexattr, ALWAYS, 0, 0, 0, EOPNOTSUPP},
	{NR_fremovexattr, ALWAYS, 0, 0, 0, EOPNOTSUPP},
	{NR_removexattrat, ALWAYS, 0, 0, 0, EOPNOTSUPP},
	/* a shared mapping of a file, where root's command writes a directory */
	{NR_mmap__args, MASKED, 3, 0x01, 0x21, ENODEV}, /* MAP_SHARED, not MAP_ANONYMOUS */
	{NR_mmap2, MASKED, 3, 0x01, 0x21, ENODEV},
	{NR_mmap__old, ALWAYS, 0, 0, 0, ENOSYS},
#endif
};
/* clang-format on */

#define NRULES (sizeof rules / sizeof rules[0])
#define ARG(i) (16 + 8 * (i)) /* the low 32 bits of argument i (little-endian) */

static struct insn prog[1024];
static size_t len;

static void emit(uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	if (len == sizeof prog / sizeof prog[0])
		_exit(125);
	prog[len++] = (struct insn){code, jt, jf, k};
}

/* The rules of ABI column ABI, by number. */
static size_t sorted(size_t abi, const struct rule **out)
{
	size_t i, j, n = 0;

	for (i = 0; i < NRULES; i++) {
		if (!rules[i].nr[abi])
			continue;
		for (j = n++; j > 0 && out[j - 1]->nr[abi] > rules[i].nr[abi]; j--)
			out[j] = out[j - 1];
		out[j] = &rules[i];
	}
	return n;
}

/*
 * Jumps whose target comes later in the block: a body (a rule's test, shared
 * by every call with the same test) or a return (one per action). Each is
 * kept as (instruction, which offset, target) and set once the target is out.
 */
struct later {
	size_t at;
	int on_false;
	const struct rule *body; /* or NULL: the return of ACTION */
	uint32_t action;
};

static struct later pend[256];
static size_t npend;

static void to(size_t at, int on_false, const struct rule *body, uint32_t action)
{
	if (npend == sizeof pend / sizeof pend[0])
		_exit(125);
	pend[npend++] = (struct later){at, on_false, body, action};
}

static void set_jump(size_t at, int on_false, size_t target)
{
	if (target - at - 1 > 255)
		_exit(125);
	if (on_false)
		prog[at].jf = (uint8_t)(target - at - 1);
	else
		prog[at].jt = (uint8_t)(target - at - 1);
}

/* Whether rules R and Q refuse on the same test (their numbers aside). */
static int same_test(const struct rule *r, const struct rule *q)
{
	return r->test == q->test && r->arg == q->arg && r->k == q->k && r->k2 == q->k2 &&
	       r->err == q->err;
}

/* A search that halves the calls down to leaves of 4 compares; a matched
 * number goes to its return (no test) or to its rule's body. */
static void search(const struct rule **r, size_t n, size_t abi)
{
	size_t i, at, half = n / 2;

	if (n > 4) {
		at = len;
		emit(JGT, 0, 0, r[half - 1]->nr[abi]);
		search(r, half, abi);
		set_jump(at, 0, len);
		search(r + half, n - half, abi);
		return;
	}
	for (i = 0; i < n; i++) {
		to(len, 0, r[i]->test == ALWAYS ? NULL : r[i], ERRNO | r[i]->err);
		emit(JEQ, 0, 0, r[i]->nr[abi]);
	}
	to(len - 1, 1, NULL, ALLOW);
}

/* The bodies the block's jumps wait for, each test once, then the returns. */
static void bodies_and_returns(void)
{
	size_t i, j, where[256], ret_at[256];

	for (i = 0; i < npend; i++) {
		const struct rule *r = pend[i].body;

		if (!r)
			continue;
		for (j = 0; j < i && !(pend[j].body && same_test(pend[j].body, r)); j++)
			;
		where[i] = j < i ? where[j] : len;
		set_jump(pend[i].at, pend[i].on_false, where[i]);
		if (j < i)
			continue;
		emit(LD, 0, 0, ARG(r->arg));
		if (r->test == MASKED)
			emit(AND, 0, 0, r->k2);
		to(len, 0, NULL, ERRNO | r->err);
		if (r->test == SET) {
			emit(JSET, 0, 0, r->k);
		} else if (r->test == MASKED) {
			emit(JEQ, 0, 0, r->k);
		} else {
			emit(JEQ, 0, 0, r->k);
			to(len, 0, NULL, ERRNO | r->err);
			emit(JEQ, 0, 0, r->k2);
		}
		to(len - 1, 1, NULL, ALLOW);
	}
	for (i = 0; i < npend; i++) {
		if (pend[i].body)
			continue;
		for (j = 0; j < i && (pend[j].body || pend[j].action != pend[i].action); j++)
			;
		ret_at[i] = j < i ? ret_at[j] : len;
		if (j == i)
			emit(RET, 0, 0, pend[i].action);
		set_jump(pend[i].at, pend[i].on_false, ret_at[i]);
	}
	npend = 0;
}

/* not static: floor-trace.c drops the tracer's too */
void drop_caps(void)
{
	struct cap_header header = {CAP_VERSION_3, 0};
	struct cap_data sets[2] = {{0, 0, 0}, {0, 0, 0}};
	int cap = 0;

	while (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0)
		cap++;
	if (syscall(__NR_capset, &header, sets))
		_exit(125);
}

/*
 * An ABI whose numbers carry a bit (x32) shares its arch's dispatch: its
 * numbers that differ from the native ones mapped to them, the bit cleared.
 *	if (A & bit) { if (A == bit | own nr) A = native nr; ...  A &= ~bit; }
 */
static void map_bit_abi(size_t abi, size_t native, uint32_t bit)
{
	size_t i, at = len;

	emit(JSET, 0, 0, bit);
	for (i = 0; i < NRULES; i++)
		if (rules[i].nr[abi] && rules[i].nr[abi] != rules[i].nr[native]) {
			emit(JEQ, 0, 1, bit | rules[i].nr[abi]);
			emit(0x00, 0, 0, rules[i].nr[native]); /* A = k */
		}
	emit(AND, 0, 0, ~bit);
	set_jump(at, 1, len);
}

/*
 *	A = arch;  per ABI without a number bit: if (A == arch) goto its block
 *	return KILL
 *	block:  A = nr;  [the bit ABIs of its arch mapped];  search;  bodies;  returns
 */
static void confine_calls(void)
{
	static const struct {
		uint32_t arch, bit;
	} abis[NABIS] = SYSCALL_ABIS;
	const struct rule *r[NRULES];
	size_t i, j, at[NABIS];
	struct {
		unsigned short len;
		const void *filter;
	} fprog;

	emit(LD, 0, 0, 4); /* seccomp_data.arch */
	for (i = 0; i < NABIS; i++) {
		at[i] = len;
		if (!abis[i].bit)
			emit(JEQ, 0, 0, abis[i].arch);
	}
	emit(RET, 0, 0, KILL);
	for (i = 0; i < NABIS; i++) {
		if (abis[i].bit)
			continue;
		set_jump(at[i], 0, len);
		emit(LD, 0, 0, 0); /* seccomp_data.nr */
		for (j = 0; j < NABIS; j++)
			if (abis[j].bit && abis[j].arch == abis[i].arch)
				map_bit_abi(j, i, abis[j].bit);
		search(r, sorted(i, r), i);
		bodies_and_returns();
	}
	fprog.len = (unsigned short)len;
	fprog.filter = prog;
	drop_caps();
	if (syscall(__NR_seccomp, 1, 0, &fprog))
		_exit(125);
}
#endif

#ifdef WITH_CHECKS
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <stdlib.h>

/* The terminal: none on 0, 1 or 2, and no controlling one. */
static void check_terminal(void)
{
	char termios[64]; /* struct termios, which TCGETS fills (60 bytes) */
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (ioctl(fd, TCGETS, termios) == 0)
			_exit(125);
	if (open("/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) >= 0 || errno != ENXIO)
		_exit(125);
}

/* What the lookups of the policy directories go through: each prefix that
 * exists (lstat), "/" first; and the directories themselves. */
static struct {
	dev_t dev;
	ino_t ino;
	int dir; /* the policy directory itself */
} guarded[64];
static size_t nguarded;

static void guard(const struct stat *st, int dir)
{
	if (nguarded == sizeof guarded / sizeof guarded[0])
		_exit(125);
	guarded[nguarded].dev = st->st_dev;
	guarded[nguarded].ino = st->st_ino;
	guarded[nguarded++].dir = dir;
}

static void guard_path(const char *path, const struct stat *root)
{
	char prefix[4096];
	struct stat st;
	size_t i, len = strlen(path);

	if (len >= sizeof prefix)
		_exit(125);
	guard(root, 0);
	memcpy(prefix, path, len + 1);
	for (i = 1; i <= len; i++) {
		if (i < len && path[i] != '/')
			continue;
		prefix[i] = '\0';
		if (lstat(prefix, &st))
			return;
		guard(&st, i == len);
		prefix[i] = path[i];
	}
}

static void guard_policy_dirs(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char path[4096];
	struct stat root;

	if (stat("/", &root))
		_exit(125);
	if (xdg && xdg[0] == '/' && strlen(xdg) < 4000)
		guard_path(strcat(strcpy(path, xdg), "/landlock-run"), &root);
	else if (home && home[0] == '/' && strlen(home) < 4000)
		guard_path(strcat(strcpy(path, home), "/.config/landlock-run"), &root);
	guard_path("/etc/landlock-run", &root);
}

static int guarded_at(const struct stat *st, int dir_only)
{
	size_t i;

	for (i = 0; i < nguarded; i++)
		if (guarded[i].dev == st->st_dev && guarded[i].ino == st->st_ino &&
		    (!dir_only || guarded[i].dir))
			return 1;
	return 0;
}

/* A --rw grant FD: not a directory a lookup goes through (so not one above
 * or on a policy directory), and, a directory, not beneath one: walked up
 * until a directory the lookups go through ("/" is one). A file is above
 * none, and beneath none off the file systems of those that exist; one on
 * theirs, which the launcher walks up from by its path, the bench grants
 * none of, and this floor refuses. */
static void check_write_grant(int fd)
{
	static const char up[] = "../../../../../../../../../../../../../../../..";
	struct stat st;
	size_t level;
	int fs = 0;

	if (fstat(fd, &st) || guarded_at(&st, 0))
		_exit(125);
	for (level = 0; level < nguarded; level++)
		fs = fs || (guarded[level].dir && guarded[level].dev == st.st_dev);
	if (!S_ISDIR(st.st_mode) && !fs)
		return;
	if (!S_ISDIR(st.st_mode))
		_exit(125);
	for (level = 1; level <= 16; level++) {
		char path[sizeof up];

		memcpy(path, up, 3 * level - 1);
		path[3 * level - 1] = '\0';
		if (fstatat(fd, path, &st, 0))
			_exit(125);
		if (guarded_at(&st, 1))
			_exit(125);
		if (guarded_at(&st, 0))
			return;
	}
	_exit(125);
}
#endif

#ifdef WITH_LANDLOCK
#define RO	    0xdULL    /* execute, read_file, read_dir */
#define FILE_RIGHTS 0xc007ULL /* execute, write_file, read_file, truncate, ioctl_dev */

struct path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

static long sys(long nr, long a, long b, long c, long d)
{
	long ret = syscall(nr, a, b, c, d);

	if (ret < 0 && errno != EINVAL)
		_exit(125);
	return ret;
}

static char **restrict_to(char **argv)
{
	/* Every filesystem right of the kernel's ABI: 1 .. 13, refer, truncate, ioctl_dev. */
	static const uint64_t fs_by_abi[] = {0, 0x1fff, 0x3fff, 0x7fff, 0x7fff, 0xffff};
	long abi = sys(__NR_landlock_create_ruleset, 0, 0, 1, 0);
	uint64_t attr[3] = {fs_by_abi[abi < 5 ? abi : 5], 0, 0};
	int ruleset = (int)sys(__NR_landlock_create_ruleset, (long)attr, sizeof attr, 0, 0);
	struct rlimit nofile;

	if (abi < 1 || ruleset < 0 || prlimit(0, RLIMIT_NOFILE, NULL, &nofile))
		_exit(125);
	nofile.rlim_cur = nofile.rlim_max;
	if (prlimit(0, RLIMIT_NOFILE, &nofile, NULL))
		_exit(125);
#ifdef WITH_CHECKS
	check_terminal();
	guard_policy_dirs();
#endif
	for (; argv[0] && argv[1] && strcmp(argv[0], "--"); argv += 2) {
		struct path_beneath rule = {strcmp(argv[0], "--rw") ? RO : attr[0], -1};

		rule.parent_fd =
			(int32_t)syscall(__NR_openat, AT_FDCWD, argv[1], O_PATH | O_CLOEXEC);
		if (rule.parent_fd < 0)
			_exit(125);
#ifdef WITH_CHECKS
		if (rule.allowed_access != RO)
			check_write_grant(rule.parent_fd);
#endif
		if (sys(__NR_landlock_add_rule, ruleset, 1, (long)&rule, 0)) {
			rule.allowed_access &= FILE_RIGHTS;
			if (syscall(__NR_landlock_add_rule, ruleset, 1, &rule, 0))
				_exit(125);
		}
	}
	if (!argv[0] || !argv[1] || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_landlock_restrict_self, ruleset, 0))
		_exit(125);
#ifdef WITH_PROMISE
	confine_calls();
#endif
#ifdef WITH_SECCOMP
	{
		/* BPF_RET | BPF_K, SECCOMP_RET_ALLOW; SECCOMP_SET_MODE_FILTER */
		static const struct {
			uint16_t code;
			uint8_t jt, jf;
			uint32_t k;
		} allow = {0x06, 0, 0, 0x7fff0000U};
		struct {
			unsigned short len;
			const void *filter;
		} prog = {1, &allow};

		if (syscall(__NR_seccomp, 1, 0, &prog))
			_exit(125);
	}
#endif
	return argv + 1;
}
#endif

#ifdef WITH_TRACE
void trace_start(char **argv); /* floor-trace.c */
void trace_watch(void);
#endif

int main(int argc, char **argv)
{
	(void)argc;
	argv++;
#ifdef WITH_TRACE
	trace_start(argv);
#endif
#ifdef WITH_LANDLOCK
	argv = restrict_to(argv);
#endif
	if (!argv[0])
		return 0;
#ifdef WITH_TRACE
	trace_watch();
#endif
	execve(argv[0], argv, environ);
	return 127;
}
