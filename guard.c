/*
 * Files the command must not be able to change for the next run: the
 * @FILE policies a run is started from, and the reports (--explain-json,
 * --learn) its caller will read back. A sandbox is used again and again in
 * the same tree; a policy the command can rewrite, or a report path it can
 * turn into a symlink, would let one run arm the next.
 *
 * Each such file is guarded by the inodes of everything a lookup of its
 * path goes through: every directory the path names as written, every
 * directory above those (as Landlock walks up, across mount points), and
 * the file itself. A write grant (--rw, --rw-try, --unix) on any of them
 * is refused before the command runs (grants.c calls check_guards).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fd.h"
#include "guard.h"
#include "out.h"

#define SYMLINK_HOPS 8 /* a policy reached through more links is refused */

static int has_inode(const struct guard *g, const struct stat *st)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (g->inodes[i].dev == st->st_dev && g->inodes[i].ino == st->st_ino)
			return 1;
	return 0;
}

/* 0 when ST was already there, so what is above it is too. */
static int add_inode(struct guard *g, const struct stat *st)
{
	if (has_inode(g, st))
		return 0;
	if (g->n == GUARD_INODES)
		die("cannot check %s: its path goes through more than %d directories", g->what,
		    GUARD_INODES);
	g->inodes[g->n].dev = st->st_dev;
	g->inodes[g->n++].ino = st->st_ino;
	return 1;
}

/* The directory FD (closed here) and every directory above it. */
static void add_ancestors(struct guard *g, int fd)
{
	struct stat st, up;
	int parent;

	for (;;) {
		if (fstat(fd, &st))
			die_errno("cannot check %s", g->what);
		if (!add_inode(g, &st))
			break;
		parent = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (parent < 0 || fstat(parent, &up))
			die_errno("cannot check %s", g->what);
		close(fd);
		fd = parent;
		if (up.st_dev == st.st_dev && up.st_ino == st.st_ino)
			break; /* the root is its own parent */
	}
	close(fd);
}

/* 1 when the component of PATH that starts at or after I (past slashes) is "..". */
static int parent_next(const char *path, size_t i)
{
	i += strspn(path + i, "/");
	return path[i] == '.' && path[i + 1] == '.' && (path[i + 2] == '/' || !path[i + 2]);
}

/* The directories the lookup of PATH goes through, as written: "/" or "."
 * first, then each prefix that ends before a slash, symlinks followed. A
 * directory the lookup only leaves by ".." is not gone through: no entry of
 * it is read, so from inside a workspace ../reports/r.json depends on
 * ../reports and above, not on the workspace. */
static void add_directories(struct guard *g, const char *path)
{
	char prefix[PATH_MAX];
	size_t i, len = strlen(path);
	int fd;

	for (i = 0; i <= len; i++) {
		if (i > 0 && i < len && path[i] != '/')
			continue;
		if (i == len && (i == 0 || path[i - 1] != '/'))
			break; /* the last component is the object, not a directory */
		if (parent_next(path, i))
			continue;
		if (i == 0)
			join(prefix, sizeof prefix, path[0] == '/' ? "/" : ".", NULL);
		else
			copy_span(prefix, sizeof prefix, path, i);
		fd = openat(AT_FDCWD, prefix, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			die_errno("cannot check %s: %s", g->what, prefix);
		add_ancestors(g, fd);
	}
}

/* PATH's directories and the object it names, following a final symlink as
 * the open did (HOPS left) and guarding where it leads too. */
static void guard_lookup(struct guard *g, const char *path, int hops)
{
	char target[PATH_MAX], next[PATH_MAX];
	struct stat st;
	const char *slash;
	size_t dirlen;
	ssize_t n;

	add_directories(g, path);
	if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return; /* a report not written yet */
		die_errno("cannot check %s", g->what);
	}
	add_inode(g, &st);
	if (!S_ISLNK(st.st_mode))
		return;
	if (hops == 0)
		die("cannot check %s: it goes through more than %d symlinks", g->what,
		    SYMLINK_HOPS);
	n = readlink(path, target, sizeof target - 1);
	if (n < 0)
		die_errno("cannot check %s", g->what);
	target[n] = '\0';
	/* a relative target is looked up in the directory the link is in */
	slash = strrchr(path, '/');
	dirlen = target[0] == '/' || !slash ? 0 : (size_t)(slash - path + 1);
	copy_span(next, sizeof next, path, dirlen);
	join(next + dirlen, sizeof next - dirlen, target, NULL);
	guard_lookup(g, next, hops - 1);
}

static struct guard *new_guard(struct request *r, const char *option, const char *path)
{
	struct guard *g = mapped(sizeof *g + GUARD_WHAT, "the list of guarded files");
	struct out what = {.fd = -1, .escape = ESCAPE_CONTROL};

	g->what = (char *)(g + 1);
	outf(&what, "%s%s%s", option, option[0] == '@' || !option[0] ? "" : " ", path);
	copy_span(g->what, GUARD_WHAT, what.buf, what.len);
	g->next = r->guards;
	r->guards = g;
	return g;
}

/* /dev/fd/N or /proc/self/fd/N: N, else -1. */
static int handed_fd(const char *path)
{
	static const char *const forms[] = {"/dev/fd/", "/proc/self/fd/"};
	size_t i, len;

	for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		len = strlen(forms[i]);
		if (strncmp(path, forms[i], len) == 0)
			return (int)number_at(path + len, NULL, INT_MAX);
	}
	return -1;
}

/* 1 when a component of PATH is "." or "..", which the prefixes of PATH do
 * not name as the lookup goes. */
static int dotted(const char *path)
{
	const char *c;

	for (c = path; (c = strstr(c, "/.")); c++)
		if (c[2] == '/' || !c[2] || (c[2] == '.' && (c[3] == '/' || !c[3])))
			return 1;
	return 0;
}

/* The lookup of PATH's first NEAR bytes, judged as a report's is, from
 * scratch: apart, for its buffer, which a plain path's run never needs. */
__attribute__((noinline)) static void guard_nearest(struct guard *g, const char *path, size_t near)
{
	char prefix[PATH_MAX];

	copy_span(prefix, sizeof prefix, path, near);
	g->n = 0;
	guard_lookup(g, prefix, SYMLINK_HOPS);
}

/*
 * The policy directory PATH, the next entry's lookup.what (the name it is
 * guarded by), which may not exist: its nearest existing
 * prefix (PATH itself, or the closest directory above it) is what a run
 * would have to write to replace or make it, so that and everything above
 * it is guarded. An absolute path without symlinks or dots is its own
 * lookup, one fstatat per component; with them, the lookup is judged as a
 * report's is (guard_lookup). ROOT is the stat of "/".
 */
static void add_policy_dir(struct policy_dirs *d, const struct stat *root)
{
	struct policy_dir *p = &d->dir[d->n++];
	char *path = p->lookup.what;		/* as find_policy_dirs wrote it */
	size_t i, near = 1, len = strlen(path); /* path[0..near) exists: "/" first */
	struct stat st, at = *root;
	int plain = !dotted(path), failed, err, dangling;

	p->lookup.n = 0; /* written first, as find_policy_dirs says */
	add_inode(&p->lookup, &at);
	for (i = 1; i <= len; i++) {
		char c = path[i];

		if (i < len && c != '/')
			continue;
		path[i] = '\0'; /* cut at the prefix while it is looked at */
		failed = fstatat(AT_FDCWD, path, &st, plain ? AT_SYMLINK_NOFOLLOW : 0);
		err = errno;
		plain = plain && (failed || !S_ISLNK(st.st_mode));
		dangling = !failed && !plain && S_ISLNK(st.st_mode) && stat(path, &st);
		path[i] = c;
		if (failed && err != ENOENT && err != ENOTDIR && err != EACCES) {
			errno = err;
			die_errno("cannot check the policy directory %s", path);
		}
		if (failed || dangling)
			break; /* a dangling link: what is above it is guarded */
		if (plain)
			add_inode(&p->lookup, &st);
		near = i;
		at = st;
	}
	p->exists = near == len && S_ISDIR(at.st_mode);
	p->dev = at.st_dev;
	p->ino = at.st_ino;
	if (!plain)
		guard_nearest(&p->lookup, path, near);
}

/* The caller's $XDG_CONFIG_HOME/landlock-run (a relative one is ignored, as
 * the XDG spec says), else ~/.config/landlock-run; and /etc/landlock-run. */
const struct policy_dirs *find_policy_dirs(struct request *r)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct policy_dirs *d;
	struct stat root;
	char *path;

	if (r->policy_dirs)
		return r->policy_dirs;
	if (stat("/", &root))
		die_errno("cannot check the policy directories: cannot stat /");
	d = r->policy_dirs =
		r->dirs_room ? r->dirs_room : mapped(sizeof *d, "the policy directories");
	/* written first: a read of an untouched page maps the zero page, and
	 * the write after it faults again */
	d->n = 0;
	path = d->paths;
	if (xdg && xdg[0] == '/')
		join(path, GUARD_WHAT, xdg, "/landlock-run", NULL);
	else if (home && home[0] == '/')
		join(path, GUARD_WHAT, home, "/.config/landlock-run", NULL);
	if (path[0] && strcmp(path, "/etc/landlock-run") != 0) {
		d->dir[d->n].lookup.what = path;
		add_policy_dir(d, &root);
		path += strlen(path) + 1;
	}
	join(path, GUARD_WHAT, "/etc/landlock-run", NULL);
	d->dir[d->n].lookup.what = path;
	add_policy_dir(d, &root);
	return d;
}

/* Where the walk up from a grant starts, as a path FD and *AT can fstatat:
 * "." in a directory grant, or the directory a file grant is in. */
static void grant_start(const struct grant *g, int fd, const struct stat *st, int *at,
			char path[PATH_MAX])
{
	char *slash;

	*at = fd;
	if (S_ISDIR(st->st_mode)) {
		join(path, PATH_MAX, ".", NULL);
		return;
	}
	if (path_of_fd(fd, path) < 0 || !(slash = strrchr(path, '/')))
		die_errno("cannot check %s %s against the policy directories", g->option, g->path);
	slash[slash == path] = '\0';
	*at = AT_FDCWD;
}

static void refuse_policy_grant(const struct grant *g, const struct policy_dir *p,
				const char *where)
{
	die("%s %s is %sthe policy directory %s%s: no run may write where policies are "
	    "kept (@FILE reads them only there); grant the directories the command writes, "
	    "beside it",
	    g->option, g->path, where, p->lookup.what,
	    p->exists ? "" : " (not there yet: the command could make it)");
}

/* Whether a policy directory that exists is on the file system of ST. */
static int on_policy_fs(const struct policy_dirs *d, const struct stat *st)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->dir[i].exists && d->dir[i].dev == st->st_dev)
			return 1;
	return 0;
}

/*
 * A --rw grant on a policy directory, on a directory above it (which could
 * replace it, or make it when it is not there), or beneath it would let the
 * command write the next run's policy. Judged by inode, walking up from the
 * grant (FD, whose fstat is GRANT) by ".." as Landlock does, until a
 * directory the policy directory's lookup goes through: a few stats per
 * grant. A file is above no directory, and in none off its own file system:
 * one elsewhere (/dev/null) needs no walk, nor the readlink it starts with.
 */
void check_policy_dirs(const struct request *r, const struct grant *g, int fd,
		       const struct stat *grant)
{
	const struct policy_dirs *d = r->policy_dirs;
	unsigned pending = (1U << d->n) - 1;
	char path[PATH_MAX];
	struct stat st = *grant, last;
	size_t i;
	int at, stated;

	if (!S_ISDIR(st.st_mode) && !on_policy_fs(d, &st))
		return;
	for (i = 0; i < d->n; i++)
		if (has_inode(&d->dir[i].lookup, &st))
			refuse_policy_grant(g, &d->dir[i],
					    d->dir[i].exists && d->dir[i].dev == st.st_dev &&
							    d->dir[i].ino == st.st_ino
						    ? ""
						    : "above ");
	/* one fstatat per level: ".", "./..", "./../.."; a directory's "." is
	 * its fstat */
	grant_start(g, fd, &st, &at, path);
	stated = S_ISDIR(st.st_mode);
	for (last.st_ino = 0;; last = st, stated = 0) {
		if (!stated && fstatat(at, path, &st, 0))
			die_errno("cannot check %s %s", g->option, g->path);
		if (last.st_ino && last.st_dev == st.st_dev && last.st_ino == st.st_ino)
			break; /* the root is its own parent */
		for (i = 0; i < d->n; i++) {
			if (!(pending & 1U << i))
				continue;
			if (d->dir[i].exists && d->dir[i].dev == st.st_dev &&
			    d->dir[i].ino == st.st_ino)
				refuse_policy_grant(g, &d->dir[i], "inside ");
			if (has_inode(&d->dir[i].lookup, &st))
				pending &= ~(1U << i);
		}
		if (!pending)
			break;
		if (strlen(path) + sizeof "/.." > sizeof path)
			die("cannot check %s %s: it is too deep", g->option, g->path);
		strcat(path, "/..");
	}
}

/* A directory a policy is kept in: owned by the caller or root, and not
 * writable by its group or by others; 0 when it is not. */
static int own_directory(const struct stat *st)
{
	return (st->st_uid == geteuid() || st->st_uid == 0) && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/*
 * 1 when DIRFD (closed here) is a policy directory or beneath one, with
 * every directory on the way up to it own_directory(); 0 when no policy
 * directory is above it. FILE names the policy for the refusal of a
 * directory on the way that others could change; without FILE, such a
 * directory makes it 0.
 */
int in_policy_dir(struct request *r, int dirfd, const char *file)
{
	const struct policy_dirs *d = find_policy_dirs(r);
	char bad[PATH_MAX] = "";
	struct stat st, up;
	int parent, found = 0;
	size_t i;

	for (;;) {
		if (fstat(dirfd, &st))
			die_errno("cannot check a policy's directory");
		if (!own_directory(&st) && !bad[0] && path_of_fd(dirfd, bad) < 0)
			join(bad, sizeof bad, "a directory above it", NULL);
		for (i = 0; i < d->n && !found; i++)
			found = d->dir[i].exists && d->dir[i].dev == st.st_dev &&
				d->dir[i].ino == st.st_ino;
		if (found)
			break;
		parent = openat(dirfd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (parent < 0 || fstat(parent, &up))
			die_errno("cannot check a policy's directory");
		close(dirfd);
		dirfd = parent;
		if (up.st_dev == st.st_dev && up.st_ino == st.st_ino)
			break;
	}
	close(dirfd);
	if (found && bad[0] && file)
		die("@%s: its directory %s is not yours or root's, or is writable by its group "
		    "or by others: keep policies where only you can change them (chmod go-w)",
		    file, bad);
	return found && !bad[0];
}

/* Where the caller keeps policies, for messages. */
static const char *policy_home(struct request *r)
{
	return find_policy_dirs(r)->dir[0].lookup.what;
}

/* @FILE's directory DIR must be in a policy directory. */
static void policy_in_dir(struct request *r, const char *file, const char *dir)
{
	int fd = openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		die_errno("cannot check the directory of @%s", file);
	if (!in_policy_dir(r, fd, file))
		die("@%s is not in a policy directory, where no run can change it: move it to "
		    "%s/ (or /etc/landlock-run/), owned by you and not writable by others",
		    file, policy_home(r));
}

/*
 * A policy is the caller's word, so only the caller (or root, who owns the
 * system anyway) may be able to change it: no other owner, no group or
 * other write bit, no second name that could sit in a writable tree; and
 * it lies in a policy directory, which no run may write. A pipe or socket
 * is read only as a descriptor the caller hands over (@/dev/stdin).
 */
void guard_policy(struct request *r, const char *file, int fd, const struct stat *st)
{
	char path[PATH_MAX];
	uid_t me = geteuid();
	char *slash;

	if (st->st_uid != me && st->st_uid != 0)
		die("@%s is owned by uid %u: a policy must belong to you or to root, so that no "
		    "one else can change it",
		    file, (unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		die("@%s is writable by its group or by others (mode %o): run chmod go-w on it",
		    file, (unsigned)(st->st_mode & 07777));
	if (S_ISDIR(st->st_mode)) {
		errno = EISDIR;
		die_errno("cannot read the argument file @%s", file);
	}
	if (!S_ISREG(st->st_mode)) {
		if ((S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode)) &&
		    (handed_fd(file) >= 0 || strcmp(file, "/dev/stdin") == 0))
			return; /* a pipe the caller feeds is in no tree */
		die("@%s is not a regular file: a policy is a file in %s or /etc/landlock-run, "
		    "or a pipe handed over (@/dev/stdin)",
		    file, policy_home(r));
	}
	if (st->st_nlink > 1)
		die("@%s has %u names (hard links); another could be in a tree the command can "
		    "write: give the policy a file of its own",
		    file, (unsigned)st->st_nlink);
	if (path_of_fd(fd, path) < 0 || !(slash = strrchr(path, '/')))
		die_errno("cannot tell where the argument file @%s is (/proc/self/fd)", file);
	slash[slash == path] = '\0';
	policy_in_dir(r, file, path);
	/* and where its name is, should that be a symlink to it */
	slash = strrchr(file, '/');
	if (slash)
		copy_span(path, sizeof path, file, slash == file ? 1 : (size_t)(slash - file));
	else
		join(path, sizeof path, ".", NULL);
	policy_in_dir(r, file, path);
	guard_lookup(new_guard(r, "@", file), file, SYMLINK_HOPS);
}

/*
 * A descriptor the caller hands over for the launcher's reports (WHAT):
 * made close-on-exec, so COMMAND never holds it; stdin, stdout and stderr,
 * which it does hold, are refused, and so is a copy of one of them (4>&1).
 */
void take_descriptor(int fd, const char *what, struct stat *st)
{
	struct stat std;
	int i;

	if (fd <= STDERR_FILENO)
		die("%s: descriptor %d is stdin, stdout or stderr, which COMMAND holds too: hand "
		    "over one above 2",
		    what, fd);
	if (fstat(fd, st))
		die_errno("%s", what);
	for (i = 0; i <= STDERR_FILENO; i++)
		if (fstat(i, &std) == 0 && std.st_dev == st->st_dev && std.st_ino == st->st_ino)
			die("%s: descriptor %d is the same %s as descriptor %d, which COMMAND "
			    "holds "
			    "too",
			    what, fd, S_ISFIFO(st->st_mode) ? "pipe" : "file", i);
	/* musl's fcntl() would bring its F_DUPFD emulation along */
	if (syscall(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC))
		die_errno("%s", what);
}

/*
 * The status descriptor (--status-fd FD, WHAT), when it is not a pipe or a
 * socket: a file the command must not be able to write, or it could append
 * a launcher failure of its own after the real lines. It is judged by the
 * inodes the lookup of its path goes through, as a report's is; a file
 * with a second name, or whose path no longer leads to it, cannot be.
 */
void guard_descriptor(struct request *r, int fd, const char *what, const struct stat *st)
{
	char path[PATH_MAX];
	struct guard *g;
	struct stat at;

	if (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode) || st->st_nlink == 0)
		return; /* a pipe, a socket, a file no path leads to any more */
	if (st->st_nlink > 1)
		die("%s: its file has %u names (hard links), and another could be in a tree "
		    "COMMAND can write: hand over a pipe (%d> >(cat >FILE)) or a file of its own",
		    what, (unsigned)st->st_nlink, fd);
	if (path_of_fd(fd, path) < 0 || path[0] != '/' || stat(path, &at) ||
	    at.st_dev != st->st_dev || at.st_ino != st->st_ino)
		die("%s: there is no telling where its file is (its path does not lead to it): "
		    "hand over a pipe or a socket (%d> >(cat >FILE))",
		    what, fd);
	g = new_guard(r, "", path);
	g->fd = fd;
	guard_lookup(g, path, 0);
}

/*
 * A report file is written beside its target and renamed over it once
 * complete (trace/report.c); here, before the command runs, the target is
 * checked: the last component is never followed (with --no-symlinks, no
 * component is), and what is there already must be a regular file of the
 * caller's. Its directory stays open for the tracer.
 */
void open_report(struct request *r, struct report_target *t, const char *option, const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct guard *g;
	struct stat st;
	int fd = handed_fd(path);

	t->option = option;
	t->path = path;
	t->fd = t->dir = -1;
	if (fd >= 0) {
		char what[64];

		join(what, sizeof what, option, " ", path, NULL);
		take_descriptor(fd, what, &st);
		if (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode))
			die("%s %s: descriptor %d is not a pipe or a socket (name a file instead)",
			    option, path, fd);
		t->fd = fd;
		return;
	}
	t->name = slash ? slash + 1 : path;
	if (!t->name[0] || strcmp(t->name, ".") == 0 || strcmp(t->name, "..") == 0)
		die("%s %s names a directory, not a file", option, path);
	if (slash)
		copy_span(dir, sizeof dir, path, slash == path ? 1 : (size_t)(slash - path));
	else
		join(dir, sizeof dir, ".", NULL);
	t->dir = open_at(AT_FDCWD, dir, O_PATH | O_DIRECTORY, r->no_symlinks);
	if (t->dir < 0 && r->no_symlinks && errno == ELOOP)
		die("%s %s goes through a symlink (--no-symlinks)", option, path);
	if (t->dir < 0)
		die_errno("cannot open the directory of %s %s", option, path);
	if (fstatat(t->dir, t->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode))
			die("%s %s is a symlink: a report is never written through one (remove it, "
			    "or name another path)",
			    option, path);
		if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
			die("%s %s exists and is not a regular file of yours: it is not replaced",
			    option, path);
	} else if (errno != ENOENT) {
		die_errno("cannot check %s %s", option, path);
	}
	g = new_guard(r, option, path);
	guard_lookup(g, path, 0);
	/* and the directory as opened, should the path have moved meanwhile */
	fd = openat(t->dir, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		die_errno("cannot check %s %s", option, path);
	add_ancestors(g, fd);
}

/*
 * --learn FILE writes a policy for @FILE, which reads one only from a policy
 * directory: FILE elsewhere (beside the work, in /tmp: trees the learned
 * policy is likely to grant) is said as COMMAND starts (trace.c, at its
 * exec) and again once it is written (only then, of a COMMAND that cannot
 * be executed), with where to move it. A pipe is the caller's to keep.
 */
void check_learn_target(struct request *r)
{
	const struct report_target *t = &r->learn_report;
	int dir;

	if (t->fd >= 0)
		return;
	dir = openat(t->dir, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		die_errno("cannot check the directory of --learn %s", t->path);
	r->learn_outside = !in_policy_dir(r, dir, NULL);
}

/* WHEN: "will be" before the run, "was" after. */
void learn_note(const struct request *r, const char *when)
{
	struct out o = {.fd = STDERR_FILENO, .escape = ESCAPE_CONTROL};

	if (!r->learn_outside)
		return;
	outf(&o,
	     "landlock-run --learn: %s %s written outside the policy directories, and @%s "
	     "refuses it there: move it to %s/ (or /etc/landlock-run/) to use it\n",
	     r->learn_report.path, when, r->learn_report.path, r->policy_dirs->dir[0].lookup.what);
	out_flush(&o);
}

/* A write grant on anything a guarded file's lookup goes through would let
 * the command replace the file, or redirect its path, for the next run. */
void check_guards(const struct request *r, const struct grant *g, int fd)
{
	const struct guard *guard;
	struct stat st;

	if (fstat(fd, &st))
		die_errno("cannot stat %s path %s", g->option, g->path);
	for (guard = r->guards; guard; guard = guard->next)
		if (has_inode(guard, &st) && guard->fd)
			die("--status-fd %d: %s %s lets COMMAND write its file %s, and forge the "
			    "status: hand over a pipe or a socket (%d> >(cat >FILE)), or a file "
			    "outside every --rw, --rw-try and --unix grant",
			    guard->fd, g->option, g->path, guard->what, guard->fd);
		else if (has_inode(guard, &st))
			die("%s %s would let COMMAND replace %s: keep it outside every --rw, "
			    "--rw-try and --unix grant",
			    g->option, g->path, guard->what);
}
