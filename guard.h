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
#define GUARD_WHAT   (PATH_MAX + 32)

struct guard {
	struct guard *next;
	int fd; /* --status-fd FD's file, else 0 */
	size_t n;
	struct {
		dev_t dev;
		ino_t ino;
	} inodes[GUARD_INODES];
	char *what; /* GUARD_WHAT bytes: "@FILE", "--explain-json FILE"; a file's path */
};

/*
 * The policy directories: $XDG_CONFIG_HOME/landlock-run (~/.config/...
 * without it) and /etc/landlock-run. @FILE is read only from beneath one,
 * and no --rw grant may be on one, above one, or inside one, so no run
 * can change the policy of the next. One that does not exist yet is judged
 * by the nearest directory that does, which would hold it.
 */
#define POLICY_DIRS 2

struct policy_dirs {
	size_t n;
	struct policy_dir {
		int exists;
		dev_t dev; /* the directory, when it exists */
		ino_t ino;
		struct guard lookup; /* what its (or its nearest existing
					directory's) lookup goes through, and
					above; its what is the directory's path */
	} dir[POLICY_DIRS];
	/* The paths, one after the other: with the inodes before them, what a
	 * run touches of all this is one or two pages, not one per field. */
	char paths[POLICY_DIRS * GUARD_WHAT];
};

const struct policy_dirs *find_policy_dirs(struct request *r);
void check_policy_dirs(const struct request *r, const struct grant *g, int fd,
		       const struct stat *grant);
int in_policy_dir(struct request *r, int dirfd, const char *file);
void check_learn_target(struct request *r);
void learn_note(const struct request *r, const char *when);
void guard_policy(struct request *r, const char *file, int fd, const struct stat *st);
void open_report(struct request *r, struct report_target *t, const char *option, const char *path);
void check_guards(const struct request *r, const struct grant *g, int fd);
void take_descriptor(int fd, const char *what, struct stat *st);
void guard_descriptor(struct request *r, int fd, const char *what, const struct stat *st);

#endif
