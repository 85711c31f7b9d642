/*
 * fd.c: descriptors. open_at is openat(DIRFD, PATH, FLAGS | O_CLOEXEC);
 * NO_SYMLINKS: ELOOP on any symlink. self_fd_link: /proc/self/fd/FD.
 * path_of_fd: FD's canonical path (PATH_MAX) and its length, or -1.
 * within: canonical PATH is DIR or beneath it. stat_field: one number of /proc/PID/stat. A batch:
 * descriptors to close in runs of consecutive numbers, one close_range each; a number the launcher
 * did not open is never in a run.
 */
#ifndef LR_FD_H
#define LR_FD_H

#include <stdint.h>

/* getdents64(2)'s record. */
struct dir_record {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

#include <stdint.h>

int open_at(int dirfd, const char *path, int flags, int no_symlinks);
/* openat2(2) of FLAGS | O_CLOEXEC, with openat2's RESOLVE_* flags. */
int open_resolved(int dirfd, const char *path, int flags, uint64_t resolve);
#define RESOLVE_NO_XDEV	    0x01
#define RESOLVE_NO_SYMLINKS 0x04
int path_of_fd(int fd, char *out);
#define SELF_FD_LINK 40
void self_fd_link(int fd, char link[SELF_FD_LINK]);
int within(const char *path, const char *dir);
/* A number of /proc/PID/stat (field numbers as proc(5) has them); -1. */
int stat_field(const char *path, int field, uint64_t *value);

struct fd_batch {
	int fd[32];
	int n;
};
void add_to_batch(struct fd_batch *b, int fd);
void close_batch(struct fd_batch *b);
/* FD < 0 with EMFILE and B not empty: B closed, 1 (open again); else 0. */
int made_room(struct fd_batch *b, int fd);

#endif
