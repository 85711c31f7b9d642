/*
 * tty: a terminal for the tests of terminal injection (TIOCSTI), playing
 * both the victim's terminal and the attacker inside the sandbox.
 *
 *   tty run CMD...          run CMD on a new pty that is its controlling
 *                           terminal (CMD leads a new session, the pty is its
 *                           stdin, stdout and stderr); when CMD has exited,
 *                           print what it wrote ("output: ") and what a
 *                           reader of the terminal would get next ("read: "),
 *                           each on one line with \n and \xHH escaped, and
 *                           exit with CMD's status
 *   tty inject ABI CMD TEXT push each byte of TEXT into the terminal on fd 0
 *                           with ioctl(0, CMD, &byte); CMD in hex (0x5412 is
 *                           TIOCSTI; 0x100005412 the same with high bits the
 *                           kernel ignores). ABI: native, i386 (int 0x80 from
 *                           this 64-bit process, x86_64 only) or x32 (bit 30
 *                           set, x86_64 only). Prints "ok" or the errno name
 *                           of the first refusal (exit 1)
 *   tty ctty                open /dev/tty: "ok" when the process has a
 *                           controlling terminal, else the errno name (ENXIO)
 *
 * Usage errors exit 2, setup failures print "STEP: ENAME" and exit 3. Built
 * static with the launcher's compiler (make test-helpers), for the
 * kernel-matrix guest too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "errnames.h"

#define X32_SYSCALL_BIT 0x40000000L
#define X32_IOCTL	514 /* x32's own ioctl number */
#define I386_IOCTL	54

#ifndef MAP_32BIT /* x86_64 only */
#define MAP_32BIT 0
#endif

static void setup_failed(const char *step)
{
	printf("%s: ", step);
	put_errno(errno);
	exit(3);
}

/* The pty's two ends; the slave is the new controlling terminal of CMD. */
static void open_pty(int *master, int *slave)
{
	struct termios raw;
	int unlock = 0;

	*master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*master < 0 || ioctl(*master, TIOCSPTLCK, &unlock))
		setup_failed("open /dev/ptmx");
	*slave = ioctl(*master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*slave < 0)
		setup_failed("open the pty");
	/* Raw: the reader gets the injected bytes as they are, no line editing. */
	if (tcgetattr(*slave, &raw))
		setup_failed("tcgetattr");
	cfmakeraw(&raw);
	if (tcsetattr(*slave, TCSANOW, &raw))
		setup_failed("tcsetattr");
}

static void start(char **cmd, int slave)
{
	if (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0) || dup2(slave, 0) < 0 ||
	    dup2(slave, 1) < 0 || dup2(slave, 2) < 0)
		setup_failed("make the pty the controlling terminal");
	execvp(cmd[0], cmd);
	setup_failed("exec");
}

struct text {
	unsigned char buf[4096];
	size_t len;
};

/* What CMD writes goes to the master: keep it, so CMD never blocks. */
static int wait_draining(pid_t pid, int master, struct text *output)
{
	struct pollfd p = {.fd = master, .events = POLLIN};
	int status, exited = 0;

	for (;;) {
		ssize_t n = 0;

		if (!exited && (exited = (int)waitpid(pid, &status, WNOHANG)) < 0)
			setup_failed("waitpid");
		if (poll(&p, 1, exited ? 0 : 20) > 0)
			n = read(master, output->buf + output->len,
				 sizeof output->buf - output->len);
		if (n < 0 && errno != EIO)
			setup_failed("read the pty");
		if (n > 0 && (output->len += (size_t)n) == sizeof output->buf)
			output->len = 0; /* keep the tail */
		if (exited && n <= 0)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
}

static void print_text(const char *label, const struct text *t)
{
	size_t i;

	printf("%s: ", label);
	for (i = 0; i < t->len; i++)
		if (t->buf[i] == '\n')
			printf("\\n");
		else if (t->buf[i] < 0x20 || t->buf[i] >= 0x7f || t->buf[i] == '\\')
			printf("\\x%02x", t->buf[i]);
		else
			putchar(t->buf[i]);
	putchar('\n');
}

static int run(char **cmd)
{
	struct text output = {.len = 0}, input = {.len = 0};
	int master, slave, status, flags;
	ssize_t n;
	pid_t pid;

	open_pty(&master, &slave);
	pid = fork();
	if (pid < 0)
		setup_failed("fork");
	if (pid == 0)
		start(cmd, slave);
	status = wait_draining(pid, master, &output);
	flags = fcntl(slave, F_GETFL);
	if (flags < 0 || fcntl(slave, F_SETFL, flags | O_NONBLOCK))
		setup_failed("fcntl");
	n = read(slave, input.buf, sizeof input.buf);
	if (n < 0 && errno != EAGAIN)
		setup_failed("read the terminal");
	input.len = n > 0 ? (size_t)n : 0;
	print_text("output", &output);
	print_text("read", &input);
	return status;
}

/* One ioctl in the chosen ABI; the i386 and x32 ones read 32-bit pointers. */
static long ioctl_in(const char *abi, unsigned long cmd, char *byte)
{
	if (strcmp(abi, "native") == 0)
		return syscall(SYS_ioctl, 0, cmd, byte);
#if defined(__x86_64__)
	if (strcmp(abi, "x32") == 0)
		return syscall(X32_SYSCALL_BIT | X32_IOCTL, 0, cmd, byte);
	if (strcmp(abi, "i386") == 0) {
		long ret;

		__asm__ volatile("int $0x80"
				 : "=a"(ret)
				 : "a"(I386_IOCTL), "b"(0), "c"((uint32_t)cmd),
				   "d"((uint32_t)(uintptr_t)byte)
				 : "memory");
		if (ret < 0 && ret > -4096) {
			errno = (int)-ret;
			return -1;
		}
		return ret;
	}
#endif
	fprintf(stderr, "tty: no ABI %s here\n", abi);
	exit(2);
}

static int inject(const char *abi, const char *cmd_text, const char *text)
{
	char *end, *byte;
	unsigned long cmd;

	errno = 0;
	cmd = strtoul(cmd_text, &end, 16);
	if (errno || *end || end == cmd_text) {
		fprintf(stderr, "tty: bad command %s\n", cmd_text);
		return 2;
	}
	/* Below 4 GiB, where a 32-bit ABI's pointer can reach it. */
	byte = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1,
		    0);
	if (byte == MAP_FAILED)
		setup_failed("mmap");
	for (; *text; text++) {
		*byte = *text;
		if (ioctl_in(abi, cmd, byte) < 0)
			return put_errno(errno);
	}
	puts("ok");
	return 0;
}

static int ctty(void)
{
	/* Read-only: a sandbox without --rw /dev/tty may not open it to write. */
	int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return put_errno(errno);
	puts("ok");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "run") == 0)
		return run(argv + 2);
	if (argc == 5 && strcmp(argv[1], "inject") == 0)
		return inject(argv[2], argv[3], argv[4]);
	if (argc == 2 && strcmp(argv[1], "ctty") == 0)
		return ctty();
	fprintf(stderr, "usage: tty run CMD... | inject ABI CMD TEXT | ctty (see tests/tty.c)\n");
	return 2;
}
