# tests/guest/baseline.sh: the seccomp filter's groups beyond the terminal on a
# real kernel: --no-network (on every ABI: below 4 the only network control),
# the baseline (io_uring, user namespaces, keyring, bpf, perf, userfaultfd) and
# root's metadata; the guest runs as root. Every refusal beside its control
# (without the launcher, or with the opt-out). Sourced by check.sh.

ALL=io_uring,userns,keyring,bpf,perf,userfaultfd,metadata
NEWUSER=10000000 # CLONE_NEWUSER, as sysop takes flags (hex)

# refused ERRNO CMD...: with every group allowed CMD prints ok, by default ERRNO
refused() {
	want=$1
	shift
	r $LR $OPTS --allow-syscalls $ALL -- "$@"
	[ "$out" = ok ] || no "control: $* with every group allowed printed [$out] $err"
	r $LR $OPTS -- "$@"
	[ "$out" = "$want" ] || no "$* printed [$out], want $want"
}
OPTS=

c_no_network() {
	tryop listen 1 >$T/nn-tcp.out 2>&1 &
	tcp=$!
	tryop udp-listen 1 >$T/nn-udp.out 2>&1 &
	udp=$!
	i=0
	while { [ ! -s $T/nn-tcp.out ] || [ ! -s $T/nn-udp.out ]; } && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	P=$(sed -n 1p $T/nn-tcp.out) Q=$(sed -n 1p $T/nn-udp.out)
	r $LR -- tryop connect $P
	[ "$out" = ok ] || no "control: TCP connect printed [$out]"
	r $LR --no-network -- tryop connect $P
	[ "$out" = "socket: EAFNOSUPPORT" ] || no "--no-network: TCP connect printed [$out]"
	r $LR --no-network -- tryop udp-send $Q
	[ "$out" = "socket: EAFNOSUPPORT" ] || no "--no-network: UDP send printed [$out]"
	r $LR -- tryop udp-send $Q
	sleep 0.3
	[ "$(grep -c "^got $Q\$" $T/nn-udp.out)" = 1 ] || no "one datagram (the control's) should have arrived: $(cat $T/nn-udp.out)"
	kill $tcp $udp
	for fam in "inet6 stream" "netlink dgram"; do
		r sysop socket $fam
		[ "$out" = ok ] || { echo "LRINFO no_network: $fam without the launcher: $out"; continue; }
		r $LR --no-network -- sysop socket $fam
		[ "$out" = EAFNOSUPPORT ] || no "--no-network: $fam printed [$out]"
	done
	r $LR --keep-caps -- sysop socket packet dgram
	[ "$out" = ok ] || no "control: a packet socket with root's capabilities printed [$out]"
	r $LR --keep-caps --no-network -- sysop socket packet dgram
	[ "$out" = EAFNOSUPPORT ] || no "--no-network: a packet socket printed [$out]"
	echo "0 2147483647" >/proc/sys/net/ipv4/ping_group_range
	r $LR -- sysop ping
	[ "$out" = ok ] || no "control: a ping socket printed [$out]"
	r $LR --no-network -- sysop ping
	[ "$out" = EAFNOSUPPORT ] || no "--no-network: a ping socket printed [$out]"
	r $LR --no-network -- sysop socketpair unix
	[ "$out" = ok ] || no "--no-network: a UNIX socketpair printed [$out]"
	if [ "$(uname -m)" = x86_64 ]; then
		r $LR --no-network -- sysop socket32 inet
		[ "$out" = EAFNOSUPPORT ] || no "--no-network: i386 socket printed [$out]"
		r $LR --no-network -- sysop socketcall unix
		[ "$out" = EAFNOSUPPORT ] || no "--no-network: i386 socketcall printed [$out]"
	fi
	r $LR --probe -v --no-network
	want_rc 0
	printf '%s\n' "$out" | grep -qx 'network_confined=all' || no "probe --no-network: no network_confined=all: $out"
}

c_baseline() {
	refused ENOSYS sysop io_uring-setup
	r $LR --rw $T/ok -- sysop uring-or-write $T/ok/uring written
	[ "$out" = "fallback: ENOSYS" ] || no "io_uring fallback printed [$out]"
	want_file $T/ok/uring written
	r $LR --rw $T/ok --allow-syscalls io_uring -- sysop io_uring-write $T/ok/uring2 ring
	[ "$out" = io_uring ] || no "io_uring write with the opt-out printed [$out]"
	want_file $T/ok/uring2 ring
	refused EPERM sysop unshare native $NEWUSER
	refused EPERM sysop clone native $NEWUSER
	refused ENOSYS sysop clone3 0
	if [ "$(uname -m)" = x86_64 ]; then
		refused EPERM sysop clone i386 $NEWUSER
		refused EPERM sysop unshare i386 $NEWUSER
		refused EPERM sysop clone x32 $NEWUSER # booted with syscall.x32=y
	fi
	refused ENOSYS sysop keyctl
	refused EPERM sysop userfaultfd
	# a map needs CAP_BPF; Debian's perf_event_paranoid 3 wants CAP_PERFMON: with
	# root's capabilities kept, only the filter refuses
	OPTS=--keep-caps
	refused EPERM sysop bpf
	refused EACCES sysop perf
	OPTS=
	r $LR --probe -v
	want_rc 0
	printf '%s\n' "$out" | grep -qx "baseline=$ALL" || no "probe: no baseline=$ALL: $out"
	echo "LRINFO baseline_unprovable=$(printf '%s\n' "$out" | sed -n 's/^unprovable=//p')"
}

c_metadata() {
	echo x >$T/no/victim
	chmod 644 $T/no/victim
	r $LR --rw $T/ok --allow-syscalls metadata -- chmod u+s $T/no/victim
	want_rc 0
	[ "$(stat -c %a $T/no/victim)" = 4644 ] || no "control: chmod u+s gave $(stat -c %a $T/no/victim)"
	chmod 644 $T/no/victim
	r $LR --rw $T/ok -- chmod u+s $T/no/victim
	[ "$rc" != 0 ] || no "chmod u+s outside the grants exited 0"
	[ "$(stat -c %a $T/no/victim)" = 644 ] || no "chmod u+s outside the grants: $(stat -c %a $T/no/victim)"
	# user xattrs on tmpfs need Linux 6.6: before, the control says EOPNOTSUPP
	r $LR --allow-syscalls metadata -- sysop setxattr $T/no/victim
	case $out in ok | EOPNOTSUPP) ;; *) no "control: setxattr printed [$out]" ;; esac
	r $LR -- sysop setxattr $T/no/victim
	[ "$out" = EOPNOTSUPP ] || no "setxattr printed [$out], want EOPNOTSUPP"
	echo x >$T/ok/built
	r $LR --rw $T/ok -- chmod +x $T/ok/built
	want_rc 0
	[ "$(stat -c %a $T/ok/built)" = 755 ] || no "chmod +x in the grant: $(stat -c %a $T/ok/built)"
	r $LR --rw $T/ok --allow-syscalls metadata -- sysop create $T/ok/setuid 4755
	[ "$out" = ok ] || no "control: creating a setuid file printed [$out]"
	rm -f $T/ok/setuid
	r $LR --rw $T/ok -- sysop create $T/ok/setuid 4755
	[ "$out" = EPERM ] || no "creating a setuid file printed [$out], want EPERM"
	want_absent $T/ok/setuid
}
