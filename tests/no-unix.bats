#!/usr/bin/env bats
# --no-unix (issue 27, part 2): no UNIX socket is made but a stream or
# seqpacket socketpair, on every ABI and system-call ABI, so nothing outside
# (a pathname socket Landlock cannot withhold before ABI 9, an abstract one)
# can be connected to; sockets the caller hands over keep working. Each
# attack beside its control without the option; servers run outside any
# sandbox. Below ABI 9 a --hide of a path that holds sockets says so.
load helpers

SYSOP=$HELPERS/sysop

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
}

teardown() {
	local pid
	for pid in ${SERVERS-}; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
}

# serve PATH OUT: a UNIX stream server at PATH, outside the sandbox, that
# writes what each client sends to OUT (one line each).
serve() {
	"$PYTHON" - "$1" "$2" 3>&- <<'PY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(4)
open(sys.argv[2] + ".ready", "w").close()
while True:
    c, _ = s.accept()
    with open(sys.argv[2], "ab") as out:
        out.write(c.recv(100) + b"\n")
    c.close()
PY
	SERVERS="${SERVERS-} $!"
	wait_for "$2.ready"
}

wait_for() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	fail "$1 never appeared"
}

SEND='import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(sys.argv[2].encode())
print("sent")'

@test "--no-unix: socket(AF_UNIX) of every type is EAFNOSUPPORT; stream and seqpacket pairs work, datagram pairs do not" {
	local t
	for t in stream dgram raw; do
		run -0 "$LR" -- "$SYSOP" socket unix "$t"
		run -1 "$LR" --no-unix -- "$SYSOP" socket unix "$t"
		assert_output EAFNOSUPPORT
	done
	run -0 "$LR" --no-unix -- "$SYSOP" socketpair unix stream
	run -0 "$LR" --no-unix -- "$SYSOP" socketpair unix seqpacket
	# a datagram pair can be sent through, or connected, to any address
	for t in dgram raw; do
		run -0 "$LR" -- "$SYSOP" socketpair unix "$t"
		run -1 "$LR" --no-unix -- "$SYSOP" socketpair unix "$t"
		assert_output EAFNOSUPPORT
	done
	# the other families are --no-network's
	run -0 "$LR" --no-unix -- "$SYSOP" socket inet stream
	run -1 "$LR" --no-unix --no-network -- "$SYSOP" socket inet stream
	assert_output EAFNOSUPPORT
	run -0 "$LR" --no-unix --no-network -- "$SYSOP" socketpair unix stream
}

@test "--no-unix: through i386, socket(AF_UNIX) and every socketcall(SYS_SOCKET) are refused" {
	[ "$(uname -m)" = x86_64 ] || skip "the i386 ABI is x86_64's"
	run -0 "$LR" -- "$SYSOP" socket32 unix
	run -1 "$LR" --no-unix -- "$SYSOP" socket32 unix
	assert_output EAFNOSUPPORT
	run -0 "$LR" --no-unix -- "$SYSOP" socket32 inet
	# socketcall's family is in memory the filter cannot read
	run -0 "$LR" -- "$SYSOP" socketcall unix
	run -1 "$LR" --no-unix -- "$SYSOP" socketcall unix
	assert_output EAFNOSUPPORT
	run -1 "$LR" --no-unix -- "$SYSOP" socketcall inet
	assert_output EAFNOSUPPORT
}

@test "attack: a socket in a hidden directory is connected to below ABI 9; --no-unix refuses it" {
	mkdir secret
	serve "$PWD/secret/agent.sock" got
	# control: the server outside receives the bytes through --hide
	run -0 "$LR" --ro / --abi 8 --hide secret -- "$PYTHON" -c "$SEND" "$PWD/secret/agent.sock" leaked
	assert_output --partial sent
	wait_for got
	assert_equal "$(cat got)" leaked
	run -1 "$LR" --ro / --abi 8 --hide secret --no-unix -- "$PYTHON" -c "$SEND" "$PWD/secret/agent.sock" again
	assert_output --partial "Address family not supported"
	sleep 0.2
	assert_equal "$(cat got)" leaked
}

@test "attack: a relay socket outside carries curl to the network under --no-network; --no-unix refuses it" {
	command -v curl >/dev/null || skip "no curl here"
	echo "the page" >page
	"$PYTHON" -u -m http.server --bind 127.0.0.1 0 >http.out 2>&1 3>&- &
	SERVERS="$!"
	local i port=
	for ((i = 0; i < 100; i++)); do
		port=$(sed -nE 's/.*port ([0-9]+).*/\1/p' http.out | head -1)
		[ -z "$port" ] || break
		sleep 0.05
	done
	[ -n "$port" ] || fail "http.server did not start: $(cat http.out)"
	# the relay: each UNIX connection forwarded to the TCP server
	"$PYTHON" - "$PWD/relay.sock" "$port" 3>&- <<'PY' &
import os, socket, sys, threading
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(4)
def pump(a, b):
    while (d := a.recv(65536)):
        b.sendall(d)
    b.shutdown(socket.SHUT_WR)
while True:
    c, _ = s.accept()
    t = socket.create_connection(("127.0.0.1", int(sys.argv[2])))
    threading.Thread(target=pump, args=(c, t), daemon=True).start()
    threading.Thread(target=pump, args=(t, c), daemon=True).start()
PY
	SERVERS="$SERVERS $!"
	wait_for relay.sock
	# control: no TCP socket is made, the relay carries it
	run -7 "$LR" --ro / --no-network -- curl -sS "http://127.0.0.1:$port/page"
	run -0 "$LR" --ro / --no-network -- curl -sS --unix-socket relay.sock "http://x/page"
	assert_output "the page"
	run -7 "$LR" --ro / --no-network --no-unix -- curl -sS --unix-socket relay.sock "http://x/page"
	refute_output --partial "the page"
}

@test "--no-unix: a socket the caller hands over keeps working" {
	serve "$PWD/sock" got
	local pass='import os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
os.dup2(s.fileno(), 3)
os.execvp(sys.argv[2], sys.argv[2:])'
	run -0 "$PYTHON" -c "$pass" "$PWD/sock" "$LR" --no-unix -- sh -c 'echo inherited >&3'
	wait_for got
	assert_equal "$(cat got)" inherited
}

@test "--hide of a path that holds a socket, or \$SSH_AUTH_SOCK, below ABI 9 says so, naming --no-unix" {
	mkdir -p secret plain agent
	serve "$PWD/secret/s.sock" got
	local line="which ABI $((KABI < 8 ? KABI : 8)) cannot withhold (connecting to a socket needs ABI 9): add --no-unix"
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide secret --hide plain -- true
	assert_equal "$stderr" "landlock-run hide: --hide secret holds the socket s.sock, $line"
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide secret/s.sock -- true
	assert_equal "$stderr" "landlock-run hide: --hide secret/s.sock is a socket, $line"
	run -0 --separate-stderr env SSH_AUTH_SOCK="$PWD/secret/s.sock" "$LR" --abi 8 --hide "$PWD" -- true
	assert_equal "$stderr" "landlock-run hide: --hide $PWD holds \$SSH_AUTH_SOCK, $line"
	# nothing to say: --no-unix given, a path without sockets, or an ABI that withholds them
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide secret --no-unix -- true
	assert_equal "$stderr" ""
	run -0 --separate-stderr env SSH_AUTH_SOCK="$PWD/secret/s.sock" "$LR" --abi 8 --hide plain -- true
	assert_equal "$stderr" ""
	[ "$KABI" -ge 9 ] || return 0
	run -0 --separate-stderr "$LR" --ro / --hide secret -- true
	assert_equal "$stderr" ""
}

@test "--no-unix in -v, the probe (text and JSON) and --explain; io_uring is refused beside it" {
	run -0 --separate-stderr "$LR" -v --no-unix -- true
	[[ $stderr == *"landlock-run policy: no_unix=yes"$'\n'* ]] || fail "$stderr"
	run -0 --separate-stderr "$LR" -v -- true
	[[ $stderr == *"landlock-run policy: no_unix=no"$'\n'* ]] || fail "$stderr"
	run -0 "$LR" --probe -v --no-unix
	assert_line no_unix=yes
	assert_line unprovable=
	run -0 "$LR" --probe --json --no-unix
	[[ $output == *'"no_unix":true'* ]] || fail "$output"
	run -0 "$LR" --probe --json
	[[ $output == *'"no_unix":false'* ]] || fail "$output"
	run -1 --separate-stderr "$LR" --explain --no-unix -- "$SYSOP" socket unix stream
	assert_output EAFNOSUPPORT
	[[ $stderr == *"landlock-run denied: unix AF_UNIX (socket by sysop["*"]): allow by removing --no-unix"* ]] ||
		fail "$stderr"
	run -125 --separate-stderr "$LR" --no-unix --allow-syscalls io_uring -- true
	assert_equal "$stderr" "landlock-run: --allow-syscalls io_uring contradicts --no-unix: io_uring creates sockets the filter cannot see"
}
