#!/usr/bin/env bash
# make test: install what is missing, build, run every suite, and end with
# one line "N passed, N failed" summing them all. Exit non-zero on any failure.
#   LR_SUITES="bats npm matrix" limits the run to some suites.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

scripts/setup.sh all || exit 1
make -s || exit 1
make -s ARCH=aarch64 || exit 1

suites=${LR_SUITES:-bats npm matrix}
# tests/log.bats may switch the kernel's audit log on for its run (and back
# off) to read what the log flags really do; LR_TEST_AUDIT=0 keeps it off.
export LR_TEST_AUDIT=${LR_TEST_AUDIT-1}
total_pass=0 total_fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# tally NAME: add the "N passed, N failed" line of $log (or count TAP lines).
tally() {
	local p f
	if line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1) && [ -n "$line" ]; then
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed*}
	else
		p=$(grep -acE '^ok ' "$log")
		f=$(grep -acE '^not ok ' "$log")
	fi
	[ "$2" -eq 0 ] || [ "$f" -gt 0 ] || f=1 # a suite that failed without saying so
	echo "== $1: $p passed, $f failed"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

for suite in $suites; do
	case $suite in
	bats) bats --tap tests/*.bats 2>&1 | tee "$log"; rc=${PIPESTATUS[0]} ;;
	npm) scripts/test-npm.sh 2>&1 | tee "$log"; rc=${PIPESTATUS[0]} ;;
	matrix) scripts/kernel-matrix.sh 2>&1 | tee "$log"; rc=${PIPESTATUS[0]} ;;
	*) echo "unknown suite $suite" >&2; exit 1 ;;
	esac
	tally "$suite" "$rc"
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
