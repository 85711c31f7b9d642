/*
 * --explain and --learn: the launcher stays outside as the parent and
 * traces the command and everything it starts. The child waits until it is
 * traced, installs the filter that stops the calls the policy can refuse
 * (watch.c), and goes on exactly as a plain run does: Landlock, exec. The
 * parent boxes itself (box.c) before the child goes on, and for each
 * stopped call looks at the result at syscall exit and hands it to
 * explain.c or learn.c.
 *
 * Nothing the command does can take over or freeze its observer: a stop is
 * examined only when the kernel's own facts say it is the call the filter
 * named; signals reach the command through a pidfd taken at spawn, never a
 * pid that may have been reused; the command's job-control stops become
 * the launcher's only when the launcher is the terminal's foreground job;
 * SIGTERM, SIGINT and SIGHUP end the run within a second; and if the
 * launcher dies, PTRACE_O_EXITKILL kills the whole traced tree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracer.h"

#define OPTIONS                                                                                   \
	(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | \
	 PTRACE_O_TRACEEXEC | PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL)

struct tracer {
	const struct policy *p;
	const char *mode;     /* "--explain", "--learn", for messages */
	struct table tracees; /* struct tracee, by thread id */
	pid_t command, self;
	int pidfd;		     /* the command's, from spawn on */
	int go;			     /* the pipe the child waits on */
	int executed;		     /* COMMAND's first exec has succeeded */
	int armed;		     /* the end's timer is set */
	int status;		     /* the command's, as a shell reports it */
	struct explainer *explainer; /* --explain, or */
	struct learner *learner;     /* --learn */
};

int tracer_follows(const struct tracer *tr, pid_t pid)
{
	return pid > 0 && table_get(&tr->tracees, (uint64_t)pid) != NULL;
}

/* The child returns once traced and told to go on; the parent holds it
 * seized, with a pidfd, until start(). Without ptrace (a container that
 * forbids it, Yama's ptrace_scope 3) or /proc, which names what the
 * command's calls reach, nothing runs. */
static pid_t spawn(struct tracer *tr)
{
	int go[2], err;
	char byte = 0;
	pid_t pid;

	need_proc(tr->mode, "follow the command's paths and descriptors (/proc/PID)");
	if (pipe2(go, O_CLOEXEC))
		die_errno("%s: cannot create a pipe", tr->mode);
	pid = _Fork();
	if (pid < 0)
		die_errno("%s: cannot fork", tr->mode);
	if (pid == 0) {
		close(go[1]);
		/* EOF: the parent could not trace us and said why. */
		if (read(go[0], &byte, 1) != 1)
			_exit(EXIT_LAUNCHER);
		close(go[0]);
		watch_calls(tr->p);
		return 0;
	}
	close(go[0]);
	tr->go = go[1];
	tr->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (tr->pidfd < 0 || ptrace(PTRACE_SEIZE, pid, 0, OPTIONS)) {
		err = errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		errno = err;
		if (tr->pidfd < 0)
			die_errno("%s: cannot open a pidfd for the command", tr->mode);
		die_errno("%s needs ptrace to watch the command, and %s", tr->mode,
			  ptrace_refuser());
	}
	return pid;
}

static void start(struct tracer *tr)
{
	char byte = 0;

	if (write(tr->go, &byte, 1) != 1 || close(tr->go))
		die_errno("%s: cannot start the command", tr->mode);
}

/*
 * The one global: a signal handler can only leave a flag. SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT that a process sent (si_code <= 0) are passed on to
 * the command; the terminal's own (SI_KERNEL) reached its process group,
 * the command's too, already. The first SIGINT, SIGTERM or SIGHUP from
 * anyone starts the end: a second later the tree is killed.
 */
static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static volatile sig_atomic_t to_forward[sizeof forwarded / sizeof forwarded[0]];
static volatile sig_atomic_t ending, deadline;

static void on_signal(int sig, siginfo_t *info, void *context)
{
	size_t i;

	(void)context;
	if (sig == SIGALRM) {
		deadline = 1;
		return;
	}
	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		if (forwarded[i] == sig && info->si_code <= 0)
			to_forward[i] = 1;
	if (sig != SIGQUIT && !ending)
		ending = sig;
}

/* No SA_RESTART: a signal interrupts waitpid, and the loop acts on it.
 * The job-control signals are the command's to act on; its stops become
 * the launcher's (group_stop). An ignored SIGCHLD would lose its status. */
static void take_signals(const struct tracer *tr)
{
	struct sigaction forward = {.sa_sigaction = on_signal, .sa_flags = SA_SIGINFO};
	struct sigaction ignore = {.sa_handler = SIG_IGN}, deflt = {.sa_handler = SIG_DFL};
	static const int job_control[] = {SIGTSTP, SIGTTIN, SIGTTOU};
	size_t i;

	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		if (sigaction(forwarded[i], &forward, NULL))
			die_errno("%s: cannot catch signal %d", tr->mode, forwarded[i]);
	if (sigaction(SIGALRM, &forward, NULL))
		die_errno("%s: cannot catch signal %d", tr->mode, SIGALRM);
	for (i = 0; i < sizeof job_control / sizeof job_control[0]; i++)
		if (sigaction(job_control[i], &ignore, NULL))
			die_errno("%s: cannot ignore signal %d", tr->mode, job_control[i]);
	if (sigaction(SIGCHLD, &deflt, NULL))
		die_errno("%s: cannot reset SIGCHLD", tr->mode);
}

/* Through the pidfd: once the command is reaped it refers to no process,
 * so a pid the system has given to another one is never signalled. */
static void forward_signals(struct tracer *tr)
{
	static const struct itimerval second = {{0, 0}, {1, 0}};
	size_t i;

	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		if (to_forward[i]) {
			to_forward[i] = 0;
			(void)syscall(SYS_pidfd_send_signal, tr->pidfd, forwarded[i], NULL, 0);
		}
	if (ending && !tr->armed) {
		tr->armed = 1;
		if (setitimer(ITIMER_REAL, &second, NULL))
			die_errno("%s: cannot set a timer", tr->mode);
	}
}

static void finish(struct tracer *tr, int interrupted)
{
	if (tr->learner)
		learn_finish(tr->learner, interrupted);
	else
		explain_finish(tr->explainer);
}

/* A second after SIGTERM, SIGINT or SIGHUP the tree is killed (the
 * launcher's exit kills every tracee), and the launcher dies of the signal
 * it got, so its caller sees why. */
__attribute__((noreturn)) static void end(struct tracer *tr)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	uint64_t unblock = 1ULL << (ending - 1);

	(void)syscall(SYS_pidfd_send_signal, tr->pidfd, SIGKILL, NULL, 0);
	finish(tr, 1);
	(void)sigaction(ending, &dfl, NULL);
	(void)kill(tr->self, ending);
	(void)syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &unblock, NULL, sizeof unblock);
	exit(128 + ending);
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

/*
 * A call the system-call filter refuses stopped here first (--explain):
 * the table says which rule refuses it (refusal_for, from the kernel's
 * number and arguments, never the stop's ret_data), it is marked, so the
 * filter refuses it as the tracee goes on, and explained. A mark that
 * cannot be made on a tracee still there ends the run: the call would
 * otherwise go through.
 */
static int refused(struct tracer *tr, pid_t tid, const struct __ptrace_syscall_info *info)
{
	struct refusal rf;

	if (!tr->explainer || info->op != PTRACE_SYSCALL_INFO_SECCOMP ||
	    info->arch != NATIVE_ARCH ||
	    refusal_for(tr->p->kernel.refused | GROUP_TRACED, info->seccomp.nr, info->seccomp.args,
			&rf))
		return 0;
	if (mark_refusal(tid) && errno != ESRCH)
		die_errno("%s: cannot mark a refused call of process %d", tr->mode, (int)tid);
	explain_refusal(tr->explainer, tid, &rf, info->seccomp.args);
	return 1;
}

static void entered(struct tracer *tr, pid_t tid)
{
	struct __ptrace_syscall_info info;
	struct tracee *t = follow(tr, tid);
	struct call_result entry = {.tid = tid, .entered = tid};

	if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) <= 0)
		return;
	if (refused(tr, tid, &info) || !trusted_stop(&info))
		return;
	t->in_call = 1;
	t->call = (int)info.seccomp.ret_data;
	t->entered = tid;
	memcpy(t->args, info.seccomp.args, sizeof t->args);
	entry.call = t->call;
	entry.args = t->args;
	if (tr->learner)
		learn_entry(tr->learner, &entry);
}

static void exited(struct tracer *tr, pid_t tid)
{
	struct __ptrace_syscall_info info;
	struct tracee *t = table_get(&tr->tracees, (uint64_t)tid);
	struct call_result r = {.tid = tid};

	if (!t || !t->in_call || ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) <= 0 ||
	    info.op != PTRACE_SYSCALL_INFO_EXIT)
		return;
	t->in_call = 0;
	r.entered = t->entered;
	r.call = t->call;
	r.args = t->args;
	r.ret = (long)info.exit.rval;
	r.learning = tr->learner != NULL;
	if (tr->learner)
		learn_call(tr->learner, &r);
	else
		explain_call(tr->explainer, &r);
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

/* The launcher is the job in the terminal's foreground, as a shell that
 * runs it with job control makes it: only then is a stop its to share. */
static int foreground(void)
{
	pid_t group;
	int fd;

	for (fd = 0; fd <= STDERR_FILENO; fd++)
		if (ioctl(fd, TIOCGPGRP, &group) == 0)
			return group == getpgid(0);
	return 0;
}

/* A group-stop of the command is the launcher's too, so the shell sees
 * the job stop; SIGCONT to the job then continues both. Elsewhere (no
 * terminal, a background job) a command that stops itself does not leave
 * its launcher stopped with it. */
static void group_stop(struct tracer *tr, pid_t tid)
{
	ptrace(PTRACE_LISTEN, tid, 0, 0);
	if (tid == tr->command && foreground())
		kill(tr->self, SIGSTOP);
}

static void event(struct tracer *tr, pid_t tid, int status)
{
	unsigned long child = 0;
	int sig = WSTOPSIG(status);

	switch (status >> 16) {
	case PTRACE_EVENT_SECCOMP: entered(tr, tid); break;
	case PTRACE_EVENT_EXEC: exec_done(tr, tid); break;
	case PTRACE_EVENT_CLONE:
		if (tr->learner)
			learn_thread(tr->learner);
		/* fall through */
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
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
		if (deadline)
			end(tr);
		tid = waitpid(-1, &status, __WALL);
		if (tid < 0 && errno == EINTR)
			continue;
		if (tid < 0 && errno == ECHILD)
			break;
		if (tid < 0)
			die_errno("%s: cannot wait for the command", tr->mode);
		if (WIFSTOPPED(status)) {
			follow(tr, tid);
			event(tr, tid, status);
			continue;
		}
		table_del(&tr->tracees, (uint64_t)tid);
		if (tid == tr->command)
			tr->status = shell_status(status);
	}
	finish(tr, 0);
	exit(tr->status);
}

/*
 * In the child, returns: it goes on to confine itself (unless learning)
 * and exec. The parent never returns: it resolves the grants with the
 * caller's powers, attaches the child, drops every privilege, creates its
 * report as the command's user, seals itself, and only then lets the
 * child go on.
 */
void trace(const struct policy *p, int ruleset)
{
	struct tracer tr = {.p = p, .mode = p->asked.learn ? "--learn" : "--explain"};
	const struct report_target *report =
		p->asked.learn ? &p->asked.learn_report : &p->asked.json_report;

	if (p->asked.learn)
		tr.learner = learn_start(p, &tr);
	else
		tr.explainer = explain_start(p, &tr);
	tr.command = spawn(&tr);
	if (tr.command == 0)
		return;
	tr.self = getpid();
	if (ruleset >= 0 && close(ruleset))
		die_errno("%s: cannot close the Landlock ruleset", tr.mode);
	box_drop();
	if (tr.learner)
		learn_open(tr.learner);
	else
		explain_open(tr.explainer);
	take_signals(&tr);
	follow(&tr, tr.command);
	box_seal(tr.self, tr.pidfd, report->path && report->fd < 0 ? report->dir : -1);
	status_running(p, tr.command, enforcement(p));
	start(&tr);
	watch(&tr);
}
