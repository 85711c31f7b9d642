#!/usr/bin/env bash
# scripts/containers/publish.sh (make container-matrix-doc, after make
# container-matrix): write the results of the last complete container-matrix run
# into docs/container-matrix.md (from scripts/containers/container-matrix.md.in),
# then the README's where-it-works summary (scripts/where-table.sh). Refuses a partial
# run (LR_CONTAINERS_ONLY, another launcher binary).
set -euo pipefail
# shellcheck source=scripts/containers/lib.sh
. "$(dirname "$0")/lib.sh"

[ -f "$results" ] || die "no results in $results: run make container-matrix first"
[ "$(head -n1 "$results")" = "# complete run" ] ||
	die "$results is from a $(head -n1 "$results" | sed 's/^# //'): not published"

user_name() { case $1 in 0) echo root ;; 65534) echo nobody ;; *) echo "uid $1" ;; esac; }
table=$work/table.md where=$work/where.md
{
	echo '| Runtime setting | User | Passed | Failed | Time |'
	echo '|---|---|---|---|---|'
	while IFS=$'\t' read -r name user title _ pass fail ms _; do
		case $name in '#'*) continue ;; esac
		printf '| %s | %s | %s | %s | %d.%d s |\n' "$title" "$(user_name "$user")" "$pass" "$fail" \
			$((ms / 1000)) $((ms % 1000 / 100))
	done <"$results"
} >"$table"
{
	echo '| Where | User | landlock-run | `--explain`, `--learn` | bubblewrap |'
	echo '|---|---|---|---|---|'
	while IFS=$'\t' read -r name user title _ _ _ _ lr explained bw; do
		case $name in '#'*) continue ;; esac
		printf '| podman + runc: %s | %s | %s | %s | %s |\n' "$title" "$(user_name "$user")" "$lr" "$explained" "$bw"
	done <"$results"
} >"$where"
runtime=$(sed -n 2p "$results" | sed 's/^# //')
total=$(awk -F'\t' '!/^#/ { p += $5; f += $6 } END { printf "%d passed, %d failed", p, f }' "$results")
awk -v table="$table" -v where="$where" -v total="$total" -v runtime="$runtime" '
	$0 == "@TABLE@" { while ((getline l < table) > 0) print l; next }
	$0 == "@WHERE@" { while ((getline l < where) > 0) print l; next }
	$0 == "@TOTAL@." { print total "."; next }
	{ gsub(/@RUNTIME@/, runtime); print }' "$root/scripts/containers/container-matrix.md.in" >"$work/container-matrix.md"
mv "$work/container-matrix.md" "$root/docs/container-matrix.md"
"$root/scripts/where-table.sh"
say "wrote docs/container-matrix.md and the README's where-it-works summary ($total)"
