/*
 * What the command inherits from the launcher, and what it gets back from
 * the caller: capabilities, which it loses; the session, parent-death
 * signal, descriptors and environment the process options ask for (the
 * SIGPIPE disposition the launcher changes only for itself is out.c's,
 * beside the writes it is changed for).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "inherit.h"
#include "out.h"

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
/* The launcher's capability sets, all 64 bits of each: 0, or -1 and errno. */
static int read_capabilities(struct cap_data sets[2])
{
	struct cap_header header = {CAPABILITY_VERSION_3, 0};

	return (int)syscall(SYS_capget, &header, sets);
}

void drop_capabilities(void)
{
	struct cap_header header = {CAPABILITY_VERSION_3, 0};
	struct cap_data sets[2] = {{0, 0, 0}, {0, 0, 0}};
	int cap = 0;

	if (read_capabilities(sets))
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

/* Whether the launcher's effective set holds CAP, which --keep-caps hands on. */
int holds_capability(int cap)
{
	struct cap_data sets[2] = {{0, 0, 0}, {0, 0, 0}};

	if (read_capabilities(sets))
		die_errno("cannot read the capabilities");
	return (sets[cap / 32].effective >> cap % 32) & 1;
}

/*
 * What drop_capabilities takes from the command: what its exec would have
 * kept without the launcher. Root's exec keeps what root holds; another
 * user's only the ambient set, which the permitted set holds. The tracer
 * asks, before anything is dropped, so that --explain can say a refusal is
 * the drop's (trace/perm.c) and watch only the calls it can refuse.
 */
uint64_t dropped_capabilities(int keep)
{
	struct cap_data sets[2] = {{0, 0, 0}, {0, 0, 0}};
	uint64_t permitted, ambient = 0;
	int cap;

	if (keep || read_capabilities(sets))
		return 0;
	permitted = sets[0].permitted | (uint64_t)sets[1].permitted << 32;
	if (getuid() == 0 || geteuid() == 0)
		return permitted;
	for (cap = 0; cap < 64 && permitted >> cap; cap++)
		if (permitted >> cap & 1 &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0, 0) == 1)
			ambient |= 1ULL << cap;
	return ambient;
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

/*
 * setsid(2) refuses a process group leader, which is what a shell with job
 * control makes of every command it runs: then the launcher supervises
 * (supervise.c), and the command, its child, is no leader.
 */
void new_session(void)
{
	if (setsid() < 0)
		die_errno("--new-session: cannot start a session");
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
	env = mapped((have + n + 1) * sizeof *env, "the environment");
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
