/*
 * The state of a --learn run, shared by learn.c, which records what the
 * command used (and what an earlier run of the same policy did), and
 * fold.c, which folds it into grants and writes the policy.
 */
#ifndef LR_LEARNER_H
#define LR_LEARNER_H

#include "never.h"
#include "tracer.h"

struct learner {
	const struct policy *p;
	const struct table *tracees; /* the tracer's: the traced tree */
	struct report file;	     /* FILE */
	struct table entries;
	struct table ro, rw, unix_sockets;     /* what was used, as the calls named it */
	struct table linked;		       /* where a hard link's source was */
	struct table made;		       /* the files and directories the run made */
	struct table made_dirs;		       /* the directories of them */
	struct table rw_try, ro_try;	       /* an earlier policy's -try grants */
	struct table made_notes;	       /* "# made by the run:" lines, without it */
	struct table direct;		       /* OPTION=PATH grants no made path folded into */
	struct table earlier;		       /* an earlier policy's OPTION=PATH lines */
	struct table trees;		       /* state trees it made things in (~/.npm) */
	struct table abstract_made;	       /* abstract socket names bound inside */
	uint64_t ports[NET_KINDS][65536 / 64]; /* bound and connected to, per kind */
	int signalled_out, reached_out;	       /* what --scope signal, abstract-unix would refuse */
	struct never never;		       /* what is never granted; $HOME */
	struct table refused;		       /* its comment lines, one each */
	int threaded;			       /* a process of the tree made a thread */
	unsigned long unseen;		       /* calls of processes closed to the tracer */
	struct who first_unseen;
};

/* The comment on a grant that folded a path the run made. */
#define MADE_NOTE "# made by the run: "

/* fold.c */
void add_path(struct table *set, const char *path);
void state_tree(const struct learner *l, const char *path, char *tree);
void write_policy(struct learner *l);

#endif
