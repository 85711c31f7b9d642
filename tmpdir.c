/*
 * --private-tmp: a temporary directory of the run's own, made by the
 * launcher, granted read-write, named by TMPDIR, TMP, TEMP and TEMPDIR,
 * and removed with everything in it once the run's tree has ended.
 *
 * Where: /tmp, whatever TMPDIR says, because the host's /tmp is what the
 * run is kept out of (hidden, unless a grant asks for it). The name is
 * unpredictable (landlock-run. and ten random letters) and made with
 * mkdirat, which fails on anything already there, so nothing planted in
 * advance is taken over; /tmp must be sticky (or writable by no one else),
 * so no other user can rename or replace it; the command cannot write /tmp
 * at all. The launcher keeps the directory open from the start and checks
 * that descriptor (fstat: a directory, the caller's, 0700), and works on it
 * alone: the rule is added on the descriptor, and removal starts from it.
 *
 * Removal runs after the tree has ended, when nothing of the command is
 * left to race it, and yet never follows what it planted: every entry is
 * unlinked or opened relative to its directory's descriptor with
 * O_NOFOLLOW, a symlink is removed as the link it is, a directory the
 * command locked (chmod 000) is unlocked through its own descriptor, and
 * the directory's own name in /tmp is removed only while it still names
 * the inode made here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fd.h"
#include "out.h"
#include "policy.h"
#include "tmpdir.h"

#define TMP_BASE   "/tmp"
#define TMP_PREFIX "landlock-run."
#define TMP_RANDOM 10

static const char *const tmp_vars[TMP_VARS] = {"TMPDIR=", "TMP=", "TEMP=", "TEMPDIR="};

/* A grant asks for the host's /tmp (CANON, canonical): it names /tmp, or
 * gives more than reading beneath a directory that holds it (--hide could
 * not walk around /tmp there without taking away making files). A grant
 * within /tmp is granted as asked, the rest of /tmp stays hidden. Only
 * with --private-tmp: one more open per grant. */
static int asks_for_tmp(const struct request *r, const char *canon)
{
	char path[PATH_MAX];
	size_t i, len;
	int fd;

	for (i = 0; i < r->ngrants; i++) {
		const struct grant *g = &r->grants[i];

		fd = open_at(AT_FDCWD, g->path, O_PATH, r->no_symlinks);
		if (fd < 0)
			continue; /* the grant's own failure is told when it is added */
		len = path_of_fd(fd, path) < 0 ? 0 : strlen(path);
		close(fd);
		if (len == 0)
			continue;
		if (strcmp(path, canon) == 0)
			return 1;
		if (g->kind != GRANT_RO &&
		    (len == 1 || (strncmp(canon, path, len) == 0 && canon[len] == '/')))
			return 1;
	}
	return 0;
}

/* Removal failed, or could not end: said on stderr, the run's status
 * stays the command's. */
static void cannot_remove(const struct private_tmp *t, const char *what)
{
	struct out o = {.fd = STDERR_FILENO, .escape = ESCAPE_CONTROL};

	outf(&o, "landlock-run: --private-tmp: cannot remove %s: %s: %s\n", t->path, what,
	     strerror(errno));
	out_flush(&o);
}

/* The directory's state is mapped, not on main's stack: 20 KiB there would
 * spread a plain run's stack over pages it then faults in. */
const char *private_tmp_make(struct request *r)
{
	struct private_tmp *t = mapped(sizeof *t, "the private /tmp");
	struct stat st;
	char canon[PATH_MAX];
	size_t i, n = sizeof TMP_PREFIX - 1;
	int tries, err;

	t->base = open_at(AT_FDCWD, TMP_BASE, O_RDONLY | O_DIRECTORY, 0);
	if (t->base < 0 || fstat(t->base, &st) || path_of_fd(t->base, canon) < 0)
		die_errno("--private-tmp: cannot open %s", TMP_BASE);
	if ((st.st_mode & 022) && !(st.st_mode & S_ISVTX))
		die("--private-tmp: %s is writable by others and not sticky: anyone could replace "
		    "the run's directory there (chmod +t %s)",
		    TMP_BASE, TMP_BASE);
	memcpy(t->name, TMP_PREFIX, n);
	t->name[n + TMP_RANDOM] = '\0';
	for (tries = 0;; tries++) {
		random_letters(t->name + n, TMP_RANDOM);
		if (mkdirat(t->base, t->name, 0700) == 0)
			break;
		if (errno != EEXIST || tries == 16)
			die_errno("--private-tmp: cannot make a directory in %s", TMP_BASE);
	}
	join(t->path, sizeof t->path, canon, "/", t->name, NULL);
	t->dir = openat(t->base, t->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	err = t->dir < 0 || fchmod(t->dir, 0700) || fstat(t->dir, &st);
	if (!err) {
		t->dev = st.st_dev;
		t->ino = st.st_ino;
	}
	/* from here on, a failure removes it */
	t->made = 1;
	at_failure(private_tmp_failed, t);
	if (err)
		die_errno("--private-tmp: cannot open %s", t->path);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 07777) != 0700)
		die("--private-tmp: %s is not the directory made for this run", t->path);
	for (i = 0; i < TMP_VARS; i++) {
		join(t->env[i], sizeof t->env[i], tmp_vars[i], t->path, NULL);
		r->env[r->nenv++] = t->env[i];
	}
	r->tmp = t;
	return asks_for_tmp(r, canon) ? NULL : TMP_BASE;
}

/* NAME in DIR, a directory the command made unreadable: read and writable
 * again, through a descriptor of its own (O_PATH, no symlink followed),
 * never through its name, which could lead elsewhere. */
static int unlock(int dir, const char *name)
{
	char proc[32], num[24];
	int fd = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), err;

	if (fd < 0)
		return -1;
	join(proc, sizeof proc, "/proc/self/fd/", decimal(fd, num), NULL);
	err = chmod(proc, 0700);
	close(fd);
	return err;
}

/*
 * The entry NAME of DIR removed: 0; or a non-empty directory opened to be
 * emptied (its descriptor); or -1 and errno. Unlinking a symlink removes
 * the link; a directory is opened without following one.
 */
static int remove_entry(int dir, const char *name)
{
	int fd, unlocked = 0;

	if (unlinkat(dir, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno == EACCES || errno == EPERM) {
		/* DIR itself locked: it is ours, and open */
		if (fchmod(dir, 0700))
			return -1;
		if (unlinkat(dir, name, 0) == 0 || errno == ENOENT)
			return 0;
	}
	if (errno != EISDIR)
		return -1;
	if (unlinkat(dir, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
		return 0;
	if (errno != ENOTEMPTY && errno != EEXIST)
		return -1;
	for (;;) {
		fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 || errno != EACCES || unlocked++)
			break;
		if (unlock(dir, name))
			return -1;
	}
	if (fd >= 0 && fchmod(fd, 0700)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Everything beneath TOP removed, without recursion (the command decides
 * how deep it goes): a level is listed again and again until a listing
 * finds nothing; a non-empty directory is entered, and once it is empty
 * the walk goes back up through its "..", whose listing then removes it.
 * Every entry is removed or is an error, which ends the walk: it never
 * goes round for ever.
 */
static int clear(int top)
{
	char buf[4096];
	int cur = top, depth = 0, sub = 0, up;
	long n, off, found;

	for (;;) {
		if (lseek(cur, 0, SEEK_SET) < 0)
			break;
		found = 0;
		sub = 0;
		while (!sub && (n = syscall(SYS_getdents64, cur, buf, sizeof buf)) > 0)
			for (off = 0; !sub && off < n;
			     off += ((const struct dir_record *)(buf + off))->reclen) {
				const char *name = ((const struct dir_record *)(buf + off))->name;

				if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
					continue;
				found++;
				sub = remove_entry(cur, name);
				if (sub < 0)
					goto failed;
			}
		/* a directory already removed lists nothing (ENOENT): S removed it */
		if (!sub && n < 0 && errno != ENOENT)
			break;
		if (sub > 0) {
			if (cur != top)
				close(cur);
			cur = sub;
			depth++;
			continue;
		}
		if (found)
			continue;
		if (depth == 0)
			return 0;
		up = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(cur);
		if (--depth == 0) {
			if (up >= 0)
				close(up);
			cur = top;
		} else if ((cur = up) < 0) {
			return -1;
		}
	}
failed:
	if (cur != top) {
		int err = errno;

		close(cur);
		errno = err;
	}
	return -1;
}

void private_tmp_remove(struct private_tmp *t)
{
	struct stat st;

	if (!t || !t->made)
		return;
	if (t->dir < 0) {
		/* never opened: empty, or not the one made here (rmdir leaves it) */
		(void)unlinkat(t->base, t->name, AT_REMOVEDIR);
		return;
	}
	if (fchmod(t->dir, 0700) || clear(t->dir)) {
		cannot_remove(t, "what the command left in it");
		return;
	}
	/* the name still the inode made here, or already gone (S removed it) */
	if (fstatat(t->base, t->name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			cannot_remove(t, "the directory");
		return;
	}
	if (st.st_dev != t->dev || st.st_ino != t->ino)
		return;
	if (unlinkat(t->base, t->name, AT_REMOVEDIR) && errno != ENOENT)
		cannot_remove(t, "the directory");
}

void private_tmp_failed(void *ctx, int code)
{
	(void)code;
	private_tmp_remove(ctx);
}
