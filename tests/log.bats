#!/usr/bin/env bats
# Audit-log flags (issue 4, Landlock ABI 7): --log-subprocesses,
# --no-log, --no-log-nested. Accepted and run at ABI 7, refused below, shown
# by -v and the probe. What they change is only visible in the kernel's audit
# log: those tests read it through tests/audit-watch.py when audit is on
# (or LR_TEST_AUDIT=1 lets this file switch it on as root, and back off).
load helpers

FLAGS=(--log-subprocesses --no-log --no-log-nested)

setup_file() {
	require_helpers
	WATCH=$BATS_TEST_DIRNAME/audit-watch.py
	AUDIT=$("$PYTHON" "$WATCH" status 2>/dev/null) || AUDIT=unavailable
	if [ "$AUDIT" = 0 ] && [ "${LR_TEST_AUDIT-}" = 1 ]; then
		"$PYTHON" "$WATCH" enable 1
		touch "$BATS_FILE_TMPDIR/audit-was-off"
		AUDIT=1
	fi
	export WATCH AUDIT
}

teardown_file() {
	if [ -f "$BATS_FILE_TMPDIR/audit-was-off" ]; then
		"$PYTHON" "$WATCH" enable 0
	fi
}

setup() {
	require_landlock
	require_abi 7
	cd "$BATS_TEST_TMPDIR" || return
	mkdir work out
	echo hello >out/secret
	SECRET=$PWD/out/secret
}

require_audit() {
	[ "$AUDIT" = 1 ] ||
		skip "the audit log is not readable here (audit: $AUDIT; LR_TEST_AUDIT=1 switches it on as root)"
}

# watch ARGS...: run the launcher with ARGS under audit-watch.py; $output
# holds the command's output, then one "denial: ..." line per Landlock record.
watch() {
	run "$PYTHON" "$WATCH" run "$LR" "$@"
}

@test "each log flag is accepted at ABI 7 and the command runs, its status passed on" {
	local flag
	for flag in "${FLAGS[@]}"; do
		rm -f marker
		run --separate-stderr "$LR" "$flag" --rw . -- sh -c 'touch marker; echo ran; exit 3'
		assert_failure 3
		assert_output ran
		assert_equal "$stderr" ""
		assert_file_exists marker
	done
}

@test "all three log flags together, with --abi and, where enforcement is full, --strict" {
	local strict=()
	((KUSED < FULL_ABI)) || strict=(--strict)
	run --separate-stderr "$LR" --abi "$KUSED" "${strict[@]}" "${FLAGS[@]}" --rw . -- touch marker
	assert_success
	assert_equal "$stderr" ""
	assert_file_exists marker
}

@test "log flags leave the sandbox as it was: writes outside --rw still denied" {
	run "$LR" "${FLAGS[@]}" --rw work -- "$TRYOP" truncate "$SECRET"
	assert_output EACCES
	assert_equal "$(stat -c %s "$SECRET")" 6
}

@test "--abi 6 refuses each log flag: 125 naming it and ABI 7, nothing runs" {
	local flag
	for flag in "${FLAGS[@]}"; do
		run --separate-stderr "$LR" --abi 6 "$flag" --rw . -- touch marker
		assert_failure 125
		assert_output ""
		assert_one_launcher_line
		[[ $stderr == *"$flag"*"ABI 7"* ]] || fail "$flag: not naming $flag and ABI 7: $stderr"
		assert_file_not_exists marker
	done
}

@test "--abi 6 with all three flags: 125, nothing runs" {
	run --separate-stderr "$LR" --abi 6 "${FLAGS[@]}" --rw . -- touch marker
	assert_failure 125
	assert_one_launcher_line
	[[ $stderr == *"ABI 7"* ]] || fail "$stderr"
	assert_file_not_exists marker
}

@test "log flags take no argument" {
	local flag
	for flag in "${FLAGS[@]}"; do
		run --separate-stderr "$LR" "$flag=1" --rw . -- touch marker
		assert_failure 125
		assert_one_launcher_line
		assert_file_not_exists marker
	done
}

@test "-v shows the log flags" {
	run --separate-stderr "$LR" -v --no-log -- true
	assert_success
	grep -Fxq "landlock-run policy: log=--no-log" <<<"$stderr" || fail "$stderr"
	run --separate-stderr "$LR" -v "${FLAGS[@]}" -- true
	grep -Fxq "landlock-run policy: log=--no-log,--log-subprocesses,--no-log-nested" <<<"$stderr" ||
		fail "$stderr"
	run --separate-stderr "$LR" -v -- true
	grep -Fxq "landlock-run policy: log=" <<<"$stderr" || fail "$stderr"
}

@test "probe with log flags: passes at ABI 7, refused at --abi 6" {
	local flag
	for flag in "${FLAGS[@]}"; do
		run --separate-stderr "$LR" --probe -v "$flag"
		assert_success
		assert_line "log_flags=yes"
		assert_line "self_test=passed"
		run --separate-stderr "$LR" --probe -v --abi 6 "$flag"
		assert_failure 125
		assert_output ""
		assert_one_launcher_line
	done
}

# --- what the audit log shows (needs audit) -------------------------------------

@test "audit: a denial after exec is not logged by default; --log-subprocesses logs it" {
	require_audit
	watch --rw work -- "$TRYOP" truncate "$SECRET"
	assert_output EACCES
	watch --log-subprocesses --rw work -- "$TRYOP" truncate "$SECRET"
	assert_line --index 0 EACCES
	assert_line --index 1 --regexp "^denial: domain=[0-9a-f]+ blockers=fs\\.truncate path=\"$SECRET\""
	assert_equal "${#lines[@]}" 2
}

@test "audit: a denial before exec (of the command itself) is logged by default; --no-log drops it" {
	require_audit
	watch --ro /usr -- "$TRYOP" truncate "$SECRET"
	assert_line --index 0 --partial "cannot execute"
	assert_line --index 1 --regexp "^denial: domain=[0-9a-f]+ blockers=fs\\.execute.* path=\"$TRYOP\""
	watch --no-log --ro /usr -- "$TRYOP" truncate "$SECRET"
	assert_line --index 0 --partial "cannot execute"
	assert_equal "${#lines[@]}" 1
}

@test "audit: a nested sandbox's denials are logged; --no-log-nested drops them" {
	require_audit
	watch --rw out -- "$LR" --log-subprocesses -- "$TRYOP" truncate "$SECRET"
	assert_line --index 0 EACCES
	assert_line --index 1 --regexp "^denial: domain=[0-9a-f]+ blockers=fs\\.truncate path=\"$SECRET\""
	assert_equal "$(stat -c %s "$SECRET")" 6
	watch --rw out --no-log-nested -- "$LR" --log-subprocesses -- "$TRYOP" truncate "$SECRET"
	assert_output EACCES
}

@test "audit: the probe keeps its self-test denials out of the log" {
	require_audit
	watch --probe -v --no-tcp --scope signal,abstract-unix
	assert_success
	assert_line "self_test=passed"
	refute_line --regexp '^denial: '
	# the control: a denial of the command's own is logged
	watch --rw work --log-subprocesses -- "$TRYOP" truncate "$SECRET"
	assert_line --regexp '^denial: '
}
