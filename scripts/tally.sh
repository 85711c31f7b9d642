# The one "N passed, N failed" tally for scripts/*.sh. Source it (bash); it
# defines functions and two counters, tally_pass and tally_fail, starting at 0.
#
#   tally_check NAME CMD...  run CMD; print "ok - NAME" or "not ok - NAME", count it.
#   tally_result RC NAME     the same for a command already run: RC 0 passes.
#   tally_add NAME PASS FAIL add counts a script worked out itself; prints
#                            "== NAME: PASS passed, FAIL failed".
#   tally_log NAME RC LOG    add the counts a suite's output LOG reports (see
#                            tally_counts); RC is the suite's exit status: a suite
#                            that exited non-zero without reporting a failure
#                            counts as one failure.
#   tally_run NAME CMD...    run CMD (output shown and kept), then tally_log it.
#   tally_counts LOG         print "PASS FAIL" read from LOG: its last line
#                            "N passed, N failed"; else node --test's "# pass N"
#                            and "# fail N"; else the count of TAP lines "ok" and
#                            "not ok" at the start of a line.
#   tally_total              print "PASS passed, FAIL failed" (the line every test
#                            script ends with); returns 1 when anything failed.
#
# Example: tally_run bats bats --tap tests/*.bats; tally_run npm scripts/test-npm.sh
#          tally_total

tally_pass=0
tally_fail=0

tally_counts() {
	local line p f
	line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1) || :
	if [ -n "$line" ]; then
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed*}
	elif grep -aqE '^# (pass|fail) [0-9]+$' "$1"; then
		p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$1" | tail -n 1)
		f=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$1" | tail -n 1)
	else
		p=$(grep -acE '^ok( |$)' "$1") || :
		f=$(grep -acE '^not ok( |$)' "$1") || :
	fi
	echo "${p:-0} ${f:-0}"
}

tally_add() {
	echo "== $1: $2 passed, $3 failed"
	tally_pass=$((tally_pass + $2))
	tally_fail=$((tally_fail + $3))
}

tally_log() {
	local p f
	read -r p f < <(tally_counts "$3")
	[ "$2" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	tally_add "$1" "$p" "$f"
}

tally_run() {
	local - name=$1 log rc
	shift
	set +e # the suite's status is counted, not fatal (local -: only here)
	log=$(mktemp) || return 1
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	tally_log "$name" "$rc" "$log"
	rm -f "$log"
}

tally_result() {
	if [ "$1" -eq 0 ]; then
		echo "ok - $2"
		tally_pass=$((tally_pass + 1))
	else
		echo "not ok - $2"
		tally_fail=$((tally_fail + 1))
	fi
}

tally_check() {
	local name=$1 rc=0
	shift
	"$@" || rc=$?
	tally_result "$rc" "$name"
}

tally_total() {
	echo "$tally_pass passed, $tally_fail failed"
	[ "$tally_fail" -eq 0 ]
}
