#!/usr/bin/env bats
# The aarch64 launcher under qemu-user (issue 5). qemu-aarch64-static does not implement
# the Landlock system calls (it answers ENOSYS), which makes it a real "kernel without
# Landlock" for the arm64 binary: it must still print --version, and must fail closed
# (125, one `landlock-run: ` line) for --probe and for a run, whose command never runs.
# A command exec'd from inside qemu-user runs natively, so a launcher that wrongly went on
# would really create the marker file.
load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	local root=$BATS_TEST_DIRNAME/..
	. "$root/scripts/lib.sh"
	make -s -C "$root" ARCH=aarch64 >&2
	local env=$root/platform/linux-arm64.env
	ARM64=$root/build/aarch64/landlock-run
	NATIVE=$root/build/$(uname -m)/landlock-run
	VERSION_WANT="landlock-run $(cat "$root/VERSION")"
	QEMU=$(platform_var "$env" QEMU_USER)
	export ARM64 NATIVE VERSION_WANT QEMU
	command -v "$QEMU" >/dev/null || need_packages qemu-user-static
	# the premise, checked without the launcher: syscall 444 under this qemu is ENOSYS
	printf '%s\n' '#define _GNU_SOURCE' '#include <errno.h>' '#include <stdio.h>' \
		'#include <unistd.h>' \
		'int main(void) { long r = syscall(444, 0, 0, 1); printf("%ld %d\n", r, r < 0 ? errno : 0); return 0; }' \
		>"$BATS_FILE_TMPDIR/abi.c"
	local spec
	spec=$(platform_var "$env" SPECS)
	"$(platform_var "$env" CC)" ${spec:+-specs "$spec"} -static -o "$BATS_FILE_TMPDIR/abi-arm64" \
		"$BATS_FILE_TMPDIR/abi.c"
	export ABI_ARM64=$BATS_FILE_TMPDIR/abi-arm64
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	mkdir work
}

@test "the arm64 build is a static aarch64 ELF (machine 183)" {
	run od -An -t u2 -j 18 -N 2 "$ARM64"
	assert_success
	assert_equal "${output//[[:space:]]/}" 183
	run readelf -lW "$ARM64"
	assert_success
	refute_output --partial INTERP
	refute_output --partial DYNAMIC
}

@test "premise: under qemu-user the Landlock syscalls answer ENOSYS" {
	run "$QEMU" "$ABI_ARM64"
	assert_success
	assert_output "-1 38"
}

@test "arm64 --version works under qemu-user" {
	run --separate-stderr "$QEMU" "$ARM64" --version
	assert_success
	assert_output "$VERSION_WANT"
	assert_equal "$stderr" ""
}

@test "arm64 --probe exits 125 with one landlock-run: line (ENOSYS) and no stdout" {
	for json in "" --json; do
		run --separate-stderr "$QEMU" "$ARM64" --probe $json
		assert_equal "$status" 125
		assert_equal "$output" ""
		assert_one_launcher_line
		[[ $stderr == *"Function not implemented"* || $stderr == *ENOSYS* ]] ||
			fail "not the ENOSYS failure: $stderr"
	done
}

@test "arm64 run exits 125 and the command never runs" {
	# control: the same invocation through the native launcher on this kernel runs it
	run "$NATIVE" --rw "$PWD/work" -- sh -c 'touch "$0"' "$PWD/work/marker"
	assert_success
	assert_file_exists work/marker
	rm work/marker

	run --separate-stderr "$QEMU" "$ARM64" --rw "$PWD/work" -- sh -c 'touch "$0"' "$PWD/work/marker"
	assert_equal "$status" 125
	assert_one_launcher_line
	[[ $stderr == *"Function not implemented"* || $stderr == *ENOSYS* ]] ||
		fail "not the ENOSYS failure: $stderr"
	assert_file_not_exists work/marker
}

@test "arm64 run without any grant also exits 125 without running the command" {
	run --separate-stderr "$QEMU" "$ARM64" -- touch "$PWD/work/marker"
	assert_equal "$status" 125
	assert_one_launcher_line
	assert_file_not_exists work/marker
}
