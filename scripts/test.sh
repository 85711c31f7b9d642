#!/usr/bin/env bash
# make test: install what is missing, build, run every suite, and end with
# one line "N passed, N failed" summing them all. Exit non-zero on any failure.
#   LR_SUITES="bats npm python matrix containers audit" limits the run to some suites.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/tally.sh

# A PATH inherited from another user (su without -, sudo -E) may name
# directories this user cannot search; execvp, and so the launcher and
# env(1), then report a command that is nowhere as EACCES (126), not 127.
# The suites test the launcher, not that PATH: its searchable entries only.
searchable=
IFS=: read -ra entries <<<"$PATH"
for entry in "${entries[@]}"; do
	[ -x "$entry" ] && searchable+=${searchable:+:}$entry
done
export PATH=$searchable

scripts/setup.sh all || exit 1
make -s all test-helpers || exit 1
make -s ARCH=aarch64 all test-helpers || exit 1

suites=${LR_SUITES:-bats npm python matrix containers audit}
# tests/log.bats may switch the kernel's audit log on for its run (and back
# off) to read what the log flags really do; LR_TEST_AUDIT=0 keeps it off.
export LR_TEST_AUDIT=${LR_TEST_AUDIT-1}

for suite in $suites; do
	case $suite in
	bats) tally_run bats bats --tap tests/*.bats ;;
	npm) tally_run npm scripts/test-npm.sh ;;
	python) tally_run python scripts/test-python.sh ;;
	matrix) tally_run matrix scripts/kernel-matrix.sh ;;
	# podman and runc containers, beside bubblewrap (tests/container/rows.txt)
	containers) tally_run containers scripts/container-matrix.sh ;;
	# --explain against the kernel's audit records (root, ABI 7; it takes
	# /tmp/lr-heavy.lock itself unless an ancestor holds it).
	audit) tally_run audit tests/audit/run.py ;;
	*) echo "unknown suite $suite" >&2; exit 1 ;;
	esac
done
tally_total
