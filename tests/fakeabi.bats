#!/usr/bin/env bats
# Old (and newer) kernels emulated on this one: tests/fault.c run as
# "fakeabi N" answers landlock_create_ruleset(NULL, 0, VERSION) with N through
# seccomp user notification and passes every other call to the real kernel.
# So the launcher's own detection path decides the ABI, and the real kernel
# then enforces exactly the ruleset the launcher built for ABI N: the effect
# checks below separate the ABI levels by what the kernel denies.

load helpers

setup() {
	require_landlock
	out_dir
}

ABI1=$(rights fs 1)

# The whole --probe report, line by line, when the kernel says ABI $1.
check_probe() {
	local n=$1 used=$1 full=partial first="landlock: partially enforced (older ABI)"
	[ "$used" -le "$(abi_max)" ] || used=$(abi_max)
	if [ "$used" -ge 5 ]; then
		full=full
		first="landlock: fully enforced"
	fi
	run --separate-stderr "$FAKEABI" "$n" -- "$LR" --probe -v
	assert_success
	refute_launcher_line
	assert_line --index 0 "$first"
	assert_line --index 1 "abi=$n"
	assert_line --index 2 "abi_used=$used"
	assert_line --index 3 --regexp '^errata=0x[0-9a-f]+$'
	assert_line --index 4 "fs=$full"
	assert_line --index 5 "fs_handled=$(rights fs "$used")"
	assert_line --index 6 "fs_missing=$(rights_missing fs "$used")"
	assert_line --index 7 "tcp=$([ "$used" -ge 4 ] && echo yes || echo no)"
	assert_line --index 8 "scopes=$(rights scope "$used")"
	assert_line --index 9 "log_flags=$([ "$used" -ge 7 ] && echo yes || echo no)"
	assert_line --index 10 "proven=read_dir,read_file,write_file"
	assert_line --index 11 "self_test=passed"
	assert_equal "${#lines[@]}" 12
}

assert_stderr_line() {
	local line
	for line in "${stderr_lines[@]}"; do
		[ "$line" = "$1" ] && return 0
	done
	fail "no stderr line '$1' in: $stderr"
}

# The ruleset a run really builds at ABI $1 (-v prints what it handles).
check_run_policy() {
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" -v --ro / --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_file_exists "$MARKER"
	assert_equal "${stderr_lines[0]}" "landlock-run policy: abi=$1"
	assert_equal "${stderr_lines[1]}" "landlock-run policy: abi_used=$1"
	assert_regex "${stderr_lines[2]}" '^landlock-run policy: errata=0x[0-9a-f]+$'
	assert_stderr_line "landlock-run policy: fs_handled=$(rights fs "$1")"
	assert_stderr_line "landlock-run policy: fs_missing=$(rights_missing fs "$1")"
}

@test "ABI 1: probe report and the ruleset of a run" {
	check_probe 1
	check_run_policy 1
}

@test "ABI 2: probe report and the ruleset of a run" {
	check_probe 2
	check_run_policy 2
}

@test "ABI 3: probe report and the ruleset of a run" {
	check_probe 3
	check_run_policy 3
}

@test "ABI 4: probe report and the ruleset of a run" {
	check_probe 4
	check_run_policy 4
}

@test "ABI 5: probe report and the ruleset of a run" {
	check_probe 5
	check_run_policy 5
}

@test "ABI 6: probe report and the ruleset of a run" {
	check_probe 6
	check_run_policy 6
}

@test "ABI 7: probe report and the ruleset of a run" {
	check_probe 7
	check_run_policy 7
}

# A kernel newer than the launcher is used at the launcher's known level.
@test "ABI 8 (newer than the launcher) is reported abi=8 abi_used=7" {
	check_probe 8
	run --separate-stderr "$FAKEABI" 8 -- "$LR" --probe --json
	assert_success
	assert_output --regexp '^\{"abi":8,"abi_used":7,"errata":[0-9]+,"enforcement":"full",'
}

@test "--abi lowers a fake ABI, never raises it" {
	run --separate-stderr "$FAKEABI" 8 -- "$LR" --probe -v --abi 3
	assert_success
	assert_line --index 1 "abi=8"
	assert_line --index 2 "abi_used=3"
	run --separate-stderr "$FAKEABI" 3 -- "$LR" --probe -v --abi 5
	assert_success
	assert_line --index 1 "abi=3"
	assert_line --index 2 "abi_used=3"
}

@test "--probe --json at ABI 2 says partial and lists what is missing" {
	run --separate-stderr "$FAKEABI" 2 --errata 12 -- "$LR" --probe --json
	assert_success
	assert_output "{\"abi\":2,\"abi_used\":2,\"errata\":12,\"enforcement\":\"partial\",\"fs\":\"partial\",\"fs_handled\":[\"${ABI1//,/\",\"}\",\"refer\"],\"fs_missing\":[\"truncate\",\"ioctl_dev\"],\"tcp\":false,\"scopes\":[],\"log_flags\":false,\"proven\":[\"read_dir\",\"read_file\",\"write_file\"],\"self_test\":\"passed\"}"
}

@test "errata: a chosen value is printed in hex, a kernel without the query gives unknown" {
	run --separate-stderr "$FAKEABI" 2 --errata 12 -- "$LR" --probe -v
	assert_success
	assert_line --index 3 "errata=0xc"
	run --separate-stderr "$FAKEABI" 2 --errata none -- "$LR" --probe -v
	assert_success
	assert_line --index 3 "errata=unknown"
	run --separate-stderr "$FAKEABI" 2 --errata none -- "$LR" --probe --json
	assert_success
	assert_output --partial '"errata":null,'
}

# --strict: full filesystem enforcement needs ABI 5 (ioctl_dev).
strict_refuses() {
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" --probe -v --strict
	assert_equal "$status" 125
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	assert_regex "${stderr_lines[0]}" \
		"^landlock-run: --strict.* needs Landlock ABI 5, but this kernel has ABI $1\$"
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" --strict --rw "$OUT" "${RAN[@]}"
	assert_equal "$status" 125
	assert_equal "${#stderr_lines[@]}" 1
	assert_file_not_exists "$MARKER"
}

strict_accepts() {
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" --probe -v --strict
	assert_success
	assert_line --index 0 "landlock: fully enforced"
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" --strict --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_file_exists "$MARKER"
}

@test "--strict refuses ABI 1 to 4 and accepts ABI 5 and every newer one the launcher knows" {
	local n
	for ((n = 1; n <= $(abi_max); n++)); do
		if ((n < 5)); then strict_refuses "$n"; else strict_accepts "$n"; fi
	done
}

# REFER (ABI 2): without it the kernel refuses every link or rename into
# another directory (EXDEV), even between two --rw grants.
@test "refer: ABI 1 refuses a link across --rw directories (EXDEV), ABI 2 allows it" {
	mkdir "$OUT/a" "$OUT/b"
	echo data >"$OUT/a/f"
	run --separate-stderr "$FAKEABI" 1 -- "$LR" --rw "$OUT/a" --rw "$OUT/b" -- \
		ln "$OUT/a/f" "$OUT/b/g"
	assert_failure
	assert_regex "$stderr" "Invalid cross-device link"
	assert_file_not_exists "$OUT/b/g"
	# Within one directory there is no reparenting: ABI 1 allows it.
	run --separate-stderr "$FAKEABI" 1 -- "$LR" --rw "$OUT/a" --rw "$OUT/b" -- \
		ln "$OUT/a/f" "$OUT/a/g"
	assert_success
	run --separate-stderr "$FAKEABI" 2 -- "$LR" --rw "$OUT/a" --rw "$OUT/b" -- \
		ln "$OUT/a/f" "$OUT/b/g"
	assert_success
	assert_file_exists "$OUT/b/g"
}

# TRUNCATE (ABI 3): open(O_RDONLY|O_TRUNC) needs no write_file, so below ABI 3
# a command truncates a file outside every grant; from ABI 3 it is denied.
trunc_outside() {
	echo data >"$OUT/outside"
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" --rw "$BATS_TEST_TMPDIR/none" -- \
		perl -MFcntl -e 'sysopen(my $f, $ARGV[0], O_RDONLY | O_TRUNC) or die "sysopen: $!\n"' \
		"$OUT/outside"
}

@test "truncate: ABI 2 lets O_RDONLY|O_TRUNC empty a file outside the grants, ABI 3 denies it" {
	mkdir "$BATS_TEST_TMPDIR/none"
	trunc_outside 2
	assert_success
	assert_equal "$(stat -c %s "$OUT/outside")" 0
	trunc_outside 3
	assert_failure
	assert_regex "$stderr" "sysopen: Permission denied"
	assert_equal "$(cat "$OUT/outside")" data
}

# IOCTL_DEV (ABI 5): TCGETS on /dev/null reaches the driver (ENOTTY) below
# ABI 5; from ABI 5 Landlock refuses it first (EACCES).
@test "ioctl_dev: ABI 4 lets a device ioctl through (ENOTTY), ABI 5 denies it (EACCES)" {
	run --separate-stderr "$FAKEABI" 4 -- "$LR" -- stty -F /dev/null
	assert_failure
	assert_regex "$stderr" "Inappropriate ioctl for device"
	run --separate-stderr "$FAKEABI" 5 -- "$LR" -- stty -F /dev/null
	assert_failure
	assert_regex "$stderr" "/dev/null: Permission denied"
	# A --rw grant on the device gives ioctl_dev back.
	run --separate-stderr "$FAKEABI" 5 -- "$LR" --rw /dev/null -- stty -F /dev/null
	assert_failure
	assert_regex "$stderr" "Inappropriate ioctl for device"
}

# Features asked for by name are refused, never dropped, below their ABI.
feature_needs() { # ABI OPTION...
	local abi=$1
	shift
	run --separate-stderr "$FAKEABI" $((abi - 1)) -- "$LR" --probe -v "$@"
	assert_equal "$status" 125
	assert_equal "${#stderr_lines[@]}" 1
	assert_regex "${stderr_lines[0]}" \
		"^landlock-run: .*needs Landlock ABI $abi, but this kernel has ABI $((abi - 1))\$"
	run --separate-stderr "$FAKEABI" $((abi - 1)) -- "$LR" "$@" --rw "$OUT" "${RAN[@]}"
	assert_equal "$status" 125
	assert_file_not_exists "$MARKER"
	run --separate-stderr "$FAKEABI" "$abi" -- "$LR" --probe -v "$@"
	assert_success
	assert_line "self_test=passed"
}

@test "--tcp-connect needs ABI 4" { feature_needs 4 --tcp-connect 443; }
@test "--tcp-bind needs ABI 4" { feature_needs 4 --tcp-bind none; }
@test "--scope signal needs ABI 6" { feature_needs 6 --scope signal; }
@test "--no-log needs ABI 7" { feature_needs 7 --no-log; }
