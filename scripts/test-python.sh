#!/usr/bin/env bash
# scripts/test-python.sh (part of make test): the Python package end to end.
# Tools come from scripts/setup.sh (group python), which make test runs first.
#   1. make wheel (scripts/wheel.sh): build both binaries, write both wheels, run the gate;
#   2. the wheels written again from the same tree, under another umask and time zone, must
#      be the same bytes (make reproduce, in the npm suite, builds two fresh clones);
#   3. scripts/python-rehearsal.sh: install this machine's wheel offline into a fresh virtual
#      environment and run python/tests there with pytest (the real binary, the other
#      architecture's wheel, the type checker, the README's example).
# Ends with one line "N passed, N failed" summing all three; exits 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$(dirname "$here")" || exit 1
. "$here/tally.sh"
. "$here/lib.sh"

tally_run "wheel gate" scripts/wheel.sh
again=$(mktemp -d)
trap 'rm -rf "$again"' EXIT
(umask 0002 && TZ=Pacific/Kiritimati SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) \
	"$LR_PYTHON" scripts/write-wheel.py "$again" platform/*.env 2>/dev/null)
for wheel in dist/python/*.whl; do
	tally_check "$wheel: written again, byte-identical" cmp -s "$wheel" "$again/${wheel##*/}"
done
tally_run "python rehearsal" scripts/python-rehearsal.sh
tally_total
