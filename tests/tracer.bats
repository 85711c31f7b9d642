#!/usr/bin/env bats
# The tracer behind --explain and --learn is hostile-input code: every attack
# a confined command can make on its observer, performed for real, beside a
# control that shows the attack has teeth (it works without the launcher, or
# the same mechanism reports a genuine call). make sanitize runs this file
# against the ASan and UBSan build, where the forged stops below overflowed
# a stack buffer before.
load helpers
load explain

HOSTILE=$HELPERS/hostile

setup() {
	require_landlock
	explain_setup
}

# gone PID: PID has exited (a zombie no one reaped yet counts), within 5 s.
gone() {
	for _ in $(seq 100); do
		[ -e "/proc/$1" ] || return 0
		grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "process $1 is still there"
}

teardown() {
	[ ! -f "$BATS_TEST_TMPDIR/cleanup" ] || rm -rf "$(cat "$BATS_TEST_TMPDIR/cleanup")"
}

@test "forged stops: the command's own filter names any row for any call; only genuine stops are explained" {
	cd no
	explain --ro / -- "$HOSTILE" forge "$d/genuine"
	assert_equal "$status" 0
	assert_equal "$output" EACCES
	# The openat row is the call itself: that one is genuine, and so is the open.
	assert_equal "$denied" "$(printf '%s\n' "make_reg $d/no/\\x01 (openat by hostile): allow with --rw $d/no" \
		"make_dir $d/genuine (mkdirat by hostile): allow with --rw $d")"
	assert_equal "$(grep -c '' "$J")" 2
}

# --explain's refusals stop at the tracer (SECCOMP_RET_TRACE) before the
# filter refuses them; a filter the command installs itself answers after it.
@test "attack: the command's own filter gets no refused call past --explain (its TRACE answer, a listener that continues)" {
	# controls, without the launcher: mask's stop finds no tracer (ENOSYS); the
	# listener's supervisor lets the child's socket go on
	run -0 timeout -k 2 20 "$HOSTILE" mask
	assert_output ENOSYS
	run -0 timeout -k 2 20 "$HOSTILE" listener
	assert_output $'ok\nok'
	# a plain run refuses with an errno, which beats both answers
	run -0 timeout -k 2 20 "$LR" --ro / --no-network -- "$HOSTILE" mask
	assert_output EAFNOSUPPORT
	run -0 timeout -k 2 20 "$LR" --ro / --no-network -- "$HOSTILE" listener
	assert_output $'ok\nEAFNOSUPPORT'
	# traced, the command's ret_data replaces the refusal's: the tracer reads the
	# table, marks the call, explains it; the same filter without --no-network
	# leaves the socket alone
	run -0 --separate-stderr timeout -k 2 20 "$LR" --explain --ro / --no-network -- "$HOSTILE" mask
	assert_output EAFNOSUPPORT
	[[ $stderr == *"network AF_INET (socket by hostile["* ]] || fail "$stderr"
	run -0 timeout -k 2 20 "$LR" --explain --ro / -- "$HOSTILE" mask
	assert_output ok
	# a listener's answer would beat the stop: no listener while traced
	run -0 timeout -k 2 20 "$LR" --explain --ro / --no-network -- "$HOSTILE" listener
	assert_output EINVAL
	policy_dir # a policy outside it gets a note on stderr
	run -0 timeout -k 2 20 "$LR" --learn "$P/p" -- "$HOSTILE" listener
	assert_output EINVAL
}

@test "the FIFO a #! line names neither hangs --explain nor the plain run's 126 path" {
	mkfifo "$d/fifo"
	printf '#!%s\n' "$d/fifo" >"$d/script"
	chmod 755 "$d/script"
	# Control: a plain read-only open of the FIFO blocks until a writer comes.
	run -124 timeout 2 sh -c 'exec 3<"$1"' _ "$d/fifo"
	run -126 --separate-stderr timeout 20 "$LR" --ro / -- "$d/script"
	assert_one_launcher_line
	explain --ro / -- timeout 20 "$d/script"
	[ "$status" -eq 126 ] || fail "status $status: $stderr"
	# A device named as the interpreter is not opened either: /dev/watchdog would arm.
	printf '#!/dev/null\n' >"$d/script"
	run -126 --separate-stderr timeout 20 "$LR" --ro / -- "$d/script"
}

@test "clone(CLONE_UNTRACED) is refused while traced, and the traced tree ends with the launcher" {
	# Control: without the tracer the untraced clone is made.
	run -0 "$HOSTILE" untraced
	assert_output ok
	run -0 "$LR" --ro / -- "$HOSTILE" untraced
	assert_output ok
	explain --ro / -- "$HOSTILE" untraced
	assert_equal "$output" EPERM
	# Through the i386 ABI too (int 0x80), where the tracer does not look.
	if [ "$(uname -m)" = x86_64 ]; then
		run -0 "$HELPERS/sysop" clone i386 800000
		explain --ro / -- "$HELPERS/sysop" clone i386 800000
		assert_equal "$output" EPERM
	fi
	# clone3, whose flags a filter cannot read, is ENOSYS: libc falls back to
	# clone. Nothing to report: every threaded glibc program tries it first.
	explain --ro / -- "$PYTHON" -c 'import ctypes, os; r = ctypes.CDLL(None, use_errno=True).syscall(435, 0, 0); print(os.strerror(ctypes.get_errno()))'
	assert_equal "$output" "Function not implemented"
	assert_equal "$denied" ""
	explain --ro / -- "$PYTHON" -c 'import threading; t = threading.Thread(target=print, args=("thread",)); t.start(); t.join()'
	assert_equal "$output" thread
	assert_equal "$denied" ""
	# The launcher killed: every process of the tree dies with it (PTRACE_O_EXITKILL).
	"$LR" --explain --ro / --rw "$d/ok" -- sh -c 'sleep 100 & echo $! > "$1"; wait' _ "$d/ok/pid" 3>&- &
	local launcher=$!
	for _ in $(seq 100); do [ -s ok/pid ] && break; sleep 0.05; done
	kill -0 "$(cat ok/pid)"
	kill -KILL "$launcher"
	wait "$launcher" || true
	gone "$(cat ok/pid)"
}

@test "io_uring is refused while traced (ENOSYS), whatever --allow-syscalls says: its operations would bypass every stop" {
	# Control: allowed, and not traced, the ring is made.
	run -0 "$LR" --ro / --allow-syscalls io_uring -- "$HELPERS/sysop" io_uring-setup
	explain --ro / --allow-syscalls io_uring -- "$HELPERS/sysop" io_uring-setup
	assert_equal "$output" ENOSYS
	assert_equal "$denied" ""
	explain --ro / -- "$PYTHON" -c 'import ctypes, os; p = ctypes.create_string_buffer(120); r = ctypes.CDLL(None, use_errno=True).syscall(425, 1, p); print(os.strerror(ctypes.get_errno()) if r < 0 else "ok")'
	assert_equal "$output" "Function not implemented"
}

@test "a command that stops itself does not freeze its launcher; SIGTERM ends the run within a second" {
	# Not the terminal's foreground job: the command's stop stays its own, and a
	# helper that continues it lets the run finish.
	explain --ro / -- sh -c '(sleep 1; kill -CONT $$) & kill -STOP $$; echo continued'
	assert_equal "$status" 0
	assert_equal "$output" continued
	# A command that stops itself for good, and ignores SIGTERM: timeout(1)
	# sends SIGTERM after 2 s, and the launcher ends the tree a second later.
	local start=$SECONDS
	run timeout 2 "$LR" --explain --ro / -- sh -c 'trap "" TERM; kill -STOP $$'
	assert_equal "$status" 124
	[ $((SECONDS - start)) -lt 8 ] || fail "took $((SECONDS - start)) s"
	# A spawn with a timeout, as a harness does it, returns.
	command -v node >/dev/null || skip "no node for the spawnSync check"
	run -0 node -e '
		const r = require("child_process").spawnSync(process.argv[1], ["--explain", "--ro", "/", "--",
			"sh", "-c", "trap \"\" TERM INT HUP; kill -STOP $$"], { timeout: 2000 });
		if (r.error?.code !== "ETIMEDOUT") throw new Error(String(r.error));
		console.log("returned", r.signal)' "$LR"
	assert_output "returned SIGTERM"
}

@test "SIGTERM to the launcher: the tree is killed, and the launcher dies of SIGTERM" {
	"$LR" --explain --ro / --rw "$d/ok" -- sh -c 'trap "" TERM; echo $$ > "$1"; while :; do sleep 1; done' \
		_ "$d/ok/pid" 3>&- &
	local launcher=$!
	for _ in $(seq 100); do [ -s ok/pid ] && break; sleep 0.05; done
	kill -TERM "$launcher"
	local rc=0
	wait "$launcher" || rc=$?
	assert_equal "$rc" $((128 + 15))
	gone "$(cat ok/pid)"
}

@test "--learn with stderr a pipe, written through /dev/stderr, finishes" {
	policy_dir # a policy outside it gets a note on stderr
	run -0 timeout 20 bash -c '"$1" --learn "$2" -- sh -c "echo x > /dev/stderr; echo y > /dev/stdout" 2>&1 | cat' \
		_ "$LR" "$P/policy"
	assert_output $'x\ny'
	grep -q '^# landlock-run --learn' "$P/policy" || fail "$(cat "$P/policy")"
}

@test "signals and the end reach processes through pidfds only, never a pid that may have been reused" {
	command -v strace >/dev/null || skip "no strace"
	# strace -f follows the launcher's processes and the command's (which sends
	# no signal itself); setsid(1) makes the launcher lead a session, so that
	# --new-session needs a child too. A SIGTERM to the launcher is relayed,
	# the command ignores it and is killed with what it left a second later.
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	for mode in --kill-tree --new-session; do
		rm -f ok/pid
		strace -f -qq -o "$d/calls" -e trace=kill,tkill,tgkill,pidfd_send_signal setsid \
			"$LR" $mode --ro / --rw "$d/ok" -- sh -c 'trap "" TERM; (sleep 30) & echo $PPID > "$1"; wait' \
			_ "$d/ok/pid" 3>&- &
		local tracer=$!
		for _ in $(seq 100); do [ -s ok/pid ] && break; sleep 0.05; done
		[ -s ok/pid ] || fail "$mode: the command did not start"
		sleep 0.3
		kill -TERM "$(cut -d' ' -f4 "/proc/$(cat ok/pid)/stat")"
		wait "$tracer" || true
		run -0 grep -c 'pidfd_send_signal(' "$d/calls"
		# relayed to the supervisor and the command, then the end's kills
		[ "$output" -ge 3 ] || fail "$mode: $(cat "$d/calls")"
		# kill(2) and its kin only ever aim at the launcher's own processes (to stop
		# or die as they must), never at another pid
		run grep -E '(^|\] )[0-9]+ +(kill|tkill|tgkill)\(' "$d/calls"
		while read -r line; do
			[[ $line =~ ^([0-9]+)\ +t?g?kill\(([0-9]+), ]] || continue
			[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] || fail "$mode: a pid signalled: $line"
		done <"$d/calls"
	done
}

@test "the tracer is boxed while the command runs: no capability, no_new_privs, a seccomp filter" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to show the capabilities dropped"
	# Control: the launcher starts with root's capabilities.
	run -0 grep CapEff /proc/self/status
	[[ $output != *"0000000000000000" ]] || fail "no capabilities to drop: $output"
	# the tracer is the command's parent (the launcher, its own parent, waits)
	"$LR" --explain --ro / --rw "$d/ok" -- sh -c 'echo $PPID >"$1"; sleep 2' _ "$d/ok/running" 3>&- &
	local launcher=$!
	for _ in $(seq 100); do [ -s ok/running ] && break; sleep 0.05; done
	assert_equal "$(cut -d' ' -f4 "/proc/$(cat ok/running)/stat")" "$launcher"
	run -0 grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp):' "/proc/$(cat ok/running)/status"
	wait "$launcher"
	assert_output "$(printf '%s\t%s\n' CapInh: 0000000000000000 CapPrm: 0000000000000000 \
		CapEff: 0000000000000000 CapBnd: 0000000000000000 CapAmb: 0000000000000000 \
		NoNewPrivs: 1 Seccomp: 2)"
}

@test "100,000 distinct denials: the first 10,000 are listed, one line counts the rest" {
	explain --ro / -- "$HOSTILE" creates "$d/no" 100000
	assert_equal "$status" 0
	assert_equal "$output" 100000
	assert_equal "$(grep -c '^landlock-run denied: make_reg' <<<"$stderr")" 10000
	assert_equal "$(grep -v '^landlock-run denied: ' <<<"$stderr")" \
		"landlock-run explain: 90000 more denials, repeats counted, not listed: only the first 10000 distinct ones are"
	assert_equal "$(grep -c '"kind":"fs"' "$J")" 10000
	assert_equal "$(tail -n 1 "$J")" '{"kind":"unlisted","denials":90000}'
	assert_equal "$(tail -n 1 <<<"$json")" "(90000 more not listed)"
}

@test "the tracer resolves with no more power than the command: another user's private directory is not explained" {
	local pub
	as_nobody
	pub=$(mktemp -d /tmp/landlock-run-tracer.XXXXXX)
	echo "$pub" >"$BATS_TEST_TMPDIR/cleanup"
	chmod 755 "$pub"
	mkdir "$pub/private"
	echo data >"$pub/private/f"
	chmod 666 "$pub/private/f"
	chown -R 65534:65534 "$pub/private"
	chmod 700 "$pub/private"
	# Control: its owner may write the file, and so may root with its
	# capabilities (the tracer's before it drops them); root without may not even look.
	run -0 "${AS_NOBODY[@]}" sh -c 'echo more >> "$1"' _ "$pub/private/f"
	run -0 sh -c 'echo more >> "$1"' _ "$pub/private/f"
	explain --ro / -- sh -c 'echo more >> "$1"' _ "$pub/private/f"
	assert_equal "$status" 2
	[[ $stderr == *"Permission denied"* ]] || fail "$stderr"
	[[ $stderr != *"landlock-run denied"* ]] || fail "explained what the command could not see: $stderr"
	assert_file_empty "$J"
}

@test "/dev/stdout is the command's, not the tracer's: a write to it is explained with the command's file" {
	# The command's stdout (fd 4 made 1) is a file outside the grants; the
	# launcher's own stdout is another file.
	explain --ro / --rw "$d/ok" -- sh -c 'exec 1>&4; echo x > /dev/stdout' 4>>"$d/no/command-out"
	assert_equal "$status" 2
	assert_denied "write_file $d/no/command-out (openat by sh): allow with --rw $d/no/command-out"
}

@test "a plain run executes none of the tracer: exactly the system calls of the confinement path" {
	[ "$(id -u)" -eq 0 ] || skip "the list is root's (an unprivileged caller has no capability to drop)"
	[ -z "${LR_SANITIZE-}" ] || skip "the sanitizers' runtime makes calls of its own (make sanitize)"
	command -v strace >/dev/null || skip "no strace"
	# No terminal (setsid, </dev/null): the three TCGETS and the open of
	# /dev/tty (ENXIO) find none, so the run keeps exec.
	run -0 setsid -w strace -qq -o "$d/trace" "$LR" --ro / --rw "$d/ok" --rw /dev/null -- /bin/true </dev/null
	# The launcher's calls up to the exec of the command, the bounding-set drops as
	# one, and each run of stats as one "stat*": how many the policy directories
	# take (one per component of their paths) and the walk up from each --rw grant
	# to them (one per level) depends on where the test's directories are. A
	# write grant's one fstat serves the policy directories' check, the kind of
	# its rule (/dev/null gets the file rights at once) and, as root, whether it
	# brings the refusal of shared mappings of files (tests/setuid.bats); a
	# file off the policy directories' file systems needs no walk up. One
	# mapping holds the grants and the policy directories; the exec closes
	# the grants' descriptors and the ruleset (O_CLOEXEC), with no close(2).
	# A run that writes nothing leaves SIGPIPE alone (out.c: hold_sigpipe).
	run -0 "$PYTHON" -c 'import re, sys
calls = [re.match(r"(\w+)\((.*)", l) for l in open(sys.argv[1])]
names = []
for m in calls[1:]:
    name = m[1] + (" CAPBSET_DROP" if m[2].startswith("PR_CAPBSET_DROP") else "")
    name = "stat*" if name in ("stat", "lstat", "newfstatat") else name
    if name == "execve":
        break
    if not names or names[-1] != name or ("CAPBSET" not in name and name != "stat*"):
        names.append(name)
print(" ".join(names))' "$d/trace"
	assert_output "arch_prctl set_tid_address mmap stat* landlock_create_ruleset ioctl ioctl ioctl openat landlock_create_ruleset openat landlock_add_rule openat fstat stat* landlock_add_rule openat fstat landlock_add_rule prctl landlock_restrict_self seccomp capget prctl CAPBSET_DROP capset"
}

@test "a process that made itself non-dumpable is counted, not explained: as nobody and as root (whose tracer drops CAP_SYS_PTRACE)" {
	local pub edgeop run_as
	as_nobody
	pub=$(mktemp -d /tmp/landlock-run-tracer.XXXXXX)
	echo "$pub" >"$BATS_TEST_TMPDIR/cleanup"
	mkdir "$pub/no" "$pub/report"
	chmod 755 "$pub"
	chmod 777 "$pub/no"
	edgeop=$HELPERS/edgeop
	for run_as in root nobody; do
		as=()
		[ "$run_as" = root ] || as=("${AS_NOBODY[@]}")
		[ "$run_as" = root ] || chown 65534:65534 "$pub/report"
		J=$pub/report/denials.json
		rm -f "$J"
		# Control: the same create by a dumpable process is explained.
		explain --ro / -- sh -c '"$1" nodump create "$2/f"; "$1" create "$2/g"' _ "$edgeop" "$pub/no"
		assert_equal "$output" "EACCES
EACCES"
		assert_equal "$denied" "make_reg $pub/no/g (open by edgeop): allow with --rw $pub/no"
		assert_regex "$(tail -n 1 <<<"$stderr")" '^landlock-run explain: 1 failed calls of processes that made themselves non-dumpable, such as edgeop\[[0-9]+\], could not be examined$'
		assert_equal "$(tail -n 1 <<<"$json")" "(1 calls of edgeop not seen)"
		[ ! -e "$pub/no/f" ] && [ ! -e "$pub/no/g" ]
	done
}

@test "a non-dumpable process's denied unix socket bind is counted too (ssh-agent's): as nobody (its memory closed) and as root (its /proc closed)" {
	local pub edgeop run_as
	as_nobody
	pub=$(mktemp -d /tmp/landlock-run-tracer.XXXXXX)
	echo "$pub" >"$BATS_TEST_TMPDIR/cleanup"
	mkdir "$pub/no" "$pub/report"
	chmod 755 "$pub"
	chmod 777 "$pub/no"
	edgeop=$HELPERS/edgeop
	for run_as in root nobody; do
		as=()
		[ "$run_as" = root ] || as=("${AS_NOBODY[@]}")
		[ "$run_as" = root ] || chown 65534:65534 "$pub/report"
		J=$pub/report/denials.json
		rm -f "$J"
		# Control: the same bind by a dumpable process is explained.
		explain --ro / -- sh -c '"$1" nodump bind "$2/s"; "$1" bind "$2/g"' _ "$edgeop" "$pub/no"
		assert_equal "$output" "EACCES
EACCES"
		assert_equal "$denied" "make_sock $pub/no/g (bind by edgeop): allow with --rw $pub/no"
		assert_regex "$(tail -n 1 <<<"$stderr")" '^landlock-run explain: 1 failed calls of processes that made themselves non-dumpable, such as edgeop\[[0-9]+\], could not be examined$'
		assert_equal "$(tail -n 1 <<<"$json")" "(1 calls of edgeop not seen)"
		[ ! -e "$pub/no/s" ] && [ ! -e "$pub/no/g" ]
	done
}
