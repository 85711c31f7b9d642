#!/usr/bin/env bash
# scripts/bench/timing.sh: time every case of scripts/bench/cases.sh with
# `hyperfine -N` (no shell). Each group's rounds are spread among the other
# groups' rounds, so background load falls on all of them alike. Writes
# build/bench/cases.tsv (GROUP, NAME, COMMAND), groups.tsv (GROUP, RUNS, WARMUP,
# ROUNDS) and json/GROUP-R.json (round R) for scripts/bench/report.py. Ends with one line "N passed, N failed".
#   LR_BENCH_ROUNDS=N   launch rounds (default 30)
#   LR_BENCH_SROUNDS=N  rounds at 10,000 grants (default 8; 3N up to 1,000)
set -euo pipefail
# shellcheck source=scripts/bench/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/tally.sh
. "$root/scripts/tally.sh"
rounds=${LR_BENCH_ROUNDS:-30}
srounds=${LR_BENCH_SROUNDS:-8}

declare -A runs warmup nrounds done_rounds
groups=()
group() {
	groups+=("$1")
	runs[$1]=$2 warmup[$1]=$3 nrounds[$1]=$4 done_rounds[$1]=0
}
bench() { printf '%s\t%s\t%s\n' "${groups[-1]}" "$1" "$2" >>"$out/cases.tsv"; }
mkdir -p "$out/json"
: >"$out/cases.tsv"
: >"$out/groups.tsv"
# shellcheck source=scripts/bench/cases.sh
. "$root/scripts/bench/cases.sh"

# hf GROUP: one more round of GROUP: hyperfine over all its cases, in an order
# rotated by one case each round. Where a case stands in a hyperfine run moves
# its time here (the same command four times over: 835, 766, 759 and 793 µs),
# so a fixed order would put a fixed bias into every ratio.
hf() {
	local r=$((done_rounds[$1] + 1)) file args=() grp name cmd i
	local -a cases=()
	done_rounds[$1]=$r
	file=$out/json/$1-$r.json
	while IFS=$'\t' read -r grp name cmd; do
		[ "$grp" = "$1" ] && cases+=("$name" "$cmd")
	done <"$out/cases.tsv"
	for ((i = 0; i < ${#cases[@]} / 2; i++)); do
		local k=$(((i + r - 1) % (${#cases[@]} / 2) * 2))
		args+=(-n "${cases[k]}" "${cases[k + 1]}")
	done
	if ! (cd "$g" && hyperfine -N --style none --warmup "${warmup[$1]}" --runs "${runs[$1]}" \
		--export-json "$file" "${args[@]}") >"$file.log" 2>&1; then
		say "hyperfine failed on $1, round $r; its last lines:"
		tail -n 3 "$file.log" | cut -c 1-400 >&2
		return 1
	fi
}

most=0
for grp in "${groups[@]}"; do
	printf '%s\t%s\t%s\t%s\n' "$grp" "${runs[$grp]}" "${warmup[$grp]}" "${nrounds[$grp]}" >>"$out/groups.tsv"
	say "$grp: ${nrounds[$grp]} rounds x ${runs[$grp]} runs of" \
		"$(awk -F'\t' -v g="$grp" '$1 == g' "$out/cases.tsv" | wc -l) cases"
	[ "${nrounds[$grp]}" -le "$most" ] || most=${nrounds[$grp]}
done
# Step s of $most runs a group of R rounds when R * s / most reaches a new integer.
ok=0
for ((s = 1; s <= most; s++)); do
	for grp in "${groups[@]}"; do
		if ((nrounds[$grp] * s / most > nrounds[$grp] * (s - 1) / most)); then
			hf "$grp" || ok=1
		fi
	done
done
tally_result "$ok" "every benchmark command ran (hyperfine)"
tally_total
