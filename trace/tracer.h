/*
 * The tracer behind --explain and --learn, shared by its files. They
 * depend on each other in the order a traced system call flows through
 * them, never in a circle:
 *   trace.c    the unconfined parent: ptrace loop, signals, exit status
 *   explain.c  was a failed call the sandbox's doing? one report per denial
 *   perm.c     what the kernel refuses anyway: mode bits, signal credentials,
 *              /dev/tty without a terminal; a capability the launcher dropped
 *   learn.c    what a run used, written as an @FILE policy
 *   calls.c    the table of watched system calls: what each one needs
 *   tracee.c   the tracee's memory, paths and /proc entries, seen from outside
 *   table.c    small hash tables (threads, reported denials, paths)
 */
#ifndef LR_TRACER_H
#define LR_TRACER_H

#include <limits.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "../abi.h"
#include "../out.h"
#include "../policy.h"
#include "../seccomp.h"
#include "trace.h"

/* table.c: open addressing on non-zero 64-bit keys; each record starts
 * with its key. Memory is mapped and grows; nothing is ever freed. */
struct table {
	char *slots;
	size_t cap, used, size; /* size: of one record */
	char *heap;		/* strset_add: where copies go */
	size_t heap_left;
};

void *table_get(const struct table *t, uint64_t key);
void *table_put(struct table *t, uint64_t key); /* existing, or a new zeroed record */
void table_del(struct table *t, uint64_t key);
/* A set of byte strings: 1 when S was new (and is now in the set). */
int strset_add(struct table *t, const char *s, size_t n);
int strset_has(const struct table *t, const char *s, size_t n);
char *table_keep(struct table *t, const char *s, size_t n); /* a copy in T's arena */
uint64_t hash_bytes(const char *s, size_t n, uint64_t h);
void *table_next(const struct table *t, size_t *i); /* from *i = 0; NULL: done */
const char *strset_next(const struct table *t, size_t *i);

/* One thread the tracer follows, and the watched call it is inside. */
struct tracee {
	uint64_t tid;  /* the key */
	int in_call;   /* stopped at the entry of a watched call, not yet out */
	int call;      /* its row of calls[] */
	pid_t entered; /* the thread id at entry (an exec moves a thread to the leader's) */
	uint64_t args[6];
	int marked;	   /* in a call refused by the mark: argument 5 to put back */
	uint64_t unmarked; /* at its exit */
};

/* What a finished call needed, worked out by calls.c. */
enum need_kind { NEED_FS = 1, NEED_NET, NEED_SCOPE, NEED_CAP };

struct need {
	enum need_kind kind;
	uint64_t rights; /* fs_rights, net_rights or scope_names bits */
	/* NEED_FS: the object as reported, and the path whose hierarchy the
	 * rights are checked on (the object, or its directory). */
	char object[PATH_MAX];
	char anchor[PATH_MAX];
	/* NEED_NET: the port; NEED_SCOPE: the pid signalled (0: an abstract
	 * socket, named in object as @name). */
	long number;
	int first; /* the kernel refuses it before Landlock has a say */
	/* NEED_CAP (rights: a cap_names bit; object: the file): the file's
	 * owner and group, and for chown the ones asked (-1: unchanged) */
	uint32_t uid, gid, new_uid, new_gid;
};

#define MAX_NEEDS 4 /* an exec: the file, a #! interpreter, its ELF interpreter */

/* The capabilities whose drop --explain names (linux/capability.h's numbers). */
#define CAP_CHOWN_BIT  (1U << 0)
#define CAP_FOWNER_BIT (1U << 3)
#define CAP_MKNOD_BIT  (1U << 27)

/* A rename or link across directories, where Landlock asks for refer and
 * checks that what moves gains no right (explain.c, refused_move). */
#define MOVE	      1
#define MOVE_DIR      2	 /* what moves is a directory */
#define MOVE_EXCHANGE 4	 /* RENAME_EXCHANGE: the target's file moves back */
#define MOVE_BACK_DIR 8	 /* and it is a directory */
#define MOVE_LINK     16 /* a hard link: the source keeps its name */

/* A watched call, at its entry (ret 0) or once it returned. */
struct call_result {
	pid_t tid;
	pid_t entered; /* the thread id it entered with */
	int call;
	const uint64_t *args;
	long ret;		/* the return value, -errno on failure */
	int learning;		/* --learn: what a successful call used */
	const char *entry_path; /* --learn: an exec's file, found at entry */
	int made;		/* --learn: an O_CREAT open made its file */
	int unseen;		/* its process may not be looked into (non-dumpable) */
	int move;		/* MOVE_*: needs[0] is a move's source, needs[1] its target */
	/* --explain: whether the command could open PATH to execute it, so
	 * that a #! line or ELF header is read only where the kernel read it
	 * (NULL: --learn, whose calls succeeded, so the kernel read them) */
	int (*readable)(const void *ctx, const char *path);
	const void *ctx;
	int nneeds;
	struct need needs[MAX_NEEDS];
};

/* calls.c */
enum call_id {
#define CALL_ID(name, nr) CALL_##name,
	WATCHED_CALLS(CALL_ID)
#undef CALL_ID
		NCALLS
};

struct call {
	const char *name;
	void (*find)(struct call_result *r, const struct call *c);
	uint32_t right;			    /* the filesystem right a call of one kind needs */
	uint32_t fs;			    /* the rights it may be refused: filesystem, */
	int8_t fd, path, fd2, path2, flags; /* (argument positions, -1: none) */
	uint8_t net, scope;		    /* network, scopes */
	uint32_t caps; /* or the capabilities (bits) whose drop refuses it: explained, never learned
			*/
};

extern const struct call calls[NCALLS];
extern const int16_t call_nr[NCALLS]; /* on this architecture; -1: none */
void find_needs(struct call_result *r);
int exec_file(const struct call_result *entry, char *out);
int open_makes(const struct call_result *entry);
int null_passes(const struct call *c); /* an argument whose NULL needs no stop, or -1 */

/* tracee.c */
struct target {
	char object[PATH_MAX]; /* canonical; missing: its directory's + the name */
	char parent[PATH_MAX]; /* the directory it is in */
	struct stat st;
	int exists;
	int unseen; /* the tracee's /proc entries are closed to the tracer */
};

/* PID is one of the traced tree's, in TRACEES (struct tracee by thread id) */
int in_traced_tree(const struct table *tracees, pid_t pid);
ssize_t read_tracee(pid_t tid, uint64_t addr, void *buf, size_t size);
int read_string(pid_t tid, uint64_t addr, char *buf); /* PATH_MAX bytes */
int tracee_target(struct target *o, pid_t tid, long dirfd, const char *path, int follow);
int proc_field(const char *file, const char *key, char *out, size_t size);
int proc_status(pid_t tid, const char *key, char *out, size_t size);
/* Several fields of one file, opened once (proc_fields: /proc/TID/status). */
struct field {
	const char *key;
	char *out;
	size_t size;
	int found, cut; /* cut: longer than SIZE (or than a line can be read) */
};
int proc_fields(const char *file, struct field *f, size_t n);
int proc_status_fields(pid_t tid, struct field *f, size_t n);
int proc_tty(pid_t tid); /* tty_nr: 0 without a controlling terminal; -1 */
int socket_protocol(pid_t tid, int fd, int *bound);
long pidfd_target(pid_t tid, int fd);
int fd_is_device(pid_t tid, int fd);
int fd_stat(pid_t tid, int fd, struct stat *st);    /* what the tracee's FD is */
int fd_path(pid_t tid, int fd, char out[PATH_MAX]); /* and the path it names */
int set_arg5(pid_t tid, uint64_t value);	    /* TRACE_MARK, or the value to put back */
void dir_of(char *out, const char *path);
/* the line on the calls of processes that made themselves non-dumpable */
enum unseen_words { UNSEEN_EXPLAIN, UNSEEN_LEARN, UNSEEN_POLICY };
struct out;
struct who; /* perm.c's */
void put_unseen(struct out *o, enum unseen_words how, unsigned long calls, const struct who *first);
void grantable(char *path);

/* perm.c: who made a call, with which credentials (/proc/TID/status) */
struct who {
	char comm[64], pid[16], uid[64], gid[64], groups[1024], caps[32];
	int groups_cut; /* GROUPS holds the first of them only */
};

int read_who(pid_t tid, struct who *w);
enum { MODE_FIRST = 1, MODE_TOO };
int mode_refuses(const struct who *w, const char *path, uint64_t rights);
/* a NEED_CAP: the kernel asks these credentials for the capability, and they lack it */
int cap_refuses(const struct who *w, const struct need *n);
extern const struct name cap_names[];
int may_signal(const struct who *w, long pid);
int driver_refuses(pid_t tid, const char *path); /* /dev/tty without a terminal */

/* report.c: a report file, written beside its target and renamed over it */
struct report {
	const struct report_target *t;
	int fd;
	char tmp[NAME_MAX + 1]; /* the file being written, or "" */
};

void report_create(struct report *r, const struct report_target *t);
void report_commit(struct report *r);
void report_discard(struct report *r);

/* watch.c: in the child, the filter that stops the watched calls; in the
 * tracer, whether a stop is one of them */
struct __ptrace_syscall_info;
void watch_calls(const struct policy *p);
int trusted_stop(const struct __ptrace_syscall_info *info);

/* box.c: the tracer's own box: privileges dropped, then a seccomp allowlist.
 * The sanitizer build logs (SECCOMP_RET_LOG) what a plain one kills, for the
 * sanitizers' own calls. */
#ifndef LR_TRACER_DEFAULT
#define LR_TRACER_DEFAULT SECCOMP_RET_KILL_PROCESS
#endif
void box_drop(void);
int box_seal(pid_t self, int pidfd, int report_dir);

/* fold.c: PATH beneath /proc/PID as a pattern (1; 2: /proc/PID/task/TID) */
int proc_pattern(const char *path, char *pattern, uint64_t *id);

/* explain.c. At most DENIALS_MAX distinct denials are reported; past that,
 * they are counted, and one line at the end says how many. The denials of
 * one kind beneath /proc/PID are one report at the end: of FOLDS_MAX kinds,
 * each process counted once among FOLD_PIDS_MAX of them (past that, again);
 * a kind past FOLDS_MAX is reported as any other denial. */
#define DENIALS_MAX   10000
#define FOLDS_MAX     256
#define FOLD_PIDS_MAX (1U << 16)

struct explainer;
/* TRACEES: the tracer's table of the traced tree's threads (struct tracee by
 * thread id), which explain.c and learn.c only read: they never call the
 * tracer back. */
struct explainer *explain_start(const struct policy *p, const struct table *tracees);
void explain_open(struct explainer *e);
void explain_call(struct explainer *e, struct call_result *r);
int explain_owner_keeps(const struct explainer *e, pid_t tid, int call, const uint64_t *args);
void explain_finish(struct explainer *e);
void explain_discard(struct explainer *e);
void explain_refusal(struct explainer *e, pid_t tid, const struct refusal *rf,
		     const uint64_t *args);

/* learn.c */
struct learner;
struct learner *learn_start(const struct policy *p, const struct table *tracees);
void learn_open(struct learner *l);
void learn_entry(struct learner *l, const struct call_result *entry);
void learn_call(struct learner *l, struct call_result *r);
void learn_thread(struct learner *l);
void learn_finish(struct learner *l, int interrupted);

#endif
