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
#include <sys/xattr.h>
#include <unistd.h>

#include "abi.h"
#include "fd.h"
#include "grants.h"
#include "guard.h"
#include "hide.h"
#include "inherit.h"
#include "out.h"
#include "tmpdir.h"
#include "where.h"

void add_grant(struct request *r, const char *option, const char *path, enum grant_kind kind,
	       int optional)
{
	struct grant *g = &r->grants[r->ngrants++];

	g->option = option;
	g->path = path;
	g->kind = kind;
	g->optional = optional;
	if (kind == GRANT_RO)
		r->reads_confined = r->reads_granted = 1;
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
		long first = number_at(s, &end, 65535), last = first;

		if (first >= 0 && *end == '-')
			last = number_at(end + 1, &end, 65535);
		if (first < 0 || last < first || end != s + len)
			bad_port(option, list, s, len, at);
		for (; first <= last; first++)
			ports->bits[first / 64] |= 1ULL << (first % 64);
		if (s[len] == '\0')
			return;
		s += len + 1;
	}
}

/* O_PATH follows symlinks: the target is what gets granted, unless
 * --no-symlinks refuses every symlink on the way. Under a low descriptor
 * limit, closing the open run makes room. */
static int open_grant(const struct grant *g, int no_symlinks, struct fd_batch *b)
{
	int fd = open_at(AT_FDCWD, g->path, O_PATH, no_symlinks);

	if (made_room(b, fd))
		fd = open_at(AT_FDCWD, g->path, O_PATH, no_symlinks);
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
 * grant is added again with the file rights alone, or given them at once
 * where its fstat is KNOWN (a write grant's). Read-only directories, the
 * common case, cost no fstat. A grant whose rights this ABI lacks (--unix below
 * ABI 9) adds no rule: the kernel refuses an empty one, and what it would
 * allow is not confined anyway.
 */
static uint64_t add_path_rule(const struct policy *p, int ruleset, const struct grant *g, int fd,
			      const struct stat *known)
{
	const struct effective *k = &p->kernel;
	uint64_t rights = k->grant_rights[g->kind];
	struct landlock_path_beneath_attr rule = {.parent_fd = fd};

	if (known && !S_ISDIR(known->st_mode))
		rights &= k->file_rights;
	if (!rights)
		return 0;
	rule.allowed_access = rights;
	if (landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) == 0)
		return rights;
	if (known || errno != EINVAL || is_directory(g, fd))
		die_errno("cannot add the rule for %s path %s", g->option, g->path);
	rule.allowed_access = rights &= k->file_rights;
	if (landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0))
		die_errno("cannot add the rule for %s path %s", g->option, g->path);
	return rights;
}

/* -v: what the user wrote, what it resolved to, the rights it got; on how
 * many entries around the hidden paths when it was expanded (else -1). */
static void print_grant(struct out *o, const struct grant *g, int fd, uint64_t rights, long entries)
{
	char target[PATH_MAX];

	outf(o, "landlock-run grant: %s %s", g->option, g->path);
	if (fd < 0) {
		outf(o, ": skipped, it does not exist\n");
		return;
	}
	if (path_of_fd(fd, target) < 0) {
		need_proc("-v", "name the paths of the grants (/proc/self/fd)");
		die_errno("cannot read /proc/self/fd/%d for %s path %s", fd, g->option, g->path);
	}
	outf(o, " -> %s: ", target);
	put_names(o, fs_rights, rights, 0);
	outf(o, "%s", rights ? "" : "none"); /* --unix below ABI 9 */
	if (entries >= 0)
		outf(o, " on %ld entries around the hidden paths", entries);
	outf(o, "\n");
}

struct kernel_sink {
	int ruleset;
	struct hidden *hidden; /* counts the rules of each walk, for -v */
};

static int add_entry_rule(void *ctx, int fd, uint64_t rights, size_t hidden)
{
	struct kernel_sink *s = ctx;
	struct landlock_path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};

	s->hidden[hidden].rules++;
	return (int)landlock_add_rule(s->ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
}

/* A grant's rules: one on its path, or, with hidden paths beneath it, one on
 * each entry around them (hide.c); *ENTRIES says how many, or -1. */
static uint64_t add_grant_rules(const struct policy *p, int ruleset, const struct grant *g, int fd,
				const struct stat *known, long *entries, struct out *verbose)
{
	struct kernel_sink sink = {ruleset, p->asked.hidden};
	char canon[PATH_MAX];
	uint64_t rights = p->kernel.grant_rights[g->kind];

	if (!grant_hides(p, g, fd, canon))
		return add_path_rule(p, ruleset, g, fd, known);
	*entries = (long)expand_grant(p, fd, canon, rights, add_entry_rule, &sink, verbose);
	return rights;
}

/* Grant I of the run: the user's in command-line order, then, without
 * --ro, the --ro / that --hide implies (reading is confined to all but the
 * hidden paths, so / is walked around them like any other); NULL past the
 * last. */
const struct grant *grant_number(const struct request *r, size_t i)
{
	static const struct grant implied = {"--hide implies --ro", "/", GRANT_RO, 0};

	if (i < r->ngrants)
		return &r->grants[i];
	return i == r->ngrants && r->nhidden && !r->reads_granted ? &implied : NULL;
}

#define CAP_FSETID_BIT 4 /* CAP_FSETID (linux/capability.h, which musl-gcc cannot see) */

/* Whether FD's file carries a file capability (security.capability),
 * read through /proc since an O_PATH descriptor takes no fgetxattr; one
 * that cannot be read counts. */
static int has_file_capability(int fd)
{
	char link[SELF_FD_LINK];

	self_fd_link(fd, link);
	if (getxattr(link, "security.capability", NULL, 0) >= 0)
		return 1;
	return errno != ENODATA && errno != ENOTSUP;
}

/*
 * Whether a write grant (FD, its fstat ST) lets root's command map one of
 * root's setuid, setgid or file-capability programs shared, which keeps
 * the privilege where write(2) would take it (seccomp.c: GROUP_SETID_MAPS):
 * a directory may hold one, now or moved in later (searching it would cost
 * a stat per file at every launch); a file only if it is one. Asked only
 * where the metadata rules apply (not for another user, nor with
 * --allow-syscalls metadata), and not where --keep-caps hands on
 * CAP_FSETID, which keeps the bits through write(2) too.
 */
static int reaches_setid(const struct policy *p, int fd, const struct stat *st)
{
	if (!(p->kernel.refused & GROUP_METADATA) ||
	    (p->asked.keep_caps && holds_capability(CAP_FSETID_BIT)))
		return 0;
	if (S_ISDIR(st->st_mode))
		return 1;
	return S_ISREG(st->st_mode) &&
	       ((st->st_mode & (S_ISUID | S_ISGID)) || has_file_capability(fd));
}

/* -v: why the filter refuses shared mappings of files, once; or, with
 * io_uring allowed (its rings are shared mappings of its descriptor), that
 * it does not. */
static void print_setid_maps(struct out *o, const struct grant *g, int refused)
{
	if (refused)
		outf(o,
		     "landlock-run filter: mmap MAP_SHARED of a file refused (ENODEV): root's "
		     "command can write through %s %s, where a setuid file would keep its bit; "
		     "--allow-syscalls metadata allows it\n",
		     g->option, g->path);
	else
		outf(o,
		     "landlock-run filter: mmap MAP_SHARED of a file allowed for io_uring's "
		     "rings: root's command can write through %s %s, where a setuid file "
		     "would keep its bit through one\n",
		     g->option, g->path);
}

/* The grants' rules; GROUP_SETID_MAPS into *REFUSED if one reaches_setid.
 * EXEC_NEXT: the last descriptors are left to the exec of COMMAND, which
 * closes them; a launcher that stays closes them, to hold no grant open. */
static void add_path_rules(const struct policy *p, int ruleset, struct out *verbose,
			   uint64_t *refused, int exec_next)
{
	const struct request *r = &p->asked;
	struct fd_batch batch = {.n = 0};
	const struct grant *g, *setid = NULL;
	size_t i;

	for (i = 0; (g = grant_number(r, i)); i++) {
		int fd = open_grant(g, r->no_symlinks, &batch);
		const struct stat *known = NULL; /* a write grant's fstat, once */
		struct stat st;
		uint64_t rights = 0;
		long entries = -1;

		if (fd >= 0 && p->asked.guards && g->kind != GRANT_RO)
			check_guards(&p->asked, g, fd);
		if (fd >= 0 && g->kind == GRANT_RW) {
			if (fstat(fd, &st))
				die_errno("cannot stat %s path %s", g->option, g->path);
			known = &st;
			check_policy_dirs(&p->asked, g, fd, known);
		}
		if (fd >= 0)
			rights = r->nhidden ? add_grant_rules(p, ruleset, g, fd, known, &entries,
							      verbose)
					    : add_path_rule(p, ruleset, g, fd, known);
		if (verbose)
			print_grant(verbose, g, fd, rights, entries);
		if (known && !setid && (rights & LANDLOCK_ACCESS_FS_WRITE_FILE) &&
		    reaches_setid(p, fd, known))
			setid = g;
		if (fd >= 0)
			add_to_batch(&batch, fd);
	}
	if (!exec_next)
		close_batch(&batch);
	if (setid && (p->kernel.refused & GROUP_IO_URING))
		*refused |= GROUP_SETID_MAPS;
	if (setid && verbose)
		print_setid_maps(verbose, setid, (p->kernel.refused & GROUP_IO_URING) != 0);
	for (i = 0; verbose && i < r->nhidden; i++)
		outf(verbose, "landlock-run hide: --hide %s -> %s%s: %zu rules\n",
		     r->hidden[i].path, r->hidden[i].canon,
		     r->hidden[i].exists ? "" : " (does not exist)", r->hidden[i].rules);
}

/* --private-tmp: every right of --rw, on the descriptor made and checked
 * (tmpdir.c), never looked up again by name. Made empty, it holds no setuid
 * file but one moved in from another write grant, which reaches_setid. */
static void add_tmp_rule(const struct policy *p, int ruleset, struct out *verbose)
{
	const struct private_tmp *t = p->asked.tmp;
	struct landlock_path_beneath_attr rule = {
		.allowed_access = p->kernel.grant_rights[GRANT_RW],
		.parent_fd = t->dir,
	};

	if (landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0))
		die_errno("cannot add the rule for --private-tmp %s", t->path);
	if (verbose) {
		outf(verbose, "landlock-run grant: --private-tmp %s: ", t->path);
		put_names(verbose, fs_rights, rule.allowed_access, 0);
		outf(verbose, "\n");
	}
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

/* The ruleset with every rule added. No grant descriptor is left open but,
 * EXEC_NEXT, the last batch, which the exec of COMMAND closes. The filter's
 * groups the grants add go into *REFUSED. */
int build_ruleset(const struct policy *p, struct out *verbose, uint64_t *refused, int exec_next)
{
	/* A copy: what the kernel is given is never read back. */
	struct landlock_ruleset_attr attr = p->kernel.handled;
	int ruleset = landlock_create_ruleset(&attr, p->kernel.attr_size, 0);

	if (ruleset < 0)
		die_errno("cannot create the Landlock ruleset");
	add_path_rules(p, ruleset, verbose, refused, exec_next);
	if (p->asked.tmp)
		add_tmp_rule(p, ruleset, verbose);
	if (p->kernel.handled.handled_access_net)
		add_port_rules(&p->asked, ruleset);
	return ruleset;
}
