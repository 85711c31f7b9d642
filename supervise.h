/*
 * supervise.c: the whole-tree mode. L, the launcher the caller started,
 * forks S, which forks (or traces) COMMAND; see supervise.c.
 */
#ifndef LR_SUPERVISE_H
#define LR_SUPERVISE_H

#include <stdint.h>
#include <sys/types.h>

struct private_tmp; /* tmpdir.h */

/* L's children from before the run (the caller's, which its exec left to
 * L: bash's reader of a process substitution): never the tree's to end.
 * A pid with its start time, so that a recycled pid is not one of them. */
#define INHERITED_MAX 16
struct inherited {
	int n;
	struct {
		pid_t pid;
		uint64_t start;
	} child[INHERITED_MAX];
};

struct supervisor {
	const char *mode; /* "--kill-tree", "--explain", "--learn": for messages */
	pid_t launcher;	  /* L */
	pid_t group;	  /* L's process group: the caller's job, COMMAND's too */
	pid_t self;	  /* S */
	pid_t command;
	int pidfd;		    /* COMMAND's, from spawn on */
	int children;		    /* S's /proc/thread-self/children */
	int status;		    /* COMMAND's wait status once reaped, else -1 */
	uint64_t mask;		    /* the caller's signal mask, which COMMAND gets back */
	int gate;		    /* in COMMAND's process: the exec's pipe (--status-fd) */
	struct private_tmp *tmp;    /* removed once the tree has ended, or NULL */
	int ruleset;		    /* the run's, or -1: L, which only waits, closes it */
	struct inherited inherited; /* L's, kept */
};

/* In S (the launcher waits); MODE (for messages) needs /proc to WHY. */
void supervise_start(struct supervisor *sv, const char *mode, const char *why);
pid_t supervise_spawn(struct supervisor *sv); /* 0 in COMMAND's process */
void supervise_signals(const struct supervisor *sv);
void supervise_stopped(const struct supervisor *sv);
int supervise_interrupted(void);
void supervise_failed(void *sv, int code);	    /* at_failure's, in S */
void supervise(struct supervisor *sv, int ruleset); /* returns in COMMAND's process */
__attribute__((noreturn)) void supervise_exit(struct supervisor *sv);
void end_tree(int children, pid_t command, int *status);
/* waitpid, again on EINTR; else a failure: "MODE: cannot wait for the WHOM". */
pid_t wait_for(pid_t pid, int *status, int flags, const char *mode, const char *whom);
__attribute__((noreturn)) void exit_as(int status);

#endif
