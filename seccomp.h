/*
 * Seccomp for landlock-run: the UAPI it needs (linux/filter.h,
 * linux/seccomp.h), our own as landlock.h is, since musl-gcc cannot see the
 * kernel's headers; and a small builder for classic BPF filters, so that
 * every filter the launcher installs starts with the same check of the
 * system-call ABI (platform/linux-ARCH.h lists the ABIs a process can enter
 * through).
 */
#ifndef LR_SECCOMP_H
#define LR_SECCOMP_H

#include <stddef.h>
#include <stdint.h>

/* What differs per architecture: its system-call ABIs and numbers. */
#if defined(__x86_64__)
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
#define SECCOMP_DATA_NR		0
#define SECCOMP_DATA_ARCH	4
#define SECCOMP_DATA_ARG(i)	(16 + 8 * (i))
#define SECCOMP_SET_MODE_FILTER 1

#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#define SECCOMP_RET_TRACE	 0x7ff00000U
#define SECCOMP_RET_ERRNO	 0x00050000U
#define SECCOMP_RET_LOG		 0x7ffc0000U
#define SECCOMP_RET_ALLOW	 0x7fff0000U

#define BPF_LD_ABS 0x20 /* BPF_LD | BPF_W | BPF_ABS: A = data[k] (32 bits) */
#define BPF_JEQ_K  0x15 /* BPF_JMP | BPF_JEQ | BPF_K: A == k ? jt : jf */
#define BPF_JSET_K 0x45 /* BPF_JMP | BPF_JSET | BPF_K: A & k ? jt : jf */
#define BPF_RET_K  0x06 /* BPF_RET | BPF_K */

/* One system-call ABI a process can enter the kernel through: its
 * AUDIT_ARCH value and the numbers one system call has in it (x86_64 has
 * several: x32 numbers carry bit 30). 0 ends the list: no ABI here gives
 * the calls we filter the number 0. */
struct syscall_abi {
	uint32_t arch;
	uint32_t nr[3];
};

#define FILTER_MAX 192 /* --explain's: 4 + up to 5 per watched call */

/* A filter under construction, and the builder's steps (seccomp.c). */
struct filter {
	struct sock_filter insn[FILTER_MAX];
	unsigned short len;
};

void filter_emit(struct filter *f, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k);
/* The ABI check first: a known ABI's listed call goes on to the next
 * instruction, its other calls are allowed, and an ABI not in the table
 * kills the process. */
void filter_match_call(struct filter *f, const struct syscall_abi *abis, size_t nabis);
/* seccomp(SET_MODE_FILTER), which needs no_new_privs: 0, or -1 and errno. */
int filter_install(const struct filter *f);

#endif
