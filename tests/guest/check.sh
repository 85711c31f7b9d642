# tests/guest/check.sh: the launcher's checks on one real kernel, run by busybox sh
# inside the kernel-matrix guest (no bats there). The host passes the ABI this
# kernel must have as LR_EXPECT_ABI on the kernel command line (0: Landlock is not
# enabled at boot) and reads the verdict from the lines printed here:
#   LRINFO key=value          facts for the results table
#   LRCHECK PASS name         one check held
#   LRCHECK FAIL name detail  one check did not
#   LRDONE                    the script ran to the end
# Every check compares an observed effect (exit status, file contents, errno text)
# with what the expected ABI implies; the probe's own report is checked against
# the expectation, never used as it.

E=${LR_EXPECT_ABI:?LR_EXPECT_ABI not set on the kernel command line}
LR=/bin/landlock-run
T=/tmp/lr      # ok/ is what --rw grants; no/ is outside every grant
mkdir -p $T/ok $T/no

# r CMD...: run CMD; $rc, $out and $err (newlines shown as |) keep what it did.
r() {
	"$@" >/tmp/r.out 2>/tmp/r.err
	rc=$?
	out=$(cat /tmp/r.out)
	err=$(tr '\n' '|' </tmp/r.err)
	err=${err%|}
}

# check NAME FUNC: run FUNC, which appends reasons to $why when something is off.
check() {
	why=
	"$2"
	if [ -z "$why" ]; then
		echo "LRCHECK PASS $1"
	else
		echo "LRCHECK FAIL $1 $why"
	fi
}
no() { why="$why $*;"; }
want_rc() { [ "$rc" = "$1" ] || no "exit $rc, want $1 (stderr: $err)"; }
want_err() { case $err in *"$1"*) ;; *) no "stderr [$err] lacks [$1]" ;; esac; }
# the launcher's failure shape: exit 125, one stderr line "landlock-run: ...", no stdout
want_refusal() {
	want_rc 125
	[ -z "$out" ] || no "stdout [$out] on refusal"
	case $err in
	"landlock-run: "*"|"*) no "more than one stderr line [$err]" ;;
	"landlock-run: "*) ;;
	*) no "stderr [$err] is not one 'landlock-run: ' line" ;;
	esac
}
want_file() { [ "$(cat "$1" 2>/dev/null)" = "$2" ] || no "$1 holds [$(cat "$1" 2>&1)], want [$2]"; }
want_absent() { [ ! -e "$1" ] || no "$1 exists: the command ran"; }
want_empty() {
	if [ ! -f "$1" ] || [ -s "$1" ]; then no "$1 has $(wc -c <"$1") bytes, want 0 ($2)"; fi
}
has() { case ",$1," in *",$2,"*) return 0 ;; esac; return 1; }
# at_least N: the expected ABI is N or newer
at_least() { [ "$E" -ge "$1" ]; }

lsm=$(cat /sys/kernel/security/lsm 2>/dev/null)
echo "LRINFO kernel=$(uname -r) arch=$(uname -m) lsm=$lsm expect_abi=$E"

# ---- Landlock not enabled at boot (lsm= without landlock): fail closed ----------
c_lsm_off() { has "$lsm" landlock && no "landlock is active: [$lsm]"; }
c_probe_refused() {
	r $LR --probe
	want_refusal
	echo "LRINFO refusal=$err"
}
c_probe_json_refused() { r $LR --probe --json; want_refusal; }
c_run_refused() {
	r $LR --rw $T/ok -- touch $T/ok/ran
	want_refusal
	want_absent $T/ok/ran
}
c_run_refused_no_grant() {
	r $LR -- sh -c "echo ran > $T/no/ran"
	want_refusal
	want_absent $T/no/ran
}

# ---- Landlock enabled -------------------------------------------------------------
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
	[ "$(key abi_used)" = "$E" ] || no "abi_used=$(key abi_used), want $E"
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
	r $LR --rw $T/ok -- lr-truncate $T/no/trunc
	if at_least 3; then
		want_rc 1
		want_err 'Permission denied'
		want_file $T/no/trunc data
	else
		want_rc 0
		want_empty $T/no/trunc "ABI 2 cannot stop truncate(2)"
	fi
	r $LR --rw $T/ok -- lr-truncate $T/ok/trunc
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
c_strict() { option strict 5 --strict; }
c_tcp_option() { option tcp 4 --tcp-connect 80; }
c_scope_option() { option scope 6 --scope signal; }
c_log_option() { option log 7 --no-log; }
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

if [ "$E" = 0 ]; then
	echo "LRINFO abi=none errata=-"
	check lsm_off c_lsm_off
	check probe_refused c_probe_refused
	check probe_json_refused c_probe_json_refused
	check run_refused c_run_refused
	check run_refused_no_grant c_run_refused_no_grant
else
	check lsm_on c_lsm_on
	check probe c_probe
	check probe_abi c_probe_abi
	check probe_rights c_probe_rights
	check probe_self_test c_probe_self_test
	check probe_json c_probe_json
	check abi_option c_abi_option
	check write_denied c_write_denied
	check write_granted c_write_granted
	check read_confined c_read_confined
	check truncate c_truncate
	check strict c_strict
	check tcp_option c_tcp_option
	check scope_option c_scope_option
	check log_option c_log_option
	if at_least 4; then
		check tcp_connect c_tcp_connect
		check tcp_bind c_tcp_bind
	fi
	if at_least 6; then
		check scope_signal c_scope_signal
	fi
fi
echo LRDONE
