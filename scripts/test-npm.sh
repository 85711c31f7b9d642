#!/usr/bin/env bash
# scripts/test-npm.sh (part of make test): the npm package family end to end.
# Tools come from scripts/setup.sh (group npm), which make test runs first.
#   1. make npm (scripts/npm-pack.sh): build both binaries, pack, run the pack gate;
#   2. node --test: the entry API's unit tests (fake launchers), the gate's own tests
#      (broken tarballs it must refuse) and bump-version.sh's;
#   3. scripts/npm-rehearsal.sh: install the packed tarballs offline and use them for real.
# Ends with one line "N passed, N failed" summing all three; exits 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root" || exit 1

total_pass=0 total_fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# add NAME RC: add the counts $log reports ("N passed, N failed" or node's "# pass N")
add() {
	local p f line
	if line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1) && [ -n "$line" ]; then
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed*}
	else
		p=$(sed -n 's/^# pass //p' "$log" | tail -n 1)
		f=$(sed -n 's/^# fail //p' "$log" | tail -n 1)
	fi
	p=${p:-0} f=${f:-0}
	[ "$2" -eq 0 ] || [ "$f" -gt 0 ] || f=1 # failed without saying so
	echo "== npm $1: $p passed, $f failed"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

scripts/npm-pack.sh 2>&1 | tee "$log"
add "pack gate" "${PIPESTATUS[0]}"
node --test --test-reporter=tap npm/landlock-run/test/*.test.js npm/test/gate.test.js npm/test/bump-version.test.js 2>&1 | tee "$log"
add "unit and gate tests" "${PIPESTATUS[0]}"
scripts/npm-rehearsal.sh 2>&1 | tee "$log"
add "rehearsal" "${PIPESTATUS[0]}"

echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
