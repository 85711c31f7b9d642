/*
 * libFuzzer harness for the tracer's decoders: forged stops, as a hostile
 * command makes them, fed through every decoder (calls.c, tracee.c), the
 * denial judgement (explain.c, perm.c) and the --learn folding (learn.c),
 * under ASan and UBSan. The "tracee" is this process: the forged registers
 * point into memory the input fills (ending at an unmapped page, so a read
 * that runs past the input faults there) or anywhere at all, and name this
 * process's descriptors; paths are resolved through /proc/PID as for any
 * tracee. Every decoder reads only, and writes only to /dev/null here.
 *
 * Input: byte 0 picks the mode (bit 0: --learn, else --explain), the ABI
 * (bits 1-4: 1 + n % 10), whether reads are confined (bit 5) and how many
 * forged calls follow (bits 6-7: 1 to 4), 14 bytes each (the row, which
 * may be past the table; the return value; six argument kinds; six value
 * bytes); the rest is the tracee's memory (a call count from the byte, not
 * from the length, so a mutation that grows the memory keeps the calls). The
 * first forged call also becomes a ptrace stop report for trusted_stop(),
 * whose verdict is checked against what the kernel's facts say. A finding:
 * a sanitizer report, a launcher failure (an exit from a decoder), or a
 * stop trusted against the facts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/ptrace.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../grants.h"
#include "../../trace/tracer.h"
#include "hooks.h"

#include "unhook.h"

#define CALL_BYTES 14
#define MEMORY	   8192 /* the forged memory, followed by an unmapped page */

static char *memory; /* MEMORY bytes, then PROT_NONE */
static FILE *report; /* the real stderr: -close_fd_mask=2 silences fd 2 */
static int sockets[2], null_fd = -1;

/* Every mapping the tracer makes during one input, unmapped after it. */
static struct {
	void *at;
	size_t len;
} maps[4096];
static size_t nmaps;

__attribute__((noreturn)) static void finding(const char *what)
{
	fprintf(report, "fuzz_trace: %s\n", what);
	fflush(report);
	abort();
}

/* ---- the hooks (hooks.h): no decoder may exit, fork or act ---------------- */

void lr_fuzz_exit(int status)
{
	(void)status;
	finding("a decoder ended the tracer (a launcher failure)");
}

void lr_fuzz__exit(int status)
{
	lr_fuzz_exit(status);
}

int lr_fuzz_execvp(const char *file, char *const argv[])
{
	(void)file, (void)argv;
	finding("exec from the tracer");
}

/* The calls the tracer's code may make of its own, with how many arguments
 * each takes (only those are read): random names, a mode, its capability
 * sets (explain_start asks whether it may trace root's command), and a
 * file's attributes (calls.c asks whether a refused change of owner, mode
 * or times was an immutable file's). */
static const struct {
	long nr;
	int args;
} own_calls[] = {
	{SYS_getrandom, 3},
	{SYS_fchmod, 2},
	{SYS_capget, 2},
	{SYS_statx, 5},
};

long lr_fuzz_syscall(long nr, ...)
{
	long a[5] = {0, 0, 0, 0, 0};
	size_t c;
	int i;
	va_list ap;

	for (c = 0; c < sizeof own_calls / sizeof own_calls[0] && own_calls[c].nr != nr; c++)
		;
	if (c == sizeof own_calls / sizeof own_calls[0]) {
		fprintf(report, "fuzz_trace: syscall %ld from a decoder\n", nr);
		fflush(report);
		abort();
	}
	va_start(ap, nr);
	for (i = 0; i < own_calls[c].args; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return syscall(nr, a[0], a[1], a[2], a[3], a[4]);
}

int lr_fuzz_prctl(int option, ...)
{
	(void)option;
	finding("prctl from a decoder");
}

pid_t lr_fuzz_fork(void)
{
	finding("fork from a decoder");
}

pid_t lr_fuzz_setsid(void)
{
	finding("setsid from a decoder");
}

unsigned long lr_fuzz_getauxval(unsigned long type)
{
	return getauxval(type);
}

void *lr_fuzz_calloc(size_t n, size_t size)
{
	(void)n, (void)size;
	finding("calloc: the tracer allocates with mapped() only");
}

void *lr_fuzz_malloc(size_t size)
{
	(void)size;
	finding("malloc: the tracer allocates with mapped() only");
}

void *lr_fuzz_realloc(void *ptr, size_t size)
{
	(void)ptr, (void)size;
	finding("realloc: the tracer allocates with mapped() only");
}

void lr_fuzz_free(void *ptr)
{
	(void)ptr;
	finding("free: the tracer allocates with mapped() only");
}

void *lr_fuzz_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = mmap(addr, len, prot, flags, fd, off);

	if (p != MAP_FAILED && nmaps < sizeof maps / sizeof maps[0]) {
		maps[nmaps].at = p;
		maps[nmaps++].len = len;
	}
	return p;
}

int lr_fuzz_munmap(void *addr, size_t len)
{
	size_t i;

	for (i = 0; i < nmaps; i++)
		if (maps[i].at == addr) {
			maps[i] = maps[--nmaps];
			break;
		}
	return munmap(addr, len);
}

void *lr_fuzz_mremap(void *old, size_t old_len, size_t len, int flags, ...)
{
	(void)old, (void)old_len, (void)len, (void)flags;
	finding("mremap from the tracer");
}

static void unmap_all(void)
{
	while (nmaps > 0) {
		nmaps--;
		munmap(maps[nmaps].at, maps[nmaps].len);
	}
}

/* ---- the forged stops ------------------------------------------------------ */

/* An argument as a hostile command would set it. */
static uint64_t argument(uint8_t kind, uint8_t value, size_t size)
{
	static const uint64_t lengths[] = {0,	1,   2,	  16,	108,  109,  110,       111,
					   127, 128, 129, 4095, 4096, 4097, 1UL << 31, ~0ULL};
	static const long fds[] = {AT_FDCWD, 0, 1, 2, -1, 1 << 30};

	switch (kind % 8) {
	case 0: return value;
	case 1: return (uint64_t)(uintptr_t)(memory + MEMORY - (size ? value % size + 1 : 1));
	case 2: return (uint64_t)(uintptr_t)(memory + MEMORY - value % 16); /* at the guard page */
	case 3: return value & 1 ? 0 : (uint64_t)(uintptr_t)memory + MEMORY + value; /* unmapped */
	case 4: /* a descriptor, or a pid in the traced tree (this process) or out of it */
		if (value & 0x80)
			return (uint64_t)(long)(value & 1 ? getpid() : getppid());
		return (uint64_t)(long)fds[value % (sizeof fds / sizeof fds[0])];
	case 5: return lengths[value % (sizeof lengths / sizeof lengths[0])];
	case 6: return (uint64_t)sockets[value & 1];
	default: return (uint64_t)value << 56 | value; /* high bits the kernel may ignore */
	}
}

static const long returns[] = {-EACCES, -EPERM, -EXDEV, 0, -ENOENT, -EINVAL, 3};

static void forge(struct call_result *r, uint64_t *args, const uint8_t *c, size_t size)
{
	int i;

	memset(r, 0, sizeof *r);
	r->tid = r->entered = getpid();
	r->call = c[0] % NCALLS;
	r->ret = returns[c[1] % (sizeof returns / sizeof returns[0])];
	for (i = 0; i < 6; i++)
		args[i] = argument(c[2 + i], c[8 + i], size);
	r->args = args;
}

/* trusted_stop may say yes only when the kernel's facts name the row's call. */
static void check_stop(const uint8_t *c)
{
	struct ptrace_syscall_info info;
	uint32_t row = c[0] | (uint32_t)c[1] << 8;
	int trusted;

	memset(&info, 0, sizeof info);
	info.op = c[2] & 1 ? PTRACE_SYSCALL_INFO_SECCOMP : c[2] % 4;
	info.arch = c[3] & 1 ? NATIVE_ARCH : (uint32_t)c[3] << 24;
	info.seccomp.nr = row < NCALLS && c[4] & 1 ? (uint64_t)call_nr[row] : c[5];
	info.seccomp.ret_data = c[6] & 1 ? row : (uint32_t)c[7] << 16 | row;
	trusted = trusted_stop((const void *)&info);
	if (trusted && (info.op != PTRACE_SYSCALL_INFO_SECCOMP || info.arch != NATIVE_ARCH ||
			info.seccomp.ret_data >= NCALLS || call_nr[info.seccomp.ret_data] < 0 ||
			info.seccomp.nr != (uint64_t)call_nr[info.seccomp.ret_data]))
		finding("trusted_stop trusted a stop the kernel's facts do not back");
}

/* A policy this ABI can enforce: what it lacks is not asked for by name. */
static void policy_for(struct policy *p, uint8_t mode, struct grant *grants)
{
	static uint64_t bits[NET_KINDS][65536 / 64];
	int i, abi = 1 + (mode >> 1 & 15) % 10;

	memset(p, 0, sizeof *p);
	memset(bits, 0, sizeof bits);
	for (i = 0; i < NET_KINDS; i++)
		p->asked.net[i].bits = bits[i];
	p->asked.grants = grants;
	grants[0] = (struct grant){"--rw", "/dev/null", GRANT_RW, 0};
	grants[1] = (struct grant){"--ro", "/usr", GRANT_RO, 0};
	p->asked.ngrants = mode & 32 ? 2 : 1;
	p->asked.reads_confined = (mode & 32) != 0;
	if (abi >= 6)
		p->asked.scopes = LANDLOCK_SCOPE_SIGNAL | LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
	if (abi >= 4)
		add_ports(&p->asked.net[NET_TCP_CONNECT], "--tcp-connect", "443", "");
	if (abi >= 10) {
		add_ports(&p->asked.net[NET_UDP_CONNECT], "--udp-connect", "53", "");
		add_ports(&p->asked.net[NET_UDP_BIND], "--udp-bind", "none", "");
	}
	p->asked.explain = 1;
	p->asked.explain_json = p->asked.learn = NULL;
	if (mode & 1)
		p->asked.learn = "policy";
	else
		p->asked.explain_json = "report";
	p->asked.learn_report.fd = p->asked.json_report.fd = null_fd;
	p->asked.learn_report.path = p->asked.json_report.path = "/dev/null";
	p->asked.learn_report.option = "--learn";
	p->asked.json_report.option = "--explain-json";
	plan_policy(p, abi);
}

/* libFuzzer calls this before it acts on -close_fd_mask. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);

	(void)argc, (void)argv;
	report = fd < 0 ? stderr : fdopen(fd, "w");
	if (!report)
		abort();
	memory = mmap(NULL, MEMORY + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		      0);
	if (memory == MAP_FAILED || mprotect(memory + MEMORY, 4096, PROT_NONE))
		abort();
	sockets[0] = socket(AF_INET, SOCK_DGRAM, 0);
	sockets[1] = socket(AF_INET6, SOCK_STREAM, 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *command[] = {"make", NULL};
	struct grant grants[2];
	struct call_result r;
	struct policy p;
	uint64_t args[6];
	size_t calls, i, blob;
	void *consumer;
	/* The traced tree, as the tracer keeps it: this process alone (a
	 * forged signal to it stays in the tree, to its parent goes out). */
	struct table tracees = {.size = sizeof(struct tracee)};

	calls = 1 + (data[0] >> 6);
	if (size < 1 + calls * CALL_BYTES)
		return 0;
	blob = size - 1 - calls * CALL_BYTES;
	memset(memory, 0, MEMORY);
	memcpy(memory + MEMORY - blob, data + 1 + calls * CALL_BYTES, blob);
	check_stop(data + 1);
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	policy_for(&p, data[0], grants);
	p.asked.command = command;
	if (!table_put(&tracees, (uint64_t)getpid()))
		abort();
	if (p.asked.learn) {
		consumer = learn_start(&p, &tracees);
		learn_open(consumer);
	} else {
		consumer = explain_start(&p, &tracees);
		explain_open(consumer);
	}
	for (i = 0; i < calls; i++) {
		forge(&r, args, data + 1 + i * CALL_BYTES, blob);
		if (!p.asked.learn) {
			explain_call(consumer, &r);
			continue;
		}
		learn_entry(consumer, &r);
		r.learning = 1;
		learn_call(consumer, &r);
	}
	if (p.asked.learn)
		learn_finish(consumer, 0);
	else
		explain_finish(consumer);
	unmap_all();
	return 0;
}
