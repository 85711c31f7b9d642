#!/usr/bin/env bash
# scripts/bench/perf.sh: where the CPU time goes, by perf's software cpu-clock
# sampling (this VM has no hardware counters) of many runs of a launch, of 10,000
# grants and of --probe, on the unstripped launcher (make build/bench/syms/landlock-run).
# Writes build/bench/perf-NAME.txt (perf script) and, per binary, the addresses
# right after a system call instruction (build/bench/sites-BINARY), where a sample
# is the cost of entering and leaving the kernel. Says in a fact why not, where
# perf cannot run (LR_BENCH_PERF=0 skips it).
set -euo pipefail
# shellcheck source=scripts/bench/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$g"

note() {
	fact perf_note "$1"
	say "$1"
	exit 0
}
[ "${LR_BENCH_PERF:-1}" != 0 ] || note "perf skipped (LR_BENCH_PERF=0)"
command -v perf >/dev/null || note "perf is not installed (Debian: linux-perf, matching the running kernel)"
perf record -q -e cpu-clock -o "$out/perf.data" -- /bin/true >/dev/null 2>"$out/perf.err" ||
	note "perf record -e cpu-clock does not work here: $(head -n 1 "$out/perf.err")"

# prof NAME RUNS COMMAND...: sample RUNS runs of COMMAND into $out/perf-NAME.txt
# shellcheck disable=SC2016 # $1 and $@ expand in the inner bash
prof() {
	local name=$1 runs=$2
	shift 2
	perf record -q -g -F 20000 -e cpu-clock -o "$out/perf.data" -- \
		bash -c 'n=$1; shift; for ((i = 0; i < n; i++)); do "$@" || exit 1; done' loop "$runs" "$@" \
		>/dev/null 2>"$out/perf.err" &&
		perf script -i "$out/perf.data" -F comm,ip,sym,dso >"$out/perf-$name.txt" 2>/dev/null
}

say "profile: perf (software cpu-clock sampling)"
# shellcheck disable=SC2046,SC2086 # grant lists split into words
if ! { prof launch-lr 1000 "$sym" $launch_grants -- /bin/true &&
	prof launch-fl 1000 "$floor_ll" $launch_grants -- /bin/true &&
	prof launch-floor 1000 "$floor" /bin/true &&
	prof 10k-lr 10 "$sym" $(grants 10000) -- /bin/true &&
	prof 10k-fl 10 "$floor_ll" $(grants 10000) -- /bin/true &&
	prof probe 500 "$sym" --probe; }; then
	note "perf record failed here: $(head -n 1 "$out/perf.err" 2>/dev/null)"
fi

# The address after each syscall (x86_64) or svc (aarch64) instruction, as perf
# script prints a user address of these static binaries: from the start of the
# first loaded segment (its vaddr less its file offset), in hex.
for bin in "$sym" "$floor" "$floor_ll"; do
	read -r off vaddr < <(objdump -p "$bin" | awk '$1 == "LOAD" { print $3, $5; exit }')
	objdump -d --no-show-raw-insn "$bin" | awk '
		after && /^ *[0-9a-f]+:/ { sub(/:.*/, ""); print $1; after = 0 }
		/^ *[0-9a-f]+:\t(syscall|svc)([ \t]|$)/ { after = 1 }' |
		while read -r a; do printf '%x\n' $((16#$a - (vaddr - off))); done >"$out/sites-$(basename "$bin")"
done
