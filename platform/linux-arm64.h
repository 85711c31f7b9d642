/*
 * linux-arm64: what the C code needs to know about aarch64 system calls.
 *
 * The system-call ABIs an aarch64 kernel lets a process use, for the
 * seccomp filter (seccomp.c): its own, and 32-bit ARM (EABI) where the
 * kernel has CONFIG_COMPAT and the CPU runs AArch32 code, entered by
 * executing a 32-bit binary.
 */
#define AUDIT_ARCH_AARCH64 0xc00000b7U /* EM_AARCH64 | 64-bit | little-endian */
#define AUDIT_ARCH_ARM	   0x40000028U /* EM_ARM | little-endian */
#define NATIVE_ARCH	   AUDIT_ARCH_AARCH64

/* The columns of the NR_ rows below: each ABI's arch, and no number bit. */
#define NABIS 2
#define SYSCALL_ABIS                                          \
	{                                                     \
		{AUDIT_ARCH_AARCH64, 0}, {AUDIT_ARCH_ARM, 0}, \
	}

/*
 * The calls the filter has rules for: aarch64 (the generic table, musl's
 * aarch64 bits/syscall.h), ARM EABI (the kernel's unistd-eabi.h, as
 * Debian's linux-libc-dev-armhf-cross has it); 0 where the ABI lacks the
 * call. The generic table has none of the legacy path calls (open, creat,
 * chmod, mknod); EABI has no socketcall (OABI only). The calls added since
 * Linux 5.1 have one number on every ABI (424 and up).
 */
/* clang-format off */
#define NR_ioctl		{29, 54}
#define NR_socket		{198, 281}
#define NR_socketpair		{199, 288}
#define NR_socketcall		{0, 0}
#define NR_io_uring_setup	{425, 425}
#define NR_io_uring_enter	{426, 426}
#define NR_io_uring_register	{427, 427}
#define NR_unshare		{97, 337}
#define NR_seccomp		{277, 383}
#define NR_clone		{220, 120}
#define NR_clone3		{435, 435}
#define NR_add_key		{217, 309}
#define NR_request_key		{218, 310}
#define NR_keyctl		{219, 311}
#define NR_bpf			{280, 386}
#define NR_perf_event_open	{241, 364}
#define NR_userfaultfd		{282, 388}
#define NR_chmod		{0, 15}
#define NR_fchmod		{52, 94}
#define NR_fchmodat		{53, 333}
#define NR_fchmodat2		{452, 452}
#define NR_open			{0, 5}
#define NR_creat		{0, 8}
#define NR_openat		{56, 322}
#define NR_openat2		{437, 437}
#define NR_mknod		{0, 14}
#define NR_mknodat		{33, 324}
#define NR_setxattr		{5, 226}
#define NR_lsetxattr		{6, 227}
#define NR_fsetxattr		{7, 228}
#define NR_removexattr		{14, 235}
#define NR_lremovexattr		{15, 236}
#define NR_fremovexattr		{16, 237}
#define NR_setxattrat		{463, 463}
#define NR_removexattrat	{466, 466}
/* mmap where its flags are argument 3 (EABI has mmap2 alone), and the
 * old mmap, whose arguments are in memory (OABI's, not EABI's). A row
 * NAME__WHICH holds the numbers of the call NAME in the columns where
 * WHICH applies, 0 in the others (tests/seccomp.bats checks them) */
#define NR_mmap__args		{222, 0}
#define NR_mmap__old		{0, 0}
#define NR_mmap2		{0, 192}
/* the observer's (seccomp.c: what could stop the launcher) */
#define NR_kill			{129, 37}
#define NR_tkill		{130, 238}
#define NR_tgkill		{131, 268}
#define NR_rt_sigqueueinfo	{138, 178}
#define NR_rt_tgsigqueueinfo	{240, 363}
#define NR_pidfd_open		{434, 434}
#define NR_pidfd_send_signal	{424, 424}
#define NR_ptrace		{117, 26}
/* clang-format on */

/*
 * The calls --explain and --learn watch (trace/calls.c), with their numbers in the
 * generic table aarch64 uses (tests/explain-run.bats checks them against
 * musl's). It has none of the legacy path calls (open, creat, mkdir, mknod,
 * symlink, unlink, rmdir, rename, link, chown, lchown, chmod, utime, utimes,
 * futimesat): -1, the *at forms do their work. The last rows, from chown,
 * are watched only when the launcher dropped a capability that can refuse
 * them (CAP_CHOWN, CAP_FOWNER); fchmodat2 is newer than musl's headers (one
 * number on every ABI, as its NR_ row above).
 */
/* clang-format off */
#define WATCHED_CALLS(X) \
	X(open, -1) X(creat, -1) X(openat, 56) X(openat2, 437) X(execve, 221) \
	X(execveat, 281) X(mkdir, -1) X(mkdirat, 34) X(mknod, -1) X(mknodat, 33) \
	X(symlink, -1) X(symlinkat, 36) X(unlink, -1) X(unlinkat, 35) X(rmdir, -1) \
	X(rename, -1) X(renameat, 38) X(renameat2, 276) X(link, -1) X(linkat, 37) \
	X(truncate, 45) X(ftruncate, 46) X(ioctl, 29) X(bind, 200) X(connect, 203) \
	X(sendto, 206) X(sendmsg, 211) X(kill, 129) X(tkill, 130) X(tgkill, 131) \
	X(rt_sigqueueinfo, 138) X(rt_tgsigqueueinfo, 240) X(pidfd_send_signal, 424) \
	X(chown, -1) X(fchown, 55) X(lchown, -1) X(fchownat, 54) X(chmod, -1) \
	X(fchmod, 52) X(fchmodat, 53) X(fchmodat2, 452) X(utime, -1) X(utimes, -1) \
	X(futimesat, -1) X(utimensat, 88)
/* clang-format on */
