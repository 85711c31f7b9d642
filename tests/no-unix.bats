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
	[ -z "${TMPSOCK-}" ] || rm -f "$TMPSOCK"
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

# bind PATH...: a socket made at each PATH (bound, not listening).
bind() {
	"$PYTHON" -c 'import socket, sys
for p in sys.argv[1:]:
    socket.socket(socket.AF_UNIX).bind(p)' "$@"
}

@test "--hide below ABI 9: a socket deeper in the hidden tree is said too, within the bound (4 levels, 16 directories, 512 entries, no symlink or other mount followed)" {
	local line="which ABI $((KABI < 8 ? KABI : 8)) cannot withhold (connecting to a socket needs ABI 9): add --no-unix"
	# /run/user/UID's shape: its sockets in subdirectories (gnupg/, bus/...)
	mkdir -p run/gnupg run/systemd home/.gnupg/a/b/c/d
	serve "$PWD/run/gnupg/S.gpg-agent" got
	# the attack the line is for: the command connects to it under the --hide
	run -0 "$LR" --abi 8 --ro / --hide run -- "$PYTHON" -c "$SEND" "$PWD/run/gnupg/S.gpg-agent" sign-this
	wait_for got
	assert_equal "$(cat got)" sign-this
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide run -- true
	assert_equal "$stderr" "landlock-run hide: --hide run holds the socket gnupg/S.gpg-agent, $line"
	# level 4, the deepest looked at; level 5 is not
	bind home/.gnupg/a/b/c/S.deep
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide home/.gnupg -- true
	assert_equal "$stderr" "landlock-run hide: --hide home/.gnupg holds the socket a/b/c/S.deep, $line"
	mv home/.gnupg/a/b/c/S.deep home/.gnupg/a/b/c/d/
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide home/.gnupg -- true
	assert_equal "$stderr" ""
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide home/.gnupg/a -- true
	assert_equal "$stderr" "landlock-run hide: --hide home/.gnupg/a holds the socket b/c/d/S.deep, $line"
	# a symlink to a directory that holds a socket is not followed
	mkdir link && ln -s "$PWD/run/gnupg" link/gnupg
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide link -- true
	assert_equal "$stderr" ""
	# 512 entries in all: 510 files and the directory at level 1, its socket the 512th
	mkdir -p wide/sub && bind wide/sub/s.sock
	(cd wide && touch f{1..510})
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide wide -- true
	assert_equal "$stderr" "landlock-run hide: --hide wide holds the socket sub/s.sock, $line"
	touch wide/f511
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide wide -- true
	assert_equal "$stderr" ""
	# 16 directories listed: the hidden one and 14 at level 1, then the
	# level-2 one that holds the socket; a 15th at level 1 leaves it unlisted
	mkdir -p many/p/q many/d{1..13} && bind many/p/q/s.sock
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide many -- true
	assert_equal "$stderr" "landlock-run hide: --hide many holds the socket p/q/s.sock, $line"
	mkdir many/d14
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide many -- true
	assert_equal "$stderr" ""
	[ "$KABI" -ge 9 ] || return 0
	run -0 --separate-stderr "$LR" --ro / --hide run -- true
	assert_equal "$stderr" ""
}

@test "--private-tmp below ABI 9: a socket in the host's /tmp is said, as of --hide /tmp" {
	[ "$KABI" -lt 9 ] || skip "ABI $KABI withholds sockets"
	[ "$(find /tmp -mindepth 1 -maxdepth 1 | wc -l)" -lt 400 ] || skip "the host's /tmp has too many entries for the bound"
	# a level-1 socket: all of /tmp's own entries are looked at first (another
	# program's socket there may be named instead)
	TMPSOCK=$(mktemp -u /tmp/lr-nounix.XXXXXX)
	bind "$TMPSOCK"
	run -0 --separate-stderr "$LR" --ro / --private-tmp -- true
	rm -f "$TMPSOCK"
	[[ $stderr == "landlock-run hide: --hide /tmp (--private-tmp) holds the socket "*", which ABI $KABI cannot withhold (connecting to a socket needs ABI 9): add --no-unix" ]] ||
		fail "$stderr"
	run -0 --separate-stderr "$LR" --ro / --private-tmp --no-unix -- true
	assert_equal "$stderr" ""
}

@test "--hide below ABI 9: a socket on another mount beneath the hidden path is not looked for (no daemon behind a mount can hold the launch)" {
	[ "$(id -u)" -eq 0 ] || skip "mounting needs root"
	local line="which ABI $((KABI < 8 ? KABI : 8)) cannot withhold (connecting to a socket needs ABI 9): add --no-unix"
	mkdir -p m/sub
	bind m/sub/s.sock
	# control: on the same mount, it is said
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide m -- true
	assert_equal "$stderr" "landlock-run hide: --hide m holds the socket sub/s.sock, $line"
	rm m/sub/s.sock
	mount -t tmpfs lr-nounix m/sub
	bind m/sub/s.sock
	run -0 --separate-stderr "$LR" --abi 8 --ro / --hide m -- true
	umount m/sub
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
