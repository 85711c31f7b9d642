# tests/guest/probe.sh: what --probe reports on a kernel with Landlock enabled,
# checked against the ABI the kernel must have. Sourced by check.sh.

c_lsm_on() { has "$lsm" landlock || no "landlock not in [$lsm]"; }

key() { printf '%s\n' "$probe" | sed -n "s/^$1=//p"; }
c_probe() {
	r $LR --probe
	probe=$out
	want_rc 0
	[ -z "$err" ] || no "stderr [$err]"
	line1=$(printf '%s\n' "$probe" | head -n 1)
	if at_least 5; then want='landlock: fully enforced'; else want='landlock: partially enforced (older ABI)'; fi
	[ "$line1" = "$want" ] || no "line 1 [$line1], want [$want]"
	echo "LRINFO abi=$(key abi) errata=$(key errata)"
}
c_probe_abi() {
	[ "$(key abi)" = "$E" ] || no "abi=$(key abi), want $E"
	[ "$(key abi_used)" = "$U" ] || no "abi_used=$(key abi_used), want $U"
	if at_least 5; then want=full; else want=partial; fi
	[ "$(key fs)" = $want ] || no "fs=$(key fs), want $want"
}
c_probe_rights() {
	# ABI 3 added truncate, 5 ioctl_dev, 4 TCP, 6 scopes, 7 log flags
	for right_abi in truncate:3 ioctl_dev:5 refer:2; do
		right=${right_abi%:*}
		if at_least "${right_abi#*:}"; then
			has "$(key fs_handled)" "$right" || no "fs_handled lacks $right"
			has "$(key fs_missing)" "$right" && no "fs_missing has $right"
		else
			has "$(key fs_handled)" "$right" && no "fs_handled has $right"
			has "$(key fs_missing)" "$right" || no "fs_missing lacks $right"
		fi
	done
	if at_least 4; then want=yes; else want=no; fi
	[ "$(key tcp)" = $want ] || no "tcp=$(key tcp), want $want"
	if at_least 6; then want=abstract-unix,signal; else want=; fi
	[ "$(key scopes)" = "$want" ] || no "scopes=$(key scopes), want [$want]"
	if at_least 7; then want=yes; else want=no; fi
	[ "$(key log_flags)" = $want ] || no "log_flags=$(key log_flags), want $want"
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
	r $LR --abi 1 --probe
	want_rc 0
	case $out in *"abi=$E"*) ;; *) no "--abi 1 changed abi=: $out" ;; esac
	case $out in *"abi_used=1"*) ;; *) no "--abi 1 gave no abi_used=1" ;; esac
}
