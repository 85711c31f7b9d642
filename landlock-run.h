/*
 * Types shared by the launcher's files. They depend on each other in the
 * order main() runs them, never in a circle:
 *   landlock-run.c  command line, orchestration, exec
 *   argfile.c       @FILE arguments
 *   probe.c         the self-test behind --probe and its report
 *   grants.c        paths and ports to Landlock rules
 *   guard.c         files the command must not change: policies, reports
 *   hide.c          --hide: the rules around a hidden path, for grants.c
 *   abi.c           the one table of rights per ABI, the kernel's ABI, -v
 *   supervise.c     the whole-tree mode: the launcher stays the parent
 *                   and ends every process the command started
 *   where.c         the place it runs in: an inherited seccomp filter,
 *                   Yama, /proc; named where they refuse what it needs
 *   seccomp.c       the system-call filter: terminal injection, the
 *                   network (--no-network), the baseline, root's metadata
 *   inherit.c       what the command inherits: capabilities, session,
 *                   descriptors, environment, signals
 *   out.c           the buffered writer, key/value reports, fail()
 *
 * The launcher forks with _Fork(), not fork(): it has one thread and no
 * atfork handler, and musl's fork() would bring 2.5 KiB of thread locks,
 * a clock and the vDSO lookup along for nothing.
 */
#ifndef LANDLOCK_RUN_H
#define LANDLOCK_RUN_H

#include <limits.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "landlock.h"

/* The one exit-status table (coreutils env convention). */
enum exit_status {
	EXIT_LAUNCHER = 125,	/* the launcher failed; the command never ran */
	EXIT_CANNOT_EXEC = 126, /* found but could not be executed */
	EXIT_NOT_FOUND = 127,
};

#define ABI_KNOWN 10 /* the newest Landlock ABI this launcher knows */

/* What a grant asks for; the kernel's handled set narrows it (abi.c). */
enum grant_kind {
	GRANT_RO,   /* --ro: read, list, execute */
	GRANT_RW,   /* --rw: every handled right */
	GRANT_UNIX, /* --unix: connect to pathname UNIX sockets (ABI 9) */
	GRANT_KINDS
};

struct grant {
	const char *option; /* "--ro", "--rw-try", ... as the user wrote it */
	const char *path;
	enum grant_kind kind;
	int optional; /* a -try grant: a missing path is skipped */
};

/* The kinds of port rule, in the order of net_rights[] (abi.c): kind i is
 * the right 1 << i of handled_access_net. */
enum net_kind { NET_TCP_BIND, NET_TCP_CONNECT, NET_UDP_BIND, NET_UDP_CONNECT, NET_KINDS };

struct ports {
	const char *option; /* first option that made this kind handled, or NULL */
	const char *none;   /* an option that allowed no port of it, or NULL */
	const char *listed; /* the first option that listed ports, or NULL */
	const char *list;   /* and its list */
	uint64_t *bits;	    /* 65536 bits in main's arena, untouched until listed */
};

/*
 * --hide PATH, as written and as resolved before any rule is added
 * (resolve_hidden). A path that does not exist is its nearest existing
 * ancestor's canonical path with the rest appended as written.
 */
struct hidden {
	const char *path;  /* as the user wrote it */
	const char *canon; /* canonical: absolute, symlinks resolved */
	int exists;
	size_t rules; /* added by build_ruleset's walks, for -v */
};

static inline int port_listed(const struct ports *ports, unsigned port)
{
	return (ports->bits[port / 64] >> (port % 64)) & 1;
}

/*
 * The system-call filter's groups of rules (seccomp.c), as bits. The
 * terminal rules are always there; the network's with --no-network; the
 * baseline's unless --allow-syscalls names them, metadata only where the
 * command could run as uid 0.
 */
enum syscall_group {
	GROUP_TTY = 1 << 0,
	GROUP_NETWORK = 1 << 1,
	GROUP_IO_URING = 1 << 2,
	GROUP_USERNS = 1 << 3,
	GROUP_KEYRING = 1 << 4,
	GROUP_BPF = 1 << 5,
	GROUP_PERF = 1 << 6,
	GROUP_USERFAULTFD = 1 << 7,
	GROUP_METADATA = 1 << 8,
	GROUP_BASELINE = (1 << 9) - (1 << 2), /* io_uring to metadata */
	GROUP_TRACED = 1 << 9, /* while --explain or --learn traces: what escapes it */
};

/*
 * A file the command must not be able to replace or redirect (guard.c): an
 * @FILE policy, a report's target. Its inodes are those a lookup of its
 * path goes through, directories above them included, and its own.
 */
#define GUARD_INODES 128

struct guard {
	struct guard *next;
	char what[PATH_MAX + 32]; /* "@FILE", "--explain-json FILE" */
	size_t n;
	struct {
		dev_t dev;
		ino_t ino;
	} inodes[GUARD_INODES];
};

/* Where a report goes (--explain-json, --learn), checked before COMMAND runs. */
struct report_target {
	const char *option, *path;
	int dir;	  /* its directory (O_PATH), where it is written; or -1 */
	const char *name; /* its last component */
	int fd;		  /* or a pipe or socket the caller handed over, or -1 */
};

/* What the user asked for, as parsed from the command line. */
struct request {
	struct grant *grants; /* in command-line order */
	size_t ngrants;
	struct hidden *hidden; /* --hide, in command-line order */
	size_t nhidden;
	int reads_confined; /* any --ro or --ro-try grant, or --hide */
	int reads_granted;  /* any --ro or --ro-try grant: without one, --hide
			       makes an implicit --ro / to walk around them */
	struct ports net[NET_KINDS];
	uint64_t scopes;
	int no_network;		   /* --no-network */
	uint64_t allowed_syscalls; /* --allow-syscalls: GROUP_ bits */
	uint32_t log_flags;
	int abi_limit; /* --abi N, 0 when not given */
	int strict, probe, json, verbose;
	int no_symlinks;	  /* grant paths opened with RESOLVE_NO_SYMLINKS */
	int explain;		  /* --explain: a line on stderr per denial */
	const char *explain_json; /* --explain-json FILE */
	const char *learn;	  /* --learn FILE */
	struct report_target json_report, learn_report;
	struct guard *guards; /* policies and reports, checked against write grants */
	int status_fd;	      /* --status-fd FD, or -1 */
	int kill_tree;	      /* --kill-tree */
	/* What COMMAND inherits (inherit.c) */
	int keep_caps, new_session, die_with_parent, close_fds;
	pid_t parent;	  /* getppid() when --die-with-parent was read */
	const char **env; /* --setenv VAR=VALUE, --unsetenv VAR, --clearenv */
	size_t nenv;	  /* (NULL) edits, in command-line order */
	char **command;
};

/* What this kernel makes of it (abi.c: plan_policy). */
struct effective {
	int kernel_abi;			    /* what the kernel reports */
	int abi;			    /* in use: min(kernel_abi, --abi, ABI_KNOWN) */
	uint64_t fs_abi;		    /* every filesystem right of that ABI */
	uint64_t file_rights;		    /* those a rule on a non-directory may carry */
	uint64_t grant_rights[GRANT_KINDS]; /* what each kind of grant gets */
	struct landlock_ruleset_attr handled;
	size_t attr_size; /* of handled, as far as this ABI knows it */
	uint64_t refused; /* the filter's GROUP_ bits for this run */
};

struct policy {
	struct request asked;
	struct effective kernel;
};

/* out.c: buffered output with printf-style formats, checked by the compiler:
 * %s %.*s %c %d %o %u %x with l or z. musl's printf would pull in floating
 * point formatting and stdio, a fifth of the binary. */
enum escape {
	ESCAPE_NONE,
	ESCAPE_CONTROL, /* %s arguments: control bytes become '?' */
	ESCAPE_C,	/* every byte kept, as bash's $'...' reads it */
	ESCAPE_JSON,	/* every byte kept, inside a JSON string */
};

struct out {
	int fd;	    /* -1: a string builder that keeps what fits */
	int escape; /* enum escape, for %s arguments */
	int failed;
	size_t len;
	char buf[4096];
};

__attribute__((format(printf, 2, 3))) void outf(struct out *o, const char *fmt, ...);
void out_flush(struct out *o);
void flush_stdout(struct out *o);
__attribute__((noreturn, format(printf, 2, 3))) void fail(int status, const char *fmt, ...);
__attribute__((noreturn, format(printf, 1, 2))) void die(const char *fmt, ...);
/* die() with ": " and the text of errno as it was on entry appended. */
__attribute__((noreturn, format(printf, 1, 2))) void die_errno(const char *fmt, ...);
/* What a failure does before it exits (NULL: nothing): called once, with
 * CTX and the exit status. */
void at_failure(void (*fn)(void *ctx, int code), void *ctx);

/* Strings without printf: N bytes of S, the strings up to a NULL, N in
 * decimal (in a buffer of 24 bytes); each cut to fit and terminated. */
void *mapped(size_t size, const char *what); /* zeroed, or a launcher failure */
void copy_span(char *out, size_t size, const char *s, size_t n);
void random_letters(char *out, size_t n);
void join(char *out, size_t size, ...) __attribute__((sentinel));
const char *decimal(long n, char *buf);

/* A report as "PREFIXkey=value" lines or as one JSON object, key by key. */
struct kv {
	struct out *o;
	const char *prefix; /* text lines start with it */
	int json;
	int n; /* keys written so far */
};

/* A row of the rights tables (abi.c): a bit, its name, the ABI that added
 * it and what kind of right it is. Name lists stop at a NULL name. */
struct name {
	uint64_t bit;
	const char *name;
	int abi;
	unsigned flags; /* RIGHT_ON_FILE, RIGHT_READ */
};

enum { RIGHT_ON_FILE = 1, RIGHT_READ = 2 };

void kv_key(struct kv *kv, const char *key);
void kv_int(struct kv *kv, const char *key, long value);
void kv_word(struct kv *kv, const char *key, const char *word);
void kv_bool(struct kv *kv, const char *key, int value);
void kv_names(struct kv *kv, const char *key, const struct name *names, uint64_t mask);
void kv_end(struct kv *kv);
void put_names(struct out *o, const struct name *names, uint64_t mask, int json);

/* abi.c */
extern const struct name fs_rights[], net_rights[], scope_names[], log_flags[], unused_features[];
extern const struct name syscall_groups[]; /* seccomp.c: --allow-syscalls names */
uint64_t rights_at(const struct name *table, int abi, unsigned flags);
int newest_abi(const struct name *table);
const char *enforcement(const struct policy *p);
int detect_abi(void);
void plan_policy(struct policy *p, int kernel_abi);
uint64_t parse_names(const struct name *table, const char *option, const char *list,
		     const char *at);
void kv_abi_version(struct kv *kv, const struct policy *p);
void kv_fs(struct kv *kv, const struct policy *p);
void kv_network(struct kv *kv, const struct policy *p);
void print_policy(const struct policy *p, struct out *err);
void port_option(char *out, uint64_t right); /* 24 bytes: "--tcp-bind" */

/* where.c: what the place the launcher runs in refuses it, for the failure
 * lines and the probe's where= (where_names, by WHERE_ bits). */
enum { WHERE_SECCOMP = 1, WHERE_NO_PTRACE = 2, WHERE_NO_PROC = 4 };
extern const struct name where_names[];
int proc_mounted(void);
int seccomp_mode(void);	    /* /proc/self/status's Seccomp: 0, 1, 2; -1 unknown */
uint64_t where_found(void); /* WHERE_SECCOMP, WHERE_NO_PROC */
/* die() when /proc is not mounted: WHAT needs it to WHY. */
void need_proc(const char *what, const char *why);
/* The failed ABI query: 1 a seccomp filter answered it, 0 the kernel did,
 * -1 no telling (where.c asks a filter of its own in a child). */
int landlock_filtered(void);
const char *ptrace_refuser(void); /* why ptrace of our own child failed */

/* grants.c */
void add_grant(struct request *r, const char *option, const char *path, enum grant_kind kind,
	       int optional);
void add_ports(struct ports *ports, const char *option, const char *list, const char *at);
int build_ruleset(const struct policy *p, struct out *verbose);
const struct grant *grant_number(const struct request *r, size_t i);

/* fd.c: openat(DIRFD, PATH, FLAGS | O_CLOEXEC); NO_SYMLINKS: ELOOP on any
 * symlink. path_of_fd: FD's canonical path (PATH_MAX) and its length, or -1.
 * A batch: descriptors to close in runs of consecutive numbers, one
 * close_range each; a number the launcher did not open is never in a run. */
int open_at(int dirfd, const char *path, int flags, int no_symlinks);
int path_of_fd(int fd, char *out);
struct fd_batch {
	int fd[32];
	int n;
};
void add_to_batch(struct fd_batch *b, int fd);
void close_batch(struct fd_batch *b);

/* hide.c: --hide. A read-side grant that holds hidden paths adds no rule of
 * its own but one per entry of each directory on the way down to each of them
 * but the entry that leads to it. expand_grant walks them and calls FN with
 * each entry's descriptor (opened O_PATH without following a symlink, closed
 * after FN returns), the rights it gets and the index in r->hidden of the
 * hidden path whose walk found it; FN returns 0, or -1 with errno set. The
 * tracer can call it with its own FN to rebuild the same (dev, ino, rights). */
typedef int hide_rule_fn(void *ctx, int fd, uint64_t rights, size_t hidden);
void add_hidden(struct request *r, const char *path);
void resolve_hidden(struct request *r); /* fills canon and exists */
/* 1 when hidden paths lie beneath the grant G, opened as FD: it is to be
 * expanded, at CANON (PATH_MAX, filled); a contradiction is a usage error. */
int grant_hides(const struct policy *p, const struct grant *g, int fd, char *canon);
size_t expand_grant(const struct policy *p, int fd, const char *canon, uint64_t rights,
		    hide_rule_fn *fn, void *ctx);
/* The hidden path CANON is, or is beneath; NULL if none. */
const struct hidden *hidden_at(const struct request *r, const char *canon);
/* A hidden path strictly beneath the directory CANON; NULL if none. */
const struct hidden *hidden_beneath(const struct request *r, const char *canon);

/* seccomp.c: the groups a run's filter refuses (uid 0 decides metadata),
 * and the filter of GROUPS installed on every system-call ABI; it needs
 * no_new_privs. 0, or -1 and errno. */
uint64_t refused_groups(const struct request *r);
int filter_syscalls(uint64_t groups, int traced);
/* A refusal --explain saw: the filter stops it (ret_data TRACE_BASE + the
 * rule's row); the tracer finds its rule (refusal_for) and marks the call
 * with argument 5 TRACE_MARK, and the filter refuses it. */
#define TRACE_BASE 0x100
#define TRACE_MARK 0x6c616e64U
struct refusal {
	const char *call;
	uint32_t nr; /* on the native ABI */
	int err;
	uint64_t group;
};
int refusal_for(uint64_t groups, uint64_t nr, const uint64_t *args, struct refusal *out);

/* inherit.c: what the caller gave the launcher, handed back to the command. */
struct caller {
	struct sigaction sigpipe; /* ignored while the launcher runs */
};

void die_with_parent(pid_t parent);
void drop_capabilities(void);
void new_session(void);
void close_fds(void);
void edit_environment(const char **edits, size_t n);
void hold_signals(struct caller *c);
void give_back_signals(const struct caller *c);

/* supervise.c: the whole-tree mode. L, the launcher the caller started,
 * forks S, which forks (or traces) COMMAND; see supervise.c. */
struct supervisor {
	const char *mode; /* "--kill-tree", "--explain", "--learn": for messages */
	pid_t launcher;	  /* L */
	pid_t group;	  /* L's process group: the caller's job, COMMAND's too */
	pid_t self;	  /* S */
	pid_t command;
	int pidfd;     /* COMMAND's, from spawn on */
	int children;  /* S's /proc/thread-self/children */
	int status;    /* COMMAND's wait status once reaped, else -1 */
	uint64_t mask; /* the caller's signal mask, which COMMAND gets back */
};

/* In S (the launcher waits); MODE (for messages) needs /proc to WHY. */
void supervise_start(struct supervisor *sv, const char *mode, const char *why);
pid_t supervise_spawn(struct supervisor *sv); /* 0 in COMMAND's process */
void supervise_signals(const struct supervisor *sv);
void supervise_stopped(const struct supervisor *sv);
int supervise_interrupted(void);
void supervise(struct supervisor *sv, int ruleset); /* returns in COMMAND's process */
__attribute__((noreturn)) void supervise_exit(struct supervisor *sv);
void end_tree(int children, pid_t command, int *status);
__attribute__((noreturn)) void exit_as(int status);

/* argfile.c */
void expand_argfiles(struct request *r, int *argc, char ***argv, const char ***from);

/* guard.c */
void guard_policy(struct request *r, const char *file, const struct stat *st);
void open_report(struct request *r, struct report_target *t, const char *option, const char *path);
void check_guards(const struct request *r, const struct grant *g, int fd);
void take_descriptor(int fd, const char *what, struct stat *st);

/* out.c: the status descriptor (--status-fd), JSON lines a caller can trust:
 * COMMAND never holds it. */
void status_start(int fd);
void status_running(const struct policy *p, pid_t pid, const char *enforcement);
void status_executed(pid_t pid);

static inline int tracing(const struct request *r)
{
	return r->explain || r->explain_json || r->learn;
}

/* interp.c: the #! or ELF interpreter FD's file names; why an exec failed */
enum { INTERP_SHEBANG = 1, INTERP_ELF = 2 };
enum { STOP_DENIED = 1, STOP_MISSING = 2 };
int open_regular(const char *path, int by_path);
int read_interpreter(int fd, char *out, size_t size);
const char *first_in_path(const char *name, char *buf);
int exec_stop(const char *file, const char **role, char *path, char *canon);

/* probe.c */
void probe(const struct policy *p, struct out *o);

#endif
