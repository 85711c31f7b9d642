#!/usr/bin/env bats
# IPC scopes (issue 4, Landlock ABI 6) with real processes: signals to a
# process this test started outside the sandbox, and connects to an abstract
# UNIX socket listener outside it; both sides of each pair, usage errors,
# ABI refusals, the probe and -v.
load helpers

setup_file() {
	require_helpers
	# Listeners outside any sandbox: abstract (@name) and pathname.
	ABSTRACT=@landlock-run-scope-test-$$
	SOCK=$BATS_FILE_TMPDIR/sock
	start_server "$BATS_FILE_TMPDIR/abstract.out" 1 ulisten "$ABSTRACT"
	start_server "$BATS_FILE_TMPDIR/path.out" 1 ulisten "$SOCK"
	export ABSTRACT SOCK
}

teardown_file() {
	stop_servers
}

setup() {
	require_landlock
	require_abi 6
	cd "$BATS_TEST_TMPDIR" || return
	# The signal target: a process outside the sandbox.
	sleep 60 3>&- &
	TARGET=$!
}

teardown() {
	kill "$TARGET" 2>/dev/null || true
	wait "$TARGET" 2>/dev/null || true
}

# outcome EXPECTED ARGS...: the launcher runs ARGS; tryop printed EXPECTED.
outcome() {
	local want=$1
	shift
	run "$LR" "$@"
	assert_output "$want"
	if [ "$want" = ok ]; then assert_success; else assert_failure 1; fi
}

assert_target_alive() {
	kill -0 "$TARGET" || fail "the target $TARGET is gone"
	[ "$(ps -o stat= -p "$TARGET" | cut -c1)" != Z ] || fail "the target $TARGET was killed"
}

@test "default: signals and abstract sockets outside are reachable" {
	outcome ok -- "$TRYOP" kill "$TARGET" 0
	outcome ok -- "$TRYOP" uconnect "$ABSTRACT"
	outcome ok --ro / --rw . -- "$TRYOP" uconnect "$ABSTRACT"
	# the default really signals: TERM from the sandbox ends the target
	outcome ok --ro / -- "$TRYOP" kill "$TARGET" 15
	local rc=0
	wait "$TARGET" || rc=$?
	assert_equal "$rc" 143
}

@test "--scope signal: kill -0 and kill -TERM of a process outside are EPERM; it survives" {
	outcome EPERM --scope signal -- "$TRYOP" kill "$TARGET" 0
	outcome EPERM --scope signal -- "$TRYOP" kill "$TARGET" 15
	outcome EPERM --scope signal -- "$TRYOP" kill "$TARGET" 9
	sleep 0.1
	assert_target_alive
	# the shell's own kill builtin sees the same
	run "$LR" --scope signal -- bash -c 'kill -TERM "$1"' _ "$TARGET"
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_target_alive
}

@test "--scope signal: the command can still signal its own children" {
	run "$LR" --scope signal -- bash -c 'sleep 30 & kill -TERM $!; wait $!; echo "status $?"'
	assert_success
	assert_output "status 143"
}

@test "--scope signal is one-way: the test can still signal the sandboxed command" {
	"$LR" --scope signal -- sleep 30 3>&- &
	local pid=$! rc=0
	sleep 0.2
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	assert_equal "$rc" 143
}

@test "--scope signal leaves abstract sockets alone" {
	outcome ok --scope signal -- "$TRYOP" uconnect "$ABSTRACT"
}

@test "--scope abstract-unix: connect to an abstract listener outside is EPERM" {
	outcome EPERM --scope abstract-unix -- "$TRYOP" uconnect "$ABSTRACT"
	# the control: the listener answers outside the sandbox
	run "$TRYOP" uconnect "$ABSTRACT"
	assert_output ok
}

@test "--scope abstract-unix: a listener created inside the sandbox is reachable inside" {
	outcome ok --scope abstract-unix -- "$TRYOP" uself
	# and from another process of the same sandbox
	run "$LR" --scope abstract-unix -- bash -c '
		coproc "$1" ulisten "$2"
		read -r ready <&"${COPROC[0]}"
		"$1" uconnect "$2"; rc=$?
		kill "$COPROC_PID"
		exit $rc' _ "$TRYOP" "$ABSTRACT-inside"
	assert_success
	assert_output ok
}

@test "--scope abstract-unix leaves signals alone" {
	outcome ok --scope abstract-unix -- "$TRYOP" kill "$TARGET" 0
}

@test "limit: scopes do not cover pathname UNIX sockets; the filesystem rules do from ABI $(right_abi resolve_unix)" {
	local want=ok
	((KABI < $(right_abi resolve_unix))) || want=EACCES
	# below ABI 9 the connect works whatever the policy; from ABI 9 it is the
	# filesystem rules (resolve_unix, tests/unix.bats) that deny it, not a scope
	outcome "$want" --scope abstract-unix,signal -- "$TRYOP" uconnect "$SOCK"
	outcome "$want" --ro / --scope abstract-unix,signal -- "$TRYOP" uconnect "$SOCK"
}

@test "comma list and repeated --scope: both kinds enforced" {
	local args
	for args in "--scope signal,abstract-unix" "--scope abstract-unix,signal" \
		"--scope signal --scope abstract-unix" "--scope=abstract-unix --scope=signal"; do
		# shellcheck disable=SC2086 # the options
		outcome EPERM $args -- "$TRYOP" kill "$TARGET" 0
		# shellcheck disable=SC2086
		outcome EPERM $args -- "$TRYOP" uconnect "$ABSTRACT"
	done
	assert_target_alive
}

@test "unknown scope kinds are usage errors: 125 naming --scope, nothing runs" {
	local v
	for v in foo 'signal,foo' '' 'signal,' ',signal' Signal abstract_unix 'signal abstract-unix' 'signal,,abstract-unix'; do
		run --separate-stderr "$LR" --scope "$v" -- touch marker
		assert_failure 125
		assert_output ""
		assert_one_launcher_line
		[[ $stderr == *--scope* ]] || fail "--scope '$v': not naming --scope: $stderr"
		assert_file_not_exists marker
	done
	run --separate-stderr "$LR" --scope= -- touch marker
	assert_failure 125
	assert_one_launcher_line
	assert_file_not_exists marker
}

@test "--abi 5 refuses each scope: 125 naming --scope and ABI 6, nothing runs" {
	local kind
	for kind in signal abstract-unix signal,abstract-unix; do
		run --separate-stderr "$LR" --abi 5 --scope "$kind" -- touch marker
		assert_failure 125
		assert_output ""
		assert_one_launcher_line
		[[ $stderr == *--scope*"ABI 6"* ]] || fail "--scope $kind: $stderr"
		assert_file_not_exists marker
	done
	run --separate-stderr "$LR" --probe -v --abi 5 --scope signal
	assert_failure 125
	assert_output ""
	assert_one_launcher_line
}

@test "--abi 6 enforces scopes" {
	outcome EPERM --abi 6 --scope signal -- "$TRYOP" kill "$TARGET" 0
	outcome EPERM --abi 6 --scope abstract-unix -- "$TRYOP" uconnect "$ABSTRACT"
	assert_target_alive
}

@test "probe --scope proves signal and abstract-unix" {
	run --separate-stderr "$LR" --probe -v --scope signal
	assert_success
	assert_line "proven=$(proven_at "$KUSED"),signal"
	run --separate-stderr "$LR" --probe -v --scope abstract-unix
	assert_success
	assert_line "proven=$(proven_at "$KUSED"),abstract-unix"
	run --separate-stderr "$LR" --probe -v --scope abstract-unix,signal
	assert_success
	assert_line "scopes=abstract-unix,signal"
	assert_line "proven=$(proven_at "$KUSED"),signal,abstract-unix"
	run --separate-stderr "$LR" --probe --json --scope signal --no-tcp
	assert_success
	assert_output --partial "\"proven\":[\"$(proven_at "$KUSED" | sed 's/,/","/g')\",\"tcp_bind\",\"tcp_connect\",\"signal\"]"
}

@test "-v shows the scopes" {
	run --separate-stderr "$LR" -v --scope signal -- true
	assert_success
	grep -Fxq "landlock-run policy: scopes=signal" <<<"$stderr" || fail "$stderr"
	run --separate-stderr "$LR" -v --scope signal --scope abstract-unix -- true
	grep -Fxq "landlock-run policy: scopes=abstract-unix,signal" <<<"$stderr" || fail "$stderr"
	run --separate-stderr "$LR" -v -- true
	grep -Fxq "landlock-run policy: scopes=" <<<"$stderr" || fail "$stderr"
}
