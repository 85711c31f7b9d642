/*
 * The whole-tree mode: a run ends when it ends. The launcher L, the
 * caller's child, stays in the caller's job and forks the supervisor S, a
 * child subreaper in a process group of its own, which forks COMMAND (or,
 * with --explain and --learn, traces it: trace/trace.c runs its loop on
 * the pieces here). Whatever COMMAND starts stays beneath S: an orphan is
 * reparented to S, not to init. When COMMAND exits, S kills every process
 * left (SIGKILL through a pidfd of each of its children, which cannot be
 * recycled until S reaps it, until none is left), and exits as COMMAND did;
 * L then exits the same way, or dies of the same signal.
 *
 * Two processes, so that no signal ends the run and leaves its tree: the
 * caller's SIGKILL (and --die-with-parent's) kills L, and S, whose
 * parent-death signal says so, ends the tree; a SIGKILL that reaches S
 * (a root user's pkill) reparents the tree to L, a subreaper too, which
 * ends what is left. Signals the caller sends L are relayed to S and from
 * there to COMMAND; SIGHUP, SIGINT, SIGQUIT and SIGTERM also end the run a
 * second later if COMMAND has not. S listens to L alone.
 *
 * Job control: COMMAND stays in the caller's job, as an exec'd one would.
 * When it stops while the job is the terminal's foreground, S stops, so L
 * stops, so the caller's shell sees the job stop; SIGCONT to the job
 * continues L, which continues S, which continues COMMAND.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fd.h"
#include "out.h"
#include "status.h"
#include "supervise.h"
#include "tmpdir.h"
#include "where.h"

#define P_PIDFD	     3	  /* waitid(2), Linux 5.4 */
#define CHILDREN_MAX 4096 /* bytes of /proc/thread-self/children read at once */

/* Signal masks as the kernel takes them: musl's sigset_t calls would cost
 * more code than the system calls. */
#define SIGBIT(s) (1ULL << ((s)-1))
/* What L relays to S, and S to COMMAND; all but the last two end the run. */
static const int relayed[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2};
#define NRELAYED (sizeof relayed / sizeof relayed[0])

static int ending_signal(int sig)
{
	return sig != SIGUSR1 && sig != SIGUSR2;
}

static long mask_signals(int how, const uint64_t *set, uint64_t *old)
{
	return syscall(SYS_rt_sigprocmask, how, set, old, sizeof *set);
}

/*
 * The one global: what a signal handler acts on. Handlers do their work at
 * once (a pidfd_send_signal, a timer), so a signal that arrives just before
 * the loop blocks in waitpid is never left waiting: what it does to COMMAND
 * wakes the loop.
 */
static struct {
	int pidfd;  /* where a relayed signal goes: in L, S's; in S, COMMAND's */
	pid_t from; /* in S: L, the one sender it listens to */
	volatile sig_atomic_t ending, deadline, orphaned;
} relay = {-1, 0, 0, 0, 0};

static void send_to(int pidfd, int sig)
{
	(void)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

/* L: a signal a process sent (si_code <= 0) goes on to S; a terminal's
 * (SI_KERNEL) reached COMMAND, which is in the job, already. */
static void launcher_caught(int sig, siginfo_t *info, void *context)
{
	(void)context;
	if (info->si_code <= 0)
		send_to(relay.pidfd, sig);
}

/* S: L gone (its parent-death signal, or any signal after it), the end's
 * second over, or a signal L relays. COMMAND is killed at once in the first
 * two cases; whatever it leaves is ended when the loop sees it exit. */
static void supervisor_caught(int sig, siginfo_t *info, void *context)
{
	static const struct itimerval second = {{0, 0}, {1, 0}};

	(void)context;
	if (getppid() != relay.from) {
		relay.orphaned = 1;
		send_to(relay.pidfd, SIGKILL);
		return;
	}
	if (sig == SIGALRM) {
		if (info->si_code == SI_KERNEL) {
			relay.deadline = 1;
			send_to(relay.pidfd, SIGKILL);
		}
		return;
	}
	if (info->si_pid != relay.from || info->si_code > 0)
		return;
	send_to(relay.pidfd, sig);
	if (ending_signal(sig) && !relay.ending) {
		relay.ending = sig;
		(void)setitimer(ITIMER_REAL, &second, NULL);
	}
}

/* HANDLER for the relayed signals (and SIGALRM, for S), which are then the
 * only ones unblocked: every other signal stays pending, so nothing but
 * SIGKILL and SIGSTOP ends or stops L or S, and the filter keeps those from
 * COMMAND (seccomp.c, the observer's rules). No SA_RESTART: a signal
 * interrupts waitpid. */
static void take_signals(const char *mode, void (*handler)(int, siginfo_t *, void *), int alarm)
{
	struct sigaction sa = {.sa_sigaction = handler, .sa_flags = SA_SIGINFO};
	uint64_t set = alarm ? SIGBIT(SIGALRM) : 0;
	size_t i;

	sigfillset(&sa.sa_mask);
	for (i = 0; i < NRELAYED; i++) {
		set |= SIGBIT(relayed[i]);
		if (sigaction(relayed[i], &sa, NULL))
			die_errno("%s: cannot catch signal %d", mode, relayed[i]);
	}
	if (alarm && sigaction(SIGALRM, &sa, NULL))
		die_errno("%s: cannot catch signal %d", mode, SIGALRM);
	if (mask_signals(SIG_UNBLOCK, &set, NULL))
		die_errno("%s: cannot unblock its signals", mode);
}

/* Exit as a child ended (a wait status): with its status, or of its signal,
 * without a core file of this process's own. Should dying fail, the status
 * still says which signal. */
__attribute__((noreturn)) void exit_as(int status)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	struct rlimit none = {0, 0};
	uint64_t bit;
	int sig;

	if (WIFEXITED(status))
		exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);
	bit = SIGBIT(sig);
	/* musl's setrlimit would bring 3 KiB of thread synchronisation along */
	(void)syscall(SYS_prlimit64, 0, RLIMIT_CORE, &none, NULL);
	(void)sigaction(sig, &dfl, NULL);
	(void)mask_signals(SIG_UNBLOCK, &bit, NULL);
	(void)kill(getpid(), sig);
	exit(128 + sig);
}

/* PID's start time (clock ticks since boot, field 22 of /proc/PID/stat),
 * 0 when it cannot be read. */
static uint64_t started(pid_t pid)
{
	char path[48], num[24];
	uint64_t start;

	join(path, sizeof path, "/proc/", decimal(pid, num), "/stat", NULL);
	return stat_field(path, 22, &start) ? 0 : start;
}

/* PID is one of KEEP (NULL: none), and still the process it was. */
static int kept(const struct inherited *keep, pid_t pid)
{
	int i;

	for (i = 0; keep && i < keep->n; i++)
		if (keep->child[i].pid == pid)
			return started(pid) == keep->child[i].start;
	return 0;
}

/* What FD (/proc/thread-self/children) lists, in decimal, passed to EACH
 * pid by pid; the first CHILDREN_MAX bytes (the others wait for the next
 * round, once these are gone). */
static int each_child(int fd, int (*each)(pid_t pid, void *ctx), void *ctx)
{
	char buf[CHILDREN_MAX];
	ssize_t n = pread(fd, buf, CHILDREN_MAX - 1, 0), i;
	long pid = 0;
	int done = 0;

	for (i = 0; i < n; i++) {
		if (buf[i] >= '0' && buf[i] <= '9') {
			pid = pid * 10 + (buf[i] - '0');
			continue;
		}
		if (pid > 0)
			done += each((pid_t)pid, ctx);
		pid = 0;
	}
	return done;
}

struct killing {
	const struct inherited *keep; /* L's: not killed, never waited for */
	int reap;		      /* each one killed is reaped at once (L) */
};

/* PID, a child, SIGKILLed through a pidfd once waitid on that pidfd shows
 * it is a child: a pid read from the list cannot have been recycled (a
 * child's pid stays its own until it is reaped, and only this process
 * reaps), and the check makes sure of it. 1 when it was killed. */
static int kill_child(pid_t pid, void *ctx)
{
	const struct killing *k = ctx;
	siginfo_t info;
	int pidfd, killed = 0;

	if (kept(k->keep, pid))
		return 0;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return 0;
	if (syscall(SYS_waitid, P_PIDFD, pidfd, &info, WEXITED | WNOHANG | WNOWAIT | __WALL,
		    NULL) == 0) {
		send_to(pidfd, SIGKILL);
		killed = 1;
		while (k->reap &&
		       syscall(SYS_waitid, P_PIDFD, pidfd, &info, WEXITED | __WALL, NULL) < 0 &&
		       errno == EINTR)
			;
	}
	close(pidfd);
	return killed;
}

static void kill_children(int fd)
{
	struct killing k = {NULL, 0};

	(void)each_child(fd, kill_child, &k);
}

/* A child FD lists, into L's snapshot while there is room. */
static int keep_child(pid_t pid, void *ctx)
{
	struct inherited *keep = ctx;

	if (keep->n < INHERITED_MAX) {
		keep->child[keep->n].pid = pid;
		keep->child[keep->n++].start = started(pid);
	}
	return 1;
}

/* waitpid, again when a signal interrupts it; any other failure is the
 * launcher's: MODE cannot wait for WHOM. */
pid_t wait_for(pid_t pid, int *status, int flags, const char *mode, const char *whom)
{
	pid_t got;

	while ((got = waitpid(pid, status, flags)) < 0 && errno == EINTR)
		;
	if (got < 0)
		die_errno("%s: cannot wait for the %s", mode, whom);
	return got;
}

/*
 * Every process left beneath this one, killed and reaped: the children,
 * then those reparented here as their parents die, until there are none.
 * A fork loop ends too: a process that is being killed forks no more.
 * COMMAND's wait status goes to *STATUS when it is reaped here.
 */
void end_tree(int children, pid_t command, int *status)
{
	int st, flags = __WALL;
	pid_t pid;

	for (;;) {
		if (flags == __WALL)
			kill_children(children);
		pid = waitpid(-1, &st, flags);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break; /* ECHILD: none left */
		/* what has exited is reaped at once; then the list again */
		flags = pid > 0 ? __WALL | WNOHANG : __WALL;
		if (pid > 0 && pid == command && !WIFSTOPPED(st))
			*status = st;
	}
}

static int open_children(const char *mode)
{
	int fd = open_at(AT_FDCWD, "/proc/thread-self/children", O_RDONLY, 0);

	if (fd < 0)
		die_errno("%s: cannot open /proc/thread-self/children (the whole-tree mode finds "
			  "what COMMAND left there)",
			  mode);
	return fd;
}

/* The job is in the terminal's foreground (as a shell with job control
 * runs it): only then is a stop of COMMAND the job's to share. */
static int foreground(pid_t group)
{
	pid_t fg;
	int fd;

	for (fd = 0; fd <= STDERR_FILENO; fd++)
		if (ioctl(fd, TIOCGPGRP, &fg) == 0)
			return fg == group;
	return 0;
}

/* COMMAND stopped: in the foreground the job stops with it (S stops, L
 * sees it and stops), and what continues the job continues COMMAND too.
 * Elsewhere (no terminal, a background job, a harness's pipes) a command
 * that stops itself leaves its supervisor running. */
void supervise_stopped(const struct supervisor *sv)
{
	if (!foreground(sv->group))
		return;
	(void)kill(sv->self, SIGSTOP);
	send_to(sv->pidfd, SIGCONT);
}

/* A launcher failure in S: nothing it started outlives it. */
void supervise_failed(void *ctx, int code)
{
	struct supervisor *sv = ctx;

	(void)code;
	end_tree(sv->children, sv->command, &sv->status);
	private_tmp_remove(sv->tmp);
}

/* L, once S runs: relay, mirror S's stops, and exit as S did, after ending
 * whatever S could not (S killed by someone else). */
__attribute__((noreturn)) static void launcher_wait(struct supervisor *sv, pid_t s)
{
	int status, children;

	/* S ends the run, and removes --private-tmp's directory, should L fail */
	at_failure(NULL, NULL);
	relay.pidfd = (int)syscall(SYS_pidfd_open, s, 0);
	if (relay.pidfd < 0)
		die_errno("%s: cannot open a pidfd for the supervisor", sv->mode);
	take_signals(sv->mode, launcher_caught, 0);
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		die_errno("%s: cannot make the launcher non-dumpable", sv->mode);
	for (;;) {
		wait_for(s, &status, WUNTRACED, sv->mode, "supervisor");
		if (!WIFSTOPPED(status))
			break;
		(void)kill(sv->launcher, SIGSTOP);
		send_to(relay.pidfd, SIGCONT);
	}
	/* S ended the tree (and said why it could not): what is left is S's
	 * own, but for what the caller left to L, which is none of the run's */
	children = open_at(AT_FDCWD, "/proc/thread-self/children", O_RDONLY, 0);
	if (children >= 0) {
		struct killing k = {&sv->inherited, 1};

		while (each_child(children, kill_child, &k) > 0)
			;
	}
	private_tmp_remove(sv->tmp); /* gone already, unless S was killed */
	status_end(status);
	exit_as(status);
}

/* L's children now, before S: the caller's, kept to the end. */
static void snapshot(struct supervisor *sv)
{
	int fd = open_children(sv->mode);

	sv->inherited.n = 0;
	if (each_child(fd, keep_child, &sv->inherited) > INHERITED_MAX)
		die("%s: the caller left more than %d children to the launcher, which would "
		    "end them with the run: start it from a process with fewer",
		    sv->mode, INHERITED_MAX);
	close(fd);
}

/*
 * In L: become the launcher that waits, and fork S, which returns. Every
 * signal is blocked from here on (COMMAND gets the caller's mask back);
 * S and L each unblock only what they handle. MODE needs /proc to WHY.
 */
void supervise_start(struct supervisor *sv, const char *mode, const char *why)
{
	uint64_t all = ~0ULL;
	pid_t s;

	need_proc(mode, why);
	sv->mode = mode;
	sv->launcher = getpid();
	sv->group = getpgrp();
	sv->status = -1;
	sv->command = 0;
	sv->pidfd = -1;
	if (mask_signals(SIG_BLOCK, &all, &sv->mask))
		die_errno("%s: cannot block signals", mode);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
		die_errno("%s: cannot become a child subreaper", mode);
	snapshot(sv);
	s = _Fork();
	if (s < 0)
		die_errno("%s: cannot fork", mode);
	if (s > 0) {
		if (sv->ruleset >= 0 && close(sv->ruleset))
			die_errno("%s: cannot close the Landlock ruleset", mode);
		launcher_wait(sv, s);
	}
	sv->self = getpid();
	status_forked();
	/* Out of the job's group, so that what signals the job does not reach
	 * S; listening to L, which must not go unnoticed. */
	if (setpgid(0, 0) || prctl(PR_SET_PDEATHSIG, SIGHUP, 0, 0, 0) ||
	    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
		die_errno("%s: cannot set up the supervisor", mode);
	if (getppid() != sv->launcher)
		exit(EXIT_LAUNCHER); /* L is gone already: nothing has started */
	sv->children = open_children(mode);
	at_failure(supervise_failed, sv);
}

/* In S: COMMAND's process, which returns 0 (and dies with S); in S its pid,
 * and a pidfd for it. */
pid_t supervise_spawn(struct supervisor *sv)
{
	pid_t pid = _Fork();

	if (pid < 0)
		die_errno("%s: cannot fork", sv->mode);
	if (pid == 0) {
		at_failure(NULL, NULL);
		/* back in the caller's job, as an exec'd command is */
		if (setpgid(0, sv->group) || prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) ||
		    mask_signals(SIG_SETMASK, &sv->mask, NULL))
			die_errno("%s: cannot set up the command's process", sv->mode);
		if (getppid() != sv->self)
			_exit(EXIT_LAUNCHER);
		return 0;
	}
	sv->command = pid;
	sv->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (sv->pidfd < 0)
		die_errno("%s: cannot open a pidfd for the command", sv->mode);
	relay.pidfd = sv->pidfd;
	relay.from = sv->launcher;
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		die_errno("%s: cannot make the supervisor non-dumpable", sv->mode);
	return pid;
}

/* In S, once COMMAND is spawned: L's signals, the end's timer. */
void supervise_signals(const struct supervisor *sv)
{
	take_signals(sv->mode, supervisor_caught, 1);
}

/* The run ended on a signal (the end's second over, or L gone): a report
 * written now may be incomplete. */
int supervise_interrupted(void)
{
	return relay.deadline || relay.orphaned;
}

/* COMMAND has exited (or the end has come): nothing it started is left,
 * then S exits as COMMAND did, or dies of the signal that ended the run
 * when COMMAND outlived the second it was given (and the end's SIGKILL,
 * not a timer that fired as COMMAND exited, is what it died of). */
__attribute__((noreturn)) void supervise_exit(struct supervisor *sv)
{
	int st;

	end_tree(sv->children, sv->command, &sv->status);
	at_failure(NULL, NULL);
	private_tmp_remove(sv->tmp);
	st = sv->status;
	if (relay.deadline && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		st = relay.ending;
	/* L is gone (SIGKILL is all that ends it): the end record is S's */
	if (relay.orphaned)
		status_end(SIGKILL);
	exit_as(st);
}

/* In COMMAND's process, failing before or at its exec: S is told. */
static void exec_failed(void *ctx, int code)
{
	(void)code;
	(void)!write(*(int *)ctx, "F", 1);
}

/*
 * With --status-fd, S says {"exec":true} once COMMAND's exec succeeded,
 * as the tracer does: COMMAND's process holds the write end of a
 * close-on-exec pipe, which the exec closes, and a failure writes a byte
 * to it first (the failure line is the process's own). An end of file
 * with no byte is the exec; or a death by signal before it, which the end
 * record then names.
 */
static void say_exec(struct supervisor *sv, int gate)
{
	ssize_t n;
	char c;

	do
		n = read(gate, &c, 1);
	while (n < 0 && errno == EINTR);
	close(gate);
	if (n == 0)
		status_executed(sv->command);
}

/* The plain whole-tree run: in COMMAND's process, returns; S waits for
 * COMMAND, shares its stops, and ends the tree when it exits. */
void supervise(struct supervisor *sv, int ruleset)
{
	int status, gate[2] = {-1, -1};
	pid_t pid;

	if (status_open() && pipe2(gate, O_CLOEXEC))
		die_errno("%s: cannot make a pipe", sv->mode);
	if (supervise_spawn(sv) == 0) {
		sv->gate = gate[1];
		if (gate[1] >= 0)
			at_failure(exec_failed, &sv->gate);
		return;
	}
	if (ruleset >= 0 && close(ruleset))
		die_errno("%s: cannot close the Landlock ruleset", sv->mode);
	supervise_signals(sv);
	if (gate[0] >= 0) {
		close(gate[1]);
		say_exec(sv, gate[0]);
	}
	for (;;) {
		pid = wait_for(-1, &status, WUNTRACED, sv->mode, "command");
		if (pid != sv->command)
			continue; /* an orphan reaped, or stopped: ended with the rest */
		if (!WIFSTOPPED(status))
			break;
		supervise_stopped(sv);
	}
	sv->status = status;
	supervise_exit(sv);
}
