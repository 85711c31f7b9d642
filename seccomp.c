/*
 * The seccomp filter: one hand-written classic BPF program, built from a
 * table of rules, installed after no_new_privs on every run.
 *
 *  - The terminal: ioctl(fd, TIOCSTI) injects bytes that whoever reads the
 *    terminal next (the caller's shell, after landlock-run exits) takes as
 *    typed, and TIOCLINUX can do the same on a virtual console. Landlock's
 *    ioctl_dev right does not cover a terminal opened before confinement,
 *    and dev.tty.legacy_tiocsti does not stop root or older kernels
 *    (CVE-2017-5226 in bubblewrap).
 *  - The network (--no-network): Landlock confines TCP from ABI 4 and UDP
 *    from ABI 10 only, and never ICMP, SCTP, netlink, vsock or packet
 *    sockets. The filter refuses every socket family but AF_UNIX.
 *  - The baseline: io_uring, user namespaces, the keyring, bpf,
 *    perf_event_open and userfaultfd are a large share of the kernel's
 *    recent privilege escalations, and io_uring's operations pass by every
 *    seccomp rule. Each is refused with the errno of a kernel that lacks it
 *    or locks it down, so programs take the path they take there.
 *  - Root's metadata: uid 0 without capabilities still owns most files, and
 *    Landlock has no right for their mode or attributes.
 *
 * The kernel reads only the low 32 bits of an int argument, so the filter
 * compares only those (a 64-bit compare was CVE-2019-10063 in Flatpak).
 * For every call without a rule the filter decides on the arch and the
 * number alone, so the kernel's seccomp action cache answers those calls
 * without running it: the filter costs only the calls it has rules for.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock-run.h"
#include "seccomp.h"

/* The UAPI constants the rules test, which musl-gcc's headers may lack. */
#define AF_UNIX_DOMAIN	 1	    /* AF_UNIX, AF_LOCAL */
#define SOCKETCALL_SOCK	 1	    /* socketcall(SYS_SOCKET, args) */
#define SOCKETCALL_PAIR	 8	    /* socketcall(SYS_SOCKETPAIR, args) */
#define CLONE_NEWUSER_F	 0x10000000 /* CLONE_NEWUSER */
#define CLONE_UNTRACED_F 0x00800000 /* CLONE_UNTRACED */
#define MODE_SETID	 06000	    /* S_ISUID | S_ISGID */
#define TIOCSTI_CMD	 0x5412
#define TIOCLINUX_CMD	 0x541c

/* What a rule tests of one argument's low 32 bits before it refuses.
 * REDIRECT refuses always, with ENOSYS that sends libc to a call the filter
 * reads (clone3 to clone, openat2 to openat): nothing to explain there, the
 * next call is judged. */
enum test { ALWAYS, REDIRECT, EQ, NE, SET };

/*
 * One rule: its group, the call's number in each ABI's column (0: the ABI
 * lacks it), the argument it tests, how and against what, and the errno.
 * Rules on the same call are tried in table order; the first that matches
 * refuses, and a call none of them matches is allowed.
 */
struct rule {
	uint16_t group;
	uint16_t nr[NABIS];
	uint8_t arg, test;
	uint16_t err;
	uint32_t k;
	const char *call; /* its name, for --explain */
};

/* clang-format off */
static const struct rule rules[] = {
	{GROUP_TTY, NR_ioctl, 1, EQ, EPERM, TIOCSTI_CMD, "ioctl"},
	{GROUP_TTY, NR_ioctl, 1, EQ, EPERM, TIOCLINUX_CMD, "ioctl"},
	/* What a program reads when the family is not built into the kernel. On
	 * i386, socketcall hides the family in memory the filter cannot read:
	 * its socket and socketpair are refused whatever the family. */
	{GROUP_NETWORK, NR_socket, 0, NE, EAFNOSUPPORT, AF_UNIX_DOMAIN, "socket"},
	{GROUP_NETWORK, NR_socketpair, 0, NE, EAFNOSUPPORT, AF_UNIX_DOMAIN, "socketpair"},
	{GROUP_NETWORK, NR_socketcall, 0, EQ, EAFNOSUPPORT, SOCKETCALL_SOCK, "socketcall"},
	{GROUP_NETWORK, NR_socketcall, 0, EQ, EAFNOSUPPORT, SOCKETCALL_PAIR, "socketcall"},
	/* A kernel without io_uring: libuv, liburing users fall back. */
	{GROUP_IO_URING, NR_io_uring_setup, 0, ALWAYS, ENOSYS, 0, "io_uring_setup"},
	{GROUP_IO_URING, NR_io_uring_enter, 0, ALWAYS, ENOSYS, 0, "io_uring_enter"},
	{GROUP_IO_URING, NR_io_uring_register, 0, ALWAYS, ENOSYS, 0, "io_uring_register"},
	/* As where user namespaces are locked down. clone3's flags are in
	 * memory: ENOSYS makes libc fall back to clone, whose flags (argument
	 * 0 on both targets) the filter reads. */
	{GROUP_USERNS, NR_unshare, 0, SET, EPERM, CLONE_NEWUSER_F, "unshare"},
	{GROUP_USERNS, NR_clone, 0, SET, EPERM, CLONE_NEWUSER_F, "clone"},
	{GROUP_USERNS, NR_clone3, 0, REDIRECT, ENOSYS, 0, "clone3"},
	/* A kernel built without keys (pam_keyinit, krb5 go on without). */
	{GROUP_KEYRING, NR_add_key, 0, ALWAYS, ENOSYS, 0, "add_key"},
	{GROUP_KEYRING, NR_request_key, 0, ALWAYS, ENOSYS, 0, "request_key"},
	{GROUP_KEYRING, NR_keyctl, 0, ALWAYS, ENOSYS, 0, "keyctl"},
	/* kernel.unprivileged_bpf_disabled, as distributions ship it */
	{GROUP_BPF, NR_bpf, 0, ALWAYS, EPERM, 0, "bpf"},
	/* kernel.perf_event_paranoid above 2 (Debian's, Android's) */
	{GROUP_PERF, NR_perf_event_open, 0, ALWAYS, EACCES, 0, "perf_event_open"},
	/* vm.unprivileged_userfaultfd=0, the default */
	{GROUP_USERFAULTFD, NR_userfaultfd, 0, ALWAYS, EPERM, 0, "userfaultfd"},
	/* A setuid or setgid mode, set or created; the ACLs and every other
	 * attribute. openat2's mode is in memory: ENOSYS sends libc and the
	 * rest back to openat. An open's mode counts even without O_CREAT:
	 * libc passes 0 then. */
	{GROUP_METADATA, NR_chmod, 1, SET, EPERM, MODE_SETID, "chmod"},
	{GROUP_METADATA, NR_fchmod, 1, SET, EPERM, MODE_SETID, "fchmod"},
	{GROUP_METADATA, NR_fchmodat, 2, SET, EPERM, MODE_SETID, "fchmodat"},
	{GROUP_METADATA, NR_fchmodat2, 2, SET, EPERM, MODE_SETID, "fchmodat2"},
	{GROUP_METADATA, NR_open, 2, SET, EPERM, MODE_SETID, "open"},
	{GROUP_METADATA, NR_creat, 1, SET, EPERM, MODE_SETID, "creat"},
	{GROUP_METADATA, NR_openat, 3, SET, EPERM, MODE_SETID, "openat"},
	{GROUP_METADATA, NR_mknod, 1, SET, EPERM, MODE_SETID, "mknod"},
	{GROUP_METADATA, NR_mknodat, 2, SET, EPERM, MODE_SETID, "mknodat"},
	{GROUP_METADATA, NR_openat2, 0, REDIRECT, ENOSYS, 0, "openat2"},
	{GROUP_METADATA, NR_setxattr, 0, ALWAYS, EPERM, 0, "setxattr"},
	{GROUP_METADATA, NR_lsetxattr, 0, ALWAYS, EPERM, 0, "lsetxattr"},
	{GROUP_METADATA, NR_fsetxattr, 0, ALWAYS, EPERM, 0, "fsetxattr"},
	{GROUP_METADATA, NR_setxattrat, 0, ALWAYS, EPERM, 0, "setxattrat"},
	{GROUP_METADATA, NR_removexattr, 0, ALWAYS, EPERM, 0, "removexattr"},
	{GROUP_METADATA, NR_lremovexattr, 0, ALWAYS, EPERM, 0, "lremovexattr"},
	{GROUP_METADATA, NR_fremovexattr, 0, ALWAYS, EPERM, 0, "fremovexattr"},
	{GROUP_METADATA, NR_removexattrat, 0, ALWAYS, EPERM, 0, "removexattrat"},
	/* While traced, on every ABI, whatever --allow-syscalls says: a child
	 * made with CLONE_UNTRACED is not followed (EPERM, as for a flag not
	 * allowed); clone3's flags are in memory (ENOSYS: libc falls back to
	 * clone); io_uring's operations are no system calls and never stop. */
	{GROUP_TRACED, NR_clone, 0, SET, EPERM, CLONE_UNTRACED_F, "clone"},
	{GROUP_TRACED, NR_clone3, 0, REDIRECT, ENOSYS, 0, "clone3"},
	{GROUP_TRACED, NR_io_uring_setup, 0, ALWAYS, ENOSYS, 0, "io_uring_setup"},
	{GROUP_TRACED, NR_io_uring_enter, 0, ALWAYS, ENOSYS, 0, "io_uring_enter"},
	{GROUP_TRACED, NR_io_uring_register, 0, ALWAYS, ENOSYS, 0, "io_uring_register"},
};
/* clang-format on */

#define NRULES (sizeof rules / sizeof rules[0])

static int unconditional(const struct rule *r)
{
	return r->test == ALWAYS || r->test == REDIRECT;
}

static const struct syscall_abi abis[NABIS] = SYSCALL_ABIS;

/* The names --allow-syscalls takes, in the order -v and --probe list them;
 * the words stay as they are, since scripts and policy files spell them. */
const struct name syscall_groups[] = {
	{GROUP_IO_URING, "io_uring", 0, 0}, {GROUP_USERNS, "userns", 0, 0},
	{GROUP_KEYRING, "keyring", 0, 0},   {GROUP_BPF, "bpf", 0, 0},
	{GROUP_PERF, "perf", 0, 0},	    {GROUP_USERFAULTFD, "userfaultfd", 0, 0},
	{GROUP_METADATA, "metadata", 0, 0}, {0, NULL, 0, 0},
};

void filter_emit(struct filter *f, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	/* The filters are bounded at compile time: overflowing is a bug here. */
	if (f->len == FILTER_MAX)
		die("seccomp filter longer than %d instructions", FILTER_MAX);
	f->insn[f->len++] = (struct sock_filter){code, jt, jf, k};
}

int filter_install(const struct filter *f)
{
	struct sock_fprog prog = {f->len, (struct sock_filter *)f->insn};

	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0U, &prog);
}

/* Point the jump at FROM to the instruction at TO, after it. */
static void aim(struct filter *f, size_t from, size_t to)
{
	size_t off = to - from - 1;

	if (f->insn[from].code != BPF_JA && off > 255)
		die("seccomp filter: a jump of %zu instructions", off);
	if (f->insn[from].code == BPF_JA)
		f->insn[from].k = (uint32_t)off;
	else
		f->insn[from].jt = (uint8_t)off;
}

static void land(struct filter *f, size_t from)
{
	aim(f, from, f->len);
}

/* What a filter is built for: the groups it refuses, and whether
 * --explain traces the command. */
struct build {
	uint64_t groups;
	int traced;
};

/* Traced, a refusal on the native ABI (column 0) first stops at the tracer,
 * which sees it and marks the call (argument 5, which none of these calls
 * reads, set to TRACE_MARK); the filter, run again, then refuses it itself.
 * The terminal's rules, the tracer's own and the redirects do not stop:
 * there is nothing to explain (every threaded glibc program tries clone3). */
static int stops(const struct build *b, size_t row, size_t abi)
{
	return b->traced && abi == 0 && rules[row].test != REDIRECT &&
	       !(rules[row].group & (GROUP_TTY | GROUP_TRACED));
}

/* What a refusal returns: decided here only, per rule and ABI. */
static uint32_t rule_action(const struct build *b, size_t row, size_t abi)
{
	if (stops(b, row, abi))
		return SECCOMP_RET_TRACE | (uint32_t)(TRACE_BASE + row);
	return SECCOMP_RET_ERRNO | rules[row].err;
}

/* The refusal itself, and how many instructions it takes.
 *	traced:  if (arg5 == TRACE_MARK) return ERRNO;  return TRACE | row
 */
static uint8_t refusal_length(const struct build *b, size_t row, size_t abi)
{
	return stops(b, row, abi) ? 4 : 1;
}

static void emit_refusal(struct filter *f, const struct build *b, size_t row, size_t abi)
{
	if (stops(b, row, abi)) {
		filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(5));
		filter_emit(f, BPF_JEQ_K, 0, 1, TRACE_MARK);
		filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | rules[row].err);
	}
	filter_emit(f, BPF_RET_K, 0, 0, rule_action(b, row, abi));
}

static int active(const struct rule *r, size_t abi, uint64_t groups)
{
	return (groups & r->group) && r->nr[abi];
}

/* The next active rule on the call of rules[call] from row I on, or NRULES. */
static size_t next_on_call(size_t abi, uint64_t groups, size_t call, size_t i)
{
	while (i < NRULES &&
	       (!active(&rules[i], abi, groups) || rules[i].nr[abi] != rules[call].nr[abi]))
		i++;
	return i;
}

/*
 * The tests of every active rule on the call of rules[first], in table
 * order, each refusing on a match; then allow. An unconditional rule ends
 * it.
 *	A = arg;  if (A op k) return action;  ...;  return ALLOW
 */
static void emit_body(struct filter *f, size_t abi, const struct build *b, size_t first)
{
	static const uint16_t jump[] = {[EQ] = BPF_JEQ_K, [NE] = BPF_JEQ_K, [SET] = BPF_JSET_K};
	int loaded = -1;
	size_t i;

	for (i = first; (i = next_on_call(abi, b->groups, first, i)) < NRULES; i++) {
		const struct rule *r = &rules[i];
		uint8_t skip = refusal_length(b, i, abi);

		if (unconditional(r)) {
			emit_refusal(f, b, i, abi);
			return;
		}
		if (loaded != r->arg)
			filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(r->arg));
		/* a traced refusal loads argument 5, but only on its way out */
		loaded = r->arg;
		/* fall through to the refusal on a match, else jump over it */
		filter_emit(f, jump[r->test], r->test == NE ? skip : 0, r->test != NE ? skip : 0,
			    r->k);
		emit_refusal(f, b, i, abi);
	}
	filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
}

/* The first active rule on its call, in this ABI: the one that emits. */
static int first_on_call(size_t abi, uint64_t groups, size_t i)
{
	return next_on_call(abi, groups, i, 0) == i;
}

/* Whether calls X and Y get the same body: rule for rule the same test and
 * action (until an unconditional rule, which ends a body). */
static int same_body(size_t abi, const struct build *b, size_t x, size_t y)
{
	uint64_t groups = b->groups;
	size_t i = next_on_call(abi, groups, x, x), j = next_on_call(abi, groups, y, y);

	for (; i < NRULES && j < NRULES;
	     i = next_on_call(abi, groups, x, i + 1), j = next_on_call(abi, groups, y, j + 1)) {
		const struct rule *r = &rules[i], *q = &rules[j];

		if (r->test != q->test || rule_action(b, i, abi) != rule_action(b, j, abi) ||
		    (!unconditional(r) && (r->arg != q->arg || r->k != q->k)))
			return 0;
		if (unconditional(r))
			return 1;
	}
	return i == j;
}

/*
 * One ABI, with A holding the call's number. The calls with a rule, in
 * increasing order, in chunks of CHUNK: a call without a rule is decided
 * after a few compares, which is what the kernel's seccomp action cache
 * emulates for every number of every ABI when the filter is installed.
 *	per chunk:  if (A > its last) skip it;  if (A == nr) goto body ...;
 *	            return ALLOW
 *	return ALLOW
 *	body: ...  (one per call; calls with the same rules share one)
 */
#define CHUNK 6

static void emit_abi(struct filter *f, size_t abi, const struct build *b)
{
	uint64_t groups = b->groups;
	size_t i, j, n = 0, first[NRULES], at[NRULES], body[NRULES];

	for (i = 0; i < NRULES; i++)
		if (first_on_call(abi, groups, i)) {
			for (j = n++; j > 0 && rules[first[j - 1]].nr[abi] > rules[i].nr[abi]; j--)
				first[j] = first[j - 1];
			first[j] = i;
		}
	for (i = 0; i < n; i += CHUNK) {
		size_t end = i + CHUNK < n ? i + CHUNK : n;

		filter_emit(f, BPF_JGT_K, (uint8_t)(end - i + 1), 0,
			    abis[abi].nr_bit | rules[first[end - 1]].nr[abi]);
		for (j = i; j < end; j++) {
			at[j] = f->len;
			filter_emit(f, BPF_JEQ_K, 0, 0, abis[abi].nr_bit | rules[first[j]].nr[abi]);
		}
		filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	}
	filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && !same_body(abi, b, first[i], first[j]); j++)
			;
		body[i] = j < i ? body[j] : f->len;
		aim(f, at[i], body[i]);
		if (j == i)
			emit_body(f, abi, b, first[i]);
	}
}

/*
 * An ABI whose numbers carry a bit (x32), with A its number. Where each of
 * its rules acts as the native one does, it goes through the native
 * dispatch that follows: its own numbers mapped to the native ones, the bit
 * cleared; 0. Else the JA to patch to a block of its own, after the native.
 *	if (A & bit) { if (A == own nr) A = native nr ...;  A &= ~bit; }
 */
static size_t emit_bit_abi(struct filter *f, size_t abi, size_t native, const struct build *b)
{
	uint64_t groups = b->groups;
	size_t i, skip;

	for (i = 0; i < NRULES; i++)
		if (active(&rules[i], abi, groups) &&
		    rule_action(b, i, abi) != rule_action(b, i, native))
			break;
	filter_emit(f, BPF_JSET_K, 0, 1, abis[abi].nr_bit);
	skip = f->len;
	if (i < NRULES) {
		filter_emit(f, BPF_JA, 0, 0, 0);
		return skip;
	}
	for (i = 0; i < NRULES; i++)
		if (first_on_call(abi, groups, i) && rules[i].nr[abi] != rules[i].nr[native]) {
			filter_emit(f, BPF_JEQ_K, 0, 1, abis[abi].nr_bit | rules[i].nr[abi]);
			filter_emit(f, BPF_LD_IMM, 0, 0, rules[i].nr[native]);
		}
	filter_emit(f, BPF_AND_K, 0, 0, ~abis[abi].nr_bit);
	f->insn[skip - 1].jf = (uint8_t)(f->len - skip);
	return 0;
}

/*
 *	A = arch
 *	per arch:  if (A == arch) goto its block
 *	return KILL_PROCESS	(an ABI this table does not know)
 *	block:     A = nr;  the ABIs of a bit (x32), then the ABI without one
 */
static void build_filter(struct filter *f, const struct build *b)
{
	size_t i, j, to_arch[NABIS], to_bit[NABIS];

	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARCH);
	for (i = 0; i < NABIS; i++)
		if (!abis[i].nr_bit) {
			filter_emit(f, BPF_JEQ_K, 0, 1, abis[i].arch);
			to_arch[i] = f->len;
			filter_emit(f, BPF_JA, 0, 0, 0);
		}
	filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS);
	for (i = 0; i < NABIS; i++) {
		if (abis[i].nr_bit)
			continue;
		land(f, to_arch[i]);
		filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR);
		for (j = 0; j < NABIS; j++)
			to_bit[j] = abis[j].nr_bit && abis[j].arch == abis[i].arch
					    ? emit_bit_abi(f, j, i, b)
					    : 0;
		emit_abi(f, i, b);
		for (j = 0; j < NABIS; j++)
			if (to_bit[j]) {
				land(f, to_bit[j]);
				emit_abi(f, j, b);
			}
	}
}

/* uid 0 as the real or effective id (the saved one is the effective one
 * of the exec: the launcher never changes them): the command can be root.
 * The kernel handed them over at exec in the auxiliary vector, which costs
 * no system call. */
uint64_t refused_groups(const struct request *r)
{
	uint64_t groups = GROUP_TTY | GROUP_BASELINE;

	if (r->no_network)
		groups |= GROUP_NETWORK;
	if (getauxval(AT_UID) && getauxval(AT_EUID))
		groups &= ~(uint64_t)GROUP_METADATA;
	return groups & ~r->allowed_syscalls;
}

/* Installed after no_new_privs, which an unprivileged filter needs.
 * TRACED: --explain watches the command (see stops()). */
int filter_syscalls(uint64_t groups, int traced)
{
	struct build b = {groups, traced};
	struct filter f = {.len = 0};

	build_filter(&f, &b);
	return filter_install(&f);
}

/* The rule a traced refusal's ret_data names, as the tracer must check it
 * against the call the kernel reports; NULL for any other number. */
int refusal_of(uint32_t ret_data, struct refusal *out)
{
	const struct rule *r;

	if (ret_data < TRACE_BASE || ret_data >= TRACE_BASE + NRULES)
		return -1;
	r = &rules[ret_data - TRACE_BASE];
	out->call = r->call;
	out->nr = r->nr[0];
	out->err = r->err;
	out->group = r->group;
	return 0;
}
