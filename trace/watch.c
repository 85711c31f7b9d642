/*
 * The traced child's seccomp filter: it stops the system calls the policy
 * can refuse (calls.c) at the tracer, and refuses, while traced, what would
 * take a process out of the tracer's sight: clone(CLONE_UNTRACED), whose
 * child PTRACE_O_TRACEFORK cannot follow; clone3, whose flags sit in memory
 * a filter cannot read (ENOSYS, so libc falls back to clone); and io_uring,
 * whose operations are no system calls and never stop. Every other call
 * runs at full speed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#include "tracer.h"

#ifndef CLONE_UNTRACED
#define CLONE_UNTRACED 0x00800000
#endif

/* Calls the tracer cannot follow, refused with ENOSYS as on a kernel
 * without them (numbers shared by every architecture since Linux 5.1). */
static const uint32_t unseen[] = {425, 426, 427, 435}; /* io_uring_*, clone3 */

static int watched(const struct policy *p, const struct call *c)
{
	const struct landlock_ruleset_attr *h = &p->kernel.handled;

	return p->asked.learn || c->fs & h->handled_access_fs || c->net & h->handled_access_net ||
	       c->scope & h->scoped;
}

/* Without --ro, reads are not confined: an open only for reading cannot be
 * refused, so it need not stop either. */
static int reads_only_pass(const struct policy *p, const struct call *c)
{
	return !p->asked.learn && !p->asked.reads_confined && c->flags >= 0 &&
	       (c == &calls[CALL_open] || c == &calls[CALL_openat]);
}

/*
 *	if (arch != native) allow	(the other ABIs are not watched)
 *	clone with CLONE_UNTRACED: EPERM; clone3, io_uring: ENOSYS
 *	per watched call:  if (nr == its number) return TRACE | row
 *	    an open when reads pass: if (!(flags & writing)) allow
 *	allow
 */
void watch_calls(const struct policy *p)
{
	struct filter f = {.len = 0};
	unsigned i;

	filter_emit(&f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARCH);
	filter_emit(&f, BPF_JEQ_K, 1, 0, NATIVE_ARCH);
	filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	filter_emit(&f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR);
	filter_emit(&f, BPF_JEQ_K, 0, 4, SYS_clone);
	filter_emit(&f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(0));
	filter_emit(&f, BPF_JSET_K, 0, 1, CLONE_UNTRACED);
	filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM);
	filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	for (i = 0; i < sizeof unseen / sizeof unseen[0]; i++) {
		filter_emit(&f, BPF_JEQ_K, 0, 1, unseen[i]);
		filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | ENOSYS);
	}
	for (i = 0; i < NCALLS; i++) {
		const struct call *c = &calls[i];
		int pass = reads_only_pass(p, c);

		if (call_nr[i] < 0 || !watched(p, c))
			continue;
		filter_emit(&f, BPF_JEQ_K, 0, pass ? 4 : 1, (uint32_t)call_nr[i]);
		if (pass) {
			filter_emit(&f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG((uint32_t)c->flags));
			filter_emit(&f, BPF_JSET_K, 1, 0, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC);
			filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
		}
		filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_TRACE | i);
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
