/*
 * Seccomp for landlock-run: the UAPI it needs (linux/filter.h,
 * linux/seccomp.h), our own as landlock.h is, since musl-gcc cannot see the
 * kernel's headers; and the few steps of building a classic BPF filter
 * (platform/linux-ARCH.h lists the ABIs a process can enter through and
 * the numbers of the calls the launcher's filter has rules for).
 */
#ifndef LR_SECCOMP_H
#define LR_SECCOMP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What differs per architecture: its system-call ABIs and numbers (LR_PLATFORM:
 * another target's, for scripts/filters.c on the host). */
#if defined(LR_PLATFORM)
#include LR_PLATFORM
#elif defined(__x86_64__)
#include "platform/linux-x64.h"
#elif defined(__aarch64__)
#include "platform/linux-arm64.h"
#else
#error "no platform/*.h numbers the system calls of this target"
#endif

struct sock_filter {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

struct sock_fprog {
	unsigned short len;
	struct sock_filter *filter;
};

/* struct seccomp_data: what a filter reads, as offsets. Both targets are
 * little-endian: the low half of a 64-bit argument comes first. */
#define SECCOMP_DATA_NR			 0
#define SECCOMP_DATA_ARCH		 4
#define SECCOMP_DATA_ARG(i)		 (16 + 8 * (i))
#define SECCOMP_SET_MODE_FILTER		 1
#define SECCOMP_FILTER_FLAG_NEW_LISTENER 8

#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#define SECCOMP_RET_USER_NOTIF	 0x7fc00000U
#define SECCOMP_RET_TRACE	 0x7ff00000U
#define SECCOMP_RET_ERRNO	 0x00050000U
#define SECCOMP_RET_LOG		 0x7ffc0000U
#define SECCOMP_RET_ALLOW	 0x7fff0000U

#define BPF_LD_ABS 0x20 /* BPF_LD | BPF_W | BPF_ABS: A = data[k] (32 bits) */
#define BPF_LD_IMM 0x00 /* BPF_LD | BPF_W | BPF_IMM: A = k */
#define BPF_AND_K  0x54 /* BPF_ALU | BPF_AND | BPF_K: A &= k */
#define BPF_JEQ_K  0x15 /* BPF_JMP | BPF_JEQ | BPF_K: A == k ? jt : jf */
#define BPF_JGT_K  0x25 /* BPF_JMP | BPF_JGT | BPF_K: A > k ? jt : jf */
#define BPF_JSET_K 0x45 /* BPF_JMP | BPF_JSET | BPF_K: A & k ? jt : jf */
#define BPF_RET_K  0x06 /* BPF_RET | BPF_K */
#define BPF_JA	   0x05 /* BPF_JMP | BPF_JA: pc += k (32 bits) */

/* One column of the NR_ rows (platform/): the arch a call reports, and the
 * bit its ABI's numbers carry (x32's bit 30), else 0. */
struct syscall_abi {
	uint32_t arch;
	uint32_t nr_bit;
};

/* The longest filter the launcher builds (seccomp.c: every group, on the
 * three x86_64 ABIs, is 169 instructions; with the tracer's own rules, as
 * --learn has them, 184; traced by --explain, 378). */
#define FILTER_MAX 512

/* A filter under construction, and the builder's steps (seccomp.c). */
struct filter {
	struct sock_filter insn[FILTER_MAX];
	unsigned short len;
};

void filter_emit(struct filter *f, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k);
/* A = arch; any but the native ABI returns OTHER; then A = nr. */
void filter_native_only(struct filter *f, uint32_t other);
/* seccomp(SET_MODE_FILTER), which needs no_new_privs: 0, or -1 and errno. */
int filter_install(const struct filter *f);

/* seccomp.c: the groups a run's filter refuses (uid 0 decides metadata),
 * and the filter of GROUPS installed on every system-call ABI; it needs
 * no_new_privs. 0, or -1 and errno. */
struct request; /* policy.h */
uint64_t refused_groups(const struct request *r);
int filter_syscalls(uint64_t groups, int traced);
/* The whole-tree mode's: SIGSTOP and SIGKILL (and pidfd_open, ptrace) aimed
 * at the launcher, the supervisor, their groups or -1 refused. */
int filter_observer(pid_t launcher, pid_t supervisor, pid_t job);
/* A refusal --explain saw: the filter stops it (ret_data TRACE_BASE + the
 * rule's row); the tracer finds its rule (refusal_for) and marks the call
 * with argument 5 TRACE_MARK, and the filter refuses it. */
#define TRACE_BASE 0x100
#define TRACE_MARK 0x6c616e64U
struct refusal {
	const char *call;
	uint32_t nr; /* on the native ABI */
	int err;
	uint64_t group;
};
int refusal_for(uint64_t groups, uint64_t nr, const uint64_t *args, struct refusal *out);

#endif
