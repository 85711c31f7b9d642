#!/usr/bin/env bash
# make sanitize: build landlock-run with clang's AddressSanitizer and
# UndefinedBehaviorSanitizer (a dynamic glibc build: the sanitizer runtimes
# do not link statically) and run the whole bats suite against it through
# LR_BIN. Ends with one line "N passed, N failed".
#
# Two things differ from a plain sanitized build, both because the launcher
# confines itself before it can fail for the last time (126/127 after exec):
#  - Reports go to one file opened at startup (sanitizer_report_fd below):
#    a confined process could not create a log file, but keeps using a file
#    it opened before. Every report there counts as a failure at the end,
#    including one from a test that only checks for a non-zero status.
#  - The leak check runs at prctl(PR_SET_NO_NEW_PRIVS), the last moment the
#    launcher is unconfined, instead of at exit: LeakSanitizer stops the
#    world through /proc, which the sandbox denies, and then spins forever.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

need_packages clang libclang-rt-dev bats bats-assert bats-support bats-file

out=build/sanitize
mkdir -p "$out"
export LR_SANITIZE_LOG=$PWD/$out/reports.log
: >"$LR_SANITIZE_LOG"
chmod 0666 "$LR_SANITIZE_LOG" # tests also run the launcher as nobody

cat >"$out/hooks.c" <<'C'
/* Linked into the sanitized launcher only (scripts/sanitize.sh says why). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

void __sanitizer_set_report_fd(void *fd);
void __lsan_do_leak_check(void);

static int report_fd = -1;

/*
 * Runs before the leak check at exit (atexit order is reversed, and the
 * sanitizer registered its check first). A launcher that fails with every
 * descriptor in use (EMFILE on a grant) leaves none for LeakSanitizer, which
 * reads /proc/PID/task; the process is ending, so closing them is harmless.
 */
static void free_descriptors(void)
{
	unsigned first = 3;

	if (report_fd >= 3) {
		if (report_fd > 3)
			close_range(3, (unsigned)report_fd - 1, 0);
		first = (unsigned)report_fd + 1;
	}
	close_range(first, ~0U, 0);
}

__attribute__((constructor)) static void sanitizer_report_fd(void)
{
	const char *path = getenv("LR_SANITIZE_LOG");
	int fd;

	/* A launcher started inside a sandbox (or as another user) may not be
	 * allowed to open it: its reports then go to stderr, and the exit
	 * status still tells. */
	if (!path || (fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) < 0)
		return;
	__sanitizer_set_report_fd((void *)(intptr_t)fd);
	report_fd = fd;
	if (atexit(free_descriptors))
		abort();
}

/* Overrides the sanitizer's (weak) prctl interceptor for this program. */
int prctl(int option, ...)
{
	unsigned long arg[4];
	va_list ap;
	int i;

	va_start(ap, option);
	for (i = 0; i < 4; i++)
		arg[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_NO_NEW_PRIVS)
		__lsan_do_leak_check(); /* also disables the one at exit */
	return (int)syscall(SYS_prctl, option, arg[0], arg[1], arg[2], arg[3]);
}
C

clang -std=c11 -g -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-Wall -Wextra -Werror -DLR_VERSION="\"$(cat VERSION)\"" \
	-o "$out/landlock-run" $(make -s print-srcs) "$out/hooks.c"

# exitcode 86: no test expects that status.
export ASAN_OPTIONS="detect_leaks=1:exitcode=86"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="exitcode=86"
export LR_BIN="$PWD/$out/landlock-run"
export LR_SANITIZE=1

passed=0 failed=0
result() { # OK NAME
	if [ "$1" -eq 0 ]; then
		echo "ok - sanitize: $2"
		passed=$((passed + 1))
	else
		echo "not ok - sanitize: $2"
		failed=$((failed + 1))
	fi
}

# A clean run must come from an instrumented binary that reports where this
# script looks: a use of the launcher's sanitizer hooks that must be caught.
# (grep -c, not -q: an early exit would make nm fail with SIGPIPE.)
[ "$(nm "$LR_BIN" | grep -c ' __asan_init$')" -gt 0 ] &&
	"$LR_BIN" --version | grep -c '^landlock-run ' >/dev/null
result $? "the sanitized launcher runs and is instrumented"

log=$out/bats.tap
set +e
bats --tap tests/*.bats | tee "$log"
rc=${PIPESTATUS[0]}
set -e
passed=$((passed + $(grep -c '^ok ' "$log" || true)))
failed=$((failed + $(grep -c '^not ok ' "$log" || true)))
[ "$rc" -eq 0 ] || [ "$(grep -c '^not ok ' "$log" || true)" -gt 0 ] || failed=$((failed + 1))

if [ -s "$LR_SANITIZE_LOG" ]; then
	head -n 60 "$LR_SANITIZE_LOG"
	result 1 "no sanitizer report during the suite (see $LR_SANITIZE_LOG)"
else
	result 0 "no sanitizer report during the suite"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
