# tests/guest/probe.sh: what --probe reports on a kernel with Landlock enabled,
# checked against the ABI the kernel must have. Sourced by check.sh.

c_lsm_on() { has "$lsm" landlock || no "landlock not in [$lsm]"; }

key() { printf '%s\n' "$probe" | sed -n "s/^$1=//p"; }
# want_key KEY VALUE: the probe printed KEY=VALUE.
want_key() { [ "$(key "$1")" = "$2" ] || no "$1=$(key "$1"), want [$2]"; }
# From tests/rights.sh: the ABI from which every filesystem right the launcher
# knows is handled ("fully enforced"), and the one that confines pathname sockets.
FULL=$(abi_max fs)
RESOLVE=$(right_abi resolve_unix)
# yes_at N USED: yes where ABI USED has what ABI N brought, else no
yes_at() { if [ "$2" -ge "$1" ]; then echo yes; else echo no; fi; }
full_at() { if [ "$1" -ge "$FULL" ]; then echo full; else echo partial; fi; }
verdict_at() {
	if [ "$1" -ge "$FULL" ]; then echo 'landlock: fully enforced'; else echo 'landlock: partially enforced (older ABI)'; fi
}
# proven_at USED: the denials a probe without policy options proves at USED
proven_at() {
	if [ "$1" -ge "$RESOLVE" ]; then echo read_dir,read_file,write_file,resolve_unix; else echo read_dir,read_file,write_file; fi
}

c_probe() {
	r $LR --probe
	want_rc 0
	[ -z "$err" ] || no "stderr [$err]"
	[ "$out" = "$(verdict_at "$U")" ] || no "--probe printed [$out], want exactly [$(verdict_at "$U")]"
	r $LR --probe -v
	probe=$out
	want_rc 0
	echo "LRINFO abi=$(key abi) errata=$(key errata)"
}
# probe_abi USED: the verdict and ABI keys of $probe, for the ABI in use USED
probe_abi() {
	line1=$(printf '%s\n' "$probe" | head -n 1)
	[ "$line1" = "$(verdict_at "$1")" ] || no "line 1 [$line1], want [$(verdict_at "$1")]"
	want_key abi "$E"
	want_key abi_used "$1"
	want_key fs "$(full_at "$1")"
}
# probe_rights USED: the rights of ABI USED, from tests/rights.sh
probe_rights() {
	want_key fs_handled "$(rights fs "$1")"
	want_key fs_missing "$(rights_missing fs "$1")"
	want_key pathname_sockets "$(yes_at "$RESOLVE" "$1")"
	want_key scopes "$(rights scope "$1")"
	want_key tcp "$(yes_at "$(right_abi tcp_connect)" "$1")"
	want_key udp "$(yes_at "$(right_abi udp_connect)" "$1")"
	want_key log_flags "$(yes_at "$(right_abi --no-log)" "$1")"
	want_key unused "$(rights unused "$1")"
}
c_probe_abi() { probe_abi "$U"; }
c_probe_rights() { probe_rights "$U"; }
c_probe_self_test() {
	want_key self_test passed
	want_key proven "$(proven_at "$U")"
}
c_probe_json() {
	r $LR --probe --json
	want_rc 0
	want=$(full_at "$U")
	case $out in *'"abi":'$E,*) ;; *) no "json lacks \"abi\":$E: $out" ;; esac
	case $out in *'"enforcement":"'$want'"'*) ;; *) no "json lacks enforcement $want: $out" ;; esac
}
# every --abi N up to the ABI in use behaves as ABI N: its verdict, its rights
# (on Linux 7.2 that includes --abi 8, no pathname sockets, and --abi 9, full)
c_abi_option() {
	n=1
	while [ "$n" -le "$U" ]; do
		r $LR --abi $n --probe -v
		probe=$out
		want_rc 0
		probe_abi $n
		probe_rights $n
		want_key proven "$(proven_at $n)"
		n=$((n + 1))
	done
}
# the probe's pathname socket (ABI 9+) goes again: nothing is left in /tmp
c_probe_clean() {
	r $LR --probe
	want_rc 0
	left=$(ls -d /tmp/landlock-run-probe.* 2>/dev/null)
	[ -z "$left" ] || no "the probe left $left"
}
