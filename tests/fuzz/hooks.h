/*
 * Force-included (-include) into landlock-run.c, grants.c and probe.c for the
 * fuzz build only. It renames the few calls through which the launcher acts
 * on the process or the kernel, so the harness (fuzz_args.c) decides what
 * they do: the fuzzer must never confine or replace itself, and every exit
 * must come back to it. The system headers are included first so that their
 * declarations keep the real names; the launcher's own includes of them are
 * then no-ops and only its calls see the macros.
 */
#ifndef LR_FUZZ_HOOKS_H
#define LR_FUZZ_HOOKS_H

#define _GNU_SOURCE /* identical to the launcher's own definition */
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

__attribute__((noreturn)) void lr_fuzz_exit(int status);
__attribute__((noreturn)) void lr_fuzz__exit(int status);
int lr_fuzz_execvp(const char *file, char *const argv[]);
long lr_fuzz_syscall(long nr, ...);
int lr_fuzz_prctl(int option, ...);
pid_t lr_fuzz_fork(void);
pid_t lr_fuzz_setsid(void);
unsigned long lr_fuzz_getauxval(unsigned long type);
void *lr_fuzz_calloc(size_t n, size_t size);
void *lr_fuzz_malloc(size_t size);
void *lr_fuzz_realloc(void *ptr, size_t size);
void lr_fuzz_free(void *ptr);
void *lr_fuzz_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int lr_fuzz_munmap(void *addr, size_t len);
void *lr_fuzz_mremap(void *old, size_t old_len, size_t len, int flags, ...);

#define exit	  lr_fuzz_exit
#define _exit	  lr_fuzz__exit
#define execvp	  lr_fuzz_execvp
#define syscall	  lr_fuzz_syscall
#define prctl	  lr_fuzz_prctl
#define fork	  lr_fuzz_fork
#define _Fork	  lr_fuzz_fork
#define setsid	  lr_fuzz_setsid
#define getauxval lr_fuzz_getauxval
#define calloc	  lr_fuzz_calloc
#define malloc	  lr_fuzz_malloc
#define realloc	  lr_fuzz_realloc
#define free	  lr_fuzz_free
#define mmap	  lr_fuzz_mmap
#define munmap	  lr_fuzz_munmap
#define mremap	  lr_fuzz_mremap
#define main	  lr_main

#endif
