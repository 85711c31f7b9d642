#!/usr/bin/env bash
# scripts/where-table.sh: the README's where-it-works table, between its
# "where-it-works table" marker lines: the rows of docs/container-matrix.md (make
# container-matrix-doc) and of docs/kernel-matrix.md's locked-down hosts (make
# kernel-matrix-doc), each between "where rows" markers there. Run by both publishers,
# so the table is whole whichever ran last; every row is from a run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
readme=$root/README.md

# rows DOC: the table rows between DOC's "where rows" markers, without the header.
rows() {
	sed -n '/^<!-- where rows: begin/,/^<!-- where rows: end/p' "$1" | grep '^| ' | tail -n +2 || true
}
grep -q '^<!-- where-it-works table: begin' "$readme" || {
	echo "where-table: README.md has no where-it-works table markers" >&2
	exit 1
}
table=$(mktemp)
trap 'rm -f "$table" "$table.readme"' EXIT
{
	echo '| Where | User | landlock-run | `--explain`, `--learn` | bubblewrap |'
	echo '|---|---|---|---|---|'
	for doc in "$root/docs/container-matrix.md" "$root/docs/kernel-matrix.md"; do
		[ ! -f "$doc" ] || rows "$doc"
	done
} >"$table"
awk -v table="$table" '
	/^<!-- where-it-works table: begin/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
	/^<!-- where-it-works table: end/ { skip = 0 }
	!skip { print }' "$readme" >"$table.readme"
mv "$table.readme" "$readme"
