#!/usr/bin/env bats
# What is never advised as a grant (trace/never.c; landlock-run(1), NEVER
# ADVISED): a command that chooses its denials must not choose its next
# sandbox. Each route a hostile command could steer the advice through, in
# --explain's line, the JSON record (a why, no allow) and a --learn policy
# (a comment, no grant), beside a denial of the same run whose advice is
# kept (the control: the report works, and only the table's grant is gone).
load helpers
load explain

setup() {
	require_landlock
	explain_setup
	mkdir -p homes/u
	home=$d/homes/u
}

# learn ARG...: --learn $d/policy ARG... with HOME=$home; $grants: its option lines.
learn() {
	HOME=$home run --separate-stderr "$LR" --learn "$d/policy" "$@"
	grants=$(grep -v '^#' "$d/policy" 2>/dev/null || true)
}

# never_line WHAT WHY: the denial's advice is WHY, in the text and the JSON,
# and the JSON record of it has no allow.
never_line() {
	[[ $denied == *"$1"*"): not advised: $2"* ]] || fail "$denied"
	[[ $json == *"$1"*"): not advised: $2"* ]] || fail "$json"
	"$PYTHON" -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("path") == sys.argv[2] and ("allow" in d or "why" not in d):
        sys.exit(f"advised: {d}")' "$J" "$3"
}

# The control of every route: the same run's ordinary denial keeps its advice.
control() {
	[[ $denied == *"make_reg $d/no/f (openat by sh): allow with --rw $d/no"* ]] || fail "$denied"
	[[ $json == *"make_reg $d/no/f (openat by sh): allow with --rw $d/no"* ]] || fail "$json"
}

@test "/proc/self: a write to the command's own /proc/PID file is not --rw /proc" {
	explain --ro / -- sh -c "cat /proc/self/oom_score_adj >/proc/self/oom_score_adj; true >$d/no/f"
	never_line "write_file /proc/" "/proc/PID is one process's"
	control
	run ! grep -- '--rw /proc' <<<"$stderr"
	learn -- sh -c "cat /proc/self/oom_score_adj >/proc/self/oom_score_adj; true >$d/no/f"
	grep -qx -- "--rw=$d/no" <<<"$grants" || fail "$grants"
	run ! grep -- '^--rw=/proc' <<<"$grants"
	grep -q "^# not granted: --rw=/proc: /proc/PID is one process's" "$d/policy" || fail "$(cat "$d/policy")"
}

@test "/proc/sys and /sys/fs/cgroup: a write there is never advised" {
	local cg
	cg=$(ls /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/*/cgroup.procs 2>/dev/null | head -1)
	[ -n "$cg" ] || skip "no cgroup.procs"
	# opened for writing, nothing written: harmless unconfined too (--learn)
	local work="true 3>>/proc/sys/kernel/hostname; true 4>>$cg; true >$d/no/f"
	explain --ro / -- sh -c "$work"
	never_line "write_file /proc/sys/kernel/hostname" "/proc/sys is the kernel's settings" \
		/proc/sys/kernel/hostname
	never_line "write_file $cg" "a cgroup write moves processes" "$cg"
	control
	learn -- sh -c "$work"
	grep -qx -- "--rw=$d/no" <<<"$grants" || fail "$grants"
	run ! grep -- '^--rw=/\(proc\|sys\)' <<<"$grants"
	grep -q "^# not granted: --rw=/proc/sys/kernel/hostname: /proc/sys" "$d/policy" || fail "$(cat "$d/policy")"
	grep -q "^# not granted: --rw=/sys/fs/cgroup: a cgroup write" "$d/policy" || fail "$(cat "$d/policy")"
}

@test "\$HOME's parent: a lock file made beside \$HOME is not --rw on the directory above it" {
	local work="ls $d/homes | true; true >$d/homes/lock; true >$d/no/f"
	HOME=$home explain --ro / -- sh -c "$work"
	never_line "make_reg $d/homes/lock" "\$HOME, and each directory above it" "$d/homes/lock"
	control
	# Control: without the table's \$HOME (HOME elsewhere), the same write is advised.
	HOME=$d/ok explain --ro / -- sh -c "$work"
	[[ $denied == *"make_reg $d/homes/lock (openat by sh): allow with --rw $d/homes"* ]] || fail "$denied"
	rm -f homes/lock
	learn -- sh -c "$work"
	grep -qx -- "--rw=$d/no" <<<"$grants" || fail "$grants"
	run ! grep -- "^--r[ow]=$d/homes\$" <<<"$grants"
	grep -qx "# not granted: --rw=$d/homes: \$HOME, and each directory above it, holds every file of the user" \
		"$d/policy" || fail "$(cat "$d/policy")"
	grep -q "^# not granted: --ro=$d/homes: " "$d/policy" || fail "$(cat "$d/policy")"
}

@test "a symlink, .. and a symlink made during the run are resolved before the table" {
	ln -s "$d/homes" no/up
	local work="true >$d/no/up/a; true >$home/../b; ln -s $d/homes $d/ok/t; true >$d/ok/t/c; rm $d/ok/t; true >$d/no/f"
	HOME=$home explain --ro / --rw "$d/ok" -- sh -c "$work"
	never_line "make_reg $d/homes/a" "\$HOME, and each directory above it" "$d/homes/a"
	never_line "make_reg $d/homes/b" "\$HOME, and each directory above it" "$d/homes/b"
	never_line "make_reg $d/homes/c" "\$HOME, and each directory above it" "$d/homes/c"
	run ! grep "no/up\|\.\.\|ok/t" <<<"$denied"
	control
	rm -f homes/a homes/b homes/c
	learn -- sh -c "$work"
	grep -qx -- "--rw=$d/no" <<<"$grants" || fail "$grants"
	grep -qx -- "--rw=$d/ok" <<<"$grants" || fail "$grants"
	run ! grep -- "^--rw=$d/homes\|up\|/t\$" <<<"$grants"
	grep -q "^# not granted: --rw=$d/homes: " "$d/policy" || fail "$(cat "$d/policy")"
}

@test "a grant the run left as a symlink (swapped unseen) is checked where it leads now" {
	echo x >ok/f
	# A non-dumpable process's calls are unseen: it swaps the file written
	# for a symlink to \$HOME's parent, which --rw=ok/f would then follow.
	local swap="import ctypes, os; ctypes.CDLL(None).prctl(4, 0, 0, 0, 0); os.remove('$d/ok/f'); os.symlink('$d/homes', '$d/ok/f')"
	learn -- sh -c "echo y >>$d/ok/f; true >$d/no/f; $PYTHON -c \"$swap\""
	[ -L ok/f ] || fail "not swapped"
	grep -qx -- "--rw=$d/no" <<<"$grants" || fail "$grants"
	run ! grep -- "^--rw=$d/ok/f" <<<"$grants"
	grep -q "^# not granted: --rw=$d/ok/f: \$HOME, and each directory above it" "$d/policy" ||
		fail "$(cat "$d/policy")"
	# Control: without the swap the file written is granted.
	rm -f ok/f policy
	echo x >ok/f
	learn -- sh -c "echo y >>$d/ok/f; true >$d/no/f"
	grep -qx -- "--rw=$d/ok/f" <<<"$grants" || fail "$grants"
}

@test "an earlier policy's --rw=/proc is not merged into the next" {
	learn -- sh -c "true >$d/no/f"
	echo "--rw=/proc" >>policy
	learn -- sh -c "true >$d/ok/f"
	grep -qx -- "--rw=$d/no" <<<"$grants" || fail "$grants"
	grep -qx -- "--rw=$d/ok" <<<"$grants" || fail "$grants"
	run ! grep -x -- "--rw=/proc" <<<"$grants"
	grep -q "^# not granted: --rw=/proc: a write in /proc changes" "$d/policy" || fail "$(cat "$d/policy")"
}

@test "a hidden path is reported hidden, unread; the table still holds beside it" {
	mkdir -p ok/sec
	local work="true >$d/ok/sec/k; true >$d/homes/lock; true >$d/no/f"
	HOME=$home explain --ro / --hide "$d/ok/sec" -- sh -c "$work"
	[[ $denied == *"make_reg $d/ok/sec/k (openat by sh): hidden by --hide $d/ok/sec"* ]] || fail "$denied"
	never_line "make_reg $d/homes/lock" "\$HOME, and each directory above it" "$d/homes/lock"
	control
	rm -f homes/lock
	HOME=$home run --separate-stderr "$LR" --learn "$d/policy" --hide "$d/ok/sec" -- sh -c "$work"
	grants=$(grep -v '^#' "$d/policy")
	grep -qx -- "--rw=$d/no" <<<"$grants" || fail "$grants"
	run ! grep -- "^--rw=$d/homes\|^--rw=$d/ok" <<<"$grants"
	grep -q "^# not granted: --rw=$d/homes: " "$d/policy" || fail "$(cat "$d/policy")"
}

@test "/dev as a directory and a block device are never advised; a device file is" {
	[ "$(id -u)" -eq 0 ] || skip "mknod needs root"
	mknod no/blk b 7 0
	local work="true 3<$d/no/blk; ls /dev | true; true >/dev/null; true >$d/no/f"
	explain --ro /usr --ro /etc --ro /bin --ro /lib --ro /lib64 -- sh -c "$work"
	never_line "read_file $d/no/blk" "a block device is a whole disk" "$d/no/blk"
	never_line "read_dir /dev" "/dev holds every device" /dev
	[[ $denied == *"write_file /dev/null (openat by sh): allow with --rw /dev/null"* ]] || fail "$denied"
}

@test "as root, a write in a tree init trusts (/etc) is never advised; a read there is" {
	[ "$(id -u)" -eq 0 ] || skip "the root-owned trees are closed to root's writes only"
	explain --ro /usr --ro /bin --ro /lib --ro /lib64 -- sh -c "true 3>>/etc/hostname; true 4</etc/hostname; true >$d/no/f"
	never_line "write_file /etc/hostname" "root's configuration" /nothing
	[[ $denied == *"read_file /etc/hostname (openat by sh): allow with --ro /etc/hostname"* ]] || fail "$denied"
	control
}
