#!/usr/bin/env bash
# scripts/where-table.sh: the README's where-it-works summary, between its
# "where-it-works summary" marker lines: counted from the rows of
# docs/container-matrix.md (make container-matrix-doc) and of docs/kernel-matrix.md's
# locked-down hosts (make kernel-matrix-doc), each between "where rows" markers there. Run by both publishers,
# so the table is whole whichever ran last; every row is from a run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
readme=$root/README.md

# rows DOC: the table rows between DOC's "where rows" markers, without the header.
rows() {
	sed -n '/^<!-- where rows: begin/,/^<!-- where rows: end/p' "$1" | grep '^| ' | tail -n +2 || true
}
grep -q '^<!-- where-it-works summary: begin' "$readme" || {
	echo "where-table: README.md has no where-it-works summary markers" >&2
	exit 1
}
table=$(mktemp)
trap 'rm -f "$table" "$table.readme"' EXIT
# The README's summary: per kind of place, the runs (a place and a user) and how each
# launcher fared in them, counted from the rows; docs/ hold the rows themselves.
{
	echo '| Where (runs: a place and a user) | landlock-run confines | landlock-run refuses with 125, naming the place | bubblewrap fails |'
	echo '|---|---|---|---|'
	for doc in "$root/docs/container-matrix.md" "$root/docs/kernel-matrix.md"; do
		[ ! -f "$doc" ] || rows "$doc"
	done | awk -F' [|] ' '
		{ kind = $1 ~ /^[|] Linux / ? "hosts" : "containers"; runs[kind]++ }
		$3 ~ /^confines/ { confines[kind]++ }
		$3 ~ /^125/ { refuses[kind]++ }
		$5 ~ /^fails/ { bwrap[kind]++ }
		END {
			name["containers"] = "podman/runc containers (docs/container-matrix.md)"
			name["hosts"] = "locked-down hosts in qemu (docs/kernel-matrix.md)"
			for (i = 1; i <= 2; i++) {
				k = i == 1 ? "containers" : "hosts"
				if (runs[k])
					printf "| %s: %d | %d | %d | %d |\n", name[k], runs[k], confines[k], refuses[k], bwrap[k]
			}
		}'
} >"$table"
awk -v table="$table" '
	/^<!-- where-it-works summary: begin/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
	/^<!-- where-it-works summary: end/ { skip = 0 }
	!skip { print }' "$readme" >"$table.readme"
mv "$table.readme" "$readme"
