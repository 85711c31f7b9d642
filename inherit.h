/*
 * inherit.c: what the command inherits: capabilities, session, descriptors,
 * environment; what the caller gave the launcher, handed back.
 */
#ifndef LR_INHERIT_H
#define LR_INHERIT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

void die_with_parent(pid_t parent);
void drop_capabilities(void);
uint64_t dropped_capabilities(int keep); /* the bits drop_capabilities takes */
int holds_capability(int cap);
void new_session(void);
void close_fds(void);
void edit_environment(const char **edits, size_t n);

#endif
