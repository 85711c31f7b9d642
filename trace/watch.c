/*
 * The traced child's seccomp filter: it stops the system calls the policy
 * can refuse (calls.c) at the tracer; every other call runs at full speed.
 * What would take a process out of the tracer's sight (clone with
 * CLONE_UNTRACED, clone3, io_uring) the system-call filter refuses on every
 * ABI while traced (seccomp.c, GROUP_TRACED).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "../inherit.h"
#include "../out.h"
#include "../seccomp.h"
#include "tracer.h"

/* Reading and executing are allowed everywhere: no --ro at all, or a
 * --ro (or --rw) grant on / itself, with nothing hidden beneath it. */
static int reads_everywhere(const struct policy *p)
{
	const struct request *r = &p->asked;
	struct stat root, st;
	size_t i;

	if (!r->reads_confined)
		return 1;
	if (r->nhidden || stat("/", &root))
		return 0;
	for (i = 0; i < r->ngrants; i++)
		if (r->grants[i].kind != GRANT_UNIX && stat(r->grants[i].path, &st) == 0 &&
		    st.st_dev == root.st_dev && st.st_ino == root.st_ino)
			return 1;
	return 0;
}

static int is_open(const struct call *c)
{
	return c == &calls[CALL_open] || c == &calls[CALL_openat];
}

/* A call stops when the policy can refuse it a right (--learn: always), or
 * --explain a capability the launcher drops (DROPPED) can, which nothing
 * learns. */
static int watched(const struct policy *p, const struct call *c, int reads, uint64_t dropped)
{
	const struct landlock_ruleset_attr *h = &p->kernel.handled;
	uint64_t fs = h->handled_access_fs & ~(reads ? p->kernel.grant_rights[GRANT_RO] : 0);

	if (c->caps)
		return !p->asked.learn && c->caps & dropped;
	return p->asked.learn || c->fs & fs || c->net & h->handled_access_net ||
	       c->scope & h->scoped;
}

/* When reads cannot be refused, an open only for reading need not stop. */
static int reads_only_pass(const struct policy *p, const struct call *c, int reads)
{
	return !p->asked.learn && reads && c->flags >= 0 && is_open(c);
}

/*
 * What Landlock never refuses, told by an argument (--explain; --learn
 * sees every call): an O_PATH open, which opens nothing (Landlock's open
 * hook never runs for it, and O_PATH drops O_CREAT); and the ioctl
 * commands Landlock permits on every file, devices too, since fcntl(2)
 * does as much (FIOCLEX, FIONCLEX, FIONBIO, FIOASYNC; the kernel reads the
 * low 32 bits of the command).
 */
static const uint32_t ioctl_always[] = {FIOCLEX, FIONCLEX, FIONBIO, FIOASYNC};

/* utime's calls with no times (touch) ask only for the right to write,
 * which no dropped capability refuses: a NULL (64 bits) passes. */
static void emit_null_pass(struct filter *f, int arg)
{
	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG((uint32_t)arg));
	filter_emit(f, BPF_JEQ_K, 0, 3, 0);
	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG((uint32_t)arg) + 4);
	filter_emit(f, BPF_JEQ_K, 0, 1, 0);
	filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
}

/* The tests after "nr == its number": each path of them returns, so the
 * accumulator they load is never compared with a number again. */
static void emit_body(struct filter *f, const struct policy *p, const struct call *c, int reads,
		      uint32_t trace)
{
	unsigned n = sizeof ioctl_always / sizeof ioctl_always[0], j;
	int pass = reads_only_pass(p, c, reads);

	if (!p->asked.learn && is_open(c) && c->flags >= 0) {
		/* O_PATH: allow; (reads pass) not writing: allow; else trace */
		filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG((uint32_t)c->flags));
		filter_emit(f, BPF_JSET_K, pass ? 1 : 0, pass ? 0 : 1, O_PATH);
		if (pass)
			filter_emit(f, BPF_JSET_K, 1, 0, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC);
		filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	} else if (!p->asked.learn && c == &calls[CALL_ioctl]) {
		filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(1));
		for (j = 0; j < n; j++)
			filter_emit(f, BPF_JEQ_K, (uint8_t)(n - 1 - j), j == n - 1,
				    ioctl_always[j]);
		filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	} else if (c->caps && null_passes(c) >= 0) {
		emit_null_pass(f, null_passes(c));
	}
	filter_emit(f, BPF_RET_K, 0, 0, trace);
}

/*
 *	if (arch != native) allow	(the other ABIs are not watched)
 *	per watched call:  if (nr == its number) { its tests (emit_body); return TRACE | row }
 *	    utime's with no times: if (times == NULL) allow
 *	allow
 */
void watch_calls(const struct policy *p)
{
	struct filter f = {.len = 0}, body;
	int reads = reads_everywhere(p);
	uint64_t dropped = dropped_capabilities(p->asked.keep_caps);
	unsigned i, j;

	filter_native_only(&f, SECCOMP_RET_ALLOW);
	for (i = 0; i < NCALLS; i++) {
		const struct call *c = &calls[i];

		if (call_nr[i] < 0 || !watched(p, c, reads, dropped))
			continue;
		body.len = 0;
		emit_body(&body, p, c, reads, SECCOMP_RET_TRACE | i);
		filter_emit(&f, BPF_JEQ_K, 0, (uint8_t)body.len, (uint32_t)call_nr[i]);
		for (j = 0; j < body.len; j++)
			filter_emit(&f, body.insn[j].code, body.insn[j].jt, body.insn[j].jf,
				    body.insn[j].k);
	}
	filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	/* An unprivileged filter needs no_new_privs, which the run sets anyway. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || filter_install(&f))
		die_errno("%s: cannot install the seccomp filter that stops the watched calls",
			  p->asked.learn ? "--learn" : "--explain");
}

/* A seccomp stop counts only when the kernel's own facts agree with the
 * filter's word: the native ABI, and the number of the call ret_data names.
 * The command can install filters of its own that return TRACE with any
 * data for any call (theirs beat our ALLOW); those stops are not ours. */
int trusted_stop(const struct __ptrace_syscall_info *info)
{
	uint32_t row = info->seccomp.ret_data;

	return info->op == PTRACE_SYSCALL_INFO_SECCOMP && info->arch == NATIVE_ARCH &&
	       row < NCALLS && call_nr[row] >= 0 && info->seccomp.nr == (uint64_t)call_nr[row];
}
