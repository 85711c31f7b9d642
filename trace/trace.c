/*
 * --explain and --learn: the launcher stays outside as an unconfined
 * parent and traces the command and everything it starts. The child waits
 * until it is traced, sets no_new_privs and installs a seccomp filter that
 * stops only the system calls the policy can refuse (calls.c), and then
 * goes on exactly as a plain run does: Landlock, exec. Every other call
 * runs at full speed. For each stopped call the parent looks at the result
 * at syscall exit and hands it to explain.c or learn.c.
 *
 * The parent forwards SIGINT, SIGTERM, SIGHUP and SIGQUIT that a process
 * sends it, lets the command's job-control stops show as its own, and
 * exits with the command's status once every traced process is gone.
 * PTRACE_O_EXITKILL: if the parent dies, the whole traced tree dies too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracer.h"

#define OPTIONS                                                                                   \
	(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | \
	 PTRACE_O_TRACEEXEC | PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL)

struct tracer {
	const struct policy *p;
	struct table tracees; /* struct tracee, by thread id */
	pid_t command;
	int executed;		     /* COMMAND's first exec has succeeded */
	int status;		     /* the command's, as a shell reports it */
	struct explainer *explainer; /* --explain, or */
	struct learner *learner;     /* --learn */
};

static int watched(const struct policy *p, const struct call *c)
{
	const struct landlock_ruleset_attr *h = &p->kernel.handled;

	return p->asked.learn || c->fs & h->handled_access_fs || c->net & h->handled_access_net ||
	       c->scope & h->scoped;
}

/* Without --ro, reads are not confined: an open only for reading cannot be
 * refused, so it need not stop either. */
static int reads_only_pass(const struct policy *p, const struct call *c)
{
	return !p->asked.learn && !p->asked.reads_confined && c->flags >= 0 &&
	       (c == &calls[CALL_open] || c == &calls[CALL_openat]);
}

/*
 *	if (arch != native) allow	(tracing is no security boundary)
 *	per watched call:  if (nr == its number) return TRACE | row
 *	    an open when reads pass: if (!(flags & writing)) allow
 *	allow
 */
static void watch_calls(const struct policy *p)
{
	struct filter f = {.len = 0};
	unsigned i;

	filter_emit(&f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARCH);
	filter_emit(&f, BPF_JEQ_K, 1, 0, NATIVE_ARCH);
	filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	filter_emit(&f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR);
	for (i = 0; i < NCALLS; i++) {
		const struct call *c = &calls[i];
		int pass = reads_only_pass(p, c);

		if (call_nr[i] < 0 || !watched(p, c))
			continue;
		filter_emit(&f, BPF_JEQ_K, 0, pass ? 4 : 1, (uint32_t)call_nr[i]);
		if (pass) {
			filter_emit(&f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG((uint32_t)c->flags));
			filter_emit(&f, BPF_JSET_K, 1, 0, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC);
			filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
		}
		filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_TRACE | i);
	}
	filter_emit(&f, BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW);
	/* An unprivileged filter needs no_new_privs, which the run sets anyway. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || filter_install(&f))
		die_errno("%s: cannot install the seccomp filter that stops the watched calls",
			  p->asked.learn ? "--learn" : "--explain");
}

/* The child returns once traced; the parent traces it. Without ptrace (a
 * container that forbids it, Yama's ptrace_scope 3) nothing runs. */
static pid_t spawn(const struct policy *p)
{
	const char *mode = p->asked.learn ? "--learn" : "--explain";
	int go[2], err;
	char byte = 0;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		die_errno("%s: cannot create a pipe", mode);
	pid = _Fork();
	if (pid < 0)
		die_errno("%s: cannot fork", mode);
	if (pid == 0) {
		close(go[1]);
		/* EOF: the parent could not trace us and said why. */
		if (read(go[0], &byte, 1) != 1)
			_exit(EXIT_LAUNCHER);
		close(go[0]);
		watch_calls(p);
		return 0;
	}
	close(go[0]);
	if (ptrace(PTRACE_SEIZE, pid, 0, OPTIONS)) {
		err = errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		errno = err;
		die_errno("%s needs ptrace to watch the command, and this system refuses it (a "
			  "container without ptrace, or Yama ptrace_scope 3)",
			  mode);
	}
	if (write(go[1], &byte, 1) != 1)
		die_errno("%s: cannot start the command", mode);
	close(go[1]);
	return pid;
}

/*
 * The one global: a signal handler can only leave a flag. SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT that a process sent (si_code <= 0) are passed on to
 * the command; the terminal's own (SI_KERNEL) reached its process group,
 * the command's too, already.
 */
static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static volatile sig_atomic_t to_forward[sizeof forwarded / sizeof forwarded[0]];

static void on_signal(int sig, siginfo_t *info, void *context)
{
	size_t i;

	(void)context;
	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		if (forwarded[i] == sig && info->si_code <= 0)
			to_forward[i] = 1;
}

/* No SA_RESTART: a signal interrupts waitpid, and the loop forwards it.
 * The job-control signals are the command's to act on; its stops become
 * the launcher's (stop_with). An ignored SIGCHLD would lose its status. */
static void take_signals(void)
{
	struct sigaction forward = {.sa_sigaction = on_signal, .sa_flags = SA_SIGINFO};
	struct sigaction ignore = {.sa_handler = SIG_IGN}, deflt = {.sa_handler = SIG_DFL};
	static const int job_control[] = {SIGTSTP, SIGTTIN, SIGTTOU};
	size_t i;

	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		if (sigaction(forwarded[i], &forward, NULL))
			die_errno("--explain: cannot catch signal %d", forwarded[i]);
	for (i = 0; i < sizeof job_control / sizeof job_control[0]; i++)
		if (sigaction(job_control[i], &ignore, NULL))
			die_errno("--explain: cannot ignore signal %d", job_control[i]);
	if (sigaction(SIGCHLD, &deflt, NULL))
		die_errno("--explain: cannot reset SIGCHLD");
}

static void forward_signals(const struct tracer *tr)
{
	size_t i;

	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		if (to_forward[i]) {
			to_forward[i] = 0;
			kill(tr->command, forwarded[i]);
		}
}

static struct tracee *follow(struct tracer *tr, pid_t tid)
{
	tr->tracees.size = sizeof(struct tracee);
	return table_put(&tr->tracees, (uint64_t)tid);
}

/* Inside a watched call, the next stop wanted is its exit. ESRCH: the
 * tracee died meanwhile, and its exit is reported next. */
static void resume(struct tracer *tr, pid_t tid, int sig)
{
	struct tracee *t = table_get(&tr->tracees, (uint64_t)tid);

	ptrace(t && t->in_call ? PTRACE_SYSCALL : PTRACE_CONT, tid, 0, sig);
}

static void entered(struct tracer *tr, pid_t tid)
{
	struct __ptrace_syscall_info info;
	struct tracee *t = follow(tr, tid);

	if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) <= 0 ||
	    info.op != PTRACE_SYSCALL_INFO_SECCOMP || info.seccomp.ret_data >= NCALLS)
		return;
	t->in_call = 1;
	t->call = (int)info.seccomp.ret_data;
	memcpy(t->args, info.seccomp.args, sizeof t->args);
	if (tr->learner)
		learn_entry(tr->learner, t);
}

static void exited(struct tracer *tr, pid_t tid)
{
	struct __ptrace_syscall_info info;
	struct tracee *t = table_get(&tr->tracees, (uint64_t)tid);
	struct call_result r;

	if (!t || !t->in_call || ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) <= 0 ||
	    info.op != PTRACE_SYSCALL_INFO_EXIT)
		return;
	t->in_call = 0;
	r.tid = tid;
	r.call = t->call;
	r.args = t->args;
	r.ret = (long)info.exit.rval;
	r.learning = tr->learner != NULL;
	r.entry_path = NULL;
	r.made = 0;
	if (tr->learner)
		learn_call(tr->learner, &r, t);
	else
		explain_call(tr->explainer, &r, t);
}

/* A thread other than the leader that execs takes the leader's id. */
static void exec_done(struct tracer *tr, pid_t tid)
{
	unsigned long former = 0;
	struct tracee *t, moved;

	if (tid == tr->command && !tr->executed) {
		tr->executed = 1;
		status_executed(tid);
	}
	if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &former) || (pid_t)former == tid)
		return;
	t = table_get(&tr->tracees, former);
	if (!t)
		return;
	moved = *t;
	table_del(&tr->tracees, former);
	moved.tid = (uint64_t)tid;
	*follow(tr, tid) = moved;
}

/* A group-stop of the command is the launcher's too, so the shell sees
 * the job stop; SIGCONT to the job then continues both. */
static void group_stop(struct tracer *tr, pid_t tid)
{
	ptrace(PTRACE_LISTEN, tid, 0, 0);
	if (tid == tr->command)
		kill(getpid(), SIGSTOP);
}

static void event(struct tracer *tr, pid_t tid, int status)
{
	unsigned long child = 0;
	int sig = WSTOPSIG(status);

	switch (status >> 16) {
	case PTRACE_EVENT_SECCOMP: entered(tr, tid); break;
	case PTRACE_EVENT_EXEC: exec_done(tr, tid); break;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &child) == 0)
			follow(tr, (pid_t)child);
		break;
	case PTRACE_EVENT_STOP:
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
			group_stop(tr, tid);
			return;
		}
		break;
	case 0:
		if (sig == (SIGTRAP | 0x80)) {
			exited(tr, tid);
			break;
		}
		resume(tr, tid, sig); /* a signal for the tracee: deliver it */
		return;
	}
	resume(tr, tid, 0);
}

/* A signal death is reported as the shell does: 128 + N. */
static int shell_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

__attribute__((noreturn)) static void watch(struct tracer *tr)
{
	int status;
	pid_t tid;

	for (;;) {
		forward_signals(tr);
		tid = waitpid(-1, &status, __WALL);
		if (tid < 0 && errno == EINTR)
			continue;
		if (tid < 0 && errno == ECHILD)
			break;
		if (tid < 0)
			die_errno("--explain: cannot wait for the command");
		if (WIFSTOPPED(status)) {
			follow(tr, tid);
			event(tr, tid, status);
			continue;
		}
		table_del(&tr->tracees, (uint64_t)tid);
		if (tid == tr->command)
			tr->status = shell_status(status);
	}
	if (tr->learner)
		learn_finish(tr->learner);
	else
		explain_finish(tr->explainer);
	exit(tr->status);
}

/* In the child, returns: it goes on to confine itself (unless learning)
 * and exec. The parent never returns. */
void trace(const struct policy *p, int ruleset)
{
	struct tracer tr = {.p = p};

	if (p->asked.learn)
		tr.learner = learn_start(p, &tr.tracees);
	else
		tr.explainer = explain_start(p, &tr.tracees);
	tr.command = spawn(p);
	if (tr.command == 0)
		return;
	status_running(p, tr.command);
	if (ruleset >= 0 && close(ruleset))
		die_errno("--explain: cannot close the Landlock ruleset");
	take_signals();
	follow(&tr, tr.command);
	watch(&tr);
}
