#!/usr/bin/env bats
# The aarch64 launcher under qemu-user (issue 5). qemu-aarch64-static does not implement
# the Landlock system calls (it answers ENOSYS), which makes it a real "kernel without
# Landlock" for the arm64 binary: it must still print --version, and must fail closed
# (125, one `landlock-run: ` line) for --probe and for a run, whose command never runs.
# A command exec'd from inside qemu-user runs natively, so a launcher that wrongly went on
# would really create the marker file.
load helpers

setup_file() {
	local root=$BATS_TEST_DIRNAME/..
	. "$root/scripts/lib.sh"
	local env=$root/platform/linux-arm64.env
	# built by scripts/test.sh (make ARCH=aarch64, make ARCH=aarch64 test-helpers)
	make -s -q -C "$root" ARCH=aarch64 all test-helpers ||
		fail "the aarch64 launcher or tryop is missing or stale: run make ARCH=aarch64 all test-helpers"
	ARM64=$root/build/aarch64/landlock-run
	TRYOP_ARM64=$root/build/aarch64/tryop
	FILTERMODEL_ARM64=$root/build/aarch64/filtermodel
	NATIVE=$root/build/$(uname -m)/landlock-run
	VERSION_WANT="landlock-run $(cat "$root/VERSION")"
	QEMU=$(platform_var "$env" QEMU_USER)
	MACHINE=$(platform_var "$env" ELF_MACHINE)
	export ARM64 TRYOP_ARM64 FILTERMODEL_ARM64 NATIVE VERSION_WANT QEMU MACHINE
	command -v "$QEMU" >/dev/null || fail "$QEMU is missing: make setup installs it"
	require_helpers
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	mkdir work
}

@test "the arm64 build is a static aarch64 ELF (machine 183)" {
	run -0 "$TRYOP" elf "$ARM64"
	assert_output "class=64 endian=little type=exec machine=$MACHINE interp=no dynamic=no link=static"
}

# checked without the launcher: tryop asks landlock_create_ruleset directly
@test "premise: under qemu-user the Landlock syscalls answer ENOSYS" {
	run -1 "$QEMU" "$TRYOP_ARM64" abi
	assert_output ENOSYS
}

# seccomp.bats has the x86_64 one; this is the aarch64 table and builder
@test "the arm64 filter answers as its rule table reads, for every group set and ABI (filtermodel)" {
	run -0 "$QEMU" "$FILTERMODEL_ARM64"
	assert_output --regexp '^filtermodel: the filter answers as its table for [0-9]+ vectors, every group set traced or not, 2 ABIs .*, and [1-9][0-9]* prebuilt filters are the builder.s$'
}

@test "arm64 --version works under qemu-user" {
	run --separate-stderr "$QEMU" "$ARM64" --version
	assert_success
	assert_output "$VERSION_WANT"
	assert_equal "$stderr" ""
}

@test "arm64 --probe exits 125 with one landlock-run: line (ENOSYS) naming the kernel, and no stdout" {
	grep -qx 'Seccomp:[[:space:]]*0' /proc/self/status || skip "this shell runs under a seccomp filter"
	for json in "" --json; do
		run --separate-stderr "$QEMU" "$ARM64" --probe $json
		assert_equal "$status" 125
		assert_equal "$output" ""
		assert_one_launcher_line
		# no seccomp filter answered (this shell runs under none): the kernel's word,
		# the control for tests/where.bats's filter that answers ENOSYS
		assert_equal "$stderr" "landlock-run: Landlock is not supported by this kernel (it needs Linux 5.13 or later built with CONFIG_SECURITY_LANDLOCK): Function not implemented"
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
