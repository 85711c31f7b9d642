/*
 * tmpdir.c: --private-tmp, a directory of the run's own in /tmp, made
 * before the ruleset (which grants it read-write, on its descriptor), named
 * by the TMP_VARS variables, removed once the tree has ended (by S, then L)
 * or at a launcher failure, never following a symlink.
 */
#ifndef LR_TMPDIR_H
#define LR_TMPDIR_H

#include <limits.h>
#include <sys/types.h>

#include "policy.h"

#define TMP_VARS 4

struct private_tmp {
	int made;
	int base, dir; /* /tmp, and the directory, both open from the start */
	dev_t dev;
	ino_t ino;
	char name[32];
	char path[PATH_MAX];
	char env[TMP_VARS][PATH_MAX + 16]; /* TMPDIR=PATH ... */
};

/* the host's /tmp to hide, or NULL when a grant asks for it */
const char *private_tmp_make(struct request *r);
void private_tmp_remove(struct private_tmp *t); /* NULL: nothing */
void private_tmp_failed(void *ctx, int code);	/* for at_failure */

#endif
