#!/usr/bin/env bats
# A run ends when it ends (issue 25): in the whole-tree mode the launcher
# stays the command's parent, a child subreaper, and ends every process the
# command started when it exits, when the launcher is told to stop, and when
# the caller dies. Every attack is a process left behind, for real, beside
# the plain run that leaves it (exec: the launcher is the command).
load helpers

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
	d=$(pwd -P)
	# every process of a run carries this in its environment, so what is left
	# of it can be found whatever it did to its parentage
	MARK=lr-tree-$$-$BATS_TEST_NUMBER-$RANDOM
}

# left: the pids of the processes still carrying $MARK (zombies have no
# environment left to read).
left() {
	grep -lzx "LR_TREE=$MARK" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 || true
}

# teardown: whatever a control left, ended by pid (a fork loop first, by the
# pid it wrote), until nothing carries the mark.
teardown() {
	local pid _
	[ ! -s "$d/loop" ] || kill -KILL "$(cat "$d/loop")" 2>/dev/null || true
	for _ in $(seq 50); do
		pid=$(left)
		[ -n "$pid" ] || return 0
		# shellcheck disable=SC2086 # one pid per word
		kill -KILL $pid 2>/dev/null || true
		sleep 0.05
	done
}

# lr ARG...: the launcher with ARG..., marked, in the foreground, its
# output not captured: what a plain run leaves holds no pipe bats reads.
lr() { env LR_TREE="$MARK" "$LR" "$@" >/dev/null 2>&1 3>&-; }

# none_left: within 5 s nothing of the run is left.
none_left() {
	for _ in $(seq 100); do
		[ -z "$(left)" ] && return 0
		sleep 0.05
	done
	fail "left behind: $(left | while read -r p; do printf '%s(%s) ' "$p" "$(cat /proc/"$p"/comm 2>/dev/null)"; done)"
}

# some_left: the control's leftovers are there (and are ended by teardown).
some_left() {
	sleep 0.2
	[ -n "$(left)" ] || fail "the plain run left nothing: the attack has no teeth"
}

# The issue's first attack, as written: two sleeps and an exit.
ORPHANS=(sh -c 'sleep 301 & sleep 302 & exit 0')

@test "attack: sleeps the command leaves in the background outlive the plain run; --kill-tree and --die-with-parent end them" {
	run -0 lr --rw "$d" -- "${ORPHANS[@]}"
	some_left
	teardown
	local option start
	for option in --kill-tree --die-with-parent; do
		start=$SECONDS
		run -0 lr "$option" --rw "$d" -- "${ORPHANS[@]}"
		none_left
		[ $((SECONDS - start)) -lt 5 ] || fail "$option waited for the sleeps"
	done
}

@test "attack: a double fork, a setsid daemon and a stopped process are ended too" {
	local cmd
	for cmd in '(sleep 303 &) ; exit 0' \
		'setsid sh -c "sleep 304 & exec sleep 305" & sleep 0.2; exit 0' \
		'sleep 306 & kill -STOP $!; exit 0' \
		'(setsid sh -c "trap \"\" HUP TERM; sleep 307" &); sleep 0.2; exit 0'; do
		run -0 lr --rw "$d" -- sh -c "$cmd"
		some_left
		teardown
		run -0 lr --kill-tree --rw "$d" -- sh -c "$cmd"
		none_left
	done
}

@test "attack: a fork loop the command leaves running is ended" {
	local loop='sh -c "echo \$\$ >\"\$0\"; while :; do (sleep 100 &); done" "$1" & sleep 0.3; exit 0'
	run -0 lr --rw "$d" -- sh -c "$loop" _ "$d/loop"
	sleep 0.2
	kill -0 "$(cat loop)" || fail "the loop did not outlive the plain run"
	teardown
	rm loop
	run -0 lr --kill-tree --rw "$d" -- sh -c "$loop" _ "$d/loop"
	[ -s loop ] || fail "the loop did not start"
	none_left
}

@test "the launcher exits with the command's status, or dies of its signal without a core file" {
	run -7 lr --kill-tree -- sh -c 'sleep 300 & exit 7'
	none_left
	# python reports what the caller sees: the signal, and whether a core was dumped
	run -0 "$PYTHON" -c 'import os, resource, sys
resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY,) * 2)
for sig in ("TERM", "QUIT", "SEGV", "KILL"):
    pid = os.fork()
    if pid == 0:
        os.execv(sys.argv[1], [sys.argv[1], "--kill-tree", "--", "sh", "-c", "kill -%s $$" % sig])
    _, st = os.waitpid(pid, 0)
    print(os.WTERMSIG(st) if os.WIFSIGNALED(st) else "exit %d" % os.WEXITSTATUS(st), os.WCOREDUMP(st))' "$LR"
	assert_output $'15 False\n3 False\n11 False\n9 False'
	# control: the command itself, with the same limit, dumps a core
	run -0 "$PYTHON" -c 'import os, resource
resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY,) * 2)
pid = os.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", "kill -QUIT $$"])
print(os.WCOREDUMP(os.waitpid(pid, 0)[1]))'
	[ "$(cat /proc/sys/kernel/core_pattern)" = "" ] || assert_output True
}

# start_run OPTION... -- COMMAND...: the launcher in the background; $launcher
# its pid; waits until the command wrote its pid to ./pid.
start_run() {
	rm -f "$d/pid"
	env LR_TREE="$MARK" "$LR" "$@" >/dev/null 2>&1 3>&- &
	launcher=$!
	for _ in $(seq 100); do [ -s "$d/pid" ] && break; sleep 0.05; done
	[ -s "$d/pid" ] || fail "the command did not start"
}

# A command that ignores the signals that end a run, leaves a child that
# ignores them too, and writes its pid.
STUBBORN=(sh -c 'trap "" HUP INT QUIT TERM; (trap "" HUP INT QUIT TERM; sleep 300) & echo $$ >"$0/pid"; while :; do sleep 1; done')

@test "SIGTERM, SIGINT, SIGHUP, SIGQUIT to the launcher: a second later the tree is ended, and the launcher dies of the signal" {
	local sig rc start
	for sig in TERM INT HUP QUIT; do
		start_run --kill-tree --rw "$d" -- "${STUBBORN[@]}" "$d"
		start=$SECONDS
		kill "-$sig" "$launcher"
		rc=0
		wait "$launcher" || rc=$?
		assert_equal "$rc" $((128 + $(kill -l "$sig")))
		[ $((SECONDS - start)) -lt 4 ] || fail "SIG$sig took $((SECONDS - start)) s"
		none_left
	done
	# control: the plain run is the command, which ignores them all
	start_run --rw "$d" -- "${STUBBORN[@]}" "$d"
	kill -TERM "$launcher"
	sleep 1.5
	kill -0 "$launcher" || fail "the plain run ended on SIGTERM"
	kill -KILL "$launcher"
}

@test "a signal the launcher gets reaches the command: one that handles it exits with its own status, and what it left is ended" {
	start_run --kill-tree --rw "$d" -- sh -c 'trap "exit 3" TERM; sleep 300 & echo $$ >"$0/pid"; while :; do sleep 0.1; done' "$d"
	local rc=0
	kill -TERM "$launcher"
	wait "$launcher" || rc=$?
	assert_equal "$rc" 3
	none_left
	# SIGUSR1 is passed on and ends nothing
	start_run --kill-tree --rw "$d" -- sh -c 'trap "echo usr1 >\"\$0/got\"" USR1; echo $$ >"$0/pid"; while [ ! -s "$0/got" ]; do sleep 0.1; done; exit 4' "$d"
	kill -USR1 "$launcher"
	rc=0
	wait "$launcher" || rc=$?
	assert_equal "$rc" 4
	assert_equal "$(cat got)" usr1
}

@test "--die-with-parent: when the caller dies, the command and everything it started are ended" {
	local caller
	# the caller is a shell that runs the launcher and waits: it is killed, not the launcher
	sh -c 'env LR_TREE="$2" "$3" --die-with-parent --rw "$1" -- sh -c "sleep 302 & (setsid sleep 303 &); echo \$\$ >$1/pid; wait" & wait' \
		_ "$d" "$MARK" "$LR" >/dev/null 2>&1 3>&- &
	caller=$!
	for _ in $(seq 100); do [ -s pid ] && break; sleep 0.05; done
	[ -s pid ] || fail "the command did not start"
	kill -KILL "$caller"
	none_left
	# control: without the option the caller's death ends nothing
	rm pid
	sh -c 'env LR_TREE="$2" "$3" --rw "$1" -- sh -c "sleep 304 & echo \$\$ >$1/pid; wait" & wait' \
		_ "$d" "$MARK" "$LR" >/dev/null 2>&1 3>&- &
	caller=$!
	for _ in $(seq 100); do [ -s pid ] && break; sleep 0.05; done
	kill -KILL "$caller"
	some_left
}

@test "SIGKILL to the launcher ends the tree too; SIGKILL to the supervisor, the launcher ends what is left" {
	start_run --kill-tree --rw "$d" -- sh -c 'sleep 300 & (setsid sleep 301 &); echo $$ >"$0/pid"; wait' "$d"
	kill -KILL "$launcher"
	none_left
	# the supervisor is the command's parent, the launcher's child
	start_run --kill-tree --rw "$d" -- sh -c 'sleep 300 & (setsid sleep 301 &); echo $PPID >"$0/pid"; wait' "$d"
	assert_equal "$(cut -d' ' -f4 "/proc/$(cat pid)/stat")" "$launcher"
	kill -KILL "$(cat pid)"
	local rc=0
	wait "$launcher" || rc=$?
	assert_equal "$rc" 137
	none_left
	# control: SIGKILL to a plain run leaves what it started
	start_run --rw "$d" -- sh -c 'sleep 300 & echo $$ >"$0/pid"; wait' "$d"
	kill -KILL "$launcher"
	some_left
}

@test "a plain run keeps exec: the launcher's pid is the command's; the whole-tree mode forks" {
	# no terminal on 0-2 (/dev/null, the pipe run reads): a terminal means the mode
	run -0 sh -c 'echo $$; exec "$0" -- sh -c "echo \$\$"' "$LR" </dev/null
	assert_equal "${lines[0]}" "${lines[1]}"
	run -0 sh -c 'echo $$; exec "$0" --kill-tree -- sh -c "echo \$\$ \$PPID; cut -d\" \" -f4 /proc/\$PPID/stat"' "$LR"
	[ "${lines[0]}" != "${lines[1]%% *}" ] || fail "the whole-tree mode did not fork: $output"
	assert_equal "${lines[2]}" "${lines[0]}" # the supervisor is the launcher's child
}

@test "the launcher and supervisor that stay hold no grant descriptor and no ruleset while the command runs" {
	local sup launcher fds
	mkdir grant
	echo extra >extra
	# the command names its parent, the supervisor, and waits to be looked at
	"$LR" --kill-tree --ro / --rw "$d/grant" --rw /dev/null -- \
		sh -c 'echo $PPID >"$0/ppid"; while [ ! -e "$0/seen" ]; do sleep 0.05; done' "$d/grant" \
		7<extra &
	for _ in $(seq 100); do [ -s grant/ppid ] && break; sleep 0.05; done
	sup=$(cat grant/ppid)
	launcher=$(cut -d' ' -f4 "/proc/$sup/stat")
	fds=$(find "/proc/$sup/fd" "/proc/$launcher/fd" -mindepth 1 -printf '%l\n')
	touch grant/seen
	wait
	# Control: the listing sees what the caller handed down, fd 7 in both.
	[ "$(grep -cx "$d/extra" <<<"$fds")" -eq 2 ] || fail "fd 7 not seen in both: $fds"
	! grep -qx "$d/grant" <<<"$fds" || fail "a grant descriptor stayed open: $fds"
	! grep -q "landlock-ruleset" <<<"$fds" || fail "the ruleset stayed open: $fds"
}

@test "the command is in the caller's job; the supervisor is not, so what signals the job does not reach it" {
	run -0 setsid sh -c 'ps -o pgid= -p $$; "$0" --kill-tree -- sh -c "ps -o pgid= -p \$\$; ps -o pgid= -p \$PPID"' "$LR"
	assert_equal "${lines[1]// /}" "${lines[0]// /}"
	[ "${lines[2]// /}" != "${lines[0]// /}" ] || fail "the supervisor is in the job's group: $output"
}

@test "--probe with --kill-tree is a usage error (125)" {
	run -125 --separate-stderr "$LR" --probe --kill-tree
	assert_one_launcher_line
	[[ $stderr == *"--probe runs no command: remove --kill-tree"* ]] || fail "$stderr"
}

# job ARG...: the launcher with ARG... as a shell job on a pty (tests/shell-job.py),
# in the background; $job its pid, which leads its process group; what the
# shell sees goes to ./shell.
job() {
	rm -f "$d/job"
	"$PYTHON" "$BATS_TEST_DIRNAME/shell-job.py" "$d/job" "$LR" "$@" >"$d/shell" 3>&- &
	shell=$!
	for _ in $(seq 100); do [ -s "$d/job" ] && break; sleep 0.05; done
	job=$(cat "$d/job")
}

# shell_saw WORD: the shell saw the job WORD (stopped, continued), within 5 s.
shell_saw() {
	for _ in $(seq 100); do
		[ "$(tail -n 1 "$d/shell")" = "$1" ] && return 0
		sleep 0.05
	done
	fail "the shell did not see the job $1: $(cat "$d/shell")"
}

@test "job control: ^Z stops the job as the shell sees it, SIGCONT continues it, and the command's own stop is the job's" {
	local later=(sh -c 'echo $$ > "$1"; sleep 3; echo done > "$2"' sh "$d/pid" "$d/done")
	job --kill-tree --rw "$d" -- "${later[@]}"
	for _ in $(seq 100); do [ -s pid ] && break; sleep 0.05; done
	[ "$(cat pid)" != "$job" ] || fail "the command is the job itself"
	kill -TSTP -- "-$job"
	shell_saw stopped
	sleep 1.5
	assert_not_exist done # the command is stopped too
	kill -CONT -- "-$job"
	shell_saw continued
	wait "$shell"
	assert_equal "$(cat done)" done
	rm pid done
	job --kill-tree --rw "$d" -- "${later[@]}"
	for _ in $(seq 100); do [ -s pid ] && break; sleep 0.05; done
	kill -STOP "$(cat pid)"
	shell_saw stopped
	kill -CONT -- "-$job"
	wait "$shell"
	assert_equal "$(cat done)" done
}

@test "a command that stops itself with no terminal leaves its supervisor running: SIGTERM still ends the run" {
	start_run --kill-tree --rw "$d" -- sh -c 'trap "" TERM; echo $$ >"$0/pid"; kill -STOP $$' "$d"
	sleep 0.3
	local rc=0 start=$SECONDS
	kill -TERM "$launcher"
	wait "$launcher" || rc=$?
	assert_equal "$rc" 143
	[ $((SECONDS - start)) -lt 4 ] || fail "took $((SECONDS - start)) s"
	none_left
}

# The terminal stays the caller's (issue 25, part 2): tests/takeover.py plays
# the person at a job-control shell on a new pty, and the command that leaves
# a child to take the terminal back and read the next line typed.
TAKEOVER=$BATS_TEST_DIRNAME/takeover.py
SECRET='echo my-sudo-password-hunter2'

# takeover ARG...: ARG... as the shell's job on a new pty, $SECRET typed
# after the prompt; $output says the job's status and what the shell read.
# With $mode away, the job's 0-2 are /dev/null: the pty is only its
# controlling terminal.
# takeover_as_nobody: the next takeover runs as nobody, from a copy of the
# scripts nobody can read, in a directory $w of nobody's.
takeover_as_nobody() {
	as_nobody
	cp "$TAKEOVER" "${TAKEOVER%/*}/ptyjob.py" "$HELPERS/" && TAKEOVER=$HELPERS/takeover.py
	w=$(mktemp -d "$NOBODY_DIR/XXXXXX") && chown 65534 "$w"
	as=("${AS_NOBODY[@]}")
}

takeover() {
	run -0 "${as[@]}" "$PYTHON" "$TAKEOVER" "${mode:-shell}" "" "$SECRET"$'\n' env LR_TREE="$MARK" "$@"
}

@test "attack: a child the command leaves takes the terminal from the shell and reads the next line; on a terminal the run ends it first, as root and as nobody, with and without --new-session" {
	local who pre opt w=$d as=()
	for who in root nobody; do
		[ "$who" = root ] || takeover_as_nobody
		# control: the command run directly, in the job's session and out of it
		# (setsid, as --new-session does): the leftover gets the line
		for pre in env setsid; do
			rm -f "$w/log"
			takeover "$pre" "$PYTHON" "$TAKEOVER" leave "$w/log"
			assert_line "shell read: b''"
			assert_equal "$(cat "$w/log")" "$SECRET"
			teardown
		done
		for opt in "" --new-session; do
			rm -f "$w/log"
			takeover "$LR" ${opt:+"$opt"} --ro / --rw "$w" -- "$PYTHON" "$TAKEOVER" leave "$w/log"
			assert_line "job: 0"
			assert_line "shell read: b'$SECRET\\n'"
			[ ! -s "$w/log" ] || fail "as $who with $opt the leftover read: $(cat "$w/log")"
			none_left
		done
	done
}

@test "attack: with 0-2 away from the terminal (</dev/null >log 2>&1 at a shell), the leftover opens /dev/tty, takes it and reads the next line; with a controlling terminal the run ends it first, as root and as nobody" {
	local who w=$d as=() mode=away
	for who in root nobody; do
		[ "$who" = root ] || takeover_as_nobody
		# control: the command run directly: the leftover gets the line
		rm -f "$w/log"
		takeover "$PYTHON" "$TAKEOVER" leave "$w/log"
		assert_line "shell read: b''"
		assert_equal "$(cat "$w/log")" "$SECRET"
		teardown
		# --rw /dev/tty: the command may use its terminal (a password prompt)
		rm -f "$w/log"
		takeover "$LR" --ro / --rw "$w" --rw /dev/tty -- "$PYTHON" "$TAKEOVER" leave "$w/log"
		assert_line "job: 0"
		assert_line "shell read: b'$SECRET\\n'"
		[ ! -s "$w/log" ] || fail "as $who the leftover read: $(cat "$w/log")"
		none_left
	done
}

@test "a launcher refused /dev/tty (a sandbox around it hides it) asks /proc/self/stat: with a controlling terminal it still supervises, without one it keeps exec" {
	# pids.sh LR DIR TTY: 0-2 away from any terminal, the launcher in a sandbox that
	# hides /dev/tty; DIR/pids: the outer command's pid, the inner one's
	cat >"$d/pids.sh" <<-'EOF'
		exec </dev/null >"$2/pids" 2>&1
		exec "$1" --ro / --rw "$2" --hide /dev/tty -- sh -c '"$0" ctty >"$1/ctty"; echo $$; exec "$2" -- sh -c "echo \$\$"' "$3" "$2" "$1"
	EOF
	run -0 "$HELPERS/tty" run sh "$d/pids.sh" "$LR" "$d" "$HELPERS/tty"
	assert_equal "$(cat ctty)" EACCES
	[ "$(sed -n 1p pids)" != "$(sed -n 2p pids)" ] || fail "with a controlling terminal the launcher kept exec: $(cat pids)"
	# control: no controlling terminal (setsid), the same refusal: exec kept
	setsid -w sh "$d/pids.sh" "$LR" "$d" "$HELPERS/tty"
	assert_equal "$(cat ctty)" EACCES
	assert_equal "$(sed -n 1p pids)" "$(sed -n 2p pids)"
}

@test "a launcher refused both /dev/tty and /proc cannot rule out a terminal: it fails closed (125), saying so, rather than exec" {
	# LeakSanitizer lists /proc/PID/task, which the outer run refuses the
	# inner launcher: it would end that launcher with a fatal error (status 1)
	[ -z "${LR_SANITIZE-}" ] || skip "LeakSanitizer needs /proc (make sanitize)"
	local inner=(--ro /usr --ro /bin --ro /lib --ro "$(dirname "$LR")" -- "$LR" --ro /usr -- /bin/true)
	[ ! -e /lib64 ] || inner=(--ro /lib64 "${inner[@]}")
	# control: /proc granted, no controlling terminal (setsid): tty_nr answers, exec kept
	setsid -w "$LR" --ro /proc "${inner[@]}" </dev/null >"$d/out" 2>&1 || fail "$(cat "$d/out")"
	run -125 setsid -w "$LR" "${inner[@]}" </dev/null
	assert_output "landlock-run: --kill-tree (on: a controlling terminal is not ruled out, /dev/tty and /proc/self/stat refused): cannot open /proc/thread-self/children (the whole-tree mode finds what COMMAND left there): Permission denied"
}

@test "on a terminal a plain run is the whole-tree mode: ^C ends the job and what it left" {
	local cmd=(sh -c '(trap "" INT HUP; while :; do sleep 1; done) & exec sleep 301')
	as=()
	# control: the command itself: ^C kills the job, and the sleep left ignoring it lives on
	run -0 "$PYTHON" "$TAKEOVER" shell $'\x03' "" env LR_TREE="$MARK" "${cmd[@]}"
	assert_line "job: 130"
	some_left
	teardown
	run -0 "$PYTHON" "$TAKEOVER" shell $'\x03' "" env LR_TREE="$MARK" "$LR" --rw "$d" -- "${cmd[@]}"
	assert_line "job: 130"
	none_left
}

@test "the caller's children, which its exec left to the launcher, are none of the run's: the README's reader of --status-fd gets the end record" {
	cat >"$d/siblings" <<-'EOF'
		# the command: its launcher's children (the supervisor, and the caller's)
		l=$(cut -d' ' -f4 /proc/$PPID/stat)
		for c in $(cat /proc/$l/task/$l/children); do cat /proc/$c/comm; done >"$1/comm"
	EOF
	# bash execs the last command of -c: cat, the reader of >(...), was its
	# child and is the launcher's
	run -0 bash -c '"$0" --kill-tree --status-fd 3 --ro / --rw "$1" -- sh "$1/siblings" "$1" 3> >(cat >"$1/status.jsonl")' "$LR" "$d"
	grep -qx cat comm || fail "the reader is not the launcher's child: $(cat comm)"
	for _ in $(seq 100); do [ "$(tail -n 1 status.jsonl 2>/dev/null)" = '{"exit":0}' ] && break; sleep 0.05; done
	assert_equal "$(tail -n 1 status.jsonl)" '{"exit":0}'
	# the supervisor killed: the launcher ends what is left, but not the reader
	rm -f pid status.jsonl
	bash -c '"$0" --kill-tree --status-fd 3 --rw "$1" -- env LR_TREE="$2" sh -c "sleep 300 & echo \$PPID >\$0/pid; wait" "$1" 3> >(cat >"$1/status.jsonl")' "$LR" "$d" "$MARK" >/dev/null 2>&1 3>&- &
	launcher=$!
	for _ in $(seq 100); do [ -s pid ] && break; sleep 0.05; done
	kill -KILL "$(cat pid)"
	wait "$launcher" || true
	none_left
	for _ in $(seq 100); do [ "$(tail -n 1 status.jsonl 2>/dev/null)" = '{"signal":"SIGKILL"}' ] && break; sleep 0.05; done
	assert_equal "$(tail -n 1 status.jsonl)" '{"signal":"SIGKILL"}'
}
