/*
 * fault, fakeabi: run a command under a seccomp filter that changes how the
 * kernel answers one system call, so the tests reach landlock-run's failure
 * and old-kernel paths on the real kernel without mocking the launcher.
 *
 *   fault SYSCALL[,SYSCALL...] ERRNO [--argK VALUE]... [--path P] [--nth N]
 *         -- COMMAND...
 *       SYSCALL fails with ERRNO (names or numbers). --argK VALUE (K = 0..5)
 *       narrows the match to calls whose argument K equals VALUE: the low 32
 *       bits are compared (int and flag arguments are 32-bit in the kernel),
 *       and the high 32 bits too when VALUE does not fit in 32 bits.
 *       "prctl" means prctl(PR_SET_NO_NEW_PRIVS) unless --arg0 is given.
 *       --path P narrows it to calls whose path argument is the string P
 *       (open: arg0; openat, openat2: arg1), so a test can fail one grant
 *       without depending on the launcher's order of opens. --nth N fails
 *       only the Nth matching call. Without --path and --nth the filter
 *       answers with SECCOMP_RET_ERRNO and COMMAND replaces this process
 *       (same pid, same exit status); with them a supervisor decides each
 *       call through seccomp user notification and lets the others through.
 *       ERRNO "TRACE" answers with SECCOMP_RET_TRACE instead, which with no
 *       tracer fails the call with ENOSYS: a filter that lets the call go
 *       on, to what answers as a kernel without it would (the kernel ranks a
 *       filter's TRACE below the launcher's own notification, as it does
 *       ALLOW; ERRNO above it).
 *   fakeabi N [--errata X|none] -- COMMAND...
 *       landlock_create_ruleset(NULL, 0, VERSION) answers N; the errata query
 *       answers X, or EINVAL with "none" (a kernel that predates the query),
 *       or the real kernel's value when --errata is not given. Every other
 *       call goes on to the real kernel, which still enforces what it gets.
 *       Rights the real kernel lacks (asked of it bit by bit at the start)
 *       are taken out of each ruleset and rule on the way, and a rule left
 *       with none is answered 0 without the kernel: so an N newer than the
 *       real ABI is a kernel that claims rights it does not enforce, which
 *       the launcher's probe must catch.
 *
 * One multi-call binary: build it as "fault" and link "fakeabi" to it. In
 * supervised mode the exit status is COMMAND's (128+N when killed by signal
 * N). The helper's own failures exit 99 with a "fault: " line, so they
 * cannot pass for the launcher's 125.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../landlock.h" /* the syscall numbers and flags the launcher uses */
#include "errnames.h"

#if defined(__x86_64__)
#define ARCH_NR AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH_NR AUDIT_ARCH_AARCH64
#else
#error "fault: only x86_64 and aarch64 are supported"
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fault: the argument offsets below assume little-endian seccomp_data"
#endif

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif

#define EXIT_HELPER  99
#define MAX_SYSCALLS 8
#define MAX_INSNS    64

static const char *progname = "fault";

__attribute__((noreturn, format(printf, 1, 2))) static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_HELPER);
}

static const struct name syscall_names[] = {
	{"landlock_create_ruleset", __NR_landlock_create_ruleset},
	{"landlock_add_rule", __NR_landlock_add_rule},
	{"landlock_restrict_self", __NR_landlock_restrict_self},
	{"prctl", __NR_prctl},
#ifdef __NR_open
	{"open", __NR_open},
#endif
	{"openat", __NR_openat},
	{"openat2", __NR_openat2},
	{"close", __NR_close},
	{"execve", __NR_execve},
	{"capget", __NR_capget},
	{"capset", __NR_capset},
	{"seccomp", __NR_seccomp},
	{"ptrace", __NR_ptrace},
	{"setsid", __NR_setsid},
	{"close_range", __NR_close_range},
	{"getdents64", __NR_getdents64},
	{NULL, 0},
};

/* A whole-string unsigned number (decimal, 0x hex or 0 octal); no sign. */
static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return (errno || *end) ? -1 : 0;
}

static long lookup(const struct name *table, const char *s, const char *what)
{
	uint64_t n;

	for (; table->name; table++)
		if (strcmp(table->name, s) == 0)
			return table->value;
	if (parse_u64(s, &n) || n > 4095)
		die("unknown %s '%s'", what, s);
	return (long)n;
}

/* ---- the BPF program ---------------------------------------------------- */

struct match {
	long nrs[MAX_SYSCALLS];
	int nnrs;
	int has_arg[6];
	uint64_t arg[6];
};

struct prog {
	struct sock_filter insn[MAX_INSNS];
	unsigned short len;
};

static void emit(struct prog *p, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	if (p->len == MAX_INSNS)
		die("filter too long");
	p->insn[p->len++] = (struct sock_filter)BPF_JUMP(code, k, jt, jf);
}

#define LOAD(off)   (BPF_LD | BPF_W | BPF_ABS), (uint32_t)(off)
#define RET(action) emit(p, BPF_RET | BPF_K, (action), 0, 0)

/* Continue when the loaded word equals value, else allow the call. */
static void expect_word(struct prog *p, uint32_t off, uint32_t value)
{
	emit(p, LOAD(off), 0, 0);
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, value, 1, 0);
	RET(SECCOMP_RET_ALLOW);
}

/*
 * Kill on a foreign architecture: the same syscall numbers mean other calls
 * there, so letting them through would make the injection silently wrong.
 */
static void build_filter(struct prog *p, const struct match *m, uint32_t action)
{
	int i;

	emit(p, LOAD(offsetof(struct seccomp_data, arch)), 0, 0);
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, ARCH_NR, 1, 0);
	RET(SECCOMP_RET_KILL_PROCESS);
	emit(p, LOAD(offsetof(struct seccomp_data, nr)), 0, 0);
#ifdef __x86_64__
	/* x32 calls share this arch value but add 0x40000000 to the number. */
	emit(p, BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1);
	RET(SECCOMP_RET_KILL_PROCESS);
#endif
	for (i = 0; i < m->nnrs; i++)
		emit(p, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)m->nrs[i], (uint8_t)(m->nnrs - i), 0);
	RET(SECCOMP_RET_ALLOW);
	for (i = 0; i < 6; i++) {
		uint32_t off = (uint32_t)offsetof(struct seccomp_data, args[i]);

		if (!m->has_arg[i])
			continue;
		expect_word(p, off, (uint32_t)m->arg[i]);
		if (m->arg[i] > UINT32_MAX)
			expect_word(p, off + 4, (uint32_t)(m->arg[i] >> 32));
	}
	RET(action);
}

/* Returns the listener fd when action is SECCOMP_RET_USER_NOTIF, else 0. */
static int install(const struct match *m, uint32_t action)
{
	struct prog p = {.len = 0};
	struct sock_fprog fprog;
	unsigned flags = 0;
	long ret;

	build_filter(&p, m, action);
	fprog.len = p.len;
	fprog.filter = p.insn;
	/* Needed to install a filter without CAP_SYS_ADMIN, and the launcher
	 * sets it anyway; an injected prctl failure is answered by the filter. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die("prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
	if (action == SECCOMP_RET_USER_NOTIF)
		flags = SECCOMP_FILTER_FLAG_NEW_LISTENER;
	ret = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &fprog);
	if (ret < 0)
		die("seccomp(SET_MODE_FILTER): %s", strerror(errno));
	return (int)ret;
}

/* ---- supervised mode: user notification --------------------------------- */

struct answer {
	int nth, count, err; /* fault: Nth call (0: every call), errno */
	const char *path;    /* fault --path, or NULL */
	int fake_abi;	     /* fakeabi: > 0 */
	int errata_mode;     /* 0 real kernel, 1 value, 2 EINVAL */
	int64_t errata;
	uint64_t real[3]; /* fakeabi: the fs, net and scope bits the kernel has */
};

/*
 * Reads the NUL-terminated string at addr in the target. Page by page: a
 * read that crosses into an unmapped page fails as a whole. Returns 0 when
 * the string is there and shorter than size.
 */
static int read_string(pid_t pid, uint64_t addr, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		size_t chunk = 4096 - (size_t)((addr + got) % 4096);
		struct iovec local, remote;
		ssize_t n;

		if (chunk > size - got)
			chunk = size - got;
		local = (struct iovec){.iov_base = buf + got, .iov_len = chunk};
		remote = (struct iovec){.iov_base = (void *)(uintptr_t)(addr + got),
					.iov_len = chunk};
		n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			return -1;
		if (memchr(buf + got, '\0', (size_t)n))
			return 0;
		got += (size_t)n;
	}
	return -1;
}

static int path_matches(const struct answer *a, const struct seccomp_notif *req)
{
	char buf[4097];
	int arg = req->data.nr == __NR_openat || req->data.nr == __NR_openat2;

	if (!a->path)
		return 1;
	return read_string((pid_t)req->pid, req->data.args[arg], buf, sizeof buf) == 0 &&
	       strcmp(buf, a->path) == 0;
}

/* fakeabi: each bit of each ruleset field that the real kernel accepts. */
static void learn_real_rights(struct answer *a)
{
	int field, bit;

	for (field = 0; field < 3; field++)
		for (bit = 0; bit < 64; bit++) {
			uint64_t attr[3] = {0, 0, 0};
			long fd;

			attr[field] = 1ULL << bit;
			fd = syscall(__NR_landlock_create_ruleset, attr, sizeof attr, 0);
			if (fd >= 0) {
				a->real[field] |= attr[field];
				close((int)fd);
			}
		}
}

/*
 * fakeabi: takes the rights the real kernel lacks out of n u64 fields at
 * addr in the target, field i against real[field[i]]. Returns the OR of
 * what is left, or -1 when the target's memory cannot be read or written.
 */
static int64_t strip_rights(const struct answer *a, pid_t pid, uint64_t addr, int n,
			    const int *field)
{
	uint64_t v[3], left = 0;
	struct iovec local = {.iov_base = v, .iov_len = (size_t)n * sizeof v[0]};
	struct iovec remote = {.iov_base = (void *)(uintptr_t)addr, .iov_len = local.iov_len};
	int i;

	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)local.iov_len)
		return -1;
	for (i = 0; i < n; i++) {
		v[i] &= a->real[field[i]];
		left |= v[i];
	}
	if (process_vm_writev(pid, &local, 1, &remote, 1, 0) != (ssize_t)local.iov_len)
		return -1;
	return (int64_t)(left & INT64_MAX);
}

/* fakeabi: a ruleset or rule goes on with only what the real kernel has. */
static void strip_call(const struct answer *a, const struct seccomp_notif *req,
		       struct seccomp_notif_resp *resp)
{
	static const int ruleset[] = {0, 1, 2}, path_rule[] = {0}, net_rule[] = {1};
	pid_t pid = (pid_t)req->pid;
	uint64_t size = req->data.args[1];

	if (req->data.nr == __NR_landlock_create_ruleset) {
		/* the fields the size covers, at most the three the kernel knows */
		strip_rights(a, pid, req->data.args[0], (int)((size < 24 ? size : 24) / 8),
			     ruleset);
		return;
	}
	if (req->data.args[1] != LANDLOCK_RULE_PATH_BENEATH &&
	    req->data.args[1] != LANDLOCK_RULE_NET_PORT)
		return;
	if (strip_rights(a, pid, req->data.args[2], 1,
			 req->data.args[1] == LANDLOCK_RULE_NET_PORT ? net_rule : path_rule) == 0)
		resp->flags = 0; /* nothing the kernel could enforce: a no-op rule */
}

static void answer(struct answer *a, const struct seccomp_notif *req,
		   struct seccomp_notif_resp *resp)
{
	uint32_t flags = (uint32_t)req->data.args[2];
	int query = req->data.args[0] == 0 && req->data.args[1] == 0;

	resp->id = req->id;
	resp->val = 0;
	resp->error = 0;
	resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	if (a->fake_abi == 0) {
		if (path_matches(a, req) && (++a->count == a->nth || a->nth == 0)) {
			resp->error = -a->err;
			resp->flags = 0;
		}
		return;
	}
	/* Only the exact queries are faked; anything else, including a
	 * malformed query, gets the real kernel's answer on what it has. */
	if (req->data.nr != __NR_landlock_create_ruleset || !query) {
		if (req->data.args[0] != 0)
			strip_call(a, req, resp);
		return;
	}
	if (flags == LANDLOCK_CREATE_RULESET_VERSION) {
		resp->val = a->fake_abi;
		resp->flags = 0;
	} else if (flags == LANDLOCK_CREATE_RULESET_ERRATA && a->errata_mode) {
		resp->flags = 0;
		if (a->errata_mode == 1)
			resp->val = a->errata;
		else
			resp->error = -EINVAL;
	}
}

/* One byte carrying one descriptor: how the child hands its listener over. */
struct fd_msg {
	char byte;
	struct iovec iov;
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr msg;
};

static struct msghdr *fd_msg_init(struct fd_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->iov = (struct iovec){.iov_base = &m->byte, .iov_len = 1};
	m->msg = (struct msghdr){.msg_iov = &m->iov,
				 .msg_iovlen = 1,
				 .msg_control = m->u.buf,
				 .msg_controllen = sizeof(m->u.buf)};
	return &m->msg;
}

static void send_fd(int sock, int fd)
{
	struct fd_msg m;
	struct msghdr *msg = fd_msg_init(&m);
	struct cmsghdr *c = CMSG_FIRSTHDR(msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(sock, msg, 0) != 1)
		die("sendmsg(listener): %s", strerror(errno));
}

static int recv_fd(int sock)
{
	struct fd_msg m;
	struct msghdr *msg = fd_msg_init(&m);
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, msg, MSG_CMSG_CLOEXEC) != 1)
		die("recvmsg(listener): %s", errno ? strerror(errno) : "child gave none");
	c = CMSG_FIRSTHDR(msg);
	if (!c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int)))
		die("recvmsg(listener): no descriptor");
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* Receives one notification and answers it; a target that died meanwhile
 * (ENOENT) needs no answer. */
static void serve_one(int listener, struct answer *a, struct seccomp_notif *req, size_t req_size,
		      struct seccomp_notif_resp *resp)
{
	memset(req, 0, req_size); /* the kernel insists on a zeroed buffer */
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req)) {
		if (errno == EINTR || errno == ENOENT)
			return;
		die("SECCOMP_IOCTL_NOTIF_RECV: %s", strerror(errno));
	}
	answer(a, req, resp);
	/* The path was read from the target's memory: make sure the id still
	 * names the same, live call before acting on it. */
	if (a->path && ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id))
		return;
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp) && errno != ENOENT)
		die("SECCOMP_IOCTL_NOTIF_SEND: %s", strerror(errno));
}

static int exit_code(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/*
 * Answers notifications until the child has exited and no process holds the
 * filter any more (POLLHUP): a descendant of the command may still make
 * calls after the child is gone. A zombie still holds the filter, so the
 * child is reaped as soon as its pidfd says it exited.
 */
static int supervise(pid_t child, int listener, struct answer *a)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	size_t req_size, resp_size;
	struct pollfd pfd[2];
	int status = 0, reaped = 0;

	if (syscall(__NR_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes))
		die("seccomp(GET_NOTIF_SIZES): %s", strerror(errno));
	req_size = sizes.seccomp_notif > sizeof(*req) ? sizes.seccomp_notif : sizeof(*req);
	resp_size =
		sizes.seccomp_notif_resp > sizeof(*resp) ? sizes.seccomp_notif_resp : sizeof(*resp);
	req = calloc(1, req_size);
	resp = calloc(1, resp_size);
	if (!req || !resp)
		die("out of memory");
	pfd[0] = (struct pollfd){.fd = listener, .events = POLLIN};
	pfd[1] = (struct pollfd){.fd = (int)syscall(__NR_pidfd_open, child, 0), .events = POLLIN};
	if (pfd[1].fd < 0)
		die("pidfd_open: %s", strerror(errno));
	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		if (pfd[0].revents & POLLIN)
			serve_one(listener, a, req, req_size, resp);
		else if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			pfd[0].fd = -1;
		if (pfd[1].revents & POLLIN) {
			if (waitpid(child, &status, 0) != child)
				die("waitpid: %s", strerror(errno));
			close(pfd[1].fd);
			pfd[1].fd = -1;
			reaped = 1;
		}
		if (reaped && pfd[0].fd < 0)
			break;
	}
	free(req);
	free(resp);
	return exit_code(status);
}

__attribute__((noreturn)) static void run(char **command)
{
	execvp(command[0], command);
	die("cannot run %s: %s", command[0], strerror(errno));
}

__attribute__((noreturn)) static void run_supervised(const struct match *m, struct answer *a,
						     char **command)
{
	int sv[2], listener;
	pid_t child;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		die("socketpair: %s", strerror(errno));
	child = fork();
	if (child < 0)
		die("fork: %s", strerror(errno));
	if (child == 0) {
		close(sv[0]);
		listener = install(m, SECCOMP_RET_USER_NOTIF);
		send_fd(sv[1], listener);
		close(listener);
		close(sv[1]);
		run(command);
	}
	close(sv[1]);
	listener = recv_fd(sv[0]);
	close(sv[0]);
	exit(supervise(child, listener, a));
}

/* ---- command lines ------------------------------------------------------ */

__attribute__((noreturn)) static void usage(void)
{
	fprintf(stderr,
		"usage: fault SYSCALL[,SYSCALL...] ERRNO|TRACE [--argK VALUE]... [--path P] "
		"[--nth N] -- COMMAND...\n"
		"       fakeabi N [--errata X|none] -- COMMAND...\n");
	exit(EXIT_HELPER);
}

/* Index just past "--", with a command after it. */
static int command_start(int argc, char **argv, int i)
{
	if (i >= argc || strcmp(argv[i], "--") != 0 || i + 1 >= argc)
		usage();
	return i + 1;
}

static void parse_syscalls(struct match *m, char *list)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (m->nnrs == MAX_SYSCALLS)
			die("too many syscalls");
		m->nrs[m->nnrs++] = lookup(syscall_names, tok, "syscall");
	}
	if (m->nnrs == 0)
		usage();
}

/* --path needs to know which argument holds the path. */
static void check_path_syscalls(const struct match *m)
{
	int i;

	for (i = 0; i < m->nnrs; i++) {
#ifdef __NR_open
		if (m->nrs[i] == __NR_open)
			continue;
#endif
		if (m->nrs[i] != __NR_openat && m->nrs[i] != __NR_openat2)
			die("--path works with open, openat and openat2 only");
	}
}

static int main_fault(int argc, char **argv)
{
	struct match m = {.nnrs = 0};
	struct answer a = {.nth = 0};
	uint64_t n;
	int i, cmd;

	if (argc < 3)
		usage();
	parse_syscalls(&m, argv[1]);
	if (strcmp(argv[2], "TRACE") != 0)
		a.err = (int)lookup(errno_names, argv[2], "errno");
	for (i = 3; i + 1 < argc && strcmp(argv[i], "--") != 0; i += 2) {
		if (strcmp(argv[i], "--path") == 0) {
			a.path = argv[i + 1];
		} else if (strcmp(argv[i], "--nth") == 0 && parse_u64(argv[i + 1], &n) == 0 &&
			   n > 0 && n < 1000000) {
			a.nth = (int)n;
		} else if (strncmp(argv[i], "--arg", 5) == 0 && argv[i][5] >= '0' &&
			   argv[i][5] <= '5' && argv[i][6] == '\0' &&
			   parse_u64(argv[i + 1], &n) == 0) {
			m.has_arg[argv[i][5] - '0'] = 1;
			m.arg[argv[i][5] - '0'] = n;
		} else {
			usage();
		}
	}
	cmd = command_start(argc, argv, i);
	if (m.nnrs == 1 && m.nrs[0] == __NR_prctl && !m.has_arg[0]) {
		m.has_arg[0] = 1;
		m.arg[0] = PR_SET_NO_NEW_PRIVS;
	}
	if (a.path)
		check_path_syscalls(&m);
	if ((a.nth || a.path) && strcmp(argv[2], "TRACE") == 0)
		usage();
	if (a.nth || a.path)
		run_supervised(&m, &a, argv + cmd);
	if (strcmp(argv[2], "TRACE") == 0)
		install(&m, SECCOMP_RET_TRACE);
	else
		install(&m, SECCOMP_RET_ERRNO | ((uint32_t)a.err & SECCOMP_RET_DATA));
	run(argv + cmd);
}

static int main_fakeabi(int argc, char **argv)
{
	struct match m = {.nnrs = 2, .nrs = {__NR_landlock_create_ruleset, __NR_landlock_add_rule}};
	struct answer a = {.fake_abi = 0};
	uint64_t n;
	int i = 2;

	if (argc < 2 || parse_u64(argv[1], &n) || n < 1 || n > 1000)
		usage();
	a.fake_abi = (int)n;
	if (i + 1 < argc && strcmp(argv[i], "--errata") == 0) {
		if (strcmp(argv[i + 1], "none") == 0)
			a.errata_mode = 2;
		else if (parse_u64(argv[i + 1], &n) == 0 && n <= INT32_MAX) {
			a.errata_mode = 1;
			a.errata = (int64_t)n;
		} else
			usage();
		i += 2;
	}
	learn_real_rights(&a);
	run_supervised(&m, &a, argv + command_start(argc, argv, i));
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');

	base = base ? base + 1 : argv[0];
	if (strcmp(base, "fakeabi") == 0) {
		progname = "fakeabi";
		return main_fakeabi(argc, argv);
	}
	return main_fault(argc, argv);
}
