/*
 * The floor for scripts/bench.sh: the least a launcher can cost.
 *
 *   floor [COMMAND [ARG]...]
 *     execve COMMAND (a path, no PATH lookup) with its arguments and the
 *     environment, nothing else. Without COMMAND it exits 0 at once: a
 *     static no-op command, the cheapest thing there is to launch.
 *
 * Built with -DWITH_LANDLOCK it is the floor of a Landlock launcher:
 *
 *   floor-landlock [--ro PATH | --rw PATH]... -- COMMAND [ARG]...
 *     the fewest system calls that confine COMMAND: one ruleset, then per
 *     grant one openat(O_PATH) and one landlock_add_rule (a second one for
 *     a file, after the kernel refused directory rights with EINVAL), then
 *     no_new_privs, restrict_self, execve. The descriptors are O_CLOEXEC:
 *     execve closes them, with no close(2) each. Same-inode grants are
 *     merged by the kernel itself (it ORs the rights of a rule it already
 *     has). No messages, no checks beyond the system calls' results: any
 *     failure is exit 125. Benchmark use only: the soft RLIMIT_NOFILE is
 *     raised to the hard one and left there.
 *
 * Built with -DWITH_SECCOMP as well it is floor-seccomp: floor-landlock that
 * also installs, after restrict_self, a seccomp filter of one instruction
 * (allow everything), what attaching any filter costs the kernel.
 *
 * floor -> floor-landlock is what the kernel charges for Landlock;
 * floor-landlock -> floor-seccomp what it charges for a seccomp filter (the
 * launcher's refuses TIOCSTI); floor-seccomp -> landlock-run is what the
 * launcher adds to those.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

#ifdef WITH_LANDLOCK
#define RO	    0xdULL    /* execute, read_file, read_dir */
#define FILE_RIGHTS 0xc007ULL /* execute, write_file, read_file, truncate, ioctl_dev */

struct path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

static long sys(long nr, long a, long b, long c, long d)
{
	long ret = syscall(nr, a, b, c, d);

	if (ret < 0 && errno != EINVAL)
		_exit(125);
	return ret;
}

static char **restrict_to(char **argv)
{
	/* Every filesystem right of the kernel's ABI: 1 .. 13, refer, truncate, ioctl_dev. */
	static const uint64_t fs_by_abi[] = {0, 0x1fff, 0x3fff, 0x7fff, 0x7fff, 0xffff};
	long abi = sys(__NR_landlock_create_ruleset, 0, 0, 1, 0);
	uint64_t attr[3] = {fs_by_abi[abi < 5 ? abi : 5], 0, 0};
	int ruleset = (int)sys(__NR_landlock_create_ruleset, (long)attr, sizeof attr, 0, 0);
	struct rlimit nofile;

	if (abi < 1 || ruleset < 0 || prlimit(0, RLIMIT_NOFILE, NULL, &nofile))
		_exit(125);
	nofile.rlim_cur = nofile.rlim_max;
	if (prlimit(0, RLIMIT_NOFILE, &nofile, NULL))
		_exit(125);
	for (; argv[0] && argv[1] && strcmp(argv[0], "--"); argv += 2) {
		struct path_beneath rule = {strcmp(argv[0], "--rw") ? RO : attr[0], -1};

		rule.parent_fd =
			(int32_t)syscall(__NR_openat, AT_FDCWD, argv[1], O_PATH | O_CLOEXEC);
		if (rule.parent_fd < 0)
			_exit(125);
		if (sys(__NR_landlock_add_rule, ruleset, 1, (long)&rule, 0)) {
			rule.allowed_access &= FILE_RIGHTS;
			if (syscall(__NR_landlock_add_rule, ruleset, 1, &rule, 0))
				_exit(125);
		}
	}
	if (!argv[0] || !argv[1] || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_landlock_restrict_self, ruleset, 0))
		_exit(125);
#ifdef WITH_SECCOMP
	{
		/* BPF_RET | BPF_K, SECCOMP_RET_ALLOW; SECCOMP_SET_MODE_FILTER */
		static const struct {
			uint16_t code;
			uint8_t jt, jf;
			uint32_t k;
		} allow = {0x06, 0, 0, 0x7fff0000U};
		struct {
			unsigned short len;
			const void *filter;
		} prog = {1, &allow};

		if (syscall(__NR_seccomp, 1, 0, &prog))
			_exit(125);
	}
#endif
	return argv + 1;
}
#endif

int main(int argc, char **argv)
{
	(void)argc;
	argv++;
#ifdef WITH_LANDLOCK
	argv = restrict_to(argv);
#endif
	if (!argv[0])
		return 0;
	execve(argv[0], argv, environ);
	return 127;
}
