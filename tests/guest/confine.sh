# tests/guest/confine.sh: what the launcher really confines on a kernel with
# Landlock enabled: files, options that need an ABI, TCP ports, signals; each
# with a control that shows the effect is the sandbox's. Sourced by check.sh.

c_write_denied() {
	r $LR --rw $T/ok -- sh -c "echo x > $T/no/denied"
	[ "$rc" != 0 ] || no "write outside --rw exited 0"
	want_err 'Permission denied'
	want_absent $T/no/denied
	# control: the same write without the launcher works, so Landlock denied it
	sh -c "echo x > $T/no/control" && want_file $T/no/control x
}
c_write_granted() {
	r $LR --rw $T/ok -- sh -c "echo granted > $T/ok/granted"
	want_rc 0
	want_file $T/ok/granted granted
}
c_read_confined() {
	echo secret >$T/no/secret
	echo shared >$T/ok/shared
	r $LR --ro /bin -- cat $T/no/secret
	[ "$rc" != 0 ] || no "read outside --ro exited 0"
	want_err 'Permission denied'
	[ -z "$out" ] || no "read outside --ro printed [$out]"
	r $LR --ro /bin --ro $T/ok -- cat $T/ok/shared
	want_rc 0
	[ "$out" = shared ] || no "granted read printed [$out]"
}
c_truncate() {
	# truncate(2) by path needs no open for writing: only the truncate right
	# (ABI 3) can stop it, so on ABI 2 the write-confined command still truncates.
	echo data >$T/no/trunc
	echo data >$T/ok/trunc
	r $LR --rw $T/ok -- tryop truncate $T/no/trunc
	if at_least "$(right_abi truncate)"; then
		want_rc 1
		[ "$out" = EACCES ] || no "truncate outside the grants printed [$out], want EACCES"
		want_file $T/no/trunc data
	else
		want_rc 0
		want_empty $T/no/trunc "ABI 2 cannot stop truncate(2)"
	fi
	r $LR --rw $T/ok -- tryop truncate $T/ok/trunc
	want_rc 0
	want_empty $T/ok/trunc "granted truncate"
}
# option NAME REQUIRED_ABI OPTION...: accepted (the command runs) exactly when the
# kernel has REQUIRED_ABI, else refused with 125 and the command never runs.
option() {
	ran=$T/ok/ran-$1 need=$2
	shift 2
	rm -f "$ran"
	r $LR "$@" --rw $T/ok -- touch "$ran"
	if at_least "$need"; then
		want_rc 0
		[ -e "$ran" ] || no "$* accepted but the command did not run"
	else
		want_refusal
		want_absent "$ran"
	fi
}
c_strict() { option strict "$(abi_max fs)" --strict; }
c_tcp_option() { option tcp 4 --tcp-connect 80; }
c_scope_option() { option scope 6 --scope signal; }
c_log_option() { option log 7 --no-log; }
c_udp_option() { option udp "$(right_abi udp_connect)" --udp-connect 53; }
# nc runs under busybox timeout: a launcher that fails to confine must not hang the
# guest (a listener whose bind was not denied waits for a peer forever).
c_tcp_connect() {
	r $LR --tcp-connect 80 -- timeout 5 nc 127.0.0.1 81
	want_err 'Permission denied'
	r $LR --tcp-connect 80 -- timeout 5 nc 127.0.0.1 80
	want_err 'Connection refused' # allowed port: reaches the (closed) port
}
c_tcp_bind() {
	r $LR --tcp-bind 8080 -- timeout 2 nc -l -p 8081
	want_rc 1
	want_err 'Permission denied'
	# granted port: nc binds and listens until timeout kills it (143)
	r $LR --tcp-bind 8080 -- timeout 1 nc -l -p 8080
	want_rc 143
}
c_scope_signal() {
	r $LR --scope signal -- kill -0 1
	[ "$rc" != 0 ] || no "kill -0 1 under --scope signal exited 0"
	want_err 'Operation not permitted'
	r $LR --rw $T/ok -- kill -0 1
	want_rc 0 # control: without the scope the same signal check is allowed
}
# A pathname socket made outside the sandbox (tryop listens before any launcher
# runs): from ABI 9 unreachable without a grant and reachable with --unix (the
# socket or its directory) or --rw; before ABI 9 reachable whatever the policy,
# and --unix harmless. A socket made inside stays reachable; --abi 8 on an ABI 9+
# kernel behaves as ABI 8.
c_unix_socket() {
	sock=$T/no/sock
	tryop ulisten $sock >$T/ulisten.out 2>&1 &
	server=$!
	i=0
	while [ "$(cat $T/ulisten.out)" != ready ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	r tryop uconnect $sock
	[ "$out" = ok ] || no "control: connect without the launcher printed [$out]"
	if at_least "$(right_abi resolve_unix)"; then want=EACCES; else want=ok; fi
	for policy in "--rw $T/ok" "--ro / --ro $T/no" "--unix $T/ok"; do
		r $LR $policy -- tryop uconnect $sock
		[ "$out" = $want ] || no "$policy: connect printed [$out], want $want"
	done
	for policy in "--unix $sock" "--unix $T/no" "--rw $T/no" "--ro / --unix $sock"; do
		r $LR $policy -- tryop uconnect $sock
		[ "$out" = ok ] || no "$policy: connect printed [$out], want ok"
	done
	r $LR --rw $T/ok -- tryop uself-path $T/ok/inside
	[ "$out" = ok ] || no "a socket made inside: connect printed [$out], want ok"
	if at_least "$(right_abi resolve_unix)"; then
		r $LR --abi $(($(right_abi resolve_unix) - 1)) -- tryop uconnect $sock
		[ "$out" = ok ] || no "--abi $(($(right_abi resolve_unix) - 1)): connect printed [$out], want ok"
	fi
	kill $server
	wait $server 2>/dev/null
}
# UDP (ABI 10) against two receivers started outside the sandbox: a send to a port
# in --udp-connect arrives, one outside fails with EACCES and does not (the same send
# without the launcher does); bind likewise; once bind is confined, a send from an
# unbound socket needs port 0 in --udp-bind (the ephemeral port it binds); ranges.
got() { grep -c "^got $1\$" $T/udp.out; }
# udp_send WANT PORT ARGS...: tryop udp-send PORT under the launcher with ARGS
# prints WANT, and the datagram arrives exactly when WANT is ok.
udp_send() {
	want=$1 port=$2
	shift 2
	before=$(got $port)
	r $LR "$@" -- tryop udp-send $port
	[ "$out" = $want ] || no "$* send to $port printed [$out], want $want"
	sleep 0.3
	if [ $want = ok ]; then after=$((before + 1)); else after=$before; fi
	[ "$(got $port)" = $after ] || no "$* send to $port: $(got $port) arrived, want $after"
}
c_udp() {
	tryop udp-listen 2 >$T/udp.out 2>&1 &
	server=$!
	i=0
	while [ "$(grep -c '' $T/udp.out)" -lt 2 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	R=$(sed -n 1p $T/udp.out) S=$(sed -n 2p $T/udp.out)
	udp_send ok $R --udp-connect $R
	udp_send EACCES $S --udp-connect $R
	r tryop udp-send $S
	sleep 0.3
	[ "$(got $S)" = 1 ] || no "control: a send to $S without the launcher did not arrive"
	udp_send ok $S --udp-connect "$R,$S-$S"
	udp_send EACCES $R --udp-bind 8080
	udp_send EACCES $R --udp-bind 8080 --udp-connect $R
	udp_send ok $R --udp-bind 0,8080 --udp-connect $R
	udp_send EACCES $R --no-udp
	r $LR --udp-bind 8080 -- tryop udp-bind 8081
	[ "$out" = EACCES ] || no "--udp-bind 8080: bind 8081 printed [$out], want EACCES"
	r tryop udp-bind 8081
	[ "$out" = ok ] || no "control: bind 8081 without the launcher printed [$out]"
	r $LR --udp-bind 8080 -- tryop udp-bind 8080
	[ "$out" = ok ] || no "--udp-bind 8080: bind 8080 printed [$out], want ok"
	r $LR --abi $(($(right_abi udp_connect) - 1)) --udp-connect $R -- true
	want_refusal
	r $LR --probe -v --udp-bind 0 --udp-connect 53
	want_rc 0
	case $out in *"proven="*udp_bind,udp_connect*) ;; *) no "the probe did not prove udp_bind,udp_connect: $out" ;; esac
	kill $server
	wait $server 2>/dev/null
}
# --hide on every kernel (read rights exist since ABI 1): beneath --ro / and with
# no --ro at all, each way to the hidden file fails while a control run without
# --hide reads it; a sibling stays readable; a hidden path beneath --rw is refused.
c_hide() {
	h=$T/home
	mkdir -p $h/.ssh $h/docs $T/ok/ws
	echo SECRET >$h/.ssh/key
	echo sibling >$h/docs/readme
	printf '#!/bin/sh\necho RAN\n' >$h/.ssh/run
	chmod +x $h/.ssh/run
	for policy in "--ro /" ""; do
		while read -r a; do
			# shellcheck disable=SC2086 # the policy is split into its options
			r $LR $policy --rw $T/ok/ws -- sh -c "$a"
			[ "$rc" = 0 ] && [ -n "$out" ] || no "control [$policy] $a: exit $rc, [$out]"
			# shellcheck disable=SC2086
			r $LR $policy --hide $h/.ssh --rw $T/ok/ws -- sh -c "$a"
			[ "$rc" != 0 ] || no "--hide [$policy] $a exited 0"
			case $out in *SECRET* | *RAN* | *key*) no "--hide [$policy] $a printed [$out]" ;; esac
		done <<EOT
cat $h/.ssh/key
cat $h/docs/../.ssh/key
cat /proc/self/root$h/.ssh/key
cd $h/.ssh && cat key
ls $h/.ssh
$h/.ssh/run
tryop open-at $h .ssh/key && cat $h/.ssh/key
ln -sf $h/.ssh/key $T/ok/ws/l && cat $T/ok/ws/l
EOT
		# shellcheck disable=SC2086
		r $LR $policy --hide $h/.ssh -- cat $h/docs/readme
		[ "$out" = sibling ] || no "--hide [$policy]: the sibling read printed [$out] (exit $rc)"
	done
	r $LR --ro / --rw $h --hide $h/.ssh -- true
	want_refusal
}
