# Shared by tests/*.bats: load the assertion libraries and find the launcher.
bats_load_library bats-support
bats_load_library bats-assert
bats_load_library bats-file

# The binary under test: scripts/sanitize.sh points LR_BIN at an ASan build.
LR=${LR_BIN:-$BATS_TEST_DIRNAME/../landlock-run}

# Landlock is a kernel feature: fail (not skip) when the kernel has it and
# skip only where it truly does not.
require_landlock() {
	local abi
	abi=$(kernel_abi)
	[ "$abi" -gt 0 ] 2>/dev/null && return 0
	skip "this kernel has no usable Landlock ($abi)"
}

# kernel_abi: the ABI the kernel reports, asked without the launcher, so a
# broken launcher cannot turn failures into skips.
kernel_abi() {
	local cache=${BATS_FILE_TMPDIR:-/tmp}/kernel-abi py=python3
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3 # a pyenv shim costs 150 ms a call
	if [ ! -s "$cache" ]; then
		"$py" -c 'import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(444, None, 0, 1)
print(r if r > 0 else os.strerror(ctypes.get_errno()))' >"$cache"
	fi
	cat "$cache"
}

# assert_one_launcher_line: stderr ($output with --separate-stderr: $stderr)
# holds exactly one line, and it starts with "landlock-run: ".
assert_one_launcher_line() {
	local err=${stderr-$output}
	[ "$(printf '%s\n' "$err" | grep -c '')" -eq 1 ] ||
		fail "expected exactly one stderr line, got: $err"
	[[ $err == "landlock-run: "* ]] || fail "expected a 'landlock-run: ' line, got: $err"
}
