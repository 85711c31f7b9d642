/*
 * The place the launcher runs in, where it stands between the launcher and
 * what it needs: a seccomp filter inherited from a container runtime or a
 * service manager, Yama's ptrace_scope, /proc not mounted. Asked only when
 * a call has failed, and by --probe, so that the one failure line names the
 * setting that refused and its fix, not a symptom ("Landlock is not
 * supported" on a kernel that has it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "out.h"
#include "seccomp.h"
#include "where.h"

const struct name where_names[] = {
	{WHERE_SECCOMP, "seccomp_filter", 0, 0},
	{WHERE_NO_PTRACE, "ptrace_refused", 0, 0},
	{WHERE_NO_PROC, "proc_missing", 0, 0},
	{0, NULL, 0, 0},
};

/* A small file's first SIZE - 1 bytes, terminated; 0, or -1 and errno.
 * Never through a symlink, never waiting on a FIFO: /proc not mounted is a
 * plain directory, whose files whoever could write there chose. */
static int read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW), err;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	err = errno;
	close(fd);
	errno = err;
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* A number after "KEY:" on a line of /proc/self/status, in BASE; -1 when
 * the file or the line is not there. */
static long long status_number(const char *key, int base)
{
	char buf[4096], *line;
	size_t len = strlen(key);

	if (read_small("/proc/self/status", buf, sizeof buf))
		return -1;
	for (line = buf; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (strncmp(line, key, len) == 0 && line[len] == ':')
			return (long long)strtoul(line + len + 1, NULL, base);
	return -1;
}

/* /proc is mounted for this process's pid namespace: /proc/self is us. A
 * /proc of another namespace would name other processes by our numbers. */
int proc_mounted(void)
{
	char link[24], pid[24];
	ssize_t n = readlink("/proc/self", link, sizeof link - 1);

	if (n < 0)
		return 0;
	link[n] = '\0';
	return strcmp(link, decimal(getpid(), pid)) == 0;
}

/* 2: under a seccomp filter (one inherited, before the launcher installs
 * its own), else 0 (strict mode would have killed us for asking); asked of
 * the kernel, and of /proc/self/status where prctl is refused (a filter,
 * qemu-user); -1: neither can tell. */
int seccomp_mode(void)
{
	int mode = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);

	return mode >= 0 ? mode : (int)status_number("Seccomp", 10);
}

uint64_t where_found(void)
{
	return (seccomp_mode() == 2 ? WHERE_SECCOMP : 0) | (proc_mounted() ? 0 : WHERE_NO_PROC);
}

void need_proc(const char *what, const char *why)
{
	if (!proc_mounted())
		die("%s needs /proc to %s: mount it (mount -t proc proc /proc)", what, why);
}

/* The kernel predates Landlock (Linux 5.13): its answer, whatever filter
 * stands between. */
static int kernel_predates_landlock(void)
{
	struct utsname u;
	char *s;
	unsigned long major;

	if (uname(&u))
		return 0;
	major = strtoul(u.release, &s, 10);
	return major < 5 || (major == 5 && *s == '.' && strtoul(s + 1, NULL, 10) < 13);
}

/*
 * In a child of ours: whether the filters we run under let the ABI query
 * reach the kernel. A filter of the child's own asks its listener about
 * that one call; the kernel runs every filter and the most severe action
 * wins, so an inherited ERRNO beats the notification, which comes only
 * when every inherited filter let the call through. A grandchild makes
 * the call and is held in it until we answer: 0 we heard of it, 1 it
 * returned unheard (a filter answered), 2 no telling.
 */
static int query_reaches_kernel(void)
{
	struct sock_filter code[] = {
		{BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR},
		{BPF_JEQ_K, 0, 1, __NR_landlock_create_ruleset},
		{BPF_RET_K, 0, 0, SECCOMP_RET_USER_NOTIF},
		{BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW},
	};
	struct sock_fprog prog = {sizeof code / sizeof *code, code};
	struct pollfd heard[2];
	int done[2], listener, unheard;
	pid_t pid;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || pipe(done))
		return 2;
	listener = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (listener < 0 || (pid = _Fork()) < 0)
		return 2;
	if (pid == 0) {
		landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
		_exit(0); /* closes done[1]: returned unheard */
	}
	close(done[1]);
	heard[0] = (struct pollfd){.fd = listener, .events = POLLIN};
	heard[1] = (struct pollfd){.fd = done[0], .events = POLLIN};
	if (poll(heard, 2, -1) < 0)
		return 2;
	unheard = !(heard[0].revents & POLLIN);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return unheard;
}

int landlock_filtered(void)
{
	int status;
	pid_t pid;

	if (seccomp_mode() == 0)
		return 0;
	pid = _Fork();
	if (pid == 0)
		_exit(query_reaches_kernel());
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) < 2)
		return WEXITSTATUS(status);
	return kernel_predates_landlock() ? 0 : -1;
}

/*
 * Why PTRACE_SEIZE of our own child failed, as a clause with its fix, the
 * first that holds: Yama's setting; a tracer of ours that follows our
 * children (it holds the child already); a seccomp filter that refuses
 * ptrace itself (the kernel answers a call about no process, pid 0, with
 * ESRCH before any permission check); else a security module. errno is
 * kept for the line that names it.
 */
const char *ptrace_refuser(void)
{
	char scope[16] = "";
	int err = errno, filtered = ptrace(PTRACE_SEIZE, 0, 0, 0) < 0 && errno != ESRCH;
	long long caps = status_number("CapEff", 16);

	(void)read_small("/proc/sys/kernel/yama/ptrace_scope", scope, sizeof scope);
	errno = err;
	if (scope[0] == '3')
		return "Yama forbids it (kernel.yama.ptrace_scope is 3; only a reboot lowers it)";
	if (status_number("TracerPid", 10) > 0)
		return "the launcher is itself traced by one that follows its children (TracerPid "
		       "in "
		       "/proc/self/status: strace -f, an outer --explain): run it outside that "
		       "tracer";
	if (scope[0] == '2' && (caps < 0 || !(caps & 1LL << 19))) /* CAP_SYS_PTRACE */
		return "Yama lets only CAP_SYS_PTRACE trace (kernel.yama.ptrace_scope is 2: "
		       "add the capability, or set it to 1)";
	if (filtered)
		return "a seccomp filter refuses it (Seccomp: 2 in /proc/self/status): "
		       "allow ptrace in its profile (--security-opt seccomp=PROFILE)";
	return "this system refuses it (a security module: AppArmor, SELinux)";
}
