#!/usr/bin/env bats
# Running the command: exit statuses, signals and pid, argv bytes, the
# environment and cwd, PATH lookup, and the launcher's silence.
load helpers

PY=/usr/bin/python3

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR"
}

@test "the command's own exit status passes through: 0, 1, 42, 125, 126, 127, 255 with no launcher line" {
	for code in 0 1 42 125 126 127 255; do
		run "-$code" --separate-stderr "$LR" -- sh -c "echo ran; exit $code"
		assert_equal "$output" ran
		assert_equal "$stderr" ""
	done
	# Also under a confining policy.
	run -42 --separate-stderr "$LR" --ro / --rw /dev/null -- sh -c 'exit 42'
	assert_equal "$stderr" ""
}

@test "a command that is not found: 127 and one launcher line naming it" {
	run -127 --separate-stderr "$LR" -- no-such-command-lr "$BATS_TEST_TMPDIR/ran"
	assert_one_launcher_line
	[[ $stderr == *no-such-command-lr* ]] || fail "$stderr"
	run -127 --separate-stderr "$LR" --ro / -- "$BATS_TEST_TMPDIR/missing/cmd"
	assert_one_launcher_line
	[[ $stderr == *"$BATS_TEST_TMPDIR/missing/cmd"* ]] || fail "$stderr"
	# PATH is searched after confinement; an empty PATH finds nothing.
	run -127 --separate-stderr env PATH= "$LR" -- sh -c 'exit 0'
	assert_one_launcher_line
}

@test "a command that cannot be executed: 126 and one launcher line naming it" {
	printf '#!/bin/sh\necho ran\n' >noexec
	chmod 0644 noexec
	mkdir adir
	for cmd in ./noexec ./adir /dev/null; do
		run -126 --separate-stderr "$LR" -- "$cmd"
		assert_equal "$output" ""
		assert_one_launcher_line
		[[ $stderr == *"$cmd"* ]] || fail "does not name $cmd: $stderr"
	done
	# Control: the same script with the x bit runs.
	chmod 0755 noexec
	run -0 "$LR" -- ./noexec
	assert_output ran
}

@test "a script whose interpreter the sandbox denies: 126, and the line names the interpreter" {
	local d
	d=$(pwd -P)
	mkdir bin
	cp /usr/bin/dash bin/dash # its libraries are beneath /usr
	printf '#!%s\necho ran\n' "$d/bin/dash" >bin/script
	chmod 0755 bin/script
	run -0 "$LR" -- bin/script
	assert_output ran
	cp bin/script script # the script readable, its interpreter outside every grant
	run -126 --separate-stderr "$LR" --ro /usr --ro "$d/script" -- "$d/script"
	assert_equal "$output" ""
	assert_one_launcher_line
	assert_equal "$stderr" "landlock-run: cannot execute $d/script: Permission denied (the sandbox denies its #! interpreter $d/bin/dash: grant it with --ro $d/bin/dash)"
	# The advice works.
	run -0 "$LR" --ro /usr --ro "$d/script" --ro "$d/bin/dash" -- "$d/script"
	assert_output ran
}

@test "a binary whose dynamic linker the sandbox denies: 126, and the line names the linker as PT_INTERP gives it and as it is" {
	local interp real
	interp=$(readelf -lW /usr/bin/true | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	real=$(readlink -f "$interp")
	[ -n "$interp" ] || fail "/usr/bin/true names no interpreter"
	run -126 --separate-stderr "$LR" --ro /usr/bin -- /usr/bin/true
	assert_one_launcher_line
	if [ "$interp" = "$real" ]; then
		assert_equal "$stderr" "landlock-run: cannot execute /usr/bin/true: Permission denied (the sandbox denies its ELF interpreter $interp: grant it with --ro $real)"
	else
		assert_equal "$stderr" "landlock-run: cannot execute /usr/bin/true: Permission denied (the sandbox denies its ELF interpreter $interp, that is $real: grant it with --ro $real)"
	fi
	# With the linker granted the exec goes through: the linker itself runs, and
	# stops at the libraries it may not read (its own message, its status 127).
	run -127 "$LR" --ro /usr/bin --ro "$real" -- /usr/bin/true
	assert_output --partial "error while loading shared libraries"
}

@test "a binary the sandbox denies, also found through PATH: the line names the file" {
	local d
	d=$(pwd -P)
	mkdir denied
	cp /usr/bin/true denied/mytrue
	run -126 --separate-stderr "$LR" --ro /usr -- "$d/denied/mytrue"
	assert_equal "$stderr" "landlock-run: cannot execute $d/denied/mytrue: Permission denied (the sandbox denies executing $d/denied/mytrue: grant it with --ro $d/denied/mytrue)"
	run -126 --separate-stderr env PATH="$d/denied" "$LR" --ro /usr -- mytrue
	assert_equal "$stderr" "landlock-run: cannot execute mytrue: Permission denied (the sandbox denies executing $d/denied/mytrue: grant it with --ro $d/denied/mytrue)"
	# Mode bits are not the sandbox's: no such claim.
	chmod 0644 denied/mytrue
	run -126 --separate-stderr "$LR" --ro / -- "$d/denied/mytrue"
	assert_equal "$stderr" "landlock-run: cannot execute $d/denied/mytrue: Permission denied"
}

@test "a script whose #! interpreter does not exist: 127, and the line names the interpreter" {
	printf '#!/nonexistent/lr-interp\n' >script
	chmod 0755 script
	run -127 --separate-stderr "$LR" -- ./script
	assert_equal "$stderr" "landlock-run: cannot run ./script: its #! interpreter /nonexistent/lr-interp does not exist"
}

@test "#! lines and ELF headers are read only from the bytes the file has" {
	# A #! line that ends where the file ends (no newline): the kernel reads
	# the name up to there, and so does the 127 line. Before, the reader went
	# on past the bytes read, into whatever the buffer held.
	printf '#!/nonexistent/lr-interp' >short
	# One longer than the kernel's 256 bytes, without an end: the kernel
	# refuses it (ENOEXEC); the reader must not run past its buffer (ASan
	# under make sanitize: a stack-buffer-overflow READ of 259 bytes).
	{ printf '#!'; head -c 300 /dev/zero | tr '\0' a; } >long
	# An ELF file cut inside its header: nothing is read past its 7 bytes.
	printf '\177ELF\002\001\001' >cut
	chmod 0755 short long cut
	run -127 --separate-stderr "$LR" -- ./short
	assert_equal "$stderr" "landlock-run: cannot run ./short: its #! interpreter /nonexistent/lr-interp does not exist"
	# (make sanitize's launcher is glibc's, whose execvp runs an ENOEXEC file
	# with /bin/sh; tests/explain.bats reads such a line in the tracer)
	if [ -z "${LR_SANITIZE-}" ]; then
		run -126 --separate-stderr "$LR" -- ./long
		assert_equal "$stderr" "landlock-run: cannot execute ./long: Exec format error"
		run -126 --separate-stderr "$LR" -- ./cut
		assert_equal "$stderr" "landlock-run: cannot execute ./cut: Exec format error"
	fi
	# Control: with its newline, the same line names the same interpreter.
	printf '#!/nonexistent/lr-interp\n' >short
	run -127 --separate-stderr "$LR" -- ./short
	assert_equal "$stderr" "landlock-run: cannot run ./short: its #! interpreter /nonexistent/lr-interp does not exist"
}

@test "death by a signal passes through, and the command has the launcher's pid" {
	"$LR" -- sh -c 'echo $$; exec sleep 30' >pid 3>&- &
	local launcher=$! i
	for i in $(seq 100); do [ -s pid ] && break; sleep 0.05; done
	assert_equal "$(cat pid)" "$launcher"
	assert_equal "$(tr '\0' ' ' </proc/"$launcher"/cmdline)" "sleep 30 "
	kill -TERM "$launcher"
	local status=0
	wait "$launcher" || status=$?
	assert_equal "$status" 143
	# Also a command that kills itself, under a confining policy.
	run -137 "$LR" --ro / -- sh -c 'kill -KILL $$'
	run -143 "$LR" --ro / -- sh -c 'kill -TERM $$'
}

@test "argv reaches the command byte for byte" {
	local args=('' ' ' ' two  spaces ' $'new\nline' $'tab\there' $'\xff\xfe\x80 not utf-8'
		'-' '-x' '--ro' '--' '--rw=/' '%s %d \\ \n' '*' '$HOME' "'\"")
	local expected
	expected=$(printf '%s\0' "${args[@]}" | od -An -tx1)
	# Through a file, so that NUL bytes and trailing newlines survive.
	"$LR" -- printf '%s\0' "${args[@]}" >got
	assert_equal "$(od -An -tx1 <got)" "$expected"
	"$LR" --ro / -- printf '%s\0' "${args[@]}" >got
	assert_equal "$(od -An -tx1 <got)" "$expected"
	# The whole argv, argv[0] included, as the kernel handed it over.
	"$LR" -- $PY -c 'import sys; sys.stdout.buffer.write(open("/proc/self/cmdline", "rb").read())' \
		"${args[@]}" >got
	assert_equal "$(od -An -tx1 <got)" \
		"$( (printf '%s\0' $PY -c 'import sys; sys.stdout.buffer.write(open("/proc/self/cmdline", "rb").read())' "${args[@]}") | od -An -tx1)"
}

@test "argv[0] is the command as given, not a resolved path" {
	run -0 "$LR" -- sh -c 'echo "$0"'
	assert_output sh
	"$LR" -- $PY -c 'import sys; sys.stdout.buffer.write(open("/proc/self/cmdline", "rb").read())' >got
	assert_equal "$(tr '\0' ' ' <got)" "$PY -c import sys; sys.stdout.buffer.write(open(\"/proc/self/cmdline\", \"rb\").read()) "
}

@test "the environment reaches the command unchanged" {
	local envs=(A='x y' B=$'multi\nline' C= D=$'\xff' PATH=/usr/bin:/bin LANDLOCK=1)
	env -i "${envs[@]}" env -0 | sort -z >outside
	env -i "${envs[@]}" "$LR" --ro / -- env -0 | sort -z >inside
	assert_equal "$(od -An -tx1 <inside)" "$(od -An -tx1 <outside)"
	# The full inherited environment too (bash sets $_ to the program it runs).
	env -0 | grep -zv '^_=' | sort -z >outside
	"$LR" -- env -0 | grep -zv '^_=' | sort -z >inside
	assert_equal "$(od -An -tx1 <inside)" "$(od -An -tx1 <outside)"
}

@test "an unset PATH stays unset in the command (the launcher's default search path is not exported)" {
	run -0 env -i "$LR" -- env
	assert_output ""
	run -0 env -i "$LR" --ro / -- /usr/bin/env
	assert_output ""
}

@test "the current directory reaches the command unchanged, even when it is outside every grant" {
	mkdir -p $'dir with spaces/and\nnewline'
	cd $'dir with spaces/and\nnewline'
	run -0 "$LR" -- /bin/pwd -P
	assert_output "$(pwd -P)"
	run -0 "$LR" --ro /usr -- /usr/bin/readlink /proc/self/cwd
	assert_output "$(pwd -P)"
	run -0 "$LR" --ro / --rw /dev/null -- sh -c 'pwd; echo x > /dev/null'
	assert_output "$PWD"
}

@test "the command is looked up in PATH after confinement" {
	mkdir denied
	printf '#!/bin/sh\necho from-denied-dir\n' >denied/echo
	chmod 0755 denied/echo
	# Unconfined, the first PATH entry wins.
	run -0 env PATH="$PWD/denied:/usr/bin" "$LR" -- echo hello
	assert_output from-denied-dir
	# Confined, executing there is denied, so the search goes on to /usr/bin.
	run -0 env PATH="$PWD/denied:/usr/bin" "$LR" --ro /usr -- echo hello
	assert_output hello
	# When every match is denied: 126, not 127.
	run -126 --separate-stderr env PATH="$PWD/denied" "$LR" --ro /usr -- echo hello
	assert_one_launcher_line
}

@test "no stderr output of the launcher when everything works" {
	mkdir d
	run --separate-stderr "$LR" --ro / --rw "$PWD/d" --rw /dev/null --ro-try /nonexistent \
		--rw-try "$PWD/nonexistent" -- sh -c 'echo out; echo x > d/f; echo y > /dev/null'
	assert_success
	assert_output out
	assert_equal "$stderr" ""
	run --separate-stderr "$LR" -- true
	assert_success
	assert_equal "$stderr$output" ""
	# What the command writes to stderr is all that appears there.
	run --separate-stderr "$LR" --ro / -- sh -c 'echo only-this >&2'
	assert_equal "$stderr" only-this
}

@test "the launcher is replaced by the command: no launcher process remains" {
	"$LR" --ro / -- sleep 30 3>&- &
	local pid=$! i
	for i in $(seq 100); do
		[ "$(readlink /proc/$pid/exe)" = "$(readlink -f /usr/bin/sleep)" ] && break
		sleep 0.05
	done
	assert_equal "$(readlink /proc/$pid/exe)" "$(readlink -f /usr/bin/sleep)"
	kill "$pid"
	wait "$pid" || true
}
