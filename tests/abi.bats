#!/usr/bin/env bats
# --abi N on the real kernel (issue 3): what each ABI level really enforces
# (truncate from 3, refer from 2, ioctl_dev from 5), --strict on runs, and
# the -v policy report.
load helpers

# Every filesystem right of the ABI a run uses here.
USED=$KUSED
FS_ALL=$(rights fs "$USED")

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
	mkdir a b out
	echo hello >out/file
	echo moved >a/file
}

# Every --abi the kernel can really give (1..min(kernel, newest the launcher knows)).
abi_levels() {
	local n max
	max=$(abi_max)
	for ((n = 1; n <= (KABI < max ? KABI : max); n++)); do echo "$n"; done
}

# used_abi N: the ABI a run uses with --abi N (empty: without --abi) here.
used_abi() {
	local n=${1:-$USED}
	echo $((n < USED ? n : USED))
}

# --- truncate (ABI 3) ---------------------------------------------------------

@test "truncate(2) outside every grant: allowed at ABI 1-2, denied (EACCES) from ABI 3" {
	require_abi 3
	for n in $(abi_levels); do
		echo hello >out/file
		run "$LR" --abi "$n" --rw a -- "$TRYOP" truncate out/file
		if ((n <= 2)); then
			assert_success
			assert_output ok
			assert_equal "$(stat -c %s out/file)" 0
		else
			assert_failure 1
			assert_output EACCES
			assert_equal "$(stat -c %s out/file)" 6
		fi
	done
}

@test "truncate(2) beneath a --rw grant works at every ABI" {
	for n in $(abi_levels); do
		echo hello >a/file
		run "$LR" --abi "$n" --rw a -- "$TRYOP" truncate a/file
		assert_success
		assert_output ok
		assert_equal "$(stat -c %s a/file)" 0
	done
}

@test "truncate(2) is not handled at ABI 2 even under --ro / (reads confined too)" {
	run "$LR" --abi 2 --ro / --rw a -- "$TRYOP" truncate "$PWD/out/file"
	assert_success
	assert_equal "$(stat -c %s out/file)" 0
	echo hello >out/file
	run "$LR" --abi 3 --ro / --rw a -- "$TRYOP" truncate "$PWD/out/file"
	assert_output EACCES
	assert_equal "$(stat -c %s out/file)" 6
}

# --- refer (ABI 2) ------------------------------------------------------------

@test "rename between two --rw directories: EXDEV at ABI 1, works from ABI 2" {
	require_abi 2
	for n in $(abi_levels); do
		run "$LR" --abi "$n" --rw a --rw b -- "$TRYOP" rename a/file b/file
		if ((n == 1)); then
			assert_failure 1
			assert_output EXDEV
			assert_file_exists a/file
			assert_file_not_exists b/file
		else
			assert_success
			assert_output ok
			assert_file_exists b/file
			assert_file_not_exists a/file
			mv b/file a/file
		fi
	done
}

@test "rename inside one --rw directory works at ABI 1 (EXDEV came from reparenting)" {
	run "$LR" --abi 1 --rw a -- "$TRYOP" rename a/file a/renamed
	assert_success
	assert_file_exists a/renamed
}

# --- ioctl_dev (ABI 5) --------------------------------------------------------

@test "TCGETS on /dev/ptmx opened under --ro /: works at ABI 1-4, EACCES from ABI 5" {
	require_abi 5
	[ -c /dev/ptmx ] || skip "no /dev/ptmx"
	run "$TRYOP" ioctl-tcgets /dev/ptmx
	assert_output ok # the control: unsandboxed, the ioctl works
	for n in $(abi_levels); do
		run "$LR" --abi "$n" --ro / -- "$TRYOP" ioctl-tcgets /dev/ptmx
		if ((n <= 4)); then
			assert_success
			assert_output ok
		else
			assert_failure 1
			assert_output EACCES
		fi
	done
}

@test "TCGETS on /dev/ptmx with --rw /dev/ptmx: allowed at ABI 5+ (ioctl_dev granted)" {
	require_abi 5
	[ -c /dev/ptmx ] || skip "no /dev/ptmx"
	run "$LR" --ro / --rw /dev/ptmx -- "$TRYOP" ioctl-tcgets /dev/ptmx
	assert_success
	assert_output ok
}

@test "FIONREAD on /dev/null: the driver's ENOTTY at ABI 4, Landlock's EACCES at ABI 5" {
	require_abi 5
	run "$LR" --abi 4 --ro / -- "$TRYOP" ioctl-fionread /dev/null
	assert_output ENOTTY
	run "$LR" --abi 5 --ro / -- "$TRYOP" ioctl-fionread /dev/null
	assert_output EACCES
}

# --- --strict on runs -----------------------------------------------------------

@test "--strict refuses a run below ABI $FULL_ABI: 125, one line, the command never ran" {
	for n in $(abi_levels) ""; do
		(($(used_abi "$n") < FULL_ABI)) || continue
		run --separate-stderr "$LR" --strict ${n:+--abi "$n"} --rw . -- touch marker
		assert_failure 125
		assert_output ""
		assert_one_launcher_line
		[[ $stderr == *--strict*"ABI $FULL_ABI"* ]] ||
			fail "--abi $n: not naming --strict and ABI $FULL_ABI: $stderr"
		assert_file_not_exists marker
	done
}

@test "--strict runs the command from ABI $FULL_ABI on, with or without --abi" {
	require_abi "$FULL_ABI"
	for n in $(seq "$FULL_ABI" "$USED") ""; do
		run --separate-stderr "$LR" --strict ${n:+--abi "$n"} --rw . -- touch "marker$n"
		assert_success
		assert_equal "$stderr" ""
		assert_file_exists "marker$n"
	done
}

@test "without --strict a run below ABI $FULL_ABI is best effort and silent" {
	for n in $(abi_levels); do
		(($(used_abi "$n") < FULL_ABI)) || continue
		run --separate-stderr "$LR" --abi "$n" --rw . -- touch "marker$n"
		assert_success
		assert_equal "$stderr" ""
		assert_file_exists "marker$n"
	done
	# and still confined: writes outside the grant are denied at ABI 1
	run "$LR" --abi 1 --rw a -- touch out/new
	assert_failure
	assert_file_not_exists out/new
}

@test "--abi $(abi_max) runs at the kernel's ABI when that is older: truncate still denied" {
	require_abi 3
	run "$LR" --abi "$(abi_max)" --rw a -- "$TRYOP" truncate out/file
	assert_output EACCES
	assert_equal "$(stat -c %s out/file)" 6
}

@test "--abi rejects 0, negatives, words and empty: 125 naming --abi" {
	for v in 0 -1 abc '' 3x 0x5 ' 5' "$(($(abi_max) + 1))" 99; do
		run --separate-stderr "$LR" --abi "$v" -- touch marker
		assert_failure 125
		assert_one_launcher_line
		[[ $stderr == *--abi* ]] || fail "--abi '$v': not naming --abi: $stderr"
		assert_file_not_exists marker
	done
}

# --- -v / --verbose -----------------------------------------------------------

# grant_line OPTION PATH RIGHTS: the -v line for a grant: what was written,
# what it resolved to (symlinks followed), the rights it got.
grant_line() {
	echo "landlock-run grant: $1 $2 -> $(realpath "$2"): $3"
}

# assert_only_policy_lines: stderr holds only -v lines, no failure line.
assert_only_policy_lines() {
	local line
	while IFS= read -r line; do
		[[ $line == "landlock-run policy: "* || $line == "landlock-run grant: "* ||
			$line == "landlock-run filter: "* ]] ||
			fail "not a -v line: '$line' in: $stderr"
	done <<<"$stderr"
}

@test "-v: the policy, then one line per grant in command-line order, then the command runs" {
	run --separate-stderr "$LR" -v --ro / --rw a -- sh -c 'echo ran; exit 3'
	assert_failure 3
	assert_output ran
	assert_only_policy_lines
	local -a err
	mapfile -t err <<<"$stderr"
	# as root, a write grant on a directory brings the refusal of shared
	# mappings of files (tests/setuid.bats), said after the grants
	assert_equal "${#err[@]}" "$((19 + ($(id -u) == 0)))"
	assert_equal "${err[0]}" "landlock-run policy: abi=$KABI"
	assert_equal "${err[1]}" "landlock-run policy: abi_used=$USED"
	assert_equal "${err[2]}" "landlock-run policy: errata=$KERRATA"
	assert_equal "${err[3]}" "landlock-run policy: fs_handled=$FS_ALL"
	assert_equal "${err[4]}" "landlock-run policy: fs_missing=$(rights_missing fs "$USED")"
	assert_equal "${err[5]}" "landlock-run policy: fs_confined=$FS_ALL"
	assert_equal "${err[6]}" "landlock-run policy: fs_unrestricted="
	assert_equal "${err[7]}" "landlock-run policy: tcp_bind=any"
	assert_equal "${err[8]}" "landlock-run policy: tcp_connect=any"
	assert_equal "${err[9]}" "landlock-run policy: udp_bind=any"
	assert_equal "${err[10]}" "landlock-run policy: udp_connect=any"
	assert_equal "${err[11]}" "landlock-run policy: network_confined=nothing"
	assert_equal "${err[12]}" "landlock-run policy: network=none"
	assert_equal "${err[13]}" "landlock-run policy: baseline=$(baseline_groups)"
	assert_equal "${err[14]}" "landlock-run policy: no_unix=no"
	assert_equal "${err[15]}" "landlock-run policy: scopes="
	assert_equal "${err[16]}" "landlock-run policy: log="
	assert_equal "${err[17]}" "$(grant_line --ro / execute,read_file,read_dir)"
	assert_equal "${err[18]}" "$(grant_line --rw a "$FS_ALL")"
	[ "$(id -u)" != 0 ] || assert_equal "${err[19]}" "landlock-run filter: mmap MAP_SHARED of a file refused (ENODEV): root's command can write through --rw a, where a setuid file would keep its bit; --allow-syscalls metadata allows it"
}

@test "--verbose is -v" {
	run --separate-stderr "$LR" --verbose --rw a -- true
	assert_success
	assert_only_policy_lines
	assert_equal "$(grep -c '^landlock-run grant: ' <<<"$stderr")" 1
	[[ $stderr == "landlock-run policy: abi="* ]] || fail "$stderr"
}

@test "-v at each --abi without --ro: handled, confined, missing and unrestricted rights" {
	local n
	for n in $(abi_levels); do
		run --separate-stderr "$LR" -v --abi "$n" --rw a -- true
		assert_success
		assert_only_policy_lines
		local confined
		confined=$(rights fs "$n" | sed 's/^execute,//; s/,read_file,read_dir,/,/')
		grep -Fxq "landlock-run policy: abi=$KABI" <<<"$stderr" || fail "abi $n: $stderr"
		grep -Fxq "landlock-run policy: abi_used=$n" <<<"$stderr" || fail "abi $n: $stderr"
		grep -Fxq "landlock-run policy: errata=$KERRATA" <<<"$stderr" || fail "abi $n: $stderr"
		grep -Fxq "landlock-run policy: fs_handled=$(rights fs "$n")" <<<"$stderr" ||
			fail "abi $n: $stderr"
		grep -Fxq "landlock-run policy: fs_confined=$confined" <<<"$stderr" || fail "abi $n: $stderr"
		grep -Fxq "landlock-run policy: fs_missing=$(rights_missing fs "$n")" <<<"$stderr" ||
			fail "abi $n: $stderr"
		grep -Fxq "landlock-run policy: fs_unrestricted=execute,read_file,read_dir" <<<"$stderr" ||
			fail "abi $n: $stderr"
		grep -Fxq "$(grant_line --rw a "$confined")" <<<"$stderr" || fail "abi $n: $stderr"
	done
}

@test "-v: the same directory twice and a symlink to it: one line each, the kernel unions the rules" {
	ln -s a link
	run --separate-stderr "$LR" -v --ro / --ro a --ro "$PWD/a/" --rw link -- true
	assert_success
	assert_only_policy_lines
	local -a grants
	mapfile -t grants < <(grep '^landlock-run grant: ' <<<"$stderr")
	assert_equal "${#grants[@]}" 4
	assert_equal "${grants[1]}" "$(grant_line --ro a execute,read_file,read_dir)"
	assert_equal "${grants[2]}" "landlock-run grant: --ro $PWD/a/ -> $PWD/a: execute,read_file,read_dir"
	assert_equal "${grants[3]}" "$(grant_line --rw link "$FS_ALL")"
	# the union is what the command gets: writing beneath a works
	run "$LR" --ro / --ro a --rw link -- touch a/new
	assert_success
	assert_file_exists a/new
}

@test "-v: read-only duplicates stay read-only" {
	ln -s a link
	run --separate-stderr "$LR" -v --ro / --ro a --ro link -- true
	assert_success
	grep -Fxq "$(grant_line --ro link execute,read_file,read_dir)" <<<"$stderr" || fail "$stderr"
	run "$LR" --ro / --ro a --ro link -- touch a/new
	assert_failure
	assert_file_not_exists a/new
}

@test "-v: a file grant lists only file rights" {
	run --separate-stderr "$LR" -v --ro / --rw out/file --ro a/file -- true
	assert_success
	assert_only_policy_lines
	grep -Fxq "$(grant_line --rw out/file execute,write_file,read_file,truncate,ioctl_dev)" <<<"$stderr" ||
		fail "$stderr"
	grep -Fxq "$(grant_line --ro a/file execute,read_file)" <<<"$stderr" || fail "$stderr"
	run --separate-stderr "$LR" -v --abi 2 --rw out/file -- true
	grep -Fxq "$(grant_line --rw out/file write_file)" <<<"$stderr" || fail "$stderr"
}

@test "-v: a skipped --ro-try path says so, in its place on the line" {
	run --separate-stderr "$LR" -v --ro / --ro-try "$PWD/missing" --rw a -- true
	assert_success
	assert_only_policy_lines
	local -a grants
	mapfile -t grants < <(grep '^landlock-run grant: ' <<<"$stderr")
	assert_equal "${#grants[@]}" 3
	assert_equal "${grants[1]}" "landlock-run grant: --ro-try $PWD/missing: skipped, it does not exist"
	assert_equal "${grants[2]}" "$(grant_line --rw a "$FS_ALL")"
}

@test "-v: control bytes in a grant path are escaped as in the error line" {
	local evil
	evil=$'a/x\nlandlock-run: forged\e[31m'
	mkdir -p "$evil"
	run --separate-stderr "$LR" -v --ro / --ro "$evil" -- true
	assert_success
	assert_only_policy_lines
	grep -Fxq "landlock-run grant: --ro a/x?landlock-run: forged?[31m -> $PWD/a/x?landlock-run: forged?[31m: execute,read_file,read_dir" <<<"$stderr" ||
		fail "$stderr"
}
