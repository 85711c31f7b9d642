/* probe.c: the self-test behind --probe and its report. */
#ifndef LR_PROBE_H
#define LR_PROBE_H

struct policy;
struct out;
void probe(const struct policy *p, struct out *o);

#endif
