#!/usr/bin/env bats
# --probe (issue 3): the report, line by line and as JSON, at every ABI level
# through --abi, with --strict, and its usage and output errors.
load helpers

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
}

# used_abi N: the ABI the launcher must use for --abi N on this kernel.
used_abi() {
	local k max
	k=$KABI max=$(abi_max)
	((k > max)) && k=$max
	echo $(($1 < k ? $1 : k))
}

# assert_probe_text N [PROVEN]: $output (run --separate-stderr) is the full
# report for abi_used=N on this kernel, line by line.
assert_probe_text() {
	refute_launcher_line
	assert_output "$(probe_report "$KABI" "$1" "$KERRATA" "${2:-}")"
}

# same_facts TEXT JSON: the JSON object is valid, one line, and says what
# the text report says, key by key, with nothing missing on either side.
same_facts() {
	"$PYTHON" "$BATS_TEST_DIRNAME/probe-json.py" same "$1" "$2"
}

# probe_both ARGS...: run the probe in both formats and compare them.
probe_both() {
	local text json
	text=$("$LR" --probe -v "$@") || fail "--probe $* failed"
	json=$("$LR" --probe --json "$@") || fail "--probe --json $* failed"
	run same_facts "$text" "$json"
	assert_success
}

@test "probe: the text report, line by line, on this kernel" {
	run --separate-stderr "$LR" --probe -v
	assert_success
	assert_probe_text "$(used_abi "$(abi_max)")"
}

@test "probe: 'fully enforced' exactly where every filesystem right is handled (ABI $FULL_ABI+)" {
	run --separate-stderr "$LR" --probe -v
	assert_success
	if ((KABI >= FULL_ABI)); then
		assert_line --index 0 "landlock: fully enforced"
		assert_line "fs_missing="
	else
		# e.g. ABI 7: pathname sockets (resolve_unix, ABI 9) are not confined
		assert_line --index 0 "landlock: partially enforced (older ABI)"
		assert_line "fs=partial"
		assert_line "fs_missing=$(rights_missing fs "$KABI")"
		assert_line "pathname_sockets=no"
		echo "# ABI $KABI: the fully enforced verdict is proven in the kernel matrix's sid guests (ABI 10)" >&3
	fi
}

@test "probe: errata is the kernel's own answer to landlock_create_ruleset(NULL, 0, ERRATA)" {
	local errata=$KERRATA
	[[ $errata == 0x* ]] || skip "this kernel has no errata query ($errata)"
	run --separate-stderr "$LR" --probe -v
	assert_success
	assert_line "errata=$errata"
	run --separate-stderr "$LR" --probe --json
	assert_output --partial "\"errata\":$((errata)),"
}

@test "probe --json: one line of valid JSON with the documented keys" {
	run --separate-stderr "$LR" --probe --json
	assert_success
	assert_equal "$stderr" ""
	assert_equal "${#lines[@]}" 1
	run "$PYTHON" "$BATS_TEST_DIRNAME/probe-json.py" valid "$output"
	assert_success
	assert_output valid
	# and what json.tool accepts
	"$LR" --probe --json | "$PYTHON" -m json.tool >/dev/null
}

@test "probe --json: the same facts as the text report, at every --abi and with policy options" {
	probe_both
	for n in $(seq 1 "$(abi_max)"); do
		probe_both --abi "$n"
	done
	probe_both --ro / --rw "$BATS_TEST_TMPDIR"
}

@test "probe --json: same facts with --tcp-bind, --tcp-connect and --scope" {
	require_abi 6
	probe_both --tcp-bind 8080
	probe_both --tcp-connect 443
	probe_both --no-tcp --scope signal,abstract-unix
}

probe_at() {
	local n=$1
	run --separate-stderr "$LR" --probe -v --abi "$n"
	assert_success
	assert_probe_text "$(used_abi "$n")"
}

@test "probe --abi 1: no refer, truncate, ioctl_dev; no tcp, scopes, log flags" { probe_at 1; }
@test "probe --abi 2: adds refer" { probe_at 2; }
@test "probe --abi 3: adds truncate" { probe_at 3; }
@test "probe --abi 4: adds tcp" { probe_at 4; }
@test "probe --abi 5: adds ioctl_dev" { probe_at 5; }
@test "probe --abi 6: adds scopes" { probe_at 6; }
@test "probe --abi 7: adds log flags" { probe_at 7; }
@test "probe --abi 8: adds tsync, known and unused" { probe_at 8; }
@test "probe --abi 9: adds resolve_unix, the last filesystem right: fully enforced" { probe_at 9; }
@test "probe --abi 10: adds UDP" { probe_at 10; }

@test "probe --abi N above the kernel's ABI is used at the kernel's" {
	run --separate-stderr "$LR" --probe -v --abi "$(abi_max)"
	assert_success
	assert_line "abi=$KABI"
	assert_line "abi_used=$(used_abi "$(abi_max)")"
	assert_probe_text "$(used_abi "$(abi_max)")"
}

@test "--abi beyond the newest ABI the launcher knows is a usage error naming the range" {
	run --separate-stderr "$LR" --probe --abi "$(($(abi_max) + 1))"
	assert_failure 125
	assert_output ""
	assert_one_launcher_line
	assert_equal "$stderr" "landlock-run: --abi: invalid ABI version '$(($(abi_max) + 1))' (this landlock-run knows ABI 1 to $(abi_max))"
}

@test "probe --abi N keeps abi= at the kernel's own value" {
	for n in 1 3 5; do
		run --separate-stderr "$LR" --probe -v --abi "$n"
		assert_success
		assert_line "abi=$KABI"
		assert_line "abi_used=$n"
	done
}

@test "probe --strict: passes exactly from ABI $FULL_ABI, refused below with 125, one line, no stdout" {
	local n
	for n in $(seq 1 "$(abi_max)") ""; do
		run --separate-stderr "$LR" --probe --strict ${n:+--abi "$n"}
		if (($(used_abi "${n:-$(abi_max)}") >= FULL_ABI)); then
			assert_success
			assert_line --index 0 "landlock: fully enforced"
		else
			assert_failure 125
			assert_output ""
			assert_one_launcher_line
			[[ $stderr == *--strict*"needs Landlock ABI $FULL_ABI"* ]] ||
				fail "--abi $n: the refusal does not name --strict and ABI $FULL_ABI: $stderr"
		fi
	done
	((KABI >= FULL_ABI)) ||
		echo "# ABI $KABI: --strict passing is proven in fakeabi.bats and the sid guests" >&3
}

@test "probe --strict --json at ABI 4: refused, no JSON on stdout" {
	run --separate-stderr "$LR" --probe --json --strict --abi 4
	assert_failure 125
	assert_output ""
	assert_one_launcher_line
}

@test "probe with a command is a usage error and runs nothing" {
	run --separate-stderr "$LR" --probe -v touch marker
	assert_failure 125
	assert_output ""
	assert_one_launcher_line
	run --separate-stderr "$LR" --probe -v -- touch marker
	assert_failure 125
	assert_output ""
	assert_one_launcher_line
	assert_file_not_exists marker
}

@test "probe with a bare -- is a usage error" {
	run --separate-stderr "$LR" --probe -v --
	assert_failure 125
	assert_output ""
	assert_one_launcher_line
}

@test "--json without --probe is a usage error, alone or before a command" {
	run --separate-stderr "$LR" --json -- touch marker
	assert_failure 125
	assert_output ""
	assert_one_launcher_line
	assert_file_not_exists marker
	run --separate-stderr "$LR" --json
	assert_failure 125
	assert_one_launcher_line
}

@test "probe with a grant that does not exist: 125 naming the path" {
	run --separate-stderr "$LR" --probe -v --ro / --rw "$BATS_TEST_TMPDIR/no-such-dir"
	assert_failure 125
	assert_output ""
	assert_one_launcher_line
	assert_equal "$(grep -c -- "--rw.*no-such-dir" <<<"$stderr")" 1
}

@test "probe with a missing --ro-try grant skips it and passes" {
	run --separate-stderr "$LR" --probe -v --ro-try "$BATS_TEST_TMPDIR/no-such-dir" --ro /
	assert_success
	assert_line "self_test=passed"
}

@test "probe with grants: the self-test still proves the same denials" {
	run --separate-stderr "$LR" --probe -v --ro / --rw "$BATS_TEST_TMPDIR"
	assert_success
	assert_probe_text "$(used_abi "$(abi_max)")"
}

@test "probe to /dev/full: 125 with one stderr line" {
	run --separate-stderr bash -c '"$1" --probe >/dev/full' _ "$LR"
	assert_failure 125
	assert_one_launcher_line
	run --separate-stderr bash -c '"$1" --probe --json >/dev/full' _ "$LR"
	assert_failure 125
	assert_one_launcher_line
}

@test "probe: exactly one stdout line, the verdict, and nothing on stderr" {
	run --separate-stderr "$LR" --probe
	assert_success
	assert_equal "$stderr" ""
	assert_equal "${#lines[@]}" 1
	assert_equal "${lines[0]}" "$(verdict_at "$(used_abi "$(abi_max)")")"
	run --separate-stderr "$LR" --probe --abi 4
	assert_success
	assert_output "landlock: partially enforced (older ABI)"
}

@test "probe -v: the policy on stderr, the verdict and the whole report on stdout" {
	run --separate-stderr "$LR" --probe -v
	assert_success
	assert_line --index 0 "$(verdict_at "$(used_abi "$(abi_max)")")"
	assert_line "self_test=passed"
	[[ $stderr == "landlock-run policy: abi="* ]] || fail "no policy on stderr: $stderr"
	if grep -q '^landlock-run: ' <<<"$stderr"; then fail "a failure line in: $stderr"; fi
}
