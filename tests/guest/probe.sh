# tests/guest/probe.sh: what --probe reports on a kernel with Landlock enabled,
# checked against the ABI the kernel must have. Sourced by check.sh.

c_lsm_on() { has "$lsm" landlock || no "landlock not in [$lsm]"; }

key() { printf '%s\n' "$probe" | sed -n "s/^$1=//p"; }
c_probe() {
	if at_least 5; then want='landlock: fully enforced'; else want='landlock: partially enforced (older ABI)'; fi
	r $LR --probe
	want_rc 0
	[ -z "$err" ] || no "stderr [$err]"
	[ "$out" = "$want" ] || no "--probe printed [$out], want exactly [$want]"
	r $LR --probe -v
	probe=$out
	want_rc 0
	line1=$(printf '%s\n' "$probe" | head -n 1)
	[ "$line1" = "$want" ] || no "-v line 1 [$line1], want [$want]"
	echo "LRINFO abi=$(key abi) errata=$(key errata)"
}
# want_key KEY VALUE: the probe printed KEY=VALUE.
want_key() { [ "$(key "$1")" = "$2" ] || no "$1=$(key "$1"), want [$2]"; }
# yes_from N: yes where the ABI in use is N or newer, else no
yes_from() { if at_least "$1"; then echo yes; else echo no; fi; }
c_probe_abi() {
	want_key abi "$E"
	want_key abi_used "$U"
	if at_least 5; then want_key fs full; else want_key fs partial; fi
}
# the rights of the ABI in use, from tests/rights.sh
c_probe_rights() {
	want_key fs_handled "$(rights fs "$U")"
	want_key fs_missing "$(rights_missing fs "$U")"
	want_key scopes "$(rights scope "$U")"
	want_key tcp "$(yes_from "$(right_abi tcp_connect)")"
	want_key log_flags "$(yes_from "$(right_abi --no-log)")"
}
c_probe_self_test() {
	[ "$(key self_test)" = passed ] || no "self_test=$(key self_test)"
	for right in read_dir read_file write_file; do
		has "$(key proven)" $right || no "proven=[$(key proven)] lacks $right"
	done
}
c_probe_json() {
	r $LR --probe --json
	want_rc 0
	if at_least 5; then want=full; else want=partial; fi
	case $out in *'"abi":'$E,*) ;; *) no "json lacks \"abi\":$E: $out" ;; esac
	case $out in *'"enforcement":"'$want'"'*) ;; *) no "json lacks enforcement $want: $out" ;; esac
}
c_abi_option() {
	r $LR --abi 1 --probe -v
	want_rc 0
	case $out in *"abi=$E"*) ;; *) no "--abi 1 changed abi=: $out" ;; esac
	case $out in *"abi_used=1"*) ;; *) no "--abi 1 gave no abi_used=1" ;; esac
}
