/*
 * The tracee's world seen from outside, every byte of it chosen by the
 * command: its memory (process_vm_readv, or ptrace itself for a process
 * that made itself non-dumpable), its paths, resolved as its own lookup
 * resolved them, and what /proc says of its processes and descriptors.
 *
 * Paths are walked here one component at a time from the tracee's root,
 * working directory or descriptor (/proc/TID/root, cwd, fd/N), never
 * through the tracer's own view: an absolute symlink restarts at the
 * tracee's root, ".." stops there, /proc/self and /proc/thread-self are the
 * tracee's, and the magic links of /proc/PID (fd/N, cwd, exe) are followed
 * by the kernel, which binds them to the tracee's objects. Every open is
 * O_PATH, with the tracer's own credentials, which hold no capability: what
 * the command's user cannot search is not resolved.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "../fd.h"
#include "../out.h"
#include "tracer.h"

#define PROC_SUPER_MAGIC 0x9fa0
#define PROC_ROOT_INO	 1
#define HOPS		 40 /* symlinks followed in one lookup, as the kernel's MAXSYMLINKS */

/* ptrace reads a word at a time; only for what process_vm_readv may not. */
static ssize_t peek(pid_t tid, uint64_t addr, char *buf, size_t size)
{
	size_t done = 0, n;
	long word;

	while (done < size) {
		errno = 0;
		word = ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)(addr + done), NULL);
		if (errno)
			return done ? (ssize_t)done : -1;
		n = size - done < sizeof word ? size - done : sizeof word;
		memcpy(buf + done, &word, n);
		done += n;
	}
	return (ssize_t)done;
}

/* The tracer keeps every thread it follows in TRACEES, so a pid there is a
 * process of the traced tree (a thread id is a process's when it leads). */
int in_traced_tree(const struct table *tracees, pid_t pid)
{
	return pid > 0 && table_get(tracees, (uint64_t)pid) != NULL;
}

/* Up to SIZE bytes at ADDR. A non-dumpable tracee (ssh, gpg-agent) refuses
 * process_vm_readv to a tracer without CAP_SYS_PTRACE, but not ptrace
 * itself to the tracer that attached it while privileged. */
ssize_t read_tracee(pid_t tid, uint64_t addr, void *buf, size_t size)
{
	/* Split at the page end: a string near the end of a mapping is still
	 * read up to where the mapping stops. */
	size_t first = 4096 - (size_t)(addr & 4095);
	struct iovec local = {buf, size};
	struct iovec remote[2] = {
		{(void *)(uintptr_t)addr, first < size ? first : size},
		{(void *)(uintptr_t)(addr + first), first < size ? size - first : 0}};
	ssize_t n = process_vm_readv(tid, &local, 1, remote, remote[1].iov_len ? 2 : 1, 0);

	if (n < 0 && errno == EPERM) {
		n = peek(tid, addr, buf, size < PATH_MAX ? size : PATH_MAX);
		errno = n < 0 ? EPERM : errno; /* closed to us, not a bad address */
	}
	return n;
}

/* A NUL-terminated string of at most PATH_MAX bytes, as the kernel takes a
 * path; longer (ENAMETOOLONG to the tracee) or unreadable: -1. */
int read_string(pid_t tid, uint64_t addr, char *buf)
{
	ssize_t n = read_tracee(tid, addr, buf, PATH_MAX);

	return n > 0 && memchr(buf, '\0', (size_t)n) ? 0 : -1;
}

#define PROC_LINE 4096 /* longer lines are cut (a Groups line of 400 groups) */

/* The fields LINE (LEN bytes, no newline; LONGER: it went on) holds. */
static void take_line(struct field *f, size_t n, const char *line, size_t len, int longer)
{
	size_t i, key, skip;

	for (i = 0; i < n; i++) {
		key = strlen(f[i].key);
		if (f[i].found || len <= key || memcmp(line, f[i].key, key) || line[key] != ':')
			continue;
		for (skip = key + 1; skip < len && (line[skip] == '\t' || line[skip] == ' ');
		     skip++)
			;
		copy_span(f[i].out, f[i].size, line + skip, len - skip);
		f[i].cut = longer || len - skip > f[i].size - 1;
		f[i].found = 1;
	}
}

/* Takes the fields of each whole line of BUF (HAVE bytes); a line that
 * fills BUF is taken cut, and *SKIP set to pass over the rest of it.
 * Returns the bytes used: what is left is the start of a line. */
static size_t take_lines(struct field *f, size_t n, const char *buf, size_t have, int *skip)
{
	const char *at = buf, *nl;

	while ((nl = memchr(at, '\n', have - (size_t)(at - buf)))) {
		if (!*skip)
			take_line(f, n, at, (size_t)(nl - at), 0);
		*skip = 0;
		at = nl + 1;
	}
	if (at == buf && have == PROC_LINE) {
		if (!*skip)
			take_line(f, n, buf, have, 1);
		*skip = 1;
		return have;
	}
	return (size_t)(at - buf);
}

static int all_found(const struct field *f, size_t n)
{
	while (n-- > 0)
		if (!f[n].found)
			return 0;
	return 1;
}

/* The values of "Key:" lines of a file in /proc, such as /proc/TID/status
 * (Name, Tgid, Uid) or /proc/self/fdinfo/FD (mnt_id, Pid), each cut to its
 * size (and marked cut): one open, and one snapshot, as the kernel makes
 * such a file whole at the first read, so the fields of one process agree
 * with each other. Reads on past the first 4 KiB until every field is
 * found (CapEff comes after a long Groups line). Marks each field found;
 * -1 when the file cannot be read. */
int proc_fields(const char *file, struct field *f, size_t n)
{
	char buf[PROC_LINE];
	size_t have = 0, used, i;
	ssize_t got;
	int skip = 0, fd = openat(AT_FDCWD, file, O_RDONLY | O_NOCTTY | O_CLOEXEC);

	for (i = 0; i < n; i++)
		f[i].found = f[i].cut = 0;
	if (fd < 0)
		return -1;
	while (!all_found(f, n) && (got = read(fd, buf + have, sizeof buf - have)) != 0) {
		if (got < 0) {
			close(fd);
			return -1;
		}
		have += (size_t)got;
		used = take_lines(f, n, buf, have, &skip);
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	close(fd);
	if (have && !skip)
		take_line(f, n, buf, have, 0); /* a last line without its newline */
	return 0;
}

int proc_field(const char *file, const char *key, char *out, size_t size)
{
	struct field f = {key, out, size, 0, 0};

	return proc_fields(file, &f, 1) || !f.found ? -1 : 0;
}

/* "/proc/TID" and what follows, in OUT (PATH_MAX + 64 bytes). */
static void proc_path(char *out, pid_t tid, const char *rest, const char *more)
{
	char num[24];

	join(out, PATH_MAX + 64, "/proc/", decimal(tid, num), rest, more, NULL);
}

int proc_status(pid_t tid, const char *key, char *out, size_t size)
{
	struct field f = {key, out, size, 0, 0};

	return proc_status_fields(tid, &f, 1) || !f.found ? -1 : 0;
}

int proc_status_fields(pid_t tid, struct field *f, size_t n)
{
	char path[PATH_MAX + 64];

	proc_path(path, tid, "/status", "");
	return proc_fields(path, f, n);
}

/* TID's controlling terminal, tty_nr of /proc/TID/stat (0: none); -1 when
 * it cannot be read. */
int proc_tty(pid_t tid)
{
	char path[PATH_MAX + 64];
	uint64_t tty;

	proc_path(path, tid, "/stat", "");
	return stat_field(path, 7, &tty) ? -1 : (int)tty;
}

/* FD of TID is a character or block device, what Landlock checks
 * IOCTL_DEV on, or cannot be told apart from one (1); what it names now: a
 * thread that moves another file onto FD meanwhile is not seen. */
int fd_stat(pid_t tid, int fd, struct stat *st)
{
	char path[PATH_MAX + 64], num[24];

	proc_path(path, tid, "/fd/", decimal(fd, num));
	return stat(path, st);
}

/* The path FD of TID names now (as fd_stat, a thread may move another file
 * onto it); its length, or -1. */
int fd_path(pid_t tid, int fd, char out[PATH_MAX])
{
	char path[PATH_MAX + 64], num[24];
	ssize_t n;

	proc_path(path, tid, "/fd/", decimal(fd, num));
	n = readlink(path, out, PATH_MAX - 1);
	if (n >= 0)
		out[n] = '\0';
	return (int)n;
}

int fd_is_device(pid_t tid, int fd)
{
	struct stat st;

	return fd_stat(tid, fd, &st) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
}

/* The calls of processes that made themselves non-dumpable, and the first of
 * them, FIRST: one line, as the report HOW words it. */
void put_unseen(struct out *o, enum unseen_words how, unsigned long calls, const struct who *first)
{
	static const struct {
		const char *lead, *calls, *such_as, *end;
	} words[] = {
		[UNSEEN_EXPLAIN] = {"landlock-run explain: ", "failed calls", ", such as ",
				    ", could not be examined"},
		[UNSEEN_LEARN] = {"landlock-run learn: ", "calls", ", such as ",
				  ", could not be seen: the policy may lack what they used"},
		[UNSEEN_POLICY] = {"# not seen: ", "calls", " (", ")"},
	};

	outf(o, "%s%lu %s of processes that made themselves non-dumpable%s%s[%s]%s\n",
	     words[how].lead, calls, words[how].calls, words[how].such_as, first->comm, first->pid,
	     words[how].end);
}

/* The directory PATH is in: "/" for "/x", and "" for a name without a
 * slash (pipe:[N]), which is in no directory. */
void dir_of(char *out, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		out[0] = '\0';
	else
		copy_span(out, PATH_MAX, slash == path ? "/" : path,
			  slash == path ? 1 : (size_t)(slash - path));
}

/* A path a grant can name ahead of a run: /proc/PID/... names one process,
 * which a later run will not be, so it becomes /proc. */
void grantable(char *path)
{
	if (strncmp(path, "/proc/", 6) == 0 && path[6] >= '0' && path[6] <= '9')
		path[5] = '\0';
}

/* A lookup in progress: where it is, what is left of the path. */
struct walk {
	pid_t tid;
	int root, cur; /* O_PATH descriptors: the tracee's root, where we are */
	struct stat root_st;
	char rest[PATH_MAX + 1]; /* the components still to walk */
	char name[NAME_MAX + 1]; /* the component in hand */
	int hops;
	long proc_pid; /* the /proc/PID the walk entered last (0: none) */
};

static int same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Take the next component off REST into NAME; 0 when none is left, -1
 * when it is too long to be one. */
static int next_name(struct walk *w)
{
	char *s = w->rest;
	size_t len;

	s += strspn(s, "/");
	len = strcspn(s, "/");
	if (len > NAME_MAX)
		return -1;
	memcpy(w->name, s, len);
	w->name[len] = '\0';
	memmove(w->rest, s + len, strlen(s + len) + 1);
	return len > 0;
}

static void move_to(struct walk *w, int fd)
{
	close(w->cur);
	w->cur = fd;
}

/* The symlink NAME at CUR is spliced in front of REST: a relative target
 * goes on from here, an absolute one from the tracee's root. */
static int splice_link(struct walk *w)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(w->cur, w->name, target, sizeof target - 1);
	size_t rest = strlen(w->rest);

	if (n <= 0 || ++w->hops > HOPS || (size_t)n + 1 + rest > PATH_MAX)
		return -1;
	memmove(w->rest + n + 1, w->rest, rest + 1);
	memcpy(w->rest, target, (size_t)n);
	w->rest[n] = '/';
	if (target[0] == '/') {
		int fd = openat(w->root, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0)
			return -1;
		move_to(w, fd);
	}
	return 0;
}

/* In /proc itself, "self" and "thread-self" are the tracee's, not ours. */
static int proc_self(struct walk *w, const struct stat *st)
{
	char tgid[16], num[24];
	struct statfs fs;

	if (st->st_ino != PROC_ROOT_INO || fstatfs(w->cur, &fs) || fs.f_type != PROC_SUPER_MAGIC)
		return 0;
	if (strcmp(w->name, "self") && strcmp(w->name, "thread-self"))
		return 0;
	if (proc_status(w->tid, "Tgid", tgid, sizeof tgid))
		return -1;
	if (w->name[0] == 't')
		join(w->name, sizeof w->name, tgid, "/task/", decimal(w->tid, num), NULL);
	else
		join(w->name, sizeof w->name, tgid, NULL);
	return 1;
}

/* PID is traced by this process, the tracer: one of the traced tree, as
 * the kernel says (TracerPid in its status), not as its number says. */
static int traced_by_us(long pid)
{
	char tracer[24];

	return pid > 0 && proc_status((pid_t)pid, "TracerPid", tracer, sizeof tracer) == 0 &&
	       strtol(tracer, NULL, 10) == (long)getpid();
}

/* One component: 1 when the walk moved on, 0 when NAME does not exist
 * (CUR is then its directory), -1 when the lookup cannot go on. */
static int step(struct walk *w, int last, int follow)
{
	struct stat here, st;
	struct statfs fs;
	int fd, self;

	if (fstat(w->cur, &here))
		return -1;
	if (strcmp(w->name, ".") == 0)
		return 1;
	if (strcmp(w->name, "..") == 0) {
		if (same_inode(&here, &w->root_st))
			return 1; /* the tracee's root is its own parent */
		fd = openat(w->cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		move_to(w, fd);
		return 1;
	}
	self = proc_self(w, &here);
	if (self < 0)
		return -1;
	if (here.st_ino == PROC_ROOT_INO && fstatfs(w->cur, &fs) == 0 &&
	    fs.f_type == PROC_SUPER_MAGIC)
		w->proc_pid = strtol(w->name, NULL, 10);
	fd = openat(w->cur, w->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT && last ? 0 : -1;
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	if (!S_ISLNK(st.st_mode) || (last && !follow)) {
		move_to(w, fd);
		return 1;
	}
	close(fd);
	/* A link in /proc/PID (fd/N, cwd, exe) names an object, not a path:
	 * only the kernel can follow it, and it follows it to the tracee's.
	 * Only for a process of the traced tree: another one of the caller's
	 * (the command's ptrace check refuses it) is none of the report's
	 * business, and its files are not named. */
	if (!self && fstatfs(w->cur, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC &&
	    here.st_ino != PROC_ROOT_INO) {
		if (!traced_by_us(w->proc_pid))
			return -1;
		fd = openat(w->cur, w->name, O_PATH | O_CLOEXEC);
		if (fd < 0)
			return errno == ENOENT && last ? 0 : -1;
		move_to(w, fd);
		return 1;
	}
	return splice_link(w) ? -1 : 1;
}

/* Where a lookup starts: the tracee's root, working directory or DIRFD. */
static int start(struct walk *w, long dirfd, const char *path)
{
	char where[PATH_MAX + 64], num[24];

	proc_path(where, w->tid, "/root", "");
	w->root = openat(AT_FDCWD, where, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w->root < 0 || fstat(w->root, &w->root_st))
		return -1;
	if (path && path[0] == '/')
		join(where, sizeof where, ".", NULL);
	else if ((int)dirfd == AT_FDCWD)
		proc_path(where, w->tid, "/cwd", "");
	else
		proc_path(where, w->tid, "/fd/", decimal((int)dirfd, num));
	w->cur = openat(path && path[0] == '/' ? w->root : AT_FDCWD, where, O_PATH | O_CLOEXEC);
	return w->cur < 0 ? -1 : 0;
}

/*
 * What the tracee TID's PATH relative to DIRFD names (PATH NULL or empty,
 * as with AT_EMPTY_PATH: the descriptor itself): O->exists 1 when it
 * exists (OBJECT its canonical path, ST its status; a final symlink
 * followed when FOLLOW), 0 when only its directory does (OBJECT that
 * directory's path and the last component); PARENT the directory OBJECT
 * is in. -1 when neither can be found.
 */
int tracee_target(struct target *o, pid_t tid, long dirfd, const char *path, int follow)
{
	struct walk w = {.tid = tid, .root = -1, .cur = -1};
	int found = 1, more;

	o->exists = -1;
	o->unseen = 0;
	if (start(&w, dirfd, path && path[0] ? path : NULL)) {
		/* a non-dumpable process: its root, cwd and descriptors are closed
		 * to a tracer without CAP_SYS_PTRACE (its memory is not) */
		o->unseen = errno == EACCES || errno == EPERM;
		goto out;
	}
	join(w.rest, sizeof w.rest, path ? path : "", NULL);
	while ((more = next_name(&w)) > 0) {
		found = step(&w, w.rest[strspn(w.rest, "/")] == '\0', follow);
		if (found <= 0)
			break;
	}
	/* what has no path (a pipe, a socket, an anonymous inode) reads as the
	 * kernel names it: "pipe:[N]" */
	if (more < 0 || found < 0 || path_of_fd(w.cur, o->object) < 0)
		goto out;
	if (found == 0) {
		join(o->parent, sizeof o->parent, o->object, NULL);
		join(o->object + strlen(o->object), sizeof o->object - strlen(o->object),
		     strcmp(o->parent, "/") ? "/" : "", w.name, NULL);
		o->exists = 0;
	} else if (fstat(w.cur, &o->st) == 0) {
		dir_of(o->parent, o->object);
		o->exists = 1;
	}
out:
	if (w.cur >= 0)
		close(w.cur);
	if (w.root >= 0)
		close(w.root);
	return o->exists < 0 ? -1 : 0;
}

/* The inode of a socket "socket:[N]", or 0. */
static unsigned long socket_inode(const char *link)
{
	char *end;
	unsigned long ino;

	if (strncmp(link, "socket:[", 8))
		return 0;
	ino = strtoul(link + 8, &end, 10);
	return strcmp(end, "]") ? 0 : ino;
}

/* The inode of a line of /proc/net/udp: its tenth field. */
static unsigned long line_inode(const char *line)
{
	int field;

	for (field = 0; field < 9; field++) {
		line += strspn(line, " ");
		line += strcspn(line, " ");
	}
	return strtoul(line, NULL, 10);
}

/* A UDP socket has a port once its inode is in the tracee's
 * /proc/TID/net/udp (udp6): a bound socket is listed, an unbound one not. */
static int udp_bound(pid_t tid, unsigned long ino, int v6)
{
	char path[PATH_MAX + 64], buf[4096 + 1];
	size_t have = 0;
	ssize_t n;
	char *line, *nl;
	int fd, found = 0;

	proc_path(path, tid, "/net/udp", v6 ? "6" : "");
	fd = openat(AT_FDCWD, path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 1; /* unknown: no bind right asked for */
	while (!found && (n = read(fd, buf + have, sizeof buf - 1 - have)) > 0) {
		have += (size_t)n;
		buf[have] = '\0';
		for (line = buf; !found && (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			found = line_inode(line) == ino;
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == sizeof buf - 1)
			have = 0; /* a line longer than the buffer is no socket's */
	}
	close(fd);
	return found;
}

/*
 * Landlock's port rules cover TCP and UDP (ABI 10) sockets, not MPTCP or
 * SCTP: IPPROTO_TCP, IPPROTO_UDP or 0 for the tracee's descriptor FD, as
 * the socket's own "system.sockprotoname" attribute names its protocol;
 * *BOUND says whether a UDP socket has a port yet (it binds one on its own
 * at the first connect or send). Nothing of the tracee's is taken over.
 */
int socket_protocol(pid_t tid, int fd, int *bound)
{
	static const struct {
		const char *name;
		int proto, v6;
	} protocols[] = {{"TCP", IPPROTO_TCP, 0},
			 {"TCPv6", IPPROTO_TCP, 1},
			 {"UDP", IPPROTO_UDP, 0},
			 {"UDPv6", IPPROTO_UDP, 1}};
	char path[PATH_MAX + 64], link[64], name[16], num[24];
	ssize_t n;
	size_t i;

	proc_path(path, tid, "/fd/", decimal(fd, num));
	n = readlink(path, link, sizeof link - 1);
	link[n > 0 ? n : 0] = '\0';
	if (!socket_inode(link))
		return 0;
	n = getxattr(path, "system.sockprotoname", name, sizeof name - 1);
	name[n > 0 ? n : 0] = '\0';
	for (i = 0; i < sizeof protocols / sizeof protocols[0]; i++)
		if (strcmp(name, protocols[i].name) == 0) {
			*bound = protocols[i].proto == IPPROTO_TCP ||
				 udp_bound(tid, socket_inode(link), protocols[i].v6);
			return protocols[i].proto;
		}
	return 0;
}

/* The process a pidfd refers to, as its fdinfo says. */
long pidfd_target(pid_t tid, int fd)
{
	char path[PATH_MAX + 64], pid[24], num[24];

	proc_path(path, tid, "/fdinfo/", decimal(fd, num));
	return proc_field(path, "Pid", pid, sizeof pid) ? 0 : (long)strtoul(pid, NULL, 10);
}

/*
 * Argument 5 of the tracee's stopped call, the register that holds it, set
 * to VALUE: TRACE_MARK marks a refusal the tracer has seen (seccomp.c,
 * stops()), and the filter, run again as the tracee resumes, refuses the
 * call itself; at the call's exit the register gets its own value back,
 * as the system-call ABI promises (x86_64 keeps every register but rax,
 * rcx and r11; aarch64 every one but x0). 0, or -1 and errno.
 */
int set_arg5(pid_t tid, uint64_t value)
{
#if defined(__x86_64__)
	return (int)ptrace(PTRACE_POKEUSER, tid, (void *)offsetof(struct user_regs_struct, r9),
			   (void *)(uintptr_t)value);
#elif defined(__aarch64__)
	struct user_regs_struct regs;
	struct iovec io = {&regs, sizeof regs};

	if (ptrace(PTRACE_GETREGSET, tid, (void *)1 /* NT_PRSTATUS */, &io))
		return -1;
	regs.regs[5] = value;
	return (int)ptrace(PTRACE_SETREGSET, tid, (void *)1, &io);
#else
#error "set_arg5: which register holds argument 5 here?"
#endif
}
