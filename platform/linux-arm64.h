/*
 * linux-arm64: the system-call ABIs an aarch64 kernel lets a process use,
 * for the seccomp filter (seccomp.c): its own, and 32-bit ARM (EABI) where
 * the kernel has CONFIG_COMPAT and the CPU runs AArch32 code, entered by
 * executing a 32-bit binary.
 */
#define AUDIT_ARCH_AARCH64 0xc00000b7U /* EM_AARCH64 | 64-bit | little-endian */
#define AUDIT_ARCH_ARM	   0x40000028U /* EM_ARM | little-endian */

/* ioctl(2): 29 in the generic table aarch64 uses, 54 on ARM EABI. */
static const struct syscall_abi ioctl_abis[] = {
	{AUDIT_ARCH_AARCH64, {29, 0, 0}},
	{AUDIT_ARCH_ARM, {54, 0, 0}},
};
