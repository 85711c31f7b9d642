/*
 * The tracer behind --explain and --learn, as the launcher sees it: one
 * call. Everything else in trace/ is the tracer's own; a plain confined
 * run executes none of it.
 */
#ifndef LR_TRACE_H
#define LR_TRACE_H

#include "../landlock-run.h"

/* Returns in the child, which goes on to confine itself (unless learning)
 * and exec COMMAND; the parent traces it and exits with its status. */
void trace(const struct policy *p, int ruleset);

#endif
