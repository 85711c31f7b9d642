/*
 * The stand-in for the calls through which the launcher narrows its own
 * process after Landlock (prctl, capget, capset, seccomp, setsid,
 * close_range) or holds its signals (rt_sigprocmask), and the record of
 * what it did, for the checks fuzz_args.c makes at exec. Nothing here
 * touches the fuzzer's real process; the environment is a test one for the
 * length of a run.
 */
#ifndef LR_FUZZ_PROCESS_H
#define LR_FUZZ_PROCESS_H

#include <stdint.h>
#include <sys/types.h>

#include "../../seccomp.h"

struct process {
	int nnp;
	int root; /* the caller held every capability */
	uint64_t effective, permitted, inheritable, bounding;
	int filters, filter_before_nnp;
	struct sock_filter filter[FILTER_MAX];
	unsigned short filter_len;
	int setsid, pdeathsig, cloexec_from;
	uint64_t blocked; /* the whole-tree mode's mask, until its fork fails */
};

#define MAX_ENV_EDITS 64

/* The filter's groups as the contract names them (process.c's vectors). */
enum {
	F_TTY = 1 << 0,
	F_NETWORK = 1 << 1,
	F_IO_URING = 1 << 2,
	F_USERNS = 1 << 3,
	F_KEYRING = 1 << 4,
	F_BPF = 1 << 5,
	F_PERF = 1 << 6,
	F_USERFAULTFD = 1 << 7,
	F_METADATA = 1 << 8,
};

/* What the command line asks of the process (fuzz_args.c reads it). */
struct asked_process {
	int keep_caps, new_session, die_with_parent, close_fds;
	int no_network;
	unsigned allowed;		/* --allow-syscalls, as F_ bits */
	const char *env[MAX_ENV_EDITS]; /* --setenv/--unsetenv text, NULL: --clearenv */
	int nenv;
};

extern struct process proc;

/* fuzz_args.c: report a finding with the run's argv, and abort. */
__attribute__((noreturn, format(printf, 1, 2))) void finding(const char *fmt, ...);

void process_start(int root);
void process_end(void);
int process_prctl(int option, unsigned long arg);
long process_capget(void *header, void *data);
long process_capset(const void *header, const void *data);
long process_seccomp(unsigned op, unsigned flags, const void *prog);
long process_close_range(unsigned first, unsigned last, unsigned flags);
pid_t process_setsid(void);
long process_sigprocmask(int how, const uint64_t *set, uint64_t *old, size_t size);
unsigned long process_getauxval(unsigned long type); /* AT_UID, AT_EUID: root's, or 1000 */
/* At exec: the capability sets the command would get are what the contract
 * says, no signal is blocked that the caller did not block, and the one
 * seccomp filter refuses terminal injection, the network with --no-network,
 * the baseline but what --allow-syscalls names and, for root, metadata, on
 * every ABI, allows the rest, and decides every call it allows without a
 * rule on its number alone (run on test vectors by a BPF interpreter). */
void process_check_exec(const struct asked_process *a);

#endif
