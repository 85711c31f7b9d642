/*
 * grants.c: paths and ports to Landlock rules.
 */
#ifndef LR_GRANTS_H
#define LR_GRANTS_H

#include "policy.h"

struct out;

void add_grant(struct request *r, const char *option, const char *path, enum grant_kind kind,
	       int optional);
void add_ports(struct ports *ports, const char *option, const char *list, const char *at);
/* The ruleset; the filter's groups the grants add (GROUP_SETID_MAPS) are
 * ORed into *REFUSED. */
int build_ruleset(const struct policy *p, struct out *verbose, uint64_t *refused, int exec_next);
const struct grant *grant_number(const struct request *r, size_t i);

#endif
