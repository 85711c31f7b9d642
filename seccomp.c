/*
 * The seccomp filter that keeps the command from pushing input into a
 * terminal: ioctl(fd, TIOCSTI) injects bytes that whoever reads the
 * terminal next (the caller's shell, after landlock-run exits) takes as
 * typed, and TIOCLINUX can do the same on a virtual console. Landlock's
 * ioctl_dev right does not cover a terminal opened before confinement, and
 * dev.tty.legacy_tiocsti does not stop root or older kernels
 * (CVE-2017-5226 in bubblewrap). The kernel reads only the low 32 bits of
 * the command, so the filter compares only those (a 64-bit compare was
 * CVE-2019-10063 in Flatpak). Every other call is allowed; the filter is a
 * dozen instructions of classic BPF, written here rather than through
 * libseccomp.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock-run.h"
#include "seccomp.h"

static const struct syscall_abi ioctl_abis[] = IOCTL_ABIS;

void filter_emit(struct filter *f, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	/* The filters are fixed at compile time: overflowing is a bug here. */
	if (f->len == FILTER_MAX)
		die("seccomp filter longer than %d instructions", FILTER_MAX);
	f->insn[f->len++] = (struct sock_filter){code, jt, jf, k};
}

static size_t count(const struct syscall_abi *abi)
{
	size_t n = 0;

	while (n < sizeof abi->nr / sizeof abi->nr[0] && abi->nr[n])
		n++;
	return n;
}

/*
 *	A = arch
 *	per ABI:  if (A != abi.arch) skip the block;  A = nr;
 *	          if (A == abi.nr[j]) goto match (for each j);  return ALLOW
 *	return KILL_PROCESS
 *	match:    what the caller emits next
 */
void filter_match_call(struct filter *f, const struct syscall_abi *abis, size_t nabis)
{
	size_t i, j, rest = 1; /* instructions from here to match: the KILL */

	for (i = 0; i < nabis; i++)
		rest += 3 + count(&abis[i]);
	filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARCH);
	for (i = 0; i < nabis; i++) {
		size_t n = count(&abis[i]);

		filter_emit(f, BPF_JEQ_K, 0, (uint8_t)(n + 2), abis[i].arch);
		filter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR);
		rest -= 2;
		for (j = 0; j < n; j++, rest--)
			filter_emit(f, BPF_JEQ_K, (uint8_t)(rest - 1), 0, abis[i].nr[j]);
		filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
		rest--;
	}
	filter_emit(f, BPF_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS);
}

int filter_install(const struct filter *f)
{
	struct sock_fprog prog = {f->len, (struct sock_filter *)f->insn};

	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0U, &prog);
}

/* Installed after no_new_privs, which an unprivileged filter needs. */
int refuse_tty_injection(void)
{
	struct filter f = {.len = 0};

	filter_match_call(&f, ioctl_abis, sizeof ioctl_abis / sizeof ioctl_abis[0]);
	/* ioctl(fd, cmd, ...): the low half of cmd, whatever the high half says */
	filter_emit(&f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(1));
	filter_emit(&f, BPF_JEQ_K, 2, 0, TIOCSTI);
	filter_emit(&f, BPF_JEQ_K, 1, 0, TIOCLINUX);
	filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM);
	return filter_install(&f);
}
