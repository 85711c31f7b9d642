/*
 * What the user asks of a run and what the kernel makes of it: the types
 * main() fills (struct request, landlock-run.c) and plans (struct effective,
 * abi.c), and that every step of a run reads.
 */
#ifndef LR_POLICY_H
#define LR_POLICY_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
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
	int implicit; /* --private-tmp's /tmp: a grant within it is no contradiction */
	size_t rules; /* added by build_ruleset's walks, for -v */
};

/*
 * An inode no rule may land on (hide.c): a hidden path (LEN is its whole
 * canonical path) or a directory above it, as Landlock walks up across
 * mount points (the first LEN bytes of that hidden path's canon). A rule on
 * either would grant the hidden path by its own name.
 */
struct hidden_inode {
	dev_t dev;
	ino_t ino;
	size_t hidden; /* the index in request.hidden */
	size_t len;
	int self; /* the hidden path itself, not a directory above it */
};

static inline int port_listed(const struct ports *ports, unsigned port)
{
	return (ports->bits[port / 64] >> (port % 64)) & 1;
}

/*
 * The system-call filter's groups of rules (seccomp.c), as bits. The
 * terminal rules are always there; the network's with --no-network, the
 * UNIX sockets' with --no-unix; the
 * baseline's unless --allow-syscalls names them, metadata only where the
 * command could run as uid 0, and with it the shared mappings of files
 * where root's command can also write a directory (grants.c).
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
	GROUP_UNIX = 1 << 10,  /* --no-unix */
	/* root's shared mappings of files, where its write grants could hold a
	 * setuid file (grants.c); part of metadata, and named so by --explain */
	GROUP_SETID_MAPS = 1 << 11,
};

struct guard;	    /* guard.h */
struct policy_dirs; /* guard.h */
struct private_tmp; /* tmpdir.h */

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
	struct hidden_inode *hidden_inodes; /* resolve_hidden: theirs and above */
	size_t nhidden_inodes;
	int reads_confined; /* any --ro or --ro-try grant, or --hide */
	int reads_granted;  /* any --ro or --ro-try grant: without one, --hide
			       makes an implicit --ro / to walk around them */
	struct ports net[NET_KINDS];
	uint64_t scopes;
	int no_network;		   /* --no-network */
	int no_unix;		   /* --no-unix */
	uint64_t allowed_syscalls; /* --allow-syscalls: GROUP_ bits */
	uint32_t log_flags;
	int abi_limit; /* --abi N, 0 when not given */
	int strict, probe, json, verbose;
	int no_symlinks;	  /* grant paths opened with RESOLVE_NO_SYMLINKS */
	int explain;		  /* --explain: a line on stderr per denial */
	const char *explain_json; /* --explain-json FILE */
	const char *learn;	  /* --learn FILE */
	struct report_target json_report, learn_report;
	struct guard *guards;		 /* policies and reports, checked against write grants */
	struct policy_dirs *policy_dirs; /* guard.c: find_policy_dirs */
	struct policy_dirs *dirs_room;	 /* where they go, else mapped */
	int learn_outside;		 /* --learn FILE is in no policy directory */
	int status_fd;			 /* --status-fd FD, or -1 */
	int kill_tree;			 /* --kill-tree */
	int private_tmp;		 /* --private-tmp */
	struct private_tmp *tmp;	 /* its directory, once made (tmpdir.h) */
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

static inline int tracing(const struct request *r)
{
	return r->explain || r->explain_json || r->learn;
}

#endif
