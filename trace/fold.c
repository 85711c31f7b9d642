/*
 * What a --learn run used, folded into the policy a reviewer can accept,
 * and written as an @FILE. The folding keeps the policy short, lets a rerun
 * that reads one more header work, and never grants what a reviewer would
 * reject:
 *   - writes: the file written, or the directory something was made in or
 *     removed from; never a path the run made, which the next run has not:
 *     a directory it made folds into the nearest one that was there before
 *     (a mktemp directory into /tmp), where that is never granted ($HOME)
 *     one of a stable name it kept is --rw-try (~/.cargo), and a comment
 *     says which; beneath
 *     $HOME, where the run makes and removes things in a tool's tree (~/.npm,
 *     ~/.cache/pip), that tree as a whole, so cleaning a cache does not break
 *     the policy; never / or $HOME itself;
 *   - reads and executes: the directory of each file read (a directory
 *     listed: itself); beneath the system trees /usr, /etc, /opt, /bin,
 *     /sbin and /lib*, the tree as a whole; a file in /, in /dev or /proc
 *     (but a process's, which folds into /proc), directly
 *     in $HOME (~/.gitconfig) or at the top of a tool's tree (~/.ssh/config)
 *     stays that file, one deeper in a tool's tree (~/.npm/_cacache/...)
 *     folds into the tree; never / or $HOME itself, which would grant every
 *     file in them;
 *   - per-boot and per-process names fold into a stable parent: /proc/PID
 *     is /proc (and --explain's report folds a kind of denial beneath
 *     /proc/PID into one line: proc_pattern), /sys/fs/cgroup/... is
 *     /sys/fs/cgroup, /dev/pts/N /dev/pts;
 *   - a hard link's source: --ro, and a comment instead of --rw, unless the
 *     run wrote there too (the link would give the file the rights of where
 *     it goes, so only write access to the source allows it confined);
 *   - nothing never.c's table refuses (/, $HOME and above, writes in /proc,
 *     /sys...): a comment says why instead;
 *   - a path that no longer exists becomes its nearest existing directory;
 *     one that cannot be written on a line (a newline in it) its nearest
 *     directory that can; whatever a wider grant covers is left out; with
 *     --hide, no grant that would reveal or contradict a hidden path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../abi.h"
#include "../fd.h"
#include "../guard.h"
#include "../hide.h"
#include "../out.h"
#include "learner.h"

static const char *const system_trees[] = {"/usr", "/etc",   "/opt",   "/bin",	 "/sbin",
					   "/lib", "/lib32", "/lib64", "/libx32"};

/* What glibc's malloc reads only on the runs where threads contend: a
 * thread's first arena of its own counts the CPUs online, shrinking one
 * asks the overcommit mode. A run that never contended would not see them
 * and its rerun could fail; a run that made a thread grants them. */
static const char *const by_chance[] = {"/sys/devices/system/cpu/online",
					"/proc/sys/vm/overcommit_memory"};

/* Names that change from boot to boot or process to process. */
static const char *const stable[] = {"/sys/fs/cgroup", "/dev/pts"};

/*
 * The per-process names of --explain's report: PATH beneath /proc/PID, or
 * /proc/PID/task/TID, with those numbers as the words PID and TID, in
 * PATTERN (PATH_MAX); *ID both numbers (a pid is below 2^22, the kernel's
 * PID_MAX_LIMIT). 0 when PATH is no process's or the pattern would not fit.
 * The report folds the denials of one pattern into one line, as a policy
 * folds /proc/PID into /proc.
 */
int proc_pattern(const char *path, char *pattern, uint64_t *id)
{
	static const char *const parts[] = {"/proc/", "/task/"}, *const words[] = {"PID", "TID"};
	const char *s = path;
	size_t used = 0, len, digits;
	uint64_t number;
	int k;

	*id = 0;
	for (k = 0; k < 2; k++) {
		len = strlen(parts[k]);
		if (strncmp(s, parts[k], len))
			break;
		digits = strspn(s + len, "0123456789");
		if (!digits || digits > 7 || s[len] == '0' ||
		    (s[len + digits] && s[len + digits] != '/'))
			break;
		for (number = 0; digits; digits--)
			number = number * 10 + (uint64_t)(s[len++] - '0');
		if (number >= 1U << 22)
			break;
		*id = *id << 22 | number;
		memcpy(pattern + used, parts[k], strlen(parts[k]));
		memcpy(pattern + used + strlen(parts[k]), words[k], 3);
		used += strlen(parts[k]) + 3;
		s += len;
	}
	if (!k || used + strlen(s) >= PATH_MAX)
		return 0;
	*id <<= k == 1 ? 22 : 0; /* a process's path: thread 0 */
	memcpy(pattern + used, s, strlen(s) + 1);
	return k;
}

/* The kinds of grant line, in the policy's order; a plain grant a -try
 * one covers is left out, or its path, missing when the -try one's is,
 * would refuse the policy. */
enum { RW, RW_TRY, RO, RO_TRY, UNIX, KINDS };

#define KIND(k) (1u << (k))
static const struct {
	const char *option;
	unsigned char wider, self; /* the kinds that cover it: beneath them, or (self) at them */
	unsigned char hide;	   /* no grant in or above a hidden path */
} kinds[KINDS] = {
	[RW] = {"--rw", KIND(RW_TRY), KIND(RW_TRY), 1},
	[RW_TRY] = {"--rw-try", KIND(RW), 0, 1},
	[RO] = {"--ro", KIND(RW) | KIND(RW_TRY) | KIND(RO_TRY),
		KIND(RW) | KIND(RW_TRY) | KIND(RO_TRY), 0},
	[RO_TRY] = {"--ro-try", KIND(RW) | KIND(RW_TRY) | KIND(RO), KIND(RW) | KIND(RW_TRY), 0},
	[UNIX] = {"--unix", KIND(RW), KIND(RW), 1},
};

void add_path(struct table *set, const char *path)
{
	strset_add(set, path, strlen(path));
}

/* The part of PATH after $HOME/, or NULL when it is not beneath $HOME. */
static const char *in_home(const struct learner *l, const char *path)
{
	size_t n = strlen(l->never.home);

	return n && strncmp(path, l->never.home, n) == 0 && path[n] == '/' ? path + n + 1 : NULL;
}

/*
 * The tool's tree PATH is in, in TREE ("" when none): beneath $HOME a
 * hidden directory of its own (~/.npm, ~/.cargo), or one of the XDG
 * directories' entries (~/.cache/pip, ~/.local/share/X), which a cache
 * clean leaves in place.
 */
void state_tree(const struct learner *l, const char *path, char *tree)
{
	static const char *const xdg[] = {".cache/", ".config/", ".local/share/", ".local/state/"};
	const char *rel = in_home(l, path);
	size_t i, len;

	tree[0] = '\0';
	if (!rel || rel[0] != '.' || !strchr(rel, '/'))
		return; /* not in a hidden directory of $HOME */
	len = strcspn(rel, "/");
	for (i = 0; i < sizeof xdg / sizeof xdg[0]; i++)
		if (strncmp(rel, xdg[i], strlen(xdg[i])) == 0) {
			len = strlen(xdg[i]) + strcspn(rel + strlen(xdg[i]), "/");
			if (!rel[len])
				return; /* a file directly in ~/.cache: no tree */
		}
	copy_span(tree, PATH_MAX, path, (size_t)(rel - path) + len);
}

/* PATH's directory; a name with no slash (pipe:[N]) has none: "". */
static void cut_last(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash == path)
		path[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		path[0] = '\0';
}

/* PATH is in a tree of SET (the tree itself, or beneath it): the tree. */
static int fold_into(const struct table *set, char *path)
{
	const char *s;
	size_t i = 0;

	while ((s = strset_next(set, &i)))
		if (within(path, s)) {
			path[strlen(s)] = '\0';
			return 1;
		}
	return 0;
}

/* A path of SET is beneath DIR (not DIR itself). */
static int beneath(const struct table *set, const char *dir)
{
	const char *s;
	size_t i = 0;

	while ((s = strset_next(set, &i)))
		if (strcmp(s, dir) && within(s, dir))
			return 1;
	return 0;
}

static void fold_read(const struct learner *l, char *path)
{
	char tree[PATH_MAX];
	struct stat st;
	const char *rel = in_home(l, path);
	size_t i;

	for (i = 0; i < sizeof system_trees / sizeof system_trees[0]; i++)
		if (within(path, system_trees[i])) {
			path[strlen(system_trees[i])] = '\0';
			return;
		}
	/* $HOME's own files stay files; deep in a tool's tree, the tree (its
	 * cache entries come and go); a file at a tree's top stays a file */
	state_tree(l, path, tree);
	if (tree[0] && strrchr(path, '/') != path + strlen(tree)) {
		join(path, PATH_MAX, tree, NULL);
		return;
	}
	/* a file of /proc but a process's stays that file (/proc/cpuinfo) */
	if ((stat(path, &st) == 0 && S_ISDIR(st.st_mode)) || within(path, "/dev") ||
	    (within(path, "/proc") && strcmp(path, "/proc")) ||
	    (rel && (tree[0] || !strchr(rel, '/'))))
		return;
	if (strrchr(path, '/') != path) /* a file directly in / stays a file */
		cut_last(path);
}

/* What the run made did not exist before it and will not after: the
 * nearest directory that was there instead. */
static void fold_write(const struct learner *l, char *path)
{
	while (path[1] && strset_has(&l->made, path, strlen(path)))
		cut_last(path);
}

/* A name a generator chose (mktemp's XXXXXX, a digest, a pid or a time):
 * a run of six letters and digits or more that turns between letters and
 * digits, or from lower to upper case, twice or more; or six digits in a
 * row. out, CMakeFiles or python3.11 are stable names. */
static int chosen_name(const char *name, size_t len)
{
	size_t i, run = 0, digits = 0;
	int turns = 0, prev = 0, c;

	for (i = 0; i <= len; i++) {
		c = i == len			       ? 0
		    : name[i] >= 'a' && name[i] <= 'z' ? 1
		    : name[i] >= 'A' && name[i] <= 'Z' ? 2
		    : name[i] >= '0' && name[i] <= '9' ? 3
						       : 0;
		if ((c == 0 && run >= 6 && turns >= 2) || (digits = c == 3 ? digits + 1 : 0) >= 6)
			return 1;
		if (c == 0)
			run = 0, turns = 0;
		else if (run++ && ((prev == 3) != (c == 3) || (prev == 1 && c == 2)))
			turns++;
		prev = c;
	}
	return 0;
}

/* A path of PATH's components from FROM on (a slash) is a chosen name. */
static int chosen_below(const char *path, size_t from)
{
	size_t n;

	for (; path[from] == '/'; from += n + 1) {
		n = strcspn(path + from + 1, "/");
		if (chosen_name(path + from + 1, n))
			return 1;
	}
	return 0;
}

/* What the run made, PATH or a directory above it, and what a grant on it
 * becomes: the next run has not made it yet. */
enum made { NOT_MADE, MADE_FILE, MADE_PARENT, MADE_TRY };

struct made_fold {
	char top[PATH_MAX];    /* the first directory of PATH's the run made */
	char parent[PATH_MAX]; /* the nearest one that was there before */
	char target[PATH_MAX]; /* what a -try grant would name: TOP, or a tree beneath */
	const char *why;       /* MADE_PARENT: why no -try grant would do; NULL: one would */
};

/*
 * A grant beneath a directory the run made would name what the next run
 * has not made yet. The directory that was there before is granted
 * instead (PARENT): a confined run from a clean state makes it again
 * there. Where that is never granted ($HOME), a directory of a stable name
 * the run kept (~/.cargo; in a tool's tree, the tree) is granted with -try
 * (TRY): the policy starts, and making it is left to the user. A file the
 * run made is granted where it was made, as any (FILE). TRY_OK: the kind
 * has a -try; WRITES: a grant that writes.
 */
static enum made fold_made(const struct learner *l, char *path, int tree, int try_ok, int writes,
			   struct made_fold *m)
{
	struct stat st;
	size_t n;

	m->why = NULL;
	for (n = 1; path[n - 1]; n++)
		if ((path[n] == '/' || !path[n]) && strset_has(&l->made, path, n))
			break;
	if (!path[n - 1])
		return NOT_MADE;
	copy_span(m->top, sizeof m->top, path, n);
	join(m->parent, sizeof m->parent, m->top, NULL);
	cut_last(m->parent);
	if (!tree)
		path[n] = '\0'; /* the top, or the tree beneath it */
	join(m->target, sizeof m->target, path, NULL);
	if (!strset_has(&l->made_dirs, m->top, n)) {
		join(path, PATH_MAX, m->parent, NULL);
		return MADE_FILE;
	}
	if (chosen_below(path, strlen(m->parent)))
		m->why = "a name of its own";
	else if (lstat(path, &st) || !S_ISDIR(st.st_mode))
		m->why = "removed by its end";
	else if (try_ok && never_why(&l->never, m->parent, writes))
		return MADE_TRY;
	join(path, PATH_MAX, m->parent, NULL);
	return MADE_PARENT;
}

/* The nearest path, PATH or a directory above it, that exists and can be
 * written on one line of the policy. */
static void settle(char *path)
{
	struct stat st;

	while (path[0] == '/' && path[1] && (strchr(path, '\n') || lstat(path, &st)))
		cut_last(path);
}

/* Why the grant PATH, folded from RAW (what the run used), is never
 * written (never.c), or NULL. A grant the folding widened into the table
 * becomes RAW itself where RAW can be one (/proc/cpuinfo, not /proc), unless
 * the run made it (it would name what the run chose); the
 * table sees what PATH is now, too, as the grant will open it (a symlink
 * the run left there is followed). */
static const char *refused(const struct learner *l, const char *raw, char *path, int writes)
{
	char now[PATH_MAX];
	const char *why = never_why(&l->never, raw, writes);
	struct stat st;
	int fd;

	if (!why && never_why(&l->never, path, writes) && !strchr(raw, '\n') && !lstat(raw, &st) &&
	    !strset_has(&l->made, raw, strlen(raw)))
		join(path, PATH_MAX, raw, NULL);
	if (!why)
		why = never_why(&l->never, path, writes);
	fd = why ? -1 : openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	if (fd >= 0 && path_of_fd(fd, now) > 0)
		why = never_why(&l->never, now, writes);
	if (fd >= 0)
		close(fd);
	return why;
}

/* The comment on GRANT, a grant that folded what the run made: which, and
 * why; into L's notes, written when GRANT is (never when a path the run did
 * not make asks for the same grant). */
static void made_note(struct learner *l, const char *grant, int kind, enum made fold,
		      const struct made_fold *m, int writes)
{
	char note[4 * PATH_MAX + 512];

	if (fold == MADE_TRY)
		join(note, sizeof note, grant, ": mkdir -p it before a run from a clean state (",
		     m->parent, " is never granted: ", never_why(&l->never, m->parent, writes), ")",
		     NULL);
	else if (m->why)
		join(note, sizeof note, grant, ": for ", m->top, ", ", m->why, NULL);
	else
		join(note, sizeof note, grant, ": for ", m->top,
		     kind == UNIX ? "" : "; once it is there, ",
		     kind == UNIX ? "" : kinds[kind + 1].option, kind == UNIX ? "" : "=",
		     kind == UNIX ? "" : m->target, kind == UNIX ? "" : " is narrower", NULL);
	if (!strchr(note, '\n'))
		add_path(&l->made_notes, note);
}

/* S is a grant of OPTION an earlier policy of FILE wrote: not this run's
 * use, so not one that asks for its grant without a fold. */
static int earlier(const struct learner *l, const char *option, const char *s)
{
	char line[PATH_MAX + 24];

	join(line, sizeof line, option, "=", s, NULL);
	return strset_has(&l->earlier, line, strlen(line));
}

/* Every path of FROM made a grant of KIND (or of its -try kind, the next)
 * into TO; what is never granted becomes a comment line. */
static void settle_all(struct learner *l, const struct table *from, struct table *to, int kind)
{
	char path[PATH_MAX], line[3 * PATH_MAX + 512], grant[PATH_MAX + 24];
	const char *s, *why, *option = kinds[kind].option;
	size_t i = 0, k;
	int writes = kind != RO, tree, try_ok = kind != UNIX;
	struct made_fold m;
	enum made fold;

	while ((s = strset_next(from, &i))) {
		if (s[0] != '/')
			continue; /* a pipe, a socket, an anonymous inode: no grant names it */
		join(path, sizeof path, s, NULL);
		grantable(path);
		for (k = 0; k < sizeof stable / sizeof stable[0]; k++)
			if (within(path, stable[k]))
				path[strlen(stable[k])] = '\0';
		tree = fold_into(&l->trees, path);
		if (!tree && !writes)
			fold_read(l, path);
		fold = fold_made(l, path, tree, try_ok, writes, &m);
		if (fold == MADE_TRY && !tree && beneath(&l->trees, path))
			continue; /* ~/.cache, made for ~/.cache/pip: the tree's grant */
		settle(path);
		why = refused(l, s, path, writes);
		join(grant, sizeof grant, kinds[kind + (fold == MADE_TRY)].option, "=", path, NULL);
		if (!why) {
			add_path(&to[kind + (fold == MADE_TRY)], path);
			if (fold == MADE_TRY || fold == MADE_PARENT)
				made_note(l, grant, kind, fold, &m, writes);
			else if (!earlier(l, option, s))
				add_path(&l->direct, grant);
			continue;
		}
		join(line, sizeof line, grant, ": ", why, NULL);
		if (fold == MADE_PARENT)
			join(line, sizeof line, grant, ": ", why, " (the run made ", m.top,
			     " in it: ", m.why, ")", NULL);
		if (!strchr(line, '\n'))
			add_path(&l->refused, line);
	}
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

/*
 * Where a hard link's source was and the run wrote nothing else: --ro there,
 * and a comment instead of --rw. Landlock allows a link only when the file
 * gains no right by its new name, so only write access to the source tree
 * would let the confined link work, and a careful person copies instead.
 */
static void settle_links(struct learner *l, const struct table *rw)
{
	char path[PATH_MAX], line[PATH_MAX + 512];
	const char *s;
	size_t i = 0;

	while ((s = strset_next(&l->linked, &i))) {
		join(path, sizeof path, s, NULL);
		grantable(path);
		if (!fold_into(&l->trees, path))
			fold_write(l, path);
		settle(path);
		if (covered(rw, path, 1))
			continue; /* written anyway: the link works */
		add_path(&l->ro, path);
		join(line, sizeof line, "--rw=", path,
		     ": only hard links out of it asked for it, and a link may not give a file "
		     "rights it lacks where it is: granted --ro; copy instead (cp without -l, or "
		     "the tool's no-hardlink option)",
		     NULL);
		if (!strchr(line, '\n'))
			add_path(&l->refused, line);
	}
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

/* The lines of SET that KEEP keeps (given CTX), sorted, each after LEAD. */
static void put_sorted(struct out *o, const char *lead, const struct table *set,
		       int (*keep)(const void *ctx, const char *line), const void *ctx)
{
	const char **lines, *s;
	size_t i = 0, n = 0, k;

	if (!set->used)
		return;
	lines = mapped(set->used * sizeof *lines, "the policy's lines");
	while ((s = strset_next(set, &i)))
		if (!keep || keep(ctx, s))
			lines[n++] = s;
	sort_paths(lines, n);
	for (k = 0; k < n; k++)
		outf(o, "%s%s\n", lead, lines[k]);
}

/* The grants a policy writes, per kind; DIRECT: those that a path the run
 * did not make asked for. */
struct grants {
	struct table set[KINDS];
	int kind, kinds; /* the kind put_grants writes; how many the ABI has */
	const struct table *direct;
};

/* No grant of G that covers KIND's covers PATH, nor another path of KIND. */
static int written(const struct grants *g, int kind, const char *path)
{
	int w;

	for (w = 0; w < KINDS; w++)
		if (kinds[kind].wider & KIND(w) &&
		    covered(&g->set[w], path, !!(kinds[kind].self & KIND(w))))
			return 0;
	return strset_has(&g->set[kind], path, strlen(path)) && !covered(&g->set[kind], path, 0);
}

static int uncovered(const void *ctx, const char *path)
{
	const struct grants *g = ctx;

	return written(g, g->kind, path);
}

/* NOTE ("OPTION=PATH: text") is on a grant that is written, and that no
 * path the run did not make asks for too. PATH may hold ": ". */
static int note_written(const void *ctx, const char *note)
{
	const struct grants *g = ctx;
	const char *at, *eq = strchr(note, '=');
	char path[PATH_MAX];
	int k;

	for (at = strstr(note, ": "); eq && at; at = strstr(at + 1, ": "))
		for (k = 0; k < g->kinds; k++)
			if (strlen(kinds[k].option) == (size_t)(eq - note) &&
			    strncmp(note, kinds[k].option, (size_t)(eq - note)) == 0 &&
			    at > eq + 1 && !strset_has(g->direct, note, (size_t)(at - note))) {
				copy_span(path, sizeof path, eq + 1, (size_t)(at - eq - 1));
				if (written(g, k, path))
					return 1;
			}
	return 0;
}

/* One "OPTION=path" line per path of G's kind that is not covered. */
static void put_grants(struct out *o, const struct grants *g)
{
	char lead[16];

	join(lead, sizeof lead, kinds[g->kind].option, "=", NULL);
	put_sorted(o, lead, &g->set[g->kind], uncovered, g);
}

/* An earlier policy's -try grants of FROM, into TO, but what is never
 * granted (the table may have grown since). */
static void keep_tried(const struct learner *l, const struct table *from, struct table *to,
		       int writes)
{
	const char *s;
	size_t i = 0;

	while ((s = strset_next(from, &i)))
		if (s[0] == '/' && !never_why(&l->never, s, writes))
			add_path(to, s);
}

/* The paths of FROM that can be granted OPTION beside --hide, into TO: not
 * one in a hidden path, nor one a hidden path is beneath (Landlock cannot
 * take a subtree out of a write grant); each left out gets a comment. */
static void keep_hidden(const struct learner *l, struct out *o, const char *option,
			const struct table *from, struct table *to)
{
	const struct request *r = &l->p->asked;
	const struct hidden *h;
	const char *s;
	size_t i = 0;

	while ((s = strset_next(from, &i))) {
		h = hidden_at(r, s);
		h = h ? h : hidden_beneath(r, s);
		if (!h)
			add_path(to, s);
		else
			outf(o, "# not granted: %s=%s (--hide %s)\n", option, s, h->canon);
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
	     "# a later --learn with this FILE adds to it. See landlock-run(1), --learn.\n"
	     "# command:",
	     l->p->asked.learn);
	o->escape = ESCAPE_C; /* one line, whatever the arguments hold */
	for (arg = l->p->asked.command; *arg; arg++)
		outf(o, " %s", *arg);
	o->escape = ESCAPE_NONE;
	outf(o, "\n");
	put_sorted(o, "# not granted: ", &l->refused, NULL, NULL);
	if (l->threaded)
		outf(o,
		     "# granted unseen: %s and %s, which glibc's malloc reads only when "
		     "threads contend\n",
		     by_chance[0], by_chance[1]);
	if (l->unseen)
		put_unseen(o, UNSEEN_POLICY, l->unseen, &l->first_unseen);
}

/* A policy that cannot be written is a launcher failure (125), even though
 * the command ran. */
void write_policy(struct learner *l)
{
	const struct effective *k = &l->p->kernel;
	/* What this ABI cannot confine is not written: the policy must run here. */
	struct grants g = {.kinds = k->abi >= 9 ? KINDS : UNIX, .direct = &l->direct};
	struct table settled[KINDS] = {{0}};
	struct out o = {.fd = l->file.fd};
	struct stat st;
	size_t i;

	for (i = 0; l->threaded && i < sizeof by_chance / sizeof by_chance[0]; i++)
		if (lstat(by_chance[i], &st) == 0)
			add_path(&l->ro, by_chance[i]);
	settle_all(l, &l->rw, settled, RW);
	settle_links(l, &settled[RW]);
	settle_all(l, &l->ro, settled, RO);
	settle_all(l, &l->unix_sockets, settled, UNIX);
	keep_tried(l, &l->rw_try, &settled[RW_TRY], 1);
	keep_tried(l, &l->ro_try, &settled[RO_TRY], 0);
	put_header(&o, l);
	/* The hidden paths stay hidden, and no grant reveals or contradicts one. */
	for (i = 0; i < l->p->asked.nhidden; i++)
		outf(&o, "--hide=%s\n", l->p->asked.hidden[i].canon);
	for (i = 0; i < KINDS; i++)
		if (kinds[i].hide)
			keep_hidden(l, &o, kinds[i].option, &settled[i], &g.set[i]);
		else
			g.set[i] = settled[i];
	put_sorted(&o, MADE_NOTE, &l->made_notes, note_written, &g);
	for (g.kind = 0; g.kind < g.kinds; g.kind++)
		put_grants(&o, &g);
	put_ports(&o, l);
	if (k->abi >= 6 && !(l->signalled_out && l->reached_out))
		outf(&o, "--scope=%s%s%s\n", l->signalled_out ? "" : "signal",
		     l->signalled_out || l->reached_out ? "" : ",",
		     l->reached_out ? "" : "abstract-unix");
	out_flush(&o);
	if (o.failed)
		die_errno("cannot write the --learn file %s", l->p->asked.learn);
	report_commit(&l->file);
	learn_note(&l->p->asked, "was");
	if (l->unseen) {
		struct out err = {.fd = STDERR_FILENO, .escape = ESCAPE_CONTROL};

		put_unseen(&err, UNSEEN_LEARN, l->unseen, &l->first_unseen);
		out_flush(&err);
	}
}
