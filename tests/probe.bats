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

# assert_probe_text N: $output (run --separate-stderr) is the full report
# for abi_used=N, line by line, with the proven list in $2.
assert_probe_text() {
	local n=$1 proven=${2:-read_dir,read_file,write_file}
	refute_launcher_line
	assert_equal "${#lines[@]}" 12
	if ((n >= 5)); then
		assert_equal "${lines[0]}" "landlock: fully enforced"
	else
		assert_equal "${lines[0]}" "landlock: partially enforced (older ABI)"
	fi
	assert_equal "${lines[1]}" "abi=$KABI"
	assert_equal "${lines[2]}" "abi_used=$n"
	assert_equal "${lines[3]}" "errata=$KERRATA"
	assert_equal "${lines[4]}" "fs=$( ((n >= 5)) && echo full || echo partial)"
	assert_equal "${lines[5]}" "fs_handled=$(rights fs "$n")"
	assert_equal "${lines[6]}" "fs_missing=$(rights_missing fs "$n")"
	assert_equal "${lines[7]}" "tcp=$( ((n >= 4)) && echo yes || echo no)"
	assert_equal "${lines[8]}" "scopes=$(rights scope "$n")"
	assert_equal "${lines[9]}" "log_flags=$( ((n >= 7)) && echo yes || echo no)"
	assert_equal "${lines[10]}" "proven=$proven"
	assert_equal "${lines[11]}" "self_test=passed"
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
	assert_probe_text "$(used_abi 7)"
}

@test "probe: line 1 is exactly 'landlock: fully enforced' on ABI 7" {
	require_abi 7
	run --separate-stderr "$LR" --probe -v
	assert_success
	assert_equal "${lines[0]}" "landlock: fully enforced"
	assert_equal "${lines[1]}" "abi=7"
	assert_equal "${lines[2]}" "abi_used=7"
	assert_equal "${lines[4]}" "fs=full"
	assert_equal "${lines[5]}" "fs_handled=execute,write_file,read_file,read_dir,remove_dir,remove_file,make_char,make_dir,make_reg,make_sock,make_fifo,make_block,make_sym,refer,truncate,ioctl_dev"
	assert_equal "${lines[6]}" "fs_missing="
	assert_equal "${lines[7]}" "tcp=yes"
	assert_equal "${lines[8]}" "scopes=abstract-unix,signal"
	assert_equal "${lines[9]}" "log_flags=yes"
	assert_equal "${lines[10]}" "proven=read_dir,read_file,write_file"
	assert_equal "${lines[11]}" "self_test=passed"
}

@test "probe: errata is the kernel's own answer to landlock_create_ruleset(NULL, 0, ERRATA)" {
	local errata=$KERRATA
	[[ $errata == 0x* ]] || skip "this kernel has no errata query ($errata)"
	run --separate-stderr "$LR" --probe -v
	assert_success
	assert_line --index 3 "errata=$errata"
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
	for n in 1 2 3 4 5 6 7 99; do
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

@test "probe --abi 1: partial; no refer, truncate, ioctl_dev; no tcp, scopes, log flags" { probe_at 1; }
@test "probe --abi 2: partial; adds refer" { probe_at 2; }
@test "probe --abi 3: partial; adds truncate" { probe_at 3; }
@test "probe --abi 4: partial; adds tcp" { probe_at 4; }
@test "probe --abi 5: full; adds ioctl_dev" { probe_at 5; }
@test "probe --abi 6: full; adds scopes" { probe_at 6; }
@test "probe --abi 7: full; adds log flags" { probe_at 7; }

@test "probe --abi 99: a larger ABI than the kernel's is used at min(kernel, 7)" {
	run --separate-stderr "$LR" --probe -v --abi 99
	assert_success
	assert_line --index 1 "abi=$KABI"
	assert_line --index 2 "abi_used=$(used_abi 99)"
	assert_probe_text "$(used_abi 99)"
}

@test "probe --abi N keeps abi= at the kernel's own value" {
	for n in 1 3 5; do
		run --separate-stderr "$LR" --probe -v --abi "$n"
		assert_success
		assert_line --index 1 "abi=$KABI"
		assert_line --index 2 "abi_used=$n"
	done
}

@test "probe --strict: passes at ABI 5, 6, 7 and without --abi" {
	require_abi 7
	for n in 5 6 7; do
		run --separate-stderr "$LR" --probe -v --strict --abi "$n"
		assert_success
		assert_line --index 0 "landlock: fully enforced"
		assert_line --index 2 "abi_used=$n"
	done
	run --separate-stderr "$LR" --probe -v --strict
	assert_success
	assert_line --index 0 "landlock: fully enforced"
}

@test "probe --strict: refuses ABI 1..4 with 125, one stderr line and no stdout" {
	for n in 1 2 3 4; do
		run --separate-stderr "$LR" --probe -v --strict --abi "$n"
		assert_failure 125
		assert_output ""
		assert_one_launcher_line
		[[ $stderr == *--strict* && $stderr == *"ABI 5"* ]] ||
			fail "--abi $n: the refusal does not name --strict and ABI 5: $stderr"
	done
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
	assert_line --index 11 "self_test=passed"
}

@test "probe with grants: the self-test still proves the same denials" {
	run --separate-stderr "$LR" --probe -v --ro / --rw "$BATS_TEST_TMPDIR"
	assert_success
	assert_probe_text "$(used_abi 7)"
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
	assert_equal "${lines[0]}" "landlock: $( (($(used_abi 7) >= 5)) && echo fully enforced || echo "partially enforced (older ABI)")"
	run --separate-stderr "$LR" --probe --abi 4
	assert_success
	assert_output "landlock: partially enforced (older ABI)"
}

@test "probe -v: the policy on stderr, the verdict and the whole report on stdout" {
	run --separate-stderr "$LR" --probe -v
	assert_success
	assert_equal "${lines[0]}" "landlock: $( (($(used_abi 7) >= 5)) && echo fully enforced || echo "partially enforced (older ABI)")"
	assert_equal "${lines[11]}" "self_test=passed"
	[[ $stderr == "landlock-run policy: abi="* ]] || fail "no policy on stderr: $stderr"
	if grep -q '^landlock-run: ' <<<"$stderr"; then fail "a failure line in: $stderr"; fi
}
