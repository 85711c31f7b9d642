/*
 * The tracee's world seen from outside: its memory (process_vm_readv), its
 * paths, resolved through /proc as its own lookup resolved them
 * ("/proc/TID/cwd/rel", "/proc/TID/fd/N/rel", "/proc/TID/root/abs"; the
 * link of a descriptor opened here gives the canonical path), and what
 * /proc says of its processes and descriptors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <netinet/in.h>
#include <unistd.h>

#include "tracer.h"

ssize_t read_tracee(pid_t tid, uint64_t addr, void *buf, size_t size)
{
	/* Split at the page end: a string near the end of a mapping is still
	 * read up to where the mapping stops. */
	size_t first = 4096 - (size_t)(addr & 4095);
	struct iovec local = {buf, size};
	struct iovec remote[2] = {
		{(void *)(uintptr_t)addr, first < size ? first : size},
		{(void *)(uintptr_t)(addr + first), first < size ? size - first : 0}};

	return process_vm_readv(tid, &local, 1, remote, remote[1].iov_len ? 2 : 1, 0);
}

int read_string(pid_t tid, uint64_t addr, char *buf)
{
	ssize_t n = read_tracee(tid, addr, buf, PATH_MAX);

	return n > 0 && memchr(buf, '\0', (size_t)n) ? 0 : -1;
}

/* The value of a "Key:" line of a file in /proc, such as /proc/TID/status
 * (Name, Tgid, Uid) or /proc/self/fdinfo/FD (mnt_id, Pid). */
int proc_field(const char *file, const char *key, char *out, size_t size)
{
	char buf[4096], *line;
	size_t len = strlen(key);
	ssize_t n;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	for (line = buf; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (strncmp(line, key, len) == 0 && line[len] == ':') {
			line += len + 1;
			line += strspn(line, "\t ");
			copy_span(out, size, line, strcspn(line, "\n"));
			return 0;
		}
	return -1;
}

int proc_status(pid_t tid, const char *key, char *out, size_t size)
{
	char path[40], num[24];

	join(path, sizeof path, "/proc/", decimal(tid, num), "/status", NULL);
	return proc_field(path, key, out, size);
}

/* The canonical path of a descriptor of ours. */
static int fd_path(int fd, char *out)
{
	char link[40], num[24];
	ssize_t n;

	join(link, sizeof link, "/proc/self/fd/", decimal(fd, num), NULL);
	n = readlink(link, out, PATH_MAX - 1);
	if (n < 0)
		return -1;
	out[n] = '\0';
	return 0;
}

/*
 * Where the tracee's PATH, relative to its descriptor DIRFD (AT_FDCWD: its
 * working directory) or to its root, is seen from here; PATH NULL: the
 * descriptor itself. /proc/self is the tracee's, not ours.
 */
static void from_outside(char *out, pid_t tid, long dirfd, const char *path)
{
	static const char *const selves[] = {"/proc/self", "/proc/thread-self"};
	char t[24], fd[24];
	size_t i, n;

	for (i = 0; path && i < sizeof selves / sizeof selves[0]; i++) {
		n = strlen(selves[i]);
		if (strncmp(path, selves[i], n) == 0 && (path[n] == '/' || path[n] == '\0')) {
			join(out, PATH_MAX + 64, "/proc/", decimal(tid, t), path + n, NULL);
			return;
		}
	}
	if (path && path[0] == '/')
		join(out, PATH_MAX + 64, "/proc/", decimal(tid, t), "/root", path, NULL);
	else if ((int)dirfd == AT_FDCWD && path)
		join(out, PATH_MAX + 64, "/proc/", decimal(tid, t), "/cwd/", path, NULL);
	else
		join(out, PATH_MAX + 64, "/proc/", decimal(tid, t), "/fd/", decimal((int)dirfd, fd),
		     path ? "/" : "", path ? path : "", NULL);
}

/* A path a grant can name ahead of a run: /proc/PID/... names one process,
 * which a later run will not be, so it becomes /proc. */
void grantable(char *path)
{
	if (strncmp(path, "/proc/", 6) == 0 && path[6] >= '0' && path[6] <= '9')
		path[5] = '\0';
}

/* The directory PATH (canonical) is in. */
void dir_of(char *out, const char *path)
{
	size_t n = (size_t)(strrchr(path, '/') - path);

	copy_span(out, PATH_MAX, n ? path : "/", n ? n : 1);
}

/*
 * What a path names: 1 when it exists (OBJECT its canonical path, ST its
 * status; a final symlink followed when FOLLOW), 0 when only its directory
 * does (OBJECT that directory's canonical path and the last component),
 * -1 when neither. PARENT: the directory OBJECT is in.
 */
static int locate(const char *where, int follow, char *object, char *parent, struct stat *st)
{
	char dir[PATH_MAX + 64];
	size_t len = strlen(where), cut;
	int fd = openat(AT_FDCWD, where, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW)), found;

	if (fd >= 0) {
		found = fstat(fd, st) == 0 && fd_path(fd, object) == 0;
		close(fd);
		if (!found)
			return -1;
		dir_of(parent, object);
		return 1;
	}
	while (len > 1 && where[len - 1] == '/')
		len--;
	for (cut = len; cut > 0 && where[cut - 1] != '/'; cut--)
		;
	if (errno != ENOENT || cut == 0 || cut == len)
		return -1;
	copy_span(dir, sizeof dir, where, cut);
	fd = openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	found = fd_path(fd, parent) == 0;
	close(fd);
	if (!found)
		return -1;
	copy_span(dir, sizeof dir, where + cut, len - cut); /* the last component */
	join(object, PATH_MAX, parent, strcmp(parent, "/") ? "/" : "", dir, NULL);
	return 0;
}

/* A symlink to /proc/self (/etc/mtab) that the kernel followed here led to
 * the tracer's own entry: it is the tracee's. */
static void tracee_self(char *path, pid_t tid)
{
	char self[40], num[24], rest[PATH_MAX];
	size_t n;

	join(self, sizeof self, "/proc/", decimal(getpid(), num), NULL);
	n = strlen(self);
	if (strncmp(path, self, n) != 0 || (path[n] != '/' && path[n] != '\0'))
		return;
	join(rest, sizeof rest, path + n, NULL);
	join(path, PATH_MAX, "/proc/", decimal(tid, num), rest, NULL);
}

/* What the tracee TID's PATH relative to DIRFD names (PATH NULL or empty,
 * as with AT_EMPTY_PATH: the descriptor itself); 0, or -1 when neither it
 * nor its directory can be found. */
int tracee_target(struct target *o, pid_t tid, long dirfd, const char *path, int follow)
{
	from_outside(o->where, tid, dirfd, path && path[0] ? path : NULL);
	o->exists = locate(o->where, follow, o->object, o->parent, &o->st);
	tracee_self(o->object, tid);
	tracee_self(o->parent, tid);
	return o->exists < 0 ? -1 : 0;
}

/*
 * Landlock's port rules cover TCP and UDP (ABI 10) sockets, not MPTCP or
 * SCTP: IPPROTO_TCP, IPPROTO_UDP or 0, asked of a copy of the tracee's
 * descriptor; *BOUND says whether it has a port (UDP binds one on its own
 * at the first connect or send).
 */
int socket_protocol(pid_t tid, int fd, int *bound)
{
	struct sockaddr_in6 name = {.sin6_port = 0}; /* sin_port is at the same place */
	int pidfd, sock, type = 0, proto = 0;
	socklen_t len = sizeof type, nlen = sizeof name;
	char tgid[16];

	if (proc_status(tid, "Tgid", tgid, sizeof tgid))
		return 0;
	pidfd = (int)syscall(SYS_pidfd_open, (int)strtoul(tgid, NULL, 10), 0);
	if (pidfd < 0)
		return 0;
	sock = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	close(pidfd);
	if (sock < 0)
		return 0;
	getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &len);
	len = sizeof proto;
	getsockopt(sock, SOL_SOCKET, SO_PROTOCOL, &proto, &len);
	*bound = getsockname(sock, (struct sockaddr *)&name, &nlen) == 0 && name.sin6_port != 0;
	close(sock);
	if (type == SOCK_STREAM && proto == IPPROTO_TCP)
		return IPPROTO_TCP;
	return type == SOCK_DGRAM && proto == IPPROTO_UDP ? IPPROTO_UDP : 0;
}

/* The process a pidfd refers to, as its fdinfo says. */
long pidfd_target(pid_t tid, int fd)
{
	char path[64], t[24], f[24], pid[24];

	join(path, sizeof path, "/proc/", decimal(tid, t), "/fdinfo/", decimal(fd, f), NULL);
	return proc_field(path, "Pid", pid, sizeof pid) ? 0 : (long)strtoul(pid, NULL, 10);
}
