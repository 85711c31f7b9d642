/*
 * What the command inherits from the launcher, and what it gets back from
 * the caller: capabilities, which it loses, and signal dispositions the
 * launcher changes only for itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock-run.h"

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
