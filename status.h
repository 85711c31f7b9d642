/*
 * out.c: the status descriptor (--status-fd), JSON lines a caller can trust:
 * COMMAND never holds it.
 */
#ifndef LR_STATUS_H
#define LR_STATUS_H

#include <sys/types.h>

struct policy;

void status_start(int fd);
void status_running(const struct policy *p, pid_t pid, const char *enforcement);
void status_executed(pid_t pid);
int status_open(void);		  /* --status-fd was given */
void status_forked(void);	  /* in S: the end record is L's to write */
void status_end(int wait_status); /* the last line: how the run ended */

#endif
