/*
 * Grants: the paths and ports the command may use, opened and checked
 * before any ruleset exists, then turned into Landlock rules.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "landlock-run.h"

void add_grant(struct policy *p, const char *option, const char *path, uint64_t access,
	       int optional)
{
	struct grant *g = &p->grants[p->ngrants];

	g->option = option;
	g->path = path;
	g->access = access;
	g->optional = optional;
	g->index = p->ngrants++;
	g->fd = -1;
	if (access == ACCESS_RO)
		p->reads_handled = 1;
}

/* PORTS is a comma list of decimal ports 0..65535, or "none". */
void add_ports(struct ports *ports, const char *option, const char *list)
{
	const char *s = list;

	if (!ports->option)
		ports->option = option;
	if (strcmp(list, "none") == 0)
		return;
	for (;;) {
		size_t len = strcspn(s, ",");
		unsigned long port;
		char *end;

		errno = 0;
		port = strtoul(s, &end, 10);
		if (s[0] < '0' || s[0] > '9' || errno || port > 65535 || end != s + len)
			die("%s: invalid port '%.*s' in '%s' (a port is 0 to 65535; or "
			    "'none' alone)",
			    option, (int)len, s, list);
		ports->bits[port / 64] |= 1ULL << (port % 64);
		if (s[len] == '\0')
			return;
		s += len + 1;
	}
}

int port_listed(const struct ports *ports, unsigned port)
{
	return (ports->bits[port / 64] >> (port % 64)) & 1;
}

uint64_t grant_rights(const struct policy *p, const struct grant *g)
{
	uint64_t rights = g->access & p->handled.handled_access_fs;

	/* The kernel refuses directory rights on a file (EINVAL). */
	return g->is_dir ? rights : rights & FS_FILE_RIGHTS;
}

/*
 * Every grant is held open until the ruleset is built, so a large policy
 * may need more descriptors than the soft limit; the command gets the
 * original limit back (close_grants).
 */
static void raise_nofile(struct policy *p)
{
	struct rlimit raised;
	rlim_t need = (rlim_t)p->ngrants + 64;

	/* prlimit, not setrlimit: musl's setrlimit drags in a thread-sync path. */
	if (prlimit(0, RLIMIT_NOFILE, NULL, &p->nofile))
		die("cannot read the open-file limit: %s", strerror(errno));
	if (need <= p->nofile.rlim_cur)
		return;
	raised = p->nofile;
	raised.rlim_cur = need < raised.rlim_max ? need : raised.rlim_max;
	if (prlimit(0, RLIMIT_NOFILE, &raised, NULL))
		die("cannot raise the open-file limit for %zu grants: %s", p->ngrants,
		    strerror(errno));
	p->nofile_raised = 1;
}

static void open_grant(struct grant *g)
{
	struct stat st;

	/* O_PATH follows symlinks: the target is what gets granted. openat,
	 * because musl's open() spends an fcntl on O_CLOEXEC for old kernels. */
	g->fd = openat(AT_FDCWD, g->path, O_PATH | O_CLOEXEC);
	if (g->fd < 0 && g->optional && (errno == ENOENT || errno == ENOTDIR))
		return;
	if (g->fd < 0)
		die("cannot open %s path %s: %s", g->option, g->path, strerror(errno));
	if (fstat(g->fd, &st))
		die("cannot stat %s path %s: %s", g->option, g->path, strerror(errno));
	g->is_dir = S_ISDIR(st.st_mode);
	g->dev = st.st_dev;
	g->ino = st.st_ino;
}

static int by_inode(const void *a, const void *b)
{
	const struct grant *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Paths that resolve to one inode become one rule with the union of rights. */
static void merge_grants(struct policy *p)
{
	struct grant *keep = NULL;
	size_t i;

	qsort(p->grants, p->ngrants, sizeof *p->grants, by_inode);
	for (i = 0; i < p->ngrants; i++) {
		struct grant *g = &p->grants[i];

		if (g->fd < 0)
			continue;
		if (!keep || keep->dev != g->dev || keep->ino != g->ino) {
			keep = g;
			continue;
		}
		keep->access |= g->access;
		if (close(g->fd))
			die("cannot close %s path %s: %s", g->option, g->path, strerror(errno));
		g->fd = -1;
	}
}

static int by_path(const void *a, const void *b)
{
	const struct grant *x = *(const struct grant *const *)a;
	const struct grant *y = *(const struct grant *const *)b;
	int order = strcmp(x->path, y->path);

	if (order != 0)
		return order;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * A path given twice is opened once: the first grant takes the union of the
 * rights, and must exist if either must. The grants keep their command-line
 * order, so the first bad path on the line is the one reported.
 */
static void merge_same_paths(struct policy *p)
{
	struct grant *keep = NULL;
	size_t i;

	for (i = 0; i < p->ngrants; i++)
		p->by_path[i] = &p->grants[i];
	qsort(p->by_path, p->ngrants, sizeof *p->by_path, by_path);
	for (i = 0; i < p->ngrants; i++) {
		struct grant *g = p->by_path[i];

		if (!keep || strcmp(keep->path, g->path) != 0) {
			keep = g;
			continue;
		}
		keep->access |= g->access;
		if (keep->optional && !g->optional) {
			keep->optional = 0;
			keep->option = g->option;
		}
		g->access = 0;
	}
}

void open_grants(struct policy *p)
{
	size_t i;

	raise_nofile(p);
	if (p->ngrants > 1)
		merge_same_paths(p);
	for (i = 0; i < p->ngrants; i++)
		if (p->grants[i].access)
			open_grant(&p->grants[i]);
	if (p->ngrants > 1)
		merge_grants(p);
}

static void add_port_rules(int ruleset, const struct policy *p)
{
	unsigned word, port;

	for (word = 0; word < 65536 / 64; word++) {
		if (!(p->tcp_bind->bits[word] | p->tcp_connect->bits[word]))
			continue;
		for (port = word * 64; port < word * 64 + 64; port++) {
			struct landlock_net_port_attr rule = {.port = port};

			if (port_listed(p->tcp_bind, port))
				rule.allowed_access |= LANDLOCK_ACCESS_NET_BIND_TCP;
			if (port_listed(p->tcp_connect, port))
				rule.allowed_access |= LANDLOCK_ACCESS_NET_CONNECT_TCP;
			if (rule.allowed_access &&
			    landlock_add_rule(ruleset, LANDLOCK_RULE_NET_PORT, &rule, 0))
				die("cannot add the rule for TCP port %u: %s", port,
				    strerror(errno));
		}
	}
}

int build_ruleset(const struct policy *p)
{
	int ruleset = landlock_create_ruleset(&p->handled, sizeof p->handled, 0);
	size_t i;

	if (ruleset < 0)
		die("cannot create the Landlock ruleset: %s", strerror(errno));
	for (i = 0; i < p->ngrants; i++) {
		const struct grant *g = &p->grants[i];
		struct landlock_path_beneath_attr rule = {
			.allowed_access = grant_rights(p, g),
			.parent_fd = g->fd,
		};

		if (g->fd >= 0 && rule.allowed_access &&
		    landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0))
			die("cannot add the rule for %s path %s: %s", g->option, g->path,
			    strerror(errno));
	}
	/* Untouched bitmaps stay unmapped: reading them would fault in 16 KiB. */
	if (p->handled.handled_access_net)
		add_port_rules(ruleset, p);
	return ruleset;
}

/* The command inherits none of the launcher's descriptors, and its own limits. */
void close_grants(struct policy *p, int ruleset)
{
	size_t i;

	for (i = 0; i < p->ngrants; i++)
		if (p->grants[i].fd >= 0 && close(p->grants[i].fd))
			die("cannot close %s path %s: %s", p->grants[i].option, p->grants[i].path,
			    strerror(errno));
	if (close(ruleset))
		die("cannot close the Landlock ruleset: %s", strerror(errno));
	if (p->nofile_raised && prlimit(0, RLIMIT_NOFILE, &p->nofile, NULL))
		die("cannot restore the open-file limit: %s", strerror(errno));
}
