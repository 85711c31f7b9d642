/*
 * The tracer's own box, as OpenSSH's privilege separation boxes the code
 * that reads the other side's bytes: the tracer decodes memory, registers
 * and paths the command chose, so as soon as the command is attached it
 * narrows itself before it reads a byte.
 *
 * - no_new_privs, and every capability dropped, CAP_SYS_PTRACE included: a
 *   tracer keeps tracing what it attached (and what that forks) with no
 *   capability at all, and one that attached while privileged keeps reading
 *   a non-dumpable tracee's memory through ptrace itself. Paths are then
 *   resolved with no more power than the command's user has.
 * - A seccomp allowlist: what the tracer's own loop needs, and nothing to
 *   act with. No execve, no socket, no open for writing or creating, no
 *   ptrace request that changes a tracee's memory (its registers only as a
 *   refusal's mark needs: x86_64's POKEUSER, aarch64's SETREGSET, whose
 *   register is not tested), signals only to itself and,
 *   through its pidfd, to the command; renaming only inside the report's
 *   own directory. Anything else kills the tracer, and PTRACE_O_EXITKILL
 *   the traced tree with it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../inherit.h"
#include "../out.h"
#include "../seccomp.h"
#include "tracer.h"

enum test {
	ANY,	/* allowed whatever its arguments */
	IS,	/* argument ARG is K */
	CLEAR,	/* argument ARG has none of the bits K */
	BOTH_IS /* arguments 0 and 2 are K (renameat's two directories) */
};

struct allowed {
	uint32_t nr;
	uint8_t test, arg;
	uint32_t k;
};

#define WRITING (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | (O_TMPFILE & ~O_DIRECTORY))

/* What the tracer's loop, its decoders and its reports call (musl's
 * wrappers included), on the native ABI. */
static const struct allowed calls_always[] = {
	{SYS_read, ANY, 0, 0},
	{SYS_write, ANY, 0, 0},
	{SYS_close, ANY, 0, 0},
	{SYS_openat, CLEAR, 2, WRITING}, /* the tracer calls openat, never open */
	{SYS_fstat, ANY, 0, 0},
	{SYS_newfstatat, ANY, 0, 0},
	{SYS_statx, ANY, 0, 0}, /* an immutable file's attributes (calls.c) */
#ifdef SYS_stat
	{SYS_stat, ANY, 0, 0},
	{SYS_lstat, ANY, 0, 0},
#endif
	{SYS_fstatfs, ANY, 0, 0},
	{SYS_statfs, ANY, 0, 0},
	{SYS_geteuid, ANY, 0, 0},
#ifdef SYS_readlink
	{SYS_readlink, ANY, 0, 0},
#endif
	{SYS_readlinkat, ANY, 0, 0},
	{SYS_pread64, ANY, 0, 0},
	{SYS_getxattr, ANY, 0, 0},
	{SYS_lgetxattr, ANY, 0, 0},
	{SYS_process_vm_readv, ANY, 0, 0},
	{SYS_ptrace, IS, 0, PTRACE_CONT},
	{SYS_ptrace, IS, 0, PTRACE_SYSCALL},
	{SYS_ptrace, IS, 0, PTRACE_LISTEN},
	{SYS_ptrace, IS, 0, PTRACE_GETEVENTMSG},
	{SYS_ptrace, IS, 0, PTRACE_GET_SYSCALL_INFO},
	{SYS_ptrace, IS, 0, PTRACE_PEEKDATA},
/* the one register a refusal's mark goes in (tracee.c: set_arg5) */
#if defined(__x86_64__)
	{SYS_ptrace, IS, 0, PTRACE_POKEUSER},
#else
	{SYS_ptrace, IS, 0, PTRACE_GETREGSET},
	{SYS_ptrace, IS, 0, PTRACE_SETREGSET},
#endif
	{SYS_wait4, ANY, 0, 0},
	/* the supervisor's end (supervise.c): every child found, checked,
	 * killed; and dying of the command's signal without a core file */
	{SYS_waitid, ANY, 0, 0},
	{SYS_pidfd_open, ANY, 0, 0},
	{SYS_pidfd_send_signal, IS, 1, SIGKILL},
	{SYS_getppid, ANY, 0, 0},
	{SYS_prlimit64, IS, 0, 0},
	{SYS_rt_sigaction, ANY, 0, 0},
	{SYS_rt_sigprocmask, ANY, 0, 0},
	{SYS_rt_sigreturn, ANY, 0, 0},
	{SYS_restart_syscall, ANY, 0, 0},
	{SYS_setitimer, ANY, 0, 0},
	{SYS_getpid, ANY, 0, 0},
#ifdef SYS_getpgrp
	{SYS_getpgrp, ANY, 0, 0},
#endif
	{SYS_getpgid, ANY, 0, 0},
	{SYS_ioctl, IS, 1, TIOCGPGRP},
	{SYS_mmap, CLEAR, 2, PROT_EXEC},
	{SYS_munmap, ANY, 0, 0},
	{SYS_exit, ANY, 0, 0},
	{SYS_exit_group, ANY, 0, 0},
};

static void emit_test(struct filter *f, const struct allowed *a)
{
	/* ANY: 2 instructions; the others load an argument, test it, and load
	 * the number again for the next row. */
	static const uint8_t skip[] = {[ANY] = 1, [IS] = 4, [CLEAR] = 4, [BOTH_IS] = 6};

	filter_emit(f, BPF_JEQ_K, 0, skip[a->test], a->nr);
	if (a->test == IS || a->test == BOTH_IS) {
		filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(a->test == IS ? a->arg : 0));
		filter_emit(f, BPF_JEQ_K, 0, a->test == IS ? 1 : 3, a->k);
	}
	if (a->test == BOTH_IS) {
		filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(2));
		filter_emit(f, BPF_JEQ_K, 0, 1, a->k);
	}
	if (a->test == CLEAR) {
		filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(a->arg));
		filter_emit(f, BPF_JSET_K, 1, 0, a->k);
	}
	filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	if (a->test != ANY)
		filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR);
}

/* First: no privilege left, before the tracer creates its report; and
 * out of the command's reach. The command runs as the tracer's user, so
 * /proc/TRACER/fd would hand it the status descriptor and a report pipe
 * to write forged lines into (under --learn nothing else stops it): a
 * process that is not dumpable is reachable there only with
 * CAP_SYS_PTRACE, which the command does not have. Tracing its children
 * needs no dumpability of its own. */
void box_drop(void)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die_errno("cannot set no_new_privs in the tracer");
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		die_errno("cannot make the tracer non-dumpable");
	drop_capabilities();
}

/*
 * Then the allowlist. SELF signals only itself (job control, dying of the
 * signal it got), the command only through PIDFD, and a report in
 * REPORT_DIR (-1: none, or a pipe) is renamed over its target or removed.
 * 0, or -1 and errno: the caller tells the failure (trace.c).
 */
int box_seal(pid_t self, int pidfd, int report_dir)
{
	const struct allowed mine[] = {
		{SYS_kill, IS, 0, (uint32_t)self},
		{SYS_pidfd_send_signal, IS, 0, (uint32_t)pidfd},
#ifdef SYS_renameat
		{SYS_renameat, BOTH_IS, 0, (uint32_t)report_dir},
#endif
		{SYS_renameat2, BOTH_IS, 0, (uint32_t)report_dir},
		{SYS_unlinkat, IS, 0, (uint32_t)report_dir},
	};
	size_t i, n = sizeof mine / sizeof mine[0] - (report_dir < 0 ? 3 : 0);
	struct filter f = {.len = 0};

	filter_native_only(&f, SECCOMP_RET_KILL_PROCESS);
	for (i = 0; i < sizeof calls_always / sizeof calls_always[0]; i++)
		emit_test(&f, &calls_always[i]);
	for (i = 0; i < n; i++)
		emit_test(&f, &mine[i]);
	filter_emit(&f, BPF_RET_K, 0, 0, LR_TRACER_DEFAULT);
	return filter_install(&f);
}
