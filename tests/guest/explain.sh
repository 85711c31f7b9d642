# tests/guest/explain.sh: --explain, --learn and the 126 message on a real kernel
# of each architecture and ABI: each denial produced for real and explained,
# what the ABI does not confine not reported, a learned policy rerun confined.
# Sourced by check.sh.

# denied PATTERN: stderr holds a denial, without its pid, that matches PATTERN,
# a shell pattern (rename* for the call aarch64's libc makes for rename(3)).
denied() {
	e=$(echo "$err" | tr '|' '\n' | sed -n 's/^landlock-run denied: //p' | sed 's/\[[0-9]*\])/)/')
	# shellcheck disable=SC2254 # the pattern is meant to match
	case "|$(echo "$e" | tr '\n' '|')" in
	*"|"$1"|"*) ;;
	*) no "no denial [$1] in [$err]" ;;
	esac
}
undenied() { case $err in *"landlock-run denied"*) no "denials reported: [$err]" ;; esac; }

c_explain_write() {
	r $LR --explain --explain-json $T/e.json --rw $T/ok -- sh -c "echo x > $T/no/e1; exit 3"
	want_rc 3
	want_absent $T/no/e1
	denied "make_reg $T/no/e1 (openat by sh): allow with --rw $T/no"
	grep -q "\"right\":\"make_reg\".*\"path\":\"$T/no/e1\".*\"allow\":\[\"--rw\",\"$T/no\"\]" \
		$T/e.json || no "JSON [$(cat $T/e.json)]"
	# the advice works, and a clean run reports nothing
	r $LR --explain --rw $T/ok --rw $T/no -- sh -c "echo x > $T/no/e1"
	want_rc 0
	undenied
	want_file $T/no/e1 x
}

c_explain_exec() {
	cp /bin/tryop $T/no/tool # a static binary outside every grant
	r $LR --explain --ro /bin -- $T/no/tool abi
	want_rc 126
	denied "execute,read_file $T/no/tool (execve by landlock-run): allow with --ro $T/no/tool"
	# the plain run's 126 line names the file too
	r $LR --ro /bin -- $T/no/tool abi
	want_rc 126
	want_err "(the sandbox denies executing $T/no/tool: grant it with --ro $T/no/tool)"
	r $LR --ro /bin --ro $T/no/tool -- $T/no/tool abi
	want_rc 0
}

# Under --abi 1 no grant allows a move across directories (EXDEV).
c_explain_refer() {
	mkdir -p $T/ok/a $T/ok/b
	: >$T/ok/a/x
	r $LR --explain --abi 1 --rw $T/ok -- tryop rename $T/ok/a/x $T/ok/b/x
	[ "$out" = EXDEV ] || no "rename printed [$out]"
	denied "refer $T/ok/a/x (rename* by tryop): Landlock ABI 1 cannot allow it (refer needs ABI 2)"
}

# truncate(2) is confined from ABI 3: reported there, and not before.
c_explain_truncate() {
	echo data >$T/no/t
	r $LR --explain --rw $T/ok -- tryop truncate $T/no/t
	if at_least "$(right_abi truncate)"; then
		[ "$out" = EACCES ] || no "truncate printed [$out]"
		denied "truncate $T/no/t (truncate by tryop): allow with --rw $T/no/t"
	else
		[ "$out" = ok ] || no "truncate printed [$out] where the ABI cannot stop it"
		undenied
	fi
}

c_explain_tcp() {
	r $LR --explain --tcp-connect 80 -- tryop connect 81
	[ "$out" = EACCES ] || no "connect printed [$out]"
	denied "tcp_connect port 81 (connect by tryop): allow with --tcp-connect 81"
}

c_explain_signal() {
	r $LR --explain --scope signal -- tryop kill 1 0
	[ "$out" = EPERM ] || no "kill printed [$out]"
	denied "signal to pid 1 (kill by tryop): allow by leaving signal out of --scope"
}

c_explain_unix() {
	tryop ulisten $T/no/esock >$T/eulisten.out 2>&1 &
	server=$!
	i=0
	while [ "$(cat $T/eulisten.out)" != ready ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	r $LR --explain --rw $T/ok -- tryop uconnect $T/no/esock
	kill $server
	[ "$out" = EACCES ] || no "connect printed [$out]"
	denied "resolve_unix $T/no/esock (connect by tryop): allow with --unix $T/no/esock"
}

c_explain_udp() {
	r $LR --explain --udp-bind 0 --udp-connect 1 -- tryop udp-send 9
	[ "$out" = EACCES ] || no "send printed [$out]"
	denied "udp_connect port 9 (sendto by tryop): allow with --udp-connect 9"
}

# --learn writes what this ABI can enforce, and the policy runs confined.
c_learn() {
	# a policy is read only from a policy directory (landlock-run(1), @FILE)
	local P=$T/conf/landlock-run/policy
	mkdir -p $T/conf/landlock-run && chmod 700 $T/conf/landlock-run
	export XDG_CONFIG_HOME=$T/conf
	r $LR --learn $P -- sh -c "echo x > $T/no/l1; cat /init >/dev/null"
	want_rc 0
	grep -qx -- "--rw=$T/no" $P || no "policy [$(cat $P)] lacks --rw=$T/no"
	if at_least "$(right_abi tcp_connect)"; then
		grep -qx -- "--tcp-connect=none" $P || no "no --tcp-connect=none"
	elif grep -q -- "--tcp" $P; then
		no "a --tcp line at ABI $U"
	fi
	r $LR --explain @$P -- sh -c "echo y > $T/no/l2; cat /init >/dev/null"
	want_rc 0
	undenied
	want_file $T/no/l2 y
	r $LR @$P -- sh -c "echo z > $T/ok/l3"
	[ "$rc" != 0 ] || no "the learned policy let a write outside it through"
	unset XDG_CONFIG_HOME
}

# Root's change of owner, of nobody's file's mode, and a device, which only the
# capabilities the launcher drops refuse (Landlock has no right for them): named
# as that capability, with no grant (the call is the one the libc makes: chown or
# fchownat, chmod or fchmodat, mknod or mknodat, by each architecture's table).
c_explain_caps() {
	: >$T/ok/c1
	: >$T/ok/c3
	chown 65534 $T/ok/c3
	r $LR --explain --rw $T/ok -- chown 65534 $T/ok/c1
	want_rc 1
	denied "cap_chown $T/ok/c1 (*chown* by chown): not advised: *--keep-caps*"
	r $LR --explain --rw $T/ok -- chmod 600 $T/ok/c3
	want_rc 1
	denied "cap_fowner $T/ok/c3 (*chmod* by chmod): not advised: *"
	r $LR --explain --rw $T/ok -- mknod $T/ok/c2 c 1 3
	want_rc 1
	want_absent $T/ok/c2
	denied "cap_mknod $T/ok/c2 (mknod* by mknod): not advised: *"
	# Control: with --keep-caps the same chown works, and nothing is reported.
	r $LR --explain --keep-caps --rw $T/ok -- chown 65534 $T/ok/c1
	want_rc 0
	undenied
	[ "$(stat -c %u $T/ok/c1)" = 65534 ] || no "--keep-caps: chown left owner $(stat -c %u $T/ok/c1)"
}

# What the system-call filter refuses is explained, and still refused: the
# tracer marks the call (on aarch64 through its register set) and the filter
# refuses it as the command goes on.
c_explain_filter() {
	r $LR --explain --no-network -- sysop socket inet stream
	[ "$out" = EAFNOSUPPORT ] || no "--explain --no-network: socket printed [$out]"
	denied "network AF_INET (socket by sysop): allow by removing --no-network"
	r $LR --explain -- sysop unshare native 10000000
	[ "$out" = EPERM ] || no "--explain: unshare(CLONE_NEWUSER) printed [$out]"
	denied "userns (unshare by sysop): allow with --allow-syscalls userns"
	# The mark is taken back at the call's exit (x5 on aarch64, r9 on x86_64):
	# every register as the plain run leaves it.
	r $LR --no-network -- sysop regs
	plain=$out
	case $plain in *"registers kept") ;; *) no "sysop regs, plain: [$plain]" ;; esac
	r $LR --explain --no-network -- sysop regs
	[ "$out" = "$plain" ] || no "--explain --no-network: sysop regs printed [$out], plain [$plain]"
}
