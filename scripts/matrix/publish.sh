#!/usr/bin/env bash
# scripts/matrix/publish.sh (make kernel-matrix-doc, after make kernel-matrix):
# write the results of the last complete kernel-matrix run into docs/kernel-matrix.md
# (from scripts/matrix/kernel-matrix.md.in), then the README's where-it-works summary
# (scripts/where-table.sh), whose locked-down hosts are the lockdown boots. Refuses a partial run (LR_MATRIX_ONLY,
# another launcher binary): published results are every boot of the launcher that
# make builds.
set -euo pipefail
# shellcheck source=scripts/matrix/lib.sh
. "$(dirname "$0")/lib.sh"

[ -f "$results" ] || die "no results in $results: run make kernel-matrix first"
[ "$(head -n1 "$results")" = "# complete run" ] ||
	die "$results is from a $(head -n1 "$results" | sed 's/^# //'): not published"

table=$work/table.md
results_table >"$table"
total=$(awk -F'\t' '!/^#/ { p += $8; f += $9 } END { printf "%d passed, %d failed", p, f }' "$results")

# the lockdown boots' rows of the where-it-works table (boot.sh: Linux VERSION (PKG),
# what the guest locked, then the guest's cells)
where=$work/where.md
{
	echo '| Where | User | landlock-run | `--explain`, `--learn` | bubblewrap |'
	echo '|---|---|---|---|---|'
	while IFS=$'\t' read -r kernel locked user lr ex bw; do
		printf '| %s, %s | %s | %s | %s | %s |\n' "${kernel%% (*}" "$locked" "$user" "$lr" "$ex" "$bw"
	done <"$work/where.tsv"
} >"$where"
awk -v table="$table" -v total="$total" -v where="$where" '
	$0 == "@WHERE@" { while ((getline l < where) > 0) print l; next }
	$0 == "@TABLE@" { while ((getline l < table) > 0) print l; next }
	$0 == "@TOTAL@." { print total "."; next }
	{ print }' "$root/scripts/matrix/kernel-matrix.md.in" >"$work/kernel-matrix.md"
mv "$work/kernel-matrix.md" "$root/docs/kernel-matrix.md"

"$root/scripts/where-table.sh"
say "wrote docs/kernel-matrix.md and the README's where-it-works summary ($total)"
