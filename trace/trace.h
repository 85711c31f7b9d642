/*
 * The tracer behind --explain and --learn, as the launcher sees it: one
 * call. Everything else in trace/ is the tracer's own; a plain confined
 * run executes none of it.
 */
#ifndef LR_TRACE_H
#define LR_TRACE_H

struct policy;	   /* ../policy.h */
struct supervisor; /* ../supervise.h */

/* In the supervisor SV (supervise.c): returns in the child, which goes on
 * to confine itself (unless learning) and exec COMMAND; the supervisor
 * traces it, ends what it leaves, and exits as it did. */
void trace(const struct policy *p, int ruleset, struct supervisor *sv);

#endif
