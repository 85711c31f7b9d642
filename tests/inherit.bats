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

# caps: the Cap* lines of /proc/self/status in the command (grep, exec'd by
# the launcher), as "CapInh=... CapPrm=... CapEff=... CapBnd=... CapAmb=...".
caps() {
	sed -n 's/^\(Cap[A-Za-z]*\):\t*/\1=/p' <<<"$output" | tr '\n' ' '
}
NO_CAPS="CapInh=0000000000000000 CapPrm=0000000000000000 CapEff=0000000000000000 CapBnd=0000000000000000 CapAmb=0000000000000000 "

@test "root: the command has no capability at all, and --keep-caps keeps them" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	local caller
	run -0 grep Cap /proc/self/status
	caller=$(caps)
	[[ $caller == *"CapEff=0000000000000000"* ]] && fail "the caller has no capability: $caller"
	run -0 "$LR" -- grep Cap /proc/self/status
	assert_equal "$(caps)" "$NO_CAPS"
	run -0 "$LR" --ro / --rw /tmp -- grep Cap /proc/self/status
	assert_equal "$(caps)" "$NO_CAPS"
	# Positive control: --keep-caps passes the caller's sets through unchanged.
	run -0 "$LR" --keep-caps -- grep Cap /proc/self/status
	assert_equal "$(caps)" "$caller"
	# no_new_privs and Landlock still apply with --keep-caps.
	run -0 "$LR" --keep-caps -- grep NoNewPrivs /proc/self/status
	assert_output $'NoNewPrivs:\t1'
	run -1 "$LR" --keep-caps -- touch "$m"
	assert_not_exist "$m"
}

@test "root: without capabilities the command cannot chown (Landlock does not stop it; CAP_CHOWN would)" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	touch f
	run -1 --separate-stderr "$LR" --rw "$PWD" -- chown 65534 f
	[[ $stderr == *"Operation not permitted"* ]] || fail "$stderr"
	assert_equal "$(stat -c %u f)" 0
	# Control: with its capabilities the same command chowns.
	run -0 "$LR" --keep-caps --rw "$PWD" -- chown 65534 f
	assert_equal "$(stat -c %u f)" 65534
}

@test "an unprivileged caller sees no change in its capabilities" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to become another user"
	local as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups) caller
	run -0 "${as_nobody[@]}" grep Cap /proc/self/status
	caller=$(caps)
	run -0 "${as_nobody[@]}" "$LR" -- grep Cap /proc/self/status
	assert_equal "$(caps)" "$caller"
}

@test "a caller with ambient capabilities but no CAP_SETPCAP: the command gets none; the bounding set stays" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to become another user"
	local as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups
		--inh-caps=+net_bind_service --ambient-caps=+net_bind_service) bounding
	run -0 "${as_nobody[@]}" grep Cap /proc/self/status
	[[ $(caps) == *"CapAmb=0000000000000400"* ]] || fail "setpriv gave no ambient capability: $(caps)"
	bounding=$(sed -n 's/^CapBnd:\t*//p' <<<"$output")
	run -0 "${as_nobody[@]}" "$LR" -- grep Cap /proc/self/status
	assert_equal "$(caps)" "${NO_CAPS/CapBnd=0000000000000000/CapBnd=$bounding}"
	# The ambient capability works without the launcher: bind a port below
	# ip_unprivileged_port_start as nobody.
	[ "$(cat /proc/sys/net/ipv4/ip_unprivileged_port_start)" -gt 1023 ] ||
		skip "every port is unprivileged on this host"
	run -0 "${as_nobody[@]}" "$TRYOP" bind 1023
	run -1 "${as_nobody[@]}" "$LR" -- "$TRYOP" bind 1023
	assert_output EACCES
}
