#!/usr/bin/env bash
# scripts/bench/strace.sh: the system calls behind the figures, for
# scripts/bench/report.py: full traces (strace -f) of one launch, of --probe, and
# of 0 and 10,000 grants, and the counts (strace -c -f) at N and 2N grants, whose
# difference over N is the cost of one grant beyond a fixed start-up. Writes
# build/bench/strace-*; if strace cannot run here, says so in a fact instead.
set -euo pipefail
# shellcheck source=scripts/bench/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$g"
N=5000

# trace NAME COMMAND...: every system call of COMMAND and its children.
trace() {
	local name=$1
	shift
	strace -f -qq -o "$out/strace-$name" "$@" >/dev/null
}
# count NAME COMMAND...: strace -c -f's table for COMMAND.
count() {
	local name=$1
	shift
	strace -c -f -o "$out/strace-c-$name" "$@" >/dev/null
}

say "profile: strace"
# shellcheck disable=SC2046,SC2086 # grant lists split into words
if ! (
	trace launch.lr "$lr" $launch_grants -- /bin/true
	trace launch.fl "$floor_ll" $launch_grants -- /bin/true
	trace launch.floor "$floor" /bin/true
	trace probe.lr "$lr" --probe
	trace 0.lr "$lr" --ro / -- /bin/true
	trace 0.fl "$floor_ll" --ro / -- /bin/true
	trace 10k.lr "$lr" $(grants 10000) -- /bin/true
	trace 10k.fl "$floor_ll" $(grants 10000) -- /bin/true
	trace dup.lr "$lr" $(dups 10000) -- /bin/true
	trace hide.lr "$lr" $hide_grants -- /bin/true
	for n in $N $((2 * N)); do
		count "$n.lr" "$lr" $(grants $n) -- /bin/true
		count "$n.fl" "$floor_ll" $(grants $n) -- /bin/true
	done
) 2>"$out/strace.err"; then
	fact strace_note "strace does not work here: $(head -n 1 "$out/strace.err")"
	say "strace does not work here: $(head -n 1 "$out/strace.err")"
fi
fact strace_n "$N"

# install NAME COMMAND...: what the kernel takes to install COMMAND's seccomp filter
# (strace -T of the seccomp call, the median of 200 launches) and the filter's length.
install() {
	local name=$1 i
	shift
	for ((i = 0; i < 200; i++)); do
		strace -T -e trace=seccomp "$@" 2>&1 >/dev/null | sed -n 's/^seccomp(.*<\([0-9.]*\)>$/\1/p'
	done | sort -n | awk '{ t[NR] = $1 } END { if (NR) printf "%.1f\n", t[int((NR + 1) / 2)] * 1e6 }' \
		>"$out/install-$name"
	fact "install_us_$name" "$(cat "$out/install-$name")"
	fact "filter_len_$name" "$(strace -v -e trace=seccomp "$@" 2>&1 >/dev/null | sed -n 's/.*{len=\([0-9]*\),.*/\1/p')"
}
say "profile: the filters' install (strace -T)"
# shellcheck disable=SC2086 # grant lists split into words
if (
	install lr "$lr" $launch_grants -- /bin/true
	install lr_tiocsti "$lr" $tiocsti_only $launch_grants -- /bin/true
	install floor_promise "$floor_pr" $launch_grants -- /bin/true
	install floor_baseline "$floor_bl" $launch_grants -- /bin/true
) 2>"$out/install.err"; then :; else
	fact install_note "the installs could not be timed: $(head -n 1 "$out/install.err")"
fi
