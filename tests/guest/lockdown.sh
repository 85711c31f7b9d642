# tests/guest/lockdown.sh: hosts that lock down what bubblewrap and --explain
# need (issue 29), in boots of their own (LR_LOCK on the kernel command line,
# the last column of kernels.txt): user namespaces (user.max_user_namespaces=0,
# and Debian's kernel.unprivileged_userns_clone=0 where the kernel has it), and
# Yama's kernel.yama.ptrace_scope 1, 2 and 3. Each check first runs its control
# at the kernel's defaults, then sets the sysctls and runs the same commands as
# root and as nobody. The host builds the README's "where it works" rows from
# the LRWHERE lines (tab-separated: user, landlock-run, --explain and --learn,
# bubblewrap), each cell from what the check saw. Sourced by check.sh.

BW="/usr/bin/bwrap --ro-bind / / true"

# as WHO CMD...: CMD as root, or as nobody (uid and gid 65534, no groups:
# busybox's nsenter with no namespace to enter only sets them)
as() {
	who=$1
	shift
	if [ "$who" = root ]; then "$@"; else nsenter -S 65534 -G 65534 "$@"; fi
}

# lock NAME VALUE: set a sysctl and say so; fails the check when it does not hold.
lock() {
	echo "$2" >"/proc/sys/$(echo "$1" | tr . /)" 2>/dev/null
	[ "$(sysctl -n "$1")" = "$2" ] || no "cannot set $1=$2"
	locked="$locked${locked:+, }$1=$2"
}

# where_row WHO LANDLOCK EXPLAIN BWRAP: one row of the where-it-works table.
where_row() { printf 'LRWHERE\t%s\t%s\t%s\t%s\t%s\n' "$locked" "$1" "$2" "$3" "$4"; }

# dirs WHO: $d, WHO's directory: ok/ is what --rw grants, no/ is outside.
dirs() {
	d=$T/$1-$$
	mkdir -p $d/ok $d/no
	chmod -R 777 $d
}

# confines WHO: as WHO the probe passes and a write outside --rw is denied
# while a granted one lands (and the same write without the launcher works);
# $cell is what landlock-run does here.
confines() {
	dirs $1
	r as $1 $LR --probe -v
	probe=$out
	want_rc 0
	[ "$(key abi)" = "$E" ] || no "$1: the probe says abi=$(key abi), want $E"
	r as $1 $LR --rw $d/ok -- sh -c "echo x >$d/no/denied; echo y >$d/ok/granted"
	want_err 'Permission denied'
	want_absent $d/no/denied
	want_file $d/ok/granted y
	r as $1 sh -c "echo x >$d/no/control"
	want_file $d/no/control x
	cell="confines (probe: ABI $(key abi), $(key fs))"
	[ -z "$why" ] || cell="FAILED"
}

# explains WHO WANT: --explain and --learn as WHO work (WANT "works"), or exit
# 125 with one line that names ptrace and WANT (the setting), and nothing runs;
# the probe's explain= and where= say the same. $cell says which it saw.
explains() {
	dirs $1
	rm -f $d/ok/policy $d/ok/ran-e $d/ok/ran-l $d/no/e
	r as $1 $LR --explain --rw $d/ok -- sh -c "echo x >$d/no/e; touch $d/ok/ran-e"
	if [ "$2" = works ]; then
		want_err "landlock-run denied: make_reg $d/no/e"
		[ -e $d/ok/ran-e ] || no "$1: --explain did not run the command"
	else
		want_refusal
		want_err "needs ptrace to watch the command, and Yama"
		want_err "$2"
		want_absent $d/ok/ran-e
	fi
	r as $1 $LR --learn $d/ok/policy -- touch $d/ok/ran-l
	if [ "$2" = works ]; then
		want_rc 0
		grep -qx -- "--rw=$d/ok" $d/ok/policy || no "$1: --learn wrote [$(cat $d/ok/policy 2>&1)]"
	else
		want_refusal
		want_err "$2"
		want_absent $d/ok/ran-l
	fi
	r as $1 $LR --probe -v
	probe=$out
	if [ "$2" = works ]; then
		[ "$(key explain)" = yes ] && [ "$(key where)" = "" ] || no "$1: explain=$(key explain) where=$(key where)"
		cell=works
	else
		[ "$(key explain)" = no ] && [ "$(key where)" = ptrace_refused ] || no "$1: explain=$(key explain) where=$(key where)"
		cell="125, names ptrace ($2)"
	fi
}

# bwrap_cell WHO: what bubblewrap does here as WHO: works, or fails with the
# first sentence of its first line.
bwrap_cell() {
	r as $1 $BW
	if [ "$rc" = 0 ]; then cell=works; else cell="fails: $(bwrap_said)"; fi
}
bwrap_said() {
	line=${err%%|*}
	line=${line#bwrap: }
	echo "${line%%. *}"
}

c_lock_userns() {
	locked=
	r as nobody $BW
	[ "$rc" = 0 ] || no "control: bubblewrap as nobody before the lockdown: exit $rc, $err"
	lock user.max_user_namespaces 0
	[ ! -e /proc/sys/kernel/unprivileged_userns_clone ] || lock kernel.unprivileged_userns_clone 0
	echo "LRINFO locked=$locked"
	for who in nobody root; do
		bwrap_cell $who
		bw=$cell
		[ $who = root ] || [ "$bw" != works ] || no "bubblewrap as nobody worked with user namespaces locked down"
		confines $who
		lr=$cell
		explains $who works
		where_row $who "$lr" "$cell" "$bw"
	done
	echo "LRINFO abi=$(key abi) errata=$(key errata)"
}

# yama N: ptrace_scope N refuses a tracer of its own child exactly at 3, and at
# 2 for one without CAP_SYS_PTRACE (nobody; root keeps it until the tracer
# attached).
c_lock_yama() {
	locked=
	n=${LR_LOCK#yama}
	[ -e /proc/sys/kernel/yama/ptrace_scope ] || { no "no Yama in this kernel"; return; }
	explains nobody works # control: the kernel's default scope
	[ -z "$why" ] || why="control at ptrace_scope $(cat /proc/sys/kernel/yama/ptrace_scope):$why"
	lock kernel.yama.ptrace_scope "$n"
	echo "LRINFO locked=$locked"
	for who in nobody root; do
		want=works
		[ "$n" = 3 ] && want="kernel.yama.ptrace_scope is 3"
		[ "$n" = 2 ] && [ $who = nobody ] && want="kernel.yama.ptrace_scope is 2"
		bwrap_cell $who
		bw=$cell
		confines $who
		lr=$cell
		explains $who "$want"
		where_row $who "$lr" "$cell" "$bw"
	done
	echo "LRINFO abi=$(key abi) errata=$(key errata)"
}
