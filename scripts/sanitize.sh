#!/usr/bin/env bash
# make sanitize: the whole bats suite against landlock-run built with clang's
# AddressSanitizer and UndefinedBehaviorSanitizer (build/sanitize/landlock-run,
# a Makefile rule; tests/sanitize/hooks.c says what differs from a plain
# sanitized build), through LR_BIN. A sanitizer report anywhere in the suite is
# a failure, even in a test that only checks for a non-zero status. Ends with
# one line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/tally.sh
. scripts/tally.sh

scripts/setup.sh sanitize
make -s build/sanitize/landlock-run
export LR_BIN=$PWD/build/sanitize/landlock-run
export LR_SANITIZE_LOG=$PWD/build/sanitize/reports.log
: >"$LR_SANITIZE_LOG"
chmod 0666 "$LR_SANITIZE_LOG" # tests also run the launcher as nobody
# exitcode 86: no test expects that status.
export ASAN_OPTIONS="detect_leaks=1:exitcode=86"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="exitcode=86"
export LR_SANITIZE=1

# A clean run must come from an instrumented binary that reports where this
# script looks. (grep -c, not -q: an early exit would make nm fail with SIGPIPE.)
instrumented() {
	[ "$(nm "$LR_BIN" | grep -c ' __asan_init$')" -gt 0 ] &&
		"$LR_BIN" --version | grep -c '^landlock-run ' >/dev/null
}
no_report() {
	[ -s "$LR_SANITIZE_LOG" ] || return 0
	head -n 60 "$LR_SANITIZE_LOG"
	return 1
}

tally_check "sanitize: the sanitized launcher runs and is instrumented" instrumented
LR_SUITES=bats tally_run bats scripts/test.sh
tally_check "sanitize: no sanitizer report during the suite (see $LR_SANITIZE_LOG)" no_report
tally_total
