#!/usr/bin/env bats
# Fault injection: the real kernel answers one Landlock (or prctl/open) call
# with a chosen errno through a seccomp filter (tests/fault.c). The launcher
# must fail closed: status 125, exactly one "landlock-run: " line on stderr,
# nothing on stdout, and the command never runs.

load helpers

setup() {
	require_landlock
	out_dir
}

# A failure of the launcher: 125, one stderr line matching $1, no stdout,
# and the marker (when the command had a chance to make it) absent.
assert_refused() {
	assert_equal "$status" 125
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	assert_regex "${stderr_lines[0]}" "^landlock-run: $1"
	assert_file_not_exists "$MARKER"
}

# refused PATTERN FAULT-ARG... -- LAUNCHER-ARG...: under tests/fault.c with
# FAULT-ARGs, the launcher with LAUNCHER-ARGs fails closed (assert_refused).
refused() {
	local want=$1 i
	shift
	for ((i = 1; i <= $#; i++)); do [ "${!i}" = -- ] && break; done
	run --separate-stderr "$FAULT" "${@:1:i}" "$LR" "${@:i+1}"
	assert_refused "$want"
}

# Without a fault, the same command line runs: every refusal below is the
# injected errno's doing, not a policy that could never have worked.
@test "control: without a fault the command runs and the probe passes" {
	run --separate-stderr "$LR" --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_file_exists "$MARKER"
	rm "$MARKER"
	# A filter that matches no call (no ruleset is fd 999) changes nothing.
	run --separate-stderr "$FAULT" landlock_add_rule EINVAL --arg0 999 -- \
		"$LR" --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_file_exists "$MARKER"
	run --separate-stderr "$FAULT" landlock_add_rule EINVAL --arg0 999 -- \
		"$LR" --probe --rw "$OUT"
	assert_success
	assert_line --index 0 "$(verdict_at "$KUSED")"
}

# A filter that answers the Landlock calls with ENOSYS or EPERM is named as a
# filter (tests/where.bats); a kernel without Landlock, ENOSYS with no filter,
# is tests/arm64-qemu-user.bats's.

# Built in but not enabled at boot: create_ruleset answers EOPNOTSUPP.
@test "Landlock disabled (EOPNOTSUPP): --probe gives 125 and names lsm=" {
	refused "Landlock is disabled on this system.*lsm=" \
		landlock_create_ruleset EOPNOTSUPP -- --probe
}

@test "Landlock disabled (EOPNOTSUPP): a run gives 125 and the command never runs" {
	refused "Landlock is disabled on this system" \
		landlock_create_ruleset EOPNOTSUPP -- --rw "$OUT" "${RAN[@]}"
}

# --arg2 0: only the real creation (flags 0) fails; the version query works.
@test "ruleset creation failing after a good version query gives 125" {
	refused "cannot create the Landlock ruleset" \
		landlock_create_ruleset ENOMEM --arg2 0 -- --rw "$OUT" "${RAN[@]}"
}

@test "add_rule EPERM gives 125, names the grant, and the command never runs" {
	refused "cannot add the rule for --rw path $OUT: " \
		landlock_add_rule EPERM -- --rw "$OUT" "${RAN[@]}"
}

@test "add_rule EINVAL gives 125, names the grant, and the command never runs" {
	refused "cannot add the rule for --(ro|rw) path (/|$OUT): " \
		landlock_add_rule EINVAL -- --ro / --rw "$OUT" "${RAN[@]}"
}

@test "add_rule EINVAL on a --probe with grants gives 125" {
	refused "cannot add the rule for --rw path $OUT: " \
		landlock_add_rule EINVAL -- --probe --rw "$OUT"
}

@test "restrict_self EPERM gives 125 and the command never runs" {
	refused "cannot enforce the Landlock ruleset: " \
		landlock_restrict_self EPERM -- --rw "$OUT" "${RAN[@]}"
}

@test "restrict_self EINVAL gives 125 and the command never runs" {
	refused "cannot enforce the Landlock ruleset: " \
		landlock_restrict_self EINVAL -- --rw "$OUT" "${RAN[@]}"
}

# The probe's self-test child must not report enforcement it could not set up.
@test "restrict_self EPERM makes --probe fail with 125" {
	refused "self-test: cannot enforce a ruleset: " landlock_restrict_self EPERM -- --probe
}

# The case a syscall-only probe gets wrong: a kernel that accepts every
# Landlock call (restrict_self answers 0 without running) but enforces
# nothing. The probe must see the operations succeed and refuse to say
# "enforced"; errno 0 here is seccomp's "return 0, skip the call".
@test "a kernel that accepts restrict_self but enforces nothing fails the probe" {
	refused "self-test: read_dir was not denied: the kernel does not enforce Landlock" \
		landlock_restrict_self 0 -- --probe
	refused "self-test: read_dir was not denied" landlock_restrict_self 0 -- --probe --json
	# The same with TCP and scopes requested: no line claims enforcement.
	refused "self-test: read_dir was not denied" \
		landlock_restrict_self 0 -- --probe --tcp-connect 443 --scope signal,abstract-unix
}

# The helper sets no_new_privs itself (to install the filter), so its filter
# answers the launcher's prctl(PR_SET_NO_NEW_PRIVS) with the errno.
@test "prctl(PR_SET_NO_NEW_PRIVS) EPERM gives 125 and the command never runs" {
	refused "cannot set no_new_privs: " prctl EPERM -- --rw "$OUT" "${RAN[@]}"
}

@test "prctl(PR_SET_NO_NEW_PRIVS) EINVAL makes --probe fail with 125" {
	refused "self-test: cannot set no_new_privs: " prctl EINVAL -- --probe
}

# --path fails the open of exactly one grant, whatever the order of opens.
@test "open of a --rw grant failing gives 125 naming the option and path" {
	mkdir "$OUT/other"
	refused "cannot open --rw path $OUT/other: " \
		open,openat EACCES --path "$OUT/other" -- --ro / --rw "$OUT" --rw "$OUT/other" "${RAN[@]}"
}

@test "open of a --ro grant failing gives 125 naming the option and path" {
	refused "cannot open --ro path /usr: " \
		open,openat ELOOP --path /usr -- --ro / --ro /usr --rw "$OUT" "${RAN[@]}"
}

# -try skips a missing path only: any other error must not drop the grant.
@test "--ro-try path failing with EACCES (not ENOENT) gives 125" {
	mkdir "$OUT/ro"
	refused "cannot open --ro-try path $OUT/ro: " \
		open,openat EACCES --path "$OUT/ro" -- --ro / --ro-try "$OUT/ro" --rw "$OUT" "${RAN[@]}"
}

@test "--rw-try path answering ENOENT is skipped: the command runs without it" {
	local skipped="$BATS_TEST_TMPDIR/skipped"
	mkdir "$skipped"
	run --separate-stderr "$FAULT" open,openat ENOENT --path "$skipped" -- \
		"$LR" --rw "$OUT" --rw-try "$skipped" -- \
		sh -c 'echo ran >"$0"; echo x >"$1"' "$MARKER" "$skipped/f"
	assert_failure
	assert_file_exists "$MARKER"
	assert_file_not_exists "$skipped/f"
	assert_regex "$stderr" "Permission denied"
	# Control: unfaulted, the same grant lets the write through.
	run --separate-stderr "$LR" --rw "$OUT" --rw-try "$skipped" -- \
		sh -c 'echo x >"$0"' "$skipped/f"
	assert_success
	assert_file_exists "$skipped/f"
}

@test "--rw path answering ENOENT gives 125 (only -try skips)" {
	refused "cannot open --rw path $OUT: " \
		open,openat ENOENT --path "$OUT" -- --rw "$OUT" "${RAN[@]}"
}

# Capabilities: root's are dropped after restrict_self; a refusal fails closed.
@test "capget, capset or a bounding-set drop refused gives 125 and the command never runs" {
	[ "$(id -u)" -eq 0 ] || skip "needs root: an unprivileged caller has nothing to drop"
	refused "cannot read the capabilities: " capget EPERM -- --rw "$OUT" "${RAN[@]}"
	refused "cannot drop the capabilities \(--keep-caps keeps them\): " \
		capset EPERM -- --rw "$OUT" "${RAN[@]}"
	# prctl(PR_CAPBSET_DROP = 24, ...)
	refused "cannot drop capability 0 from the bounding set: " \
		prctl EPERM --arg0 24 -- --rw "$OUT" "${RAN[@]}"
	# Control: with --keep-caps none of these calls is made.
	run --separate-stderr "$FAULT" capset EPERM -- "$LR" --keep-caps --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_file_exists "$MARKER"
}

@test "the seccomp filter refused (EINVAL) gives 125: for a run and for the probe" {
	refused "cannot install the seccomp filter: " \
		seccomp EINVAL -- --rw "$OUT" "${RAN[@]}"
	refused "self-test: cannot install the seccomp filter: " \
		seccomp EINVAL -- --probe
}

# The process options: each call the kernel refuses fails closed.
@test "--die-with-parent, --new-session, --close-fds, --no-symlinks: a refused call gives 125" {
	# prctl(PR_SET_PDEATHSIG = 1, ...)
	refused "--die-with-parent: cannot set the parent-death signal: " \
		prctl EPERM --arg0 1 -- --die-with-parent --rw "$OUT" "${RAN[@]}"
	refused "--new-session: cannot start a session: " \
		setsid EINVAL -- --new-session --rw "$OUT" "${RAN[@]}"
	# close_range(3, ~0U, CLOSE_RANGE_CLOEXEC = 4): not the grants' own closes
	refused "--close-fds: cannot close the inherited descriptors: " \
		close_range EINVAL --arg2 4 -- --close-fds --rw "$OUT" "${RAN[@]}"
	refused "cannot open --rw path $OUT: " \
		openat2 ENOSYS -- --no-symlinks --rw "$OUT" "${RAN[@]}"
	# Control: the same faults, without the options that make those calls.
	run --separate-stderr "$FAULT" prctl EPERM --arg0 1 -- "$FAULT" setsid EINVAL -- \
		"$FAULT" close_range EINVAL --arg2 4 -- "$FAULT" openat2 ENOSYS -- \
		"$LR" --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_file_exists "$MARKER"
}
