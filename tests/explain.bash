# Shared by the tests of --explain (`load helpers; load explain`): run the
# launcher with --explain and --explain-json, read both reports, and try the
# advice they give.

# explain_setup: cd to an empty test directory $d (canonical) with ok/ and
# no/ in it; $J is where the JSON report goes.
explain_setup() {
	cd "$BATS_TEST_TMPDIR" || return
	d=$(pwd -P)
	mkdir ok no
	J=$d/denials.json
}

# explain ARG...: run "${as[@]}" "$LR" --explain --explain-json $J ARG...
# ($as: an optional prefix such as setpriv ...); then $status, $output,
# $stderr as bats' run sets them (without its warning about status 127, which
# a command whose libraries are denied has); $denied: the "landlock-run
# denied: " lines without the prefix and the pids; $json: the JSON file as
# tests/denials.py prints it (the same shape).
explain() {
	status=0
	"${as[@]}" "$LR" --explain --explain-json "$J" "$@" >"$BATS_TEST_TMPDIR/stdout" \
		2>"$BATS_TEST_TMPDIR/stderr" 3>&- || status=$?
	output=$(cat "$BATS_TEST_TMPDIR/stdout")
	mapfile -t lines <<<"$output"
	stderr=$(cat "$BATS_TEST_TMPDIR/stderr")
	denied=$(sed -n 's/^landlock-run denied: //p' <<<"$stderr" | sed 's/\[[0-9]*\])/)/')
	json=
	[ ! -e "$J" ] || json=$("$PYTHON" "$BATS_TEST_DIRNAME/denials.py" "$J") || fail "bad JSON: $json"
}

# assert_denied LINE...: exactly these denials, in this order, on stderr and
# in the JSON file.
assert_denied() {
	assert_equal "$denied" "$(printf '%s\n' "$@")"
	assert_equal "$json" "$(printf '%s\n' "$@")"
}

# json_field KEY: KEY of the first denial in $J.
json_field() {
	"$PYTHON" -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())[sys.argv[2]])' \
		"$J" "$1"
}

# denied_then_allowed STATUS LINE [OPTION...] -- COMMAND...: under the
# options, COMMAND exits STATUS and exactly LINE is reported. Then the advice
# is followed as a user would: the options the report suggests are added and
# the command run again, until nothing more is reported (a run that gets
# further may need more, e.g. a binary its libraries); it must then exit 0.
denied_then_allowed() {
	local want=$1 line=$2 advice=() more round
	shift 2
	explain "$@"
	assert_equal "$status" "$want"
	assert_denied "$line"
	for ((round = 0; round < 10; round++)); do
		mapfile -t more < <("$PYTHON" "$BATS_TEST_DIRNAME/denials.py" "$J" --allow)
		[ ${#more[@]} -gt 0 ] || break
		advice+=("${more[@]}")
		explain "${advice[@]}" "$@"
	done
	assert_equal "$status" 0
	assert_equal "$stderr" ""
	assert_file_empty "$J"
}

# nobody_pub DIR...: the launcher run as nobody ($as, as_nobody), with $pub
# a new directory of /tmp that nobody may search (0755), holding DIR... and
# report/ (0777), where $J goes: the report is nobody's. The test removes
# $pub.
nobody_pub() {
	local dir
	as_nobody
	as=("${AS_NOBODY[@]}")
	pub=$(mktemp -d /tmp/lr-explain.XXXXXX) && chmod 0755 "$pub" &&
		mkdir -m 0777 "$pub/report" || fail "cannot make the test's directory in /tmp"
	J=$pub/report/denials.json
	for dir; do mkdir "$pub/$dir"; done
}
