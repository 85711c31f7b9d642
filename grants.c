/*
 * Grants: the paths and ports the command may use, turned into Landlock
 * rules in one pass in command-line order, as the kernel's sandboxer does:
 * open a path, add its rule, let go of it. The kernel unions the rights of
 * rules on the same inode, so a path given twice, or reached through a
 * symlink, simply adds a rule.
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

#include "landlock-run.h"

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
#define RESOLVE_NO_SYMLINKS 0x04

/* Descriptors closed per close_range: few enough to stay in the kernel's
 * first descriptor table (64 slots), many enough to make closing cheap. */
#define CLOSE_BATCH 32

void add_grant(struct request *r, const char *option, const char *path, enum grant_kind kind,
	       int optional)
{
	struct grant *g = &r->grants[r->ngrants++];

	g->option = option;
	g->path = path;
	g->kind = kind;
	g->optional = optional;
	if (kind == GRANT_RO)
		r->reads_confined = 1;
}

/* The bad item, and the whole list only when it says more than the item. */
__attribute__((noreturn)) static void bad_port(const char *option, const char *list,
					       const char *item, size_t len, const char *at)
{
	if (len == strlen(list))
		die("%s: invalid port '%s'%s (a port is 0 to 65535, a range A-B has A <= B; or "
		    "'none' alone)",
		    option, list, at);
	die("%s: invalid port '%.*s' in '%s'%s (a port is 0 to 65535, a range A-B has A <= B; "
	    "or 'none' alone)",
	    option, (int)len, item, list, at);
}

/* The decimal port 0..65535 at s (no sign, no space), *end after it; or -1. */
static long port_at(const char *s, const char **end)
{
	unsigned long port;
	char *e;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	port = strtoul(s, &e, 10);
	*end = e;
	return errno || port > 65535 ? -1 : (long)port;
}

/*
 * PORTS is a comma list of ports and ranges A-B, or "none"; AT says where it
 * came from, for the error message. A kind given both "none" and ports is
 * refused, not merged: the merge would allow the ports that "none" (or
 * --no-tcp) said it would not.
 */
void add_ports(struct ports *ports, const char *option, const char *list, const char *at)
{
	const char *s = list;
	int none = strcmp(list, "none") == 0;

	if (!ports->option)
		ports->option = option;
	if (none)
		ports->none = option;
	else if (!ports->listed) {
		ports->listed = option;
		ports->list = list;
	}
	if (ports->none && ports->listed)
		die("%s %s contradicts %s%s, which allows no port: give one or the other%s",
		    ports->listed, ports->list, ports->none,
		    strncmp(ports->none, "--no-", 5) ? " none" : "", at);
	while (!none) {
		size_t len = strcspn(s, ",");
		const char *end;
		long first = port_at(s, &end), last = first;

		if (first >= 0 && *end == '-')
			last = port_at(end + 1, &end);
		if (first < 0 || last < first || end != s + len)
			bad_port(option, list, s, len, at);
		for (; first <= last; first++)
			ports->bits[first / 64] |= 1ULL << (first % 64);
		if (s[len] == '\0')
			return;
		s += len + 1;
	}
}

/*
 * Grant descriptors waiting to be closed, in the increasing order the
 * kernel hands them out (lowest free number first). Each run of
 * consecutive numbers is closed with one system call; a number the
 * launcher did not open is never in a run, so a descriptor the caller
 * passed down stays open.
 */
struct fd_batch {
	int fd[CLOSE_BATCH];
	int n;
};

static void close_batch(struct fd_batch *b)
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

static void add_to_batch(struct fd_batch *b, int fd)
{
	b->fd[b->n++] = fd;
	if (b->n == CLOSE_BATCH)
		close_batch(b);
}

/* O_PATH follows symlinks: the target is what gets granted, unless
 * --no-symlinks refuses every symlink on the way (the last one too). */
int open_path(const char *path, int no_symlinks, int flags)
{
	struct open_how_v0 how = {O_PATH | O_CLOEXEC | (unsigned)flags, 0, RESOLVE_NO_SYMLINKS};

	if (no_symlinks)
		return (int)syscall(__NR_openat2, AT_FDCWD, path, &how, sizeof how);
	return openat(AT_FDCWD, path, O_PATH | O_CLOEXEC | flags);
}

/* openat, because musl's open() spends an fcntl on O_CLOEXEC for old
 * kernels. Under a low descriptor limit, closing the open run makes room. */
static int open_grant(const struct grant *g, int no_symlinks, struct fd_batch *b)
{
	int fd = open_path(g->path, no_symlinks, 0);

	if (fd < 0 && errno == EMFILE && b->n > 0) {
		close_batch(b);
		fd = open_path(g->path, no_symlinks, 0);
	}
	if (fd < 0 && g->optional && (errno == ENOENT || errno == ENOTDIR))
		return -1;
	if (fd < 0 && no_symlinks && errno == ELOOP)
		die("cannot open %s path %s: it goes through a symlink (--no-symlinks)", g->option,
		    g->path);
	if (fd < 0)
		die_errno("cannot open %s path %s", g->option, g->path);
	return fd;
}

static int is_directory(const struct grant *g, int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		die_errno("cannot stat %s path %s", g->option, g->path);
	return S_ISDIR(st.st_mode);
}

/*
 * The kernel refuses directory rights on a non-directory (EINVAL): such a
 * grant is added again with the file rights alone. Directories, the common
 * case, cost no fstat. A grant whose rights this ABI lacks (--unix below
 * ABI 9) adds no rule: the kernel refuses an empty one, and what it would
 * allow is not confined anyway.
 */
static uint64_t add_path_rule(const struct policy *p, int ruleset, const struct grant *g, int fd)
{
	const struct effective *k = &p->kernel;
	uint64_t rights = k->grant_rights[g->kind];
	struct landlock_path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};

	if (!rights)
		return 0;
	if (landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) == 0)
		return rights;
	if (errno != EINVAL || is_directory(g, fd))
		die_errno("cannot add the rule for %s path %s", g->option, g->path);
	rule.allowed_access = rights &= k->file_rights;
	if (landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0))
		die_errno("cannot add the rule for %s path %s", g->option, g->path);
	return rights;
}

/* -v: what the user wrote, what it resolved to, the rights it got. */
static void print_grant(struct out *o, const struct grant *g, int fd, uint64_t rights)
{
	struct out proc = {.fd = -1};
	char target[PATH_MAX];
	ssize_t n;

	outf(o, "landlock-run grant: %s %s", g->option, g->path);
	if (fd < 0) {
		outf(o, ": skipped, it does not exist\n");
		return;
	}
	outf(&proc, "/proc/self/fd/%d", fd);
	proc.buf[proc.len] = '\0';
	n = readlink(proc.buf, target, sizeof target);
	if (n < 0)
		die_errno("cannot read %s for %s path %s", proc.buf, g->option, g->path);
	outf(o, " -> %.*s: ", (int)n, target);
	put_names(o, fs_rights, rights, 0);
	outf(o, "%s\n", rights ? "" : "none"); /* --unix below ABI 9 */
}

static void add_path_rules(const struct policy *p, int ruleset, struct out *verbose)
{
	struct fd_batch batch = {.n = 0};
	size_t i;

	for (i = 0; i < p->asked.ngrants; i++) {
		const struct grant *g = &p->asked.grants[i];
		int fd = open_grant(g, p->asked.no_symlinks, &batch);
		uint64_t rights = 0;

		if (fd >= 0 && p->asked.guards && g->kind != GRANT_RO)
			check_guards(&p->asked, g, fd);
		if (fd >= 0)
			rights = add_path_rule(p, ruleset, g, fd);
		if (verbose)
			print_grant(verbose, g, fd, rights);
		if (fd >= 0)
			add_to_batch(&batch, fd);
	}
	close_batch(&batch);
}

/* The rights listed for PORT: kind i is the right 1 << i (net_rights[]). */
static uint64_t port_rights(const struct request *r, unsigned port)
{
	uint64_t rights = 0;
	int i;

	for (i = 0; i < NET_KINDS; i++)
		if (r->net[i].listed && port_listed(&r->net[i], port))
			rights |= 1ULL << i;
	return rights;
}

/* One rule per port, with every kind that lists it. Bitmaps of kinds that
 * list nothing are never read: that would fault in 8 KiB of zeros each. */
static void add_port_rules(const struct request *r, int ruleset)
{
	unsigned word, port;
	int i;

	for (word = 0; word < 65536 / 64; word++) {
		uint64_t any = 0;

		for (i = 0; i < NET_KINDS; i++)
			any |= r->net[i].listed ? r->net[i].bits[word] : 0;
		for (port = word * 64; any && port < word * 64 + 64; port++) {
			struct landlock_net_port_attr rule = {.port = port};

			rule.allowed_access = port_rights(r, port);
			if (rule.allowed_access &&
			    landlock_add_rule(ruleset, LANDLOCK_RULE_NET_PORT, &rule, 0))
				die_errno("cannot add the rule for port %u", port);
		}
	}
}

/* The ruleset with every rule added; no grant descriptor is left open. */
int build_ruleset(const struct policy *p, struct out *verbose)
{
	/* A copy: what the kernel is given is never read back. */
	struct landlock_ruleset_attr attr = p->kernel.handled;
	int ruleset = landlock_create_ruleset(&attr, p->kernel.attr_size, 0);

	if (ruleset < 0)
		die_errno("cannot create the Landlock ruleset");
	add_path_rules(p, ruleset, verbose);
	if (p->kernel.handled.handled_access_net)
		add_port_rules(&p->asked, ruleset);
	return ruleset;
}
