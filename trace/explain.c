/*
 * --explain: was a failed call the sandbox's doing? Decided from the
 * policy itself, as the kernel decides: the right must be handled, and no
 * grant on the object or a directory above it (by inode, as Landlock
 * walks up) may allow it. A call the file's mode bits refuse anyway is an
 * ordinary permission error and is not reported. Each distinct denial is
 * reported once: a "landlock-run denied: " line on stderr (--explain), a
 * JSON object on a line of the --explain-json file.
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

struct grant_inode {
	dev_t dev;
	ino_t ino;
	uint64_t rights;
};

struct explainer {
	const struct policy *p;
	const struct table *tracees;
	struct grant_inode *grants;
	size_t ngrants;
	struct table seen;    /* denials reported */
	int json;	      /* the --explain-json file, or -1 */
	struct report report; /* where it goes */
	struct out line;
};

static const struct {
	int err;
	const char *name;
} errnames[] = {{EACCES, "EACCES"}, {EPERM, "EPERM"}, {EXDEV, "EXDEV"}};

static const char *errname(int err)
{
	size_t i;

	for (i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	return NULL;
}

/* The grants as the kernel holds them: rights on inodes. */
static void resolve_grants(struct explainer *e)
{
	const struct effective *k = &e->p->kernel;
	size_t i;

	e->grants = mapped((e->p->asked.ngrants + 1) * sizeof *e->grants, "the grant table");
	for (i = 0; i < e->p->asked.ngrants; i++) {
		const struct grant *g = &e->p->asked.grants[i];
		struct grant_inode *gi = &e->grants[e->ngrants];
		struct stat st;

		if (stat(g->path, &st))
			continue; /* a -try grant that is not there */
		gi->dev = st.st_dev;
		gi->ino = st.st_ino;
		gi->rights =
			k->grant_rights[g->kind] & (S_ISDIR(st.st_mode) ? ~0ULL : k->file_rights);
		e->ngrants++;
	}
}

struct explainer *explain_start(const struct policy *p, const struct table *tracees)
{
	struct explainer *e = mapped(sizeof *e, "the --explain state");

	e->p = p;
	e->tracees = tracees;
	e->json = -1;
	e->line.fd = STDERR_FILENO;
	e->line.escape = ESCAPE_C;
	if (p->asked.explain_json) {
		report_create(&e->report, &p->asked.json_report);
		e->json = e->report.fd;
	}
	resolve_grants(e);
	return e;
}

static uint64_t rules_on(const struct explainer *e, const struct stat *st)
{
	uint64_t rights = 0;
	size_t i;

	for (i = 0; i < e->ngrants; i++)
		if (e->grants[i].dev == st->st_dev && e->grants[i].ino == st->st_ino)
			rights |= e->grants[i].rights;
	return rights;
}

/* What the policy allows on ANCHOR: the rules on it and on every directory
 * above it, up to the root, across mount points as the kernel goes. */
static uint64_t allowed(const struct explainer *e, const char *anchor)
{
	struct stat st, up;
	uint64_t rights = 0;
	int fd = open(anchor, O_PATH | O_NOFOLLOW | O_CLOEXEC), parent;

	if (fd < 0 || fstat(fd, &st))
		return ~0ULL; /* gone: nothing to say */
	if (!S_ISDIR(st.st_mode)) {
		char dir[PATH_MAX];

		rights = rules_on(e, &st);
		close(fd);
		dir_of(dir, anchor);
		fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st))
			return ~0ULL;
	}
	for (;;) {
		rights |= rules_on(e, &st);
		parent = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		if (parent < 0 || fstat(parent, &up) ||
		    (up.st_dev == st.st_dev && up.st_ino == st.st_ino))
			break;
		fd = parent;
		st = up;
	}
	if (parent >= 0)
		close(parent);
	return rights;
}

/* The mount a path is on, from /proc/self/fdinfo: a rename across mounts
 * is EXDEV whatever the sandbox says. */
static long mount_of(const char *path)
{
	char info[48], num[24], mnt[24];
	int fd = open(path, O_PATH | O_CLOEXEC), found;

	if (fd < 0)
		return -1;
	join(info, sizeof info, "/proc/self/fdinfo/", decimal(fd, num), NULL);
	found = proc_field(info, "mnt_id", mnt, sizeof mnt) == 0;
	close(fd);
	return found ? (long)strtoul(mnt, NULL, 10) : -1;
}

/* The rights of a filesystem need the sandbox refused, given the errno:
 * EXDEV is a missing refer (EACCES wins when more is missing). ABI 1 has
 * no refer right: it refuses every move across directories. */
static uint64_t refused_fs(const struct explainer *e, const struct call_result *r,
			   const struct need *n, int err)
{
	const struct effective *k = &e->p->kernel;
	uint64_t handled = k->handled.handled_access_fs;
	uint64_t missing;

	if (!(k->fs_abi & FS(REFER)))
		handled |= FS(REFER);
	missing = n->rights & handled & ~allowed(e, n->anchor);
	if (err == EACCES)
		return missing & ~FS(REFER);
	if (err != EXDEV || r->nneeds < 2 ||
	    mount_of(r->needs[0].anchor) != mount_of(r->needs[1].anchor))
		return 0;
	return missing & FS(REFER);
}

/* A signal to a process outside the traced tree, an abstract socket made
 * outside it: what --scope refuses with EPERM. */
static uint64_t refused_other(const struct explainer *e, const struct need *n, int err)
{
	const struct landlock_ruleset_attr *h = &e->p->kernel.handled;

	if (n->kind == NEED_NET) {
		const struct ports *ports = &e->p->asked.net[__builtin_ctzll(n->rights)];

		return err == EACCES && n->rights & h->handled_access_net &&
				       !(ports->listed && port_listed(ports, (unsigned)n->number))
			       ? n->rights
			       : 0;
	}
	if (err != EPERM || !(n->rights & h->scoped) || n->number < 0)
		return 0;
	if (n->rights == LANDLOCK_SCOPE_SIGNAL && table_get(e->tracees, (uint64_t)n->number))
		return 0;
	return n->rights;
}

/* What would allow it: an option and its argument, a scope to leave out,
 * or nothing (a right this ABI does not have: refer on ABI 1). */
struct advice {
	const char *option;
	char option_buf[24];
	char arg[PATH_MAX];
	const char *scope;
};

static const struct name *names_of(enum need_kind kind)
{
	return kind == NEED_FS ? fs_rights : kind == NEED_NET ? net_rights : scope_names;
}

static void advise(const struct explainer *e, const struct need *n, uint64_t refused,
		   struct advice *a)
{
	const struct effective *k = &e->p->kernel;
	const struct name *s;

	a->option = a->scope = NULL;
	a->arg[0] = '\0';
	if (n->kind == NEED_SCOPE)
		for (s = scope_names; s->name; s++)
			if (s->bit == refused)
				a->scope = s->name;
	if (n->kind == NEED_NET) {
		char port[24];

		port_option(a->option_buf, refused);
		a->option = a->option_buf;
		join(a->arg, sizeof a->arg, decimal(n->number, port), NULL);
	}
	if (n->kind != NEED_FS || refused & ~k->fs_abi)
		return;
	a->option = !(refused & ~k->grant_rights[GRANT_RO])	? "--ro"
		    : !(refused & ~k->grant_rights[GRANT_UNIX]) ? "--unix"
								: "--rw";
	join(a->arg, sizeof a->arg, n->anchor, NULL);
	grantable(a->arg);
}

/* What was refused, as the line and the JSON say it: the object, the port,
 * or the process signalled. */
static void put_what(struct out *o, const struct need *n, uint64_t refused)
{
	put_names(o, names_of(n->kind), refused, 0);
	if (n->kind == NEED_FS || n->number == 0)
		outf(o, " %s", n->object);
	else if (n->kind == NEED_NET)
		outf(o, " port %ld", n->number);
	else
		outf(o, " to pid %ld", n->number);
}

static void print_line(struct explainer *e, const struct call_result *r, const struct need *n,
		       uint64_t refused, const struct who *w, const struct advice *a)
{
	struct out *o = &e->line;

	outf(o, "landlock-run denied: ");
	put_what(o, n, refused);
	outf(o, " (%s by %s[%s]): ", calls[r->call].name, w->comm, w->pid);
	if (a->option)
		outf(o, "allow with %s %s\n", a->option, a->arg);
	else if (a->scope)
		outf(o, "allow by leaving %s out of --scope\n", a->scope);
	else
		outf(o, "Landlock ABI %d cannot allow it (refer needs ABI 2)\n", e->p->kernel.abi);
	out_flush(o); /* diagnostics: a closed stderr stops nothing */
}

static void print_json(struct explainer *e, const struct call_result *r, const struct need *n,
		       uint64_t refused, const struct who *w, const struct advice *a)
{
	static const char *const kinds[] = {
		[NEED_FS] = "fs", [NEED_NET] = "net", [NEED_SCOPE] = "scope"};
	struct out o = {.fd = e->json, .escape = ESCAPE_JSON};
	struct kv kv = {.o = &o, .json = 1};
	const struct name *right = names_of(n->kind);

	while (!(right->bit & refused))
		right++;
	kv_word(&kv, "kind", kinds[n->kind]);
	kv_int(&kv, "pid", (long)strtoul(w->pid, NULL, 10));
	kv_word(&kv, "comm", w->comm);
	kv_word(&kv, "syscall", calls[r->call].name);
	kv_word(&kv, "right", right->name);
	kv_names(&kv, "rights", names_of(n->kind), refused);
	kv_word(&kv, "errno", errname((int)-r->ret));
	if (n->kind == NEED_FS || n->number == 0)
		kv_word(&kv, "path", n->object);
	else
		kv_int(&kv, n->kind == NEED_NET ? "port" : "target", n->number);
	kv_key(&kv, "allow");
	if (a->option)
		outf(&o, "[\"%s\",\"%s\"]", a->option, a->arg);
	else
		outf(&o, "[]");
	if (a->scope)
		kv_word(&kv, "scope", a->scope);
	kv_end(&kv);
	out_flush(&o);
}

/* The same denial twice is one report: same rights on the same object. */
static int first_time(struct explainer *e, const struct need *n, uint64_t refused, int add)
{
	char key[PATH_MAX + 80], k[24], r[24], m[24];

	join(key, sizeof key, decimal(n->kind, k), ":", decimal((long)refused, r), ":",
	     decimal(n->number, m), ":", n->object, NULL);
	return add ? strset_add(&e->seen, key, strlen(key))
		   : !strset_has(&e->seen, key, strlen(key));
}

void explain_call(struct explainer *e, struct call_result *r, const struct tracee *t)
{
	int err = r->ret < 0 ? (int)-r->ret : 0, i, known = 0;
	struct advice a;
	struct who w;

	if (!errname(err))
		return;
	find_needs(r, t);
	for (i = 0; i < r->nneeds; i++) {
		const struct need *n = &r->needs[i];
		uint64_t refused =
			n->kind == NEED_FS ? refused_fs(e, r, n, err) : refused_other(e, n, err);

		if (!refused || !first_time(e, n, refused, 0))
			continue;
		if (!known && read_who(r->tid, &w))
			return; /* the process is gone */
		known = 1;
		if (n->kind == NEED_FS && mode_refuses(&w, n->anchor, refused))
			continue;
		if (n->kind == NEED_SCOPE && n->number && !may_signal(&w, n->number))
			continue;
		first_time(e, n, refused, 1);
		advise(e, n, refused, &a);
		if (e->p->asked.explain)
			print_line(e, r, n, refused, &w, &a);
		if (e->json >= 0)
			print_json(e, r, n, refused, &w, &a);
	}
}

/* The JSON report is whole once the traced tree is gone. */
void explain_finish(struct explainer *e)
{
	if (e->json >= 0)
		report_commit(&e->report);
}
