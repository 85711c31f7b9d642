#!/usr/bin/env bash
# scripts/test-npm.sh (part of make test): the npm package family end to end.
# Tools come from scripts/setup.sh (group npm), which make test runs first.
#   1. make npm (scripts/npm-pack.sh): build both binaries, pack, run the pack gate;
#   2. node --test: the entry API's unit tests (fake launchers), the gate's own tests
#      (broken tarballs it must refuse) and bump-version.sh's;
#   3. scripts/npm-rehearsal.sh: install the packed tarballs offline and use them for real;
#   4. scripts/reproduce.sh: two builds of this commit give the same binaries, tarballs, .debs.
# Ends with one line "N passed, N failed" summing all four; exits 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$(dirname "$here")" || exit 1
. "$here/tally.sh"

tally_run "npm pack gate" scripts/npm-pack.sh
tally_run "npm unit and gate tests" node --test --test-reporter=tap npm/landlock-run/test/*.test.mjs \
	npm/test/gate.test.js npm/test/bump-version.test.js
tally_run "npm rehearsal" scripts/npm-rehearsal.sh
tally_run "reproducible release" scripts/reproduce.sh
tally_total
