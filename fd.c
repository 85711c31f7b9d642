/*
 * Descriptors: a path opened (openat, or openat2 refusing every symlink),
 * the path a descriptor stands for, whether a path lies in a directory's
 * tree, grant descriptors closed in runs, and a number of /proc/PID/stat.
 * The bottom of the confinement path: guard.c, grants.c, hide.c and
 * interp.c open and name paths through it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fd.h"
#include "out.h"

#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif

/* openat2(2)'s struct open_how (Linux 5.6), which musl 1.2.3 does not have. */
struct open_how_v0 {
	uint64_t flags, mode, resolve;
};

/*
 * Grant descriptors waiting to be closed, in the increasing order the
 * kernel hands them out (lowest free number first). Each run of
 * consecutive numbers is closed with one system call; a number the
 * launcher did not open is never in a run, so a descriptor the caller
 * passed down stays open. Few enough to stay in the kernel's first
 * descriptor table (64 slots), many enough to make closing cheap.
 */
void close_batch(struct fd_batch *b)
{
	int i, first;

	for (i = 0; i < b->n; i = first) {
		for (first = i + 1; first < b->n && b->fd[first] == b->fd[first - 1] + 1; first++)
			;
		if (syscall(__NR_close_range, (unsigned)b->fd[i], (unsigned)b->fd[first - 1], 0U))
			die_errno("cannot close the grant descriptors %d-%d", b->fd[i],
				  b->fd[first - 1]);
	}
	b->n = 0;
}

/* An open that gave FD failed for want of descriptors while B held some: B
 * closed, to try it again (1); else 0. A low descriptor limit costs no run. */
int made_room(struct fd_batch *b, int fd)
{
	if (fd >= 0 || errno != EMFILE || b->n == 0)
		return 0;
	close_batch(b);
	return 1;
}

void add_to_batch(struct fd_batch *b, int fd)
{
	b->fd[b->n++] = fd;
	if (b->n == (int)(sizeof b->fd / sizeof b->fd[0]))
		close_batch(b);
}

/* openat, or with NO_SYMLINKS openat2 refusing every symlink on the way (the
 * last one too) with ELOOP. openat, because musl's open() spends an fcntl on
 * O_CLOEXEC for old kernels. */
int open_at(int dirfd, const char *path, int flags, int no_symlinks)
{
	if (no_symlinks)
		return open_resolved(dirfd, path, flags, RESOLVE_NO_SYMLINKS);
	return openat(dirfd, path, flags | O_CLOEXEC);
}

int open_resolved(int dirfd, const char *path, int flags, uint64_t resolve)
{
	struct open_how_v0 how = {(uint64_t)flags | O_CLOEXEC, 0, resolve};

	return (int)syscall(__NR_openat2, dirfd, path, &how, sizeof how);
}

/* /proc/self/fd/FD, the way to FD's file by name (its link, its xattrs). */
void self_fd_link(int fd, char link[SELF_FD_LINK])
{
	char num[24];

	join(link, SELF_FD_LINK, "/proc/self/fd/", decimal(fd, num), NULL);
}

/* FD's canonical path, as /proc/self/fd/N reads; its length, or -1. */
int path_of_fd(int fd, char *out)
{
	char link[SELF_FD_LINK];
	ssize_t n;

	self_fd_link(fd, link);
	n = readlink(link, out, PATH_MAX - 1);
	if (n >= 0)
		out[n] = '\0';
	return (int)n;
}

/* Canonical PATH is DIR itself or beneath it; "/" holds every path. */
int within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	n -= n == 1; /* "/" ends in its slash */
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/*
 * Field FIELD (3 or more, as proc(5) numbers them: 7 tty_nr, 22 starttime)
 * of the /proc/PID/stat at PATH in *VALUE: 0, or -1 when it cannot be read.
 * The name in field 2 is the process's own choice and may hold ") " and
 * digits; no later field holds a ')', so they are counted from the last.
 */
int stat_field(const char *path, int field, uint64_t *value)
{
	char buf[1024], *s, *end;
	ssize_t n;
	int fd, i;

	fd = open_at(AT_FDCWD, path, O_RDONLY, 0);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	s = strrchr(buf, ')');
	for (i = 2; s && i < field; i++)
		s = strchr(s + 1, ' ');
	if (!s || s[1] < '0' || s[1] > '9')
		return -1;
	*value = strtoull(s + 1, &end, 10);
	return *end == ' ' || *end == '\n' ? 0 : -1;
}
