/*
 * never.c: the grants --explain never advises and --learn never writes,
 * and why. One table, applied to a path already resolved (symlinks, "..",
 * /proc/self followed by the tracer), by the advice of a denial, the JSON
 * record's allow and every line of a learned policy.
 */
#ifndef LR_NEVER_H
#define LR_NEVER_H

#include <limits.h>

struct never {
	char home[PATH_MAX]; /* the caller's $HOME, canonical, or "" */
	int root;	     /* the command runs as root: root's trees are closed to writes */
};

void never_start(struct never *nv);
extern const char never_keep_caps[]; /* the why of a refusal a dropped capability made */
/* Why PATH is never granted (WRITE: a grant that writes), or NULL. */
const char *never_why(const struct never *nv, const char *path, int write);

#endif
