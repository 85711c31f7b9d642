/*
 * linux-x64: what the C code needs to know about x86_64 system calls.
 *
 * The system-call ABIs an x86_64 kernel lets a process use, for the seccomp
 * filter (seccomp.c). No 32-bit binary is needed to reach the others: int
 * 0x80 enters the i386 ABI from 64-bit code, and a number with bit 30 set
 * enters x32 where the kernel has it (Debian: syscall.x32=y).
 */
#define AUDIT_ARCH_X86_64 0xc000003eU /* EM_X86_64 | 64-bit | little-endian */
#define AUDIT_ARCH_I386	  0x40000003U /* EM_386 | little-endian */
#define X32_SYSCALL_BIT	  0x40000000U
#define NATIVE_ARCH	  AUDIT_ARCH_X86_64

/* The columns of the NR_ rows below, in this order: the arch each ABI
 * reports to seccomp, and the bit its numbers carry. x32 shares x86_64's
 * arch; its own table holds no 64-bit-only call (Linux 5.4 and later, so
 * every kernel with Landlock), so only its own numbers need a rule. */
#define NABIS 3
#define SYSCALL_ABIS                                                          \
	{                                                                     \
		{AUDIT_ARCH_X86_64, 0}, {AUDIT_ARCH_X86_64, X32_SYSCALL_BIT}, \
			{AUDIT_ARCH_I386, 0},                                 \
	}

/*
 * The calls the filter has rules for: x86_64, x32 (without bit 30), i386;
 * 0 where the ABI lacks the call. From the kernel's unistd_64.h,
 * unistd_x32.h and unistd_32.h (tests/seccomp.bats checks them); the calls
 * added since Linux 5.1 have one number on every ABI (424 and up).
 */
/* clang-format off */
#define NR_ioctl		{16, 514, 54}
#define NR_socket		{41, 41, 359}
#define NR_socketpair		{53, 53, 360}
#define NR_socketcall		{0, 0, 102}
#define NR_io_uring_setup	{425, 425, 425}
#define NR_io_uring_enter	{426, 426, 426}
#define NR_io_uring_register	{427, 427, 427}
#define NR_unshare		{272, 272, 310}
#define NR_seccomp		{317, 317, 354}
#define NR_clone		{56, 56, 120}
#define NR_clone3		{435, 435, 435}
#define NR_add_key		{248, 248, 286}
#define NR_request_key		{249, 249, 287}
#define NR_keyctl		{250, 250, 288}
#define NR_bpf			{321, 321, 357}
#define NR_perf_event_open	{298, 298, 336}
#define NR_userfaultfd		{323, 323, 374}
#define NR_chmod		{90, 90, 15}
#define NR_fchmod		{91, 91, 94}
#define NR_fchmodat		{268, 268, 306}
#define NR_fchmodat2		{452, 452, 452}
#define NR_open			{2, 2, 5}
#define NR_creat		{85, 85, 8}
#define NR_openat		{257, 257, 295}
#define NR_openat2		{437, 437, 437}
#define NR_mknod		{133, 133, 14}
#define NR_mknodat		{259, 259, 297}
#define NR_setxattr		{188, 188, 226}
#define NR_lsetxattr		{189, 189, 227}
#define NR_fsetxattr		{190, 190, 228}
#define NR_removexattr		{197, 197, 235}
#define NR_lremovexattr		{198, 198, 236}
#define NR_fremovexattr		{199, 199, 237}
#define NR_setxattrat		{463, 463, 463}
#define NR_removexattrat	{466, 466, 466}
/* mmap where its flags are argument 3 (i386's mmap is the old one, whose
 * arguments are in memory), and that old one. A row NAME__WHICH holds the
 * numbers of the call NAME in the columns where WHICH applies, 0 in the
 * others (tests/seccomp.bats checks them against NAME's) */
#define NR_mmap__args		{9, 9, 0}
#define NR_mmap__old		{0, 0, 90}
#define NR_mmap2		{0, 0, 192}
/* the observer's (seccomp.c: what could stop the launcher) */
#define NR_kill			{62, 62, 37}
#define NR_tkill		{200, 200, 238}
#define NR_tgkill		{234, 234, 270}
#define NR_rt_sigqueueinfo	{129, 524, 178}
#define NR_rt_tgsigqueueinfo	{297, 536, 335}
#define NR_pidfd_open		{434, 434, 434}
#define NR_pidfd_send_signal	{424, 424, 424}
#define NR_ptrace		{101, 521, 26}
/* clang-format on */

/*
 * The calls --explain and --learn watch (trace/calls.c), with their numbers in the
 * native table (tests/explain-run.bats checks them against musl's). x86_64
 * keeps the legacy path calls (open, mkdir, rename, chown, utimes, ...)
 * beside their *at forms; programs use both. The last rows, from chown, are
 * watched only when the launcher dropped a capability that can refuse them
 * (CAP_CHOWN, CAP_FOWNER); fchmodat2 is newer than musl's headers (one number
 * on every ABI, as its NR_ row above).
 */
/* clang-format off */
#define WATCHED_CALLS(X) \
	X(open, 2) X(creat, 85) X(openat, 257) X(openat2, 437) X(execve, 59) \
	X(execveat, 322) X(mkdir, 83) X(mkdirat, 258) X(mknod, 133) X(mknodat, 259) \
	X(symlink, 88) X(symlinkat, 266) X(unlink, 87) X(unlinkat, 263) X(rmdir, 84) \
	X(rename, 82) X(renameat, 264) X(renameat2, 316) X(link, 86) X(linkat, 265) \
	X(truncate, 76) X(ftruncate, 77) X(ioctl, 16) X(bind, 49) X(connect, 42) \
	X(sendto, 44) X(sendmsg, 46) X(kill, 62) X(tkill, 200) X(tgkill, 234) \
	X(rt_sigqueueinfo, 129) X(rt_tgsigqueueinfo, 297) X(pidfd_send_signal, 424) \
	X(chown, 92) X(fchown, 93) X(lchown, 94) X(fchownat, 260) X(chmod, 90) \
	X(fchmod, 91) X(fchmodat, 268) X(fchmodat2, 452) X(utime, 132) X(utimes, 235) \
	X(futimesat, 261) X(utimensat, 280)
/* clang-format on */
