/*
 * guard.c: files the command must not change: policies, reports, and the
 * descriptors the caller hands over.
 */
#ifndef LR_GUARD_H
#define LR_GUARD_H

#include <limits.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "policy.h"

/*
 * A file the command must not be able to replace or redirect: an @FILE
 * policy, a report's target. Its inodes are those a lookup of its path goes
 * through, directories above them included, and its own.
 */
#define GUARD_INODES 128

struct guard {
	struct guard *next;
	char what[PATH_MAX + 32]; /* "@FILE", "--explain-json FILE"; a file's path */
	int fd;			  /* --status-fd FD's file, else 0 */
	size_t n;
	struct {
		dev_t dev;
		ino_t ino;
	} inodes[GUARD_INODES];
};

void guard_policy(struct request *r, const char *file, const struct stat *st);
void open_report(struct request *r, struct report_target *t, const char *option, const char *path);
void check_guards(const struct request *r, const struct grant *g, int fd);
void take_descriptor(int fd, const char *what, struct stat *st);
void guard_descriptor(struct request *r, int fd, const char *what, const struct stat *st);

#endif
