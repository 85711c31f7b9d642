#!/usr/bin/env bats
# Terminal injection: ioctl(TIOCSTI) pushes bytes into the terminal's input,
# which whoever reads the terminal next (the caller's shell, once the
# launcher exits) takes as typed. Every test runs the command on a pty the
# test creates (tests/tty.c: "tty run" prints what the command wrote and what
# the terminal's next reader gets), and a control shows the same attack
# injecting without the launcher, so no test passes because injection was
# impossible anyway.
load helpers

TTY=$HELPERS/tty
INJECT32=$HELPERS/inject32
PAYLOAD=$'echo INJECTED\n'

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
}

# injects CMD...: on a fresh pty, CMD (which injects $PAYLOAD) gets its
# bytes to the terminal's next reader.
injects() {
	run -0 "$TTY" run "$@"
	assert_line "output: ok\\n"
	assert_line "read: echo INJECTED\\n"
}

# refused CMD...: on a fresh pty, the same attack under the launcher fails
# with EPERM (or ERRNO, $1 when it starts with E) and the reader gets nothing.
refused() {
	local want=EPERM
	[[ $1 == E* ]] && want=$1 && shift
	run -1 "$TTY" run "$@"
	assert_line "output: $want\\n"
	assert_line "read: "
}

# nobody may inject on its own controlling terminal only where the sysctl
# allows it (Debian 12's 6.1 has no such switch: always).
nobody_can_inject() {
	[ "$(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null || echo 1)" = 1 ]
}

@test "control: without the launcher TIOCSTI injects, as root and as nobody" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to be both"
	injects "$TTY" inject native 0x5412 "$PAYLOAD"
	nobody_can_inject || skip "dev.tty.legacy_tiocsti is 0: nobody cannot inject here"
	as_nobody
	TTY=$HELPERS/tty
	injects "${AS_NOBODY[@]}" "$TTY" inject native 0x5412 "$PAYLOAD"
}

@test "TIOCSTI from the sandbox never reaches the terminal's reader, as root and as nobody" {
	refused "$LR" -- "$TTY" inject native 0x5412 "$PAYLOAD"
	refused "$LR" --ro / --rw /tmp -- "$TTY" inject native 0x5412 "$PAYLOAD"
	as_nobody
	TTY=$HELPERS/tty
	refused "${AS_NOBODY[@]}" "$LR" -- "$TTY" inject native 0x5412 "$PAYLOAD"
}

@test "with --new-session (no controlling terminal) too, as root and as nobody" {
	refused "$LR" --new-session -- "$TTY" inject native 0x5412 "$PAYLOAD"
	as_nobody
	TTY=$HELPERS/tty
	refused "${AS_NOBODY[@]}" "$LR" --new-session -- "$TTY" inject native 0x5412 "$PAYLOAD"
	refused "${AS_NOBODY[@]}" "$LR" --new-session -- "$TTY" inject native 0x100005412 "$PAYLOAD"
}

@test "root keeping its capabilities (--keep-caps, CAP_SYS_ADMIN) is refused too" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	refused "$LR" --keep-caps -- "$TTY" inject native 0x5412 "$PAYLOAD"
}

@test "the high 32 bits the kernel ignores do not get past the filter (0x100005412, CVE-2019-10063)" {
	injects "$TTY" inject native 0x100005412 "$PAYLOAD"
	refused "$LR" -- "$TTY" inject native 0x100005412 "$PAYLOAD"
	refused "$LR" -- "$TTY" inject native 0xffffffff00005412 "$PAYLOAD"
}

@test "the i386 system-call ABI is filtered: int 0x80 from 64-bit code, and a real 32-bit program" {
	[ "$(uname -m)" = x86_64 ] || skip "i386 is an x86_64 kernel's second ABI"
	injects "$TTY" inject i386 0x5412 "$PAYLOAD"
	refused "$LR" -- "$TTY" inject i386 0x5412 "$PAYLOAD"
	run -0 file -L "$INJECT32"
	assert_output --partial "ELF 32-bit LSB executable, Intel 80386"
	run -0 "$TTY" run "$INJECT32" 'echo INJECTED'
	assert_line "read: echo INJECTED"
	# The whole 32-bit program runs under the filter: only its ioctl is refused.
	run -1 "$TTY" run "$LR" -- "$INJECT32" 'echo INJECTED'
	assert_line "output: errno 1\\n"
	assert_line "read: "
}

@test "the x32 system-call ABI is filtered (bit 30 set, ioctl 514)" {
	[ "$(uname -m)" = x86_64 ] || skip "x32 is an x86_64 kernel's ABI"
	refused "$LR" -- "$TTY" inject x32 0x5412 "$PAYLOAD"
	run "$TTY" run "$TTY" inject x32 0x5412 "$PAYLOAD"
	# Where the kernel lacks x32 it answers ENOSYS: nothing to inject through,
	# and the EPERM above is the filter's. Where it has x32, this is the control.
	[[ $output == *"output: ENOSYS"* ]] || injects "$TTY" inject x32 0x5412 "$PAYLOAD"
}

@test "TIOCLINUX is refused: EPERM from the filter, where the kernel refuses a pty otherwise" {
	run -1 "$TTY" run "$TTY" inject native 0x541c x
	assert_line --regexp '^output: (EINVAL|ENOTTY)\\n$' # no virtual console
	refused "$LR" -- "$TTY" inject native 0x541c x
}

@test "other ioctls on the terminal still work under the filter" {
	run -0 "$TTY" run "$LR" -- stty -a
	assert_output --partial "speed"
	run -0 "$TTY" run "$LR" -- "$TTY" ctty
	assert_line "output: ok\\n"
}

# The attack of issue 12 end to end: the shell that reads the terminal after
# the command runs what was injected, outside any sandbox.
@test "a shell reading the terminal after the command does not run an injected line" {
	local line="touch $BATS_TEST_TMPDIR/ESCAPED"$'\n'
	run "$TTY" run bash -c '"$@"; read -t 2 -r line && eval "$line"' _ \
		"$TTY" inject native 0x5412 "$line"
	assert_exist ESCAPED # control: without the launcher the shell runs it
	rm ESCAPED
	run "$TTY" run bash -c '"$@"; read -t 2 -r line && eval "$line"' _ \
		"$LR" -- "$TTY" inject native 0x5412 "$line"
	assert_not_exist ESCAPED
}

@test "the probe proves the refusal in its child and reports it" {
	run -0 --separate-stderr "$LR" --probe -v
	assert_line "tty_injection=refused"
	as_nobody
	run -0 --separate-stderr "${AS_NOBODY[@]}" "$LR" --probe -v
	assert_line "tty_injection=refused"
}
