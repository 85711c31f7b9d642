/*
 * Linked into make sanitize's launcher only (build/sanitize/landlock-run; the
 * Makefile builds it). Two things differ from a plain sanitized build, both
 * because the launcher confines itself before it can fail for the last time
 * (126/127 after exec):
 *  - Reports go to one file opened at startup (sanitizer_report_fd below): a
 *    confined process could not create a log file, but keeps using a file it
 *    opened before. scripts/sanitize.sh counts every report there as a failure,
 *    including one from a test that only checks for a non-zero status.
 *  - The leak check runs at prctl(PR_SET_NO_NEW_PRIVS), the last moment the
 *    launcher is unconfined, instead of at exit: LeakSanitizer stops the world
 *    through /proc, which the sandbox denies, and then spins forever. The
 *    child that --explain or --learn traces is not checked at all: the world
 *    is stopped with ptrace, and a traced process cannot be attached again.
 *    Its parent, the tracer, is checked at exit.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

void __sanitizer_set_report_fd(void *fd);
void __lsan_do_leak_check(void);

static int report_fd = -1;
static int traced; /* a child of --explain or --learn */

/* LeakSanitizer asks this (weak) hook before its check at exit. */
int __lsan_is_turned_off(void)
{
	return traced;
}

/* Another process traces this one: "TracerPid:" in /proc/self/status is not 0. */
static int being_traced(void)
{
	char buf[4096], *line;
	ssize_t n;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	line = strstr(buf, "\nTracerPid:");
	return line && atoi(line + sizeof "\nTracerPid:" - 1) != 0;
}

/*
 * Runs before the leak check at exit (atexit order is reversed, and the
 * sanitizer registered its check first). A launcher that fails with every
 * descriptor in use (EMFILE on a grant) leaves none for LeakSanitizer, which
 * reads /proc/PID/task; the process is ending, so closing them is harmless.
 */
static void free_descriptors(void)
{
	unsigned first = 3;

	if (report_fd >= 3) {
		if (report_fd > 3)
			close_range(3, (unsigned)report_fd - 1, 0);
		first = (unsigned)report_fd + 1;
	}
	close_range(first, ~0U, 0);
}

__attribute__((constructor)) static void sanitizer_report_fd(void)
{
	const char *path = getenv("LR_SANITIZE_LOG");
	int fd;

	/* A launcher started inside a sandbox (or as another user) may not be
	 * allowed to open it: its reports then go to stderr, and the exit
	 * status still tells. */
	if (!path || (fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) < 0)
		return;
	/* With stdin, stdout or stderr closed (tests do that), the file would
	 * take its number and catch what the launcher writes there: move it
	 * above 2, leaving the caller's closed descriptor closed. */
	if (fd < 3) {
		int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);

		close(fd);
		if (high < 0)
			return;
		fd = high;
	}
	__sanitizer_set_report_fd((void *)(intptr_t)fd);
	report_fd = fd;
	if (atexit(free_descriptors))
		abort();
}

/* Overrides the sanitizer's (weak) prctl interceptor for this program. */
int prctl(int option, ...)
{
	unsigned long arg[4];
	va_list ap;
	int i;

	va_start(ap, option);
	for (i = 0; i < 4; i++)
		arg[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_NO_NEW_PRIVS && !traced && being_traced())
		traced = 1;
	else if (option == PR_SET_NO_NEW_PRIVS && !traced)
		__lsan_do_leak_check(); /* also disables the one at exit */
	return (int)syscall(SYS_prctl, option, arg[0], arg[1], arg[2], arg[3]);
}
