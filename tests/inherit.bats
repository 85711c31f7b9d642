#!/usr/bin/env bats
# What the command inherits from the caller through the launcher: signal
# dispositions, and a stderr that may be closed or full. Each test has a
# control showing the effect is the launcher's.
load helpers

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR"
	m=$BATS_TEST_TMPDIR/ran
}

# Whatever a test started in the background and listed in ./pids ends here,
# by pid, even when the test failed half-way.
teardown() {
	local pid
	[ -f "$BATS_TEST_TMPDIR/pids" ] || return 0
	while read -r pid; do
		kill -KILL "$pid" 2>/dev/null || true
	done <"$BATS_TEST_TMPDIR/pids"
}

# wait_for_pid FILE: at most 5 s until FILE holds a pid, which teardown
# then ends as well.
wait_for_pid() {
	for _ in $(seq 100); do
		[ -s "$1" ] && cat "$1" >>pids && return 0
		sleep 0.05
	done
	fail "$1 was not written"
}

# ignored SIG: the command's SigIgn mask (/proc/self/status, bit SIG-1) has
# SIG set; the command is grep itself, exec'd by the launcher.
sigign_has() {
	local mask
	mask=$(sed -n 's/^SigIgn:\t*//p' <<<"$output")
	[ -n "$mask" ] || fail "no SigIgn line in: $output"
	(((0x$mask >> ($1 - 1)) & 1))
}

# stderr_without_reader: fd 4 is the write end of a pipe that has no reader,
# so a write to it fails with EPIPE (or kills with SIGPIPE).
stderr_without_reader() {
	mkfifo "$BATS_TEST_TMPDIR/pipe"
	exec 5<>"$BATS_TEST_TMPDIR/pipe" 4>"$BATS_TEST_TMPDIR/pipe" 5<&-
}

# with_stderr REDIRECTION CMD...: CMD with stderr redirected as sh reads
# REDIRECTION (">&4", ">/dev/full", ">&-"), inside run's own 2>&1.
with_stderr() {
	local to=$1
	shift
	sh -c "exec \"\$@\" 2$to" sh "$@"
}

@test "a stderr pipe without a reader neither kills the launcher nor stops the command" {
	stderr_without_reader
	# Control: a program that writes to it dies of SIGPIPE before it acts.
	run -141 with_stderr ">&4" env --default-signal=PIPE sh -c 'echo x >&2; touch "$0"' "$m"
	assert_not_exist "$m"
	run -0 with_stderr ">&4" env --default-signal=PIPE "$LR" -v --rw "$BATS_TEST_TMPDIR" -- touch "$m"
	assert_exist "$m"
	# A usage error still ends in 125, not in a death by SIGPIPE.
	run -125 with_stderr ">&4" env --default-signal=PIPE "$LR" --bogus -- true
}

@test "a full or closed stderr does not stop the command" {
	# Control: the launcher does write -v lines to stderr.
	run -0 --separate-stderr "$LR" -v --rw "$BATS_TEST_TMPDIR" -- true
	[[ $stderr == *"landlock-run policy: "* ]] || fail "no -v lines: $stderr"
	run -0 with_stderr ">/dev/full" "$LR" -v --rw "$BATS_TEST_TMPDIR" -- touch "$m"
	assert_exist "$m"
	rm "$m"
	run -0 with_stderr ">&-" "$LR" -v --rw "$BATS_TEST_TMPDIR" -- touch "$m"
	assert_exist "$m"
}

@test "the command gets the caller's SIGPIPE disposition, ignored or not" {
	run -0 env --ignore-signal=PIPE "$LR" -- grep SigIgn /proc/self/status
	sigign_has 13 || fail "SIGPIPE ignored by the caller is not ignored in the command: $output"
	run -0 env --default-signal=PIPE "$LR" -- grep SigIgn /proc/self/status
	! sigign_has 13 || fail "the launcher's own SIG_IGN for SIGPIPE leaked into the command"
	# With -v and a failed exec, too: the launcher restores it only for exec.
	stderr_without_reader
	run -127 with_stderr ">&4" env --default-signal=PIPE "$LR" -v -- /nonexistent
}

@test "the caller's SIGPIPE disposition reaches the command after the launcher writes: -v, --kill-tree, --status-fd" {
	local how opts
	# --status-fd writes its first line just before the exec: the disposition
	# is handed back after it, not before (it would be held again).
	for opts in "-v" "--kill-tree" "--kill-tree -v" "--status-fd 3"; do
		for how in default ignore; do
			# shellcheck disable=SC2086 # the options, split into words
			run -0 --separate-stderr bash -c 'exec 3> >(cat >/dev/null); exec env --$0-signal=PIPE "$@"' \
				"$how" "$LR" $opts -- grep SigIgn /proc/self/status
			if [ "$how" = ignore ]; then
				sigign_has 13 || fail "$opts: the caller's SIG_IGN did not reach the command: $output"
			else
				! sigign_has 13 || fail "$opts: the launcher's SIG_IGN leaked into the command: $output"
			fi
		done
	done
}

@test "the probe works when the caller ignores SIGCHLD, and the command keeps that disposition" {
	run -0 --separate-stderr env --ignore-signal=CHLD "$LR" --probe
	assert_output --regexp "^landlock: (fully|partially) enforced"
	run -0 env --ignore-signal=CHLD "$LR" -- grep SigIgn /proc/self/status
	sigign_has 17 || fail "SIGCHLD ignored by the caller is not ignored in the command: $output"
	run -0 "$LR" -- grep SigIgn /proc/self/status
	! sigign_has 17 || fail "SIGCHLD is ignored in the command though the caller did not: $output"
}

# caps: the Cap* lines of /proc/self/status in the command (grep, exec'd by
# the launcher), as "CapInh=... CapPrm=... CapEff=... CapBnd=... CapAmb=...".
caps() {
	sed -n 's/^\(Cap[A-Za-z]*\):\t*/\1=/p' <<<"$output" | tr '\n' ' '
}
NO_CAPS="CapInh=0000000000000000 CapPrm=0000000000000000 CapEff=0000000000000000 CapBnd=0000000000000000 CapAmb=0000000000000000 "

@test "root: the command has no capability at all, and --keep-caps keeps them" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	local caller
	run -0 grep Cap /proc/self/status
	caller=$(caps)
	[[ $caller == *"CapEff=0000000000000000"* ]] && fail "the caller has no capability: $caller"
	run -0 "$LR" -- grep Cap /proc/self/status
	assert_equal "$(caps)" "$NO_CAPS"
	run -0 "$LR" --ro / --rw /tmp -- grep Cap /proc/self/status
	assert_equal "$(caps)" "$NO_CAPS"
	# Positive control: --keep-caps passes the caller's sets through unchanged.
	run -0 "$LR" --keep-caps -- grep Cap /proc/self/status
	assert_equal "$(caps)" "$caller"
	# no_new_privs and Landlock still apply with --keep-caps.
	run -0 "$LR" --keep-caps -- grep NoNewPrivs /proc/self/status
	assert_output $'NoNewPrivs:\t1'
	run -1 "$LR" --keep-caps -- touch "$m"
	assert_not_exist "$m"
}

@test "root: without capabilities the command cannot chown (Landlock does not stop it; CAP_CHOWN would)" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	touch f
	run -1 --separate-stderr "$LR" --rw "$PWD" -- chown 65534 f
	[[ $stderr == *"Operation not permitted"* ]] || fail "$stderr"
	assert_equal "$(stat -c %u f)" 0
	# Control: with its capabilities the same command chowns.
	run -0 "$LR" --keep-caps --rw "$PWD" -- chown 65534 f
	assert_equal "$(stat -c %u f)" 65534
}

@test "an unprivileged caller sees no change in its capabilities" {
	local caller
	as_nobody
	run -0 "${AS_NOBODY[@]}" grep Cap /proc/self/status
	caller=$(caps)
	run -0 "${AS_NOBODY[@]}" "$LR" -- grep Cap /proc/self/status
	assert_equal "$(caps)" "$caller"
}

@test "a caller with ambient capabilities but no CAP_SETPCAP: the command gets none; the bounding set stays" {
	local as_ambient bounding
	as_nobody
	as_ambient=("${AS_NOBODY[@]}" --inh-caps=+net_bind_service --ambient-caps=+net_bind_service)
	run -0 "${as_ambient[@]}" grep Cap /proc/self/status
	[[ $(caps) == *"CapAmb=0000000000000400"* ]] || fail "setpriv gave no ambient capability: $(caps)"
	bounding=$(sed -n 's/^CapBnd:\t*//p' <<<"$output")
	run -0 "${as_ambient[@]}" "$LR" -- grep Cap /proc/self/status
	assert_equal "$(caps)" "${NO_CAPS/CapBnd=0000000000000000/CapBnd=$bounding}"
	# The ambient capability works without the launcher: bind a port below
	# ip_unprivileged_port_start as nobody.
	[ "$(cat /proc/sys/net/ipv4/ip_unprivileged_port_start)" -gt 1023 ] ||
		skip "every port is unprivileged on this host"
	run -0 "${as_ambient[@]}" "$TRYOP" bind 1023
	run -1 "${as_ambient[@]}" "$LR" -- "$TRYOP" bind 1023
	assert_output EACCES
}

# --- process hygiene: session, parent death, descriptors, environment --------

@test "--new-session: the command leads a new session, without a controlling terminal, and keeps the launcher's pid" {
	# On a pty, under a shell that does no job control: setsid works directly.
	run -1 "$HELPERS/tty" run sh -c '"$0" --new-session -- "$1" ctty' "$LR" "$HELPERS/tty"
	assert_line "output: ENXIO\\n"
	# Control: without it the command has the pty as its controlling terminal.
	run -0 "$HELPERS/tty" run sh -c '"$0" -- "$1" ctty' "$LR" "$HELPERS/tty"
	assert_line "output: ok\\n"
	# The pid is kept: the launcher's pid is the command's, and its session.
	run -0 sh -c 'echo $$; exec "$0" --new-session -- sh -c '\''echo $$; cut -d" " -f6 /proc/$$/stat'\' "$LR"
	assert_equal "${lines[0]}" "${lines[1]}"
	assert_equal "${lines[1]}" "${lines[2]}"
}

@test "--new-session from a process group leader: the command runs in a child, its status passed on" {
	# tty run makes the launcher lead a session (and so its process group), as
	# a shell with job control makes it lead a process group: setsid refuses.
	run -1 "$HELPERS/tty" run "$LR" --new-session -- "$HELPERS/tty" ctty
	assert_line "output: ENXIO\\n"
	run -7 "$HELPERS/tty" run "$LR" --new-session -- sh -c 'exit 7'
	# Killed by a signal: the launcher dies of the same one (tty run: 128+N).
	run -143 "$HELPERS/tty" run "$LR" --new-session -- sh -c 'kill -TERM $$'
}

@test "--new-session from a process group leader: signals reach the command, which dies with the launcher" {
	local waiter child rc=0
	# setsid(1) makes the launcher a session leader (same pid, $!).
	setsid -w "$LR" --new-session --rw "$PWD" -- sh -c \
		'trap "echo TERM >\"\$0/got\"; exit 3" TERM; echo $$ >"$0/pid"; while :; do sleep 0.1; done' \
		"$PWD" 3>&- &
	waiter=$!
	echo "$waiter" >>pids
	wait_for_pid pid
	child=$(cat pid)
	[ "$child" != "$waiter" ] || fail "the command did not run in a child"
	kill -TERM "$waiter"
	assert_gone "$waiter"
	wait "$waiter" || rc=$?
	assert_equal "$rc" 3 # the command's own status, after its trap ran
	assert_equal "$(cat got)" TERM
	# SIGKILL cannot be passed on: the command dies with the launcher.
	rm pid
	setsid -w "$LR" --new-session --rw "$PWD" -- sh -c 'echo $$ >"$0/pid"; exec sleep 60' "$PWD" 3>&- &
	waiter=$!
	echo "$waiter" >>pids
	wait_for_pid pid
	child=$(cat pid)
	kill -KILL "$waiter"
	assert_gone "$waiter"
	wait "$waiter" || true
	assert_gone "$child"
}

# assert_gone PID: within 5 s, PID has exited (gone, or a zombie).
assert_gone() {
	local state
	for _ in $(seq 100); do
		state=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) || return 0
		[ "$state" = Z ] && return 0
		sleep 0.05
	done
	kill -KILL "$1" 2>/dev/null || true
	fail "process $1 still runs (state $state)"
}

# start_orphanable OPTION...: a parent shell runs the launcher with OPTIONs
# and `sleep 60`, which writes its pid to ./cmd (the launcher's, or with
# --die-with-parent, which ends the whole tree, its child's); the parent
# writes its own to ./parent.
start_orphanable() {
	sh -c 'echo $$ >parent; "$@" & wait' sh "$LR" "$@" --rw "$PWD" -- sh -c 'echo $$ >cmd; exec sleep 60' 3>&- &
	wait_for_pid parent
	wait_for_pid cmd
	for _ in $(seq 100); do
		[ "$(cat "/proc/$(cat cmd)/comm" 2>/dev/null)" = sleep ] && return 0
		sleep 0.05
	done
	fail "the command did not start"
}

@test "--die-with-parent: the command is killed when the launcher's parent dies" {
	start_orphanable --die-with-parent
	kill -KILL "$(cat parent)"
	assert_gone "$(cat cmd)"
	# Control: without it the command outlives its parent.
	rm cmd parent
	start_orphanable
	kill -KILL "$(cat parent)"
	sleep 0.3
	[ "$(cut -d' ' -f3 "/proc/$(cat cmd)/stat")" != Z ] || fail "the command died without the option"
	kill -KILL "$(cat cmd)"
}

@test "--die-with-parent: a parent that is gone before the signal is set stops the launcher (125)" {
	command -v strace >/dev/null || fail "strace is missing (make setup installs it)"
	# strace -D keeps the launcher the parent shell's child and holds its first
	# prctl (the parent-death signal) for 1 s; the parent exits meanwhile.
	# LeakSanitizer cannot work under ptrace (make sanitize): none for these runs.
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	sh -c 'strace -D -o /dev/null -e trace=prctl -e inject=prctl:delay_enter=1000000:when=1 \
		"$@" 2>"$PWD/err" & sleep 0.3' sh "$LR" --die-with-parent --rw "$PWD" -- touch "$m" 3>&-
	for _ in $(seq 60); do [ -s err ] && break; sleep 0.05; done
	run cat err
	assert_output --regexp '^landlock-run: --die-with-parent: the parent process [0-9]+ has already exited$'
	assert_not_exist "$m"
	# Control: the same delay with a parent that waits, and the command runs.
	sh -c 'strace -D -o /dev/null -e trace=prctl -e inject=prctl:delay_enter=1000000:when=1 "$@"' \
		sh "$LR" --die-with-parent --rw "$PWD" -- touch "$m"
	assert_exist "$m"
}

@test "--close-fds: a descriptor 7 the caller opened is closed in the command; stdio stays" {
	echo secret >f
	run -0 "$LR" -- readlink /proc/self/fd/7 7<f
	assert_output "$PWD/f" # control: inherited without the option
	run -1 "$LR" --close-fds -- readlink /proc/self/fd/7 7<f
	run -0 "$LR" --close-fds -- sh -c 'echo out; echo err >&2' 7<f
	assert_output $'out\nerr'
	# A failed exec still reports on stderr.
	run -127 --separate-stderr "$LR" --close-fds -- /nonexistent 7<f
	assert_one_launcher_line
}

@test "--clearenv, --setenv and --unsetenv apply in command-line order" {
	run -0 env -i A=caller B=caller "$LR" --setenv A=1 --unsetenv B -- /usr/bin/env
	assert_output $'A=1'
	run -0 env -i A=caller "$LR" --setenv A=1 --setenv A=2 -- /usr/bin/env
	assert_output 'A=2'
	run -0 env -i A=caller "$LR" --setenv B=1 --clearenv --setenv C=2 -- /usr/bin/env
	assert_output 'C=2'
	run -0 env -i A=caller "$LR" --unsetenv A --setenv A=again -- /usr/bin/env
	assert_output 'A=again'
	run -0 env -i A=caller "$LR" --setenv A= -- /usr/bin/env
	assert_output 'A='
	# Control: without the options the environment passes unchanged.
	run -0 env -i A=caller B=caller "$LR" -- /usr/bin/env
	assert_output $'A=caller\nB=caller'
}

@test "--setenv PATH=...: the command is looked up in the PATH it runs with, as env(1) does" {
	mkdir bin
	printf '#!/bin/sh\necho found\n' >bin/only-here
	chmod +x bin/only-here
	run -0 "$LR" --setenv PATH="$PWD/bin:/usr/bin:/bin" -- only-here
	assert_output found
	run -127 --separate-stderr "$LR" -- only-here
	run -127 --separate-stderr "$LR" --clearenv -- only-here
}

@test "--setenv and --unsetenv refuse what is not VAR=VALUE or VAR, naming the option" {
	local bad
	for bad in "=x" "novalue" ""; do
		run -125 --separate-stderr "$LR" --setenv "$bad" -- touch "$m"
		assert_one_launcher_line
		[[ $stderr == *--setenv* ]] || fail "$stderr"
	done
	for bad in "A=b" "=" ""; do
		run -125 --separate-stderr "$LR" --unsetenv "$bad" -- touch "$m"
		assert_one_launcher_line
		[[ $stderr == *--unsetenv* ]] || fail "$stderr"
	done
	assert_not_exist "$m"
}

@test "--no-symlinks: a grant path through a symlink is refused with 125, naming option and path" {
	mkdir -p real/sub
	ln -s real link
	for path in link link/sub "$PWD/link/sub"; do
		run -125 --separate-stderr "$LR" --no-symlinks --rw "$path" -- touch "$m"
		assert_one_launcher_line
		assert_equal "$stderr" "landlock-run: cannot open --rw path $path: it goes through a symlink (--no-symlinks)"
		# Control: without --no-symlinks the target is granted.
		run -0 "$LR" --rw "$path" -- true
	done
	run -125 --separate-stderr "$LR" --no-symlinks --ro-try link -- touch "$m"
	assert_not_exist "$m"
	# Paths without symlinks work, and a missing -try path is still skipped.
	run -0 "$LR" --no-symlinks --rw "$PWD/real" --rw-try "$PWD/missing" -- touch real/sub/f
	assert_exist real/sub/f
}
