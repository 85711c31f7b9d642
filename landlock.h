/*
 * The Landlock UAPI, ABI 1 to 10, defined here rather than taken from the
 * host's <linux/landlock.h>: Debian's bookworm headers stop at Linux 6.1 and
 * musl ships none. Values are the merged kernel ABI (LANDLOCK-FACTS.md; ABI
 * 8-10 as in Debian sid's linux-libc-dev 7.2.13).
 */
#ifndef LANDLOCK_H
#define LANDLOCK_H

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_add_rule
#define __NR_landlock_add_rule 445
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif

/*
 * The kernel takes the size the caller fills: an older kernel accepts a
 * larger size whose tail is zero, and refuses a non-zero unknown field.
 */
struct landlock_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped;	     /* ABI 6 */
	uint64_t quiet_access_fs;    /* ABI 10: subsets of the handled sets */
	uint64_t quiet_access_net;   /* ABI 10 */
	uint64_t quiet_scoped;	     /* ABI 10 */
};

#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define LANDLOCK_CREATE_RULESET_ERRATA	(1U << 1)

enum landlock_rule_type {
	LANDLOCK_RULE_PATH_BENEATH = 1,
	LANDLOCK_RULE_NET_PORT = 2,
};

#define LANDLOCK_ADD_RULE_QUIET (1U << 0) /* ABI 10 */

struct landlock_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

struct landlock_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

#define LANDLOCK_ACCESS_FS_EXECUTE	(1ULL << 0)
#define LANDLOCK_ACCESS_FS_WRITE_FILE	(1ULL << 1)
#define LANDLOCK_ACCESS_FS_READ_FILE	(1ULL << 2)
#define LANDLOCK_ACCESS_FS_READ_DIR	(1ULL << 3)
#define LANDLOCK_ACCESS_FS_REMOVE_DIR	(1ULL << 4)
#define LANDLOCK_ACCESS_FS_REMOVE_FILE	(1ULL << 5)
#define LANDLOCK_ACCESS_FS_MAKE_CHAR	(1ULL << 6)
#define LANDLOCK_ACCESS_FS_MAKE_DIR	(1ULL << 7)
#define LANDLOCK_ACCESS_FS_MAKE_REG	(1ULL << 8)
#define LANDLOCK_ACCESS_FS_MAKE_SOCK	(1ULL << 9)
#define LANDLOCK_ACCESS_FS_MAKE_FIFO	(1ULL << 10)
#define LANDLOCK_ACCESS_FS_MAKE_BLOCK	(1ULL << 11)
#define LANDLOCK_ACCESS_FS_MAKE_SYM	(1ULL << 12)
#define LANDLOCK_ACCESS_FS_REFER	(1ULL << 13) /* ABI 2 */
#define LANDLOCK_ACCESS_FS_TRUNCATE	(1ULL << 14) /* ABI 3 */
#define LANDLOCK_ACCESS_FS_IOCTL_DEV	(1ULL << 15) /* ABI 5 */
#define LANDLOCK_ACCESS_FS_RESOLVE_UNIX (1ULL << 16) /* ABI 9 */

#define LANDLOCK_ACCESS_NET_BIND_TCP	     (1ULL << 0) /* ABI 4 */
#define LANDLOCK_ACCESS_NET_CONNECT_TCP	     (1ULL << 1) /* ABI 4 */
#define LANDLOCK_ACCESS_NET_BIND_UDP	     (1ULL << 2) /* ABI 10 */
#define LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP (1ULL << 3) /* ABI 10 */

#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define LANDLOCK_SCOPE_SIGNAL		    (1ULL << 1) /* ABI 6 */

#define LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF  (1U << 0) /* ABI 7 */
#define LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON	  (1U << 1) /* ABI 7 */
#define LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF (1U << 2) /* ABI 7 */
#define LANDLOCK_RESTRICT_SELF_TSYNC		  (1U << 3) /* ABI 8 */

static inline int landlock_create_ruleset(const struct landlock_ruleset_attr *attr, size_t size,
					  uint32_t flags)
{
	return (int)syscall(__NR_landlock_create_ruleset, attr, size, flags);
}

static inline int landlock_add_rule(int ruleset_fd, enum landlock_rule_type type, const void *attr,
				    uint32_t flags)
{
	return (int)syscall(__NR_landlock_add_rule, ruleset_fd, type, attr, flags);
}

static inline int landlock_restrict_self(int ruleset_fd, uint32_t flags)
{
	return (int)syscall(__NR_landlock_restrict_self, ruleset_fd, flags);
}

#endif
