#!/usr/bin/env bats
# --explain and --explain-json: every kind of filesystem denial produced for
# real and explained, the same on stderr and in the JSON file; the advice
# tried (the suggested option makes the same command work, and then nothing
# is reported); what is not the sandbox's doing is not reported. Network and
# scope denials: tests/explain-net.bats; the tracer itself (processes,
# threads, signals, exit status): tests/explain-run.bats.
load helpers
load explain

setup() {
	require_landlock
	explain_setup
}

@test "a clean run prints nothing, writes an empty JSON file, and keeps the command's status and output" {
	explain --ro / --rw "$d/ok" -- sh -c 'echo out; echo x > ok/f; exit 42'
	assert_equal "$status" 42
	assert_equal "$output" out
	assert_equal "$stderr" ""
	assert_file_empty "$J"
	assert_equal "$(cat ok/f)" x
}

@test "write to an existing file: write_file on the file itself" {
	echo orig >no/f
	denied_then_allowed 2 "write_file $d/no/f (openat by sh): allow with --rw $d/no/f" \
		-- sh -c "echo new >> $d/no/f"
	assert_equal "$(cat no/f)" $'orig\nnew'
}

@test "overwrite (O_TRUNC) an existing file: write_file (truncate is asked only once the open may write)" {
	require_abi "$(right_abi truncate)"
	echo orig >no/f
	denied_then_allowed 2 "write_file $d/no/f (openat by sh): allow with --rw $d/no/f" \
		-- sh -c "echo new > $d/no/f"
	assert_equal "$(cat no/f)" new
}

@test "create a file in a directory: make_reg on the directory" {
	denied_then_allowed 1 "make_reg $d/no/new (openat by touch): allow with --rw $d/no" \
		-- touch "$d/no/new"
	assert_file_exist no/new
}

@test "make a directory, a FIFO and a symlink: make_dir, make_fifo, make_sym" {
	denied_then_allowed 1 "make_dir $d/no/sub (mkdir by mkdir): allow with --rw $d/no" \
		-- mkdir "$d/no/sub"
	denied_then_allowed 1 "make_fifo $d/no/fifo (mknodat by mkfifo): allow with --rw $d/no" \
		-- mkfifo "$d/no/fifo"
	denied_then_allowed 1 "make_sym $d/no/link (symlinkat by ln): allow with --rw $d/no" \
		-- ln -s target "$d/no/link"
	assert [ -d no/sub ] && assert [ -p no/fifo ] && assert [ -L no/link ]
}

@test "remove a file and a directory: remove_file, remove_dir" {
	touch no/f
	mkdir no/sub
	denied_then_allowed 1 "remove_file $d/no/f (unlinkat by rm): allow with --rw $d/no" \
		-- rm "$d/no/f"
	denied_then_allowed 1 "remove_dir $d/no/sub (rmdir by rmdir): allow with --rw $d/no" \
		-- rmdir "$d/no/sub"
	assert_not_exist no/f
	assert_not_exist no/sub
}

@test "rename into a directory outside the grants: make_reg and refer there, with --rw on both sides" {
	mkdir ok/a
	touch ok/a/x
	denied_then_allowed 1 "make_reg,refer $d/no/x (rename by tryop): allow with --rw $d/no" \
		--rw "$d/ok" -- "$TRYOP" rename "$d/ok/a/x" "$d/no/x"
	assert_file_exist no/x
}

@test "a move that would give the file rights it lacked: every right its directory lacks, as the kernel logs it" {
	require_abi 5
	local lacks=write_file,remove_dir,remove_file,make_char,make_dir,make_reg,make_sock
	lacks+=,make_fifo,make_block,make_sym,refer,truncate,ioctl_dev
	touch no/x no/y
	# Out of a read-only directory into a writable one: EACCES (remove_file is missing).
	denied_then_allowed 1 "$lacks $d/no/x (rename by tryop): allow with --rw $d/no" \
		--abi 5 --ro / --rw "$d/ok" -- "$TRYOP" rename "$d/no/x" "$d/ok/x"
	assert_file_exist ok/x
	# A link asks only refer of its source: EXDEV, the same blockers, and
	# no advice (the next test).
	explain --abi 5 --ro / --rw "$d/ok" -- ln "$d/no/y" "$d/ok/y"
	assert_equal "$status" 1
	assert_regex "$stderr" 'Invalid cross-device link'
	assert_denied "$lacks $d/no/y (linkat by ln): not advised: $LINK_WHY"
	# Control: the other way the file loses rights, and only what is asked is missing.
	touch ok/z
	explain --abi 5 --ro / --rw "$d/ok" -- "$TRYOP" rename "$d/ok/z" "$d/no/z"
	assert_equal "$output" EACCES
	assert_denied "make_reg,refer $d/no/z (rename by tryop): allow with --rw $d/no"
}

# The advice of a hard link out of a tree the policy gives less than the
# link's destination (tests/never.bats has the same for --learn).
LINK_WHY="a hard link would give the file rights it lacks here (write_file,truncate,ioctl_dev), \
and only write access to this tree allows it: copy instead (cp without -l, or the tool's \
no-hardlink option)"

@test "a hard link out of a read-only tree: never --rw on the source, a copy is said to work (and does)" {
	require_abi 5
	local lacks=write_file,remove_dir,remove_file,make_char,make_dir,make_reg,make_sock
	lacks+=,make_fifo,make_block,make_sym,refer,truncate,ioctl_dev
	mkdir -p no/tree/sub
	touch no/f no/tree/a no/tree/sub/b
	explain --abi 5 --ro / --rw "$d/ok" -- ln "$d/no/f" "$d/ok/f"
	assert_equal "$status" 1
	assert_denied "$lacks $d/no/f (linkat by ln): not advised: $LINK_WHY"
	[ "$(json_field why)" = "$LINK_WHY" ] || fail "$(cat "$J")"
	run ! grep -q '"allow"' "$J"
	# cp -al: every file it links, not advised; --rw on the source nowhere
	# (-a sets extended attributes: the metadata group of calls it needs).
	explain --abi 5 --ro / --rw "$d/ok" --allow-syscalls metadata -- cp -al "$d/no/tree" "$d/ok/tree"
	assert_equal "$status" 1
	# (in the order cp reads the directories)
	assert_equal "$(sort <<<"$denied")" "$(printf '%s\n' \
		"$lacks $d/no/tree/a (linkat by cp): not advised: $LINK_WHY" \
		"$lacks $d/no/tree/sub/b (linkat by cp): not advised: $LINK_WHY")"
	assert_equal "$json" "$denied"
	run ! grep -e "--rw $d/no" <<<"$stderr"
	# The copy the advice names works under the same policy, and nothing is reported.
	explain --abi 5 --ro / --rw "$d/ok" --allow-syscalls metadata -- cp -a "$d/no/tree" "$d/no/f" "$d/ok/"
	assert_equal "$status" 0
	assert_equal "$stderr" ""
	assert_file_exist ok/tree/sub/b
	assert_file_exist ok/f
	# Control: the advice the old report gave does make the link work, by
	# giving the command write access to the source (which is why it is not given).
	explain --abi 5 --ro / --rw "$d/ok" --rw "$d/no" -- ln "$d/no/f" "$d/ok/f2"
	assert_equal "$status" 0
	assert_equal "$stderr" ""
	# Control: a link into a directory outside the grants is still advised,
	# --rw where the name is made (refer and make_reg there), and that works.
	touch ok/g
	denied_then_allowed 1 "make_reg,refer $d/no/g (linkat by ln): allow with --rw $d/no" \
		--abi 5 --ro / --rw "$d/ok" -- ln "$d/ok/g" "$d/no/g"
	# Control: a move out of the read-only tree really changes it: --rw on
	# the source stays the advice (the test above follows it).
	explain --abi 5 --ro / --rw "$d/ok" -- "$TRYOP" rename "$d/no/f" "$d/ok/moved"
	assert_denied "$lacks $d/no/f (rename by tryop): allow with --rw $d/no"
}

@test "--explain-json: every record of a move and link battery is written from its own data, allow as its line says" {
	# Before, a network denial's second option (--no-tcp's "--tcp-bind none")
	# was left in the advice and written into every later record's allow:
	# ["--rw","/dir","--tcp-bind","none"], a policy the text never gave.
	mkdir ok/a ok/dir no/dir
	touch ok/a/f1 ok/a/f2 ok/a/f3 no/g1 no/g2 no/g3
	explain --ro / --rw /dev/null --rw "$d/ok" --no-tcp -- "$PYTHON" -c '
import ctypes, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
def t(f, *a):
    try: f(*a)
    except OSError: pass
def exchange(a, b):  # renameat2(RENAME_EXCHANGE)
    libc.renameat2(-100, a.encode(), -100, b.encode(), 2)
for i in (1, 2, 3):
    s = socket.socket(); t(s.connect, ("127.0.0.1", 9)); s.close()
    t(os.link, "ok/a/f%d" % i, "no/l%d" % i)         # into a denied directory
    t(os.rename, "ok/a/f%d" % i, "no/m%d" % i)
    t(os.link, "no/g%d" % i, "ok/a/l%d" % i)         # out of one
    t(os.rename, "no/g%d" % i, "ok/a/m%d" % i)
    t(os.rename, "no/g%d" % i, "no/n%d" % i)         # within one
    t(os.rename, "ok/dir", "no/dir%d" % i)           # a directory
    exchange("ok/a/f%d" % i, "no/g%d" % i)
    s = socket.socket(socket.AF_INET6); t(s.connect, ("::1", 10 + i)); s.close()
'
	assert_equal "$status" 0
	[ "$(grep -c '"syscall":"\(link\|rename\|renameat2\)"' "$J")" -ge 15 ] || fail "too few moves: $(cat "$J")"
	grep -q '"kind":"net"' "$J" || fail "no network denial: $(cat "$J")"
	# Every line, text and JSON, the same denial and the same advice.
	assert_equal "$json" "$denied"
	# And each filesystem record's allow is one option and its path; but a
	# link out of the denied directory's, which is not advised.
	"$PYTHON" -c '
import json, sys
for n, line in enumerate(open(sys.argv[1]), 1):
    d = json.loads(line)
    if d["kind"] == "fs" and "why" in d:
        assert d["syscall"] == "link" and d["why"].startswith("a hard link "), (n, d)
    elif d["kind"] == "fs":
        assert len(d["allow"]) == 2 and d["allow"][0] == "--rw", (n, d)' "$J"
}

@test "rename across directories where reparenting is refused (ABI 1): refer, EXDEV" {
	mkdir ok/a ok/b
	touch ok/a/x
	explain --abi 1 --rw "$d/ok" -- "$TRYOP" rename "$d/ok/a/x" "$d/ok/b/x"
	assert_equal "$output" EXDEV
	assert_equal "$denied" "$(printf '%s\n' \
		"refer $d/ok/a/x (rename by tryop): Landlock ABI 1 cannot allow it (refer needs ABI 2)" \
		"refer $d/ok/b/x (rename by tryop): Landlock ABI 1 cannot allow it (refer needs ABI 2)")"
	assert_equal "$json" "$(printf '%s\n' "refer $d/ok/a/x (rename by tryop): no option allows it" \
		"refer $d/ok/b/x (rename by tryop): no option allows it")"
	grep -q '"errno":"EXDEV"' "$J" || fail "no EXDEV in $(cat "$J")"
	# Control: from ABI 2 the same grant allows the move, and nothing is reported.
	explain --abi 2 --rw "$d/ok" -- "$TRYOP" rename "$d/ok/a/x" "$d/ok/b/x"
	assert_equal "$output" ok
	assert_equal "$stderr" ""
}

@test "a rename across mount points is EXDEV from the kernel, not the sandbox: not reported" {
	mkdir ok/mnt
	mount -t tmpfs lr-explain "$d/ok/mnt" || skip "cannot mount a tmpfs here"
	touch ok/x
	explain --rw "$d/ok" -- "$TRYOP" rename "$d/ok/x" "$d/ok/mnt/x"
	umount "$d/ok/mnt"
	assert_equal "$output" EXDEV
	assert_equal "$stderr" ""
	assert_file_empty "$J"
}

@test "truncate(2) a file outside the grants: truncate" {
	require_abi "$(right_abi truncate)"
	echo data >no/f
	denied_then_allowed 1 "truncate $d/no/f (truncate by tryop): allow with --rw $d/no/f" \
		-- "$TRYOP" truncate "$d/no/f"
	assert_file_empty no/f
}

@test "read a file and list a directory outside --ro: read_file, read_dir" {
	echo secret >no/f
	denied_then_allowed 1 "read_file $d/no/f (openat by cat): allow with --ro $d/no/f" \
		--ro /usr --ro /etc -- cat "$d/no/f"
	assert_equal "$output" secret
	denied_then_allowed 2 "read_dir $d/no (openat by ls): allow with --ro $d/no" \
		--ro /usr --ro /etc --ro /proc -- ls "$d/no"
	assert_equal "$output" f
}

@test "execute a binary outside --ro: execute and read_file on it, exit 126" {
	cp /usr/bin/true no/mytrue
	denied_then_allowed 126 "execute,read_file $d/no/mytrue (execve by landlock-run): allow with --ro $d/no/mytrue" \
		--ro /usr -- "$d/no/mytrue"
}

@test "a binary whose dynamic linker is outside --ro: the linker is named, exit 126" {
	local interp
	interp=$(readelf -lW /usr/bin/true | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	[ -n "$interp" ] || fail "/usr/bin/true names no interpreter"
	interp=$(readlink -f "$interp")
	denied_then_allowed 126 "execute,read_file $interp (execve by landlock-run): allow with --ro $interp" \
		--ro /usr/bin -- /usr/bin/true
}

@test "a script whose #! interpreter is outside --ro: the interpreter is named" {
	cp /usr/bin/true no/interp
	printf '#!%s\n' "$d/no/interp" >ok/script
	chmod 0755 ok/script
	denied_then_allowed 126 "execute,read_file $d/no/interp (execve by landlock-run): allow with --ro $d/no/interp" \
		--ro /usr --ro "$d/ok" -- "$d/ok/script"
}

@test "a script the command may not read: its #! line is never read nor its interpreter named" {
	cp /usr/bin/true no/interp-secret-name
	printf '#!%s\n' "$d/no/interp-secret-name" >ok/secret
	chmod 0755 ok/secret
	cp ok/secret no/script
	# Hidden: reported as the hidden path, unread.
	explain --ro /usr --ro "$d/ok" --hide "$d/ok/secret" -- "$d/ok/secret"
	assert_equal "$status" 126
	assert_denied "execute,read_file $d/ok/secret (execve by landlock-run): hidden by --hide $d/ok/secret"
	# Outside every grant: the script alone, whose line the kernel never read.
	explain --ro /usr --ro "$d/ok" -- "$d/no/script"
	assert_equal "$status" 126
	assert_denied "execute,read_file $d/no/script (execve by landlock-run): allow with --ro $d/no/script"
	# A #! line the kernel refuses to read (ENOEXEC) in a file outside the grants,
	# longer than its buffer: not read either (under make sanitize, the reader's
	# overflow was an ASan report).
	{ printf '#!'; head -c 300 /dev/zero | tr '\0' a; } >no/long
	chmod 0755 no/long
	explain --ro /usr -- "$d/no/long"
	assert_equal "$status" 126
	assert_denied "execute,read_file $d/no/long (execve by landlock-run): allow with --ro $d/no/long"
	# Control: a script the command may read names the interpreter its line names.
	explain --ro /usr --ro "$d/ok" -- "$d/ok/secret"
	assert_equal "$status" 126
	assert_denied "execute,read_file $d/no/interp-secret-name (execve by landlock-run): allow with --ro $d/no/interp-secret-name"
}

@test "a path relative to a directory descriptor, and to a changed working directory" {
	explain --rw "$d/ok" -- "$PYTHON" -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
for f in (lambda: os.open("viafd", os.O_WRONLY | os.O_CREAT, dir_fd=fd),
          lambda: (os.chdir(sys.argv[1]), os.mkdir("viacwd"))):
    try: f()
    except PermissionError: pass
' "$d/no"
	assert_denied "make_reg $d/no/viafd (openat by python3): allow with --rw $d/no" \
		"make_dir $d/no/viacwd (mkdir by python3): allow with --rw $d/no"
}

@test "a path with a newline and invalid UTF-8: escaped on stderr, exact in the JSON" {
	local name=$'new\nline\xff\x01 "q" \\'
	explain --rw "$d/ok" -- "$PYTHON" -c '
import sys
try: open(sys.argv[1].encode("utf-8", "surrogateescape"), "w")
except PermissionError: pass
' "$d/no/$name"
	assert_equal "$stderr" "landlock-run denied: make_reg $d/no/new\\nline\\xff\\x01 \"q\" \\\\ (openat by python3[$(json_field pid)]): allow with --rw $d/no"
	assert_equal "$json" "make_reg $d/no/$name (openat by python3): allow with --rw $d/no"
	grep -qF '\udcff\u0001 \"q\" \\"' "$J" || fail "JSON escapes: $(cat "$J")"
}

@test "C1 controls, line separators and bidi controls in a path and a process name: escaped on stderr, \\u in the JSON" {
	# Each of them raw on stderr would let the command forge a line, or a
	# terminal's control sequence, or reorder what the person reads.
	local chars=(0085 009b 2028 2029 202a 202b 202c 202d 202e 2066 2067 2068 2069 200e 200f 061c 001b 007f)
	explain --rw "$d/ok" -- "$PYTHON" -c '
import ctypes, sys
for h in sys.argv[2:]:
    c = chr(int(h, 16))
    ctypes.CDLL(None).prctl(15, ("p" + c).encode(), 0, 0, 0)  # PR_SET_NAME: the comm
    try: open(sys.argv[1] + "/a" + c + "b", "w")
    except PermissionError: pass
' "$d/no" "${chars[@]}"
	local h esc comm i=0
	re() { sed 's/[][\\.*^$+?(){}|]/\\&/g' <<<"$1"; }
	for h in "${chars[@]}"; do
		# bash's $'...' form of the character's UTF-8 bytes, as the line writes them
		esc=$(printf "\\u$h" | od -An -tx1 | tr -d ' \n' | sed 's/../\\x&/g')
		# (/proc's Name: line writes ESC as \e itself: the comm is checked
		# for the characters it keeps as they are)
		comm=p$esc
		[[ $h != 00[0-7]? ]] || comm=
		grep -qE "^landlock-run denied: make_reg $(re "$d/no/a${esc}b") \(openat by $(re "$comm").*\[[0-9]+\]\): allow with --rw $(re "$d/no")$" <<<"$stderr" ||
			fail "U+$h not escaped on stderr: $(grep -F "/a" <<<"$stderr" | sed -n "$((i + 1))p" | od -c | head -3)"
		grep -qF "\"path\":\"$d/no/a\\u${h}b\"" "$J" || fail "U+$h not \\u$h in the JSON: $(cat "$J")"
		[ -z "$comm" ] || grep -qF "\"comm\":\"p\\u${h}\"" "$J" || fail "U+$h in the comm not \\u$h in the JSON"
		i=$((i + 1))
	done
	# Not one of them raw anywhere on stderr or in the JSON (LC_ALL=C: bytes).
	if LC_ALL=C grep -aP '[\x01-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae\x8e\x8f]|\xe2\x81[\xa6-\xa9]|\xd8\x9c' \
		"$BATS_TEST_TMPDIR/stderr" "$J"; then
		fail "a raw control character is left"
	fi
	# The control: the JSON's paths are the exact names the command asked for.
	assert_equal "$(grep -c '"kind":"fs"' "$J")" "${#chars[@]}"
	"$PYTHON" -c '
import json, sys
want = {sys.argv[2] + "/a" + chr(int(h, 16)) + "b" for h in sys.argv[3:]}
got = {json.loads(l)["path"] for l in open(sys.argv[1])}
assert got == want, (got ^ want)' "$J" "$d/no" "${chars[@]}"
}

@test "the same denial twice is reported once; a different one again" {
	explain -- sh -c "touch $d/no/a; touch $d/no/a; touch $d/no/b"
	assert_denied "make_reg $d/no/a (openat by touch): allow with --rw $d/no" \
		"make_reg $d/no/b (openat by touch): allow with --rw $d/no"
}

# proc_denied WANT...: $denied (and the JSON as denials.py says it) is WANT,
# each line a pattern where PID stands for a process's number (issue 26.5).
proc_denied() {
	local want got
	want=$(printf '%s\n' "$@")
	for got in "$denied" "$json"; do
		[[ $(sed -E 's#/proc/[0-9]+/task/[0-9]+#/proc/N/task/N#g; s#/proc/[0-9]+#/proc/N#g' <<<"$got") == "$want" ]] ||
			fail "$(printf 'want:\n%s\ngot:\n%s' "$want" "$got")"
	done
}

@test "denials beneath /proc/PID of many processes: one line per kind, the pattern, how many, the first path" {
	local G=(--ro /usr --ro /bin --ro /lib --ro /lib64 --ro /etc --rw /dev/null)
	# twelve processes, each reading its own status twice (counted once)
	# and its thread's stat: two lines, where there were 24 (ps, a test
	# suite's short-lived processes)
	explain "${G[@]}" -- sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		cat /proc/self/status /proc/self/status; cat /proc/thread-self/stat; done 2>/dev/null; true'
	proc_denied "read_file /proc/PID/status of 12 processes, e.g. /proc/N/status (openat by cat): allow with --ro /proc" \
		"read_file /proc/PID/task/TID/stat of 12 threads, e.g. /proc/N/task/N/stat (openat by cat): allow with --ro /proc"
	"$PYTHON" -c '
import json, re, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    assert d["count"] == 12 and re.sub(r"/proc/\d+(/task/)?\d*", lambda m: "/proc/PID" +
        ("/task/TID" if m[1] else ""), d["path"]) == d["pattern"], d' "$J"
	# what is written is the report, whole: the first path is one that was refused
	[[ $(head -1 "$J") == *'"path":"/proc/'*'/status","pattern":"/proc/PID/status","count":12,'* ]] || fail "$(cat "$J")"
}

@test "control of the fold: another program, right or advice, a path not beneath /proc/PID, one process alone: each its own line" {
	local G=(--ro /usr --ro /bin --ro /lib --ro /lib64 --ro /etc --rw /dev/null)
	touch no/f1 no/f2 no/f3
	explain "${G[@]}" -- sh -c 'for i in 1 2 3; do cat /proc/self/status; cat /proc/stat
		echo x >/proc/self/comm; cat '"$d/no/f\$i"'; done 2>/dev/null; head -c1 /proc/self/status; true'
	proc_denied "read_file /proc/stat (openat by cat): allow with --ro /proc/stat" \
		"read_file $d/no/f1 (openat by cat): allow with --ro $d/no/f1" \
		"read_file $d/no/f2 (openat by cat): allow with --ro $d/no/f2" \
		"read_file $d/no/f3 (openat by cat): allow with --ro $d/no/f3" \
		"read_file /proc/PID/status of 3 processes, e.g. /proc/N/status (openat by cat): allow with --ro /proc" \
		"write_file /proc/N/comm (openat by sh): not advised: /proc/PID is one process's (the next run's are others) and a write there changes how the kernel treats it" \
		"read_file /proc/N/status (openat by head): allow with --ro /proc"
}

@test "the fold is bounded: past 256 kinds, a kind beneath /proc/PID is reported per process, as any other denial" {
	local G=(--ro /usr --ro /bin --ro /lib --ro /lib64 --ro /etc --rw /dev/null) i
	# 257 programs (the process name is part of the kind), each run twice
	for i in $(seq 257); do ln -s "$(command -v cat)" "ok/c$i"; done
	explain "${G[@]}" --ro "$d/ok" -- sh -c 'for i in $(seq 257); do
		./ok/c$i /proc/self/status; ./ok/c$i /proc/self/status; done 2>/dev/null; true'
	[ "$(grep -c '^read_file /proc/PID/status of 2 processes, e.g. .* (openat by c[0-9]*): allow with --ro /proc$' <<<"$denied")" = 256 ] ||
		fail "$denied"
	[ "$(grep -Ec '^read_file /proc/[0-9]+/status \(openat by c257\): allow with --ro /proc$' <<<"$denied")" = 2 ] ||
		fail "$(grep c257 <<<"$denied")"
	assert_equal "$(wc -l <<<"$denied")" 258
	assert_equal "$json" "$denied"
}

@test "a grant given as a symlink, or through a bind mount of its inode, allows as the kernel does" {
	ln -s "$d/no" link
	explain --rw "$d/link" -- touch "$d/no/new"
	assert_success
	assert_equal "$stderr" ""
	# Without the grant the same command is denied: the grant is what allowed it.
	explain -- touch "$d/no/new2"
	assert_denied "make_reg $d/no/new2 (openat by touch): allow with --rw $d/no"
	# The same inode seen at another path (a bind mount): the rule is on the inode.
	mkdir bind
	mount --bind "$d/no" "$d/bind" || skip "cannot bind-mount here"
	explain --rw "$d/bind" -- touch "$d/no/new3"
	local st=$status err=$stderr
	umount "$d/bind"
	assert_equal "$st" 0
	assert_equal "$err" ""
}

@test "as an unprivileged user: mode bits refusing it are not the sandbox's, and not reported" {
	local pub as
	nobody_pub granted open closed
	echo s >"$pub/granted/secret"
	echo s >"$pub/closed/secret"
	chmod 0600 "$pub/granted/secret" "$pub/closed/secret"
	chmod 0777 "$pub/granted" "$pub/open"
	chmod 0755 "$pub/closed"
	# Mode bits refuse each of these, granted or not: ordinary permission errors.
	explain --ro / --rw "$pub/granted" -- sh -c "
		cat $pub/granted/secret; echo x > $pub/granted/secret; cat $pub/closed/secret
		echo x > $pub/closed/secret; cat /etc/shadow; true"
	[[ $stderr == *"Permission denied"* ]] || fail "nothing was refused: $stderr"
	assert_equal "$denied" ""
	assert_file_empty "$J"
	# Control: what only the sandbox refuses is reported, for the same user.
	explain --ro / --rw "$pub/granted" -- touch "$pub/open/new"
	assert_denied "make_reg $pub/open/new (openat by touch): allow with --rw $pub/open"
	rm -rf "$pub"
}

@test "as an unprivileged user: making, removing and renaming in a directory the mode bits close is Landlock's denial first, saying the bits refuse it too" {
	local pub as
	nobody_pub closed unsearchable open
	echo s >"$pub/closed/file"
	chmod 0755 "$pub/closed"
	chmod 0700 "$pub/unsearchable"
	chmod 0777 "$pub/open"
	# The kernel asks Landlock at security_path_mkdir, _mknod, _unlink,
	# _rename before may_create and may_delete read the directory's bits, and
	# logs these as Landlock's (tests/audit's mode-bits-after workload).
	explain --ro / -- sh -c "mkdir $pub/closed/d; touch $pub/closed/new
		rm -f $pub/closed/file; mv $pub/closed/file $pub/closed/moved; true"
	[[ $stderr == *"Permission denied"* ]] || fail "nothing was refused: $stderr"
	assert_denied \
		"make_dir $pub/closed/d (mkdir by mkdir): the mode bits refuse it too; allow with --rw $pub/closed" \
		"make_reg $pub/closed/new (openat by touch): the mode bits refuse it too; allow with --rw $pub/closed" \
		"remove_file $pub/closed/file (unlinkat by rm): the mode bits refuse it too; allow with --rw $pub/closed" \
		"make_reg $pub/closed/moved (renameat2 by mv): the mode bits refuse it too; allow with --rw $pub/closed"
	assert_equal "$(json_field also_refused_by)" mode_bits
	# Control: granted, the mode bits alone refuse it: nothing is reported.
	explain --ro / --rw "$pub/closed" -- mkdir "$pub/closed/d"
	assert_equal "$status" 1
	assert_equal "$denied" ""
	assert_file_empty "$J"
	# Control: a directory nobody may search fails in the lookup, before Landlock.
	explain --ro / -- mkdir "$pub/unsearchable/d"
	assert_equal "$status" 1
	assert_equal "$denied" ""
	assert_file_empty "$J"
	# Control: where only the sandbox refuses, no word of the mode bits.
	explain --ro / -- mkdir "$pub/open/d"
	assert_denied "make_dir $pub/open/d (mkdir by mkdir): allow with --rw $pub/open"
	rm -rf "$pub"
}

@test "as an unprivileged user of 600 groups: a denial is reported, and a group's bits beyond the part of the list held are not taken for a refusal" {
	# 600 groups: /proc/PID/status's Groups line is 4.2 KiB, CapEff after
	# it; the tracer holds the list's first 1 KiB, some 140 groups.
	local pub as
	nobody_pub member closed
	as=(setpriv --reuid=65534 --regid=65534 --groups="$(seq -s, 100000 100599)")
	chgrp 100590 "$pub/member"
	chmod 0770 "$pub/member"
	chmod 0700 "$pub/closed"
	explain --ro / -- touch "$pub/member/new"
	assert_equal "$status" 1
	assert_denied "make_reg $pub/member/new (openat by touch): allow with --rw $pub/member"
	# Control: the group's bits are what let the user in, as the advice says.
	explain --ro / --rw "$pub/member" -- touch "$pub/member/new"
	assert_equal "$status" 0
	assert_file_exist "$pub/member/new"
	# Control: what neither the group's bits nor the others' allow is the
	# mode bits' refusal, whatever group the user may be in: not reported.
	explain --ro / -- touch "$pub/closed/new"
	assert_equal "$status" 1
	assert_equal "$denied" ""
	assert_file_empty "$J"
	rm -rf "$pub"
}

@test "as an unprivileged user of 200 or 600 groups: what the others' bits, a group's beyond the part held or an ACL entry for it would allow is the sandbox's denial" {
	local pub as
	nobody_pub member others acl
	chgrp 100190 "$pub/member"
	chgrp 200000 "$pub/others"
	chmod 0770 "$pub/member"
	chmod 0707 "$pub/others"
	chmod 0700 "$pub/acl"
	setfacl -m g:100590:rwx "$pub/acl"
	# 200 groups: a Groups line of 1.6 KiB, longer than the part held, not
	# than a line read; the 191st group's bits let the user in.
	as=(setpriv --reuid=65534 --regid=65534 --groups="$(seq -s, 100000 100199)")
	explain --ro / -- touch "$pub/member/new"
	assert_denied "make_reg $pub/member/new (openat by touch): allow with --rw $pub/member"
	# 600 groups: the others' bits let in whoever is not of the group, and
	# an ACL entry of the 591st group lets it in.
	as=(setpriv --reuid=65534 --regid=65534 --groups="$(seq -s, 100000 100599)")
	explain --ro / -- touch "$pub/others/new"
	assert_denied "make_reg $pub/others/new (openat by touch): allow with --rw $pub/others"
	explain --ro / -- touch "$pub/acl/new"
	assert_denied "make_reg $pub/acl/new (openat by touch): allow with --rw $pub/acl"
	# Control: each grant lets the user in, as the advice says.
	explain --ro / --rw "$pub/others" --rw "$pub/acl" -- touch "$pub/others/new" "$pub/acl/new"
	assert_equal "$status" 0
	rm -rf "$pub"
}

@test "as an unprivileged user: an ACL whose mask the mode's group bits clear is not read, as the kernel does not" {
	local pub as
	nobody_pub d
	# the entry for nobody is masked off; the others' bits let nobody in
	setfacl -m u:nobody:rwx "$pub/d"
	chmod 0707 "$pub/d"
	run -0 "${as[@]}" touch "$pub/d/unconfined"
	explain --ro / -- touch "$pub/d/new"
	assert_equal "$status" 1
	assert_denied "make_reg $pub/d/new (openat by touch): allow with --rw $pub/d"
	rm -rf "$pub"
}

@test "as an unprivileged user: /proc/PID/fd and cwd of the caller's other process are never resolved nor named" {
	local pub as bg G
	nobody_pub private
	echo k >"$pub/private/api-token-7f3a9"
	chmod 0755 "$pub/private"
	chmod 0644 "$pub/private/api-token-7f3a9"
	# The caller's other process, outside the run, holds the file open and
	# works in its directory; the confined command cannot look into it (its
	# ptrace check refuses /proc/PID/fd and cwd), so the report may not either.
	"${as[@]}" sh -c 'cd "$1/private" && exec sleep 30 3<api-token-7f3a9' sh "$pub" &
	bg=$!
	for _ in $(seq 100); do [ -e "/proc/$bg/fd/3" ] && break; sleep 0.05; done
	G=(--ro /usr --ro /bin --ro /lib --ro /lib64 --ro /etc --rw /dev/null)
	explain "${G[@]}" -- sh -c "cat /proc/$bg/fd/3; cat /proc/$bg/cwd/api-token-7f3a9; true"
	[[ $stderr == *"Permission denied"* ]] || fail "nothing was refused: $stderr"
	[[ $denied != *api-token* ]] || fail "the other process's file was named: $denied"
	! grep -q api-token "$J" || fail "the other process's file was named: $(cat "$J")"
	# Control: the traced tree's own cwd through /proc is resolved and named.
	explain "${G[@]}" -- sh -c "cd $pub/private && cat /proc/\$\$/cwd/api-token-7f3a9; true"
	assert_denied "read_file $pub/private/api-token-7f3a9 (openat by cat): allow with --ro $pub/private/api-token-7f3a9"
	kill "$bg"
	rm -rf "$pub"
}

@test "/dev/tty opened without a controlling terminal (bash -c at start): the driver refuses it anyway, not reported" {
	# Control: unconfined the open fails with ENXIO, not EACCES: nothing to grant.
	run -1 setsid -w "$HELPERS/tty" ctty </dev/null
	assert_output ENXIO
	setsid -w "$LR" --explain --ro / -- bash -c 'exit 4' </dev/null >"$BATS_TEST_TMPDIR/out" 2>&1 || status=$?
	assert_equal "$status" 4
	assert_equal "$(cat "$BATS_TEST_TMPDIR/out")" ""
	# Beside it, in the same run, a denial of another device is still reported.
	setsid -w "$LR" --explain --ro / -- bash -c 'echo > /dev/null; exit 4' </dev/null >"$BATS_TEST_TMPDIR/out" 2>&1 || true
	run cat "$BATS_TEST_TMPDIR/out"
	assert_line --partial "landlock-run denied: write_file /dev/null (openat by bash["
	refute_output --partial /dev/tty
	# Control: with a controlling terminal the same open is the sandbox's, and reported.
	run "$HELPERS/tty" run "$LR" --explain --ro / -- bash -c 'exit 4'
	assert_equal "$status" 4
	assert_output --partial "landlock-run denied: write_file /dev/tty (openat by bash["
}

@test "a launcher run by the command, with a controlling terminal behind none of 0-2: its read-only probe of /dev/tty is no denial under --ro /" {
	# make sanitize: LeakSanitizer does not work under ptrace (the inner launcher
	# is traced), and the inner launcher's sanitizer log must be writable.
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	local away='exec </dev/null >"$1" 2>&1; exec "$0" --explain --ro / '"${LR_SANITIZE_LOG:+--rw $LR_SANITIZE_LOG}"' -- '
	run -0 "$HELPERS/tty" run sh -c "$away"'"$0" --ro / -- true' "$LR" "$d/out"
	assert_equal "$(cat "$d/out")" ""
	# Control: the command's own open of /dev/tty to write is the sandbox's, and reported.
	run "$HELPERS/tty" run sh -c "$away"'sh -c "exec 3>/dev/tty"' "$LR" "$d/out"
	run cat "$d/out"
	assert_output --partial "landlock-run denied: write_file /dev/tty (openat by sh["
}

@test "a name that forges the fields after it (comm 'x) S 1 1 1 0 ') does not pass for a process without a terminal: its /dev/tty denial is reported" {
	local name='import ctypes; ctypes.CDLL(None).prctl(15, b"x) S 1 1 1 0 ", 0, 0, 0)'
	# Control: counted from the first ')', its tty_nr reads 0; from the last, the pty's
	run "$HELPERS/tty" run "$PYTHON" -c "$name"'
s = open("/proc/self/stat").read()
print(s[s.index(")") + 2:].split()[4], s[s.rindex(")") + 2:].split()[4] != "0")'
	assert_line "output: 0 True\\n"
	run "$HELPERS/tty" run "$LR" --explain --ro / -- "$PYTHON" -c "$name"'
import os; os.open("/dev/tty", os.O_WRONLY)'
	assert_output --partial "landlock-run denied: write_file /dev/tty (openat by x) S 1 1 1 0 ["
}

# What only a capability the launcher dropped refuses (issue 26, part 5):
# Landlock has no right for a file's owner, mode or times, nor for making a
# device once make_char is granted, so no grant opens them.
CAP_WHY="not advised: a capability the launcher drops, which no grant gives back; --keep-caps would keep it and every other capability the caller holds (root stays root)"

# caps_tree: ok/ with root's files to chown, nobody's to chmod and touch
caps_tree() {
	rm -rf ok && mkdir ok && touch ok/mine ok/grp ok/target ok/fd ok/fdtheirs ok/theirs ok/times ok/now &&
		ln -s target ok/lnk && chown 65534:65534 ok/fdtheirs ok/theirs ok/times ok/now
}

@test "root: a change of owner or group, of someone else's mode or times, a device: one line each naming the dropped capability, no grant advised" {
	[ "$(id -u)" -eq 0 ] || skip "needs root: the launcher drops root's capabilities"
	local script="chown 65534 ok/mine; chown :65534 ok/grp; chown -h 65534 ok/lnk
		$PYTHON -c 'import os
for call in (lambda: os.fchown(os.open(\"ok/fd\", os.O_RDONLY), -1, 65534),
             lambda: os.fchmod(os.open(\"ok/fdtheirs\", os.O_RDONLY), 0o600)):
    try: call()
    except OSError as e: print(e.strerror)'
		chmod 600 ok/theirs; touch -h -d 2001-01-01 ok/times; mknod ok/dev c 1 3; true"
	# Control: without the launcher, root does every one of them.
	caps_tree
	run -0 sh -c "set -e; ${script%; true}"
	assert_equal "$(stat -c %u:%g ok/mine ok/grp ok/fd)" $'65534:0\n0:65534\n0:65534'
	assert_equal "$(stat -c %u%a ok/lnk ok/theirs ok/fdtheirs)" $'65534777\n65534600\n65534600'
	assert_equal "$(stat -c %Y ok/times)" "$(date -d 2001-01-01 +%s)"
	assert [ -c ok/dev ]
	caps_tree
	explain --ro / --rw "$d/ok" -- sh -c "$script"
	assert_equal "$(grep -c 'Operation not permitted' <<<"$stderr"$'\n'"$output")" 8
	assert_denied \
		"cap_chown $d/ok/mine (fchownat by chown): $CAP_WHY" \
		"cap_chown $d/ok/grp (fchownat by chown): $CAP_WHY" \
		"cap_chown $d/ok/lnk (fchownat by chown): $CAP_WHY" \
		"cap_chown $d/ok/fd (fchown by python3): $CAP_WHY" \
		"cap_fowner $d/ok/fdtheirs (fchmod by python3): $CAP_WHY" \
		"cap_fowner $d/ok/theirs (fchmodat by chmod): $CAP_WHY" \
		"cap_fowner $d/ok/times (utimensat by touch): $CAP_WHY" \
		"cap_mknod $d/ok/dev (mknodat by mknod): $CAP_WHY"
	assert_equal "$(json_field kind) $(json_field errno) $(json_field right)" "capability EPERM cap_chown"
	run -0 "$PYTHON" -c 'import json, sys; print(sorted({k for l in open(sys.argv[1]) for k in json.loads(l)}))' "$J"
	assert_output "['comm', 'errno', 'kind', 'path', 'pid', 'right', 'rights', 'syscall', 'why']"
	assert_equal "$(stat -c %u:%g ok/mine ok/grp)" $'0:0\n0:0'
	# Control: --keep-caps keeps them, the same run succeeds and nothing is reported.
	caps_tree
	explain --keep-caps --ro / --rw "$d/ok" -- sh -c "set -e; ${script%; true}"
	assert_equal "$status" 0
	assert_equal "$stderr" ""
	assert_file_empty "$J"
}

@test "root, x86_64's own calls: chown, lchown, chmod, utimes, utime, futimesat by number, and fchownat with AT_EMPTY_PATH" {
	[ "$(id -u)" -eq 0 ] || skip "needs root: the launcher drops root's capabilities"
	[ "$(uname -m)" = x86_64 ] || skip "the legacy calls are x86_64's (aarch64 has only the *at forms)"
	caps_tree
	touch ok/t1 ok/t2 && chown 65534 ok/t1 ok/t2
	# shellcheck disable=SC2016
	explain --ro / --rw "$d/ok" -- "$PYTHON" -c 'import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
two = (ctypes.c_long * 4)(1, 0, 2, 0)
calls = [(92, b"ok/mine", 65534, -1), (94, b"ok/lnk", 65534, -1), (90, b"ok/theirs", 0o600),
         (235, b"ok/times", two), (132, b"ok/t1", two), (261, -100, b"ok/t2", two),
         (260, os.open("ok/fd", os.O_RDONLY), b"", 65534, -1, 0x1000)]
for call in calls:
    print(call[0], libc.syscall(*call), ctypes.get_errno())'
	assert_output $'92 -1 1\n94 -1 1\n90 -1 1\n235 -1 1\n132 -1 1\n261 -1 1\n260 -1 1'
	assert_denied \
		"cap_chown $d/ok/mine (chown by python3): $CAP_WHY" \
		"cap_chown $d/ok/lnk (lchown by python3): $CAP_WHY" \
		"cap_fowner $d/ok/theirs (chmod by python3): $CAP_WHY" \
		"cap_fowner $d/ok/times (utimes by python3): $CAP_WHY" \
		"cap_fowner $d/ok/t1 (utime by python3): $CAP_WHY" \
		"cap_fowner $d/ok/t2 (futimesat by python3): $CAP_WHY" \
		"cap_chown $d/ok/fd (fchownat by python3): $CAP_WHY"
}

@test "root: what the caller's own ids allow, what no capability allows, and the mode bits' refusals are no dropped capability's" {
	[ "$(id -u)" -eq 0 ] || skip "needs root: the launcher drops root's capabilities"
	command -v chattr >/dev/null || skip "no chattr"
	caps_tree
	chattr +i ok/grp || skip "this filesystem has no immutable flag"
	# The owner keeps itself and its group; an immutable file refuses even
	# full root (EPERM); a touch without times asks to write nobody's 0644
	# file (EACCES: the mode bits); a whiteout (0:0) needs no CAP_MKNOD.
	explain --ro / --rw "$d/ok" -- sh -c 'chown 0:0 ok/mine; chown -1:-1 ok/mine
		chown 65534 ok/grp; touch ok/now; mknod ok/wh c 0 0; true'
	chattr -i ok/grp
	assert_equal "$(grep -c 'Operation not permitted' <<<"$stderr")" 1
	assert_equal "$(grep -c 'Permission denied' <<<"$stderr")" 1
	assert [ -c ok/wh ]
	assert_equal "$denied" ""
	assert_file_empty "$J"
	# Control: the same calls where the drop refuses them are reported.
	explain --ro / --rw "$d/ok" -- sh -c 'chown 65534 ok/mine; touch -d 2001-01-01 ok/now'
	assert_denied "cap_chown $d/ok/mine (fchownat by chown): $CAP_WHY" \
		"cap_fowner $d/ok/now (utimensat by touch): $CAP_WHY"
}

@test "as an unprivileged user: a chown or chmod refused is an ordinary permission error, refused alike without the launcher, and not reported" {
	local pub as
	nobody_pub w
	touch "$pub/w/mine" "$pub/w/roots"
	chown 65534:65534 "$pub/w" "$pub/w/mine"
	# Control: without the launcher nobody is refused the same, with EPERM.
	local script="chown 0 $pub/w/mine; chmod 600 $pub/w/roots
		$PYTHON -c 'import os; os.utime(\"$pub/w/roots\", (1, 2))'; true"
	run -0 "${as[@]}" sh -c "$script"
	assert_equal "$(grep -c 'Operation not permitted' <<<"$output")" 3
	explain --ro / --rw "$pub/w" -- sh -c "$script"
	assert_equal "$(grep -c 'Operation not permitted' <<<"$stderr")" 3
	assert_equal "$denied" ""
	assert_file_empty "$J"
	rm -rf "$pub"
}
