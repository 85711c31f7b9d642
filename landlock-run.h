/* Types shared by landlock-run.c, grants.c and probe.c. */
#ifndef LANDLOCK_RUN_H
#define LANDLOCK_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "landlock.h"

/* The one exit-status table (coreutils env convention). */
enum exit_status {
	EXIT_LAUNCHER = 125,	/* the launcher failed; the command never ran */
	EXIT_CANNOT_EXEC = 126, /* found but could not be executed */
	EXIT_NOT_FOUND = 127,
};

#define ABI_KNOWN 7 /* the newest Landlock ABI this launcher knows */
#define ABI_FULL  5 /* the ABI that handles every filesystem right known here */

#define FS_READ_SIDE \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
/* Rights that may appear in a rule on a non-directory. */
#define FS_FILE_RIGHTS                                                \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV)
#define ACCESS_RO FS_READ_SIDE
#define ACCESS_RW UINT64_MAX /* whatever the ruleset handles */

struct grant {
	const char *option; /* "--ro", "--rw-try", ... as the user wrote it */
	const char *path;
	uint64_t access; /* ACCESS_RO, ACCESS_RW, their union, or 0 once merged */
	int optional;	 /* a -try grant: a missing path is skipped */
	size_t index;	 /* position on the command line */
	int fd;		 /* O_PATH descriptor, -1 when skipped or merged */
	int is_dir;
	dev_t dev;
	ino_t ino;
};

struct ports {
	const char *option; /* first option that made this kind handled, or NULL */
	uint64_t bits[65536 / 64];
};

struct policy {
	/* What the user asked for. */
	struct grant *grants;
	struct grant **by_path; /* scratch: the grants sorted by path */
	size_t ngrants;
	int reads_handled; /* any --ro or --ro-try grant */
	struct ports *tcp_bind, *tcp_connect;
	uint64_t scopes;
	uint32_t log_flags;
	int abi_limit; /* --abi N, 0 when not given */
	int strict, probe, json, verbose;
	char **command;

	/* What this kernel makes of it. */
	int kernel_abi; /* what the kernel reports */
	int abi;	/* in use: min(kernel_abi, --abi, ABI_KNOWN) */
	struct landlock_ruleset_attr handled;
	struct rlimit nofile; /* the limit the command must inherit */
	int nofile_raised;
};

/*
 * Buffered output with printf-style formats, checked by the compiler:
 * %s %.*s %c %d %u %x with l or z. musl's printf would pull in floating
 * point formatting and stdio, a fifth of the binary.
 */
struct out {
	int fd; /* -1: a string builder that drops what does not fit */
	int failed;
	size_t len;
	char buf[4096];
};

__attribute__((format(printf, 2, 3))) void outf(struct out *o, const char *fmt, ...);
void out_flush(struct out *o);

__attribute__((noreturn, format(printf, 2, 3))) void fail(int status, const char *fmt, ...);
#define die(...) fail(EXIT_LAUNCHER, __VA_ARGS__)

/* landlock-run.c */
void parse_args(struct policy *p, int argc, char **argv);

/* grants.c */
void add_grant(struct policy *p, const char *option, const char *path, uint64_t access,
	       int optional);
void add_ports(struct ports *ports, const char *option, const char *list);
int port_listed(const struct ports *ports, unsigned port);
uint64_t grant_rights(const struct policy *p, const struct grant *g);
void open_grants(struct policy *p);
int build_ruleset(const struct policy *p);
void close_grants(struct policy *p, int ruleset_fd);

/* probe.c */
int detect_abi(void);
void settle_abi(struct policy *p);
uint64_t parse_scopes(const char *list);
void print_policy(const struct policy *p);
void probe(const struct policy *p, struct out *stdout_buf);

#endif
