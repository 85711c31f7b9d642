/*
 * hostile: a command that attacks the tracer behind --explain and --learn,
 * for tests/tracer.bats. Each subcommand prints what it got, as tryop does
 * ("ok" or the errno's name), and exits 0 unless setup failed (1) or the
 * usage is wrong (2).
 *
 *   hostile forge FILE       installs its own seccomp filter that makes
 *                            openat(2) stop at a tracer with ret_data taken
 *                            from its sixth argument (which openat ignores),
 *                            and calls openat with every row number 0..63 on
 *                            a buffer that is the path "\1" (created in the
 *                            working directory) and an abstract AF_UNIX
 *                            address, with flags 127, the length a forged
 *                            connect would read (past sun_path). Then makes
 *                            the directory FILE with mkdirat(2), which the
 *                            filter does not touch. Prints its outcome.
 *   hostile untraced         clone(CLONE_UNTRACED|SIGCHLD): a child that
 *                            PTRACE_O_TRACEFORK would not follow
 *   hostile creates DIR N    open(DIR/fI, O_CREAT) for I = 0..N-1, one process;
 *                            prints how many failed with EACCES
 *   hostile mask             installs a filter of its own that answers
 *                            socket(2) SECCOMP_RET_TRACE with ret_data 1 (the
 *                            newest filter's data wins among TRACE answers),
 *                            then prints the outcome of socket(AF_INET)
 *   hostile listener         installs a filter with a listener
 *                            (SECCOMP_FILTER_FLAG_NEW_LISTENER) that answers
 *                            socket(2) SECCOMP_RET_USER_NOTIF; if that works,
 *                            a child calls socket(AF_INET) while this process,
 *                            its supervisor, lets the call continue. Prints
 *                            the outcome of the install, then the child's
 *                            socket(2)
 *
 * Built static with the launcher's compiler (make test-helpers).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../seccomp.h"
#include "errnames.h"

#define BPF_ALU_OR_K 0x44 /* BPF_ALU | BPF_OR | BPF_K: A |= k */
#define BPF_RET_A    0x16 /* BPF_RET | BPF_A: return A */

static int outcome(long ret)
{
	const char *name = errno_name(errno);

	if (ret >= 0)
		puts("ok");
	else if (name)
		puts(name);
	else
		printf("errno %d\n", errno);
	return 0;
}

/* openat: return TRACE | (argument 5): among TRACE answers the newest
 * filter's data wins, so the tracer's own row number is replaced. */
static int forging_filter(void)
{
	struct sock_filter insn[] = {
		{BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR},
		{BPF_JEQ_K, 0, 3, SYS_openat},
		{BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(5)},
		{BPF_ALU_OR_K, 0, 0, SECCOMP_RET_TRACE},
		{BPF_RET_A, 0, 0, 0},
		{BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW},
	};
	struct sock_fprog prog = {sizeof insn / sizeof insn[0], insn};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0U, &prog)) {
		printf("filter: %s\n", errno_name(errno) ? errno_name(errno) : "?");
		return -1;
	}
	return 0;
}

static int forge(const char *file)
{
	/* The path "\1" and, read as a socket address, an abstract name. */
	static unsigned char buffer[sizeof(struct sockaddr_storage)];
	long row;

	buffer[0] = AF_UNIX;
	memset(buffer + 3, 'A', sizeof buffer - 3);
	if (forging_filter())
		return 1;
	for (row = 0; row < 64; row++)
		syscall(SYS_openat, (long)AT_FDCWD, buffer, 127L, 0600L, 0L, row);
	return outcome(syscall(SYS_mkdirat, (long)AT_FDCWD, file, 0700L));
}

static int install(unsigned flags, uint32_t action)
{
	struct sock_filter insn[] = {
		{BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR},
		{BPF_JEQ_K, 0, 1, SYS_socket},
		{BPF_RET_K, 0, 0, action},
		{BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW},
	};
	struct sock_fprog prog = {sizeof insn / sizeof insn[0], insn};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static int mask(void)
{
	if (install(0, SECCOMP_RET_TRACE | 1) < 0)
		return outcome(-1), 1;
	return outcome(socket(AF_INET, SOCK_STREAM, 0));
}

/* linux/seccomp.h, which musl-gcc cannot see */
#define NEW_LISTENER	    8U
#define RET_USER_NOTIF	    0x7fc00000U
#define NOTIF_RECV	    0xc0502100UL /* _IOWR('!', 0, struct notif) */
#define NOTIF_SEND	    0xc0182101UL /* _IOWR('!', 1, struct notif_resp) */
#define NOTIF_FLAG_CONTINUE 1U

struct notif {
	uint64_t id;
	uint32_t pid, flags;
	uint32_t nr, arch;
	uint64_t ip, args[6];
};

struct notif_resp {
	uint64_t id;
	int64_t val;
	int32_t error;
	uint32_t flags;
};

/* The supervisor: answers each notification "continue" until the child is
 * gone (a call some other filter refuses never notifies). */
static int listener(void)
{
	struct notif n;
	struct notif_resp r;
	struct pollfd p;
	int fd = install(NEW_LISTENER, RET_USER_NOTIF), status;
	pid_t child;

	outcome(fd);
	if (fd < 0)
		return 0;
	fflush(stdout);
	child = fork();
	if (child == 0) {
		outcome(socket(AF_INET, SOCK_STREAM, 0));
		fflush(stdout);
		_exit(0);
	}
	while (child > 0 && waitpid(child, &status, WNOHANG) == 0) {
		p = (struct pollfd){fd, POLLIN, 0};
		if (poll(&p, 1, 100) <= 0)
			continue;
		memset(&n, 0, sizeof n);
		if (ioctl(fd, NOTIF_RECV, &n))
			continue;
		r = (struct notif_resp){n.id, 0, 0, NOTIF_FLAG_CONTINUE};
		ioctl(fd, NOTIF_SEND, &r);
	}
	return child < 0;
}

static int untraced(void)
{
	int status;
	long pid = syscall(SYS_clone, (long)(CLONE_UNTRACED | SIGCHLD), 0L, 0L, 0L, 0L);

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, &status, 0);
	return outcome(pid);
}

static int creates(const char *dir, long n)
{
	char path[4096];
	long i, denied = 0;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/f%ld", dir, i);
		if (open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600) < 0 && errno == EACCES)
			denied++;
	}
	printf("%ld\n", denied);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "forge") == 0)
		return forge(argv[2]);
	if (argc == 2 && strcmp(argv[1], "untraced") == 0)
		return untraced();
	if (argc == 4 && strcmp(argv[1], "creates") == 0)
		return creates(argv[2], atol(argv[3]));
	if (argc == 2 && strcmp(argv[1], "mask") == 0)
		return mask();
	if (argc == 2 && strcmp(argv[1], "listener") == 0)
		return listener();
	fprintf(stderr, "usage: hostile forge FILE | untraced | creates DIR N | mask | listener\n");
	return 2;
}
