#!/usr/bin/env bash
# scripts/bench/timing.sh: time every case of scripts/bench/cases.sh in
# interleaved single runs (build/bench/rounds, scripts/bench/rounds.c): each
# round of a group runs each of its cases once, in an order rotated by one case
# each round, so the machine's drift and the cost of running first in a round
# fall on every case alike and a ratio compares runs made side by side. (Loops
# of one command at a time drifted here: the same command in four loops of one
# run took 835, 766, 759 and 793 µs.) Writes build/bench/cases.tsv (GROUP, NAME,
# COMMAND), groups.tsv (GROUP, ROUNDS, WARMUP) and runs/GROUP.tsv (ROUND,
# NAME, WALL_NS, CPU_US) for scripts/bench/report.py. Ends with one line "N
# passed, N failed".
#   LR_BENCH_ROUNDS=N   rounds of the launch-sized groups (default 2000)
#   LR_BENCH_SROUNDS=N  rounds of the groups of slow cases (default 30)
set -euo pipefail
# shellcheck source=scripts/bench/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/tally.sh
. "$root/scripts/tally.sh"
rounds=${LR_BENCH_ROUNDS:-2000}
srounds=${LR_BENCH_SROUNDS:-30}

declare -A nrounds warmup
groups=()
group() {
	groups+=("$1")
	nrounds[$1]=$2 warmup[$1]=$3
}
bench() { printf '%s\t%s\t%s\n' "${groups[-1]}" "$1" "$2" >>"$out/cases.tsv"; }
mkdir -p "$out/runs"
: >"$out/cases.tsv"
: >"$out/groups.tsv"
# shellcheck source=scripts/bench/cases.sh
. "$root/scripts/bench/cases.sh"

ok=0
for grp in "${groups[@]}"; do
	printf '%s\t%s\t%s\n' "$grp" "${nrounds[$grp]}" "${warmup[$grp]}" >>"$out/groups.tsv"
	awk -F'\t' -v g="$grp" '$1 == g { print $2 "\t" $3 }' "$out/cases.tsv" >"$out/runs/$grp.cases"
	say "$grp: ${nrounds[$grp]} rounds of $(wc -l <"$out/runs/$grp.cases") cases"
	if ! (cd "$g" && "$out/rounds" "${nrounds[$grp]}" "${warmup[$grp]}" "$out/runs/$grp.cases" \
		"$out/runs/$grp.tsv"); then
		say "the timing of $grp failed"
		ok=1
	fi
done
tally_result "$ok" "every benchmark command ran, every run exited 0"
tally_total
