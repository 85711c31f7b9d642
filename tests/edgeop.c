/*
 * edgeop: the operations of tests/audit's edge cases that no ordinary program
 * makes on demand: an O_TMPFILE open, a file made through io_uring, a thread
 * pool, a process that made itself non-dumpable. Prints "ok" (exit 0) or the
 * errno's name, as tests/tryop.c does; a failed setup step is "STEP: ENAME".
 *
 *   edgeop create PATH          open(PATH, O_CREAT|O_WRONLY)
 *   edgeop read PATH            open(PATH, O_RDONLY)
 *   edgeop bind PATH            bind a unix stream socket to PATH (it makes the socket file)
 *   edgeop tmpfile DIR          open(DIR, O_TMPFILE|O_WRONLY): an unnamed file in DIR
 *   edgeop tmplink DIR PATH     the same, then linkat it to PATH through /proc/self/fd
 *   edgeop uring-create PATH    io_uring_setup, then IORING_OP_OPENAT(O_CREAT|O_WRONLY)
 *                               of PATH: no openat system call is made for it
 *   edgeop threads N DIR        N threads (1..16) create DIR/tI at once, one result a
 *                               line: "tI ok" or "tI ENAME"
 *   edgeop i386-create PATH     the same as create through the i386 ABI (int 0x80), on
 *                               x86_64 only (elsewhere: "unsupported", exit 2)
 *   edgeop nodump OP ARG...     prctl(PR_SET_DUMPABLE, 0), then OP in this process,
 *                               then linger 0.5 s as a daemon would, so its /proc
 *                               entries can be looked at while it lives
 *
 * io_uring is set up by hand (no liburing): the rings and the SQE array are
 * mapped as the kernel's UAPI describes them (same layout on x86_64 and
 * aarch64). Built static with the launcher's compiler (make test-helpers).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "errnames.h"

#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif
#define NR_io_uring_setup	425 /* the same on x86_64 and aarch64 */
#define NR_io_uring_enter	426
#define IORING_OP_OPENAT	18
#define IORING_ENTER_GETEVENTS	1u
#define IORING_FEAT_SINGLE_MMAP 1u
#define IORING_OFF_SQ_RING	0ull
#define IORING_OFF_CQ_RING	0x8000000ull
#define IORING_OFF_SQES		0x10000000ull

struct sqring_offsets {
	uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	uint64_t user_addr;
};

struct cqring_offsets {
	uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	uint64_t user_addr;
};

struct uring_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd;
	uint32_t resv[3];
	struct sqring_offsets sq_off;
	struct cqring_offsets cq_off;
};

struct sqe { /* struct io_uring_sqe, 64 bytes, the fields an openat uses */
	uint8_t opcode, flags;
	uint16_t ioprio;
	int32_t fd;
	uint64_t off, addr;
	uint32_t len, open_flags;
	uint64_t user_data;
	uint64_t pad[3];
};

struct cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};

static int put_result(int err)
{
	if (!err)
		puts("ok");
	return err ? put_errno(err) : 0;
}

static int outcome(long ret)
{
	return put_result(ret < 0 ? errno : 0);
}

static void setup_failed(const char *step)
{
	printf("%s: ", step);
	put_result(errno);
	exit(1);
}

static int op_create(char **a)
{
	return outcome(open(a[0], O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
}

static int op_read(char **a)
{
	return outcome(open(a[0], O_RDONLY | O_CLOEXEC));
}

static int op_bind(char **a)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		setup_failed("socket");
	if (strlen(a[0]) >= sizeof sa.sun_path)
		setup_failed("sun_path");
	strcpy(sa.sun_path, a[0]);
	return outcome(bind(fd, (struct sockaddr *)&sa, sizeof sa));
}

/* int 0x80 reads 32-bit pointers: the path is copied below 4 GiB first. */
static int op_i386_create(char **a)
{
#ifdef __x86_64__
	size_t n = strlen(a[0]) + 1;
	char *low = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
			 -1, 0);
	long ret;

	if (low == MAP_FAILED)
		setup_failed("mmap");
	memcpy(low, a[0], n);
	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(5L), "b"(low), "c"((long)(O_CREAT | O_WRONLY)), "d"(0644L)
			 : "memory");
	return put_result(ret < 0 ? (int)-ret : 0);
#else
	(void)a;
	puts("unsupported");
	return 2;
#endif
}

static int op_tmpfile(char **a)
{
	return outcome(open(a[0], O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600));
}

static int op_tmplink(char **a)
{
	char self[32];
	int fd = open(a[0], O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);

	if (fd < 0)
		setup_failed("tmpfile");
	snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	return outcome(linkat(AT_FDCWD, self, AT_FDCWD, a[1], AT_SYMLINK_FOLLOW));
}

static void *ring_map(size_t size, uint64_t off, int fd)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, off);

	if (p == MAP_FAILED)
		setup_failed("mmap");
	return p;
}

static int op_uring_create(char **a)
{
	struct uring_params p = {0};
	size_t sq_size, cq_size;
	char *sq, *cq;
	struct sqe *sqes;
	struct cqe *c;
	uint32_t tail;
	int fd = (int)syscall(NR_io_uring_setup, 4, &p);

	if (fd < 0)
		setup_failed("io_uring_setup");
	sq_size = p.sq_off.array + p.sq_entries * sizeof(uint32_t);
	cq_size = p.cq_off.cqes + p.cq_entries * sizeof(struct cqe);
	if ((p.features & IORING_FEAT_SINGLE_MMAP) && cq_size > sq_size)
		sq_size = cq_size;
	sq = ring_map(sq_size, IORING_OFF_SQ_RING, fd);
	cq = p.features & IORING_FEAT_SINGLE_MMAP ? sq : ring_map(cq_size, IORING_OFF_CQ_RING, fd);
	sqes = ring_map(p.sq_entries * sizeof(struct sqe), IORING_OFF_SQES, fd);

	memset(sqes, 0, sizeof *sqes);
	sqes[0].opcode = IORING_OP_OPENAT;
	sqes[0].fd = AT_FDCWD;
	sqes[0].addr = (uint64_t)(uintptr_t)a[0];
	sqes[0].len = 0644;
	sqes[0].open_flags = O_CREAT | O_WRONLY | O_CLOEXEC;
	tail = *(uint32_t *)(sq + p.sq_off.tail);
	((uint32_t *)(sq + p.sq_off.array))[tail & *(uint32_t *)(sq + p.sq_off.ring_mask)] = 0;
	__atomic_store_n((uint32_t *)(sq + p.sq_off.tail), tail + 1, __ATOMIC_RELEASE);
	if (syscall(NR_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		setup_failed("io_uring_enter");
	c = (struct cqe *)(cq + p.cq_off.cqes) +
	    (__atomic_load_n((uint32_t *)(cq + p.cq_off.head), __ATOMIC_ACQUIRE) &
	     *(uint32_t *)(cq + p.cq_off.ring_mask));
	return put_result(c->res < 0 ? -c->res : 0);
}

struct worker {
	pthread_t thread;
	pthread_barrier_t *start;
	char path[4096];
	int err;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	int fd;

	pthread_barrier_wait(w->start);
	fd = open(w->path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	w->err = fd < 0 ? errno : 0;
	return NULL;
}

static int op_threads(char **a)
{
	static struct worker w[16];
	pthread_barrier_t start;
	int n = atoi(a[0]), i, failed = 0;
	const char *name;

	if (n < 1 || n > 16) {
		fprintf(stderr, "edgeop: threads: N is 1 to 16\n");
		return 2;
	}
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (i = 0; i < n; i++) {
		w[i].start = &start;
		snprintf(w[i].path, sizeof w[i].path, "%s/t%d", a[1], i);
		errno = pthread_create(&w[i].thread, NULL, work, &w[i]);
		if (errno)
			setup_failed("pthread_create");
	}
	for (i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		name = w[i].err ? errno_name(w[i].err) : "ok";
		printf("t%d %s\n", i, name ? name : "?");
		failed |= w[i].err != 0;
	}
	return failed;
}

static int dispatch(int argc, char **argv);

static int op_nodump(int argc, char **argv)
{
	struct timespec linger = {0, 500000000};
	int rc;

	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		setup_failed("prctl");
	rc = dispatch(argc, argv);
	fflush(stdout);
	nanosleep(&linger, NULL);
	return rc;
}

static const struct op {
	const char *name;
	int nargs;
	int (*run)(char **arg);
} ops[] = {
	{"create", 1, op_create},   {"read", 1, op_read},
	{"bind", 1, op_bind},	    {"tmpfile", 1, op_tmpfile},
	{"tmplink", 2, op_tmplink}, {"uring-create", 1, op_uring_create},
	{"threads", 2, op_threads}, {"i386-create", 1, op_i386_create},
};

/* argv[0] is OP; -1 when it names no operation with that many arguments. */
static int dispatch(int argc, char **argv)
{
	size_t i;

	if (argc > 1 && strcmp(argv[0], "nodump") == 0)
		return op_nodump(argc - 1, argv + 1);
	for (i = 0; argc > 0 && i < sizeof ops / sizeof *ops; i++)
		if (strcmp(argv[0], ops[i].name) == 0 && argc == ops[i].nargs + 1)
			return ops[i].run(argv + 1);
	return -1;
}

int main(int argc, char **argv)
{
	int rc = dispatch(argc - 1, argv + 1);

	if (rc < 0) {
		fprintf(stderr, "usage: edgeop OP ARG... (see tests/edgeop.c)\n");
		return 2;
	}
	return rc;
}
