/*
 * What the command inherits from the launcher, and what it gets back from
 * the caller: signal dispositions the launcher changes only for itself.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stddef.h>

#include "landlock-run.h"

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
