/*
 * where.c: what the place the launcher runs in refuses it, for the failure
 * lines and the probe's where= (where_names, by WHERE_ bits).
 */
#ifndef LR_WHERE_H
#define LR_WHERE_H

#include <stdint.h>

#include "abi.h"

enum { WHERE_SECCOMP = 1, WHERE_NO_PTRACE = 2, WHERE_NO_PROC = 4 };
extern const struct name where_names[];
int proc_mounted(void);
int seccomp_mode(void);	    /* /proc/self/status's Seccomp: 0, 1, 2; -1 unknown */
uint64_t where_found(void); /* WHERE_SECCOMP, WHERE_NO_PROC */
/* die() when /proc is not mounted: WHAT needs it to WHY. */
void need_proc(const char *what, const char *why);
/* The failed ABI query: 1 a seccomp filter answered it, 0 the kernel did,
 * -1 no telling (where.c asks a filter of its own in a child). */
int landlock_filtered(void);
const char *ptrace_refuser(void); /* why ptrace of our own child failed */

#endif
