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
 *  - UNIX sockets (--no-unix): before ABI 9 Landlock does not control
 *    connecting to a pathname socket at all, and a socket outside (an
 *    ssh-agent, docker.sock, a relay to the network) is reached from any
 *    sandbox. The filter refuses making one but a connected pair.
 *  - The baseline: io_uring, user namespaces, the keyring, bpf,
 *    perf_event_open and userfaultfd are a large share of the kernel's
 *    recent privilege escalations, and io_uring's operations pass by every
 *    seccomp rule. Each is refused with the errno of a kernel that lacks it
 *    or locks it down, so programs take the path they take there.
 *  - Root's metadata: uid 0 without capabilities still owns most files, and
 *    Landlock has no right for their mode or attributes; nor for a store
 *    through a shared mapping, which leaves a setuid file setuid.
 *
 * The kernel reads only the low 32 bits of an int argument, so the filter
 * compares only those (a 64-bit compare was CVE-2019-10063 in Flatpak).
 * For every call without a rule the filter decides on the arch and the
 * number alone, so the kernel's seccomp action cache answers those calls
 * without running it: the filter costs only the calls it has rules for.
 * What the install costs is its length and the compares the cache's
 * emulation makes: a search on the number, returns shared.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "abi.h"
#include "out.h"
#include "policy.h"
#include "seccomp.h"

/* The UAPI constants the rules test, which musl-gcc's headers may lack. */
#define AF_UNIX_DOMAIN	 1	    /* AF_UNIX, AF_LOCAL */
#define SOCKETCALL_SOCK	 1	    /* socketcall(SYS_SOCKET, args) */
#define SOCKETCALL_PAIR	 8	    /* socketcall(SYS_SOCKETPAIR, args) */
#define SOCK_DGRAM_BIT	 2	    /* SOCK_DGRAM, and SOCK_RAW, which AF_UNIX takes as it */
#define CLONE_NEWUSER_F	 0x10000000 /* CLONE_NEWUSER */
#define CLONE_UNTRACED_F 0x00800000 /* CLONE_UNTRACED */
#define NEW_LISTENER_F	 0x8	    /* SECCOMP_FILTER_FLAG_NEW_LISTENER */
#define MODE_SETID	 06000	    /* S_ISUID | S_ISGID */
#define TIOCSTI_CMD	 0x5412
#define TIOCLINUX_CMD	 0x541c
#define UFFD_IOC_NEW	 0xaa00 /* USERFAULTFD_IOC_NEW: _IO(0xAA, 0) */
#define MAP_SHARED_F	 0x01	/* MAP_SHARED, and MAP_SHARED_VALIDATE (0x03) */
#define MAP_ANONYMOUS_F	 0x20	/* MAP_ANONYMOUS on x86 and ARM alike */

/* What a rule tests of one argument's low 32 bits before it refuses.
 * REDIRECT refuses always, with ENOSYS that sends libc to a call the filter
 * reads (clone3 to clone, openat2 to openat): nothing to explain there, the
 * next call is judged. MASKED: the argument's bits in the high half of k
 * are those of its low half (MASK_K; both masks of flags below 0x10000). */
enum test { ALWAYS, REDIRECT, EQ, NE, SET, MASKED };
#define MASK_K(mask, bits) ((uint32_t)(mask) << 16 | (bits))
#define K_MASK(k)	   ((k) >> 16)
#define K_BITS(k)	   ((k)&0xffff)
/* mmap's flags: shared, not anonymous */
#define MAP_FILE_SHARED MASK_K(MAP_SHARED_F | MAP_ANONYMOUS_F, MAP_SHARED_F)

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
	/* As a kernel without UNIX sockets (CONFIG_UNIX=n) answers. A pair is
	 * connected to itself, but a datagram one can still be sent through
	 * or connected to any address: only stream and seqpacket pairs stay.
	 * i386's socketcall hides family and type in memory: refused. */
	{GROUP_UNIX, NR_socket, 0, EQ, EAFNOSUPPORT, AF_UNIX_DOMAIN, "socket"},
	{GROUP_UNIX, NR_socketpair, 1, SET, EAFNOSUPPORT, SOCK_DGRAM_BIT, "socketpair"},
	{GROUP_UNIX, NR_socketcall, 0, EQ, EAFNOSUPPORT, SOCKETCALL_SOCK, "socketcall"},
	{GROUP_UNIX, NR_socketcall, 0, EQ, EAFNOSUPPORT, SOCKETCALL_PAIR, "socketcall"},
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
	/* vm.unprivileged_userfaultfd=0, the default; and its second door,
	 * /dev/userfaultfd (Linux 6.1), which root opens and whose only ioctl
	 * makes the same descriptor. The request has no size in it (_IO), so
	 * it is one number on every ABI, i386's and x32's included, and on no
	 * other device: 0xAA is userfaultfd's in the kernel's ioctl registry. */
	{GROUP_USERFAULTFD, NR_userfaultfd, 0, ALWAYS, EPERM, 0, "userfaultfd"},
	{GROUP_USERFAULTFD, NR_ioctl, 1, EQ, EPERM, UFFD_IOC_NEW, "ioctl"},
	/* A setuid or setgid mode, set or created; the ACLs and every other
	 * attribute, with the errno of a filesystem without them: GNU cp -p,
	 * install and sed -i set a file's ACL with fsetxattr and fall back to
	 * its mode on EOPNOTSUPP, silently, where EPERM made them fail. openat2's mode is in memory: ENOSYS sends libc and the
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
	{GROUP_METADATA, NR_setxattr, 0, ALWAYS, EOPNOTSUPP, 0, "setxattr"},
	{GROUP_METADATA, NR_lsetxattr, 0, ALWAYS, EOPNOTSUPP, 0, "lsetxattr"},
	{GROUP_METADATA, NR_fsetxattr, 0, ALWAYS, EOPNOTSUPP, 0, "fsetxattr"},
	{GROUP_METADATA, NR_setxattrat, 0, ALWAYS, EOPNOTSUPP, 0, "setxattrat"},
	{GROUP_METADATA, NR_removexattr, 0, ALWAYS, EOPNOTSUPP, 0, "removexattr"},
	{GROUP_METADATA, NR_lremovexattr, 0, ALWAYS, EOPNOTSUPP, 0, "lremovexattr"},
	{GROUP_METADATA, NR_fremovexattr, 0, ALWAYS, EOPNOTSUPP, 0, "fremovexattr"},
	{GROUP_METADATA, NR_removexattrat, 0, ALWAYS, EOPNOTSUPP, 0, "removexattrat"},
	/* A setuid or setgid program keeps its bits when a store through a
	 * MAP_SHARED mapping changes it, where write(2) by a process without
	 * CAP_FSETID clears them, and no argument says which file a mapping
	 * is of: where root's command can write a directory (grants.c), no
	 * file is mapped shared. ENODEV, as a file system without mmap
	 * answers: glibc, lld and ripgrep read instead; the JVM, SQLite's WAL,
	 * POSIX semaphores and memfd's shared memory fail; anonymous shared
	 * memory stays. i386's old mmap has its arguments in memory: ENOSYS
	 * (glibc and musl map with mmap2). */
	{GROUP_SETID_MAPS, NR_mmap__args, 3, MASKED, ENODEV, MAP_FILE_SHARED, "mmap"},
	{GROUP_SETID_MAPS, NR_mmap2, 3, MASKED, ENODEV, MAP_FILE_SHARED, "mmap2"},
	{GROUP_SETID_MAPS, NR_mmap__old, 0, ALWAYS, ENOSYS, 0, "mmap"},
	/* While traced, on every ABI, whatever --allow-syscalls says: a child
	 * made with CLONE_UNTRACED is not followed (EPERM, as for a flag not
	 * allowed); clone3's flags are in memory (ENOSYS: libc falls back to
	 * clone); io_uring's operations are no system calls and never stop; a
	 * filter of the command's own with a listener answers
	 * SECCOMP_RET_USER_NOTIF, which beats the stop a refusal makes here,
	 * and its supervisor could let the call go on (EINVAL: a kernel before
	 * 5.0 knows no such flag). */
	{GROUP_TRACED, NR_clone, 0, SET, EPERM, CLONE_UNTRACED_F, "clone"},
	{GROUP_TRACED, NR_clone3, 0, REDIRECT, ENOSYS, 0, "clone3"},
	{GROUP_TRACED, NR_io_uring_setup, 0, ALWAYS, ENOSYS, 0, "io_uring_setup"},
	{GROUP_TRACED, NR_io_uring_enter, 0, ALWAYS, ENOSYS, 0, "io_uring_enter"},
	{GROUP_TRACED, NR_io_uring_register, 0, ALWAYS, ENOSYS, 0, "io_uring_register"},
	{GROUP_TRACED, NR_seccomp, 1, SET, EINVAL, NEW_LISTENER_F, "seccomp"},
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

/* The tracer's filters see the native ABI alone: A = arch; another one's
 * call returns OTHER; A = nr. */
void filter_native_only(struct filter *f, uint32_t other)
{
	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARCH);
	filter_emit(f, BPF_JEQ_K, 1, 0, NATIVE_ARCH);
	filter_emit(f, BPF_RET_K, 0, 0, other);
	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR);
}

static int install(unsigned short len, const struct sock_filter *insn)
{
	struct sock_fprog prog = {len, (struct sock_filter *)insn}; /* the kernel reads it */

	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0U, &prog);
}

int filter_install(const struct filter *f)
{
	return install(f->len, f->insn);
}

/* Point one offset of the jump at FROM (the false one if ON_FALSE; a JA's
 * only one) to the instruction at TO, after it. */
static void jump(struct filter *f, size_t from, int on_false, size_t to)
{
	size_t off = to - from - 1;

	if (f->insn[from].code != BPF_JA && off > 255)
		die("seccomp filter: a jump of %zu instructions", off);
	if (f->insn[from].code == BPF_JA)
		f->insn[from].k = (uint32_t)off;
	else if (on_false)
		f->insn[from].jf = (uint8_t)off;
	else
		f->insn[from].jt = (uint8_t)off;
}

static void land(struct filter *f, size_t from)
{
	jump(f, from, 0, f->len);
}

/*
 * Jumps that end in a return emitted later, one per action for the whole
 * ABI: the kernel translates and compiles every instruction at install,
 * and the same action needs only one. Per ABI: one per leaf of the search,
 * one per refusal, one per body; there are no more leaves or bodies than
 * calls, nor calls than rules.
 */
#define EXITS_MAX (3 * NRULES)

struct exits {
	size_t n;
	struct exit_site {
		uint16_t at, ret;
		uint8_t on_false;
		uint32_t action;
	} site[EXITS_MAX];
};

static void exit_to(struct exits *x, size_t at, int on_false, uint32_t action)
{
	if (x->n == EXITS_MAX)
		die("seccomp filter: more than %zu jumps to a return", EXITS_MAX);
	x->site[x->n++] = (struct exit_site){(uint16_t)at, 0, (uint8_t)on_false, action};
}

/* The returns the pending jumps wait for, each once, here. */
static void emit_exits(struct filter *f, struct exits *x)
{
	size_t i, j;

	for (i = 0; i < x->n; i++) {
		for (j = 0; j < i && x->site[j].action != x->site[i].action; j++)
			;
		x->site[i].ret = j < i ? x->site[j].ret : f->len;
		if (j == i)
			filter_emit(f, BPF_RET_K, 0, 0, x->site[i].action);
		jump(f, x->site[i].at, x->site[i].on_false, x->site[i].ret);
	}
	x->n = 0;
}

/* What a filter is built for: the groups it refuses, and whether
 * --explain traces the command. */
struct build {
	uint64_t groups;
	int traced;
};

/* Traced, a refusal on the native ABI (column 0) first stops at the tracer,
 * which sees it and marks the call (argument 5 set to TRACE_MARK: only
 * mmap reads it, and it is refused either way); the filter, run again,
 * then refuses it itself.
 * The terminal's rules, the tracer's own and the redirects do not stop:
 * there is nothing to explain (every threaded glibc program tries clone3). */
static int stops(const struct build *b, size_t row, size_t abi)
{
	return b->traced && abi == 0 && rules[row].test != REDIRECT &&
	       !(rules[row].group & (GROUP_TTY | GROUP_TRACED));
}

static uint32_t refusal_errno(size_t row)
{
	return SECCOMP_RET_ERRNO | rules[row].err;
}

/* What a refusal returns: decided here only, per rule and ABI. */
static uint32_t rule_action(const struct build *b, size_t row, size_t abi)
{
	if (stops(b, row, abi))
		return SECCOMP_RET_TRACE | (uint32_t)(TRACE_BASE + row);
	return refusal_errno(row);
}

/* Where the body of one call stands: the jump (and which of its offsets)
 * that goes on to what follows, the next test or the end. */
struct pending {
	size_t at;
	int on_false;
};

/*
 * The refusal of ROW, for the pending jump: a shared return, or traced a
 * stop of its own.
 *	traced:  if (arg5 == TRACE_MARK) return ERRNO;  return TRACE | row
 */
static void emit_refusal(struct filter *f, struct exits *x, const struct build *b, size_t row,
			 size_t abi, struct pending p)
{
	if (!stops(b, row, abi)) {
		exit_to(x, p.at, p.on_false, refusal_errno(row));
		return;
	}
	jump(f, p.at, p.on_false, f->len);
	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(5));
	exit_to(x, f->len, 0, refusal_errno(row));
	filter_emit(f, BPF_JEQ_K, 0, 0, TRACE_MARK);
	filter_emit(f, BPF_RET_K, 0, 0, rule_action(b, row, abi));
}

static int active(const struct rule *r, size_t abi, uint64_t groups)
{
	return (groups & r->group) && r->nr[abi];
}

/* The calls with an active rule in one ABI, by number: call I's rules are
 * row[start[I]] to row[start[I + 1]], in table order; and where the
 * search compares each. */
struct calls {
	size_t n, start[NRULES + 1], at[NRULES];
	uint16_t row[NRULES];
	uint32_t nr[NRULES];
};

/* An insertion sort of number << 16 | row, which keeps the table order
 * within a call, on keys side by side rather than through the table. */
static void collect(struct calls *c, size_t abi, uint64_t groups)
{
	uint32_t key[NRULES], k;
	size_t i, j, rows = 0;

	for (i = 0; i < NRULES; i++) {
		if (!active(&rules[i], abi, groups))
			continue;
		k = (uint32_t)rules[i].nr[abi] << 16 | (uint32_t)i;
		for (j = rows++; j > 0 && key[j - 1] > k; j--)
			key[j] = key[j - 1];
		key[j] = k;
	}
	for (c->n = i = 0; i < rows; i++) {
		c->row[i] = (uint16_t)key[i];
		if (i == 0 || key[i] >> 16 != key[i - 1] >> 16) {
			c->start[c->n] = i;
			c->nr[c->n++] = abis[abi].nr_bit | key[i] >> 16;
		}
	}
	c->start[c->n] = rows;
}

/*
 * The tests of every rule on call CALL, in table order, from the pending
 * jump P; a match refuses, and a call none of them matches is allowed.
 * An unconditional rule ends it.
 *	A = arg;  if (A op k) refuse;  ...;  return ALLOW
 */
static void emit_body(struct filter *f, struct exits *x, size_t abi, const struct build *b,
		      const struct calls *c, size_t call, struct pending p)
{
	static const uint16_t op[] = {
		[EQ] = BPF_JEQ_K, [NE] = BPF_JEQ_K, [SET] = BPF_JSET_K, [MASKED] = BPF_JEQ_K};
	int loaded = -1;
	size_t i;

	for (i = c->start[call]; i < c->start[call + 1]; i++) {
		const struct rule *r = &rules[c->row[i]];
		size_t test;

		if (unconditional(r)) {
			emit_refusal(f, x, b, c->row[i], abi, p);
			return;
		}
		jump(f, p.at, p.on_false, f->len);
		if (loaded != r->arg)
			filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(r->arg));
		/* a traced refusal loads argument 5, but only on its way out */
		loaded = r->arg;
		if (r->test == MASKED) {
			filter_emit(f, BPF_AND_K, 0, 0, K_MASK(r->k));
			loaded = -1;
		}
		test = f->len;
		filter_emit(f, op[r->test], 0, 0, r->test == MASKED ? K_BITS(r->k) : r->k);
		/* NE's match is JEQ's false offset: the other one goes on */
		emit_refusal(f, x, b, c->row[i], abi, (struct pending){test, r->test == NE});
		p = (struct pending){test, r->test != NE};
	}
	exit_to(x, p.at, p.on_false, SECCOMP_RET_ALLOW);
}

/* A call whose first rule refuses without a test or a stop: the search
 * jumps straight to the shared return. */
static int direct(size_t abi, const struct build *b, const struct calls *c, size_t call)
{
	size_t row = c->row[c->start[call]];

	return unconditional(&rules[row]) && !stops(b, row, abi);
}

/* Whether calls X and Y get the same body: rule for rule the same test and
 * action (until an unconditional rule, which ends a body). */
static int same_body(size_t abi, const struct build *b, const struct calls *c, size_t x, size_t y)
{
	size_t i = c->start[x], j = c->start[y];

	for (; i < c->start[x + 1] && j < c->start[y + 1]; i++, j++) {
		const struct rule *r = &rules[c->row[i]], *q = &rules[c->row[j]];

		if (r->test != q->test ||
		    rule_action(b, c->row[i], abi) != rule_action(b, c->row[j], abi) ||
		    (!unconditional(r) && (r->arg != q->arg || r->k != q->k)))
			return 0;
		if (unconditional(r))
			return 1;
	}
	return i == c->start[x + 1] && j == c->start[y + 1];
}

/*
 * The dispatch on the number: the kernel's seccomp action cache runs it for
 * every number of the native and the compat ABI when the filter is
 * installed, so that cost is the sum over all numbers of the compares each
 * takes. A search that halves the range of numbers at each step, down to
 * leaves of at most LEAF calls (measured on x86_64, 4 installs fastest: a
 * shorter filter against fewer compares), CALLS_SPAN above the highest
 * number either target's kernels give a call (466 in 2026).
 *	if (A > last on the left) goto right;  left ...;  right ...
 *	leaf:  if (A == nr) goto its body; ...;  return ALLOW
 */
#define LEAF	   4
#define CALLS_SPAN 512

static void emit_search(struct filter *f, struct exits *x, struct calls *c, size_t lo, size_t hi,
			uint32_t vlo, uint32_t vhi)
{
	size_t mid = lo + 1, at = f->len;
	uint32_t half = vlo + (vhi - vlo) / 2;

	if (hi - lo > LEAF) {
		while (mid < hi - 1 && c->nr[mid] <= half)
			mid++;
		filter_emit(f, BPF_JGT_K, 0, 0, c->nr[mid - 1]);
		emit_search(f, x, c, lo, mid, vlo, c->nr[mid - 1]);
		land(f, at);
		emit_search(f, x, c, mid, hi, c->nr[mid - 1] + 1, vhi);
		return;
	}
	for (; lo < hi; lo++) {
		c->at[lo] = f->len;
		filter_emit(f, BPF_JEQ_K, 0, 0, c->nr[lo]);
	}
	exit_to(x, f->len - 1, 1, SECCOMP_RET_ALLOW);
}

/*
 * One ABI, with A holding the call's number: the search and its returns,
 * then the bodies (calls with the same rules share one) and theirs.
 */
static void emit_abi(struct filter *f, size_t abi, const struct build *b)
{
	struct exits x; /* not = {0}: 2 KiB cleared for nothing */
	struct calls c;
	size_t i, k, nbodies = 0, body[NRULES], first[NRULES]; /* each body's first call */

	x.n = 0;
	collect(&c, abi, b->groups);
	if (c.n == 0) {
		filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
		return;
	}
	emit_search(f, &x, &c, 0, c.n, abis[abi].nr_bit, abis[abi].nr_bit | CALLS_SPAN);
	for (i = 0; i < c.n; i++)
		if (direct(abi, b, &c, i))
			emit_refusal(f, &x, b, c.row[c.start[i]], abi,
				     (struct pending){c.at[i], 0});
	/* a call whose body is one already emitted jumps to it: compared with
	 * the first call of each body, not with every call before it */
	for (i = 0; i < c.n; i++) {
		if (direct(abi, b, &c, i))
			continue;
		for (k = 0; k < nbodies && !same_body(abi, b, &c, i, first[k]); k++)
			;
		if (k < nbodies) {
			jump(f, c.at[i], 0, body[k]);
			continue;
		}
		first[nbodies] = i;
		body[nbodies++] = f->len;
		emit_body(f, &x, abi, b, &c, i, (struct pending){c.at[i], 0});
	}
	emit_exits(f, &x);
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
	struct calls c;
	size_t i, skip;

	for (i = 0; i < NRULES; i++)
		if (active(&rules[i], abi, b->groups) &&
		    rule_action(b, i, abi) != rule_action(b, i, native))
			break;
	filter_emit(f, BPF_JSET_K, 0, 1, abis[abi].nr_bit);
	skip = f->len;
	if (i < NRULES) {
		filter_emit(f, BPF_JA, 0, 0, 0);
		return skip;
	}
	collect(&c, abi, b->groups);
	for (i = 0; i < c.n; i++) {
		const struct rule *r = &rules[c.row[c.start[i]]];

		if (r->nr[abi] != r->nr[native]) {
			filter_emit(f, BPF_JEQ_K, 0, 1, c.nr[i]);
			filter_emit(f, BPF_LD_IMM, 0, 0, r->nr[native]);
		}
	}
	filter_emit(f, BPF_AND_K, 0, 0, ~abis[abi].nr_bit);
	f->insn[skip - 1].jf = (uint8_t)(f->len - skip);
	return 0;
}

/* A = nr, then one ABI without a bit and the ABIs of a bit that share its
 * arch (x32): theirs first, then its own dispatch, then theirs if apart. */
static void emit_arch(struct filter *f, size_t abi, const struct build *b)
{
	size_t j, to_bit[NABIS];

	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR);
	for (j = 0; j < NABIS; j++)
		to_bit[j] = abis[j].nr_bit && abis[j].arch == abis[abi].arch
				    ? emit_bit_abi(f, j, abi, b)
				    : 0;
	emit_abi(f, abi, b);
	for (j = 0; j < NABIS; j++)
		if (to_bit[j]) {
			land(f, to_bit[j]);
			emit_abi(f, j, b);
		}
}

/*
 *	A = arch
 *	if (A == native) goto native block
 *	per other arch:  if (A == arch) goto its block
 *	return KILL_PROCESS	(an ABI this table does not know)
 *	the other blocks, the native block last
 * The kernel's seccomp action cache emulates the filter for every number
 * of the native and the compat ABI when it is installed: each reaches its
 * block in two compares. The other blocks never stop at the tracer, so
 * they stay short enough for the native jump.
 */
static void build_filter(struct filter *f, const struct build *b)
{
	size_t i, to_native, to_arch[NABIS], last = 0;

	for (i = 1; i < NABIS; i++)
		if (!abis[i].nr_bit)
			last = i;
	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARCH);
	to_native = f->len;
	filter_emit(f, BPF_JEQ_K, 0, 0, abis[0].arch);
	for (i = 1; i < NABIS; i++) {
		if (abis[i].nr_bit)
			continue;
		to_arch[i] = f->len;
		if (i == last) {
			filter_emit(f, BPF_JEQ_K, 1, 0, abis[i].arch);
			break;
		}
		filter_emit(f, BPF_JEQ_K, 0, 0, abis[i].arch);
	}
	filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS);
	for (i = 1; i < NABIS; i++)
		if (!abis[i].nr_bit) {
			if (i != last)
				land(f, to_arch[i]);
			emit_arch(f, i, b);
		}
	land(f, to_native);
	emit_arch(f, 0, b);
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
	if (r->no_unix)
		groups |= GROUP_UNIX;
	if (getauxval(AT_UID) && getauxval(AT_EUID))
		groups &= ~(uint64_t)GROUP_METADATA;
	return groups & ~r->allowed_syscalls;
}

#ifdef LR_PREBUILT
/* build/ARCH/: prebuilt[], the builder's own filters for the runs most made
 * (scripts/filters.c), checked against it by tests/filtermodel.c. */
#include "prebuilt-filters.h"
#endif

/* Installed after no_new_privs, which an unprivileged filter needs.
 * TRACED: --explain watches the command (see stops()). */
int filter_syscalls(uint64_t groups, int traced)
{
	struct build b = {groups, traced};
	struct filter f; /* not = {0}: 4 KiB of stack cleared for nothing */
#ifdef LR_PREBUILT
	size_t i;

	for (i = 0; !traced && i < sizeof prebuilt / sizeof prebuilt[0]; i++)
		if (prebuilt[i].groups == groups)
			return install(prebuilt[i].len, prebuilt[i].insn);
#endif
	f.len = 0;
	build_filter(&f, &b);
	return filter_install(&f);
}

/*
 * The refusal a traced call stops for, read from the table as the filter
 * reads it: the first active rule on the native call NR that ARGS match
 * (their low 32 bits), if it is one that stops. Not from the stop's
 * ret_data: among the answers SECCOMP_RET_TRACE the newest filter's data
 * wins, and a filter of the command's own could name another row, or none,
 * to have its call resumed unmarked, which the filter then lets through.
 */
int refusal_for(uint64_t groups, uint64_t nr, const uint64_t *args, struct refusal *out)
{
	const struct build b = {groups, 1};
	size_t row;

	for (row = 0; row < NRULES; row++) {
		const struct rule *r = &rules[row];
		uint32_t v = (uint32_t)args[r->arg];

		if (!active(r, 0, groups) || r->nr[0] != nr)
			continue;
		if (!unconditional(r) && !(r->test == EQ && v == r->k) &&
		    !(r->test == NE && v != r->k) && !(r->test == SET && (v & r->k)) &&
		    !(r->test == MASKED && (v & K_MASK(r->k)) == K_BITS(r->k)))
			continue;
		if (!stops(&b, row, 0))
			return -1;
		*out = (struct refusal){r->call, r->nr[0], r->err, r->group};
		return 0;
	}
	return -1;
}

/*
 * The observer's filter: in the whole-tree mode (--kill-tree, --private-tmp,
 * --die-with-parent, --explain, --learn), the launcher L and the supervisor
 * S, which traces or waits for COMMAND, run outside the sandbox as the same
 * user, so the kernel's permission check lets COMMAND signal them. Both
 * block every signal but those they handle (each of which ends the run or
 * is passed on), so what can freeze or kill them is SIGSTOP and SIGKILL:
 * `kill -STOP $PPID` would leave a traced run stopped for ever, and a
 * caller's timeout waiting for it. This filter refuses (EPERM, as the
 * kernel's own check would) SIGSTOP and SIGKILL aimed at L or S, at their
 * process groups (the caller's job is COMMAND's too: kill(0) and
 * kill(-job) would stop L with it), and at -1; pidfd_open of L or S; a
 * SIGSTOP through any pidfd (a /proc/PID descriptor is one, and which
 * process it names cannot be told here); and ptrace of L or S (they are
 * non-dumpable too, and Landlock keeps a sandboxed process from tracing
 * one outside its domain). On every ABI alike: Landlock's signal scope
 * (ABI 6) would refuse COMMAND every signal to any process outside the
 * sandbox, kill(pid, 0) liveness checks included, which --scope signal
 * asks for where it is wanted.
 */
enum { OBS_ALL, OBS_OWN, OBS_NONE };

struct observed {
	uint16_t nr[NABIS];
	uint8_t target; /* the argument naming the process (with OBS_ALL or OBS_OWN) */
	uint8_t targets;
	int8_t sig;   /* the argument with the signal, or -1: refused outright */
	uint8_t kill; /* SIGKILL refused too, not only SIGSTOP */
};

/* clang-format off */
static const struct observed observed[] = {
	{NR_kill, 0, OBS_ALL, 1, 1},
	{NR_tkill, 0, OBS_OWN, 1, 1},
	{NR_tgkill, 0, OBS_OWN, 2, 1},
	{NR_rt_sigqueueinfo, 0, OBS_OWN, 1, 1},
	{NR_rt_tgsigqueueinfo, 0, OBS_OWN, 2, 1},
	{NR_pidfd_open, 0, OBS_OWN, -1, 0},
	{NR_pidfd_send_signal, 0, OBS_NONE, 1, 0},
	{NR_ptrace, 1, OBS_OWN, -1, 0},
};
/* clang-format on */

#define NOBSERVED  (sizeof observed / sizeof observed[0])
#define OBS_VALUES 6
#define OBS_DENY   (SECCOMP_RET_ERRNO | EPERM)

/*
 * One call's body, A holding nothing yet:
 *	A = target;  if (A == v) goto sig; ...;  return ALLOW
 *	sig:  A = signal;  if (A == SIGSTOP || A == SIGKILL) return EPERM;  return ALLOW
 */
static void emit_observed(struct filter *f, const struct observed *c, const uint32_t *values,
			  size_t nvalues)
{
	size_t i, at[OBS_VALUES], n = c->targets == OBS_NONE ? 0 : nvalues;

	if (n) {
		filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(c->target));
		for (i = 0; i < n; i++) {
			at[i] = f->len;
			filter_emit(f, BPF_JEQ_K, 0, 0, values[i]);
		}
		filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
		for (i = 0; i < n; i++)
			land(f, at[i]);
	}
	if (c->sig < 0) {
		filter_emit(f, BPF_RET_K, 0, 0, OBS_DENY);
		return;
	}
	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(c->sig));
	filter_emit(f, BPF_JEQ_K, 1 + !!c->kill, 0, SIGSTOP);
	if (c->kill)
		filter_emit(f, BPF_JEQ_K, 1, 0, SIGKILL);
	filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	filter_emit(f, BPF_RET_K, 0, 0, OBS_DENY);
}

/* One arch, A its call's number: the calls of every ABI on it (x32's with
 * its bit), then their bodies; anything else is allowed. */
static void emit_observed_arch(struct filter *f, uint32_t arch, const uint32_t *values)
{
	size_t i, j, n = 0, at[NOBSERVED * NABIS];
	uint16_t call[NOBSERVED * NABIS];

	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR);
	for (j = 0; j < NABIS; j++)
		for (i = 0; abis[j].arch == arch && i < NOBSERVED; i++)
			if (observed[i].nr[j]) {
				at[n] = f->len;
				call[n++] = (uint16_t)i;
				filter_emit(f, BPF_JEQ_K, 0, 0, abis[j].nr_bit | observed[i].nr[j]);
			}
	filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	for (i = 0; i < NOBSERVED; i++) {
		for (j = 0; j < n; j++)
			if (call[j] == i)
				land(f, at[j]);
		emit_observed(f, &observed[i], values,
			      observed[i].targets == OBS_ALL ? OBS_VALUES : 2);
	}
}

int filter_observer(pid_t launcher, pid_t supervisor, pid_t job)
{
	/* OBS_OWN: the first two; OBS_ALL: all (S leads its own group) */
	const uint32_t values[OBS_VALUES] = {
		(uint32_t)launcher, (uint32_t)supervisor, (uint32_t)-job, (uint32_t)-supervisor, 0,
		(uint32_t)-1,
	};
	struct filter f = {.len = 0};
	size_t i, j, to[NABIS];

	filter_emit(&f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARCH);
	for (i = 0; i < NABIS; i++) {
		to[i] = f.len;
		if (!abis[i].nr_bit)
			filter_emit(&f, BPF_JEQ_K, 0, 0, abis[i].arch);
	}
	/* an arch of no ABI here: the run's own filter kills it */
	filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	for (i = 0; i < NABIS; i++) {
		if (abis[i].nr_bit)
			continue;
		for (j = 0; j < i && abis[j].arch != abis[i].arch; j++)
			;
		if (j < i)
			continue;
		land(&f, to[i]);
		emit_observed_arch(&f, abis[i].arch, values);
	}
	return filter_install(&f);
}
