# tests/guest/sockets.sh: the UNIX socket rows a real kernel proves (issues 25
# and 27): from ABI 9 (RESOLVE_UNIX) a socket in the host's /tmp is out of reach
# of a --private-tmp run and nothing beneath a --hide path can be connected to,
# each beside the run that reaches it (--rw /tmp, --unix, or --abi 8 on the same
# kernel); below ABI 9 the same runs connect, which --no-unix closes on every
# ABI; and /dev/userfaultfd's USERFAULTFD_IOC_NEW, the fault handler's second
# door. Servers run outside any sandbox. Sourced by check.sh.

# userve PATH: a UNIX stream server at PATH, outside the sandbox; $server is its pid
userve() {
	rm -f "$1" $T/userve.out
	tryop ulisten "$1" >$T/userve.out 2>&1 &
	server=$!
	i=0
	while [ "$(cat $T/userve.out)" != ready ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	r tryop uconnect "$1"
	[ "$out" = ok ] || no "control: connect to $1 without the launcher printed [$out]"
}
unserve() {
	kill $server
	wait $server 2>/dev/null
}
# resolve_want: what a connect the grants do not cover prints at the ABI in use
resolve_want() {
	if at_least "$(right_abi resolve_unix)"; then want=EACCES; else want=ok; fi
}

# Issue 25: the host's /tmp holds other programs' sockets (X11's, an ssh-agent's).
c_private_tmp_socket() {
	resolve_want
	mkdir -p /tmp/ssh-host
	sock=/tmp/ssh-host/agent.sock
	userve $sock
	r $LR --ro / --rw /tmp -- tryop uconnect $sock
	[ "$out" = ok ] || no "control --rw /tmp: connect printed [$out], want ok"
	for policy in "--ro / --private-tmp" "--private-tmp"; do
		# shellcheck disable=SC2086 # the policy is split into its options
		r $LR $policy -- tryop uconnect $sock
		[ "$out" = $want ] || no "$policy: connect to the host's /tmp printed [$out], want $want"
		# below ABI 9 the run says so, naming the socket at level 2 of /tmp
		case $want in
		ok) want_err "landlock-run hide: --hide /tmp (--private-tmp) holds the socket ssh-host/agent.sock, which ABI" ;;
		*) [ -z "$err" ] || no "$policy: stderr [$err] at ABI $U, which withholds sockets" ;;
		esac
	done
	# the run's own directory is its own: a socket made there is reachable
	r $LR --ro / --private-tmp -- sh -c 'tryop uself-path "$TMPDIR/s"; case $TMPDIR in /tmp/?*) ;; *) echo "TMPDIR=$TMPDIR" ;; esac'
	[ "$out" = ok ] || no "--private-tmp: a socket in \$TMPDIR printed [$out], want ok"
	r $LR --ro / --private-tmp --no-unix -- tryop uconnect $sock
	[ "$out" = "socket: EAFNOSUPPORT" ] || no "--private-tmp --no-unix: connect printed [$out]"
	unserve
	rm -rf /tmp/ssh-host
}

# Issue 27: an agent's socket beneath a hidden directory.
c_hide_socket() {
	resolve_want
	h=$T/no/hh
	mkdir -p $h/agent $T/ok
	sock=$h/agent/s.sock
	userve $sock
	r $LR --ro / --unix $h/agent -- tryop uconnect $sock
	[ "$out" = ok ] || no "control --unix: connect printed [$out], want ok"
	for policy in "--ro / --hide $h/agent" "--hide $h/agent" "--rw $T/ok --hide $h" "--ro / --unix $T/ok --hide $h/agent"; do
		# shellcheck disable=SC2086
		r $LR $policy -- tryop uconnect $sock
		[ "$out" = $want ] || no "$policy: connect printed [$out], want $want"
		# the warning names a hidden path that holds a socket, among its
		# entries ($h/agent) or deeper ($h: agent/s.sock)
		case $want in
		ok) want_err "holds the socket " && want_err "cannot withhold (connecting to a socket needs ABI 9): add --no-unix" ;;
		*) [ -z "$err" ] || no "$policy: stderr [$err] at ABI $U, which withholds sockets" ;;
		esac
	done
	if at_least "$(right_abi resolve_unix)"; then
		# the same kernel below the right: the attack the row closes
		r $LR --ro / --abi $(($(right_abi resolve_unix) - 1)) --hide $h/agent -- tryop uconnect $sock
		[ "$out" = ok ] || no "control --abi 8 --hide: connect printed [$out], want ok"
	fi
	r $LR --ro / --hide $h/agent --no-unix -- tryop uconnect $sock
	[ "$out" = "socket: EAFNOSUPPORT" ] || no "--hide --no-unix: connect printed [$out]"
	unserve
}

# --no-unix on every ABI (Debian 6.1 is ABI 2): no UNIX socket but a stream or
# seqpacket socketpair.
c_no_unix() {
	for t in stream dgram seqpacket; do
		r $LR -- sysop socket unix $t
		[ "$out" = ok ] || no "control: socket unix $t printed [$out]"
		r $LR --no-unix -- sysop socket unix $t
		[ "$out" = EAFNOSUPPORT ] || no "--no-unix: socket unix $t printed [$out]"
	done
	for t in stream seqpacket; do
		r $LR --no-unix -- sysop socketpair unix $t
		[ "$out" = ok ] || no "--no-unix: socketpair unix $t printed [$out]"
	done
	r $LR -- sysop socketpair unix dgram
	[ "$out" = ok ] || no "control: socketpair unix dgram printed [$out]"
	r $LR --no-unix -- sysop socketpair unix dgram
	[ "$out" = EAFNOSUPPORT ] || no "--no-unix: socketpair unix dgram printed [$out]"
	if [ "$(uname -m)" = x86_64 ]; then
		r $LR -- sysop socket32 unix
		[ "$out" = ok ] || no "control: i386 socket unix printed [$out]"
		r $LR --no-unix -- sysop socket32 unix
		[ "$out" = EAFNOSUPPORT ] || no "--no-unix: i386 socket unix printed [$out]"
		r $LR --no-unix -- sysop socketcall unix
		[ "$out" = EAFNOSUPPORT ] || no "--no-unix: i386 socketcall unix printed [$out]"
	fi
	sock=$T/no/nu.sock
	userve $sock
	r $LR --rw $T/no -- tryop uconnect $sock
	[ "$out" = ok ] || no "control --rw: connect printed [$out]"
	r $LR --rw $T/no --no-unix -- tryop uconnect $sock
	[ "$out" = "socket: EAFNOSUPPORT" ] || no "--no-unix: connect printed [$out]"
	unserve
	r $LR --probe -v --no-unix
	want_rc 0
	printf '%s\n' "$out" | grep -qx 'no_unix=yes' || no "probe --no-unix: no no_unix=yes: $out"
}

# The userfaultfd group's second door: /dev/userfaultfd (Linux 6.1 has it) and
# USERFAULTFD_IOC_NEW, refused with the group on every ABI, natively and through
# i386, where device ioctls are granted (below ABI 5 always).
c_uffd_dev() {
	[ -c /dev/userfaultfd ] || { no "no /dev/userfaultfd on $(uname -r)"; return; }
	r sysop uffd-dev native
	[ "$out" = ok ] || no "control without the launcher: uffd-dev printed [$out]"
	abis=native
	[ "$(uname -m)" != x86_64 ] || abis="native i386"
	grants="--rw /dev"
	! at_least 5 || grants="$grants|--abi 4 --ro / --rw /dev/userfaultfd"
	IFS='|'
	for grant in $grants; do
		unset IFS
		for abi in $abis; do
			# shellcheck disable=SC2086
			r $LR $grant --allow-syscalls userfaultfd -- sysop uffd-dev $abi
			[ "$out" = ok ] || no "control $grant --allow-syscalls userfaultfd: uffd-dev $abi printed [$out]"
			# shellcheck disable=SC2086
			r $LR $grant -- sysop uffd-dev $abi
			[ "$out" = EPERM ] || no "$grant: uffd-dev $abi printed [$out], want EPERM"
		done
	done
	unset IFS
}
