/*
 * The process calls of the stand-in kernel (process.h): a caller that is
 * root with every capability, or holds none, and the kernel's rules for
 * changing the capability sets, as far as the launcher relies on them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>

#include "process.h"

#define CAP_LAST      40 /* CAP_CHECKPOINT_RESTORE, Linux 5.9 */
#define CAP_SETPCAP   8
#define CAP_ALL	      ((1ULL << (CAP_LAST + 1)) - 1)
#define CAP_VERSION_3 0x20080522

struct process proc;

struct cap_header {
	uint32_t version;
	int pid;
};

struct cap_data {
	uint32_t effective, permitted, inheritable;
};

static long refuse(int err)
{
	errno = err;
	return -1;
}

void process_start(int root)
{
	memset(&proc, 0, sizeof proc);
	proc.root = root;
	proc.bounding = CAP_ALL;
	if (root)
		proc.effective = proc.permitted = CAP_ALL;
}

int process_prctl(int option, unsigned long arg)
{
	if (option == PR_SET_NO_NEW_PRIVS && arg == 1) {
		proc.nnp = 1;
		return 0;
	}
	if (option != PR_CAPBSET_DROP)
		finding("prctl(%d, %lu): the stand-in knows no_new_privs and "
			"PR_CAPBSET_DROP",
			option, arg);
	if (!(proc.effective & 1ULL << CAP_SETPCAP))
		return (int)refuse(EPERM);
	if (arg > CAP_LAST)
		return (int)refuse(EINVAL);
	proc.bounding &= ~(1ULL << arg);
	return 0;
}

static void check_header(const struct cap_header *h)
{
	if (h->version != CAP_VERSION_3 || h->pid != 0)
		finding("capget/capset with version 0x%x pid %d", h->version, h->pid);
}

long process_capget(void *header, void *data)
{
	struct cap_data *d = data;
	int i;

	check_header(header);
	for (i = 0; i < 2; i++) {
		d[i].effective = (uint32_t)(proc.effective >> 32 * i);
		d[i].permitted = (uint32_t)(proc.permitted >> 32 * i);
		d[i].inheritable = (uint32_t)(proc.inheritable >> 32 * i);
	}
	return 0;
}

static uint64_t join(const struct cap_data *d, size_t field)
{
	uint32_t lo, hi;

	memcpy(&lo, (const char *)&d[0] + field, sizeof lo);
	memcpy(&hi, (const char *)&d[1] + field, sizeof hi);
	return (uint64_t)hi << 32 | lo;
}

/* The kernel's rules: permitted never grows, effective stays within it. */
long process_capset(const void *header, const void *data)
{
	uint64_t eff = join(data, offsetof(struct cap_data, effective));
	uint64_t perm = join(data, offsetof(struct cap_data, permitted));
	uint64_t inh = join(data, offsetof(struct cap_data, inheritable));

	check_header(header);
	if (perm & ~proc.permitted || eff & ~perm || inh & ~(proc.inheritable | proc.permitted))
		return refuse(EPERM);
	proc.effective = eff;
	proc.permitted = perm;
	proc.inheritable = inh;
	return 0;
}

void process_check_exec(int keep_caps)
{
	uint64_t caller = proc.root ? CAP_ALL : 0;

	if (keep_caps && (proc.permitted != caller || proc.bounding != CAP_ALL))
		finding("--keep-caps: exec with permitted 0x%llx bounding 0x%llx",
			(unsigned long long)proc.permitted, (unsigned long long)proc.bounding);
	if (!keep_caps && (proc.effective | proc.permitted | proc.inheritable))
		finding("exec with capabilities left: effective 0x%llx permitted 0x%llx",
			(unsigned long long)proc.effective, (unsigned long long)proc.permitted);
	/* Root's exec gets the bounding set, whatever permitted was. */
	if (!keep_caps && proc.root && proc.bounding)
		finding("root's exec with bounding set 0x%llx", (unsigned long long)proc.bounding);
}
