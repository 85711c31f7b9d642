#!/usr/bin/env bats
# --learn FILE: run a command without the sandbox, write the policy it
# needs, and run it again confined from that @FILE with no denial: a real
# make build in a temporary tree, and what the folding rules promise.
load helpers
load explain

setup() {
	require_landlock
	explain_setup
	policy_dir
}

# learn ARG...: --learn $P/policy ARG...; $grants: the policy's option lines.
learn() {
	run --separate-stderr "$LR" --learn "$P/policy" "$@"
	grants=$(grep -v '^#' "$P/policy" 2>/dev/null || true)
}

# A small C project: a header, a source, a library and a Makefile that
# writes an object directory.
make_project() {
	mkdir -p "$d/proj" "$d/tmp"
	printf '#define GREETING "hello from make"\n' >"$d/proj/greeting.h"
	printf '#include <stdio.h>\n#include "greeting.h"\nint main(void) { puts(GREETING); return 0; }\n' \
		>"$d/proj/hello.c"
	printf 'hello: obj/hello.o\n\tcc -o $@ obj/hello.o\nobj/hello.o: hello.c greeting.h\n\tmkdir -p obj\n\tcc -c -o $@ hello.c\nclean:\n\trm -rf obj hello\n' \
		>"$d/proj/Makefile"
}

@test "--learn on a real make build, then the confined rerun from its @FILE: no denial" {
	make_project
	cd "$d/proj"
	TMPDIR=$d/tmp learn -- make
	assert_success
	assert_file_executable hello
	# The writes: the project (where obj/ was made) and the compiler's TMPDIR.
	assert_equal "$(grep '^--rw=' <<<"$grants")" "$(printf '%s\n' "--rw=$d/proj" "--rw=$d/tmp")"
	grep -qx -- "--ro=/usr" <<<"$grants" || fail "no --ro=/usr in: $grants"
	make -s clean
	# The rerun, confined and explained, from a clean tree.
	J=$d/rerun.json
	TMPDIR=$d/tmp explain "@$P/policy" -- make
	assert_equal "$status" 0
	[[ $stderr != *"landlock-run denied"* ]] || fail "denied: $stderr"
	assert_file_empty "$J"
	assert_equal "$("$d/proj/hello")" "hello from make"
	# Control: the policy confines. A write outside it is denied, and explained.
	explain "@$P/policy" -- touch "$d/outside"
	assert_denied "make_reg $d/outside (openat by touch): allow with --rw $d"
}

@test "--learn runs without the sandbox: the command may write anywhere, and keeps its status" {
	learn -- sh -c "echo x > $d/no/f; exit 3"
	assert_equal "$status" 3
	assert_equal "$(cat no/f)" x
	grep -qx -- "--rw=$d/no" <<<"$grants" || fail "no --rw=$d/no in: $grants"
}

@test "reads fold into directories, the system trees whole, /proc/PID into /proc; devices stay files" {
	mkdir -p no/a/b
	echo 1 >no/a/one
	echo 2 >no/a/b/two
	learn -- sh -c "cat $d/no/a/one $d/no/a/b/two /proc/self/status >/dev/null; ls $d/no >/dev/null"
	assert_success
	grep -qx -- "--ro=$d/no" <<<"$grants" || fail "listing no/ grants no/: $grants"
	# no/a and no/a/b are beneath no/: covered, so left out
	if grep -q -- "--ro=$d/no/" <<<"$grants"; then fail "covered paths written: $grants"; fi
	grep -qx -- "--ro=/proc" <<<"$grants" || fail "no --ro=/proc in: $grants"
	grep -qx -- "--ro=/usr" <<<"$grants" || fail "no --ro=/usr in: $grants"
	grep -qx -- "--rw=/dev/null" <<<"$grants" || fail "no --rw=/dev/null in: $grants"
	if grep -q -- "--r[ow]=/dev\$" <<<"$grants"; then fail "/dev granted whole: $grants"; fi
}

@test "writes are granted at the narrowest existing path; a temporary directory at its parent; never --rw=/" {
	echo x >ok/kept
	learn -- sh -c "echo y >> $d/ok/kept; mkdir $d/no/t; echo z > $d/no/t/f; rm -r $d/no/t"
	assert_success
	grep -qx -- "--rw=$d/ok/kept" <<<"$grants" || fail "the written file: $grants"
	grep -qx -- "--rw=$d/no" <<<"$grants" || fail "where no/t was made: $grants"
	if grep -q -- "--rw=$d/no/t" <<<"$grants"; then fail "a path that is gone: $grants"; fi
	# As root, a file made and removed in / itself: not granted, and said so.
	[ "$(id -u)" -eq 0 ] || skip "needs root to write in / itself"
	local f=/lr-learn-test-$$
	learn -- sh -c "touch $f; rm $f"
	assert_success
	if grep -qx -- "--rw=/" <<<"$grants"; then fail "--rw=/ written: $grants"; fi
	grep -q '^# not granted: --rw=/: a grant on / is one on every file' "$P/policy" || fail "$(cat "$P/policy")"
	assert_not_exist "$f"
}

@test "a hard link out of a tree the run wrote nothing else in: --ro and a comment there, never --rw" {
	mkdir -p src dst w
	touch src/f
	learn -- ln "$d/src/f" "$d/dst/f"
	assert_success
	grep -qx -- "--rw=$d/dst" <<<"$grants" || fail "where the link was made: $grants"
	run ! grep -x -- "--rw=$d/src" <<<"$grants"
	grep -qx -- "--ro=$d/src" <<<"$grants" || fail "$grants"
	grep -qx -- "# not granted: --rw=$d/src: only hard links out of it asked for it, and a link may not give a file rights it lacks where it is: granted --ro; copy instead (cp without -l, or the tool's no-hardlink option)" \
		"$P/policy" || fail "$(cat "$P/policy")"
	# Confined by it, the link is refused and not advised; the copy the comment names works.
	rm dst/f
	J=$d/rerun.json
	explain "@$P/policy" -- ln "$d/src/f" "$d/dst/f"
	assert_equal "$status" 1
	[[ $denied == *"$d/src/f (linkat by ln): not advised: a hard link would give the file rights"* ]] || fail "$denied"
	explain "@$P/policy" -- cp "$d/src/f" "$d/dst/f"
	assert_equal "$status" 0
	assert_file_exist dst/f
	run ! grep -q "$d" <<<"$denied" # (cp reads /proc, which ln did not)
	# Control: a link out of a directory the run also writes keeps working,
	# with no comment (the run made a/ and b/ in w/: --rw=w covers both).
	rm "$P/policy"
	learn -- sh -c "mkdir $d/w/a $d/w/b && touch $d/w/a/x && ln $d/w/a/x $d/w/b/x"
	assert_success
	grep -qx -- "--rw=$d/w" <<<"$grants" || fail "$grants"
	run ! grep -q "hard link" "$P/policy"
	rm -r w/a w/b
	explain "@$P/policy" -- sh -c "mkdir $d/w/a $d/w/b && touch $d/w/a/x && ln $d/w/a/x $d/w/b/x"
	assert_equal "$status" 0
	assert_file_empty "$J"
}

@test "a move is learned though its source name is gone once it returns: --rw on both directories, and the rerun moves" {
	mkdir -p src dst
	touch src/g
	mkdir src/sub
	learn -- sh -c "mv $d/src/g $d/dst/g && mv $d/src/sub $d/dst/sub"
	assert_success
	grep -qx -- "--rw=$d/src" <<<"$grants" || fail "where the names were removed: $grants"
	grep -qx -- "--rw=$d/dst" <<<"$grants" || fail "where they were made: $grants"
	run ! grep -q "hard link" "$P/policy"
	# The rerun, confined and explained, from where the learning run started.
	mv dst/g dst/sub src/
	J=$d/rerun.json
	explain "@$P/policy" -- sh -c "mv $d/src/g $d/dst/g && mv $d/src/sub $d/dst/sub"
	assert_equal "$status" 0
	assert_file_exist dst/g
	assert_file_empty "$J"
}

@test "a path with a newline is granted at the nearest directory a line can hold" {
	mkdir -p "no/bad"$'\n'"name"
	learn -- touch "$d/no/bad"$'\n'"name/f"
	assert_success
	grep -qx -- "--rw=$d/no" <<<"$grants" || fail "$grants"
	# Every grant line is one argument the rerun takes.
	explain "@$P/policy" -- touch "$d/no/bad"$'\n'"name/g"
	assert_success
}

@test "TCP ports bound and connected to are granted, and only those (ABI 4)" {
	require_abi "$(right_abi tcp_connect)"
	local bind connect
	bind=$("$TRYOP" freeport)
	start_server "$d/server" 1 listen 1
	connect=$(cat "$d/server")
	learn -- sh -c "$TRYOP bind $bind; $TRYOP connect $connect"
	assert_output $'ok\nok'
	grep -qx -- "--tcp-bind=$bind" <<<"$grants" || fail "$grants"
	grep -qx -- "--tcp-connect=$connect" <<<"$grants" || fail "$grants"
	explain "@$P/policy" -- sh -c "$TRYOP bind $bind; $TRYOP connect $connect"
	assert_equal "$output" $'ok\nok'
	assert_equal "$stderr" ""
	# Control: any other port is denied.
	explain "@$P/policy" -- "$TRYOP" connect 1
	assert_equal "$output" EACCES
	stop_servers
}

@test "scopes: a run that signals nothing outside gets --scope signal; one that does, does not (ABI 6)" {
	require_abi "$(right_abi signal)"
	learn -- sh -c 'sleep 1 & kill $!'
	grep -qx -- "--scope=signal,abstract-unix" <<<"$grants" || fail "$grants"
	sleep 60 3>&- &
	local target=$!
	learn -- "$TRYOP" kill "$target" 0
	kill "$target"
	grep -qx -- "--scope=abstract-unix" <<<"$grants" || fail "$grants"
}

@test "--learn FILE outside the policy directories: said before the command runs and once written, with where to move it" {
	# Before: the line is on stderr before COMMAND's first output.
	run -0 --separate-stderr "$LR" --learn "$d/out.policy" -- sh -c 'echo started >&2; touch "$1"' _ "$d/ok/f"
	local note="landlock-run --learn: $d/out.policy"
	[[ ${stderr_lines[0]} == "$note will be written outside the policy directories, and @$d/out.policy refuses it there: move it to $P/ (or /etc/landlock-run/) to use it" ]] ||
		fail "$stderr"
	assert_equal "${stderr_lines[1]}" started
	[[ ${stderr_lines[2]} == "$note was written outside the policy directories"*"move it to $P/"* ]] || fail "$stderr"
	# Written all the same, and refused by @FILE where it is, as said.
	assert_file_exist "$d/out.policy"
	run -125 --separate-stderr "$LR" "@$d/out.policy" -- true
	[[ $stderr == *"is not in a policy directory"* ]] || fail "$stderr"
	# Moved there, it runs; and learned there, nothing is said.
	mv "$d/out.policy" "$P/moved.policy"
	run -0 "$LR" "@$P/moved.policy" -- touch "$d/ok/f"
	run -0 --separate-stderr "$LR" --learn "$P/policy" -- touch "$d/ok/f"
	assert_equal "$stderr" ""
	# In /tmp, the tree a learned policy most often grants, it is said too.
	local tmp
	tmp=$(mktemp -d /tmp/landlock-run-learn.XXXXXX)
	run -0 --separate-stderr "$LR" --learn "$tmp/p" -- true
	rm -r "$tmp"
	[[ $stderr == *"--learn: $tmp/p will be written outside the policy directories"* ]] || fail "$stderr"
	# A pipe handed over is the caller's to keep: nothing is said.
	run -0 --separate-stderr bash -c '"$1" --learn /dev/fd/3 -- true 3> >(cat >/dev/null)' _ "$LR"
	assert_equal "$stderr" ""
}

@test "--learn FILE outside the policy directories, a run that fails before COMMAND: its one line, no note of a file it will not write; a COMMAND not found: the note once written" {
	# The tracer's seal (--nth 1, or 2: they race), the child's filters
	# (2-4), every install: the note waits for COMMAND's exec, so none of
	# these says it (fd0f56b's launcher said it before the failure line).
	local which
	for which in "--nth 1" "--nth 2" "--nth 3" "--nth 4" ""; do
		# shellcheck disable=SC2086 # which: the fault's words
		run -125 --separate-stderr "$FAULT" seccomp EINVAL --arg0 1 --arg1 0 $which -- \
			"$LR" --learn "$d/out.policy" -- touch "$d/ok/f"
		assert_one_launcher_line
		[[ $stderr != *"will be written"* ]] || fail "$which: $stderr"
		assert_not_exist "$d/out.policy"
	done
	# Control: the fifth install fails nothing, and the note comes.
	run -0 --separate-stderr "$FAULT" seccomp EINVAL --arg0 1 --arg1 0 --nth 5 -- \
		"$LR" --learn "$d/out.policy" -- touch "$d/ok/f"
	[[ ${stderr_lines[0]} == *"--learn: $d/out.policy will be written outside"* ]] || fail "$stderr"
	# A COMMAND that cannot be executed: what the run used is written, and
	# said once, after the launcher's line.
	rm "$d/out.policy"
	run -127 --separate-stderr "$LR" --learn "$d/out.policy" -- "$d/no/such-command"
	assert_file_exist "$d/out.policy"
	assert_equal "${#stderr_lines[@]}" 2
	[[ ${stderr_lines[0]} == "landlock-run: "*"command not found" ]] || fail "$stderr"
	[[ ${stderr_lines[1]} == *"--learn: $d/out.policy was written outside"* ]] || fail "$stderr"
}

@test "--learn takes no policy, no --explain and no --probe; a FILE it cannot write is 125 before anything runs" {
	local opt
	for opt in "--ro /" "--rw $d" "--tcp-connect 80" "--scope signal" "--strict" "--explain"; do
		# shellcheck disable=SC2086 # the option and its argument
		run -125 --separate-stderr "$LR" --learn "$P/policy" $opt -- touch "$d/ran"
		assert_one_launcher_line
		[[ $stderr == *"${opt%% *}"* ]] || fail "the line does not name ${opt%% *}: $stderr"
	done
	run -125 --separate-stderr "$LR" --learn "$d/missing/policy" -- touch "$d/ran"
	assert_one_launcher_line
	[[ $stderr == *"--learn $d/missing/policy"* ]] || fail "$stderr"
	run -125 --separate-stderr "$LR" --probe --learn "$P/policy"
	assert_one_launcher_line
	assert_not_exist "$d/ran"
}

@test "\$HOME: its files are granted as files, never \$HOME itself; a tool's tree whole, so a cache clean keeps the policy" {
	local home=$d/home
	mkdir -p "$home/.npm/_cacache" "$home/.ssh" "$home/.config/git" "$home/proj"
	echo user >"$home/.gitconfig"
	echo host >"$home/.ssh/config"
	echo key >"$home/.ssh/id_ed25519"
	echo git >"$home/.config/git/config"
	local work='cat ~/.gitconfig ~/.ssh/config ~/.config/git/config >/dev/null; ls ~ >/dev/null
		mkdir -p ~/.npm/_cacache/index/6e/8f; echo entry > ~/.npm/_cacache/index/6e/8f/x
		t=$(mktemp -d) && { echo y > "$t/f"; rm -r "$t"; }'
	HOME=$home TMPDIR=$d/tmp learn -- sh -c "$work"
	mkdir -p "$d/tmp"
	HOME=$home TMPDIR=$d/tmp learn -- sh -c "$work"
	assert_success
	grep -qx -- "--ro=$home/.gitconfig" <<<"$grants" || fail "$grants"
	grep -qx -- "--ro=$home/.ssh/config" <<<"$grants" || fail "$grants"
	grep -qx -- "--ro=$home/.config/git/config" <<<"$grants" || fail "$grants"
	grep -qx -- "--rw=$home/.npm" <<<"$grants" || fail "$grants"
	# The mktemp directory folds into the TMPDIR that was there before.
	grep -qx -- "--rw=$d/tmp" <<<"$grants" || fail "$grants"
	# Never $HOME or / for reading: the listing is left out, and said so.
	run ! grep -Ex -- "--r[ow]=($home|/)" <<<"$grants"
	grep -qx "# not granted: --ro=$home: \$HOME, and each directory above it, holds every file of the user" "$P/policy" ||
		fail "$(cat "$P/policy")"
	run ! grep -q "$home/.ssh/id_ed25519\|--ro=$home/.ssh\$" <<<"$grants"
	# After the cache is cleaned, the policy still runs the same work, with no denial.
	rm -rf "$home/.npm/_cacache"
	mkdir "$home/.npm/_cacache"
	J=$d/rerun.json
	HOME=$home TMPDIR=$d/tmp explain "@$P/policy" -- sh -c "${work//; ls ~ >\/dev\/null/}"
	assert_equal "$status" 0
	assert_file_empty "$J"
}

@test "a device the driver refuses (/dev/tty without a terminal: ENXIO) is still learned" {
	# Control: unconfined the open fails with ENXIO, not EACCES.
	run setsid -w sh -c 'exec 3</dev/tty' </dev/null
	assert_failure
	setsid -w "$LR" --learn "$P/policy" -- sh -c 'exec 3</dev/tty' </dev/null || true
	grep -qx -- "--ro=/dev/tty" "$P/policy" || fail "$(cat "$P/policy")"
}

@test "per-boot names fold into a stable parent: /sys/fs/cgroup, /proc/PID" {
	# This process's own cgroup directory (v2, or v1's memory controller), a
	# name that differs from one machine and boot to the next.
	local cg line
	while IFS=: read -r _ controller path; do
		line=/sys/fs/cgroup${controller:+/$controller}$path
		[ -n "$controller" ] && [ "$controller" != memory ] && continue
		[ -r "$line/cgroup.procs" ] && [ "$path" != / ] && cg=$line
	done </proc/self/cgroup
	[ -n "$cg" ] || skip "this process's cgroup is the root one"
	learn -- sh -c "cat $cg/cgroup.procs /proc/\$\$/status >/dev/null"
	assert_success
	grep -qx -- "--ro=/sys/fs/cgroup" <<<"$grants" || fail "$grants"
	grep -qx -- "--ro=/proc" <<<"$grants" || fail "$grants"
}

@test "a run that made a thread grants what glibc's malloc reads only when threads contend (the CPUs online)" {
	local threads='import threading; t = threading.Thread(target=print, args=("t",)); t.start(); t.join()'
	learn -- "$PYTHON" -c "$threads"
	assert_success
	grep -qx -- "--ro=/sys/devices/system/cpu" <<<"$grants" || fail "$grants"
	grep -q '^# granted unseen: /sys/devices/system/cpu/online and /proc/sys/vm/overcommit_memory' "$P/policy"
	# What reads it on every run (glibc's get_nprocs) runs from that policy.
	run -0 "$LR" "@$P/policy" -- getconf _NPROCESSORS_ONLN
	# Control: a run without a thread grants nothing of it, and the read is refused.
	rm "$P/policy" # a new policy, not merged into the last
	learn -- "$PYTHON" -c 'print("t")'
	assert_success
	! grep -q -- "/sys/devices/system/cpu\|granted unseen" "$P/policy" || fail "$(cat "$P/policy")"
	run "$LR" --explain "@$P/policy" -- getconf _NPROCESSORS_ONLN
	assert_output --partial "landlock-run denied: read_file /sys/devices/system/cpu/online"
}

# Issue 26.5: a learned grant never names a path the run itself made.
@test "a directory the run made, of a stable name (out/), is granted where it was made, and said so, with the narrower -try; one that was there keeps its grant" {
	mkdir proj
	echo 'int x;' >proj/src.c
	cd proj
	local work='cat src.c >/dev/null; mkdir -p out/a/b; echo x > out/a/b/f; cat out/a/b/f >/dev/null'
	learn -- sh -c "$work"
	assert_success
	grep -qx -- "--rw=$d/proj" <<<"$grants" || fail "$grants"
	run ! grep -E -- "^--r[ow](-try)?=$d/proj/out" <<<"$grants"
	local note="# made by the run: --rw=$d/proj: for $d/proj/out; once it is there, --rw-try=$d/proj/out is narrower"
	grep -qxF -- "$note" "$P/policy" || fail "$(cat "$P/policy")"
	# A second --learn, out/ there now, keeps the grant and its comment.
	learn -- sh -c "$work"
	assert_equal "$(grep -- "^--rw=$d/proj" <<<"$grants")" "--rw=$d/proj"
	grep -qxF -- "$note" "$P/policy" || fail "$(cat "$P/policy")"
	# From a clean state the work runs confined, with no denial.
	rm -r out
	J=$d/rerun.json
	explain "@$P/policy" -- sh -c "$work"
	assert_equal "$status" 0
	assert_file_empty "$J"
	# The narrower grant the comment names runs it once out/ is there.
	explain --ro / --rw /dev/null --rw-try "$d/proj/out" -- sh -c "$work"
	assert_equal "$status" 0
	assert_file_empty "$J"
	# Control: out/a/b there before the run: the grant is the file written.
	rm "$P/policy"
	learn -- sh -c 'echo y > out/a/b/f'
	grep -qx -- "--rw=$d/proj/out/a/b/f" <<<"$grants" || fail "$grants"
	run ! grep -q -- '-try=\|made by the run' "$P/policy"
	# Control: where the run also wrote in the tree itself, its grant covers
	# the directory made, and no comment is written.
	rm -r out "$P/policy"
	learn -- sh -c "$work; echo y > log"
	grep -qx -- "--rw=$d/proj" <<<"$grants" || fail "$grants"
	run ! grep -q -- '-try=\|made by the run' "$P/policy"
}

@test "a directory the run made with a name of its own (mktemp's, a digest, a pid) is granted where it was made, and said so; the comment on a stable name names its -try" {
	mkdir vt st
	local n names=(build.x1Y2z3 tmpk2j3_x9a go-build1234567890 pip-build-8a9s7d6f) stable=(CMakeFiles python3.11 x86_64-linux-gnu)
	learn -- sh -c "for t in ${names[*]}; do mkdir $d/vt/\$t && echo x > $d/vt/\$t/f; done
		for t in ${stable[*]}; do mkdir $d/st/\$t && echo x > $d/st/\$t/f; done"
	assert_success
	grep -qx -- "--rw=$d/vt" <<<"$grants" || fail "$grants"
	run ! grep -- "^--r[ow].*=$d/vt/" <<<"$grants"
	for n in "${names[@]}"; do
		grep -qxF -- "# made by the run: --rw=$d/vt: for $d/vt/$n, a name of its own" "$P/policy" ||
			fail "$(cat "$P/policy")"
	done
	grep -qx -- "--rw=$d/st" <<<"$grants" || fail "$grants"
	for n in "${stable[@]}"; do
		grep -qxF -- "# made by the run: --rw=$d/st: for $d/st/$n; once it is there, --rw-try=$d/st/$n is narrower" "$P/policy" ||
			fail "$(cat "$P/policy")"
	done
	run ! grep -- "^--r[ow].*=$d/st/" <<<"$grants"
	# The next run's own name runs confined, with no denial.
	J=$d/rerun.json
	explain "@$P/policy" -- sh -c "t=\$(mktemp -d $d/vt/build.XXXXXX) && echo x > \$t/f"
	assert_equal "$status" 0
	assert_file_empty "$J"
}

@test "\$HOME, never granted: a directory the run made there (~/.cargo) is --rw-try, and the policy starts from a clean state; a random name there is not granted" {
	local home=$d/home
	mkdir -p "$home"
	HOME=$home learn -- sh -c 'mkdir -p ~/.cargo/registry ~/notes; echo x > ~/.cargo/registry/f; echo n > ~/notes/f
		cat ~/.cargo/registry/f ~/notes/f >/dev/null; mkdir ~/tmp.x1Y2z3; echo t > ~/tmp.x1Y2z3/f'
	assert_success
	grep -qx -- "--rw-try=$home/.cargo" <<<"$grants" || fail "$grants"
	grep -qx -- "--rw-try=$home/notes" <<<"$grants" || fail "$grants"
	run ! grep -E -- "^--r[ow]=($home|$home/\\.cargo|$home/notes|$home/tmp.*)\$" <<<"$grants"
	grep -qxF -- "# made by the run: --rw-try=$home/.cargo: mkdir -p it before a run from a clean state ($home is never granted: \$HOME, and each directory above it, holds every file of the user)" "$P/policy" ||
		fail "$(cat "$P/policy")"
	grep -qxF -- "# not granted: --rw=$home: \$HOME, and each directory above it, holds every file of the user (the run made $home/tmp.x1Y2z3 in it: a name of its own)" "$P/policy" ||
		fail "$(cat "$P/policy")"
	# From a clean state the policy still starts.
	rm -r "$home/.cargo" "$home/notes" "$home/tmp.x1Y2z3"
	HOME=$home run -0 "$LR" "@$P/policy" -- true
	# Control: a tool's tree that was there before the run keeps its grant.
	mkdir "$home/.npm"
	rm "$P/policy"
	HOME=$home learn -- sh -c 'mkdir -p ~/.npm/_cacache/x; echo y > ~/.npm/_cacache/x/f'
	grep -qx -- "--rw=$home/.npm" <<<"$grants" || fail "$grants"
	run ! grep -q -- '-try=\|made by the run' "$P/policy"
}
