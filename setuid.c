/*
 * Root's setuid and setgid files beneath write grants (issue 27). The
 * kernel takes the bits away when a process without CAP_FSETID changes a
 * file by write(2) or a truncate, not when it stores through a MAP_SHARED
 * mapping, and no seccomp filter can tell which file a mapping is of. So
 * where the command can be root (the baseline then refuses it setuid
 * modes), each write grant is searched for them before any rule is added
 * and walked around them as --hide's grants are (hide.c): the grant keeps
 * all but writing, truncating and moving files across directories on
 * itself, which covers the directories on the way and the files; every
 * other entry of those directories gets all of it. Opening one for writing
 * is EACCES; it can still be read, run, removed or replaced in its
 * directory (a replacement is never setuid: the baseline refuses the
 * mode). Landlock's refer rule keeps a rename or link from taking one where
 * it would be writable; withholding refer as well keeps a process left by
 * an earlier run from moving one between directories while this run's
 * search lists them. The cost: files made later in a directory on the way
 * cannot be written.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fd.h"
#include "hide.h"
#include "out.h"
#include "setuid.h"

/* Setuid files beneath the write grants, at most: each costs a walk. */
#define MAX_SETUID 4096
/* Directories below a grant, at most (a name and its slash each). */
#define SCAN_DEPTH (PATH_MAX / 2)

/* What the kernel takes away on write(2) (should_remove_suid): setgid
 * without group execute is mandatory locking, not a privilege. Only root's
 * own counts, or, with --keep-caps (CAP_DAC_OVERRIDE), any. Another owner's
 * gives only that owner's ids, which the owner chose; one its group or
 * anyone may write is open to them outside any sandbox already, and
 * counting it would let any user (a 4777 file in /tmp) take creating files
 * in a directory from root's runs. */
static int privileged(const struct stat *st, int keep_caps)
{
	mode_t mode = st->st_mode;

	return S_ISREG(mode) &&
	       ((mode & S_ISUID) || (mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP)) &&
	       (st->st_uid == 0 || keep_caps);
}

/* Listings held at once (the directories from the grant down to where the
 * search is), at most; and how often one grant's search starts again
 * because its tree changed under it. */
#define LISTINGS (64 << 20)
#define RESTARTS 16
/* The largest record getdents64 makes (a name of NAME_MAX bytes). */
#define MAX_RECORD ((offsetof(struct dir_record, name) + NAME_MAX + 1 + 7) & ~(size_t)7)

enum fs_kind { FS_OTHER, FS_FILLS, FS_SKIPPED }; /* fs_kind() */

/* One directory being searched: its whole listing, read before any entry
 * is looked at. Read in one getdents64 call it is one snapshot (the kernel
 * holds the directory against renames in it for the call); one read in
 * several is taken only if the directory did not change meanwhile. */
struct level {
	int fd;
	size_t base, n, off; /* the listing: s->listings + base, n bytes */
	size_t len;	     /* of its canonical path in scan.path */
	dev_t dev;
	enum fs_kind fs;
};

struct scan {
	const struct grant *g;
	struct targets *t;
	char *names; /* the targets' canonical paths, one after another */
	size_t used;
	char path[PATH_MAX];
	struct level *levels;
	int depth;
	char *listings;
	size_t top;
	int changed; /* an entry listed was gone when looked at */
	int keep_caps;
	long files; /* regular files looked at, for -v */
};

/* What the file system of FD is to the search: skipped where nothing is a
 * program a mapping can rewrite (the kernel's own views); FILLS where a
 * getdents64 call fills what it is given, so a listing that leaves room
 * for one more record is whole (hide.c's list). */
static enum fs_kind fs_kind(int fd)
{
	static const long fills[] = {0xEF53 /* ext2-4 */, 0x01021994 /* tmpfs */,
				     0x58465342 /* xfs */, 0x9123683E /* btrfs */};
	struct statfs fs;
	size_t i;

	if (fstatfs(fd, &fs))
		return FS_OTHER;
	if ((long)fs.f_type == 0x9fa0 /* proc */ || (long)fs.f_type == 0x62656572 /* sysfs */)
		return FS_SKIPPED;
	for (i = 0; i < sizeof fills / sizeof fills[0]; i++)
		if ((long)fs.f_type == fills[i])
			return FS_FILLS;
	return FS_OTHER;
}

/* PATH (the directory's, LEN bytes) joined with NAME into S->path. */
static size_t append(struct scan *s, size_t len, const char *name)
{
	size_t n = strlen(name);

	if (len + 1 + n >= PATH_MAX)
		die("%s %s: %.*s/%s is longer than PATH_MAX: its setuid files cannot be withheld "
		    "from writing",
		    s->g->option, s->g->path, (int)len, s->path, name);
	if (len > 1)
		s->path[len++] = '/';
	memcpy(s->path + len, name, n + 1);
	return len + n;
}

static void add_target(struct scan *s, int dir, const char *name, size_t len)
{
	struct hidden *h;
	size_t end = append(s, len, name);
	int fd;

	if (s->t->n == MAX_SETUID)
		die("%s %s: more than %d setuid or setgid files beneath the write grants: grant "
		    "narrower trees",
		    s->g->option, s->g->path, MAX_SETUID);
	fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		s->changed = 1;
		return;
	}
	if (fd < 0)
		die_errno("cannot open the setuid file %s", s->path);
	h = &s->t->paths[s->t->n++];
	h->canon = h->path = memcpy(s->names + s->used, s->path, end + 1);
	h->exists = 1;
	h->rules = 0;
	s->used += end + 1;
	if (add_target_inodes(s->t, s->t->n - 1, fd, end, 1)) {
		if (errno != ENOENT && errno != ENOTDIR)
			die_errno("cannot open the directories above the setuid file %s", s->path);
		s->changed = 1; /* one of them renamed since it was listed */
	}
	s->path[len] = '\0';
}

/* The whole listing of L's directory (whose status is ST), at the top. */
static void read_listing(struct scan *s, struct level *l, const struct stat *st)
{
	struct stat now;
	long n;
	int reads, tries;

	for (tries = 0; tries < RESTARTS; tries++) {
		l->base = s->top;
		l->n = 0;
		reads = 0;
		while ((n = syscall(SYS_getdents64, l->fd, s->listings + l->base + l->n,
				    LISTINGS - l->base - l->n)) > 0) {
			l->n += (size_t)n;
			reads++;
			if (l->fs == FS_FILLS && l->base + l->n + MAX_RECORD <= LISTINGS) {
				n = 0; /* whole: the call that says so is saved */
				break;
			}
		}
		if (n < 0 && errno == EINVAL)
			die("%s %s: the directories down to %s list more than %d MiB at once",
			    s->g->option, s->g->path, s->path, LISTINGS >> 20);
		if (n < 0 || (reads > 1 && fstat(l->fd, &now)))
			die_errno("cannot search %s for setuid files", s->path);
		if (reads <= 1 || (now.st_ctim.tv_sec == st->st_ctim.tv_sec &&
				   now.st_ctim.tv_nsec == st->st_ctim.tv_nsec))
			break;
		if (lseek(l->fd, 0, SEEK_SET))
			die_errno("cannot search %s for setuid files", s->path);
		st = &now;
	}
	if (tries == RESTARTS)
		die("%s %s: %s kept changing while it was searched for setuid files", s->g->option,
		    s->g->path, s->path);
	s->top = l->base + l->n;
}

/* The directory opened as FD (taken), LEN bytes of S->path, listed next. */
static void push(struct scan *s, int fd, size_t len)
{
	struct level *l;
	struct stat st;
	enum fs_kind kind;

	if (s->depth == SCAN_DEPTH)
		die("%s %s: %s is more than %d directories deep", s->g->option, s->g->path, s->path,
		    SCAN_DEPTH);
	if (fstat(fd, &st))
		die_errno("cannot search %s for setuid files", s->path);
	/* one fstatfs per mount crossed */
	kind = s->depth && st.st_dev == s->levels[s->depth - 1].dev ? s->levels[s->depth - 1].fs
								    : fs_kind(fd);
	if (kind == FS_SKIPPED) {
		close(fd);
		return;
	}
	l = &s->levels[s->depth++];
	l->fd = fd;
	l->off = 0;
	l->len = len;
	l->dev = st.st_dev;
	l->fs = kind;
	read_listing(s, l, &st);
}

/* A directory the launcher cannot list: when it cannot search it either,
 * neither can the command, which has no more powers; else refused. */
static void unlistable(struct scan *s, int dir, const char *name, size_t len)
{
	int fd = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), in = -1;

	append(s, len, name);
	if (fd >= 0)
		in = openat(fd, ".", O_PATH | O_CLOEXEC);
	if (fd >= 0 && in < 0 && errno == EACCES) {
		close(fd);
		s->path[len] = '\0';
		return;
	}
	die("%s %s: cannot list %s to withhold its setuid files from writing (it can be "
	    "searched): grant narrower trees",
	    s->g->option, s->g->path, s->path);
}

/* One entry of the directory on top: a subdirectory is pushed, a file
 * that is setuid or setgid kept. A symlink is never followed: Landlock
 * checks the path it leads to. An entry gone since the listing may have
 * been renamed to a name the listing does not hold: the search starts
 * again. */
static void visit(struct scan *s, const struct dir_record *d)
{
	struct level *l = &s->levels[s->depth - 1];
	unsigned char type = d->type;
	struct stat st;
	int fd;

	if (d->name[0] == '.' && (!d->name[1] || (d->name[1] == '.' && !d->name[2])))
		return;
	if (type != DT_DIR && type != DT_REG && type != DT_UNKNOWN)
		return;
	if (type != DT_DIR) {
		s->files++;
		if (fstatat(l->fd, d->name, &st, AT_SYMLINK_NOFOLLOW)) {
			if (errno != ENOENT)
				die_errno("cannot search %s/%s for setuid files", s->path, d->name);
			s->changed = 1;
			return;
		}
		if (privileged(&st, s->keep_caps))
			add_target(s, l->fd, d->name, l->len);
		if (!S_ISDIR(st.st_mode))
			return;
	}
	fd = openat(l->fd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)) {
		s->changed = 1; /* gone, or no longer a directory */
		return;
	}
	if (fd < 0 && errno == EACCES) {
		unlistable(s, l->fd, d->name, l->len);
		return;
	}
	if (fd < 0)
		die_errno("cannot search %s/%s for setuid files", s->path, d->name);
	push(s, fd, append(s, l->len, d->name));
}

/* Every directory beneath the grant FD at CANON, depth first, once
 * through without the tree changing under it. */
static void search(struct scan *s, int grant, const char *canon)
{
	size_t len = strlen(canon), n = s->t->n, inodes = s->t->ninodes, used = s->used;
	struct level *l;
	const struct dir_record *d;
	int tries, fd;

	for (tries = 0; tries < RESTARTS; tries++) {
		s->changed = 0;
		s->t->n = n;
		s->t->ninodes = inodes;
		s->used = used;
		memcpy(s->path, canon, len + 1);
		fd = openat(grant, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			die_errno("cannot search %s %s for setuid files", s->g->option, s->g->path);
		push(s, fd, len);
		while (s->depth && !s->changed) {
			l = &s->levels[s->depth - 1];
			s->path[l->len] = '\0';
			if (l->off == l->n) {
				close(l->fd);
				s->top = l->base;
				s->depth--;
				continue;
			}
			d = (const struct dir_record *)(s->listings + l->base + l->off);
			l->off += d->reclen;
			visit(s, d);
		}
		for (; s->depth; s->depth--)
			close(s->levels[s->depth - 1].fd);
		s->top = 0;
		if (!s->changed)
			return;
	}
	die("%s %s: the tree kept changing while it was searched for setuid files", s->g->option,
	    s->g->path);
}

/* Grant I is searched: it has a right withheld, exists, and no other
 * searched grant holds it (the same path counts once). */
static int searched(const struct policy *p, size_t i, const char *canon, char (*canons)[PATH_MAX])
{
	const struct request *r = &p->asked;
	size_t j;

	if (!(p->kernel.grant_rights[r->grants[i].kind] & SETUID_WITHHELD) || !canons[i][0])
		return 0;
	for (j = 0; j < r->ngrants; j++)
		if (j != i && canons[j][0] &&
		    (p->kernel.grant_rights[r->grants[j].kind] & SETUID_WITHHELD) &&
		    within(canon, canons[j]) && (j < i || strcmp(canon, canons[j])))
			return 0;
	return 1;
}

/* A write grant that is itself a setuid file (ST). */
static void file_grant(struct scan *s, const struct stat *st, const char *canon)
{
	size_t len = strlen(canon), cut = len;
	int dir;

	if (!privileged(st, s->keep_caps))
		return;
	while (cut > 1 && canon[cut - 1] != '/')
		cut--;
	memcpy(s->path, canon, len + 1);
	s->path[cut > 1 ? cut - 1 : 1] = '\0';
	dir = open(s->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		die_errno("cannot open the directory of %s %s", s->g->option, s->g->path);
	add_target(s, dir, canon + cut, cut > 1 ? cut - 1 : 1);
	close(dir);
}

/*
 * CANON again, not through a symlink (one swapped in since it was read
 * would take the search elsewhere): openat2 refusing every symlink, or,
 * where a filter gives that ENOSYS (this launcher's own baseline, around a
 * nested one), an openat whose descriptor must read back as CANON.
 */
static int reopen_canonical(const char *canon)
{
	char back[PATH_MAX];
	int fd = open_at(AT_FDCWD, canon, O_PATH | O_NOFOLLOW, 1);

	if (fd >= 0 || errno != ENOSYS)
		return fd;
	fd = open_at(AT_FDCWD, canon, O_PATH | O_NOFOLLOW, 0);
	if (fd < 0 || (path_of_fd(fd, back) >= 0 && strcmp(back, canon) == 0))
		return fd;
	close(fd);
	errno = ELOOP;
	return -1;
}

void find_setuid(struct policy *p)
{
	struct request *r = &p->asked;
	struct targets *t = &r->setuid;
	struct scan s = {.t = t, .keep_caps = r->keep_caps};
	char(*canons)[PATH_MAX];
	struct stat st;
	size_t i, keep, scratch;
	int fd;

	if (!(p->kernel.refused & GROUP_METADATA) || (r->learn && !r->nhidden))
		return;
	for (i = 0; i < r->ngrants; i++)
		if (p->kernel.grant_rights[r->grants[i].kind] & SETUID_WITHHELD)
			break;
	if (i == r->ngrants)
		return; /* no write grant: no search, no cost */
	*t = (struct targets){.withheld = SETUID_WITHHELD, .files = 1, .option = "setuid file"};
	/* One mapping, touched only as far as it is used: what the walk reads
	 * later, then what the search alone needs, let go after it. */
	keep = MAX_SETUID * (sizeof *t->paths + HIDDEN_DEPTH * sizeof *t->inodes + PATH_MAX);
	scratch = SCAN_DEPTH * sizeof *s.levels + LISTINGS + r->ngrants * PATH_MAX;
	t->paths = mapped(keep + scratch, "the search for setuid files");
	t->inodes = (struct hidden_inode *)(t->paths + MAX_SETUID);
	s.names = (char *)(t->inodes + MAX_SETUID * HIDDEN_DEPTH);
	s.levels = (struct level *)(s.names + MAX_SETUID * PATH_MAX);
	s.listings = (char *)(s.levels + SCAN_DEPTH);
	canons = (char(*)[PATH_MAX])(s.listings + LISTINGS);
	for (i = 0; i < r->ngrants; i++) {
		const struct grant *g = &r->grants[i];

		if (!(p->kernel.grant_rights[g->kind] & SETUID_WITHHELD))
			continue;
		fd = open_at(AT_FDCWD, g->path, O_PATH, r->no_symlinks);
		if (fd < 0)
			continue; /* build_ruleset says why, or skips a -try grant */
		if (path_of_fd(fd, canons[i]) < 0)
			die_errno("cannot read /proc/self/fd/%d for %s path %s", fd, g->option,
				  g->path);
		close(fd);
	}
	for (i = 0; i < r->ngrants; i++) {
		if (!searched(p, i, canons[i], canons))
			continue;
		s.g = &r->grants[i];
		fd = reopen_canonical(canons[i]);
		if (fd < 0 || fstat(fd, &st))
			die_errno("cannot open %s path %s", s.g->option, s.g->path);
		if (S_ISDIR(st.st_mode))
			search(&s, fd, canons[i]);
		else
			file_grant(&s, &st, canons[i]);
		close(fd);
	}
	r->setuid_searched = s.files;
	munmap(s.levels, scratch);
}
