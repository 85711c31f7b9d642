# tests/guest/off.sh: checks for a kernel with Landlock built in but not enabled at
# boot (lsm= without landlock): the launcher fails closed. Sourced by check.sh.

c_lsm_off() {
	echo "LRINFO abi=none errata=-"
	has "$lsm" landlock && no "landlock is active: [$lsm]"
}
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
