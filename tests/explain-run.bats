#!/usr/bin/env bats
# --explain as a process: the command runs confined exactly as without it,
# as a child of the launcher, traced with all it starts (grandchildren,
# threads, a thousand forks); signals are passed on, job control works, the
# exit status is the command's; without ptrace nothing runs.
load helpers
load explain

setup() {
	require_landlock
	explain_setup
}

# outcomes ARG...: what a battery of attempts prints (tryop: ok or the errno),
# as the launcher with ARG... runs it.
outcomes() {
	"$LR" "$@" -- sh -c '
		t=$1 d=$2
		$t truncate "$d/no/t"; $t rename "$d/ok/r" "$d/no/r"; $t ioctl-tcgets /dev/null
		$t bind 0; $t kill 1 0; echo x > "$d/no/w" && echo w; echo x > "$d/ok/w" && echo w
		cat "$d/no/t" >/dev/null && echo r; ls "$d/ok" >/dev/null && echo l
		' sh "$TRYOP" "$d" 2>&1 | grep -v '^landlock-run denied: '
}

@test "the command is confined exactly as without --explain" {
	local policy
	for policy in "--ro /usr --ro /etc --rw $d/ok --rw /dev/null" "--rw $d/ok" "--ro / --no-tcp"; do
		touch no/t ok/r
		# shellcheck disable=SC2086 # the policy is split on purpose
		assert_equal "$(outcomes --explain $policy)" "$(outcomes $policy)"
		rm -f no/* ok/*
	done
	# Control: the battery tells the policies apart.
	# shellcheck disable=SC2086
	[ "$(outcomes --rw "$d/ok")" != "$(outcomes --rw "$d")" ] || fail "the battery sees no difference"
}

@test "the exit status is the command's: 0, 1, 42, 125, 255, and 128+N for a death by signal N" {
	local code
	for code in 0 1 42 125 255; do
		explain -- sh -c "exit $code"
		assert_equal "$status" "$code"
		assert_equal "$stderr" ""
	done
	explain -- sh -c 'kill -TERM $$'
	assert_equal "$status" 143
	explain -- sh -c 'kill -KILL $$'
	assert_equal "$status" 137
}

@test "cannot run or execute: 127 and 126 with the plain run's one launcher line" {
	explain -- no-such-command-lr
	assert_equal "$status" 127
	assert_one_launcher_line
	printf 'echo ran\n' >ok/noexec
	explain -- "$d/ok/noexec"
	assert_equal "$status" 126
	assert_one_launcher_line
}

@test "the launcher's own failures stay 125 with one line, before anything runs" {
	explain --rw "$d/missing" -- touch "$d/ok/ran"
	assert_equal "$status" 125
	assert_one_launcher_line
	assert_not_exist ok/ran
	run -125 --separate-stderr "$LR" --explain-json "$d/missing/denials.json" -- touch "$d/ok/ran"
	assert_one_launcher_line
	[[ $stderr == *"--explain-json $d/missing/denials.json"* ]] || fail "$stderr"
	assert_not_exist ok/ran
	run -125 --separate-stderr "$LR" --probe --explain
	assert_one_launcher_line
	run -125 --separate-stderr "$LR" --probe --explain-json "$J"
	assert_one_launcher_line
}

@test "without ptrace (a container that forbids it), --explain exits 125 with one line and nothing runs" {
	# make sanitize: LeakSanitizer stops the world with the ptrace taken away here.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run -125 --separate-stderr "$FAULT" ptrace EPERM -- "$LR" --explain -- touch "$d/ok/ran"
	assert_one_launcher_line
	[[ $stderr == *"--explain needs ptrace"*"Operation not permitted" ]] || fail "$stderr"
	assert_not_exist ok/ran
	# The seccomp filter that stops the watched calls fails: the same.
	run -125 --separate-stderr "$FAULT" seccomp EINVAL -- "$LR" --explain -- touch "$d/ok/ran"
	assert_one_launcher_line
	assert_not_exist ok/ran
	# Control: the plain run needs no ptrace.
	run -0 "$FAULT" ptrace EPERM -- "$LR" --rw "$d/ok" -- touch "$d/ok/ran"
	assert_file_exist ok/ran
}

@test "each of --explain's four filters failing alone: 125, one line, nothing runs" {
	# The tracer seals itself while the child installs its filters: either may
	# fail first, and the run must say so once, on the status descriptor too:
	# the running record, the failed one, the end. --arg1 0: not the listener
	# landlock_filtered asks with (flags NEW_LISTENER). --rw: the command
	# could make the file, had it run.
	local nth tries tracer=0
	for nth in 1 2 3 4; do
		run -125 --separate-stderr "$FAULT" seccomp EINVAL --arg0 1 --arg1 0 --nth "$nth" -- \
			"$LR" --explain --rw "$d/ok" --status-fd 3 -- touch "$d/ok/ran" 3>"$d/status"
		assert_one_launcher_line
		[[ $stderr == *"seccomp filter"*"Invalid argument" ]] || fail "$nth: $stderr"
		assert_not_exist ok/ran
		assert_equal "$(wc -l <"$d/status")" 3
		assert_equal "$(grep -c '^{"pid":[0-9]*,"abi":' "$d/status")" 1
		assert_equal "$(grep -c '^{"exec":false,"status":125,"error":"landlock-run: ' "$d/status")" 1
		assert_equal "$(tail -n 1 "$d/status")" '{"exit":125}'
	done
	# The tracer's own failure is among them: the first two installs race,
	# so the second may be the tracer's.
	for tries in $(seq 20); do
		for nth in 1 2; do
			run -125 --separate-stderr "$FAULT" seccomp EINVAL --arg0 1 --arg1 0 --nth "$nth" -- \
				"$LR" --explain --rw "$d/ok" -- touch "$d/ok/ran"
			assert_one_launcher_line
			[[ $stderr != *"the tracer's seccomp filter"* ]] || tracer=1
		done
		if ((tracer)); then break; fi
	done
	((tracer)) || fail "the tracer's seal never failed"
	assert_not_exist ok/ran
	# Control: there are four, and the fifth fails nothing.
	run -0 --separate-stderr "$FAULT" seccomp EINVAL --arg0 1 --arg1 0 --nth 5 -- \
		"$LR" --explain --rw "$d/ok" -- touch "$d/ok/ran"
	assert_file_exist ok/ran
}

@test "a signal for the child while a failed seal waits is delivered: a background job's SIGTTOU, a status pipe's SIGPIPE; one line, no spin" {
	# Every install fails: the child says why while the tracer waits for it.
	# A status pipe without a reader: the child's failed record raises
	# SIGPIPE after its line, which the tracer must not take for the child
	# stopped before COMMAND (a second line, as 4a7e184's launcher gives).
	mkfifo "$d/fifo"
	run -125 --separate-stderr bash -c 'exec 4<>"$1" 3>"$1" 4<&-; shift; exec "$@"' sh "$d/fifo" \
		"$FAULT" seccomp EINVAL --arg0 1 --arg1 0 -- "$LR" --explain --status-fd 3 -- true
	assert_one_launcher_line
	# A background job on a terminal with tostop: the child's line raises
	# SIGTTOU, a stop, before it is written. Dropped, it came back at once,
	# the write restarting (f329e4a's launcher spun); delivered, the stop is
	# an event, and the run ends 125.
	run -0 timeout 20 "$PYTHON" -c '
import os, sys, termios, time
master, slave = os.openpty()
leader = os.fork()
if leader == 0:
    os.setsid()
    import fcntl; fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    attr = termios.tcgetattr(slave); attr[3] |= termios.TOSTOP
    termios.tcsetattr(slave, termios.TCSANOW, attr)
    job = os.fork()
    if job == 0:
        os.setpgid(0, 0)
        for fd in 0, 1, 2: os.dup2(slave, fd)
        os.execv(sys.argv[1], sys.argv[1:])
    for _ in range(200):
        pid, st = os.waitpid(job, os.WNOHANG | os.WUNTRACED)
        if pid:
            print("stopped" if os.WIFSTOPPED(st) else "exit %d" % os.waitstatus_to_exitcode(st))
            os._exit(0)
        time.sleep(0.05)
    print("running"); os.killpg(job, 9); os._exit(0)
os.close(slave)
os.waitpid(leader, 0)
' "$FAULT" seccomp EINVAL --arg0 1 --arg1 0 -- "$LR" --explain -- true
	assert_output "exit 125"
}

@test "a launcher that fails before COMMAND leaves the --explain-json and --learn files as they were, and no temporary file beside them" {
	# --nth 1: the tracer's own seal fails (above), once each report's
	# temporary file is open; 2-4: the child's filters, once the tracer
	# waits; every install: both. Control: the same run with the seals
	# whole writes the file first. In a policy directory, so that --learn
	# has no word of where FILE is.
	local opt before which
	policy_dir
	for opt in --explain-json --learn; do
		rm -rf "$P/r" && mkdir "$P/r"
		run "$LR" "$opt" "$P/r/file" -- touch "$d/ok/ran"
		assert_file_not_empty "$P/r/file"
		before=$(cat "$P/r/file")
		for which in "--nth 1" "--nth 2" "--nth 3" "--nth 4" ""; do
			# shellcheck disable=SC2086 # which: the fault's words
			run -125 --separate-stderr "$FAULT" seccomp EINVAL --arg0 1 --arg1 0 $which -- \
				"$LR" "$opt" "$P/r/file" -- touch "$d/ok/ran2"
			assert_one_launcher_line
			assert_equal "$(ls -A "$P/r")" file
			assert_equal "$(cat "$P/r/file")" "$before"
			assert_not_exist ok/ran2
		done
	done
}

@test "denials of grandchildren and of threads are reported, with the process that made them" {
	explain -- sh -c "sh -c 'touch $d/no/grandchild'"
	assert_denied "make_reg $d/no/grandchild (openat by touch): allow with --rw $d/no"
	explain --rw "$d/ok" -- "$PYTHON" -c '
import os, sys, threading
def attempt():
    try: open(sys.argv[1], "w")
    except PermissionError: print("denied in", threading.get_native_id())
t = threading.Thread(target=attempt)
t.start(); t.join()
print(os.getpid())
' "$d/no/thread"
	assert_denied "make_reg $d/no/thread (openat by python3): allow with --rw $d/no"
	# the pid is the process's; the thread that made the call is another
	assert_line --index 1 "$(json_field pid)"
	[[ ${lines[0]} != "denied in $(json_field pid)" ]] || fail "the call was not in a thread: $output"
}

@test "a command that forks 1,000 processes: each distinct denial once, and the status" {
	explain --rw "$d/ok" --rw /dev/null -- sh -c "
		for i in \$(seq 1000); do (echo > $d/no/f\$((i % 3))) 2>/dev/null & done; wait
		for i in \$(seq 1000); do /bin/true; done; exit 7"
	assert_equal "$status" 7
	assert_equal "$(sort <<<"$denied")" "$(printf '%s\n' \
		"make_reg $d/no/f0 (openat by sh): allow with --rw $d/no" \
		"make_reg $d/no/f1 (openat by sh): allow with --rw $d/no" \
		"make_reg $d/no/f2 (openat by sh): allow with --rw $d/no")"
}

@test "the command is a child (another pid); SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the launcher reach it" {
	local sig num pid
	for sig in INT TERM HUP QUIT; do
		num=$(kill -l "$sig")
		rm -f pid got
		# The command reports its own pid, then waits; bash sets SIGINT and
		# SIGQUIT ignored for background jobs, so the command sets its own.
		# Its handler notes the signal, then dies of it: the launcher ends
		# the tree a second after INT, TERM or HUP whether it passed them on
		# or not, and only the note says the signal reached the command.
		"$LR" --explain --rw "$d" -- "$PYTHON" -c '
import os, signal, sys, time
def got(s, frame):
    open(sys.argv[2], "w").write(str(s))
    signal.signal(s, signal.SIG_DFL)
    os.kill(os.getpid(), s)
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT): signal.signal(s, got)
open(sys.argv[1], "w").write(str(os.getpid())); time.sleep(30)' "$d/pid" "$d/got" 3>&- &
		pid=$!
		for _ in $(seq 100); do [ -s "$d/pid" ] && break; sleep 0.05; done
		[ -s "$d/pid" ] || fail "the command did not start"
		[ "$(cat "$d/pid")" != "$pid" ] || fail "the command has the launcher's pid"
		kill "-$sig" "$pid"
		status=0
		wait "$pid" || status=$?
		assert_equal "$status" $((128 + num))
		assert_equal "$(cat "$d/got")" "$num"
	done
}

@test "signals the launcher does not relay (SIGALRM, SIGPIPE, SIGXCPU...), from anyone, end nothing: the run ends as the command does and --learn keeps its policy" {
	# Before the whole-tree mode, a SIGALRM to the tracer ended the run with
	# status 128 through an undefined shift (UBSan: shift exponent -1) and
	# threw the learned policy away.
	local pid sup sig
	"$LR" --learn "$d/policy" -- sh -c 'echo $$ >"$1"; sleep 2; cat /etc/hostname >/dev/null; exit 3' \
		sh "$d/pid" 3>&- &
	pid=$!
	for _ in $(seq 100); do [ -s "$d/pid" ] && break; sleep 0.05; done
	[ -s "$d/pid" ] || fail "the command did not start"
	sup=$(ps -o ppid= -p "$(cat "$d/pid")" | tr -d ' ')
	[ "$sup" != "$pid" ] && [ -n "$sup" ] || fail "no supervisor between the launcher and the command"
	for sig in ALRM PIPE XCPU XFSZ VTALRM PROF CHLD URG WINCH; do
		kill "-$sig" "$pid" "$sup"
	done
	status=0
	wait "$pid" || status=$?
	assert_equal "$status" 3
	grep -q '^--ro' "$d/policy" || fail "no policy: $(cat "$d/policy" 2>&1)"
	# Control: the same signal to the command ends it, and the run with it.
	rm -f "$d/pid"
	"$LR" --learn "$d/policy2" -- sh -c 'echo $$ >"$1"; sleep 5' sh "$d/pid" 3>&- &
	pid=$!
	for _ in $(seq 100); do [ -s "$d/pid" ] && break; sleep 0.05; done
	kill -ALRM "$(cat "$d/pid")"
	status=0
	wait "$pid" || status=$?
	assert_equal "$status" $((128 + $(kill -l ALRM)))
}

# job ARG...: the launcher with ARG... as a shell job (tests/shell-job.py) in
# the background; $job its pid, which leads its process group; what the
# shell sees goes to $d/shell.
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

# The command reports its pid, waits three seconds, then writes done: long
# enough that a stop signal reaches it before it is done, even under load.
LATER=(sh -c 'echo $$ > "$1"; sleep 3; echo done > "$2"' sh)

@test "job control: ^Z (SIGTSTP to the job) stops the job as the shell sees it; SIGCONT continues it" {
	job --explain --rw "$d" -- "${LATER[@]}" "$d/pid" "$d/done"
	for _ in $(seq 100); do [ -s "$d/pid" ] && break; sleep 0.05; done
	kill -TSTP -- "-$job"
	shell_saw stopped
	sleep 1.5
	assert_not_exist done # the command is stopped too
	kill -CONT -- "-$job"
	shell_saw continued
	wait "$shell"
	assert_equal "$(cat "$d/done")" done
}

@test "job control: the command stopped on its own (SIGSTOP to its pid) stops the job too" {
	job --explain --rw "$d" -- "${LATER[@]}" "$d/pid" "$d/done"
	for _ in $(seq 100); do [ -s "$d/pid" ] && break; sleep 0.05; done
	kill -STOP "$(cat "$d/pid")"
	shell_saw stopped
	kill -CONT -- "-$job"
	wait "$shell"
	assert_equal "$(cat "$d/done")" done
	# Control: without --explain the job stops alike. On a terminal a plain
	# run is the whole-tree mode (the command is the supervisor's child, not
	# the job itself), so the stop is passed up the same way.
	rm "$d/pid" "$d/done"
	job --rw "$d" -- "${LATER[@]}" "$d/pid" "$d/done"
	for _ in $(seq 100); do [ -s "$d/pid" ] && break; sleep 0.05; done
	assert_not_equal "$(cat "$d/pid")" "$job"
	kill -STOP "$(cat "$d/pid")"
	shell_saw stopped
	kill -CONT -- "-$job"
	wait "$shell"
	assert_equal "$(cat "$d/done")" done
}

@test "platform/*.h number the watched calls as the kernel does (musl's headers), the same calls in the same order" {
	local plat arch name nr names=() first
	for plat in linux-x64:x86_64 linux-arm64:aarch64; do
		arch=${plat#*:}
		local header=/usr/include/$arch-linux-musl/bits/syscall.h
		[ -f "$header" ] || fail "$header is missing (make setup installs musl for $arch)"
		names=()
		while read -r name nr; do
			names+=("$name")
			if [ "$nr" -ge 424 ] && ! grep -qE "^#define __NR_$name[[:space:]]" "$header"; then
				# newer than musl's headers (fchmodat2): one number on every ABI,
				# the filter's NR_ row (tests/seccomp.bats tries it on this kernel)
				grep -qE "^#define NR_$name[[:space:]]+\{$nr, $nr(, $nr)?\}\$" \
					"$BATS_TEST_DIRNAME/../platform/${plat%:*}.h" ||
					fail "$plat: $name is not $nr in its NR_ row"
			elif [ "$nr" -ge 0 ]; then
				grep -qE "^#define __NR_$name[[:space:]]+$nr\$" "$header" ||
					fail "$plat: $name is not $nr in $header"
			elif grep -qE "^#define __NR_$name[[:space:]]" "$header"; then
				fail "$plat: $name is -1, but $header has it"
			fi
		done < <(grep -o 'X([a-z0-9_]*, -\?[0-9]*)' "$BATS_TEST_DIRNAME/../platform/${plat%:*}.h" |
			sed 's/X(\(.*\), \(.*\))/\1 \2/')
		[ "${#names[@]}" -gt 30 ] || fail "$plat lists only ${#names[@]} calls"
		[ -z "${first-}" ] && first="${names[*]}"
		assert_equal "${names[*]}" "$first"
	done
}
