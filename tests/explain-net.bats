#!/usr/bin/env bats
# --explain for what is not a file: TCP ports (ABI 4), device ioctls (ABI 5),
# signals and abstract UNIX sockets under --scope (ABI 6), each denial
# produced for real and explained, each with a control the sandbox allows.
load helpers
load explain

setup_file() {
	require_helpers
	ABSTRACT=@landlock-run-explain-test-$$
	start_server "$BATS_FILE_TMPDIR/abstract.out" 1 ulisten "$ABSTRACT"
	export ABSTRACT
}

teardown_file() {
	stop_servers
}

setup() {
	require_landlock
	explain_setup
}

@test "a TCP connect and bind to ports outside the grants: tcp_connect, tcp_bind" {
	require_abi "$(right_abi tcp_connect)"
	local port
	port=$("$TRYOP" freeport)
	denied_then_allowed 1 "tcp_connect port $port (connect by tryop): allow with --tcp-connect $port" \
		--tcp-connect 1 -- sh -c "$TRYOP connect $port | grep -qx ECONNREFUSED"
	denied_then_allowed 1 "tcp_bind port $port (bind by tryop): allow with --tcp-bind $port" \
		--tcp-bind 1 -- "$TRYOP" bind "$port"
}

@test "a port that is granted, and TCP that is not confined, report nothing" {
	require_abi "$(right_abi tcp_connect)"
	local port
	port=$("$TRYOP" freeport)
	explain --tcp-bind "$port" -- "$TRYOP" bind "$port"
	assert_equal "$output" ok
	explain --tcp-connect 1 -- "$TRYOP" bind "$port"
	assert_equal "$output" ok
	assert_equal "$stderr" ""
}

@test "UDP: a bind and a send to ports outside the grants, and the port 0 an unbound send binds (ABI 10)" {
	require_abi "$(right_abi udp_bind)"
	local port
	port=$("$TRYOP" freeport)
	denied_then_allowed 1 "udp_bind port $port (bind by tryop): allow with --udp-bind $port" \
		--udp-bind 1 -- "$TRYOP" udp-bind "$port"
	denied_then_allowed 1 "udp_connect port $port (sendto by tryop): allow with --udp-connect $port" \
		--udp-bind 0 --udp-connect 1 -- "$TRYOP" udp-send "$port"
	# An unbound socket binds port 0 ("any") before it sends: --udp-bind 0.
	denied_then_allowed 1 "udp_bind port 0 (sendto by tryop): allow with --udp-bind 0" \
		--udp-bind 1 --udp-connect "$port" -- "$TRYOP" udp-send "$port"
}

@test "a device ioctl the grant does not allow: ioctl_dev on the device" {
	require_abi "$(right_abi ioctl_dev)"
	explain --ro / -- "$TRYOP" ioctl-tcgets /dev/null
	assert_equal "$output" EACCES
	assert_denied "ioctl_dev /dev/null (ioctl by tryop): allow with --rw /dev/null"
	# The advice: the kernel answers the ioctl itself (ENOTTY), the sandbox is out of it.
	explain --ro / --rw /dev/null -- "$TRYOP" ioctl-tcgets /dev/null
	assert_equal "$output" ENOTTY
	assert_equal "$stderr" ""
}

@test "ioctls Landlock never refuses (FIONBIO on a device, TCGETS on a file) pass --explain unstopped or stopped once, unreported" {
	require_abi "$(right_abi ioctl_dev)"
	# Control: the same device refuses TCGETS (the test above), so no ioctl right is granted
	# on it; FIONBIO, which the seccomp filter lets through unstopped, the kernel allows.
	explain --ro / -- "$TRYOP" ioctl-tcgets /dev/null
	assert_equal "$output" EACCES
	explain --ro / -- "$TRYOP" ioctl-fionbio /dev/null
	assert_equal "$output" ok
	assert_equal "$stderr" ""
	# An ioctl on what is no device stops once, at its entry: its refusal is the kernel's own.
	explain --ro / -- "$TRYOP" ioctl-tcgets "$TRYOP"
	assert_equal "$output" ENOTTY
	assert_equal "$stderr" ""
}

@test "a signal to a process outside the sandbox under --scope signal: the scope to leave out" {
	require_abi "$(right_abi signal)"
	sleep 60 3>&- &
	local target=$!
	explain --scope signal -- "$TRYOP" kill "$target" 0
	assert_equal "$output" EPERM
	assert_denied "signal to pid $target (kill by tryop): allow by leaving signal out of --scope"
	explain -- "$TRYOP" kill "$target" 0
	assert_equal "$output" ok
	# A signal inside the sandbox is allowed, and an EPERM that is not the
	# scope's (init, for an unprivileged user) is not reported.
	explain --scope signal -- sh -c "sleep 5 & $TRYOP kill \$! 0; kill \$!"
	assert_equal "$output" ok
	kill "$target"
	as_nobody
	as=("${AS_NOBODY[@]}")
	J=$(mktemp -u /tmp/lr-explain-json.XXXXXX)
	explain --scope signal -- "$TRYOP" kill 1 0
	unset as
	rm -f "$J"
	assert_equal "$output" EPERM
	assert_equal "$stderr" ""
}

@test "a connection to an abstract UNIX socket made outside, under --scope abstract-unix" {
	require_abi "$(right_abi abstract-unix)"
	explain --scope abstract-unix -- "$TRYOP" uconnect "$ABSTRACT"
	assert_equal "$output" EPERM
	assert_denied "abstract-unix $ABSTRACT (connect by tryop): allow by leaving abstract-unix out of --scope"
	explain -- "$TRYOP" uconnect "$ABSTRACT"
	assert_equal "$output" ok
	# A listener made inside the sandbox is reachable, and nothing is reported.
	explain --scope abstract-unix -- "$TRYOP" uself
	assert_equal "$output" ok
	assert_equal "$stderr" ""
}

@test "binding a pathname UNIX socket outside the grants: make_sock on its directory" {
	denied_then_allowed 1 "make_sock $d/no/sock (bind by tryop): allow with --rw $d/no" \
		-- "$TRYOP" uself-path "$d/no/sock"
}

@test "--no-network and the baseline under --explain: still refused by the filter, and reported with the option that allows it" {
	explain --ro / --no-network -- "$PYTHON" -c '
import socket
for f in (socket.AF_INET, socket.AF_INET6):
    try:
        socket.socket(f, socket.SOCK_STREAM)
        print("made")
    except OSError as e:
        print(e.errno == 97 and "EAFNOSUPPORT")
socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
print("unix")'
	assert_equal "$status" 0
	assert_equal "$output" $'EAFNOSUPPORT\nEAFNOSUPPORT\nunix'
	assert_denied "network AF_INET (socket by python3): allow by removing --no-network" \
		"network AF_INET6 (socket by python3): allow by removing --no-network"
	# A user namespace: refused as without --explain, and the group named.
	explain --ro / -- unshare -U true
	assert_equal "$status" 1
	assert_denied "userns (unshare by unshare): allow with --allow-syscalls userns"
	# Control: the advice given, the call goes through (and nothing is reported).
	explain --ro / --allow-syscalls userns -- unshare -U true
	assert_equal "$status" 0
	assert_equal "$stderr" ""
	# A command that marks its own call as the tracer does is refused all the same.
	explain --ro / --no-network -- "$PYTHON" -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(41, 2, 1, 0, 0, 0, 0x6c616e64)
print("made" if r >= 0 else os.strerror(ctypes.get_errno()))'
	assert_equal "$output" "Address family not supported by protocol"
	assert_equal "$denied" ""
}

@test "a call refused through the tracer's mark returns with every register as a plain run leaves it" {
	# The tracer marks a refused call in argument 5's register (r9, x5 on
	# aarch64) so that the filter refuses it; the system-call ABI keeps every
	# register but the result (and rcx, r11), and inline-asm wrappers rely on
	# it. sysop regs loads a pattern into each, makes socket(AF_INET) by hand
	# and prints each register after it.
	local sysop=$HELPERS/sysop plain
	run --separate-stderr "$LR" --ro / --no-network -- "$sysop" regs
	assert_success
	plain=$output
	assert_equal "${lines[0]}" EAFNOSUPPORT
	assert_equal "${lines[-1]}" "registers kept"
	explain --ro / --no-network -- "$sysop" regs
	assert_equal "$status" 0
	assert_denied "network AF_INET (socket by sysop): allow by removing --no-network"
	assert_equal "$output" "$plain"
	# The baseline's refusals too (a user namespace), through the same mark.
	explain --ro / -- "$sysop" unshare native 10000000
	assert_equal "$output" EPERM
	assert_denied "userns (unshare by sysop): allow with --allow-syscalls userns"
	# Control: unconfined, the call succeeds and the registers are kept too.
	run "$sysop" regs
	assert_success
	assert_equal "${lines[0]}" ok
	assert_equal "${lines[-1]}" "registers kept"
}
