/*
 * hide.c: --hide. A read-side grant that holds hidden paths adds no rule of
 * its own but one per entry of each directory on the way down to each of them
 * but the entry that leads to it. expand_grant walks them and calls FN with
 * each entry's descriptor (opened O_PATH without following a symlink, closed
 * after FN returns), the rights it gets and the index in r->hidden of the
 * hidden path whose walk found it; FN returns 0, or -1 with errno set. The
 * tracer can call it with its own FN to rebuild the same (dev, ino, rights).
 */
#ifndef LR_HIDE_H
#define LR_HIDE_H

#include <stddef.h>
#include <stdint.h>

#include "policy.h"

struct out;

typedef int hide_rule_fn(void *ctx, int fd, uint64_t rights, size_t hidden);
void add_hidden(struct request *r, const char *path);
/* fills canon and exists, and hidden_inodes */
void resolve_hidden(struct request *r);
/* 1 when hidden paths lie beneath the grant G, opened as FD: it is to be
 * expanded, at CANON (PATH_MAX, filled); a contradiction, by path or by
 * inode (an alias of a hidden path or of a directory above one), is a usage
 * error. */
int grant_hides(const struct policy *p, const struct grant *g, int fd, char *canon);
/* An entry that is the same inode as a hidden path or a directory above one
 * gets no rule; -v (VERBOSE, or NULL) names it. */
size_t expand_grant(const struct policy *p, int fd, const char *canon, uint64_t rights,
		    hide_rule_fn *fn, void *ctx, struct out *verbose);
/* The hidden path CANON is, or is beneath; NULL if none. */
const struct hidden *hidden_at(const struct request *r, const char *canon);
/* Below ABI 9, without --no-unix: a line on stderr for each hidden path
 * that holds a socket (looked for within a bound: hide.c), which this ABI
 * cannot withhold. */
void warn_hidden_sockets(const struct policy *p);
/* A hidden path strictly beneath the directory CANON; NULL if none. */
const struct hidden *hidden_beneath(const struct request *r, const char *canon);

#endif
