#!/usr/bin/env bats
# --private-tmp (issue 25): a temporary directory of the run's own, 0700 and
# the caller's, in /tmp; TMPDIR, TMP, TEMP and TEMPDIR name it; the host's
# /tmp is hidden; the directory is gone with all in it when the run ends,
# however it ends, and its removal follows nothing the command planted.
# Each attack beside its control: the agent recipe's --rw /tmp.
load helpers

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
	d=$(pwd -P)
	# another run's (another program's) file in the host's /tmp
	victim=$(mktemp /tmp/lr-privatetmp-victim.XXXXXX)
	echo secret >"$victim"
}

teardown() {
	rm -f "${victim-}"
}

# ours: the directories of --private-tmp in /tmp now, one per line.
ours() { find /tmp -maxdepth 1 -name 'landlock-run.??????????' -printf '%f\n' | sort; }

# run_tmp ARG...: the launcher with ARG..., the command printing its
# $TMPDIR last on stdout, which is then in $tmp; nothing of it may be left.
gone() {
	[ -n "$1" ] || fail "the command did not say its TMPDIR"
	[ ! -e "$1" ] && [ ! -L "$1" ] || fail "$1 is left: $(ls -laR "$1" 2>&1 | head -20)"
}

@test "attack: another run's file in /tmp is read and replaced under the agent recipe's --rw /tmp; with --private-tmp it is neither" {
	local attack='cat "$0"; echo planted >"$0.new" && mv "$0.new" "$0"; ln -sf /etc/passwd "$0.ln"'
	# control: the recipe reads it and replaces it
	run -0 "$LR" --ro / --rw /tmp -- sh -c "$attack" "$victim"
	assert_output secret
	assert_equal "$(cat "$victim")" planted
	rm -f "$victim.ln"
	echo secret >"$victim"
	# control: --ro / alone reads it
	run -0 "$LR" --ro / -- cat "$victim"
	assert_output secret
	run -1 "$LR" --ro / --private-tmp -- sh -c "$attack" "$victim"
	refute_output --partial secret
	assert_equal "$(cat "$victim")" secret
	assert_not_exists "$victim.ln"
	assert_not_exists "$victim.new"
	# nor listed, nor written, nor removed without --ro
	run -1 "$LR" --private-tmp -- sh -c 'ls /tmp || rm -f "$0" || exit 1' "$victim"
	assert_equal "$(cat "$victim")" secret
	run -1 "$LR" --private-tmp -- cat "$victim"
}

@test "TMPDIR, TMP, TEMP and TEMPDIR name a new directory in /tmp, 0700 and the caller's, as root and as nobody" {
	local show='stat -c "%U %a %F" "$TMPDIR"; [ "$TMP" = "$TMPDIR" ] && [ "$TEMP" = "$TMPDIR" ] && [ "$TEMPDIR" = "$TMPDIR" ] && ls -A "$TMPDIR" | wc -l; echo "$TMPDIR"'
	run -0 env TMPDIR=/var/tmp TMP=x "$LR" --ro / --private-tmp -- sh -c "$show"
	assert_line -n 0 "$(id -un) 700 directory"
	assert_line -n 1 0
	assert_line -n 2 --regexp '^/tmp/landlock-run\.[a-z0-9]{10}$'
	gone "${lines[2]}"
	local first=${lines[2]}
	run -0 "$LR" --ro / --private-tmp -- sh -c "$show"
	[ "${lines[2]}" != "$first" ] || fail "two runs got the same name"
	# umask does not narrow it
	run -0 sh -c 'umask 777; "$0" --ro / --private-tmp -- sh -c "stat -c %a \"\$TMPDIR\""' "$LR"
	assert_output 700
	as_nobody
	run -0 "${AS_NOBODY[@]}" "$LR" --ro / --private-tmp -- sh -c "$show"
	assert_line -n 0 "nobody 700 directory"
	gone "${lines[2]}"
}

@test "mktemp, gcc and Python's tempfile work in \$TMPDIR, where without it they fail" {
	command -v gcc >/dev/null || fail "gcc is missing (scripts/setup.sh installs it)"
	printf 'int main(void) { return 3; }\n' >t.c
	# control: the host's /tmp is not writable, gcc cannot make its files
	run ! "$LR" --ro / --rw "$d" -- gcc -o "$d/t" "$d/t.c"
	run ! "$LR" --ro / --rw "$d" -- mktemp
	run -0 "$LR" --ro / --rw "$d" --rw-try /dev/null --private-tmp -- sh -c '
		f=$(mktemp) && case $f in "$TMPDIR"/*) ;; *) exit 9 ;; esac
		gcc -save-temps=obj -o "$TMPDIR/t" "$0" || exit 8
		ls "$TMPDIR"
		"$TMPDIR/t"; echo "t=$?"
		"$1" -c "import tempfile, os; f = tempfile.NamedTemporaryFile(); d = tempfile.mkdtemp(); print(os.path.dirname(f.name) == os.environ[\"TMPDIR\"] == os.path.dirname(d) == tempfile.gettempdir())"
		echo "$TMPDIR"' "$d/t.c" "$PYTHON"
	assert_line t=3
	assert_line True
	assert_line t.o
	gone "${lines[-1]}"
}

@test "the directory is gone after the command exits, with its status, and after what it left running" {
	run -7 "$LR" --private-tmp -- sh -c 'echo "$TMPDIR"; touch "$TMPDIR/a"; exit 7'
	gone "$output"
	# a process left behind that keeps writing there is ended first
	run -0 "$LR" --private-tmp -- sh -c 'echo "$TMPDIR"; (while :; do touch "$TMPDIR/f$$"; done) & sleep 0.2; exit 0'
	gone "$output"
	# and a command killed by a signal
	run -143 "$LR" --private-tmp -- sh -c 'echo "$TMPDIR"; kill -TERM $$'
	gone "$output"
}

@test "the directory is gone after the launcher gets SIGTERM, SIGINT or SIGHUP" {
	local sig pid name rc
	for sig in TERM INT HUP; do
		rm -f name
		"$LR" --private-tmp --rw "$d" -- sh -c 'trap "" TERM INT HUP; echo "$TMPDIR" >"$0"; touch "$TMPDIR/x"; exec sleep 300' "$d/name" 3>&- &
		pid=$!
		for _ in $(seq 100); do [ -s name ] && break; sleep 0.05; done
		name=$(cat name)
		[ -d "$name" ] || fail "no directory while it runs"
		kill -"$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		assert_equal "$rc" $((128 + $(kill -l "$sig")))
		gone "$name"
	done
}

@test "attack: symlinks planted to files and directories outside, locked subdirectories: removed without following one" {
	mkdir keep keepdir
	echo kept >keep/file
	touch keepdir/inside
	run -0 "$LR" --ro / --private-tmp -- sh -c '
		cd "$TMPDIR" || exit 1
		ln -s "$0/keep/file" file-link; ln -s "$0/keepdir" dir-link; ln -s / root-link
		mkdir -p a/b/c && touch a/b/c/f a/b/g && ln -s "$0/keepdir" a/b/c/link
		chmod 000 a/b/c; chmod 000 a/b; chmod 500 a
		mkdir ro && touch ro/f && chmod 500 ro
		mkfifo fifo
		chmod 000 "$TMPDIR"
		echo "$TMPDIR"' "$d"
	gone "$output"
	assert_equal "$(cat keep/file)" kept
	assert_exists keepdir/inside
	assert_exists /etc/passwd
}

@test "attack: a tree deeper than any recursion is removed" {
	run -0 "$LR" --private-tmp -- sh -c 'cd "$TMPDIR" && i=0 && while [ $i -lt 1500 ]; do mkdir d && cd d || exit 1; i=$((i + 1)); done; touch f; echo "$TMPDIR"'
	gone "$output"
}

@test "a launcher failure once the directory exists removes it" {
	local before
	before=$(ours)
	run -125 "$LR" --private-tmp --rw "$d/missing" -- true
	assert_output --partial "cannot open --rw path $d/missing"
	assert_equal "$(ours)" "$before"
	# the command not found: the supervisor removes it
	run -127 "$LR" --private-tmp -- /nonexistent/cmd
	assert_equal "$(ours)" "$before"
}

@test "a grant that names /tmp keeps it; one within /tmp is granted, the rest of /tmp stays hidden" {
	run -0 "$LR" --ro / --rw /tmp --private-tmp -- sh -c 'cat "$0" && [ "$TMPDIR" != /tmp ]' "$victim"
	assert_output secret
	run -0 "$LR" --ro / --ro /tmp --private-tmp -- cat "$victim"
	# $d is in /tmp (bats's own directory): granted, and nothing else of /tmp
	case $d in /tmp/*) ;; *) skip "the test directory $d is not in /tmp" ;; esac
	echo mine >mine
	run -0 "$LR" --ro / --rw "$d" --private-tmp -- sh -c 'cat "$0/mine" && echo new >"$0/new"' "$d"
	assert_output mine
	run -1 "$LR" --ro / --rw "$d" --private-tmp -- cat "$victim"
}

@test "--private-tmp with --probe or --learn is refused" {
	run -125 "$LR" --probe --private-tmp
	assert_output "landlock-run: --probe runs no command: remove --private-tmp"
	run -125 "$LR" --learn "$d/p" --private-tmp -- true
	assert_output --partial "remove --private-tmp"
}
