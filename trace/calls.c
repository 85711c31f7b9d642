/*
 * The system calls the tracer watches: which Landlock rights each can be
 * refused (so the seccomp filter stops only those), where its path
 * arguments are, and what a finished call needed, worked out from the
 * tracee's memory and descriptors: the object and the directory whose
 * hierarchy the rights are checked on, a port, or a process signalled.
 *
 * Paths are resolved from outside through /proc: "/proc/TID/cwd/rel" and
 * "/proc/TID/fd/N/rel" reach what the tracee's own lookup reached, and
 * the link of a descriptor opened here gives the canonical path.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "../interp.h"
#include "../out.h"
#include "tracer.h"

#define FS(r)  LANDLOCK_ACCESS_FS_##r
#define NET(r) LANDLOCK_ACCESS_NET_##r
#define MAKE_ANY                                                                       \
	(FS(MAKE_CHAR) | FS(MAKE_DIR) | FS(MAKE_REG) | FS(MAKE_SOCK) | FS(MAKE_FIFO) | \
	 FS(MAKE_BLOCK) | FS(MAKE_SYM))
#define REMOVE_ANY (FS(REMOVE_DIR) | FS(REMOVE_FILE))
#define FS_ANY	   (~0U)
#define SIGNAL	   LANDLOCK_SCOPE_SIGNAL
#define ABSTRACT   LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET

typedef void find_fn(struct call_result *r, const struct call *c);
static find_fn find_open, find_exec, find_make, find_remove, find_move, find_object, find_ioctl,
	find_net, find_sendmsg, find_signal, find_attr;

/* Argument positions: F, P the descriptor (or dirfd) and path; F2, P2 the
 * second pair; FL the flags or mode. -1: none (AT_FDCWD, or fixed). */
#define ARGS(f, p, f2, p2, fl) f, p, f2, p2, fl
#define NONE		       -1

const int16_t call_nr[NCALLS] = {
#define NR_OF(name, nr) nr,
	WATCHED_CALLS(NR_OF)
#undef NR_OF
};

/* One row per call: how to read it, and what it may be refused. */
const struct call calls[NCALLS] = {
	[CALL_open] = {"open", find_open, 0, FS_ANY, ARGS(NONE, 0, NONE, NONE, 1), 0, 0, 0},
	[CALL_creat] = {"creat", find_open, 0, FS_ANY, ARGS(NONE, 0, NONE, NONE, NONE), 0, 0, 0},
	[CALL_openat] = {"openat", find_open, 0, FS_ANY, ARGS(0, 1, NONE, NONE, 2), 0, 0, 0},
	[CALL_openat2] = {"openat2", find_open, 0, FS_ANY, ARGS(0, 1, NONE, NONE, 2), 0, 0, 0},
	[CALL_execve] = {"execve", find_exec, 0, FS(EXECUTE) | FS(READ_FILE),
			 ARGS(NONE, 0, NONE, NONE, NONE), 0, 0, 0},
	[CALL_execveat] = {"execveat", find_exec, 0, FS(EXECUTE) | FS(READ_FILE),
			   ARGS(0, 1, NONE, NONE, 4), 0, 0, 0},
	[CALL_mkdir] = {"mkdir", find_make, FS(MAKE_DIR), FS(MAKE_DIR),
			ARGS(NONE, 0, NONE, NONE, NONE), 0, 0, 0},
	[CALL_mkdirat] = {"mkdirat", find_make, FS(MAKE_DIR), FS(MAKE_DIR),
			  ARGS(0, 1, NONE, NONE, NONE), 0, 0, 0},
	[CALL_mknod] = {"mknod", find_make, 0, MAKE_ANY, ARGS(NONE, 0, NONE, NONE, 1), 0, 0, 0},
	[CALL_mknodat] = {"mknodat", find_make, 0, MAKE_ANY, ARGS(0, 1, NONE, NONE, 2), 0, 0, 0},
	[CALL_symlink] = {"symlink", find_make, FS(MAKE_SYM), FS(MAKE_SYM),
			  ARGS(NONE, 1, NONE, NONE, NONE), 0, 0, 0},
	[CALL_symlinkat] = {"symlinkat", find_make, FS(MAKE_SYM), FS(MAKE_SYM),
			    ARGS(1, 2, NONE, NONE, NONE), 0, 0, 0},
	[CALL_unlink] = {"unlink", find_remove, FS(REMOVE_FILE), REMOVE_ANY,
			 ARGS(NONE, 0, NONE, NONE, NONE), 0, 0, 0},
	[CALL_unlinkat] = {"unlinkat", find_remove, FS(REMOVE_FILE), REMOVE_ANY,
			   ARGS(0, 1, NONE, NONE, 2), 0, 0, 0},
	[CALL_rmdir] = {"rmdir", find_remove, FS(REMOVE_DIR), FS(REMOVE_DIR),
			ARGS(NONE, 0, NONE, NONE, NONE), 0, 0, 0},
	[CALL_rename] = {"rename", find_move, REMOVE_ANY, FS_ANY, ARGS(NONE, 0, NONE, 1, NONE), 0,
			 0, 0},
	[CALL_renameat] = {"renameat", find_move, REMOVE_ANY, FS_ANY, ARGS(0, 1, 2, 3, NONE), 0, 0,
			   0},
	[CALL_renameat2] = {"renameat2", find_move, REMOVE_ANY, FS_ANY, ARGS(0, 1, 2, 3, 4), 0, 0,
			    0},
	[CALL_link] = {"link", find_move, 0, FS_ANY, ARGS(NONE, 0, NONE, 1, NONE), 0, 0, 0},
	[CALL_linkat] = {"linkat", find_move, 0, FS_ANY, ARGS(0, 1, 2, 3, 4), 0, 0, 0},
	[CALL_truncate] = {"truncate", find_object, FS(TRUNCATE), FS(TRUNCATE),
			   ARGS(NONE, 0, NONE, NONE, NONE), 0, 0, 0},
	[CALL_ftruncate] = {"ftruncate", find_object, FS(TRUNCATE), FS(TRUNCATE),
			    ARGS(0, NONE, NONE, NONE, NONE), 0, 0, 0},
	[CALL_ioctl] = {"ioctl", find_ioctl, FS(IOCTL_DEV), FS(IOCTL_DEV),
			ARGS(0, NONE, NONE, NONE, NONE), 0, 0, 0},
	[CALL_bind] = {"bind", find_net, 0, FS(MAKE_SOCK), ARGS(0, 1, NONE, NONE, 2),
		       NET(BIND_TCP) | NET(BIND_UDP), 0, 0},
	[CALL_connect] = {"connect", find_net, 0, FS(RESOLVE_UNIX), ARGS(0, 1, NONE, NONE, 2),
			  NET(CONNECT_TCP) | NET(CONNECT_SEND_UDP) | NET(BIND_UDP), ABSTRACT, 0},
	[CALL_sendto] = {"sendto", find_net, 0, FS(RESOLVE_UNIX), ARGS(0, 4, NONE, NONE, 5),
			 NET(CONNECT_SEND_UDP) | NET(BIND_UDP), ABSTRACT, 0},
	[CALL_sendmsg] = {"sendmsg", find_sendmsg, 0, FS(RESOLVE_UNIX),
			  ARGS(0, 1, NONE, NONE, NONE), NET(CONNECT_SEND_UDP) | NET(BIND_UDP),
			  ABSTRACT, 0},
	[CALL_kill] = {"kill", find_signal, 0, 0, ARGS(0, NONE, NONE, NONE, NONE), 0, SIGNAL, 0},
	[CALL_tkill] = {"tkill", find_signal, 0, 0, ARGS(0, NONE, NONE, NONE, NONE), 0, SIGNAL, 0},
	[CALL_tgkill] = {"tgkill", find_signal, 0, 0, ARGS(0, NONE, NONE, NONE, NONE), 0, SIGNAL,
			 0},
	[CALL_rt_sigqueueinfo] = {"rt_sigqueueinfo", find_signal, 0, 0,
				  ARGS(0, NONE, NONE, NONE, NONE), 0, SIGNAL, 0},
	[CALL_rt_tgsigqueueinfo] = {"rt_tgsigqueueinfo", find_signal, 0, 0,
				    ARGS(0, NONE, NONE, NONE, NONE), 0, SIGNAL, 0},
	[CALL_pidfd_send_signal] = {"pidfd_send_signal", find_signal, 0, 0,
				    ARGS(0, NONE, NONE, NONE, NONE), 0, SIGNAL, 0},
	/* No Landlock right: only a capability the launcher dropped refuses
	 * them where the caller's own powers would not (the owner or group
	 * asked, or the times, are the argument after the file). */
	[CALL_chown] = {"chown", find_attr, 0, 0, ARGS(NONE, 0, NONE, NONE, NONE), 0, 0,
			CAP_CHOWN_BIT},
	[CALL_fchown] = {"fchown", find_attr, 0, 0, ARGS(0, NONE, NONE, NONE, NONE), 0, 0,
			 CAP_CHOWN_BIT},
	[CALL_lchown] = {"lchown", find_attr, 0, 0, ARGS(NONE, 0, NONE, NONE, NONE), 0, 0,
			 CAP_CHOWN_BIT},
	[CALL_fchownat] = {"fchownat", find_attr, 0, 0, ARGS(0, 1, NONE, NONE, 4), 0, 0,
			   CAP_CHOWN_BIT},
	[CALL_chmod] = {"chmod", find_attr, 0, 0, ARGS(NONE, 0, NONE, NONE, NONE), 0, 0,
			CAP_FOWNER_BIT},
	[CALL_fchmod] = {"fchmod", find_attr, 0, 0, ARGS(0, NONE, NONE, NONE, NONE), 0, 0,
			 CAP_FOWNER_BIT},
	[CALL_fchmodat] = {"fchmodat", find_attr, 0, 0, ARGS(0, 1, NONE, NONE, NONE), 0, 0,
			   CAP_FOWNER_BIT},
	[CALL_fchmodat2] = {"fchmodat2", find_attr, 0, 0, ARGS(0, 1, NONE, NONE, 3), 0, 0,
			    CAP_FOWNER_BIT},
	[CALL_utime] = {"utime", find_attr, 0, 0, ARGS(NONE, 0, NONE, NONE, NONE), 0, 0,
			CAP_FOWNER_BIT},
	[CALL_utimes] = {"utimes", find_attr, 0, 0, ARGS(NONE, 0, NONE, NONE, NONE), 0, 0,
			 CAP_FOWNER_BIT},
	[CALL_futimesat] = {"futimesat", find_attr, 0, 0, ARGS(0, 1, NONE, NONE, NONE), 0, 0,
			    CAP_FOWNER_BIT},
	[CALL_utimensat] = {"utimensat", find_attr, 0, 0, ARGS(0, 1, NONE, NONE, 3), 0, 0,
			    CAP_FOWNER_BIT},
};

/* The object a call's descriptor and path arguments name (a path argument
 * that cannot be read makes the call fail with EFAULT: nothing to say). */
static int target(struct target *o, struct call_result *r, int fd_arg, int path_arg, int follow)
{
	char path[PATH_MAX];
	long dirfd = fd_arg >= 0 ? (long)r->args[fd_arg] : AT_FDCWD;

	int ret;

	if (path_arg >= 0 && read_string(r->tid, r->args[path_arg], path)) {
		r->unseen |= errno == EPERM;
		return -1;
	}
	ret = tracee_target(o, r->tid, dirfd, path_arg >= 0 ? path : NULL, follow);
	r->unseen |= o->unseen;
	return ret;
}

/* FIRST: the kernel refuses it before Landlock is asked (may_open's
 * noexec check, the protected_* sysctls), so it is no denial to explain. */
static void add_fs(struct call_result *r, uint64_t rights, const char *object, const char *anchor,
		   int first)
{
	struct need *n = &r->needs[r->nneeds];

	if (!rights || r->nneeds == MAX_NEEDS)
		return;
	n->kind = NEED_FS;
	n->rights = rights;
	n->first = first;
	join(n->object, sizeof n->object, object, NULL);
	join(n->anchor, sizeof n->anchor, anchor, NULL);
	r->nneeds++;
}

/* A number from a file of /proc/sys, or 0. */
static long sysctl(const char *file)
{
	char buf[24];
	int fd = openat(AT_FDCWD, file, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return strtol(buf, NULL, 10);
}

/* fs.protected_regular and protected_fifos: an O_CREAT open of someone
 * else's existing file or FIFO in a sticky directory someone else owns,
 * world-writable (level 1) or group-writable (level 2), is EACCES. */
static int protected_in_sticky(const struct target *o)
{
	static const char *const sysctls[] = {"/proc/sys/fs/protected_regular",
					      "/proc/sys/fs/protected_fifos"};
	struct stat dir;
	long level;

	if ((!S_ISREG(o->st.st_mode) && !S_ISFIFO(o->st.st_mode)) || stat(o->parent, &dir) ||
	    !(dir.st_mode & S_ISVTX) || dir.st_uid == o->st.st_uid || o->st.st_uid == geteuid())
		return 0;
	level = sysctl(sysctls[S_ISFIFO(o->st.st_mode)]);
	return (level >= 1 && dir.st_mode & S_IWOTH) || (level >= 2 && dir.st_mode & S_IWGRP);
}

/* A file on a mount with noexec cannot be executed, whatever Landlock says. */
static int noexec(const char *path)
{
	struct statvfs fs;

	return statvfs(path, &fs) == 0 && fs.f_flag & ST_NOEXEC;
}

static void add_other(struct call_result *r, enum need_kind kind, uint64_t rights, long number,
		      const char *name)
{
	struct need *n = &r->needs[r->nneeds];

	if (r->nneeds == MAX_NEEDS)
		return;
	n->kind = kind;
	n->rights = rights;
	n->first = 0;
	n->number = number;
	join(n->object, sizeof n->object, name, NULL);
	n->anchor[0] = '\0';
	r->nneeds++;
}

/* A refusal a dropped capability may have made, on the file O: its owner
 * and group, and for chown those asked (perm.c decides, with the caller's
 * credentials). */
static void add_cap(struct call_result *r, uint32_t cap, const struct target *o, uint32_t uid,
		    uint32_t gid)
{
	struct need *n = &r->needs[r->nneeds];

	if (r->nneeds == MAX_NEEDS)
		return;
	add_other(r, NEED_CAP, cap, 0, o->object);
	n->uid = o->exists == 1 ? (uint32_t)o->st.st_uid : (uint32_t)-1;
	n->gid = o->exists == 1 ? (uint32_t)o->st.st_gid : (uint32_t)-1;
	n->new_uid = uid;
	n->new_gid = gid;
}

/* The make_* right for a file of MODE's type, and the remove_* right. */
static uint64_t make_right(mode_t mode)
{
	static const struct {
		mode_t type;
		uint64_t right;
	} types[] = {
		{S_IFDIR, FS(MAKE_DIR)},  {S_IFCHR, FS(MAKE_CHAR)},  {S_IFBLK, FS(MAKE_BLOCK)},
		{S_IFIFO, FS(MAKE_FIFO)}, {S_IFSOCK, FS(MAKE_SOCK)}, {S_IFLNK, FS(MAKE_SYM)},
	};
	size_t i;

	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if ((mode & S_IFMT) == types[i].type)
			return types[i].right;
	return FS(MAKE_REG); /* S_IFREG, and mknod's 0 */
}

static uint64_t remove_right(mode_t mode)
{
	return S_ISDIR(mode) ? FS(REMOVE_DIR) : FS(REMOVE_FILE);
}

/* The flags of an open: an argument, creat's fixed ones, or the first
 * field of openat2's struct open_how. -1: unreadable. */
static long open_flags(const struct call_result *r, const struct call *c)
{
	uint64_t how;

	if (c->flags < 0)
		return O_CREAT | O_WRONLY | O_TRUNC;
	if (r->call != CALL_openat2)
		return (long)r->args[c->flags];
	if (read_tracee(r->tid, r->args[c->flags], &how, sizeof how) != sizeof how)
		return -1;
	return (long)how;
}

/*
 * open(2) and friends: the access mode asks for reading and writing, O_TRUNC
 * of an existing file for truncate, O_CREAT of a missing one for make_reg in
 * its directory (--learn: of one missing at the call's entry).
 */
static void find_open(struct call_result *r, const struct call *c)
{
	long flags = open_flags(r, c), mode = flags & O_ACCMODE;
	uint64_t rights = 0;
	struct target o;
	int made;

	if (flags < 0 || flags & O_PATH || target(&o, r, c->fd, c->path, !(flags & O_NOFOLLOW)))
		return;
	/* O_TMPFILE: an unnamed file, written beneath the directory named */
	if ((flags & O_TMPFILE) == O_TMPFILE) {
		if (o.exists && S_ISDIR(o.st.st_mode))
			add_fs(r, FS(WRITE_FILE), o.object, o.object, 0);
		return;
	}
	made = flags & O_CREAT && (r->learning ? r->made : !o.exists);
	if (made)
		add_fs(r, FS(MAKE_REG), o.object, o.parent, 0);
	if (!o.exists || made)
		return; /* a new file: its directory's grant covers it */
	if (mode == O_RDONLY || mode == O_RDWR)
		rights |= S_ISDIR(o.st.st_mode) ? FS(READ_DIR) : FS(READ_FILE);
	if (mode == O_WRONLY || mode == O_RDWR)
		rights |= FS(WRITE_FILE);
	if (flags & O_TRUNC && S_ISREG(o.st.st_mode))
		rights |= FS(TRUNCATE);
	add_fs(r, rights, o.object, o.object, flags & O_CREAT && protected_in_sticky(&o));
}

/* The kernel opens the file and each interpreter it names for execute and
 * read: a #! line's, then the dynamic linker of that ELF file. OBJECT is
 * canonical, as the tracer sees it; an interpreter's path is the tracee's.
 * The chain stops at the first file the command could not open: nothing
 * the report names was unreadable to it. */
static void exec_chain(struct call_result *r, const char *object)
{
	char interp[PATH_MAX];
	struct target next;
	int fd, depth, found;

	add_fs(r, FS(EXECUTE) | FS(READ_FILE), object, object, noexec(object));
	join(next.object, sizeof next.object, object, NULL);
	for (depth = 0; depth < 2; depth++) {
		/* a file the command may not open (hidden, or outside the grants):
		 * the kernel read nothing in it, and neither does the tracer */
		if (r->readable && !r->readable(r->ctx, next.object))
			return;
		fd = open_regular(next.object, 0);
		if (fd < 0)
			return;
		found = read_interpreter(fd, interp, sizeof interp) &&
			tracee_target(&next, r->tid, AT_FDCWD, interp, 1) == 0 && next.exists;
		close(fd);
		if (!found)
			return;
		add_fs(r, FS(EXECUTE) | FS(READ_FILE), next.object, next.object,
		       noexec(next.object));
	}
}

static void find_exec(struct call_result *r, const struct call *c)
{
	struct target o;

	if (r->entry_path) {
		/* after a successful exec the path is gone from memory: read at entry */
		exec_chain(r, r->entry_path);
		return;
	}
	if (target(&o, r, c->fd, c->path, 1) == 0 && o.exists && S_ISREG(o.st.st_mode))
		exec_chain(r, o.object);
}

static void find_make(struct call_result *r, const struct call *c)
{
	struct target o;
	uint64_t right = c->right ? c->right : make_right((mode_t)r->args[c->flags]);

	if (target(&o, r, c->fd, c->path, 0))
		return;
	add_fs(r, right, o.object, o.parent, 0);
	/* Landlock allowed making the device (it refuses with EACCES, first):
	 * vfs_mknod asks for CAP_MKNOD next, but of no whiteout (0:0) */
	if (r->ret == -EPERM && right & (FS(MAKE_CHAR) | FS(MAKE_BLOCK)) &&
	    !(right == FS(MAKE_CHAR) && r->args[c->flags + 1] == 0))
		add_cap(r, CAP_MKNOD_BIT, &o, -1, -1);
}

static void find_remove(struct call_result *r, const struct call *c)
{
	struct target o;
	uint64_t right = c->right;

	if (c->flags >= 0 && r->args[c->flags] & AT_REMOVEDIR)
		right = FS(REMOVE_DIR);
	if (target(&o, r, c->fd, c->path, 0) == 0 && o.exists)
		add_fs(r, right, o.object, o.parent, 0);
}

/*
 * rename and link: making the file in the new directory, removing it from
 * the old one (rename), replacing what the new name held, and refer when
 * the directories differ. RENAME_EXCHANGE moves both ways.
 */
static void find_move(struct call_result *r, const struct call *c)
{
	struct target from, to;
	long flags = c->flags >= 0 ? (long)r->args[c->flags] : 0;
	int renaming = c->right != 0, exchange = renaming && flags & 2 /* RENAME_EXCHANGE */;
	int follow = !renaming && flags & AT_SYMLINK_FOLLOW;
	uint64_t old = 0, new = 0, refer = 0;

	if (target(&from, r, c->fd, c->path, follow) || target(&to, r, c->fd2, c->path2, 0))
		return;
	/* --learn sees a rename once it is done: the file is at its new name,
	 * and whether that name held another before is not known */
	if (!from.exists && r->learning && renaming && !exchange && to.exists) {
		from.st = to.st;
		to.exists = 0;
	} else if (!from.exists) {
		return;
	}
	new = make_right(from.st.st_mode);
	if (renaming)
		old = remove_right(from.st.st_mode);
	if (to.exists && renaming)
		new |= remove_right(to.st.st_mode);
	if (to.exists && exchange)
		old |= make_right(to.st.st_mode);
	if (strcmp(from.parent, to.parent) != 0) {
		refer = FS(REFER);
		r->move = MOVE | (S_ISDIR(from.st.st_mode) ? MOVE_DIR : 0) |
			  (renaming ? 0 : MOVE_LINK);
		if (to.exists && exchange)
			r->move |= MOVE_EXCHANGE | (S_ISDIR(to.st.st_mode) ? MOVE_BACK_DIR : 0);
	}
	add_fs(r, old | refer, from.object, from.parent, 0);
	add_fs(r, new | refer, to.object, to.parent, 0);
}

/* truncate, ftruncate: the file a path or descriptor names. */
static void find_object(struct call_result *r, const struct call *c)
{
	struct target o;

	if (target(&o, r, c->fd, c->path, 1) == 0 && o.exists)
		add_fs(r, c->right, o.object, o.object, 0);
}

/* Landlock controls ioctl only on devices opened inside the sandbox. */
static void find_ioctl(struct call_result *r, const struct call *c)
{
	struct target o;

	if (target(&o, r, c->fd, NONE, 1) == 0 && (S_ISCHR(o.st.st_mode) || S_ISBLK(o.st.st_mode)))
		add_fs(r, c->right, o.object, o.object, 0);
}

/* A pathname UNIX socket: bind makes it in its directory; connect and send
 * reach it (resolve_unix, ABI 9). An abstract one (@name) is a scope. */
static void unix_needs(struct call_result *r, const struct sockaddr_un *sa, size_t len)
{
	/* the kernel reads at most sun_path, whatever length the caller says */
	size_t n = len - offsetof(struct sockaddr_un, sun_path);
	char name[sizeof sa->sun_path + 1] = "@", path[sizeof sa->sun_path + 1];
	struct target o;

	n = n < sizeof sa->sun_path ? n : sizeof sa->sun_path;
	if (n == 0)
		return;
	if (sa->sun_path[0] == '\0') {
		/* an abstract name may hold any byte; the report escapes them */
		memcpy(name + 1, sa->sun_path + 1, n - 1);
		name[n] = '\0';
		/* number -1: a socket made inside (--learn); 0: one reached */
		add_other(r, NEED_SCOPE, ABSTRACT, r->call == CALL_bind ? -1 : 0, name);
		return;
	}
	copy_span(path, sizeof path, sa->sun_path, strnlen(sa->sun_path, n));
	if (tracee_target(&o, r->tid, AT_FDCWD, path, r->call != CALL_bind)) {
		r->unseen |= o.unseen; /* a non-dumpable process's socket is counted */
		return;
	}
	if (r->call == CALL_bind)
		add_fs(r, FS(MAKE_SOCK), o.object, o.parent, 0);
	else if (r->call != CALL_bind && o.exists == 1)
		add_fs(r, FS(RESOLVE_UNIX), o.object, o.object, 0);
}

/* The port right a call needs on a TCP or UDP socket: bind binds; connect,
 * and on UDP a send with an address, connect. */
static uint64_t port_right(int call, int udp)
{
	if (call == CALL_bind)
		return udp ? NET(BIND_UDP) : NET(BIND_TCP);
	if (call == CALL_connect)
		return udp ? NET(CONNECT_SEND_UDP) : NET(CONNECT_TCP);
	return udp ? NET(CONNECT_SEND_UDP) : 0;
}

static void address_needs(struct call_result *r, const struct call *c, uint64_t addr, uint64_t len)
{
	struct sockaddr_storage sa;
	int proto, bound = 1;
	uint64_t right;

	memset(&sa, 0, sizeof sa);
	if (!addr || len < sizeof sa.ss_family)
		return;
	len = len < sizeof sa ? len : sizeof sa; /* the kernel's own limit */
	if (read_tracee(r->tid, addr, &sa, len) != (ssize_t)len) {
		r->unseen |= errno == EPERM; /* a non-dumpable process's memory */
		return;
	}
	if (sa.ss_family == AF_UNIX)
		unix_needs(r, (const struct sockaddr_un *)&sa, len);
	if (sa.ss_family != AF_INET && sa.ss_family != AF_INET6)
		return;
	proto = socket_protocol(r->tid, (int)r->args[c->fd], &bound);
	right = proto ? port_right(r->call, proto == IPPROTO_UDP) : 0;
	/* sin_port and sin6_port are at the same place */
	if (right)
		add_other(r, NEED_NET, right, ntohs(((struct sockaddr_in *)&sa)->sin_port), "");
	/* an unbound UDP socket binds port 0, "any", before it connects or sends */
	if (right == NET(CONNECT_SEND_UDP) && !bound)
		add_other(r, NEED_NET, NET(BIND_UDP), 0, "");
}

static void find_net(struct call_result *r, const struct call *c)
{
	address_needs(r, c, r->args[c->path], r->args[c->flags]);
}

static void find_sendmsg(struct call_result *r, const struct call *c)
{
	struct msghdr msg;

	if (read_tracee(r->tid, r->args[c->path], &msg, sizeof msg) == sizeof msg)
		address_needs(r, c, (uint64_t)(uintptr_t)msg.msg_name, msg.msg_namelen);
	else
		r->unseen |= errno == EPERM;
}

static void find_signal(struct call_result *r, const struct call *c)
{
	long pid = (int)r->args[c->fd];

	if (r->call == CALL_pidfd_send_signal)
		pid = pidfd_target(r->tid, (int)pid);
	/* kill(0 or -pgid): a process group, which the sandbox may partly reach */
	if (pid > 0)
		add_other(r, NEED_SCOPE, SIGNAL, pid, "");
}

/* The part of struct statx (linux/stat.h) read here: musl has no statx(). */
struct statx_head {
	uint32_t mask, blksize;
	uint64_t attributes;
	char rest[256 - 16];
};

#define STATX_ATTR_LOCKED 0x30 /* STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND */

/* An immutable or append-only file refuses a change of owner, mode or
 * times with EPERM to every capability (notify_change): no drop's doing. */
static int attr_locked(const char *path)
{
	struct statx_head stx;

	return syscall(SYS_statx, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, 0, &stx) == 0 &&
	       stx.attributes & STATX_ATTR_LOCKED;
}

static int sets_times(int call)
{
	return call == CALL_utime || call == CALL_utimes || call == CALL_futimesat ||
	       call == CALL_utimensat;
}

/* The argument after the file: chown's owner (its group next), the times. */
static int after_file(const struct call *c)
{
	return (c->fd > c->path ? c->fd : c->path) + 1;
}

/* utime's times NULL ask only for the right to write (touch): no dropped
 * capability refuses such a call, and the child's filter lets it pass. */
int null_passes(const struct call *c)
{
	return sets_times((int)(c - calls)) ? after_file(c) : -1;
}

/* utime, utimes, futimesat and utimensat set the times they are given
 * (both UTIME_NOW is as none): the owner's or CAP_FOWNER's to do, where
 * none asks only for the right to write (EACCES, the mode bits'). */
static int explicit_times(const struct call_result *r, uint64_t times)
{
	struct {
		int64_t sec, nsec;
	} ts[2];

	if (!times || r->call != CALL_utimensat)
		return times != 0;
	return read_tracee(r->tid, times, ts, sizeof ts) == (ssize_t)sizeof ts &&
	       !(ts[0].nsec == UTIME_NOW && ts[1].nsec == UTIME_NOW);
}

/*
 * chown, chmod and utime's families refused with EPERM: the file, its
 * owner and group, and for chown the ones asked (-1: unchanged). A path of
 * NULL (utimensat) or "" with AT_EMPTY_PATH is the descriptor itself.
 */
static void find_attr(struct call_result *r, const struct call *c)
{
	int next = after_file(c);
	long flags = c->flags >= 0 ? (long)r->args[c->flags] : 0;
	int follow = r->call != CALL_lchown && !(flags & AT_SYMLINK_NOFOLLOW);
	int path = c->path >= 0 && !r->args[c->path] ? NONE : c->path;
	int chown = c->caps == CAP_CHOWN_BIT;
	struct target o;

	if (r->ret != -EPERM || (sets_times(r->call) && !explicit_times(r, r->args[next])))
		return;
	if (target(&o, r, c->fd, path, follow) || o.exists != 1 || attr_locked(o.object))
		return;
	add_cap(r, c->caps, &o, chown ? (uint32_t)r->args[next] : (uint32_t)-1,
		chown ? (uint32_t)r->args[next + 1] : (uint32_t)-1);
}

/* --learn: the regular file an exec is about to run, found at its entry
 * (once it succeeds its path is gone from memory). */
int exec_file(const struct call_result *entry, char *out)
{
	const struct call *c = &calls[entry->call];
	struct call_result r = *entry;
	struct target o;

	if (c->find != find_exec || target(&o, &r, c->fd, c->path, 1) || !o.exists ||
	    !S_ISREG(o.st.st_mode))
		return -1;
	join(out, PATH_MAX, o.object, NULL);
	return 0;
}

/* --learn: an open with O_CREAT whose file is not there yet, at its entry. */
int open_makes(const struct call_result *entry)
{
	const struct call *c = &calls[entry->call];
	struct call_result r = *entry;
	long flags = open_flags(&r, c);
	struct target o;

	return c->find == find_open && flags >= 0 && flags & O_CREAT &&
	       target(&o, &r, c->fd, c->path, !(flags & O_NOFOLLOW)) == 0 && !o.exists;
}

void find_needs(struct call_result *r)
{
	const struct call *c = &calls[r->call];

	r->nneeds = 0;
	r->move = 0;
	c->find(r, c);
}
