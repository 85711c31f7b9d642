/*
 * --learn FILE: run the command without Landlock under the tracer, record
 * what it read, executed, wrote, made, removed, and which TCP ports it bound
 * and connected to, then write the smallest policy that allows all of it to
 * FILE, in the @FILE format: `landlock-run @FILE -- COMMAND` runs the same.
 *
 * How paths are folded, so the policy stays short and a rerun that reads
 * one more header still works, without granting what the run did not use:
 *   - writes: the file written, or the directory something was made in or
 *     removed from; never / itself;
 *   - reads and executes: the directory of each file read (a directory
 *     listed: itself); beneath the system trees /usr, /etc, /opt, /bin,
 *     /sbin and /lib*, the tree as a whole; a file directly in / or in /dev
 *     stays a file; /proc/PID is /proc;
 *   - a path that no longer exists becomes its nearest existing directory;
 *     one that cannot be written on a line (a newline in it) its nearest
 *     directory that can; whatever a wider grant covers is left out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracer.h"

#define FS(r) LANDLOCK_ACCESS_FS_##r

struct learner {
	const struct policy *p;
	const struct table *tracees;
	struct report file; /* FILE */
	struct table ro, rw, unix_sockets;
	struct table abstract_made;	       /* abstract socket names bound inside */
	uint64_t ports[NET_KINDS][65536 / 64]; /* bound and connected to, per kind */
	int signalled_out, reached_out;	       /* what --scope signal, abstract-unix would refuse */
	int skipped_root;		       /* a write in / itself, never granted */
};

static const char *const system_trees[] = {"/usr", "/etc",   "/opt",   "/bin",	 "/sbin",
					   "/lib", "/lib32", "/lib64", "/libx32"};

struct learner *learn_start(const struct policy *p, const struct table *tracees)
{
	struct learner *l = mapped(sizeof *l, "the --learn state");

	l->p = p;
	l->tracees = tracees;
	report_create(&l->file, &p->asked.learn_report);
	return l;
}

/* The file an exec runs is gone from memory once it succeeds: find it at
 * entry, and keep it with the thread. */
void learn_entry(struct learner *l, struct tracee *t)
{
	char path[PATH_MAX];

	t->exec_path = exec_file(t, path) == 0 ? table_keep(&l->ro, path, strlen(path)) : NULL;
	t->made = open_makes(t);
}

static void add_path(struct table *set, const char *path)
{
	strset_add(set, path, strlen(path));
}

static void learn_need(struct learner *l, const struct need *n)
{
	const struct effective *k = &l->p->kernel;

	switch (n->kind) {
	case NEED_FS:
		if (n->rights == FS(IOCTL_DEV)) {
			/* a device opened during the run; not one inherited */
			if (strset_has(&l->ro, n->anchor, strlen(n->anchor)))
				add_path(&l->rw, n->anchor);
		} else if (!(n->rights & ~k->grant_rights[GRANT_RO])) {
			add_path(&l->ro, n->anchor);
		} else if (n->rights == FS(RESOLVE_UNIX)) {
			add_path(&l->unix_sockets, n->anchor);
		} else {
			add_path(&l->rw, n->anchor);
		}
		break;
	case NEED_NET:
		l->ports[__builtin_ctzll(n->rights)][n->number / 64] |= 1ULL << (n->number % 64);
		break;
	case NEED_SCOPE:
		if (n->rights == LANDLOCK_SCOPE_SIGNAL)
			l->signalled_out |= !table_get(l->tracees, (uint64_t)n->number);
		else if (n->number < 0)
			add_path(&l->abstract_made, n->object);
		else
			l->reached_out |=
				!strset_has(&l->abstract_made, n->object, strlen(n->object));
		break;
	}
}

void learn_call(struct learner *l, struct call_result *r, struct tracee *t)
{
	int i;

	r->entry_path = t->exec_path;
	r->made = t->made;
	t->exec_path = NULL;
	if (r->ret < 0)
		return;
	find_needs(r, t);
	for (i = 0; i < r->nneeds; i++)
		learn_need(l, &r->needs[i]);
}

static int in_tree(const char *path, const char *tree)
{
	size_t n = strlen(tree);

	return strncmp(path, tree, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static void cut_last(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash == path)
		path[1] = '\0';
	else if (slash)
		*slash = '\0';
}

/* Where a read of PATH is granted (see the top of this file). */
static void fold_read(char *path)
{
	struct stat st;
	size_t i;

	grantable(path);
	for (i = 0; i < sizeof system_trees / sizeof system_trees[0]; i++)
		if (in_tree(path, system_trees[i])) {
			path[strlen(system_trees[i])] = '\0';
			return;
		}
	if ((stat(path, &st) == 0 && S_ISDIR(st.st_mode)) || in_tree(path, "/dev"))
		return;
	if (strrchr(path, '/') != path)
		cut_last(path);
}

/* The nearest path, PATH or a directory above it, that exists and can be
 * written on one line of the policy. */
static void settle(char *path)
{
	struct stat st;

	while (strcmp(path, "/") != 0 && (strchr(path, '\n') || lstat(path, &st)))
		cut_last(path);
}

/* PATH or (unless SELF is 0) a directory above it is in SET. */
static int covered(const struct table *set, const char *path, int self)
{
	size_t n = strlen(path);

	if (self && strset_has(set, path, n))
		return 1;
	while (n > 1) {
		while (n > 1 && path[n - 1] != '/')
			n--;
		n = n > 1 ? n - 1 : 1; /* the directory, without its slash */
		if (strset_has(set, path, n))
			return 1;
	}
	return 0;
}

/* Heapsort: sorted lines keep the policy stable from run to run, and
 * musl's qsort would cost more code than the policy it sorts. */
static void sift(const char **v, size_t root, size_t n)
{
	size_t child;
	const char *tmp;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && strcmp(v[child], v[child + 1]) < 0)
			child++;
		if (strcmp(v[root], v[child]) >= 0)
			return;
		tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
		root = child;
	}
}

static void sort_paths(const char **v, size_t n)
{
	size_t i;
	const char *tmp;

	for (i = n / 2; i-- > 0;)
		sift(v, i, n);
	for (i = n; i-- > 1;) {
		tmp = v[0];
		v[0] = v[i];
		v[i] = tmp;
		sift(v, 0, i);
	}
}

/* The paths of SET that neither WIDER nor another path of SET covers,
 * sorted, one "OPTION=path" line each. */
static void put_grants(struct out *o, const char *option, const struct table *set,
		       const struct table *wider)
{
	const char **paths, *s;
	size_t i = 0, n = 0, k;

	if (!set->used)
		return;
	paths = mapped(set->used * sizeof *paths, "the policy's lines");
	while ((s = strset_next(set, &i)))
		if (!covered(set, s, 0) && !(wider && covered(wider, s, 1)))
			paths[n++] = s;
	sort_paths(paths, n);
	for (k = 0; k < n; k++)
		outf(o, "%s=%s\n", option, paths[k]);
}

/* Every path of FROM, made a grant by FOLD (NULL: as it is), into TO. */
static void settle_all(struct learner *l, const struct table *from, struct table *to,
		       void (*fold)(char *), int writes)
{
	char path[PATH_MAX];
	const char *s;
	size_t i = 0;

	while ((s = strset_next(from, &i))) {
		join(path, sizeof path, s, NULL);
		if (fold)
			fold(path);
		grantable(path);
		settle(path);
		if (writes && strcmp(path, "/") == 0)
			l->skipped_root = 1; /* --rw / is never written */
		else
			add_path(to, path);
	}
}

/* --tcp-bind=80,443 or --tcp-bind=none, for each kind of port rule the ABI has. */
static void put_ports(struct out *o, const struct learner *l)
{
	char option[24];
	const char *sep;
	unsigned port;
	int kind;

	for (kind = 0; kind < NET_KINDS; kind++) {
		if (net_rights[kind].abi > l->p->kernel.abi)
			continue;
		port_option(option, net_rights[kind].bit);
		outf(o, "%s", option);
		for (port = 0, sep = "="; port < 65536; port++)
			if (l->ports[kind][port / 64] >> (port % 64) & 1) {
				outf(o, "%s%u", sep, port);
				sep = ",";
			}
		outf(o, "%s\n", sep[0] == '=' ? "=none" : "");
	}
}

static void put_header(struct out *o, const struct learner *l)
{
	char *const *arg;

	outf(o,
	     "# landlock-run --learn: what this command used, as a policy for\n"
	     "#   landlock-run @%s -- COMMAND\n"
	     "# Reads and executes are granted per directory (the system trees whole),\n"
	     "# writes on what was written, or where something was made or removed;\n"
	     "# see landlock-run(1), --learn.\n# command:",
	     l->p->asked.learn);
	o->escape = ESCAPE_C; /* one line, whatever the arguments hold */
	for (arg = l->p->asked.command; *arg; arg++)
		outf(o, " %s", *arg);
	o->escape = ESCAPE_NONE;
	outf(o, "\n");
	if (l->skipped_root)
		outf(o, "# not granted: a write in / itself (--rw / is never written)\n");
}

/* Fold what the run used and write the policy; a policy that cannot be
 * written is a launcher failure (125), even though the command ran. */
void learn_finish(struct learner *l)
{
	const struct effective *k = &l->p->kernel;
	struct table ro = {0}, rw = {0}, unix_sockets = {0};
	struct out o = {.fd = l->file.fd};

	settle_all(l, &l->rw, &rw, NULL, 1);
	settle_all(l, &l->ro, &ro, fold_read, 0);
	settle_all(l, &l->unix_sockets, &unix_sockets, NULL, 0);
	put_header(&o, l);
	put_grants(&o, "--rw", &rw, NULL);
	put_grants(&o, "--ro", &ro, &rw);
	/* What this ABI cannot confine is not written: the policy must run here. */
	if (k->abi >= 9)
		put_grants(&o, "--unix", &unix_sockets, &rw);
	put_ports(&o, l);
	if (k->abi >= 6 && !(l->signalled_out && l->reached_out))
		outf(&o, "--scope=%s%s%s\n", l->signalled_out ? "" : "signal",
		     l->signalled_out || l->reached_out ? "" : ",",
		     l->reached_out ? "" : "abstract-unix");
	out_flush(&o);
	if (o.failed)
		die_errno("cannot write the --learn file %s", l->p->asked.learn);
	report_commit(&l->file);
}
