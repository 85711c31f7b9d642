/*
 * inherit.c: what the command inherits: capabilities, session, descriptors,
 * environment, signals; what the caller gave the launcher, handed back.
 */
#ifndef LR_INHERIT_H
#define LR_INHERIT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct caller {
	struct sigaction sigpipe; /* ignored while the launcher runs */
};

void die_with_parent(pid_t parent);
void drop_capabilities(void);
uint64_t dropped_capabilities(int keep); /* the bits drop_capabilities takes */
int holds_capability(int cap);
void new_session(void);
void close_fds(void);
void edit_environment(const char **edits, size_t n);
void hold_signals(struct caller *c);
void give_back_signals(const struct caller *c);

#endif
