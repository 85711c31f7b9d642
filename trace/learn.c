/*
 * --learn FILE: run the command without Landlock (with --hide, confined by
 * the hidden paths alone) under the tracer, and record what it read,
 * executed, wrote, made and removed, which ports it bound and connected to,
 * and which scopes it crossed; fold.c turns that into the policy FILE.
 *
 * A run may use a path only sometimes: when FILE is already a policy
 * --learn wrote, what it grants is read back first and kept, so the runs
 * add up. A FILE that is something else is not merged, nor replaced.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../abi.h"
#include "../fd.h"
#include "../out.h"
#include "learner.h"

#define FS(r)  LANDLOCK_ACCESS_FS_##r
#define HEADER "# landlock-run --learn"
#define MADE                                                                           \
	(FS(MAKE_CHAR) | FS(MAKE_DIR) | FS(MAKE_REG) | FS(MAKE_SOCK) | FS(MAKE_FIFO) | \
	 FS(MAKE_BLOCK) | FS(MAKE_SYM))
/* refer alone is a hard link's source, which keeps its name: no change */
#define CHANGED_TREE (MADE | FS(REMOVE_DIR) | FS(REMOVE_FILE))

/* What a thread's watched call was about to do, found at its entry. */
struct entry {
	uint64_t tid;	       /* the key: the thread id at entry */
	const char *exec_path; /* the file an exec runs */
	int made;	       /* an O_CREAT open whose file was not there */
};

/* One "--kind=PORT,PORT" or "=none" line of an earlier policy. */
static void merge_ports(struct learner *l, const char *line)
{
	char option[24];
	const char *s, *end;
	int kind;

	for (kind = 0; kind < NET_KINDS; kind++) {
		port_option(option, net_rights[kind].bit);
		if (strncmp(line, option, strlen(option)) || line[strlen(option)] != '=')
			continue;
		for (s = line + strlen(option) + 1; *s >= '0' && *s <= '9';
		     s = end + (*end == ',')) {
			long port = number_at(s, &end, 65535);

			if (port >= 0)
				l->ports[kind][port / 64] |= 1ULL << (port % 64);
		}
	}
}

/* WORD is an item of the comma list LIST. */
static int listed(const char *list, const char *word)
{
	size_t len = strlen(word), n;

	for (; *list; list += n + (list[n] == ',')) {
		n = strcspn(list, ",");
		if (n == len && strncmp(list, word, len) == 0)
			return 1;
	}
	return 0;
}

/* The grants of an earlier policy of this FILE, kept; the run adds to them. */
static void merge(struct learner *l, char *text)
{
	static const struct {
		const char *prefix;
		size_t offset;
	} sets[] = {{"--rw=", offsetof(struct learner, rw)},
		    {"--ro=", offsetof(struct learner, ro)},
		    {"--unix=", offsetof(struct learner, unix_sockets)},
		    {"--rw-try=", offsetof(struct learner, rw_try)},
		    {"--ro-try=", offsetof(struct learner, ro_try)},
		    {MADE_NOTE, offsetof(struct learner, made_notes)}};
	char *line, *nl;
	size_t i;
	int scoped = 0;

	for (line = text; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		for (i = 0; i < sizeof sets / sizeof sets[0]; i++)
			if (strncmp(line, sets[i].prefix, strlen(sets[i].prefix)) == 0) {
				add_path((struct table *)((char *)l + sets[i].offset),
					 line + strlen(sets[i].prefix));
				add_path(&l->earlier, line);
			}
		merge_ports(l, line);
		if (strncmp(line, "--scope=", 8) == 0) {
			scoped = 1;
			l->signalled_out |= !listed(line + 8, "signal");
			l->reached_out |= !listed(line + 8, "abstract-unix");
		}
	}
	/* no --scope line: the earlier run crossed both (where the ABI has them) */
	if (!scoped && l->p->kernel.abi >= 6)
		l->signalled_out = l->reached_out = 1;
}

/* Far above any policy --learn writes (a line per grant). */
#define POLICY_MAX (64L << 20)

/* FILE, when it is there: read as the caller, before the command runs. */
static void read_earlier(struct learner *l)
{
	const struct report_target *t = &l->p->asked.learn_report;
	char *text;
	struct stat st;
	ssize_t n;
	int fd;

	if (t->fd >= 0)
		return; /* a pipe: nothing to add to */
	/* the unconfined command of an earlier run could have put anything
	 * there: only a regular file of a policy's size is read */
	fd = openat(t->dir, t->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return;
	if (fd < 0 || fstat(fd, &st))
		die_errno("cannot read the --learn file %s", t->path);
	text = S_ISREG(st.st_mode) && st.st_size <= POLICY_MAX
		       ? mapped((size_t)st.st_size + 1, "the earlier policy")
		       : NULL;
	n = text && st.st_size ? read(fd, text, (size_t)st.st_size) : 0;
	close(fd);
	if (!text || n != st.st_size || strncmp(text, HEADER, strlen(HEADER)))
		die("--learn %s exists and is not a policy --learn wrote: it is neither merged "
		    "nor replaced (remove it, or name another file)",
		    t->path);
	text[n] = '\0';
	merge(l, text);
}

struct learner *learn_start(const struct policy *p, const struct table *tracees)
{
	struct learner *l = mapped(sizeof *l, "the --learn state");

	l->p = p;
	l->tracees = tracees;
	l->entries.size = sizeof(struct entry);
	never_start(&l->never);
	read_earlier(l);
	return l;
}

/* FILE is created once the tracer holds no more power than the command. */
void learn_open(struct learner *l)
{
	report_create(&l->file, &l->p->asked.learn_report);
}

/* The file an exec runs is gone from memory once it succeeds: find it at
 * entry, and keep it until the call returns. */
void learn_entry(struct learner *l, const struct call_result *entry)
{
	struct entry *e = table_put(&l->entries, (uint64_t)entry->tid);
	char path[PATH_MAX];

	e->exec_path = exec_file(entry, path) == 0 ? table_keep(&l->ro, path, strlen(path)) : NULL;
	e->made = open_makes(entry);
}

static void learn_fs(struct learner *l, const struct need *n)
{
	const struct effective *k = &l->p->kernel;
	char tree[PATH_MAX];

	if (n->rights & MADE)
		add_path(&l->made, n->object);
	if (n->rights & FS(MAKE_DIR))
		add_path(&l->made_dirs, n->object);
	/* where the run makes and removes things beneath $HOME: a tool's tree */
	if (n->rights & CHANGED_TREE) {
		state_tree(l, n->object, tree);
		if (tree[0])
			add_path(&l->trees, tree);
	}
	if (n->rights == FS(IOCTL_DEV)) {
		/* a device opened during the run; not one inherited */
		if (strset_has(&l->ro, n->anchor, strlen(n->anchor)))
			add_path(&l->rw, n->anchor);
	} else if (!(n->rights & ~k->grant_rights[GRANT_RO])) {
		add_path(&l->ro, n->anchor);
	} else if (n->rights == FS(RESOLVE_UNIX)) {
		add_path(&l->unix_sockets, n->anchor);
	} else if (n->rights == FS(REFER)) {
		add_path(&l->linked, n->anchor); /* fold.c: write there only if written */
	} else {
		/* a mkdir is learned as the directory made: fold.c decides
		 * whether the next run needs its parent, or the directory alone */
		add_path(&l->rw, n->rights == FS(MAKE_DIR) ? n->object : n->anchor);
	}
}

static void learn_need(struct learner *l, const struct need *n)
{
	switch (n->kind) {
	case NEED_FS: learn_fs(l, n); break;
	case NEED_CAP: break; /* no grant gives a capability back */
	case NEED_NET:
		l->ports[__builtin_ctzll(n->rights)][n->number / 64] |= 1ULL << (n->number % 64);
		break;
	case NEED_SCOPE:
		if (n->rights == LANDLOCK_SCOPE_SIGNAL)
			l->signalled_out |= !in_traced_tree(l->tracees, (pid_t)n->number);
		else if (n->number < 0)
			add_path(&l->abstract_made, n->object);
		else
			l->reached_out |=
				!strset_has(&l->abstract_made, n->object, strlen(n->object));
		break;
	}
}

/* A device whose driver says no one is there (/dev/tty without a terminal:
 * ENXIO; ENODEV) was still opened as far as Landlock is concerned: the
 * confined run is refused it first. */
static int opened_device(const struct call_result *r)
{
	return (r->ret == -ENXIO || r->ret == -ENODEV) &&
	       (r->call == CALL_open || r->call == CALL_openat || r->call == CALL_openat2);
}

void learn_call(struct learner *l, struct call_result *r)
{
	struct entry *e = table_get(&l->entries, (uint64_t)r->entered);
	int i;

	r->entry_path = e ? e->exec_path : NULL;
	r->made = e ? e->made : 0;
	table_del(&l->entries, (uint64_t)r->entered);
	if (r->ret < 0 && !opened_device(r))
		return;
	find_needs(r);
	if (r->unseen && !l->unseen++)
		read_who(r->tid, &l->first_unseen);
	for (i = 0; i < r->nneeds; i++)
		learn_need(l, &r->needs[i]);
}

/* Fold what the run used and write the policy; a run cut short used less
 * than the command needs, and leaves FILE as it was. */
void learn_thread(struct learner *l)
{
	l->threaded = 1;
}

void learn_finish(struct learner *l, int interrupted)
{
	if (interrupted)
		report_discard(&l->file);
	else
		write_policy(l);
}
