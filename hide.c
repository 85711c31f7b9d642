/*
 * --hide PATH: a subtree withheld from a readable tree. Landlock rules only
 * add rights, and a rule on a directory covers everything beneath it, so a
 * read-side grant G that holds a hidden path H adds no rule of its own:
 * each entry of each directory on the way from G down to H's parent gets
 * G's rights instead, all but the entry that leads to H. Hidden paths
 * beneath one grant share its walk. The directories on the way keep no
 * rights: they can be traversed (a lookup needs none) but not listed, and
 * what is made in them after launch is not readable.
 *
 * Paths are compared as canonical strings, as the kernel's walk up from a
 * file meets its directories, and by inode, as its rules are held: a rule
 * on an entry that is the same inode as a hidden path or a directory above
 * one (a hard link beside a hidden file, a bind mount of the home) would
 * grant the hidden path by its own name. Such an entry gets no rule; such a
 * grant is refused. A hard link or a bind mount of a hidden path beneath a
 * granted directory is another path, which no rule here withholds (the
 * README's limits).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fd.h"
#include "hide.h"
#include "out.h"
#include "where.h"

/* More entries than this in a directory on the way is refused: each costs
 * a rule, and a launch must not spend seconds on one huge directory. */
#define MAX_ENTRIES 16384

/* The largest record getdents64 makes (a name of NAME_MAX bytes): a listing
 * of a file system that fills the buffer while the next record fits (those
 * listing_tells_inodes names) is whole when it leaves room for one more. */
#define MAX_RECORD ((offsetof(struct dir_record, name) + NAME_MAX + 1 + 7) & ~(size_t)7)

/* Directories above a hidden path, itself included, at most. */
#define HIDDEN_DEPTH 256
#define HIDDEN_NAME  (2 * PATH_MAX + 48) /* name_inode's */

void add_hidden(struct request *r, const char *path)
{
	r->hidden[r->nhidden++].path = path;
	r->reads_confined = 1;
}

/* The rest of canonical path H beneath directory D (LEN bytes), or NULL
 * when H is not strictly beneath D. */
static const char *beneath(const char *h, const char *d, size_t len)
{
	if (len > 1 && (strncmp(h, d, len) || h[len] != '/'))
		return NULL;
	h += len + (len > 1); /* "/" ends in its slash */
	return *h ? h : NULL;
}

const struct hidden *hidden_at(const struct request *r, const char *canon)
{
	size_t i;

	for (i = 0; i < r->nhidden; i++)
		if (within(canon, r->hidden[i].canon))
			return &r->hidden[i];
	return NULL;
}

const struct hidden *hidden_beneath(const struct request *r, const char *canon)
{
	size_t i;

	for (i = 0; i < r->nhidden; i++)
		if (beneath(r->hidden[i].canon, canon, strlen(canon)))
			return &r->hidden[i];
	return NULL;
}

/*
 * The look for sockets beneath a hidden directory is bounded, so that a
 * launch never lists a whole tree: breadth first, down to SOCKET_DEPTH
 * levels (/run/user/UID/gnupg/S.gpg-agent is at level 2 of /run/user/UID),
 * SOCKET_DIRS directories listed (the hidden one among them: each costs
 * some 10-25 us, most of the walk) and SOCKET_ENTRIES entries at most,
 * never through a symlink nor into another mount (a FUSE daemon could keep
 * the launch waiting). Directories waiting for their turn are a depth byte
 * and a path each in SOCKET_QUEUE bytes; one that does not fit is not
 * listed.
 */
#define SOCKET_DEPTH   4
#define SOCKET_DIRS    16
#define SOCKET_ENTRIES 512
#define SOCKET_QUEUE   4096

struct socket_walk {
	char queue[SOCKET_QUEUE];
	size_t head, tail;
	int entries;
};

static void queue_dir(struct socket_walk *w, const char *path, int depth)
{
	size_t n = strlen(path) + 1;

	if (w->tail + 1 + n > sizeof w->queue)
		return;
	w->queue[w->tail] = (char)depth;
	memcpy(w->queue + w->tail + 1, path, n);
	w->tail += 1 + n;
}

/* The directory FD, REL beneath the hidden one and DEPTH levels down: 1 with
 * its first socket's path (from the hidden directory) in FOUND (PATH_MAX),
 * else 0 with its directories queued for the next level. */
static int list_for_socket(struct socket_walk *w, int fd, const char *rel, int depth, char *found)
{
	char buf[4096];
	long n, at;
	struct stat st;

	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
		for (at = 0; at < n; at += ((struct dir_record *)(buf + at))->reclen) {
			const struct dir_record *d = (const struct dir_record *)(buf + at);
			unsigned char type = d->type;

			if (!strcmp(d->name, ".") || !strcmp(d->name, ".."))
				continue;
			if (++w->entries > SOCKET_ENTRIES)
				return 0;
			if (type == DT_UNKNOWN)
				type = fstatat(fd, d->name, &st,
					       AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT)
					       ? DT_UNKNOWN
					       : IFTODT(st.st_mode);
			if (type != DT_SOCK && (type != DT_DIR || depth + 1 >= SOCKET_DEPTH))
				continue;
			join(found, PATH_MAX, rel, *rel ? "/" : "", d->name, NULL);
			if (type == DT_SOCK)
				return 1;
			queue_dir(w, found, depth + 1);
		}
	return 0;
}

/* A socket within the bound beneath the hidden directory TOP: 1 with its
 * path from TOP in FOUND (PATH_MAX), else 0. */
static int socket_beneath(int top, char *found)
{
	struct socket_walk w;
	const char *rel;
	int fd, depth, got, listed;

	w.head = w.tail = 0;
	w.entries = 0;
	got = list_for_socket(&w, top, "", 0, found);
	listed = 1;
	while (!got && listed < SOCKET_DIRS && w.head < w.tail && w.entries < SOCKET_ENTRIES) {
		depth = w.queue[w.head];
		rel = w.queue + w.head + 1;
		w.head += 1 + strlen(rel) + 1;
		fd = open_resolved(top, rel, O_RDONLY | O_DIRECTORY,
				   RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV);
		if (fd < 0)
			continue;
		got = list_for_socket(&w, fd, rel, depth, found);
		listed++;
		close(fd);
	}
	return got;
}

/* $SSH_AUTH_SOCK's canonical path into CANON (PATH_MAX), or 0. */
static int agent_socket(char *canon)
{
	const char *agent = getenv("SSH_AUTH_SOCK");
	int fd, ok;

	if (!agent || !*agent || (fd = open_at(AT_FDCWD, agent, O_PATH, 0)) < 0)
		return 0;
	ok = path_of_fd(fd, canon) >= 0;
	close(fd);
	return ok;
}

/*
 * Below ABI 9 Landlock does not control connecting to a pathname socket:
 * one beneath a hidden path stays reachable, an ssh-agent's among them.
 * Said on stderr, with the option that closes it, for a hidden path that is
 * a socket, holds one within the bound above, or holds $SSH_AUTH_SOCK.
 */
void warn_hidden_sockets(const struct policy *p)
{
	const struct request *r = &p->asked;
	struct out err;
	char agent[PATH_MAX], name[PATH_MAX];
	const char *what;
	int has_agent, fd;
	struct stat st;
	size_t i;

	if (!r->nhidden || (p->kernel.fs_abi & LANDLOCK_ACCESS_FS_RESOLVE_UNIX) ||
	    (p->kernel.refused & GROUP_UNIX))
		return;
	out_start(&err, STDERR_FILENO, ESCAPE_CONTROL);
	has_agent = agent_socket(agent);
	for (i = 0; i < r->nhidden; i++) {
		const struct hidden *h = &r->hidden[i];

		if (!h->exists || fstatat(AT_FDCWD, h->canon, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		what = S_ISSOCK(st.st_mode) ? "is a socket" : NULL;
		/* the agent first: it is named, and no walk is needed */
		if (!what && has_agent && within(agent, h->canon))
			what = "holds $SSH_AUTH_SOCK";
		if (!what && S_ISDIR(st.st_mode) &&
		    (fd = open_at(AT_FDCWD, h->canon, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0)) >=
			    0) {
			what = socket_beneath(fd, name) ? "holds the socket " : NULL;
			close(fd);
		}
		if (what)
			outf(&err,
			     "landlock-run hide: --hide %s%s %s%s, which ABI %d cannot withhold "
			     "(connecting to a socket needs ABI 9): add --no-unix\n",
			     h->path, h->implicit ? " (--private-tmp)" : "", what,
			     what[strlen(what) - 1] == ' ' ? name : "", p->kernel.abi);
	}
	out_flush(&err);
}

/* H's nearest existing ancestor, or H itself, opened as grants are; *REST
 * is what does not exist after it, as written. */
static int open_nearest(const struct hidden *h, int no_symlinks, const char **rest)
{
	char path[PATH_MAX];
	size_t cut = strlen(h->path);
	int fd = -1;

	errno = ENAMETOOLONG;
	if (cut < sizeof path)
		memcpy(path, h->path, cut + 1);
	while (cut < sizeof path) {
		*rest = h->path + cut;
		fd = open_at(AT_FDCWD, cut ? path : ".", O_PATH, no_symlinks);
		if (fd >= 0 || errno != ENOENT || cut == 0)
			break;
		while (cut > 0 && path[cut - 1] == '/')
			cut--;
		while (cut > 0 && path[cut - 1] != '/')
			cut--;
		path[cut] = '\0';
	}
	if (fd < 0 && no_symlinks && errno == ELOOP)
		die("cannot open %s path %s: it goes through a symlink (--no-symlinks)", "--hide",
		    h->path);
	if (fd < 0)
		die_errno("cannot open %s path %s", "--hide", h->path);
	return fd;
}

/*
 * CANON (LEN bytes, the directory FD) with the missing REST appended, one
 * component at a time. What a . or .. there, or a symlink to nothing, will
 * name once it exists cannot be told from here: refused.
 */
static void append_missing(const struct hidden *h, int fd, const char *rest, char *canon,
			   size_t len)
{
	struct stat st;
	size_t n;
	int dots;

	for (; *rest; rest += n + (rest[n] == '/')) {
		n = strcspn(rest, "/");
		if (n == 0)
			continue;
		errno = ENAMETOOLONG;
		if (len + 1 + n >= PATH_MAX)
			die_errno("cannot open %s path %s", "--hide", h->path);
		if (len > 1)
			canon[len++] = '/';
		copy_span(canon + len, PATH_MAX - len, rest, n);
		dots = rest[0] == '.' && (n == 1 || (n == 2 && rest[1] == '.'));
		if (dots || (fd >= 0 && fstatat(fd, canon + len, &st, AT_SYMLINK_NOFOLLOW) == 0))
			die("--hide %s: %s %s", h->path, canon,
			    dots ? "follows a path that does not exist"
				 : "is a symlink to a path that does not exist (hide its target)");
		len += n;
		fd = -1; /* only the first can be a symlink: the others are missing */
	}
}

static const struct hidden_inode *find_inode(const struct request *r, dev_t dev, ino_t ino)
{
	size_t i;

	for (i = 0; i < r->nhidden_inodes; i++)
		if (r->hidden_inodes[i].ino == ino && r->hidden_inodes[i].dev == dev)
			return &r->hidden_inodes[i];
	return NULL;
}

/* FD's directory: ".." of a directory, as Landlock walks up (across mount
 * points); the directory of a file by its canonical path CANON. */
static int open_up(int fd, const struct stat *st, const char *canon, size_t len)
{
	char dir[PATH_MAX];
	size_t n = len;

	if (S_ISDIR(st->st_mode))
		return openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	while (n > 1 && canon[n - 1] != '/')
		n--;
	copy_span(dir, sizeof dir, canon, n > 1 ? n - 1 : 1);
	return openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* The length of the canonical path one directory up from its first LEN bytes. */
static size_t up_len(const char *canon, size_t len)
{
	while (len > 1 && canon[len - 1] != '/')
		len--;
	return len > 1 ? len - 1 : 1;
}

/*
 * A walk up, as Landlock walks (".." crosses mount points as the kernel's
 * walk does): one fstatat of "..", "../.." and so on per level, not an open,
 * an fstat and a close; every UP_STEPS levels it opens where it is, to keep
 * the path short.
 */
#define UP_STEPS 64
struct up_walk {
	int fd;	   /* where the ".." chain starts, owned */
	int steps; /* its length; -1: the first step is fd itself */
	char path[UP_STEPS * 3];
};

/* A walk up from FD (taken, whose mode ST has; canonical path CANON, LEN
 * bytes): a file's first step is its directory by its canonical path. */
static int up_begin(struct up_walk *walk, int fd, const struct stat *st, const char *canon,
		    size_t len)
{
	walk->fd = fd;
	walk->steps = 0;
	if (S_ISDIR(st->st_mode))
		return 0;
	walk->fd = open_up(fd, st, canon, len);
	walk->steps = -1;
	close(fd);
	return walk->fd < 0 ? -1 : 0;
}

/* One level up, into ST: 0, or -1 with errno set. */
static int up_step(struct up_walk *walk, struct stat *st)
{
	int fd;

	if (walk->steps < 0) {
		walk->steps = 0;
		return fstat(walk->fd, st);
	}
	if (walk->steps == UP_STEPS) {
		if ((fd = openat(walk->fd, walk->path, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
			return -1;
		close(walk->fd);
		walk->fd = fd;
		walk->steps = 0;
	}
	if (walk->steps)
		walk->path[walk->steps * 3 - 1] = '/';
	memcpy(walk->path + walk->steps++ * 3, "..", 3); /* "../.." for two */
	return fstatat(walk->fd, walk->path, st, AT_SYMLINK_NOFOLLOW);
}

/*
 * Hidden path I's inode (when it exists, SELF) and those of every directory
 * above it, FD (closed here) being the first, LEN bytes of its canon. A
 * directory met already, and everything above it, is there.
 */
static void add_inodes(struct request *r, size_t i, int fd, size_t len, int self)
{
	const struct hidden *h = &r->hidden[i];
	struct hidden_inode *hi;
	struct up_walk walk;
	struct stat st;

	if (fstat(fd, &st))
		die_errno("cannot open %s path %s", "--hide", h->path);
	for (;;) {
		hi = (struct hidden_inode *)find_inode(r, st.st_dev, st.st_ino);
		if (hi) {
			hi->self |= self;
			break;
		}
		if (r->nhidden_inodes == r->nhidden * HIDDEN_DEPTH)
			die("--hide %s: its path goes through more than %d directories", h->path,
			    HIDDEN_DEPTH);
		r->hidden_inodes[r->nhidden_inodes++] =
			(struct hidden_inode){st.st_dev, st.st_ino, i, len, self};
		if (len == 1)
			break; /* / is its own parent */
		if (fd >= 0 && up_begin(&walk, fd, &st, h->canon, len))
			die_errno("cannot open the directory above %s path %s", "--hide", h->path);
		fd = -1;
		self = 0;
		len = up_len(h->canon, len);
		if (up_step(&walk, &st))
			die_errno("cannot open the directory above %s path %s", "--hide", h->path);
	}
	close(fd >= 0 ? fd : walk.fd);
}

static void resolve_one(struct request *r, size_t i, char *canon)
{
	struct hidden *h = &r->hidden[i];
	const char *rest;
	int fd = open_nearest(h, r->no_symlinks, &rest), len = path_of_fd(fd, canon);

	if (len < 0) {
		need_proc("--hide", "name the paths it opens (/proc/self/fd)");
		die_errno("cannot open %s path %s", "--hide", h->path);
	}
	h->canon = canon;
	h->exists = *rest == '\0';
	append_missing(h, fd, rest, canon, (size_t)len);
	if (strcmp(canon, "/") == 0)
		die("--hide %s hides /: Landlock withholds a path by granting what is around it, "
		    "and nothing is around /",
		    h->path);
	add_inodes(r, i, fd, (size_t)len, h->exists);
}

void resolve_hidden(struct request *r)
{
	char *canon;
	size_t i;

	if (!r->nhidden)
		return;
	canon = mapped(r->nhidden * PATH_MAX, "the hidden paths");
	r->hidden_inodes = mapped(r->nhidden * HIDDEN_DEPTH * sizeof *r->hidden_inodes,
				  "the hidden paths' inodes");
	for (i = 0; i < r->nhidden; i++)
		resolve_one(r, i, canon + i * PATH_MAX);
}

/* The hidden path HI is, or the directory above one, for messages. */
static void name_inode(const struct request *r, const struct hidden_inode *hi, char *out)
{
	const struct hidden *h = &r->hidden[hi->hidden];

	char dir[PATH_MAX];

	copy_span(dir, sizeof dir, h->canon, hi->len);
	if (hi->self)
		join(out, HIDDEN_NAME, "--hide ", h->path, NULL);
	else
		join(out, HIDDEN_NAME, dir, ", a directory above --hide ", h->path, NULL);
}

/* ST is --private-tmp's /tmp, which a grant may lie within (only with
 * --private-tmp: a stat per implicit hidden path). */
static int implicit_inode(const struct request *r, const struct stat *st)
{
	struct stat h;
	size_t i;

	for (i = 0; i < r->nhidden; i++)
		if (r->hidden[i].implicit && stat(r->hidden[i].canon, &h) == 0 &&
		    h.st_dev == st->st_dev && h.st_ino == st->st_ino)
			return 1;
	return 0;
}

/*
 * A grant (canonical path CANON, LEN bytes) that is the same inode as a
 * hidden path or a directory above one, under another name (a hard link, a
 * bind mount), or lies beneath a hidden path through such a name, would
 * reveal it: its rule is on the inode. EXPANDED: it is walked around its
 * hidden paths, so only what is above it counts.
 */
static void check_alias(const struct request *r, const struct grant *g, int fd, char *canon,
			size_t len, int expanded)
{
	char name[HIDDEN_NAME];
	const struct hidden_inode *hi;
	struct up_walk walk;
	struct stat st;
	size_t at = len;

	if (fstat(fd, &st))
		die_errno("cannot check %s path %s", g->option, g->path);
	hi = find_inode(r, st.st_dev, st.st_ino);
	if (hi && (hi->self || !expanded)) {
		name_inode(r, hi, name);
		die("%s %s is the same %s as %s (a hard link or a bind mount): its rule would "
		    "reveal what is hidden; grant what is needed beside the hidden path instead",
		    g->option, g->path, S_ISDIR(st.st_mode) ? "directory" : "file", name);
	}
	/* and what is above it: a hidden path there is one it lies within */
	if (at <= 1)
		return;
	fd = dup(fd);
	if (fd < 0 || up_begin(&walk, fd, &st, canon, at))
		die_errno("cannot check %s path %s", g->option, g->path);
	while (at > 1) {
		at = up_len(canon, at);
		if (up_step(&walk, &st))
			die_errno("cannot check %s path %s", g->option, g->path);
		hi = find_inode(r, st.st_dev, st.st_ino);
		if (hi && hi->self && !implicit_inode(r, &st))
			die("%s %s is within --hide %s through %.*s (a bind mount): it would "
			    "reveal "
			    "what is hidden",
			    g->option, g->path, r->hidden[hi->hidden].path, (int)at, canon);
	}
	if (close(walk.fd))
		die_errno("cannot check %s path %s", g->option, g->path);
}

/*
 * Landlock cannot take back part of what a rule on a directory gives: a
 * grant within a hidden path would reveal it (which --private-tmp's /tmp
 * allows: the grant is what is asked for, the rest of /tmp stays hidden),
 * and the walk around a hidden path beneath a writable (or --unix)
 * directory would take away making files (or connecting to sockets made)
 * in the directories on the way.
 */
int grant_hides(const struct policy *p, const struct grant *g, int fd, char *canon)
{
	static const char *const why[GRANT_KINDS] = {
		[GRANT_RW] = "creating files in it",
		[GRANT_UNIX] = "connecting to sockets made in it later",
	};
	const struct request *r = &p->asked;
	size_t i, len;
	int found = 0;

	if (path_of_fd(fd, canon) < 0)
		die_errno("cannot read /proc/self/fd/%d for %s path %s", fd, g->option, g->path);
	len = strlen(canon);
	for (i = 0; i < r->nhidden; i++) {
		const struct hidden *h = &r->hidden[i];

		if (within(canon, h->canon) && !h->implicit)
			die("%s %s is within --hide %s: Landlock rules only add rights, so it "
			    "would reveal what is hidden",
			    g->option, g->path, h->path);
		if (!beneath(h->canon, canon, len))
			continue;
		if (why[g->kind])
			die("--hide %s is beneath %s %s: Landlock cannot withhold part of a "
			    "directory without taking away %s",
			    h->path, g->option, g->path, why[g->kind]);
		found = 1;
	}
	check_alias(r, g, fd, canon, len, found);
	return found;
}

/* Hidden path I is walked around unless another one hides it already: one
 * it is beneath, or the same path given earlier. */
static int walked(const struct request *r, size_t i)
{
	const char *h = r->hidden[i].canon;
	size_t j;

	for (j = 0; j < r->nhidden; j++)
		if (j != i && within(h, r->hidden[j].canon) &&
		    (j < i || strcmp(h, r->hidden[j].canon)))
			return 0;
	return 1;
}

/* The directory D (LEN bytes) is on the way to a hidden path walked before
 * hidden path I, within the same grant: it is listed already. */
static int listed(const struct request *r, size_t i, const char *d, size_t len)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (beneath(r->hidden[j].canon, d, len) && walked(r, j))
			return 1;
	return 0;
}

/* The entry NAME of directory D (LEN bytes) is a hidden path or holds one. */
static int leads_to_hidden(const struct request *r, const char *d, size_t len, const char *name)
{
	size_t n = strlen(name), i;

	for (i = 0; i < r->nhidden; i++) {
		const char *rest = beneath(r->hidden[i].canon, d, len);

		if (rest && strncmp(rest, name, n) == 0 && (rest[n] == '/' || rest[n] == '\0'))
			return 1;
	}
	return 0;
}

/* One grant's walk around the hidden paths beneath it. */
struct walk {
	const struct policy *p;
	int grant;  /* its descriptor, */
	size_t len; /* the length of its canonical path */
	uint64_t rights;
	hide_rule_fn *fn;
	void *ctx;
	struct out *verbose;
	size_t hidden; /* the hidden path walked now */
	struct fd_batch batch;
	size_t rules;
	dev_t dev;	/* of the directory listed now, */
	int listed_ino; /* whose listing tells each entry's inode as fstat would */
	int known_fs;	/* listed_ino is known for dev */
};

/* A directory gets every right of the grant, anything else its file rights
 * (the kernel refuses more). */
static int add_rule_on(struct walk *w, int fd, const struct stat *st)
{
	uint64_t rights = w->rights & (S_ISDIR(st->st_mode) ? ~0ULL : w->p->kernel.file_rights);

	if (!rights)
		return 0;
	w->rules++;
	return w->fn(w->ctx, fd, rights, w->hidden);
}

/* File systems whose listing gives each entry the inode number fstat
 * gives it, but at a mount point (overlayfs may not, nor may network
 * ones): there an entry's inode is known without a system call. */
static int listing_tells_inodes(int dir)
{
	static const long types[] = {0xEF53 /* ext2-4 */, 0x01021994 /* tmpfs */,
				     0x58465342 /* xfs */, 0x9123683E /* btrfs */};
	struct statfs fs;
	size_t i;

	if (fstatfs(dir, &fs))
		return 0;
	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if ((long)fs.f_type == types[i])
			return 1;
	return 0;
}

/* The entry D of DIR, without following a symlink; where the listing tells
 * inodes, without crossing into a mount (EXDEV), whose root it does not. */
static int open_entry(const struct walk *w, int dir, const struct dir_record *d)
{
	if (w->listed_ino)
		return open_resolved(dir, d->name, O_PATH | O_NOFOLLOW, RESOLVE_NO_XDEV);
	return open_at(dir, d->name, O_PATH | O_NOFOLLOW, 0);
}

/* A symlink gets nothing: a rule on it would be on the link itself, which no
 * access checks, and following it could grant the hidden path. Nor does an
 * entry that is a hidden path or a directory above one under another name
 * (a hard link, a bind mount): its rule would grant that. A file system
 * that does not tell the type or the inode in its listing, and a mount
 * point, cost an fstat. */
static void add_entry(struct walk *w, const struct hidden *h, size_t len, int dir,
		      const struct dir_record *d)
{
	struct stat st = {.st_mode = d->type == DT_DIR ? S_IFDIR : S_IFREG,
			  .st_dev = w->dev,
			  .st_ino = d->ino};
	const struct hidden_inode *hi;
	char name[HIDDEN_NAME];
	int fd = open_entry(w, dir, d), known = w->listed_ino && d->type != DT_UNKNOWN;

	if (made_room(&w->batch, fd))
		fd = open_entry(w, dir, d);
	if (fd < 0 && errno == EXDEV) { /* a mount point: its root is another inode */
		fd = openat(dir, d->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		known = 0;
	}
	if (fd < 0 && (errno == ENOENT || errno == EACCES))
		return; /* gone since the listing, or out of the caller's reach too */
	if (fd < 0 || (!known && fstat(fd, &st)))
		die_errno("--hide %s: cannot add a rule for %.*s/%s", h->path,
			  (int)(len > 1 ? len : 0), h->canon, d->name);
	hi = find_inode(&w->p->asked, st.st_dev, st.st_ino);
	if (hi && w->verbose) {
		name_inode(&w->p->asked, hi, name);
		outf(w->verbose,
		     "landlock-run hide: %.*s/%s is the same inode as %s: it gets no rule, so it "
		     "is hidden too\n",
		     (int)(len > 1 ? len : 0), h->canon, d->name, name);
	}
	if (!hi && !S_ISLNK(st.st_mode) && add_rule_on(w, fd, &st))
		die_errno("--hide %s: cannot add a rule for %.*s/%s", h->path,
			  (int)(len > 1 ? len : 0), h->canon, d->name);
	add_to_batch(&w->batch, fd);
}

/* The directory on the way (the first LEN bytes of H), opened from the
 * grant without following a symlink: its path was canonical. */
static int open_on_way(const struct walk *w, const char *h, size_t len)
{
	char rel[PATH_MAX] = ".";
	size_t start = w->len + (w->len > 1);

	if (len > w->len)
		copy_span(rel, sizeof rel, h + start, len - start);
	return open_at(w->grant, rel, O_RDONLY | O_DIRECTORY, 1);
}

/* Every entry of the directory on the way but symlinks and those that lead
 * to a hidden path. 0 when it does not exist: then nothing beneath it does. */
static int list_around(struct walk *w, const struct hidden *h, size_t len)
{
	char buf[8192];
	long n, off, entries = 0;
	struct stat st;
	int dir;

	dir = open_on_way(w, h->canon, len);
	if (made_room(&w->batch, dir)) /* under a low descriptor limit */
		dir = open_on_way(w, h->canon, len);
	if (dir < 0 && errno == ENOENT)
		return 0;
	if (dir < 0 && errno == EACCES)
		return 1; /* the caller cannot list it: nothing in it is granted */
	if (dir < 0 || fstat(dir, &st))
		die_errno("--hide %s: cannot list %.*s", h->path, (int)len, h->canon);
	if (!w->known_fs || st.st_dev != w->dev) /* one fstatfs per file system */
		w->listed_ino = listing_tells_inodes(dir);
	w->dev = st.st_dev;
	w->known_fs = 1;
	while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0) {
		for (off = 0; off < n; off += ((const struct dir_record *)(buf + off))->reclen) {
			const struct dir_record *d = (const void *)(buf + off);

			if (d->name[0] == '.' &&
			    (!d->name[1] || (d->name[1] == '.' && !d->name[2])))
				continue;
			if (++entries > MAX_ENTRIES)
				die("--hide %s: %.*s has more than %d entries, one rule each",
				    h->path, (int)len, h->canon, MAX_ENTRIES);
			if (d->type != DT_LNK &&
			    !leads_to_hidden(&w->p->asked, h->canon, len, d->name))
				add_entry(w, h, len, dir, d);
		}
		if (w->listed_ino && (size_t)n + MAX_RECORD <= sizeof buf) {
			n = 0; /* whole: the call that says so is saved */
			break;
		}
	}
	if (n < 0 || close(dir))
		die_errno("--hide %s: cannot list %.*s", h->path, (int)len, h->canon);
	return 1;
}

size_t expand_grant(const struct policy *p, int fd, const char *canon, uint64_t rights,
		    hide_rule_fn *fn, void *ctx, struct out *verbose)
{
	const struct request *r = &p->asked;
	struct walk w = {p, fd, strlen(canon), rights, fn, ctx, verbose, 0, {.n = 0}, 0, 0, 0, 0};
	const char *h, *slash;
	size_t len;

	for (; w.hidden < r->nhidden; w.hidden++) {
		h = r->hidden[w.hidden].canon;
		if (!beneath(h, canon, w.len) || !walked(r, w.hidden))
			continue;
		/* G, then each directory below it down to H's parent */
		for (len = w.len;; len = (size_t)(slash - h)) {
			if (!listed(r, w.hidden, h, len) &&
			    !list_around(&w, &r->hidden[w.hidden], len))
				break;
			slash = strchr(h + len + (len > 1), '/');
			if (!slash)
				break;
		}
	}
	close_batch(&w.batch);
	return w.rules;
}
