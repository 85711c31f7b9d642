/*
 * sysop: attempt one of the system calls the launcher's seccomp filter has
 * rules for, and print its outcome, for tests/seccomp.bats and the kernel
 * matrix guest. Prints "ok" (exit 0) or the errno's name (exit 1); a failed
 * setup step is "STEP: ENAME" (exit 3); bad usage exits 2.
 *
 *   sysop socket FAMILY TYPE     socket(2): FAMILY inet, inet6, unix, packet,
 *                                netlink, vsock; TYPE stream, dgram, raw
 *   sysop socketpair FAMILY [TYPE]
 *                                socketpair(2), TYPE stream (the default), dgram,
 *                                raw or seqpacket
 *   sysop socket32 FAMILY        socket(FAMILY, SOCK_STREAM, 0) through the i386
 *                                ABI (int 0x80, x86_64 only): its socket call
 *   sysop socketcall FAMILY      the same through i386's socketcall(SYS_SOCKET)
 *   sysop ping                   an ICMP echo socket (SOCK_DGRAM, IPPROTO_ICMP)
 *                                sending one echo request to 127.0.0.1
 *   sysop clone ABI FLAGS        clone(FLAGS | SIGCHLD) in ABI native, i386 (int
 *                                0x80 from this process) or x32; FLAGS in hex,
 *                                0x10000000 is CLONE_NEWUSER; the child exits 0
 *   sysop unshare ABI FLAGS      unshare(FLAGS) in ABI, in a child
 *   sysop clone3 FLAGS           clone3 with FLAGS and SIGCHLD
 *   sysop io_uring-setup         io_uring_setup(4, params), the ring closed
 *   sysop io_uring-write FILE TEXT
 *                                write TEXT to FILE with io_uring (an
 *                                IORING_OP_WRITEV); prints "io_uring"
 *   sysop uring-or-write FILE TEXT
 *                                the same, and where io_uring_setup fails,
 *                                write(2) as libuv does: "fallback: ENAME"
 *   sysop keyctl                 keyctl(KEYCTL_GET_KEYRING_ID, session, 0)
 *   sysop bpf                    bpf(BPF_MAP_CREATE) of a one-entry array
 *   sysop perf                   perf_event_open of a task clock, user only
 *   sysop userfaultfd            userfaultfd(UFFD_USER_MODE_ONLY)
 *   sysop uffd-dev ABI           open /dev/userfaultfd and ioctl(USERFAULTFD_IOC_NEW)
 *                                in ABI native, i386 or x32 (the open is a setup step)
 *   sysop create FILE MODE       open(FILE, O_CREAT | O_EXCL, MODE), MODE octal
 *   sysop fchmodat2 FILE MODE    fchmodat2(AT_FDCWD, FILE, MODE, 0) by number
 *   sysop setxattr FILE          setxattr(FILE, user.sysop, "v")
 *   sysop setxattrat FILE        setxattrat(AT_FDCWD, FILE, 0, user.sysop)
 *   sysop removexattrat FILE     removexattrat(AT_FDCWD, FILE, 0, user.sysop)
 *   sysop mapstore HOW FILE      FILE opened for writing (a setup step), mapped
 *                                MAP_SHARED by HOW, "owned!" stored at its start:
 *                                HOW native, validate (MAP_SHARED_VALIDATE),
 *                                upgrade (mapped read-only, then mprotect),
 *                                x32, i386 (mmap2) or i386-old (i386's mmap,
 *                                its arguments in memory)
 *   sysop regs                   socket(AF_INET, SOCK_STREAM, 0) by hand, every other
 *                                register the kernel must keep loaded with a pattern:
 *                                its outcome, each register after it ("NAME=HEX"), and
 *                                "registers kept" or "registers changed: NAME..." (exit 4)
 *
 * No liburing: the rings are mapped by hand, as the kernel's io_uring.h
 * lays them out. Built static with the launcher's compiler (make
 * test-helpers), so the kernel-matrix guest runs it too.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errnames.h"

#define NR_io_uring_setup 425
#define NR_io_uring_enter 426
#define NR_clone3	  435
#define NR_fchmodat2	  452
#define NR_setxattrat	  463
#define NR_removexattrat  466
#define X32_SYSCALL_BIT	  0x40000000L
#define I386_CLONE	  120
#define I386_UNSHARE	  310
#define I386_SOCKET	  359
#define I386_SOCKETCALL	  102
#define I386_IOCTL	  54
#define X32_IOCTL	  514
#define UFFD_IOC_NEW	  0xaa00L /* USERFAULTFD_IOC_NEW */
#define X32_MMAP	  9
#define I386_OLD_MMAP	  90
#define I386_MMAP2	  192

/* The io_uring UAPI (linux/io_uring.h, Linux 5.1), the parts used here. */
struct sqring_offsets {
	uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	uint64_t resv2;
};
struct cqring_offsets {
	uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	uint64_t resv2;
};
struct uring_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd,
		resv[3];
	struct sqring_offsets sq_off;
	struct cqring_offsets cq_off;
};
struct uring_sqe {
	uint8_t opcode, flags;
	uint16_t ioprio;
	int32_t fd;
	uint64_t off, addr;
	uint32_t len, rw_flags;
	uint64_t user_data, pad[3];
};
struct uring_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};
#define IORING_OP_WRITEV       2
#define IORING_OFF_SQ_RING     0ULL
#define IORING_OFF_CQ_RING     0x8000000ULL
#define IORING_OFF_SQES	       0x10000000ULL
#define IORING_ENTER_GETEVENTS 1U

static int outcome(long ret)
{
	if (ret >= 0) {
		puts("ok");
		return 0;
	}
	return put_errno(errno);
}

static void setup_failed(const char *step)
{
	printf("%s: ", step);
	put_errno(errno);
	exit(3);
}

__attribute__((noreturn)) static void usage(void)
{
	fprintf(stderr, "sysop: bad usage (see tests/sysop.c)\n");
	exit(2);
}

static unsigned long number(const char *s, int base)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, base);
	if (!*s || *end || errno)
		usage();
	return n;
}

static int lookup(const char *s, const char *const *names, const int *values)
{
	int i;

	for (i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0)
			return values[i];
	usage();
}

static int family(const char *s)
{
	static const char *const names[] = {"inet",    "inet6", "unix", "packet",
					    "netlink", "vsock", NULL};
	static const int values[] = {AF_INET, AF_INET6, AF_UNIX, AF_PACKET, AF_NETLINK, 40};

	return lookup(s, names, values);
}

static int sock_type(const char *s)
{
	static const char *const names[] = {"stream", "dgram", "raw", "seqpacket", NULL};
	static const int values[] = {SOCK_STREAM, SOCK_DGRAM, SOCK_RAW, SOCK_SEQPACKET};

	return lookup(s, names, values);
}

static int ping(void)
{
	struct sockaddr_in to = {.sin_family = AF_INET};
	struct icmphdr echo = {.type = ICMP_ECHO};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);

	if (fd < 0)
		return put_errno(errno);
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return outcome(sendto(fd, &echo, sizeof echo, 0, (struct sockaddr *)&to, sizeof to));
}

/* A system call through int 0x80 (i386), or with bit 30 (x32), or native. */
static long call3(const char *abi, long native, long i386, long a, long b, long c)
{
	if (strcmp(abi, "native") == 0)
		return syscall(native, a, b, c, 0L, 0L);
#if defined(__x86_64__)
	if (strcmp(abi, "x32") == 0)
		return syscall(X32_SYSCALL_BIT | native, a, b, c, 0L, 0L);
	if (strcmp(abi, "i386") == 0) {
		long ret;

		__asm__ volatile("int $0x80"
				 : "=a"(ret)
				 : "a"(i386), "b"(a), "c"(b), "d"(c), "S"(0), "D"(0)
				 : "memory");
		if (ret < 0 && ret > -4096) {
			errno = (int)-ret;
			return -1;
		}
		return ret;
	}
#else
	(void)i386;
#endif
	fprintf(stderr, "sysop: no ABI %s here\n", abi);
	exit(2);
}

static long call_in(const char *abi, long native, long i386, long a)
{
	return call3(abi, native, i386, a, 0, 0);
}

/* The arguments socketcall reads, where a 32-bit pointer reaches them (a
 * static non-PIE binary's data is below 4 GiB). */
static uint32_t socketcall_args[3];

static int socket32(int fam, int via_socketcall)
{
	long fd;

	socketcall_args[0] = (uint32_t)fam;
	socketcall_args[1] = SOCK_STREAM;
	if (via_socketcall)
		fd = call3("i386", -1, I386_SOCKETCALL, 1, (long)(uintptr_t)socketcall_args, 0);
	else
		fd = call3("i386", -1, I386_SOCKET, fam, SOCK_STREAM, 0);
	return outcome(fd);
}

/* The parent's outcome of a child that reports its errno as exit status. */
static int waited(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		setup_failed("waitpid");
	if (!WIFEXITED(status))
		setup_failed("the child was killed");
	if (WEXITSTATUS(status))
		return put_errno(WEXITSTATUS(status));
	puts("ok");
	return 0;
}

/* The child of a clone (no new stack: as fork) leaves at once. */
static int do_clone(const char *abi, unsigned long flags)
{
	long pid = call_in(abi, SYS_clone, I386_CLONE, (long)(flags | SIGCHLD));

	if (pid == 0)
		syscall(SYS_exit, 0); /* also after int 0x80: this is 64-bit code */
	if (pid < 0)
		return put_errno(errno);
	return waited((pid_t)pid);
}

static int do_unshare(const char *abi, unsigned long flags)
{
	pid_t pid = fork();

	if (pid < 0)
		setup_failed("fork");
	if (pid == 0)
		_exit(call_in(abi, SYS_unshare, I386_UNSHARE, (long)flags) ? errno : 0);
	return waited(pid);
}

static int do_clone3(unsigned long flags)
{
	uint64_t args[8] = {flags, 0, 0, 0, SIGCHLD}; /* struct clone_args, VER0 */
	long pid = syscall(NR_clone3, args, sizeof args);

	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return put_errno(errno);
	return waited((pid_t)pid);
}

static void *ring_map(int fd, size_t size, uint64_t off)
{
	void *p =
		mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, (off_t)off);

	if (p == MAP_FAILED)
		setup_failed("mmap the ring");
	return p;
}

/* One IORING_OP_WRITEV of TEXT to FD, and its completion. */
static int uring_write(int ring, const struct uring_params *p, int fd, const char *text)
{
	char *sq = ring_map(ring, p->sq_off.array + p->sq_entries * 4, IORING_OFF_SQ_RING);
	char *cq = ring_map(ring, p->cq_off.cqes + p->cq_entries * sizeof(struct uring_cqe),
			    IORING_OFF_CQ_RING);
	struct uring_sqe *sqes =
		ring_map(ring, p->sq_entries * sizeof(struct uring_sqe), IORING_OFF_SQES);
	struct iovec iov = {(void *)text, strlen(text)};
	uint32_t *tail = (uint32_t *)(sq + p->sq_off.tail);
	uint32_t i = *tail & *(uint32_t *)(sq + p->sq_off.ring_mask);
	struct uring_cqe *cqe;

	memset(&sqes[i], 0, sizeof sqes[i]);
	sqes[i].opcode = IORING_OP_WRITEV;
	sqes[i].fd = fd;
	sqes[i].addr = (uint64_t)(uintptr_t)&iov;
	sqes[i].len = 1;
	((uint32_t *)(sq + p->sq_off.array))[i] = i;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	if (syscall(NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		setup_failed("io_uring_enter");
	cqe = (struct uring_cqe *)(cq + p->cq_off.cqes) +
	      (*(uint32_t *)(cq + p->cq_off.head) & *(uint32_t *)(cq + p->cq_off.ring_mask));
	if (cqe->res < 0) {
		errno = -cqe->res;
		setup_failed("the write");
	}
	return 0;
}

static int uring(const char *file, const char *text, int fallback)
{
	struct uring_params p;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), ring;

	if (fd < 0)
		setup_failed("open");
	memset(&p, 0, sizeof p);
	ring = (int)syscall(NR_io_uring_setup, 4, &p);
	if (ring >= 0) {
		uring_write(ring, &p, fd, text);
		puts("io_uring");
		return 0;
	}
	if (!fallback)
		return put_errno(errno);
	printf("fallback: ");
	put_errno(errno);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		setup_failed("write");
	return 0;
}

static int uring_setup(void)
{
	struct uring_params p;
	long ring;

	memset(&p, 0, sizeof p);
	ring = syscall(NR_io_uring_setup, 4, &p);
	if (ring >= 0)
		close((int)ring);
	return outcome(ring);
}

static int bpf_map(void)
{
	uint32_t attr[30] = {2, 4, 4, 1}; /* BPF_MAP_TYPE_ARRAY, key, value, entries */
	long fd = syscall(SYS_bpf, 0, attr, sizeof attr); /* BPF_MAP_CREATE */

	if (fd >= 0)
		close((int)fd);
	return outcome(fd);
}

static int perf(void)
{
	/* struct perf_event_attr, VER0 (64 bytes): software, task clock,
	 * exclude_kernel and exclude_hv (user space only, as paranoid 2 allows) */
	uint32_t attr[16] = {1, 64, 1, 0};
	long fd;

	attr[10] = 1U << 5 | 1U << 6;
	fd = syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
	if (fd >= 0)
		close((int)fd);
	return outcome(fd);
}

static int keyring(void)
{
	return outcome(syscall(SYS_keyctl, 0, -3, 0)); /* GET_KEYRING_ID, session */
}

static int uffd(void)
{
	long fd = syscall(SYS_userfaultfd, O_CLOEXEC | 1); /* UFFD_USER_MODE_ONLY */

	if (fd >= 0)
		close((int)fd);
	return outcome(fd);
}

/* The device's ioctl, which makes the descriptor userfaultfd(2) makes;
 * x32 has an ioctl number of its own. */
static int uffd_dev(const char *abi)
{
	int dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	long fd;

	if (dev < 0)
		setup_failed("open /dev/userfaultfd");
#if defined(__x86_64__)
	if (strcmp(abi, "x32") == 0)
		fd = syscall(X32_SYSCALL_BIT | X32_IOCTL, dev, UFFD_IOC_NEW, (long)O_CLOEXEC);
	else
#endif
		fd = call3(abi, SYS_ioctl, I386_IOCTL, dev, UFFD_IOC_NEW, O_CLOEXEC);
	if (fd >= 0)
		close((int)fd);
	return outcome(fd);
}

#if defined(__x86_64__)
/* i386's mmap2 takes six arguments, the last in ebp: saved around the call,
 * below the red zone. */
static long mmap2_i386(long len, long prot, long flags, long fd)
{
	long ret;

	__asm__ volatile("sub $128, %%rsp\n\tpush %%rbp\n\txor %%ebp, %%ebp\n\t"
			 "int $0x80\n\tpop %%rbp\n\tadd $128, %%rsp"
			 : "=a"(ret)
			 : "a"(I386_MMAP2), "b"(0L), "c"(len), "d"(prot), "S"(flags), "D"(fd)
			 : "memory", "cc");
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/* i386's mmap (old_mmap) reads its arguments from here, below 4 GiB in a
 * static non-PIE binary. */
static uint32_t old_mmap_args[6];
#endif

/* A shared mapping of FILE by HOW, and a store through it. */
static int mapstore(const char *how, const char *file)
{
	const long len = 4096, rw = PROT_READ | PROT_WRITE;
	int fd = open(file, O_RDWR | O_CLOEXEC);
	long at = -1;

	if (fd < 0)
		setup_failed("open");
	if (strcmp(how, "native") == 0)
		at = (long)mmap(NULL, len, rw, MAP_SHARED, fd, 0);
	else if (strcmp(how, "validate") == 0)
		at = (long)mmap(NULL, len, rw, MAP_SHARED_VALIDATE, fd, 0);
	else if (strcmp(how, "upgrade") == 0) {
		at = (long)mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (at != -1 && mprotect((void *)at, len, rw))
			at = -1;
	}
#if defined(__x86_64__)
	else if (strcmp(how, "x32") == 0)
		at = syscall(X32_SYSCALL_BIT | X32_MMAP, 0L, len, rw, (long)MAP_SHARED, fd, 0L);
	else if (strcmp(how, "i386") == 0)
		at = mmap2_i386(len, rw, MAP_SHARED, fd);
	else if (strcmp(how, "i386-old") == 0) {
		uint32_t args[6] = {0, (uint32_t)len, (uint32_t)rw, MAP_SHARED, (uint32_t)fd, 0};

		memcpy(old_mmap_args, args, sizeof args);
		at = call3("i386", -1, I386_OLD_MMAP, (long)(uintptr_t)old_mmap_args, 0, 0);
	}
#endif
	else
		usage();
	if (at == -1)
		return put_errno(errno);
	memcpy((void *)(uintptr_t)at, "owned!", 6);
	return outcome(msync((void *)(uintptr_t)at, len, MS_SYNC));
}

/*
 * regs_socket(IN, OUT): every register the system-call ABI preserves
 * loaded from IN (the first three are socket's arguments), the call made,
 * and each register as the call left it stored in OUT (then the return
 * value). Only the kernel runs in between: what changed, the kernel or a
 * tracer changed.
 */
#if defined(__x86_64__)
/* rax is the number and the result; rcx and r11 the syscall instruction's own */
static const char *const reg_names[] = {"rdi", "rsi", "rdx", "r10", "r8",  "r9",
					"rbx", "rbp", "r12", "r13", "r14", "r15"};
#define NR_SOCKET  "41"
#define FIRST_KEPT 0
__asm__(".text\n"
	".type regs_socket, @function\n"
	"regs_socket:\n"
	"	push %rbx\n	push %rbp\n	push %r12\n	push %r13\n	push %r14\n	"
	"push %r15\n"
	"	push %rsi\n"
	"	mov %rdi, %rax\n"
	"	mov 8(%rax), %rsi\n	mov 16(%rax), %rdx\n	mov 24(%rax), %r10\n"
	"	mov 32(%rax), %r8\n	mov 40(%rax), %r9\n	mov 48(%rax), %rbx\n"
	"	mov 56(%rax), %rbp\n	mov 64(%rax), %r12\n	mov 72(%rax), %r13\n"
	"	mov 80(%rax), %r14\n	mov 88(%rax), %r15\n	mov 0(%rax), %rdi\n"
	"	mov $" NR_SOCKET ", %eax\n"
	"	syscall\n"
	"	mov (%rsp), %rcx\n"
	"	mov %rdi, 0(%rcx)\n	mov %rsi, 8(%rcx)\n	mov %rdx, 16(%rcx)\n"
	"	mov %r10, 24(%rcx)\n	mov %r8, 32(%rcx)\n	mov %r9, 40(%rcx)\n"
	"	mov %rbx, 48(%rcx)\n	mov %rbp, 56(%rcx)\n	mov %r12, 64(%rcx)\n"
	"	mov %r13, 72(%rcx)\n	mov %r14, 80(%rcx)\n	mov %r15, 88(%rcx)\n"
	"	mov %rax, 96(%rcx)\n"
	"	pop %rcx\n"
	"	pop %r15\n	pop %r14\n	pop %r13\n	pop %r12\n	pop %rbp\n	"
	"pop %rbx\n"
	"	ret\n");
#elif defined(__aarch64__)
/* x0 is the first argument and the result, x8 the number */
#define FIRST_KEPT 1
static const char *const reg_names[] = {"x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",	 "x7",
					"x9",  "x10", "x11", "x12", "x13", "x14", "x15", "x16",
					"x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24",
					"x25", "x26", "x27", "x28", "x29", "x30"};
__asm__(".text\n"
	".type regs_socket, %function\n"
	"regs_socket:\n"
	"	sub sp, sp, #368\n"
	"	stp x29, x30, [sp, #0]\n	stp x19, x20, [sp, #16]\n	stp x21, x22, [sp, "
	"#32]\n"
	"	stp x23, x24, [sp, #48]\n	stp x25, x26, [sp, #64]\n	stp x27, x28, [sp, "
	"#80]\n"
	"	str x1, [sp, #96]\n"
	"	mov x8, x0\n"
	"	ldp x0, x1, [x8, #0]\n	ldp x2, x3, [x8, #16]\n	ldp x4, x5, [x8, #32]\n"
	"	ldp x6, x7, [x8, #48]\n	ldp x9, x10, [x8, #64]\n	ldp x11, x12, [x8, #80]\n"
	"	ldp x13, x14, [x8, #96]\n	ldp x15, x16, [x8, #112]\n	ldp x17, x18, [x8, "
	"#128]\n"
	"	ldp x19, x20, [x8, #144]\n	ldp x21, x22, [x8, #160]\n	ldp x23, x24, [x8, "
	"#176]\n"
	"	ldp x25, x26, [x8, #192]\n	ldp x27, x28, [x8, #208]\n	ldp x29, x30, [x8, "
	"#224]\n"
	"	mov x8, #198\n" /* socket */
	"	svc #0\n"
	"	stp x0, x1, [sp, #112]\n	stp x2, x3, [sp, #128]\n	stp x4, x5, [sp, "
	"#144]\n"
	"	stp x6, x7, [sp, #160]\n	stp x9, x10, [sp, #176]\n	stp x11, x12, [sp, "
	"#192]\n"
	"	stp x13, x14, [sp, #208]\n	stp x15, x16, [sp, #224]\n	stp x17, x18, [sp, "
	"#240]\n"
	"	stp x19, x20, [sp, #256]\n	stp x21, x22, [sp, #272]\n	stp x23, x24, [sp, "
	"#288]\n"
	"	stp x25, x26, [sp, #304]\n	stp x27, x28, [sp, #320]\n	stp x29, x30, [sp, "
	"#336]\n"
	"	str x0, [sp, #352]\n" /* the result, after the registers as on x86_64 */
	"	ldr x9, [sp, #96]\n	add x10, sp, #112\n	mov x11, #31\n"
	"1:	ldr x12, [x10], #8\n	str x12, [x9], #8\n	subs x11, x11, #1\n	b.ne 1b\n"
	"	ldp x19, x20, [sp, #16]\n	ldp x21, x22, [sp, #32]\n	ldp x23, x24, [sp, "
	"#48]\n"
	"	ldp x25, x26, [sp, #64]\n	ldp x27, x28, [sp, #80]\n	ldp x29, x30, [sp, "
	"#0]\n"
	"	add sp, sp, #368\n"
	"	ret\n");
#endif
#define NREGS (sizeof reg_names / sizeof reg_names[0])
void regs_socket(const uint64_t *in, uint64_t *out);

/* The patterns: socket's own arguments first; then 0x11223344556677NN. */
static int regs(void)
{
	uint64_t in[NREGS], out[NREGS + 1];
	int changed = 0;
	size_t i;

	for (i = 0; i < NREGS; i++)
		in[i] = 0x1122334455667700ULL + i;
	in[0] = AF_INET;
	in[1] = SOCK_STREAM;
	in[2] = 0;
	regs_socket(in, out);
	if ((int64_t)out[NREGS] >= 0) {
		close((int)out[NREGS]);
		puts("ok");
	} else {
		put_errno((int)-(int64_t)out[NREGS]);
	}
	for (i = 0; i < NREGS; i++)
		printf("%s=%#llx\n", reg_names[i], (unsigned long long)out[i]);
	for (i = FIRST_KEPT; i < NREGS; i++)
		if (out[i] != in[i])
			printf("%s %s", changed++ ? "" : "registers changed:", reg_names[i]);
	puts(changed ? "" : "registers kept");
	return changed ? 4 : 0;
}

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	int fds[2];

	if (argc == 4 && strcmp(op, "socket") == 0)
		return outcome(socket(family(argv[2]), sock_type(argv[3]), 0));
	if ((argc == 3 || argc == 4) && strcmp(op, "socketpair") == 0)
		return outcome(socketpair(
			family(argv[2]),
			(argc == 4 ? sock_type(argv[3]) : SOCK_STREAM) | SOCK_CLOEXEC, 0, fds));
	if (argc == 3 && strcmp(op, "socket32") == 0)
		return socket32(family(argv[2]), 0);
	if (argc == 3 && strcmp(op, "socketcall") == 0)
		return socket32(family(argv[2]), 1);
	if (argc == 2 && strcmp(op, "ping") == 0)
		return ping();
	if (argc == 4 && strcmp(op, "clone") == 0)
		return do_clone(argv[2], number(argv[3], 16));
	if (argc == 4 && strcmp(op, "unshare") == 0)
		return do_unshare(argv[2], number(argv[3], 16));
	if (argc == 3 && strcmp(op, "clone3") == 0)
		return do_clone3(number(argv[2], 16));
	if (argc == 2 && strcmp(op, "io_uring-setup") == 0)
		return uring_setup();
	if (argc == 4 && strcmp(op, "io_uring-write") == 0)
		return uring(argv[2], argv[3], 0);
	if (argc == 4 && strcmp(op, "uring-or-write") == 0)
		return uring(argv[2], argv[3], 1);
	if (argc == 2 && strcmp(op, "keyctl") == 0)
		return keyring();
	if (argc == 2 && strcmp(op, "bpf") == 0)
		return bpf_map();
	if (argc == 2 && strcmp(op, "perf") == 0)
		return perf();
	if (argc == 2 && strcmp(op, "userfaultfd") == 0)
		return uffd();
	if (argc == 3 && strcmp(op, "uffd-dev") == 0)
		return uffd_dev(argv[2]);
	if (argc == 4 && strcmp(op, "create") == 0)
		return outcome(open(argv[2], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				    (mode_t)number(argv[3], 8)));
	if (argc == 4 && strcmp(op, "fchmodat2") == 0)
		return outcome(syscall(NR_fchmodat2, AT_FDCWD, argv[2], number(argv[3], 8), 0));
	if (argc == 3 && strcmp(op, "setxattr") == 0)
		return outcome(syscall(SYS_setxattr, argv[2], "user.sysop", "v", 1, 0));
	if (argc == 3 && strcmp(op, "setxattrat") == 0) {
		struct {
			uint64_t value;
			uint32_t size, flags;
		} args = {(uint64_t)(uintptr_t) "v", 1, 0};

		return outcome(syscall(NR_setxattrat, AT_FDCWD, argv[2], 0, "user.sysop", &args,
				       sizeof args));
	}
	if (argc == 2 && strcmp(op, "regs") == 0)
		return regs();
	if (argc == 4 && strcmp(op, "mapstore") == 0)
		return mapstore(argv[2], argv[3]);
	if (argc == 3 && strcmp(op, "removexattrat") == 0)
		return outcome(syscall(NR_removexattrat, AT_FDCWD, argv[2], 0, "user.sysop"));
	usage();
}
