/*
 * linux-arm64: what the C code needs to know about aarch64 system calls.
 *
 * The system-call ABIs an aarch64 kernel lets a process use, for the
 * seccomp filter against terminal injection (seccomp.c): its own, and
 * 32-bit ARM (EABI) where the kernel has CONFIG_COMPAT and the CPU runs
 * AArch32 code, entered by executing a 32-bit binary.
 */
#define AUDIT_ARCH_AARCH64 0xc00000b7U /* EM_AARCH64 | 64-bit | little-endian */
#define AUDIT_ARCH_ARM	   0x40000028U /* EM_ARM | little-endian */
#define NATIVE_ARCH	   AUDIT_ARCH_AARCH64

/* ioctl(2): 29 in the generic table aarch64 uses, 54 on ARM EABI. */
#define IOCTL_ABIS                                                              \
	{                                                                       \
		{AUDIT_ARCH_AARCH64, {29, 0, 0}}, {AUDIT_ARCH_ARM, {54, 0, 0}}, \
	}

/*
 * The calls --explain and --learn watch (trace/calls.c), with their numbers in the
 * generic table aarch64 uses (tests/explain-run.bats checks them against
 * musl's). It has none of the legacy path calls (open, creat, mkdir, mknod,
 * symlink, unlink, rmdir, rename, link): -1, the *at forms do their work.
 */
/* clang-format off */
#define WATCHED_CALLS(X) \
	X(open, -1) X(creat, -1) X(openat, 56) X(openat2, 437) X(execve, 221) \
	X(execveat, 281) X(mkdir, -1) X(mkdirat, 34) X(mknod, -1) X(mknodat, 33) \
	X(symlink, -1) X(symlinkat, 36) X(unlink, -1) X(unlinkat, 35) X(rmdir, -1) \
	X(rename, -1) X(renameat, 38) X(renameat2, 276) X(link, -1) X(linkat, 37) \
	X(truncate, 45) X(ftruncate, 46) X(ioctl, 29) X(bind, 200) X(connect, 203) \
	X(sendto, 206) X(sendmsg, 211) X(kill, 129) X(tkill, 130) X(tgkill, 131) \
	X(rt_sigqueueinfo, 138) X(rt_tgsigqueueinfo, 240) X(pidfd_send_signal, 424)
/* clang-format on */
