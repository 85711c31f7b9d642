/*
 * linux-x64: what the C code needs to know about x86_64 system calls.
 *
 * The system-call ABIs an x86_64 kernel lets a process use, for the seccomp
 * filter against terminal injection (seccomp.c). No 32-bit binary is needed
 * to reach the others: int 0x80 enters the i386 ABI from 64-bit code, and a
 * number with bit 30 set enters x32 where the kernel has it (Debian:
 * syscall.x32=y).
 */
#define AUDIT_ARCH_X86_64 0xc000003eU /* EM_X86_64 | 64-bit | little-endian */
#define AUDIT_ARCH_I386	  0x40000003U /* EM_386 | little-endian */
#define X32_SYSCALL_BIT	  0x40000000U
#define NATIVE_ARCH	  AUDIT_ARCH_X86_64

/* ioctl(2) in each: 16; x32's own 514 (16 is in no x32 table, refused in
 * case); 54 for i386. */
#define IOCTL_ABIS                                                                      \
	{                                                                               \
		{AUDIT_ARCH_X86_64, {16, X32_SYSCALL_BIT | 514, X32_SYSCALL_BIT | 16}}, \
			{AUDIT_ARCH_I386, {54, 0, 0}},                                  \
	}

/*
 * The calls --explain and --learn watch (trace/calls.c), with their numbers in the
 * native table (tests/explain-run.bats checks them against musl's). x86_64
 * keeps the legacy path calls (open, mkdir, rename, ...) beside their *at
 * forms; programs use both.
 */
/* clang-format off */
#define WATCHED_CALLS(X) \
	X(open, 2) X(creat, 85) X(openat, 257) X(openat2, 437) X(execve, 59) \
	X(execveat, 322) X(mkdir, 83) X(mkdirat, 258) X(mknod, 133) X(mknodat, 259) \
	X(symlink, 88) X(symlinkat, 266) X(unlink, 87) X(unlinkat, 263) X(rmdir, 84) \
	X(rename, 82) X(renameat, 264) X(renameat2, 316) X(link, 86) X(linkat, 265) \
	X(truncate, 76) X(ftruncate, 77) X(ioctl, 16) X(bind, 49) X(connect, 42) \
	X(sendto, 44) X(sendmsg, 46) X(kill, 62) X(tkill, 200) X(tgkill, 234) \
	X(rt_sigqueueinfo, 129) X(rt_tgsigqueueinfo, 297) X(pidfd_send_signal, 424)
/* clang-format on */
