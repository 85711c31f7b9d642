# tests/guest/check.sh: the launcher's checks on one real kernel, run as busybox sh
# by the kernel-matrix guest's /init (no bats there). The host passes on the kernel
# command line the ABI this kernel must report, LR_EXPECT_ABI (0: Landlock is not
# enabled at boot); the newest ABI the launcher knows is the newest of the rights
# table tests/rights.sh. The host reads the verdict from the lines printed here:
#   LRINFO key=value          facts for the results table
#   LRCHECK PASS name         one check held
#   LRCHECK FAIL name detail  one check did not
#   LRDONE                    the script ran to the end
# Every check compares an observed effect (exit status, file contents, errno text)
# with what the expected ABI implies; the probe's own report is checked against
# the expectation, never used as it.
#
# A check is a function c_NAME in one of the files sourced below, and a line in
# the table at the end saying when it runs.

E=${LR_EXPECT_ABI:?LR_EXPECT_ABI not set on the kernel command line}
lsm=$(cat /sys/kernel/security/lsm 2>/dev/null)
here=$(dirname "$0")
for f in rights expect off probe confine explain process baseline sockets lockdown; do # rights.sh is tests/rights.sh
	# shellcheck source=/dev/null
	. "$here/$f.sh"
done
K=$(abi_max)
U=$E # the ABI in use: the kernel's, at most the newest the launcher knows
[ "$U" -le "$K" ] || U=$K
echo "LRINFO kernel=$(uname -r) arch=$(uname -m) lsm=$lsm expect_abi=$E known_abi=$K lock=${LR_LOCK:--}"

# NAME: the check c_NAME. WHEN: "off", only where Landlock is not enabled;
# "lock:KIND", only in a lockdown boot of that kind (LR_LOCK, lockdown.sh:
# userns, yama1 to yama3), which runs nothing else; a number N, only where
# Landlock is enabled and the ABI in use is N or newer.
while read -r name when; do
	case $when in
	off) [ "$E" = 0 ] || continue ;;
	lock:*) [ "${LR_LOCK%[0-9]}" = "${when#lock:}" ] || continue ;;
	*) if [ -n "${LR_LOCK:-}" ] || [ "$E" = 0 ] || ! at_least "$when"; then continue; fi ;;
	esac
	check "$name" "c_$name" </dev/null # no check may eat the table
done <<'TABLE'
lsm_off               off
probe_refused         off
probe_json_refused    off
run_refused           off
run_refused_no_grant  off
lsm_on                1
probe                 1
probe_abi             1
probe_rights          1
probe_self_test       1
probe_json            1
abi_option            1
probe_clean           1
write_denied          1
write_granted         1
read_confined         1
truncate              1
strict                1
tcp_option            1
scope_option          1
log_option            1
udp_option            1
tcp_connect           4
tcp_bind              4
scope_signal          6
unix_socket           1
hide                  1
udp                   10
explain_write         1
explain_exec          1
explain_refer         1
explain_truncate      1
explain_tcp           4
explain_signal        6
explain_unix          9
explain_udp           10
explain_filter        1
explain_caps          1
learn                 1
tiocsti               1
caps_dropped          1
no_network            1
baseline              1
metadata              1
private_tmp_socket    1
hide_socket           1
no_unix               1
uffd_dev              1
lock_userns           lock:userns
lock_yama             lock:yama
TABLE
echo LRDONE
