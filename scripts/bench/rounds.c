/*
 * rounds: time commands in interleaved single runs, for scripts/bench.
 *
 *   rounds ROUNDS WARMUP CASES OUT
 *
 * CASES holds one case a line, "NAME<TAB>COMMAND"; COMMAND is split into
 * words at spaces, a word in single quotes kept whole (as hyperfine -N
 * splits), and run without a shell (PATH searched), its standard streams
 * /dev/null. Each round
 * runs every case once, starting one case later than the round before, so
 * that no case always runs first (the first of a round runs slower here)
 * and the machine's drift falls on every case alike. WARMUP rounds run
 * first and are not written. OUT gets a line per run:
 * "ROUND<TAB>NAME<TAB>WALL_NS<TAB>CPU_US", CPU time being the user and
 * system time of the run's whole process tree. A case that exits non-zero
 * ends the timing: exit 1, naming it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CASES 64

struct bench_case {
	char *name;
	char **argv;
};

static void die(const char *what)
{
	fprintf(stderr, "rounds: %s\n", what);
	exit(1);
}

/* COMMAND's words, in place: spaces split, '...' keeps a word whole. */
static char **split(char *s)
{
	/* at most one word per two bytes, and the NULL */
	char **argv = calloc(strlen(s) / 2 + 2, sizeof *argv), *out;
	size_t n = 0;

	if (!argv)
		die("out of memory");
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		argv[n++] = out = s;
		while (*s && *s != ' ') {
			if (*s == '\'') {
				for (s++; *s && *s != '\''; s++)
					*out++ = *s;
				if (!*s)
					die("an unterminated quote");
				s++;
			} else {
				*out++ = *s++;
			}
		}
		if (*s)
			s++;
		*out = '\0';
	}
	if (n == 0)
		die("an empty command");
	return argv;
}

static size_t read_cases(const char *path, struct bench_case *cases)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *tab;
	size_t cap = 0, n = 0;
	ssize_t len;

	if (!f)
		die("cannot open the cases");
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		tab = strchr(line, '\t');
		if (!tab || n == MAX_CASES)
			die("a case line is not NAME<TAB>COMMAND, or there are more than 64");
		*tab = '\0';
		cases[n].name = strdup(line);
		cases[n].argv = split(strdup(tab + 1));
		if (!cases[n].name || !cases[n].argv[0])
			die("out of memory");
		n++;
		free(line);
		line = NULL;
		cap = 0;
	}
	free(line);
	fclose(f);
	return n;
}

static long long ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* One run: its wall time in ns and CPU time in µs; a failure ends it all. */
static void run(const struct bench_case *c, int null, long long *wall, long long *cpu)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = vfork();
	if (pid < 0)
		die("cannot fork");
	if (pid == 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		execvp(c->argv[0], c->argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		die("cannot wait");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "rounds: case %s failed (status 0x%x)\n", c->name, status);
		exit(1);
	}
	*wall = ns(&t1) - ns(&t0);
	*cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL + ru.ru_utime.tv_usec +
	       ru.ru_stime.tv_usec;
}

/*
 * The cases run as a harness runs them, without a controlling terminal: on
 * one (make bench typed at a shell) every plain launcher run would be the
 * whole-tree mode, which keeps the terminal the caller's. TIOCNOTTY lets go
 * of it for this process and what it starts; the terminal's ^C still
 * reaches this process group.
 */
static void no_terminal(void)
{
	int tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (tty < 0)
		return; /* none */
	if (ioctl(tty, TIOCNOTTY) != 0)
		die("cannot let go of the controlling terminal (TIOCNOTTY)");
	close(tty);
}

int main(int argc, char **argv)
{
	static struct bench_case cases[MAX_CASES];
	long rounds, warmup, r;
	long long wall, cpu;
	size_t n, i;
	FILE *out;
	int null;

	if (argc != 5)
		die("usage: rounds ROUNDS WARMUP CASES OUT");
	rounds = strtol(argv[1], NULL, 10);
	warmup = strtol(argv[2], NULL, 10);
	n = read_cases(argv[3], cases);
	out = fopen(argv[4], "w");
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (rounds < 1 || warmup < 0 || n == 0 || !out || null < 0)
		die("bad arguments, no cases, or cannot open OUT or /dev/null");
	no_terminal();
	for (r = -warmup; r < rounds; r++)
		for (i = 0; i < n; i++) {
			const struct bench_case *c = &cases[((size_t)(r + warmup) + i) % n];

			run(c, null, &wall, &cpu);
			if (r >= 0)
				fprintf(out, "%ld\t%s\t%lld\t%lld\n", r, c->name, wall, cpu);
		}
	if (fclose(out))
		die("cannot write OUT");
	return 0;
}
