#!/usr/bin/env bats
# Pathname UNIX sockets (issue 11, Landlock ABI 9, resolve_unix): connecting to a
# socket made outside the sandbox is denied by default like a write, --unix PATH
# and --rw PATH allow it, --ro does not; below ABI 9 nothing changes and --unix is
# harmless. Real listeners this file starts outside any sandbox, both sides of each
# pair. On a kernel before ABI 9 the denials are proven by the kernel matrix's sid
# guests (tests/guest/confine.sh), and the tests that need them say so.
load helpers

setup_file() {
	require_helpers
	mkdir "$BATS_FILE_TMPDIR/outside" "$BATS_FILE_TMPDIR/other"
	SOCK=$BATS_FILE_TMPDIR/outside/sock
	OTHER=$BATS_FILE_TMPDIR/other/sock
	start_server "$BATS_FILE_TMPDIR/sock.out" 1 ulisten "$SOCK"
	start_server "$BATS_FILE_TMPDIR/other.out" 1 ulisten "$OTHER"
	export SOCK OTHER
}

teardown_file() {
	stop_servers
}

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
	RESOLVE_ABI=$(right_abi resolve_unix)
}

# connects EXPECTED ARGS...: the launcher runs ARGS (ending in a tryop uconnect)
# and tryop printed EXPECTED; a denial also gets its control: the same connect
# without the launcher works.
connects() {
	local want=$1 target=${*: -1}
	shift
	run "$LR" "$@"
	assert_output "$want"
	if [ "$want" = ok ]; then
		assert_success
	else
		assert_failure 1
		run "$TRYOP" uconnect "$target"
		assert_output ok
	fi
}

@test "below ABI $RESOLVE_ABI a socket outside is reachable whatever the policy, and --unix is harmless" {
	local n
	for ((n = 1; n <= KABI && n < RESOLVE_ABI; n++)); do
		connects ok --abi "$n" -- "$TRYOP" uconnect "$SOCK"
		connects ok --abi "$n" --ro / -- "$TRYOP" uconnect "$SOCK"
		connects ok --abi "$n" --ro / --unix "$SOCK" -- "$TRYOP" uconnect "$SOCK"
		run --separate-stderr "$LR" -v --abi "$n" --unix "$SOCK" -- true
		assert_success
		grep -Fxq "landlock-run grant: --unix $SOCK -> $SOCK: none" <<<"$stderr" || fail "$stderr"
	done
}

@test "--unix: a path that does not exist is 125 naming --unix and the path; nothing runs" {
	run --separate-stderr "$LR" --unix "$PWD/missing" -- touch marker
	assert_failure 125
	assert_output ""
	assert_one_launcher_line
	assert_equal "$stderr" "landlock-run: cannot open --unix path $PWD/missing: No such file or directory"
	assert_file_not_exists marker
}

@test "--unix does not confine reading and grants no write" {
	echo data >file
	run "$LR" --unix "$SOCK" -- cat file
	assert_success
	assert_output data
	run "$LR" --unix "$PWD" -- sh -c 'echo x >new'
	assert_failure
	assert_file_not_exists new
}

# ---- ABI 9 and later: the kernel confines connect(2) to pathname sockets ----

@test "default: a connect to a socket made outside is EACCES, with or without --ro" {
	require_abi "$RESOLVE_ABI"
	connects EACCES -- "$TRYOP" uconnect "$SOCK"
	connects EACCES --ro / -- "$TRYOP" uconnect "$SOCK"
	connects EACCES --ro / --rw "$PWD" -- "$TRYOP" uconnect "$SOCK"
}

@test "--unix SOCKET allows that socket only" {
	require_abi "$RESOLVE_ABI"
	connects ok --ro / --unix "$SOCK" -- "$TRYOP" uconnect "$SOCK"
	connects EACCES --ro / --unix "$SOCK" -- "$TRYOP" uconnect "$OTHER"
	connects ok --unix="$SOCK" -- "$TRYOP" uconnect "$SOCK"
}

@test "--unix DIR allows the sockets beneath DIR" {
	require_abi "$RESOLVE_ABI"
	connects ok --unix "$(dirname "$SOCK")" -- "$TRYOP" uconnect "$SOCK"
	connects EACCES --unix "$(dirname "$SOCK")" -- "$TRYOP" uconnect "$OTHER"
}

@test "--rw DIR includes connecting beneath DIR; --ro DIR does not" {
	require_abi "$RESOLVE_ABI"
	connects ok --rw "$(dirname "$SOCK")" -- "$TRYOP" uconnect "$SOCK"
	connects EACCES --ro / --ro "$(dirname "$SOCK")" -- "$TRYOP" uconnect "$SOCK"
}

@test "a socket the sandboxed command makes itself stays reachable" {
	require_abi "$RESOLVE_ABI"
	run "$LR" --rw "$PWD" -- "$TRYOP" uself-path "$PWD/inside"
	assert_success
	assert_output ok
}

@test "--abi $((RESOLVE_ABI - 1)) leaves pathname sockets unconfined on an ABI $RESOLVE_ABI+ kernel" {
	require_abi "$RESOLVE_ABI"
	connects ok --abi "$((RESOLVE_ABI - 1))" --ro / -- "$TRYOP" uconnect "$SOCK"
	connects EACCES --abi "$RESOLVE_ABI" --ro / -- "$TRYOP" uconnect "$SOCK"
}

@test "probe: proves resolve_unix with a socket of its own and leaves nothing in /tmp" {
	require_abi "$RESOLVE_ABI"
	local before
	before=$(find /tmp -maxdepth 1 -name 'landlock-run-probe.*' | wc -l)
	run --separate-stderr "$LR" --probe
	assert_success
	assert_line "pathname_sockets=yes"
	assert_line --regexp '^proven=(.*,)?resolve_unix(,.*)?$'
	assert_equal "$(find /tmp -maxdepth 1 -name 'landlock-run-probe.*' | wc -l)" "$before"
}
