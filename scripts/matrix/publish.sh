#!/usr/bin/env bash
# scripts/matrix/publish.sh (make kernel-matrix-doc, after make kernel-matrix):
# write the results of the last complete kernel-matrix run into docs/kernel-matrix.md
# (from scripts/matrix/kernel-matrix.md.in) and into the README's table, between
# its "kernel-matrix table" marker lines. Refuses a partial run (LR_MATRIX_ONLY,
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

awk -v table="$table" -v total="$total" '
	$0 == "@TABLE@" { while ((getline l < table) > 0) print l; next }
	$0 == "@TOTAL@." { print total "."; next }
	{ print }' "$root/scripts/matrix/kernel-matrix.md.in" >"$work/kernel-matrix.md"
mv "$work/kernel-matrix.md" "$root/docs/kernel-matrix.md"

readme=$root/README.md
grep -q '^<!-- kernel-matrix table: begin' "$readme" || die "README.md has no kernel-matrix table markers"
awk -v table="$table" '
	/^<!-- kernel-matrix table: begin/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
	/^<!-- kernel-matrix table: end/ { skip = 0 }
	!skip { print }' "$readme" >"$work/README.md"
mv "$work/README.md" "$readme"
say "wrote docs/kernel-matrix.md and the README's table ($total)"
