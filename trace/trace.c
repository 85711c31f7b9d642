/*
 * --explain and --learn: the launcher stays outside as the parent and
 * traces the command and everything it starts. The child waits until it is
 * traced, installs the filter that stops the calls the policy can refuse
 * (watch.c), and goes on exactly as a plain run does: Landlock, exec. The
 * parent boxes itself (box.c) while the child does so, before anything of
 * the command runs, and for each stopped call looks at the result at
 * syscall exit and hands it to explain.c or learn.c.
 *
 * The tracer is the supervisor of the whole-tree mode (supervise.c): its
 * signals, the command's job-control stops and the end of the run are the
 * supervisor's, and when the command exits whatever it left is ended. A
 * stop is examined only when the kernel's own facts say it is the call the
 * filter named; and if the tracer dies, PTRACE_O_EXITKILL kills the whole
 * traced tree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../abi.h"
#include "../guard.h"
#include "../out.h"
#include "../seccomp.h"
#include "../status.h"
#include "../supervise.h"
#include "../where.h"
#include "tracer.h"

#define OPTIONS                                                                                   \
	(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | \
	 PTRACE_O_TRACEEXEC | PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL)

struct tracer {
	const struct policy *p;
	const char *mode;     /* "--explain", "--learn", for messages */
	struct table tracees; /* struct tracee, by thread id */
	struct supervisor *sv;
	pid_t command;
	int go;			     /* the pipe the child waits on */
	int executed;		     /* COMMAND's first exec has succeeded */
	struct explainer *explainer; /* --explain, or */
	struct learner *learner;     /* --learn */
};

/* The child returns once traced and told to go on; the parent holds it
 * seized, with a pidfd, until start(). Without ptrace (a container that
 * forbids it, Yama's ptrace_scope 3) nothing runs; nor without /proc,
 * which names what the command's calls reach (landlock-run.c asks). */
static pid_t spawn(struct tracer *tr)
{
	int go[2];
	char byte = 0;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		die_errno("%s: cannot create a pipe", tr->mode);
	pid = supervise_spawn(tr->sv);
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
	/* refused: the supervisor's end kills the child (at_failure) */
	if (ptrace(PTRACE_SEIZE, pid, 0, OPTIONS))
		die_errno("%s needs ptrace to watch the command, and %s", tr->mode,
			  ptrace_refuser());
	return pid;
}

static void start(struct tracer *tr)
{
	char byte = 0;

	if (write(tr->go, &byte, 1) != 1 || close(tr->go))
		die_errno("%s: cannot start the command", tr->mode);
}

/*
 * The report, once the command has exited with STATUS. A run cut short
 * leaves --learn's file as it was; so does, for either report, a run whose
 * launcher failed in the child before COMMAND (125 and no exec: nothing of
 * the command ran). An exec refused (126, 127) is reported: --explain says
 * why.
 */
static void finish(struct tracer *tr, int status)
{
	int failed = !tr->executed && WIFEXITED(status) && WEXITSTATUS(status) == EXIT_LAUNCHER;

	if (tr->learner)
		learn_finish(tr->learner, failed || supervise_interrupted());
	else if (failed)
		explain_discard(tr->explainer);
	else
		explain_finish(tr->explainer);
}

/* A failure of the tracer ends the run as the supervisor's does, and leaves
 * the report's file as it was, with nothing beside it. */
static void tracer_failed(void *ctx, int code)
{
	struct tracer *tr = ctx;

	supervise_failed(tr->sv, code);
	if (tr->learner)
		learn_finish(tr->learner, 1);
	else
		explain_discard(tr->explainer);
}

static struct tracee *follow(struct tracer *tr, pid_t tid)
{
	tr->tracees.size = sizeof(struct tracee);
	return table_put(&tr->tracees, (uint64_t)tid);
}

/* Inside a watched or a marked call, the next stop wanted is its exit.
 * ESRCH: the tracee died meanwhile, and its exit is reported next. */
static void resume(struct tracer *tr, pid_t tid, int sig)
{
	struct tracee *t = table_get(&tr->tracees, (uint64_t)tid);

	ptrace(t && (t->in_call || t->marked) ? PTRACE_SYSCALL : PTRACE_CONT, tid, 0, sig);
}

/*
 * A call the system-call filter refuses stopped here first (--explain):
 * the table says which rule refuses it (refusal_for, from the kernel's
 * number and arguments, never the stop's ret_data), it is marked, so the
 * filter refuses it as the tracee goes on, and explained; at the call's
 * exit the register the mark is in gets its own value back (unmark), so
 * the command finds every register as a plain run leaves it. A mark that
 * cannot be made, or taken back, on a tracee still there ends the run:
 * the call would otherwise go through, or the command go on with a
 * register the tracer changed.
 */
static int refused(struct tracer *tr, struct tracee *t, pid_t tid,
		   const struct __ptrace_syscall_info *info)
{
	struct refusal rf;

	if (!tr->explainer || info->op != PTRACE_SYSCALL_INFO_SECCOMP ||
	    info->arch != NATIVE_ARCH ||
	    refusal_for(tr->p->kernel.refused | GROUP_TRACED, info->seccomp.nr, info->seccomp.args,
			&rf))
		return 0;
	if (set_arg5(tid, TRACE_MARK) && errno != ESRCH)
		die_errno("%s: cannot mark a refused call of process %d", tr->mode, (int)tid);
	t->marked = 1;
	t->unmarked = info->seccomp.args[5];
	explain_refusal(tr->explainer, tid, &rf, info->seccomp.args);
	return 1;
}

/* --explain looks at a watched call's exit only when Landlock could
 * refuse it: an ioctl on a file that is no device it never refuses (its
 * IOCTL_DEV right is checked on devices alone), so that call costs one
 * stop, not two; nor may a dropped capability refuse a change to a file
 * the command owns (explain.c). */
static int never_refused(const struct tracer *tr, pid_t tid,
			 const struct __ptrace_syscall_info *info)
{
	if (!tr->explainer)
		return 0;
	if (info->seccomp.ret_data == CALL_ioctl)
		return !fd_is_device(tid, (int)info->seccomp.args[0]);
	return calls[info->seccomp.ret_data].caps &&
	       explain_owner_keeps(tr->explainer, tid, (int)info->seccomp.ret_data,
				   info->seccomp.args);
}

static void entered(struct tracer *tr, pid_t tid)
{
	struct __ptrace_syscall_info info;
	struct tracee *t = follow(tr, tid);
	struct call_result entry = {.tid = tid, .entered = tid};

	if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) <= 0)
		return;
	if (refused(tr, t, tid, &info) || !trusted_stop(&info) || never_refused(tr, tid, &info))
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

static void unmark(struct tracer *tr, struct tracee *t, pid_t tid)
{
	t->marked = 0;
	if (set_arg5(tid, t->unmarked) && errno != ESRCH)
		die_errno("%s: cannot restore a register of process %d", tr->mode, (int)tid);
}

static void exited(struct tracer *tr, pid_t tid)
{
	struct __ptrace_syscall_info info;
	struct tracee *t = table_get(&tr->tracees, (uint64_t)tid);
	struct call_result r = {.tid = tid};

	if (t && t->marked) {
		if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) > 0 &&
		    info.op == PTRACE_SYSCALL_INFO_EXIT)
			unmark(tr, t, tid);
		return;
	}
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
		if (tr->learner) /* COMMAND starts: a run that failed before has one line */
			learn_note(&tr->p->asked, "will be");
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

/* A group-stop of the command is the job's (supervise.c); SIGCONT to the
 * job then continues it. */
static void group_stop(struct tracer *tr, pid_t tid)
{
	ptrace(PTRACE_LISTEN, tid, 0, 0);
	if (tid == tr->command)
		supervise_stopped(tr->sv);
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

/* What the command left is ended, and the launcher exits as it did. */
__attribute__((noreturn)) static void end_run(struct tracer *tr, int status)
{
	tr->sv->status = status;
	end_tree(tr->sv->children, tr->command, &tr->sv->status);
	finish(tr, status);
	supervise_exit(tr->sv);
}

/* Until the command exits. */
__attribute__((noreturn)) static void watch(struct tracer *tr)
{
	int status;
	pid_t tid;

	for (;;) {
		tid = wait_for(-1, &status, __WALL, tr->mode, "command");
		if (WIFSTOPPED(status)) {
			follow(tr, tid);
			event(tr, tid, status);
			continue;
		}
		table_del(&tr->tracees, (uint64_t)tid);
		if (tid == tr->command)
			end_run(tr, status);
	}
}

/*
 * The seal goes on while the child confines itself, on the other CPU: the
 * filter's install is the costliest step of a short run. Nothing of the
 * command runs or is read before it: the child stops at its first watched
 * call or, at the latest, once it has executed COMMAND (PTRACE_EVENT_EXEC),
 * until watch() resumes it. A seal that fails is told once. A child that
 * ended before COMMAND has failed on its own and said why (a kernel whose
 * seccomp refuses both filters, an exec that failed: 126, 127), or was
 * killed: the run ends as it did, and the seal's failure goes untold, as
 * nothing of the command ran. A child stopped at an event is killed as the
 * tracer dies (at_failure). A signal for the child meanwhile is delivered,
 * as ever: one that ends it ends the run (a fault does not spin), one that
 * stops it (SIGTTOU at its line, a background job) is an event.
 */
static void seal(struct tracer *tr, const struct report_target *report)
{
	int err, status;

	if (!box_seal(tr->sv->self, tr->sv->pidfd,
		      report->path && report->fd < 0 ? report->dir : -1))
		return;
	err = errno;
	for (;;) {
		wait_for(tr->command, &status, __WALL, tr->mode, "command");
		if (!WIFSTOPPED(status))
			end_run(tr, status);
		if (status >> 16 != 0)
			break; /* at a watched call, its exec or a group-stop */
		if (ptrace(PTRACE_CONT, tr->command, 0, WSTOPSIG(status)) && errno != ESRCH)
			break;
	}
	errno = err;
	die_errno("%s: cannot install the tracer's seccomp filter", tr->mode);
}

/*
 * In the child, returns: it goes on to confine itself (unless learning)
 * and exec. The parent never returns: it resolves the grants with the
 * caller's powers, attaches the child, drops every privilege, creates its
 * report as the command's user, lets the child go on and seals itself.
 */
void trace(const struct policy *p, int ruleset, struct supervisor *sv)
{
	struct tracer tr = {.p = p, .mode = sv->mode, .sv = sv};
	const struct report_target *report =
		p->asked.learn ? &p->asked.learn_report : &p->asked.json_report;

	if (p->asked.learn)
		tr.learner = learn_start(p, &tr.tracees);
	else
		tr.explainer = explain_start(p, &tr.tracees);
	tr.command = spawn(&tr);
	if (tr.command == 0)
		return;
	if (ruleset >= 0 && close(ruleset))
		die_errno("%s: cannot close the Landlock ruleset", tr.mode);
	box_drop();
	if (tr.learner)
		learn_open(tr.learner);
	else
		explain_open(tr.explainer);
	at_failure(tracer_failed, &tr);
	supervise_signals(sv);
	follow(&tr, tr.command);
	status_running(p, tr.command, enforcement(p));
	start(&tr);
	seal(&tr, report);
	watch(&tr);
}
