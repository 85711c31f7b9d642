/*
 * linux-x64: the system-call ABIs an x86_64 kernel lets a process use, for
 * the seccomp filter (seccomp.c). No 32-bit binary is needed to reach the
 * others: int 0x80 enters the i386 ABI from 64-bit code, and a number with
 * bit 30 set enters x32 where the kernel has it (Debian: syscall.x32=y).
 */
#define AUDIT_ARCH_X86_64 0xc000003eU /* EM_X86_64 | 64-bit | little-endian */
#define AUDIT_ARCH_I386	  0x40000003U /* EM_386 | little-endian */
#define X32_SYSCALL_BIT	  0x40000000U

/* ioctl(2) in each: 16; x32's own 514 (16 is in no x32 table, refused in
 * case); 54 for i386. */
static const struct syscall_abi ioctl_abis[] = {
	{AUDIT_ARCH_X86_64, {16, X32_SYSCALL_BIT | 514, X32_SYSCALL_BIT | 16}},
	{AUDIT_ARCH_I386, {54, 0, 0}},
};
