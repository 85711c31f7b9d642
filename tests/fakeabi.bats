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
	local used=$(($1 < $(abi_max) ? $1 : $(abi_max)))
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" --probe
	assert_success
	assert_equal "$stderr" ""
	assert_output "$(verdict_at "$used")"
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" --probe -v
	assert_success
	refute_launcher_line
	assert_output "$(probe_report "$1" "$used" "$KERRATA" "" seccomp_filter)"
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

# ABIs this kernel has: the fake one is enforced in full.
@test "ABI 1 to $KABI: probe report and the ruleset of a run" {
	local n
	for ((n = 1; n <= KABI && n <= $(abi_max); n++)); do
		check_probe "$n"
		check_run_policy "$n"
	done
}

# ABIs newer than this kernel's: the launcher asks for what they have (the
# plan, in -v) and the real kernel enforces what it has of that; the probe,
# which proves each right it reports, must refuse such a kernel as soon as it
# claims a right that goes unenforced. Their real effects are proven in the
# kernel matrix's sid guests (Linux 7.2, ABI 10).
@test "ABI $((KABI + 1)) to $(abi_max), newer than this kernel: the plan, and a probe that does not believe" {
	local n
	for ((n = KABI + 1; n <= $(abi_max); n++)); do
		check_run_policy "$n"
		if ((n < $(right_abi resolve_unix))); then
			check_probe "$n"
		else
			run --separate-stderr "$FAKEABI" "$n" -- "$LR" --probe
			assert_failure 125
			assert_output ""
			assert_equal "$stderr" "landlock-run: self-test: resolve_unix was not denied: the kernel does not enforce Landlock"
		fi
	done
	echo "# ABI $((KABI + 1))-$(abi_max) as the kernel's own: proven in the kernel matrix's sid guests" >&3
}

# in_private_mounts SCRIPT: run the sh SCRIPT in a mount namespace of its own.
in_private_mounts() {
	unshare --mount true 2>/dev/null || skip "no mount namespace here (unshare --mount)"
	run --separate-stderr unshare --mount sh -c "$1"
}

@test "ABI 9: the probe's socket goes to /dev/shm without a writable /tmp, and no socket at all is a refusal" {
	# The tree may itself sit under /tmp (a CI clone): inside the namespace
	# it is seen at /mnt too, bound before /tmp is covered.
	local repo fakeabi lr bind probe
	repo=$(realpath "$BATS_TEST_DIRNAME/..")
	fakeabi=$(realpath "$(dirname "$FAKEABI")")/$(basename "$FAKEABI") lr=$(realpath "$LR")
	bind="mount --bind '$repo' /mnt"
	probe="'/mnt${fakeabi#"$repo"}' 9 -- '/mnt${lr#"$repo"}' --probe"
	# /tmp read-only: the check still runs, from /dev/shm, and catches this kernel
	in_private_mounts "$bind && mount -t tmpfs -o ro none /tmp && $probe"
	assert_failure 125
	assert_equal "$stderr" "landlock-run: self-test: resolve_unix was not denied: the kernel does not enforce Landlock"
	# neither writable: a probe that cannot prove a right it would report refuses
	in_private_mounts "$bind && mount -t tmpfs -o ro none /tmp && mount -t tmpfs -o ro none /dev/shm && $probe"
	assert_failure 125
	assert_output ""
	assert_equal "$stderr" "landlock-run: self-test: cannot make a directory for a pathname UNIX socket in /tmp or /dev/shm: Read-only file system"
	# and it leaves nothing behind
	assert_equal "$(find /tmp /dev/shm -maxdepth 1 -name 'landlock-run-probe.*' | wc -l)" 0
}

@test "ABI 9: --unix and --rw grants carry resolve_unix; --ro does not" {
	run --separate-stderr "$FAKEABI" 9 -- "$LR" -v --ro / --unix "$OUT" --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_file_exists "$MARKER"
	assert_stderr_line "landlock-run grant: --ro / -> /: execute,read_file,read_dir"
	assert_stderr_line "landlock-run grant: --unix $OUT -> $OUT: resolve_unix"
	assert_stderr_line "landlock-run grant: --rw $OUT -> $OUT: $(rights fs 9)"
	run --separate-stderr "$FAKEABI" 9 -- "$LR" -v --rw /dev/null -- true
	assert_stderr_line "landlock-run grant: --rw /dev/null -> /dev/null: write_file,truncate,ioctl_dev,resolve_unix"
	# ABI 8 has no resolve_unix: --unix is accepted and adds nothing
	run --separate-stderr "$FAKEABI" 8 -- "$LR" -v --unix "$OUT" -- true
	assert_success
	assert_stderr_line "landlock-run grant: --unix $OUT -> $OUT: none"
}

# A kernel newer than the launcher is used at the launcher's known level.
@test "ABI $(($(abi_max) + 1)) (newer than the launcher) is reported abi=$(($(abi_max) + 1)) abi_used=$(abi_max)" {
	local newer=$(($(abi_max) + 1))
	run --separate-stderr "$FAKEABI" "$newer" -- "$LR" -v -- true
	assert_success
	assert_stderr_line "landlock-run policy: abi=$newer"
	assert_stderr_line "landlock-run policy: abi_used=$(abi_max)"
	run --separate-stderr "$FAKEABI" "$newer" -- "$LR" --probe --json --abi "$KABI"
	assert_success
	assert_output --regexp "^\{\"abi\":$newer,\"abi_used\":$KABI,\"errata\":[0-9]+,\"enforcement\":\"partial\","
}

@test "--abi lowers a fake ABI, never raises it" {
	run --separate-stderr "$FAKEABI" 10 -- "$LR" --probe -v --abi 3
	assert_success
	assert_line --index 1 "abi=10"
	assert_line --index 2 "abi_used=3"
	run --separate-stderr "$FAKEABI" 3 -- "$LR" --probe -v --abi 5
	assert_success
	assert_line --index 1 "abi=3"
	assert_line --index 2 "abi_used=3"
}

@test "--probe --json at ABI 2 says partial and lists what is missing" {
	run --separate-stderr "$FAKEABI" 2 --errata 12 -- "$LR" --probe --json
	assert_success
	assert_output "{\"abi\":2,\"abi_used\":2,\"errata\":12,\"enforcement\":\"partial\",\"fs\":\"partial\",\"fs_handled\":[\"${ABI1//,/\",\"}\",\"refer\"],\"fs_missing\":[\"truncate\",\"ioctl_dev\",\"resolve_unix\"],\"pathname_sockets\":false,\"tcp\":false,\"udp\":false,\"scopes\":[],\"log_flags\":false,\"unused\":[],\"proven\":[\"read_dir\",\"read_file\",\"write_file\"],\"unprovable\":[],\"tty_injection\":\"refused\",\"network_confined\":\"nothing\",\"network\":\"none\",\"baseline\":[\"$(baseline_groups | sed 's/,/\",\"/g')\"],\"no_unix\":false,\"explain\":true,\"where\":[\"seccomp_filter\"],\"self_test\":\"passed\"}"
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

# --strict: full filesystem enforcement needs every filesystem right the
# launcher knows (ABI $FULL_ABI, resolve_unix).
strict_refuses() {
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" --probe -v --strict
	assert_equal "$status" 125
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	assert_regex "${stderr_lines[0]}" \
		"^landlock-run: --strict.* needs Landlock ABI $FULL_ABI, but this kernel has ABI $1\$"
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" --strict --rw "$OUT" "${RAN[@]}"
	assert_equal "$status" 125
	assert_equal "${#stderr_lines[@]}" 1
	assert_file_not_exists "$MARKER"
}

# A run at a fake ABI newer than this kernel's is accepted (the plan is for
# that ABI); whether the kernel enforces it is the probe's question.
strict_accepts() {
	run --separate-stderr "$FAKEABI" "$1" -- "$LR" --strict --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_equal "$stderr" ""
	assert_file_exists "$MARKER"
}

@test "--strict refuses ABI 1 to $((FULL_ABI - 1)) and accepts ABI $FULL_ABI and every newer one the launcher knows" {
	local n
	for ((n = 1; n <= $(abi_max); n++)); do
		if ((n < FULL_ABI)); then strict_refuses "$n"; else strict_accepts "$n"; fi
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
	if ((abi <= KABI)); then
		run --separate-stderr "$FAKEABI" "$abi" -- "$LR" --probe -v "$@"
		assert_success
		assert_line "self_test=passed"
	else # accepted; what the kernel does with it is proven in the sid guests
		run --separate-stderr "$FAKEABI" "$abi" -- "$LR" "$@" --rw "$OUT" "${RAN[@]}"
		assert_success
		assert_file_exists "$MARKER"
	fi
}

@test "--tcp-connect needs ABI 4" { feature_needs 4 --tcp-connect 443; }
@test "--tcp-bind needs ABI 4" { feature_needs 4 --tcp-bind none; }
@test "--scope signal needs ABI 6" { feature_needs 6 --scope signal; }
@test "--no-log needs ABI 7" { feature_needs 7 --no-log; }
@test "--udp-bind needs ABI 10" { feature_needs 10 --udp-bind 0; }
@test "--udp-connect needs ABI 10" { feature_needs 10 --udp-connect 53,5353-5355; }
@test "--no-udp needs ABI 10" { feature_needs 10 --no-udp; }

@test "ABI 10: -v shows the UDP ports a run allows, ranges folded" {
	run --separate-stderr "$FAKEABI" 10 -- "$LR" -v --udp-bind 0 --udp-connect 5353-5355,53 \
		--udp-connect 5356 -- true
	assert_success
	assert_stderr_line "landlock-run policy: udp_bind=0"
	assert_stderr_line "landlock-run policy: udp_connect=53,5353-5356"
	run --separate-stderr "$FAKEABI" 10 -- "$LR" -v --no-udp -- true
	assert_stderr_line "landlock-run policy: udp_bind=none"
	assert_stderr_line "landlock-run policy: udp_connect=none"
	assert_stderr_line "landlock-run policy: tcp_bind=any"
}
