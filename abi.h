/*
 * abi.c: the one table of rights per ABI, the kernel's ABI, the plan of a
 * run's policy, and its report (-v, --probe).
 */
#ifndef LR_ABI_H
#define LR_ABI_H

#include <stdint.h>

#include "policy.h"

/* A row of the rights tables (abi.c): a bit, its name, the ABI that added
 * it and what kind of right it is. Name lists stop at a NULL name. */
struct name {
	uint64_t bit;
	const char *name;
	int abi;
	unsigned flags; /* RIGHT_ON_FILE, RIGHT_READ */
};

enum { RIGHT_ON_FILE = 1, RIGHT_READ = 2 };

struct kv;
struct out;

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

#endif
