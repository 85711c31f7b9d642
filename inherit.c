/*
 * What the command inherits from the launcher, and what it gets back from
 * the caller: capabilities, which it loses; the session, parent-death
 * signal, descriptors and environment the process options ask for; and
 * signal dispositions the launcher changes only for itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "landlock-run.h"

#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#define CLOSE_RANGE_CLOEXEC (1U << 2)

/* The capability UAPI (linux/capability.h), which musl does not wrap. */
#define CAPABILITY_VERSION_3 0x20080522
#define CAP_SETPCAP	     8

struct cap_header {
	uint32_t version;
	int pid;
};

struct cap_data {
	uint32_t effective, permitted, inheritable;
};

/*
 * Root keeps every capability through exec unless the bounding set is
 * empty too: the kernel gives a root exec the bounding set. Dropping from it
 * needs CAP_SETPCAP, so it goes first; clearing the permitted and
 * inheritable sets then clears the ambient set with them. A caller without
 * CAP_SETPCAP cannot shrink the bounding set, and with no_new_privs it
 * gains nothing from it. An unprivileged caller pays one capget.
 */
void drop_capabilities(void)
{
	struct cap_header header = {CAPABILITY_VERSION_3, 0};
	struct cap_data sets[2] = {{0, 0, 0}, {0, 0, 0}};
	int cap = 0;

	if (syscall(SYS_capget, &header, sets))
		die_errno("cannot read the capabilities");
	if (!(sets[0].permitted | sets[1].permitted | sets[0].inheritable | sets[1].inheritable))
		return;
	if (sets[0].effective & 1U << CAP_SETPCAP) {
		while (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0)
			cap++;
		/* EINVAL: past the last capability this kernel knows. */
		if (errno != EINVAL || cap == 0)
			die_errno("cannot drop capability %d from the bounding set", cap);
	}
	memset(sets, 0, sizeof sets);
	if (syscall(SYS_capset, &header, sets))
		die_errno("cannot drop the capabilities (--keep-caps keeps them)");
}

/* A closed stderr pipe must not kill the launcher before it can exec the
 * command or say why it cannot: write() returns EPIPE instead. */
void hold_signals(struct caller *c)
{
	struct sigaction ignore = {.sa_handler = SIG_IGN};

	if (sigaction(SIGPIPE, &ignore, &c->sigpipe))
		die_errno("cannot ignore SIGPIPE");
}

/* As env(1) does: the command gets the caller's disposition, not ours. exec
 * keeps an ignored signal ignored, so this must come before it. */
void give_back_signals(const struct caller *c)
{
	if (sigaction(SIGPIPE, &c->sigpipe, NULL))
		die_errno("cannot restore the caller's SIGPIPE disposition");
}

/* Set as soon as the options are read, so the launcher dies with the
 * parent too. A parent that exited before the signal was set sends none:
 * the launcher was reparented, and getppid() says so. */
void die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0))
		die_errno("--die-with-parent: cannot set the parent-death signal");
	if (getppid() != parent)
		die("--die-with-parent: the parent process %d has already exited", (int)parent);
}

/* Signal masks as the kernel takes them: musl's sigset_t calls would cost
 * more code than the two system calls. */
#define SIGBIT(s) (1ULL << ((s)-1))
/* Passed on to the command when it runs in a child of the launcher. */
#define RELAYED                                                                                  \
	(SIGBIT(SIGHUP) | SIGBIT(SIGINT) | SIGBIT(SIGQUIT) | SIGBIT(SIGTERM) | SIGBIT(SIGUSR1) | \
	 SIGBIT(SIGUSR2))

static long mask_signals(int how, const uint64_t *set, uint64_t *old)
{
	return syscall(SYS_rt_sigprocmask, how, set, old, sizeof *set);
}

/* The launcher, left waiting: nothing of the caller's beyond stdio stays
 * open here; it exits as the command did, by the same signal if need be. */
__attribute__((noreturn)) static void wait_relaying(pid_t child, const uint64_t *set)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	int sig, status;

	if (syscall(SYS_close_range, 3U, ~0U, 0U))
		die_errno("--new-session: cannot close the waiting launcher's descriptors");
	for (;;) {
		sig = (int)syscall(SYS_rt_sigtimedwait, set, NULL, NULL, sizeof *set);
		if (sig == SIGCHLD && waitpid(child, &status, WNOHANG) == child)
			break;
		if (sig > 0 && sig != SIGCHLD && kill(child, sig) && errno != ESRCH)
			die_errno("--new-session: cannot pass signal %d on", sig);
	}
	if (WIFEXITED(status))
		exit(WEXITSTATUS(status));
	/* Killed: die of the same signal, so the caller sees the same status.
	 * Should any step fail, the exit below still tells which signal. */
	sig = WTERMSIG(status);
	(void)sigaction(sig, &dfl, NULL);
	(void)kill(getpid(), sig);
	(void)mask_signals(SIG_UNBLOCK, set, NULL);
	exit(128 + sig);
}

/*
 * setsid(2) refuses a process group leader, which is what a shell with job
 * control makes of every command it runs: then the command runs in a child
 * that leads the new session, and dies with the launcher, which waits for
 * it and passes on the signals a terminal or a supervisor sends.
 */
void new_session(void)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL}, caller;
	uint64_t set = RELAYED | SIGBIT(SIGCHLD), mask;
	pid_t launcher = getpid(), child;

	if (setsid() >= 0)
		return;
	if (errno != EPERM)
		die_errno("--new-session: cannot start a session");
	/* Blocked before the fork, so that no signal is lost; and SIGCHLD not
	 * ignored, or the kernel would reap the child unwaited. */
	if (mask_signals(SIG_BLOCK, &set, &mask) || sigaction(SIGCHLD, &dfl, &caller))
		die_errno("--new-session: cannot set up the signals");
	child = _Fork();
	if (child < 0)
		die_errno("--new-session: cannot fork");
	if (child > 0)
		wait_relaying(child, &set);
	if (sigaction(SIGCHLD, &caller, NULL) || mask_signals(SIG_SETMASK, &mask, NULL) ||
	    setsid() < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0))
		die_errno("--new-session: cannot start a session in the child");
	if (getppid() != launcher)
		die("--new-session: the waiting launcher has exited");
}

/* Every descriptor above stderr, whoever opened it: close-on-exec, so that
 * an exec that fails can still report on stderr. */
void close_fds(void)
{
	if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC))
		die_errno("--close-fds: cannot close the inherited descriptors");
}

/* Entry E sets or unsets the variable NAME (LEN bytes). */
static int names(const char *e, const char *name, size_t len)
{
	return strncmp(e, name, len) == 0 && e[len] == '=';
}

/*
 * The command's environment: the caller's, with the edits applied in
 * command-line order. A NULL edit is --clearenv, one with '=' --setenv,
 * one without --unsetenv. environ itself is replaced, so that execvp looks
 * COMMAND up in the PATH it will run with, as env(1) does.
 */
void edit_environment(const char **edits, size_t n)
{
	size_t have = 0, i, j, k;
	char **env;

	while (environ && environ[have])
		have++;
	env = mmap(NULL, (have + n + 1) * sizeof *env, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (env == MAP_FAILED)
		die_errno("cannot allocate the environment");
	if (have)
		memcpy(env, environ, have * sizeof *env);
	for (i = 0; i < n; i++) {
		size_t len = edits[i] ? strcspn(edits[i], "=") : 0;

		for (j = k = 0; edits[i] && j < have; j++)
			if (!names(env[j], edits[i], len))
				env[k++] = env[j];
		have = k;
		if (edits[i] && edits[i][len] == '=')
			env[have++] = (char *)edits[i];
	}
	env[have] = NULL;
	environ = env;
}
