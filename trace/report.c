/*
 * The files the tracer writes (--explain-json, --learn), as git writes a
 * file it must not lose: a new file made with O_EXCL beside the target,
 * written, then renamed over it. A reader never sees half a report, and a
 * symlink planted at the target is replaced, never followed. The target
 * was checked before COMMAND ran (guard.c: open_report); a pipe or socket
 * the caller handed over is written to directly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* renameat */
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../out.h"
#include "tracer.h"

#define TRIES 64 /* names taken by other files before giving up */

/* ".NAME.XXXXXX" beside NAME, cut to fit a directory entry. */
static void temporary_name(char *out, const char *name)
{
	size_t len = strlen(name);

	len = len < NAME_MAX - 8 ? len : NAME_MAX - 8;
	out[0] = '.';
	memcpy(out + 1, name, len);
	out[len + 1] = '.';
	random_letters(out + len + 2, 6);
	out[len + 8] = '\0';
}

/* The descriptor the report is written to, from before COMMAND runs: a
 * failure here is the launcher's, and nothing runs. */
void report_create(struct report *r, const struct report_target *t)
{
	int i;

	r->t = t;
	r->fd = t->fd;
	r->tmp[0] = '\0';
	if (t->fd >= 0)
		return;
	for (i = 0; i < TRIES; i++) {
		temporary_name(r->tmp, t->name);
		r->fd = openat(t->dir, r->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			       0600);
		if (r->fd >= 0 || errno != EEXIST)
			break;
	}
	/* exactly 0600, whatever the umask took away (musl's fchmod would
	 * bring an O_PATH fallback this descriptor does not need) */
	if (r->fd >= 0 && syscall(SYS_fchmod, r->fd, 0600)) {
		int err = errno;

		report_discard(r); /* nothing is left beside the target */
		errno = err;
		r->fd = -1;
	}
	if (r->fd < 0)
		die_errno("cannot create the %s file %s", t->option, t->path);
}

/* The report is whole: it takes the target's name. */
void report_commit(struct report *r)
{
	if (close(r->fd))
		die_errno("cannot write the %s file %s", r->t->option, r->t->path);
	if (r->tmp[0] && renameat(r->t->dir, r->tmp, r->t->dir, r->t->name))
		die_errno("cannot write the %s file %s", r->t->option, r->t->path);
	r->fd = -1;
	r->tmp[0] = '\0'; /* the target's now: a failure after leaves it */
}

/* A run that did not finish leaves the target as it was. */
void report_discard(struct report *r)
{
	if (r->tmp[0])
		(void)unlinkat(r->t->dir, r->tmp, 0);
	r->tmp[0] = '\0';
}
