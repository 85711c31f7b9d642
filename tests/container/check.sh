# tests/container/check.sh: the launcher's checks inside one container of the
# container matrix (scripts/container-matrix.sh), run by the image's busybox sh as
# the row's user. The row says what must happen (podman -e, tests/container/rows.txt):
#   LR_LANDLOCK  confines; or EPERM, ENOSYS: the runtime's profile answers the
#                Landlock calls so, and every run exits 125 naming the filter
#   LR_EXPLAIN   works, or refused: the profile refuses ptrace
#   LR_BWRAP     works or fails: what bubblewrap, the control, does here
#   LR_WHERE     the probe's where= ("-" for none)
# Prints what tests/guest/check.sh prints (LRCHECK, LRINFO, LRDONE, read by
# scripts/containers/run.sh), and one LRWHERE line: what landlock-run, --explain
# and --learn, and bubblewrap do here, tab-separated, each from what the checks saw.
# The guest's checks (tests/guest/*.sh, in /guest) are reused where a container
# runs them as a guest does; every effect beside its control.

here=$(dirname "$0")
for f in rights expect off probe confine explain lockdown; do
	# shellcheck source=/dev/null
	. /guest/$f.sh
done
WHERE=${LR_WHERE#-}
FILTER_LINE="landlock-run: a seccomp filter refuses the Landlock system calls (Seccomp: 2 in /proc/self/status): allow"
case $LR_LANDLOCK in
EPERM) errtext="Operation not permitted" ;;
ENOSYS) errtext="Function not implemented" ;;
esac
echo "LRINFO user=$(id -u) seccomp=$(sed -n 's/^Seccomp:[[:space:]]*//p' /proc/self/status) caps=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)"

# ---- where Landlock works -------------------------------------------------
c_probe_here() {
	r $LR --probe -v
	probe=$out
	want_rc 0
	case $(printf '%s\n' "$out" | head -n 1) in
	"landlock: fully enforced" | "landlock: partially enforced (older ABI)") ;;
	*) no "verdict [$(printf '%s\n' "$out" | head -n 1)]" ;;
	esac
	want_key self_test passed
	want_key where "$WHERE"
	[ "$LR_EXPLAIN" = works ] && explained=yes || explained=no
	want_key explain $explained
	abi=$(key abi) fs=$(key fs)
	echo "LRINFO abi=$abi errata=$(key errata)"
	r $LR --probe --json
	want_rc 0
	json_where=\"$(echo "$WHERE" | sed 's/,/","/g')\"
	[ -n "$WHERE" ] || json_where=
	case $out in *"\"where\":[$json_where]"*) ;; *) no "--json lacks \"where\":[$json_where]: $out" ;; esac
}
c_no_network() {
	tryop listen 1 >$T/nn.out 2>&1 &
	server=$!
	i=0
	while [ ! -s $T/nn.out ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	port=$(sed -n 1p $T/nn.out)
	r $LR -- tryop connect $port
	[ "$out" = ok ] || no "control: a TCP connect to 127.0.0.1:$port printed [$out]"
	r $LR --no-network -- tryop connect $port
	[ "$out" = "socket: EAFNOSUPPORT" ] || no "--no-network: the connect printed [$out]"
	kill $server 2>/dev/null
	wait $server 2>/dev/null
}
# the status descriptor: the pid line, the exec line and the end record of a run
# that executes, and the failure line (with its stderr line) of one that does not
c_status_fd() {
	r $LR --status-fd 3 --rw $T/ok -- true 3>$T/status
	want_rc 0
	case $(cat $T/status) in
	'{"pid":'*',"abi":'*',"abi_used":'*',"enforcement":"'*'"}'*'{"exec":true,"pid":'*'{"exit":0}') ;;
	*) no "--status-fd: [$(cat $T/status)]" ;;
	esac
	r $LR --status-fd 3 --rw $T/missing -- true 3>$T/status
	want_refusal
	case $(cat $T/status) in '{"exec":false,"status":125,"error":"landlock-run: '*) ;; *) no "--status-fd failure: [$(cat $T/status)]" ;; esac
}
c_explain() {
	if [ "$LR_EXPLAIN" = works ]; then
		c_explain_write
		return
	fi
	for mode in --explain "--learn $T/ok/policy"; do
		r $LR $mode -- touch $T/ok/ran
		want_refusal
		want_err "${mode%% *} needs ptrace to watch the command, and a seccomp filter refuses it (Seccomp: 2 in /proc/self/status): allow ptrace in its profile"
		want_absent $T/ok/ran
	done
}
c_learn() {
	[ "$LR_EXPLAIN" = works ] || return 0 # refused: c_explain
	# a policy is read only from a policy directory (landlock-run(1), @FILE)
	local P=$T/conf/landlock-run/policy
	mkdir -p $T/conf/landlock-run && chmod 700 $T/conf/landlock-run
	export XDG_CONFIG_HOME=$T/conf
	r $LR --learn $P -- sh -c "echo x > $T/no/l1"
	want_rc 0
	grep -qx -- "--rw=$T/no" $P || no "policy [$(cat $P)] lacks --rw=$T/no"
	r $LR @$P -- sh -c "echo y > $T/no/l2"
	want_rc 0
	want_file $T/no/l2 y
	r $LR @$P -- sh -c "echo z > $T/ok/l3"
	[ "$rc" != 0 ] || no "the learned policy let a write outside it through"
	want_absent $T/ok/l3
	unset XDG_CONFIG_HOME
}

# ---- where a seccomp filter refuses the Landlock calls ----------------------
# want_filter_line: the one line names the filter and what it answered
want_filter_line() {
	want_refusal
	case $err in "$FILTER_LINE"*": $errtext") ;; *) no "not the filter's line: [$err]" ;; esac
}
c_probe_filtered() {
	r $LR --probe
	want_filter_line
	r $LR --probe --json
	want_filter_line
	echo "LRINFO abi=none errata=-"
}
c_run_filtered() {
	c_run_refused # the guest's checks of a launcher that cannot confine
	c_run_refused_no_grant
	r $LR --rw $T/ok -- touch $T/ok/ran
	want_filter_line
	r $LR --explain --rw $T/ok -- touch $T/ok/ran
	want_filter_line
	want_absent $T/ok/ran
}
c_status_fd_filtered() {
	r $LR --status-fd 3 --rw $T/ok -- touch $T/ok/ran 3>$T/status
	want_filter_line
	case $(cat $T/status) in '{"exec":false,"status":125,"error":"landlock-run: a seccomp filter refuses '*) ;; *) no "--status-fd: [$(cat $T/status)]" ;; esac
	want_absent $T/ok/ran
}

# ---- both -----------------------------------------------------------------
# npm: spawnConfined's status and probe() as a Node program sees them
c_npm() {
	# the image always has Node.js (scripts/containers/image.sh): without it, no claim
	command -v node >/dev/null || { no "no node in the image"; return; }
	rm -f $T/ok/npm $T/no/npm
	r node $here/spawn.js $T/ok $T/no
	if [ "$LR_LANDLOCK" = confines ]; then
		case $out in *'"probe":{"enforced":true,'*) ;; *) no "probe(): $out" ;; esac
		case $out in *'"status":{"executed":true,'*'"exit":0'*) ;; *) no "spawnConfined: $out" ;; esac
		want_file $T/ok/npm granted
		want_absent $T/no/npm
	else
		case $out in *'"probe":{"enforced":false,"code":"SECCOMP","where":["seccomp_filter"]'*) ;; *) no "probe(): $out" ;; esac
		case $out in *'"status":{"executed":false,"status":125,"error":"'"$FILTER_LINE"*) ;; *) no "spawnConfined: $out" ;; esac
		want_absent $T/ok/npm
	fi
}
c_bwrap() {
	r /usr/bin/bwrap --ro-bind / / true
	bwrap_rc=$rc bwrap_line=$(bwrap_said)
	if [ "$LR_BWRAP" = works ]; then want_rc 0; else [ "$rc" != 0 ] || no "bubblewrap worked here"; fi
	# a failure is bubblewrap's own refusal, not a bubblewrap that could not run at all
	case $rc:$err in 0:* | *:"bwrap: "*) ;; *) no "bubblewrap did not run: exit $rc, [$err]" ;; esac
}

# NAME: the check c_NAME; WHEN: what LR_LANDLOCK it runs for (confines, or filtered)
failed=
while read -r name when; do
	if [ "$when" = confines ]; then [ "$LR_LANDLOCK" = confines ] || continue; fi
	if [ "$when" = filtered ]; then [ "$LR_LANDLOCK" != confines ] || continue; fi
	check "$name" "c_$name" </dev/null
	[ -z "$why" ] || failed="$failed $name"
done <<'TABLE'
probe_here         confines
write_denied       confines
write_granted      confines
read_confined      confines
hide               confines
no_network         confines
status_fd          confines
explain            confines
learn              confines
probe_filtered     filtered
run_filtered       filtered
status_fd_filtered filtered
npm                both
bwrap              both
TABLE

# The row of the where-it-works table, from what was seen.
if [ "$LR_LANDLOCK" = confines ]; then
	lr="confines (probe: ABI $abi, $fs)"
	[ "$LR_EXPLAIN" = works ] && explained=works || explained="125, names ptrace and the seccomp filter"
else
	lr="125, names the seccomp filter ($LR_LANDLOCK)"
	explained="125, as every run"
fi
case " $failed " in *" explain "* | *" learn "*) explained="FAILED" ;; esac
[ -z "$failed" ] || lr="FAILED:$failed"
[ "$bwrap_rc" = 0 ] && bw=works || bw="fails: $bwrap_line"
printf 'LRWHERE\t%s\t%s\t%s\n' "$lr" "$explained" "$bw"
echo LRDONE
