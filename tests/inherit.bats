#!/usr/bin/env bats
# What the command inherits from the caller through the launcher: signal
# dispositions, and a stderr that may be closed or full. Each test has a
# control showing the effect is the launcher's.
load helpers

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR"
	m=$BATS_TEST_TMPDIR/ran
}

# ignored SIG: the command's SigIgn mask (/proc/self/status, bit SIG-1) has
# SIG set; the command is grep itself, exec'd by the launcher.
sigign_has() {
	local mask
	mask=$(sed -n 's/^SigIgn:\t*//p' <<<"$output")
	[ -n "$mask" ] || fail "no SigIgn line in: $output"
	(((0x$mask >> ($1 - 1)) & 1))
}

# stderr_without_reader: fd 4 is the write end of a pipe that has no reader,
# so a write to it fails with EPIPE (or kills with SIGPIPE).
stderr_without_reader() {
	mkfifo "$BATS_TEST_TMPDIR/pipe"
	exec 5<>"$BATS_TEST_TMPDIR/pipe" 4>"$BATS_TEST_TMPDIR/pipe" 5<&-
}

# with_stderr REDIRECTION CMD...: CMD with stderr redirected as sh reads
# REDIRECTION (">&4", ">/dev/full", ">&-"), inside run's own 2>&1.
with_stderr() {
	local to=$1
	shift
	sh -c "exec \"\$@\" 2$to" sh "$@"
}

@test "a stderr pipe without a reader neither kills the launcher nor stops the command" {
	stderr_without_reader
	# Control: a program that writes to it dies of SIGPIPE before it acts.
	run -141 with_stderr ">&4" env --default-signal=PIPE sh -c 'echo x >&2; touch "$0"' "$m"
	assert_not_exist "$m"
	run -0 with_stderr ">&4" env --default-signal=PIPE "$LR" -v --rw "$BATS_TEST_TMPDIR" -- touch "$m"
	assert_exist "$m"
	# A usage error still ends in 125, not in a death by SIGPIPE.
	run -125 with_stderr ">&4" env --default-signal=PIPE "$LR" --bogus -- true
}

@test "a full or closed stderr does not stop the command" {
	# Control: the launcher does write -v lines to stderr.
	run -0 --separate-stderr "$LR" -v --rw "$BATS_TEST_TMPDIR" -- true
	[[ $stderr == *"landlock-run policy: "* ]] || fail "no -v lines: $stderr"
	run -0 with_stderr ">/dev/full" "$LR" -v --rw "$BATS_TEST_TMPDIR" -- touch "$m"
	assert_exist "$m"
	rm "$m"
	run -0 with_stderr ">&-" "$LR" -v --rw "$BATS_TEST_TMPDIR" -- touch "$m"
	assert_exist "$m"
}

@test "the command gets the caller's SIGPIPE disposition, ignored or not" {
	run -0 env --ignore-signal=PIPE "$LR" -- grep SigIgn /proc/self/status
	sigign_has 13 || fail "SIGPIPE ignored by the caller is not ignored in the command: $output"
	run -0 env --default-signal=PIPE "$LR" -- grep SigIgn /proc/self/status
	! sigign_has 13 || fail "the launcher's own SIG_IGN for SIGPIPE leaked into the command"
	# With -v and a failed exec, too: the launcher restores it only for exec.
	stderr_without_reader
	run -127 with_stderr ">&4" env --default-signal=PIPE "$LR" -v -- /nonexistent
}

@test "the probe works when the caller ignores SIGCHLD, and the command keeps that disposition" {
	run -0 --separate-stderr env --ignore-signal=CHLD "$LR" --probe
	assert_output --regexp "^landlock: (fully|partially) enforced"
	run -0 env --ignore-signal=CHLD "$LR" -- grep SigIgn /proc/self/status
	sigign_has 17 || fail "SIGCHLD ignored by the caller is not ignored in the command: $output"
	run -0 "$LR" -- grep SigIgn /proc/self/status
	! sigign_has 17 || fail "SIGCHLD is ignored in the command though the caller did not: $output"
}
