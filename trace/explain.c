/*
 * --explain: was a failed call the sandbox's doing? Decided from the
 * policy itself, as the kernel decides: the right must be handled, and no
 * grant on the object or a directory above it (by inode, as Landlock
 * walks up) may allow it. A call the file's mode bits refuse anyway is an
 * ordinary permission error and is not reported. Each distinct denial is
 * reported once: a "landlock-run denied: " line on stderr (--explain), a
 * JSON object on a line of the --explain-json file. The denials of one kind
 * beneath /proc/PID (a ps, a test suite's short-lived processes each reading
 * its own /proc/self/maps) are one report at the end, with the number of
 * processes and the first path: one line instead of one per process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../abi.h"
#include "../fd.h"
#include "../grants.h"
#include "../hide.h"
#include "../inherit.h"
#include "../out.h"
#include "../seccomp.h"
#include "never.h"
#include "tracer.h"

#define FS(r) LANDLOCK_ACCESS_FS_##r

struct grant_inode {
	dev_t dev;
	ino_t ino;
	uint64_t rights;
};

struct fold; /* the denials of one kind beneath /proc/PID */

struct explainer {
	const struct policy *p;
	const struct table *tracees; /* the tracer's: the traced tree */
	unsigned long unlisted;	     /* denials past DENIALS_MAX distinct ones */
	unsigned long unseen;	     /* failed calls of processes closed to the tracer */
	struct who first_unseen;
	struct grant_inode *grants;
	size_t ngrants, room;
	struct table seen;  /* denials reported */
	struct fold *folds; /* FOLDS_MAX of them, in the order they began */
	size_t nfolds;
	struct table fold_pids; /* fold and /proc/PID, /proc/PID/task/TID seen in it */
	int json;		/* the --explain-json file, or -1 */
	int json_failed;	/* a write to it failed: it is not whole */
	struct report report;	/* where it goes */
	struct out line;
	struct never never; /* what is never advised */
	uint64_t dropped;   /* the capabilities the command lost to the launcher */
	int ids_fixed;	    /* the caller's real, effective and saved ids are one: */
	uid_t uid;	    /* then, without a capability, the command's fsuid and */
	gid_t gid;	    /* fsgid stay these for the whole run */
};

/* One JSON record out; a record lost makes the report not whole. */
static void json_flush(struct explainer *e, struct out *o)
{
	out_flush(o);
	e->json_failed |= o->failed;
}

static const struct {
	int err;
	const char *name;
} errnames[] = {{EACCES, "EACCES"},
		{EPERM, "EPERM"},
		{EXDEV, "EXDEV"},
		{ENOSYS, "ENOSYS"},
		{EAFNOSUPPORT, "EAFNOSUPPORT"},
		{EOPNOTSUPP, "EOPNOTSUPP"},
		{ENODEV, "ENODEV"}};

/* The errors a Landlock denial or a scope's refusal comes with. */
static int denial_errno(int err)
{
	return err == EACCES || err == EPERM || err == EXDEV;
}

static const char *errname(int err)
{
	size_t i;

	for (i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	return NULL;
}

/* One rule as the kernel holds it: RIGHTS on the inode FD is. */
static int add_inode(void *ctx, int fd, uint64_t rights, size_t hidden)
{
	struct explainer *e = ctx;
	struct grant_inode *gi;
	struct stat st;

	(void)hidden;
	if (fstat(fd, &st))
		return -1;
	if (e->ngrants == e->room) {
		struct grant_inode *more = mapped((e->room * 2 + 64) * sizeof *more, "the rules");

		if (e->ngrants)
			memcpy(more, e->grants, e->ngrants * sizeof *more);
		if (e->grants)
			munmap(e->grants, e->room * sizeof *more);
		e->grants = more;
		e->room = e->room * 2 + 64;
	}
	gi = &e->grants[e->ngrants++];
	gi->dev = st.st_dev;
	gi->ino = st.st_ino;
	gi->rights = rights & (S_ISDIR(st.st_mode) ? ~0ULL : e->p->kernel.file_rights);
	return 0;
}

/* The rules as the kernel holds them: rights on inodes, a grant around its
 * hidden paths as the rules on the entries around them (hide.c). */
static void resolve_grants(struct explainer *e)
{
	const struct request *r = &e->p->asked;
	const struct grant *g;
	char canon[PATH_MAX];
	size_t i;
	int fd;

	for (i = 0; (g = grant_number(r, i)); i++) {
		uint64_t rights = e->p->kernel.grant_rights[g->kind];

		fd = open_at(AT_FDCWD, g->path, O_PATH, r->no_symlinks);
		if (fd < 0)
			continue; /* a -try grant that is not there */
		if (r->nhidden && grant_hides(e->p, g, fd, canon))
			expand_grant(e->p, fd, canon, rights, add_inode, e, NULL);
		else
			add_inode(e, fd, rights, 0);
		close(fd);
	}
}

/* Without CAP_SETUID or CAP_SETGID a process may only swap among its real,
 * effective and saved ids: when they are one, so is its fsuid (fsgid). */
static void fixed_ids(struct explainer *e)
{
	uid_t r = 0, eu = 0, s = 0;
	gid_t rg = 0, eg = 0, sg = 0;

	e->ids_fixed = getresuid(&r, &eu, &s) == 0 && getresgid(&rg, &eg, &sg) == 0 && r == eu &&
		       eu == s && rg == eg && eg == sg;
	e->uid = eu;
	e->gid = eg;
}

/* The grants are the caller's, resolved while the tracer still has the
 * caller's powers; the report is created once it has dropped them. */
struct explainer *explain_start(const struct policy *p, const struct table *tracees)
{
	struct explainer *e = mapped(sizeof *e, "the --explain state");

	e->p = p;
	e->tracees = tracees;
	e->json = -1;
	e->line.fd = STDERR_FILENO;
	e->line.escape = ESCAPE_C;
	never_start(&e->never);
	e->dropped = dropped_capabilities(p->asked.keep_caps);
	fixed_ids(e);
	resolve_grants(e);
	return e;
}

void explain_open(struct explainer *e)
{
	if (!e->p->asked.explain_json)
		return;
	report_create(&e->report, &e->p->asked.json_report);
	e->json = e->report.fd;
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
	int fd = openat(AT_FDCWD, anchor, O_PATH | O_NOFOLLOW | O_CLOEXEC), parent;

	if (fd < 0 || fstat(fd, &st))
		return ~0ULL; /* gone: nothing to say */
	if (!S_ISDIR(st.st_mode)) {
		char dir[PATH_MAX];

		rights = rules_on(e, &st);
		close(fd);
		dir_of(dir, anchor);
		fd = openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
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
	int fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC), found;

	if (fd < 0)
		return -1;
	join(info, sizeof info, "/proc/self/fdinfo/", decimal(fd, num), NULL);
	found = proc_field(info, "mnt_id", mnt, sizeof mnt) == 0;
	close(fd);
	return found ? (long)strtoul(mnt, NULL, 10) : -1;
}

/* The rights the policy handles; ABI 1 has no refer right, and refuses
 * every move across directories. */
static uint64_t handled_fs(const struct explainer *e)
{
	const struct effective *k = &e->p->kernel;

	return k->handled.handled_access_fs | (k->fs_abi & FS(REFER) ? 0 : FS(REFER));
}

/* The rights of the file at OBJECT would gain by moving from the directory
 * FROM to TO: what TO allows and neither FROM nor a rule on the file
 * itself does; of a file that is no directory, only the file rights. */
static uint64_t gains(const struct explainer *e, const char *object, const char *from,
		      const char *to, int dir)
{
	uint64_t own = 0;
	struct stat st;

	if (lstat(object, &st) == 0)
		own = rules_on(e, &st);
	return allowed(e, to) & ~(allowed(e, from) | own) & handled_fs(e) &
	       (dir ? ~0ULL : e->p->kernel.file_rights);
}

/*
 * A move across directories, as the kernel checks and logs it: refer on
 * both sides; if what moves would gain a right, every handled right
 * either side lacks is a blocker of that side, else only those asked.
 * EACCES when a side lacks more than refer, else EXDEV (on one mount).
 */
static uint64_t refused_move(const struct explainer *e, const struct call_result *r,
			     const struct need *n, int err)
{
	const struct need *src = &r->needs[0], *dst = &r->needs[1];
	uint64_t handled = handled_fs(e), lack_src, lack_dst, escalates;

	escalates = gains(e, src->object, src->anchor, dst->anchor, r->move & MOVE_DIR);
	if (r->move & MOVE_EXCHANGE)
		escalates |=
			gains(e, dst->object, dst->anchor, src->anchor, r->move & MOVE_BACK_DIR);
	lack_src = handled & ~allowed(e, src->anchor);
	lack_dst = handled & ~allowed(e, dst->anchor);
	if (err == EXDEV &&
	    (mount_of(src->anchor) != mount_of(dst->anchor) ||
	     (src->rights & lack_src & ~FS(REFER)) || (dst->rights & lack_dst & ~FS(REFER))))
		return 0;
	if (err == EACCES && !(src->rights & lack_src & ~FS(REFER)) &&
	    !(dst->rights & lack_dst & ~FS(REFER)))
		return 0;
	if (err != EACCES && err != EXDEV)
		return 0;
	return (n == src ? lack_src : lack_dst) & (escalates ? ~0ULL : n->rights);
}

/* The rights of a filesystem need the sandbox refused, given the errno. An
 * open with O_TRUNC truncates once the open itself was allowed: truncate
 * is refused alone or not at all. */
static uint64_t refused_fs(const struct explainer *e, const struct call_result *r,
			   const struct need *n, int err)
{
	uint64_t missing;

	if (r->move && r->nneeds >= 2 && n <= &r->needs[1])
		return refused_move(e, r, n, err);
	missing = n->rights & handled_fs(e) & ~allowed(e, n->anchor);
	if (err != EACCES)
		return 0;
	if (missing & ~FS(TRUNCATE))
		missing &= ~FS(TRUNCATE);
	return missing & ~FS(REFER);
}

/* A signal to a process outside the traced tree, an abstract socket made
 * outside it: what --scope refuses with EPERM; or a dropped capability. */
static uint64_t refused_other(const struct explainer *e, const struct need *n, int err)
{
	const struct landlock_ruleset_attr *h = &e->p->kernel.handled;

	/* no Landlock right: EPERM from a capability the launcher took away */
	if (n->kind == NEED_CAP)
		return err == EPERM && n->rights & e->dropped ? n->rights : 0;
	if (n->kind == NEED_NET) {
		const struct ports *ports = &e->p->asked.net[__builtin_ctzll(n->rights)];

		return err == EACCES && n->rights & h->handled_access_net &&
				       !(ports->listed && port_listed(ports, (unsigned)n->number))
			       ? n->rights
			       : 0;
	}
	if (err != EPERM || !(n->rights & h->scoped) || n->number < 0)
		return 0;
	if (n->rights == LANDLOCK_SCOPE_SIGNAL && in_traced_tree(e->tracees, (pid_t)n->number))
		return 0;
	return n->rights;
}

/* What would allow it: an option and its argument, a scope to leave out,
 * or nothing (a right this ABI does not have: refer on ABI 1). */
struct advice {
	int mode_too;	     /* Landlock refused it first; the mode bits refuse it too */
	const char *replace; /* the option that allows no port of this kind */
	char also[24];	     /* and for --no-tcp, --no-udp: the other kind's option */
	const char *option;
	char option_buf[24];
	char arg[PATH_MAX];
	const char *scope;
	const struct hidden *hidden; /* a --hide the object is in, or beneath it */
	int inside;		     /* 1: in it; 0: the hidden path is beneath */
	const char *why;	     /* the grant is never advised (never.c): why */
	char why_text[320];	     /* a why made for this denial */
};

/* The denials of one kind beneath /proc/PID: the same rights, call, errno,
 * program and advice on the same path but for the process's (and thread's)
 * id. The first is kept as the example. */
struct fold {
	struct need n;
	int call, err;
	uint64_t refused;
	struct who w;
	struct advice a;
	char pattern[PATH_MAX];
	int threads; /* the pattern has a TID: threads are counted */
	unsigned long count;
};

static const struct name *names_of(enum need_kind kind)
{
	return kind == NEED_FS	  ? fs_rights
	       : kind == NEED_NET ? net_rights
	       : kind == NEED_CAP ? cap_names
				  : scope_names;
}

/*
 * A hard link out of a tree the policy gives less than the link's
 * destination: Landlock allows it only when the file gains no right by
 * its new name, so only write access to the source would, and a careful
 * person copies instead. (A move out of it is another thing: it removes a
 * name there, which needs --rw there.)
 */
static void link_why(const struct explainer *e, const struct call_result *r, struct advice *a)
{
	const struct need *src = &r->needs[0], *dst = &r->needs[1];
	uint64_t gained = gains(e, src->object, src->anchor, dst->anchor, 0);
	struct out o = {.fd = -1};

	if (gained) {
		outf(&o, "a hard link would give the file rights it lacks here (");
		put_names(&o, fs_rights, gained, 0);
		outf(&o, "), and only write access to this tree allows it");
	} else {
		outf(&o, "a hard link out of here needs refer here, which only write access to "
			 "this tree gives");
	}
	outf(&o, ": copy instead (cp without -l, or the tool's no-hardlink option)");
	copy_span(a->why_text, sizeof a->why_text, o.buf, o.len);
	a->why = a->why_text;
}

static void advise(const struct explainer *e, const struct call_result *r, const struct need *n,
		   uint64_t refused, struct advice *a)
{
	const struct effective *k = &e->p->kernel;
	const struct name *s;
	int write;

	/* every field from this need alone: the record before it wrote here too */
	*a = (struct advice){0};
	if (n->kind == NEED_CAP) {
		a->why = never_keep_caps; /* no grant gives a capability back */
		return;
	}
	if (n->kind == NEED_SCOPE)
		for (s = scope_names; s->name; s++)
			if (s->bit == refused)
				a->scope = s->name;
	if (n->kind == NEED_NET) {
		char port[24];

		port_option(a->option_buf, refused);
		a->option = a->option_buf;
		join(a->arg, sizeof a->arg, decimal(n->number, port), NULL);
		/* "none" and a port list for one kind are a contradiction; --no-tcp
		 * also said none for the other kind, which must stay so */
		a->replace = e->p->asked.net[__builtin_ctzll(refused)].none;
		if (a->replace && strncmp(a->replace, "--no-", 5) == 0)
			port_option(a->also, 1ULL << (__builtin_ctzll(refused) ^ 1));
	}
	if (n->kind != NEED_FS || refused & ~k->fs_abi)
		return;
	/* No grant can reveal a hidden path, nor allow what --hide takes from
	 * the directories above one (listing them, writing in them). */
	a->hidden = hidden_at(&e->p->asked, n->object);
	a->inside = a->hidden || hidden_at(&e->p->asked, n->anchor);
	if (!a->hidden)
		a->hidden = a->inside ? hidden_at(&e->p->asked, n->anchor)
				      : hidden_beneath(&e->p->asked, n->anchor);
	if (a->hidden)
		return;
	if (r->move & MOVE_LINK && n == &r->needs[0]) {
		link_why(e, r, a);
		return;
	}
	a->option = !(refused & ~k->grant_rights[GRANT_RO])	? "--ro"
		    : !(refused & ~k->grant_rights[GRANT_UNIX]) ? "--unix"
								: "--rw";
	join(a->arg, sizeof a->arg, n->anchor, NULL);
	grantable(a->arg);
	/* the resolved path, then the grant it folds into (/proc/PID: /proc) */
	write = strcmp(a->option, "--ro") != 0;
	a->why = never_why(&e->never, n->anchor, write);
	if (!a->why)
		a->why = never_why(&e->never, a->arg, write);
	if (a->why)
		a->option = NULL;
}

/* What was refused, as the line says it: the object (a fold's pattern, how
 * many and the first), the port, or the process signalled. */
static void put_what(struct out *o, const struct need *n, uint64_t refused, const struct fold *f)
{
	put_names(o, names_of(n->kind), refused, 0);
	if (n->kind == NEED_NET)
		outf(o, " port %ld", n->number);
	else if (f)
		outf(o, " %s of %lu %s, e.g. %s", f->pattern, f->count,
		     f->threads ? "threads" : "processes", n->object);
	else if (n->kind == NEED_FS || n->number == 0)
		outf(o, " %s", n->object);
	else
		outf(o, " to pid %ld", n->number);
}

static void print_line(struct explainer *e, const struct call_result *r, const struct need *n,
		       uint64_t refused, const struct who *w, const struct advice *a,
		       const struct fold *f)
{
	struct out *o = &e->line;

	outf(o, "landlock-run denied: ");
	put_what(o, n, refused, f);
	outf(o, " (%s by %s[%s]): %s", calls[r->call].name, w->comm, w->pid,
	     a->mode_too ? "the mode bits refuse it too; " : "");
	if (a->hidden)
		outf(o,
		     a->inside ? "hidden by --hide %s\n"
			       : "no grant allows it while --hide %s is beneath it\n",
		     a->hidden->path);
	else if (a->replace)
		outf(o, "replace %s%s with %s %s%s%s%s\n", a->replace, a->also[0] ? "" : " none",
		     a->option, a->arg, a->also[0] ? " " : "", a->also, a->also[0] ? " none" : "");
	else if (a->why)
		outf(o, "not advised: %s\n", a->why);
	else if (a->option)
		outf(o, "allow with %s %s\n", a->option, a->arg);
	else if (a->scope)
		outf(o, "allow by leaving %s out of --scope\n", a->scope);
	else
		outf(o, "Landlock ABI %d cannot allow it (refer needs ABI 2)\n", e->p->kernel.abi);
	out_flush(o); /* diagnostics: a closed stderr stops nothing */
}

static void put_allow(struct kv *kv, const struct advice *a)
{
	kv_key(kv, "allow");
	if (a->option && a->also[0])
		outf(kv->o, "[\"%s\",\"%s\",\"%s\",\"none\"]", a->option, a->arg, a->also);
	else if (a->option)
		outf(kv->o, "[\"%s\",\"%s\"]", a->option, a->arg);
	else
		outf(kv->o, "[]");
}

static void print_json(struct explainer *e, const struct call_result *r, const struct need *n,
		       uint64_t refused, const struct who *w, const struct advice *a,
		       const struct fold *f)
{
	static const char *const kinds[] = {[NEED_FS] = "fs",
					    [NEED_NET] = "net",
					    [NEED_SCOPE] = "scope",
					    [NEED_CAP] = "capability"};
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
	if (a->mode_too)
		kv_word(&kv, "also_refused_by", "mode_bits");
	if (n->kind == NEED_NET)
		kv_int(&kv, "port", n->number);
	else if (n->kind == NEED_FS || n->number == 0)
		kv_word(&kv, "path", n->object);
	else
		kv_int(&kv, "target", n->number);
	if (f) {
		kv_word(&kv, "pattern", f->pattern);
		kv_int(&kv, "count", (long)f->count);
	}
	if (a->why)
		kv_word(&kv, "why", a->why); /* and no allow: nothing to apply */
	else
		put_allow(&kv, a);
	if (a->scope)
		kv_word(&kv, "scope", a->scope);
	if (a->replace)
		kv_word(&kv, "replace", a->replace);
	if (a->hidden)
		kv_word(&kv, a->inside ? "hidden" : "hidden_beneath", a->hidden->path);
	kv_end(&kv);
	json_flush(e, &o);
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

/* A denial not folded is reported the first time, while there is room;
 * past DENIALS_MAX distinct ones, each is counted, repeats too. */
static int to_list(struct explainer *e, const struct need *n, uint64_t refused)
{
	if (!first_time(e, n, refused, 0))
		return 0;
	if (e->seen.used < DENIALS_MAX)
		return 1;
	e->unlisted++;
	return 0;
}

static int same_advice(const struct advice *x, const struct advice *y)
{
	return x->mode_too == y->mode_too && !strcmp(x->why ? x->why : "", y->why ? y->why : "") &&
	       x->hidden == y->hidden && x->inside == y->inside && x->replace == y->replace &&
	       x->scope == y->scope &&
	       !strcmp(x->option ? x->option : "", y->option ? y->option : "") &&
	       !strcmp(x->arg, y->arg) && !strcmp(x->also, y->also);
}

static int same_kind(const struct fold *f, const struct call_result *r, uint64_t refused,
		     const struct who *w, const struct advice *a, const char *pattern)
{
	return f->refused == refused && f->call == r->call && f->err == (int)-r->ret &&
	       !strcmp(f->w.comm, w->comm) && !strcmp(f->pattern, pattern) && same_advice(&f->a, a);
}

/* The denial N, beneath /proc/PID as PATTERN, joins the fold of its kind,
 * or begins one; ID (the pid and tid) counts once. 0: no room for a kind. */
static int fold(struct explainer *e, const struct call_result *r, const struct need *n,
		uint64_t refused, const struct who *w, const struct advice *a, const char *pattern,
		uint64_t id, int threads)
{
	struct fold *f;
	uint64_t key;
	size_t i;

	for (i = 0; i < e->nfolds && !same_kind(&e->folds[i], r, refused, w, a, pattern); i++)
		;
	if (i == FOLDS_MAX)
		return 0;
	if (!e->folds)
		e->folds = mapped(FOLDS_MAX * sizeof *e->folds, "the --explain folds");
	f = &e->folds[i];
	if (i == e->nfolds) {
		e->nfolds++;
		*f = (struct fold){.n = *n,
				   .call = r->call,
				   .err = (int)-r->ret,
				   .refused = refused,
				   .w = *w,
				   .a = *a,
				   .threads = threads};
		if (a->why == a->why_text) /* a why made for it: the copy's own */
			f->a.why = f->a.why_text;
		join(f->pattern, sizeof f->pattern, pattern, NULL);
	}
	/* each process once; past FOLD_PIDS_MAX of them, a repeat counts again */
	key = (uint64_t)(i + 1) << 44 | id;
	e->fold_pids.size = sizeof key;
	if (table_get(&e->fold_pids, key))
		return 1;
	if (e->fold_pids.used < FOLD_PIDS_MAX)
		table_put(&e->fold_pids, key);
	f->count++;
	return 1;
}

/* The command could open PATH to execute it: not hidden, and the policy
 * allows execute and read_file on it (the mode bits are the tracer's own:
 * it runs as the command's user, with no capability). */
static int exec_readable(const void *ctx, const char *path)
{
	const struct explainer *e = ctx;
	uint64_t need = (FS(EXECUTE) | FS(READ_FILE)) & handled_fs(e);

	return !hidden_at(&e->p->asked, path) && !(need & ~allowed(e, path));
}

void explain_call(struct explainer *e, struct call_result *r)
{
	int err = r->ret < 0 ? (int)-r->ret : 0, i, known = 0, mode, pids;
	char pattern[PATH_MAX];
	struct advice a;
	struct who w;
	uint64_t id;

	if (!denial_errno(err))
		return;
	r->readable = exec_readable;
	r->ctx = e;
	find_needs(r);
	if (r->unseen && !e->unseen++)
		read_who(r->tid, &e->first_unseen);
	for (i = 0; i < r->nneeds; i++) {
		const struct need *n = &r->needs[i];
		uint64_t refused =
			n->kind == NEED_FS ? refused_fs(e, r, n, err) : refused_other(e, n, err);

		if (!refused || n->first)
			continue;
		pids = n->kind == NEED_FS ? proc_pattern(n->object, pattern, &id) : 0;
		if (!pids && !to_list(e, n, refused))
			continue;
		if (!known && read_who(r->tid, &w))
			return; /* the process is gone */
		known = 1;
		mode = n->kind == NEED_FS ? mode_refuses(&w, n->anchor, refused) : 0;
		if (mode == MODE_FIRST || (n->kind == NEED_FS && driver_refuses(r->tid, n->object)))
			continue;
		if (n->kind == NEED_SCOPE && n->number && !may_signal(&w, n->number))
			continue;
		if (n->kind == NEED_CAP && !cap_refuses(&w, n))
			continue;
		advise(e, r, n, refused, &a);
		a.mode_too = mode == MODE_TOO;
		if (pids && (fold(e, r, n, refused, &w, &a, pattern, id, pids == 2) ||
			     !to_list(e, n, refused)))
			continue; /* reported at the end (or past FOLDS_MAX kinds, as any other) */
		first_time(e, n, refused, 1);
		if (e->p->asked.explain)
			print_line(e, r, n, refused, &w, &a, NULL);
		if (e->json >= 0)
			print_json(e, r, n, refused, &w, &a, NULL);
	}
}

/* Each fold once: the first denial as it was when it stood alone, else its
 * pattern, how many processes and the first. */
static void report_folds(struct explainer *e)
{
	const struct fold *f;
	size_t i;

	for (i = 0; i < e->nfolds; i++) {
		struct call_result r = {.call = e->folds[i].call, .ret = -e->folds[i].err};

		f = &e->folds[i];
		if (e->p->asked.explain)
			print_line(e, &r, &f->n, f->refused, &f->w, &f->a, f->count > 1 ? f : NULL);
		if (e->json >= 0)
			print_json(e, &r, &f->n, f->refused, &f->w, &f->a, f->count > 1 ? f : NULL);
	}
}

/*
 * At the entry of a watched fchown, fchmod or utimensat on a descriptor:
 * the file is the command's own, and a chown keeps its owner and gives its
 * group or the command's, so no dropped capability can refuse the call, and
 * its exit need not stop (tar and cp -a as root: three such calls a file).
 */
int explain_owner_keeps(const struct explainer *e, pid_t tid, int call, const uint64_t *args)
{
	uint32_t uid = (uint32_t)args[1], gid = (uint32_t)args[2];
	struct stat st;

	if (!e->ids_fixed ||
	    (call != CALL_fchown && call != CALL_fchmod &&
	     !(call == CALL_utimensat && args[1] == 0)) ||
	    fd_stat(tid, (int)args[0], &st) || st.st_uid != e->uid)
		return 0;
	return call != CALL_fchown || ((uid == (uint32_t)-1 || uid == e->uid) &&
				       (gid == (uint32_t)-1 || gid == st.st_gid || gid == e->gid));
}

/* The JSON report is whole once the traced tree is gone (or its end was
 * asked for): each line in it is a denial that happened. */
void explain_finish(struct explainer *e)
{
	struct out *o = &e->line;

	report_folds(e);
	if (e->unlisted && e->p->asked.explain) {
		outf(o,
		     "landlock-run explain: %lu more denials, repeats counted, not listed: only "
		     "the first %d distinct ones are\n",
		     e->unlisted, DENIALS_MAX);
		out_flush(o);
	}
	if (e->unseen && e->p->asked.explain) {
		put_unseen(o, UNSEEN_EXPLAIN, e->unseen, &e->first_unseen);
		out_flush(o);
	}
	if (e->unlisted && e->json >= 0) {
		struct out j = {.fd = e->json};

		outf(&j, "{\"kind\":\"unlisted\",\"denials\":%lu}\n", e->unlisted);
		json_flush(e, &j);
	}
	if (e->unseen && e->json >= 0) {
		struct out j = {.fd = e->json, .escape = ESCAPE_JSON};
		struct kv kv = {.o = &j, .json = 1};

		kv_word(&kv, "kind", "unseen");
		kv_int(&kv, "calls", (long)e->unseen);
		kv_int(&kv, "pid", (long)strtoul(e->first_unseen.pid, NULL, 10));
		kv_word(&kv, "comm", e->first_unseen.comm);
		kv_end(&kv);
		json_flush(e, &j);
	}
	/* a file is never half a report; a pipe's reader gets what it read */
	if (e->json_failed && e->p->asked.json_report.fd < 0) {
		report_discard(&e->report);
		die("cannot write the --explain-json file %s: a write failed, and it is left "
		    "as it was",
		    e->p->asked.json_report.path);
	}
	if (e->json >= 0)
		report_commit(&e->report);
}

/* A run whose launcher failed, in the tracer or before COMMAND, writes no
 * report: the file stays as it was. */
void explain_discard(struct explainer *e)
{
	report_discard(&e->report);
}

/* The socket families --no-network and --no-unix refuse, by the names
 * programs use. */
static const struct {
	int family;
	const char *name;
} families[] = {{1, "AF_UNIX"},	   {2, "AF_INET"},     {10, "AF_INET6"}, {16, "AF_NETLINK"},
		{17, "AF_PACKET"}, {38, "AF_ALG"},     {40, "AF_VSOCK"}, {31, "AF_BLUETOOTH"},
		{4, "AF_IPX"},	   {5, "AF_APPLETALK"}};

/*
 * A call the system-call filter refuses (seen before the filter refuses
 * it): one report per process name, call and group, and the option that
 * allows it, --allow-syscalls GROUP, or leaving --no-network or --no-unix
 * out (the option is the group's: no --allow-syscalls name allows them).
 */
static const char *option_of(uint64_t group)
{
	return group == GROUP_NETWORK ? "--no-network" : group == GROUP_UNIX ? "--no-unix" : NULL;
}

#define PROT_WRITE_BIT 0x2 /* PROT_WRITE, mmap's argument 2 */
#define GCONV_CACHE    "/gconv-modules.cache"

/* A read-only shared mapping of glibc's gconv cache, which every process of
 * a UTF-8 locale makes and reads instead when refused (GROUP_SETID_MAPS
 * refuses read-only ones too: they can be made writable): not a line each.
 * Any other is reported: the JVM dies of SIGSEGV without its modules'. */
static int gconv_cache(pid_t tid, const uint64_t *args)
{
	char path[PATH_MAX];
	int n;

	if (args[2] & PROT_WRITE_BIT)
		return 0;
	n = fd_path(tid, (int)args[4], path);
	return n >= (int)sizeof GCONV_CACHE - 1 &&
	       strcmp(path + n - (sizeof GCONV_CACHE - 1), GCONV_CACHE) == 0;
}

void explain_refusal(struct explainer *e, pid_t tid, const struct refusal *rf, const uint64_t *args)
{
	const char *group = rf->group == GROUP_UNIX ? "unix" : "network", *family = NULL;
	const char *option = option_of(rf->group);
	struct out j = {.fd = e->json, .escape = ESCAPE_JSON};
	struct kv kv = {.o = &j, .json = 1};
	char key[128], num[24], fam[24];
	const struct name *g;
	struct who w;
	size_t i;

	if (rf->group == GROUP_SETID_MAPS && gconv_cache(tid, args))
		return;
	for (g = syscall_groups; g->name; g++)
		if (g->bit == rf->group ||
		    (g->bit == GROUP_METADATA && rf->group == GROUP_SETID_MAPS))
			group = g->name;
	for (i = 0; option && i < sizeof families / sizeof families[0]; i++)
		if ((int)args[0] == families[i].family)
			family = families[i].name;
	if (option && !family)
		family = decimal((int)args[0], fam);
	if (read_who(tid, &w))
		return; /* the process is gone */
	join(key, sizeof key, "filter:", group, ":", rf->call, ":", family ? family : "", ":",
	     w.comm, NULL);
	if (!strset_has(&e->seen, key, strlen(key)) && e->seen.used >= DENIALS_MAX)
		e->unlisted++;
	if (e->seen.used >= DENIALS_MAX || !strset_add(&e->seen, key, strlen(key)))
		return;
	if (e->p->asked.explain) {
		outf(&e->line, "landlock-run denied: %s%s%s (%s by %s[%s]): ", group,
		     family ? " " : "", family ? family : "", rf->call, w.comm, w.pid);
		if (option)
			outf(&e->line, "allow by removing %s\n", option);
		else if (rf->group == GROUP_SETID_MAPS)
			outf(&e->line,
			     "a shared mapping of a file, refused where root's command "
			     "can write a directory (a setuid file keeps its bits through "
			     "one); run the command as another user, or allow with "
			     "--allow-syscalls metadata\n");
		else
			outf(&e->line, "allow with --allow-syscalls %s\n", group);
		out_flush(&e->line);
	}
	if (e->json < 0)
		return;
	kv_word(&kv, "kind", "syscall");
	kv_int(&kv, "pid", (long)strtoul(w.pid, NULL, 10));
	kv_word(&kv, "comm", w.comm);
	kv_word(&kv, "syscall", rf->call);
	kv_word(&kv, "right", group);
	kv_key(&kv, "rights");
	outf(&j, "[\"%s\"]", group);
	kv_word(&kv, "errno", errname(rf->err) ? errname(rf->err) : decimal(rf->err, num));
	if (family)
		kv_word(&kv, "family", family);
	kv_key(&kv, "allow");
	if (option)
		outf(&j, "[]");
	else
		outf(&j, "[\"--allow-syscalls\",\"%s\"]", group);
	if (option)
		kv_word(&kv, "remove", option);
	kv_end(&kv);
	json_flush(e, &j);
}
