/*
 * What the kernel refuses before Landlock has a say, so that --explain does
 * not blame the sandbox for it: the mode bits of a file for the caller's
 * filesystem ids and groups, the credentials a signal needs, and a driver
 * that refuses anyway (/dev/tty without a terminal); and what only a
 * capability the launcher dropped would have allowed. The ids
 * and capabilities are the tracee's, from /proc/TID/status.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#include "tracer.h"

#define FS(r) LANDLOCK_ACCESS_FS_##r

/* The i-th number of a list such as "1000\t1000\t1000\t1000". */
static unsigned long nth(const char *ids, int i)
{
	while (i-- > 0)
		ids += strcspn(ids, "\t ") + strspn(ids + strcspn(ids, "\t "), "\t ");
	return strtoul(ids, NULL, 10);
}

/* /proc/TID/status, opened once: the credentials and the name of one
 * moment. Every field is needed but Groups (none: no supplementary group).
 * Of a Groups line longer than the field, the whole numbers it holds. */
int read_who(pid_t tid, struct who *w)
{
	struct field f[] = {
		{"Name", w->comm, sizeof w->comm, 0, 0},
		{"Tgid", w->pid, sizeof w->pid, 0, 0},
		{"Uid", w->uid, sizeof w->uid, 0, 0},
		{"Gid", w->gid, sizeof w->gid, 0, 0},
		{"CapEff", w->caps, sizeof w->caps, 0, 0},
		{"Groups", w->groups, sizeof w->groups, 0, 0},
	};
	size_t i, n = sizeof f / sizeof f[0];
	char *last;

	if (proc_status_fields(tid, f, n))
		return -1;
	if (!f[n - 1].found)
		w->groups[0] = '\0';
	w->groups_cut = f[n - 1].found && f[n - 1].cut;
	if (w->groups_cut) {
		last = strrchr(w->groups, ' '); /* past it, a number cut short */
		*(last ? last : w->groups) = '\0';
	}
	for (i = 0; i < n - 1; i++)
		if (!f[i].found)
			return -1;
	return 0;
}

/* 1: GID is among the process's groups; 0: it is not; -1: the list was
 * too long to hold, and GID is not in the part held. */
static int in_group(const struct who *w, unsigned long gid)
{
	const char *s = w->groups;
	char *end;

	if (nth(w->gid, 3) == gid)
		return 1;
	for (; *s; s = end) {
		if (strtoul(s, &end, 10) == gid && end != s)
			return 1;
		if (end == s)
			break;
	}
	return w->groups_cut ? -1 : 0;
}

enum { MAY_X = 1, MAY_W = 2, MAY_R = 4 };
#define CAP_DAC_OVERRIDE    (1ULL << 1)
#define CAP_DAC_READ_SEARCH (1ULL << 2)

/* What the mode bits ask of PATH for these rights: the object's own bits
 * for the file rights, the directory's write and search for the others. */
static unsigned wanted(uint64_t rights)
{
	unsigned want = 0;

	want |= rights & (FS(READ_FILE) | FS(READ_DIR)) ? MAY_R : 0;
	want |= rights & (FS(WRITE_FILE) | FS(TRUNCATE) | FS(RESOLVE_UNIX)) ? MAY_W : 0;
	want |= rights & FS(EXECUTE) ? MAY_X : 0;
	want |= rights & ~(FS(READ_FILE) | FS(READ_DIR) | FS(WRITE_FILE) | FS(TRUNCATE) |
			   FS(RESOLVE_UNIX) | FS(EXECUTE) | FS(IOCTL_DEV))
			? MAY_W | MAY_X
			: 0;
	return want;
}

/* A POSIX access ACL (system.posix_acl_access, version 2, its entries in
 * the kernel's order) as the kernel checks it for these ids: 0 when the
 * file has none, 1 when it allows WANT, -1 when it refuses. A group entry
 * that allows WANT to groups the process may be in allows it: what the
 * tracer cannot tell is never taken for the mode's refusal. */
static int acl_refuses(const struct who *w, const char *path, const struct stat *st, unsigned want)
{
	enum { USER_OBJ = 1, USER = 2, GROUP_OBJ = 4, GROUP = 8, MASK = 16, OTHER = 32 };
	struct {
		uint16_t tag, perm;
		uint32_t id;
	} e[64];
	unsigned long uid = nth(w->uid, 3);
	ssize_t n = getxattr(path, "system.posix_acl_access", e, sizeof e);
	unsigned i, count, mask = 7, found = 0;
	int member;

	if (n < 4 + (ssize_t)sizeof e[0])
		return 0;
	count = (unsigned)(n - 4) / sizeof e[0];
	memmove(e, (char *)e + 4, count * sizeof e[0]); /* past the version */
	for (i = 0; i < count; i++)
		mask = e[i].tag == MASK ? e[i].perm : mask;
	for (i = 0; i < count; i++) {
		unsigned perm = e[i].perm;

		if (e[i].tag == USER_OBJ && st->st_uid == uid)
			return (perm & want) == want ? 1 : -1; /* the owner: no mask */
		if (e[i].tag == USER && e[i].id == uid)
			return (perm & mask & want) == want ? 1 : -1;
		member = e[i].tag == GROUP_OBJ ? in_group(w, st->st_gid)
			 : e[i].tag == GROUP   ? in_group(w, e[i].id)
					       : 0;
		if (member < 0 && (perm & mask & want) == want)
			return 1;
		if (member > 0) {
			found = 1;
			if ((perm & want) == want)
				return (perm & mask & want) == want ? 1 : -1;
		}
		if (e[i].tag == OTHER)
			return !found && (perm & want) == want ? 1 : -1;
	}
	return -1;
}

/* The mode bits, or the file's ACL, refuse WANT on PATH; of a group the
 * process may be in, both the group's bits and the others' must. */
static int bits_refuse(const struct who *w, const char *path, unsigned want)
{
	uint64_t caps = strtoul(w->caps, NULL, 16);
	struct stat st;
	int acl, member, group, other;

	if (!want || stat(path, &st))
		return 0;
	if (caps & CAP_DAC_OVERRIDE &&
	    (!(want & MAY_X) || S_ISDIR(st.st_mode) || st.st_mode & 0111))
		return 0;
	if (caps & CAP_DAC_READ_SEARCH && !(want & MAY_W) &&
	    (!(want & MAY_X) || S_ISDIR(st.st_mode)))
		return 0;
	/* the kernel reads an ACL only while the group's bits, its mask, are
	 * not all clear (acl_permission_check) */
	acl = st.st_mode & S_IRWXG ? acl_refuses(w, path, &st, want) : 0;
	if (acl)
		return acl < 0;
	if (st.st_uid == nth(w->uid, 3))
		return (st.st_mode >> 6 & want) != want;
	member = in_group(w, st.st_gid);
	group = (st.st_mode >> 3 & want) != want;
	other = (st.st_mode & want) != want;
	return member > 0 ? group : member < 0 ? group && other : other;
}

/* The rights the kernel asks Landlock about at a security_path_* hook
 * (mknod, mkdir, unlink, rmdir, rename, link, symlink, a unix bind), before
 * may_create or may_delete look at the directory's mode bits: only the
 * search of the directory, in the lookup, comes first. */
#define PATH_HOOK_RIGHTS                                                               \
	(FS(MAKE_CHAR) | FS(MAKE_DIR) | FS(MAKE_REG) | FS(MAKE_SOCK) | FS(MAKE_FIFO) | \
	 FS(MAKE_BLOCK) | FS(MAKE_SYM) | FS(REMOVE_FILE) | FS(REMOVE_DIR) | FS(REFER))

/* MODE_FIRST: the mode bits (or the file's ACL) refuse it before Landlock
 * is asked, an ordinary permission error and not the sandbox's; MODE_TOO:
 * Landlock refused it first, as the kernel logs it, and the mode bits
 * would refuse it next; 0: only the sandbox refuses it. */
int mode_refuses(const struct who *w, const char *path, uint64_t rights)
{
	if (rights & ~PATH_HOOK_RIGHTS)
		return bits_refuse(w, path, wanted(rights)) ? MODE_FIRST : 0;
	if (bits_refuse(w, path, MAY_X))
		return MODE_FIRST;
	return bits_refuse(w, path, wanted(rights)) ? MODE_TOO : 0;
}

/* The capabilities a refusal can be the drop's, as capabilities(7) names
 * them (libcap's lower case: the JSON right). */
const struct name cap_names[] = {
	{CAP_CHOWN_BIT, "cap_chown", 0, 0},
	{CAP_FOWNER_BIT, "cap_fowner", 0, 0},
	{CAP_MKNOD_BIT, "cap_mknod", 0, 0},
	{0, NULL, 0, 0},
};

/*
 * The kernel asks the caller for the capability, which it lacks: a device
 * to make always; a change of mode or times on a file of someone else's
 * (inode_owner_or_capable); a change of owner, unless the owner keeps
 * itself, or of group, unless the owner gives one of its own groups
 * (chown_ok, chgrp_ok in fs/attr.c). A group the owner may be in (a list
 * too long to hold) is taken as not its own: the refusal is reported.
 */
int cap_refuses(const struct who *w, const struct need *n)
{
	unsigned long fsuid = nth(w->uid, 3);
	int owner = n->uid == fsuid, uid_asked = n->new_uid != (uint32_t)-1,
	    gid_asked = n->new_gid != (uint32_t)-1;

	if (strtoull(w->caps, NULL, 16) & n->rights)
		return 0; /* it holds it: something else refused the call */
	switch (n->rights) {
	case CAP_MKNOD_BIT: return 1;
	case CAP_FOWNER_BIT: return !owner;
	default:
		return (uid_asked && !(owner && n->new_uid == n->uid)) ||
		       (gid_asked &&
			!(owner && (n->new_gid == n->gid || in_group(w, n->new_gid) > 0)));
	}
}

/* The kernel's own check before the scope's: the sender's real or
 * effective uid must be the target's real or saved one, or it needs
 * CAP_KILL. Otherwise the EPERM is an ordinary one. */
int may_signal(const struct who *w, long pid)
{
	char uid[64];
	int i, j;

	if (strtoul(w->caps, NULL, 16) & 1ULL << 5 /* CAP_KILL */)
		return 1;
	if (proc_status((pid_t)pid, "Uid", uid, sizeof uid))
		return 1; /* gone: the scope alone is left to blame */
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j += 2)
			if (nth(w->uid, i) == nth(uid, j))
				return 1;
	return 0;
}

/*
 * An open of /dev/tty (the character device 5:0, whatever it is called)
 * by a process with no controlling terminal: the driver answers ENXIO
 * unconfined, so the sandbox's EACCES refused nothing the command could
 * have had (bash opens it at start to ask, under every harness). From
 * /proc/TID/stat's tty_nr (tracee.c).
 */
int driver_refuses(pid_t tid, const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(5, 0) &&
	       proc_tty(tid) == 0;
}
