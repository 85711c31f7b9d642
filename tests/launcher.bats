#!/usr/bin/env bats
# Confinement on the real kernel: what the command may write, read and run,
# with on-disk evidence, and controls showing the same action works when
# granted (so no test here can pass because the action was impossible anyway).
load helpers

PY=/usr/bin/python3

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR"
	d=$BATS_TEST_TMPDIR/d
	mkdir "$d"
}

# denied_then_granted OP UNCHANGED DONE [OPTION...]: the shell snippet OP
# (run in $d) fails with no options and with --ro / alone, and the shell test
# UNCHANGED still holds after each; under --ro / --rw $d it succeeds and DONE
# holds. OPTIONs go on every launcher command line.
denied_then_granted() {
	local op=$1 unchanged=$2 done=$3 policy
	shift 3
	for policy in "" "--ro /"; do
		# shellcheck disable=SC2086 # the policy is split on purpose
		run --separate-stderr "$LR" "$@" $policy -- sh -c "cd '$d' && $op"
		[ "$status" -ne 0 ] || fail "'$op' under [$policy] succeeded"
		[ -z "$(grep '^landlock-run: ' <<<"$stderr")" ] ||
			fail "the launcher itself failed under [$policy]: $stderr"
		(cd "$d" && eval "$unchanged") || fail "'$op' under [$policy] changed the disk"
	done
	run --separate-stderr "$LR" "$@" --ro / --rw "$d" -- sh -c "cd '$d' && $op"
	assert_success
	(cd "$d" && eval "$done") || fail "'$op' under --rw did not take effect"
}

@test "no options: a write is denied and leaves no file (and the same command unsandboxed creates it)" {
	run -2 --separate-stderr "$LR" -- sh -c 'echo x > f'
	assert_equal "$output" ""
	[[ $stderr == *"Permission denied"* ]] || fail "no EACCES from sh: $stderr"
	assert_not_exist f
	sh -c 'echo x > f'
	assert_file_contains f '^x$'
}

@test "--ro /: a write is denied and leaves no file (and the same command unsandboxed creates it)" {
	run -2 --separate-stderr "$LR" --ro / -- sh -c 'echo x > f'
	[[ $stderr == *"Permission denied"* ]] || fail "no EACCES from sh: $stderr"
	assert_not_exist f
	sh -c 'echo x > f'
	assert_file_contains f '^x$'
}

@test "no options: an existing file is neither appended to nor overwritten" {
	echo orig >f
	run "$LR" -- sh -c 'echo more >> f'
	assert_failure
	run "$LR" -- sh -c 'echo new > f'
	assert_failure
	assert_equal "$(cat f)" orig
}

@test "--rw DIR: a write beneath DIR lands with its content; one outside DIR is denied" {
	local content=$'granted write\nsecond line \xff'
	mkdir "$d/deep"
	for policy in "--rw $d" "--ro / --rw $d"; do
		rm -f "$d/deep/f" g
		# shellcheck disable=SC2086
		run "$LR" $policy -- sh -c 'printf "%s" "$1" > "$2"; echo y > g' _ "$content" "$d/deep/f"
		assert_failure # the write to ./g
		assert_equal "$(cat "$d/deep/f")" "$content"
		assert_not_exist g
	done
}

@test "reads and exec stay free without --ro (also with --rw elsewhere)" {
	echo secret-content >secret
	mkdir bin && cp /usr/bin/dash bin/dash
	for policy in "" "--rw $d"; do
		# shellcheck disable=SC2086
		run "$LR" $policy -- cat "$BATS_TEST_TMPDIR/secret"
		assert_success
		assert_output secret-content
		# shellcheck disable=SC2086
		run "$LR" $policy -- "$BATS_TEST_TMPDIR/bin/dash" -c 'echo ran-outside'
		assert_success
		assert_output ran-outside
		# shellcheck disable=SC2086
		run "$LR" $policy -- ls "$BATS_TEST_TMPDIR"
		assert_success
		assert_line secret
	done
}

@test "with --ro, a file outside every grant cannot be read nor its directory listed" {
	echo secret-content >secret
	run --separate-stderr "$LR" --ro /usr -- /usr/bin/cat "$BATS_TEST_TMPDIR/secret"
	assert_failure
	assert_equal "$output" ""
	[[ $stderr == *"Permission denied"* ]] || fail "cat: $stderr"
	run --separate-stderr "$LR" --ro /usr -- /usr/bin/ls "$BATS_TEST_TMPDIR"
	assert_failure
	refute_output --partial secret
	# Control: granting the directory makes both work.
	run "$LR" --ro /usr --ro "$BATS_TEST_TMPDIR" -- /usr/bin/cat "$BATS_TEST_TMPDIR/secret"
	assert_success
	assert_output secret-content
	run "$LR" --ro /usr --ro "$BATS_TEST_TMPDIR" -- /usr/bin/ls "$BATS_TEST_TMPDIR"
	assert_line secret
}

@test "with --ro, a binary outside every grant cannot run: 126 from the launcher, 126 from a shell" {
	local outside=$BATS_TEST_TMPDIR/bin/dash # its libraries are beneath /usr
	mkdir bin && cp /usr/bin/dash "$outside"
	run -126 --separate-stderr "$LR" --ro /usr -- "$outside" -c 'echo ran'
	assert_equal "$output" ""
	assert_one_launcher_line
	[[ $stderr == *"$outside"* ]] || fail "the line does not name the command: $stderr"
	run -126 --separate-stderr "$LR" --ro /usr -- /usr/bin/sh -c "'$outside' -c 'echo ran'"
	assert_equal "$output" ""
	[[ $stderr == *"Permission denied"* ]] || fail "sh: $stderr"
	[[ $stderr != *"landlock-run: "* ]] || fail "the launcher spoke: $stderr"
	# Control: with its directory granted it runs.
	run -0 "$LR" --ro /usr --ro "$BATS_TEST_TMPDIR" -- "$outside" -c 'echo ran'
	assert_output ran
}

@test "truncate(2) outside --rw is denied (the truncate right, not write_file)" {
	echo keep >"$d/f"
	denied_then_granted "$PY -c 'import os; os.truncate(\"f\", 0)'" \
		'[ "$(cat f)" = keep ]' '[ ! -s f ]'
}

@test "open with O_TRUNC outside --rw is denied" {
	echo keep >"$d/f"
	denied_then_granted ': > f' '[ "$(cat f)" = keep ]' '[ ! -s f ]'
}

@test "remove of a file outside --rw is denied" {
	echo keep >"$d/f"
	denied_then_granted 'rm f' '[ "$(cat f)" = keep ]' '[ ! -e f ]'
}

@test "rmdir outside --rw is denied" {
	mkdir "$d/sub"
	denied_then_granted 'rmdir sub' '[ -d sub ]' '[ ! -e sub ]'
}

@test "mkdir outside --rw is denied" {
	denied_then_granted 'mkdir new' '[ ! -e new ]' '[ -d new ]'
}

@test "mkfifo outside --rw is denied" {
	denied_then_granted 'mkfifo p' '[ ! -e p ]' '[ -p p ]'
}

@test "symlink creation outside --rw is denied" {
	denied_then_granted 'ln -s /etc/passwd l' '[ ! -L l ]' '[ -L l ]'
}

@test "creating a UNIX socket file (bind) outside --rw is denied" {
	denied_then_granted \
		"$PY -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"s\")'" \
		'[ ! -e s ]' '[ -S s ]'
}

# mknod of a device needs CAP_MKNOD, which the launcher drops unless
# --keep-caps: with it kept, only Landlock can deny.
@test "mknod of a character and a block device outside --rw is denied" {
	[ "$(id -u)" -eq 0 ] || skip "needs root: CAP_MKNOD makes a device where Landlock allows it"
	denied_then_granted 'mknod c c 1 3' '[ ! -e c ]' '[ -c c ]' --keep-caps
	denied_then_granted 'mknod b b 7 0' '[ ! -e b ]' '[ -b b ]' --keep-caps
	# Without --keep-caps not even the --rw grant lets root make a device.
	run "$LR" --ro / --rw "$d" -- mknod "$d/c2" c 1 3
	assert_failure
	assert_not_exist "$d/c2"
}

@test "a hard link outside --rw is denied" {
	echo keep >"$d/f"
	denied_then_granted 'ln f hl' '[ ! -e hl ]' '[ "$(cat hl)" = keep ]'
}

@test "a rename inside a directory outside --rw is denied" {
	echo keep >"$d/f"
	denied_then_granted 'mv f g' '[ -e f ] && [ ! -e g ]' '[ ! -e f ] && [ "$(cat g)" = keep ]'
}

@test "rename(2) and link(2) between two --rw directories work (refer)" {
	mkdir a b
	echo moved >a/f
	echo linked >a/h
	# rename(2) itself, not mv: mv would fall back to copy+unlink on EXDEV.
	run "$LR" --ro / --rw "$PWD/a" --rw "$PWD/b" -- $PY -c '
import os
os.rename("a/f", "b/f")
os.link("a/h", "b/h")'
	assert_success
	assert_not_exist a/f
	assert_equal "$(cat b/f)" moved
	assert_equal "$(cat b/h)" linked
	run "$LR" --rw "$PWD/a" --rw "$PWD/b" -- $PY -c 'import os; os.rename("b/f", "a/f")'
	assert_success
	assert_equal "$(cat a/f)" moved
}

@test "rename between a --rw and a --ro directory is denied in both directions" {
	mkdir a b
	echo stay >a/f
	echo stay-too >b/g
	run --separate-stderr "$LR" --ro / --rw "$PWD/a" -- $PY -c 'import os; os.rename("a/f", "b/f")'
	assert_failure
	[[ $stderr == *PermissionError* ]] || fail "$stderr"
	run --separate-stderr "$LR" --ro / --rw "$PWD/a" -- $PY -c 'import os; os.rename("b/g", "a/g")'
	assert_failure
	[[ $stderr == *PermissionError* ]] || fail "$stderr"
	assert_equal "$(cat a/f)" stay
	assert_equal "$(cat b/g)" stay-too
	assert_not_exist b/f
	assert_not_exist a/g
}

@test "a --rw file grant allows that file only" {
	echo old >"$d/f"
	echo sibling >"$d/h"
	run "$LR" --rw "$d/f" -- sh -c 'echo new > "$1/f"' _ "$d"
	assert_success
	assert_equal "$(cat "$d/f")" new
	run "$LR" --rw "$d/f" -- sh -c 'echo changed > "$1/h"' _ "$d"
	assert_failure
	run "$LR" --rw "$d/f" -- sh -c 'echo created > "$1/g"' _ "$d"
	assert_failure
	run "$LR" --rw "$d/f" -- rm -f "$d/f" # removing is a right of the directory
	assert_failure
	assert_equal "$(cat "$d/h")" sibling
	assert_not_exist "$d/g"
	assert_equal "$(cat "$d/f")" new
}

@test "a --ro file grant allows reading that file only" {
	echo granted >"$d/f"
	echo sibling >"$d/h"
	run "$LR" --ro /usr --ro "$d/f" -- /usr/bin/cat "$d/f"
	assert_success
	assert_output granted
	run --separate-stderr "$LR" --ro /usr --ro "$d/f" -- /usr/bin/cat "$d/h"
	assert_failure
	assert_equal "$output" ""
}

@test "/dev/null is writable only with its own grant (--rw /dev/null)" {
	for policy in "" "--ro /" "--rw $d"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$LR" $policy -- sh -c 'echo x > /dev/null'
		assert_failure
		[[ $stderr == *"Permission denied"* ]] || fail "[$policy]: $stderr"
	done
	run --separate-stderr "$LR" --rw /dev/null -- sh -c 'echo x > /dev/null'
	assert_success
	assert_equal "$stderr" ""
	run "$LR" --ro / --rw /dev/null -- sh -c 'echo x > /dev/null'
	assert_success
	# The file grant covers /dev/null only.
	run "$LR" --rw /dev/null -- sh -c 'echo x > /dev/zero'
	assert_failure
}

@test "device ioctls need a --rw grant on the device (ioctl_dev)" {
	local ioctl='import os, fcntl, termios
fd = os.open("/dev/null", os.O_RDONLY)
try:
    fcntl.ioctl(fd, termios.TCGETS, bytes(64)); print("ok")
except OSError as e: print(e.errno)'
	run -0 $PY -c "$ioctl"
	assert_output 25 # ENOTTY: the driver answered
	run -0 "$LR" -- $PY -c "$ioctl"
	assert_output 13 # EACCES: Landlock stopped it
	run -0 "$LR" --ro / -- $PY -c "$ioctl"
	assert_output 13
	run -0 "$LR" --ro / --rw /dev/null -- $PY -c "$ioctl"
	assert_output 25
}

@test "a child of the command cannot widen the sandbox" {
	mkdir a b
	run "$LR" --rw "$PWD/a" -- sh -c '
sh -c "echo x > b/child"
(sleep 0.1; echo x > b/late) &
wait
sh -c "echo ok > a/ok"
exit 0'
	assert_success
	assert_not_exist b/child
	assert_not_exist b/late
	assert_equal "$(cat a/ok)" ok
}

@test "a nested launcher cannot widen the sandbox" {
	# (the inner run asks for the whole work tree: --rw / would be refused for
	# reaching the policy directories)
	run --separate-stderr "$LR" --ro / -- "$LR" --rw "$PWD" -- sh -c 'echo x > x'
	assert_failure
	[[ $stderr == *"Permission denied"* ]] || fail "$stderr"
	assert_not_exist x
	run "$LR" -- "$LR" --rw "$PWD" -- sh -c 'echo x > x'
	assert_failure
	assert_not_exist x
	run "$LR" --rw "$d" -- "$LR" --rw "$PWD" -- sh -c 'echo x > x; echo y > d/y'
	assert_success
	assert_not_exist x
	assert_equal "$(cat d/y)" y
	# Control: the inner policy alone does allow it.
	run "$LR" --rw "$PWD" -- sh -c 'echo x > x'
	assert_success
	assert_equal "$(cat x)" x
}

@test "NoNewPrivs is 1 in the command" {
	run -0 grep '^NoNewPrivs:' /proc/self/status
	[[ $output == *0 ]] || fail "the test runs with no_new_privs already set ($output): it would prove nothing"
	for policy in "" "--ro /" "--rw $d"; do
		# shellcheck disable=SC2086
		run -0 "$LR" $policy -- grep '^NoNewPrivs:' /proc/self/status
		assert_output $'NoNewPrivs:\t1'
	done
}

@test "no leaked descriptors: the command sees exactly the fds the caller had, extra fds pass through" {
	local list='find /proc/self/fd -mindepth 1 -printf "%f %l\n"'
	echo extra >extra
	# Both sides: same stdin/stdout/stderr files, fd 7 open on ./extra, fd 9 on /dev/null.
	sh -c "$list" <extra >list 2>&1 7<extra 9</dev/null
	mv list outside
	"$LR" --ro / --rw "$d" --rw /dev/null --ro-try /nonexistent -- sh -c "$list" \
		<extra >list 2>&1 7<extra 9</dev/null
	mv list inside
	# find's own directory fds are the only entries whose target differs.
	assert_equal "$(sed 's,/proc/[0-9]*/fd$,FD,' inside | sort)" \
		"$(sed 's,/proc/[0-9]*/fd$,FD,' outside | sort)"
	grep -qx "7 $BATS_TEST_TMPDIR/extra" inside || fail "fd 7 did not pass through: $(cat inside)"
	grep -qx "9 /dev/null" inside || fail "fd 9 did not pass through: $(cat inside)"
	! grep -q "anon_inode:landlock" inside || fail "the ruleset fd leaked: $(cat inside)"
	! grep -qx "[0-9]* $d" inside || fail "a grant fd leaked: $(cat inside)"
}

@test "an inherited fd stays usable: the command can read fd 3 and write fd 8 though both are outside its grants" {
	echo from-fd3 >in
	run -0 "$LR" --ro /usr -- /usr/bin/sh -c 'read l <&3; echo "$l" >&8' 3<in 8>out
	assert_equal "$(cat out)" from-fd3
}
