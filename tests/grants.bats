#!/usr/bin/env bats
# Grants: spellings, duplicates, symlinks, relative paths, -try, paths that
# cannot be opened, and policies with thousands of grants.
load helpers

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR"
	d=$BATS_TEST_TMPDIR/d
	mkdir "$d"
}

teardown() {
	[ -z "${pub-}" ] || rm -rf "$pub"
}

# write_lands OPTION...: under OPTION... the command writes $d/f, and it lands.
write_lands() {
	rm -f "$d/f"
	run --separate-stderr "$LR" "$@" -- sh -c 'echo landed > "$1/f"' _ "$d"
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$(cat "$d/f")" landed
}

# write_denied OPTION...: under OPTION... the command cannot create $d/f.
write_denied() {
	rm -f "$d/f"
	run "$LR" "$@" -- sh -c 'echo landed > "$1/f"' _ "$d"
	assert_failure
	assert_not_exist "$d/f"
}

@test "--rw=PATH and --ro=PATH spellings work like --rw PATH and --ro PATH" {
	write_lands --rw="$d"
	write_lands --ro=/ --rw="$d"
	write_lands --ro / --rw "$d"
	mkdir 'x=y'
	run "$LR" --rw="$PWD/x=y" -- sh -c 'echo ok > "x=y/f"'
	assert_success
	assert_equal "$(cat 'x=y/f')" ok
	# --ro= confines reads as --ro does.
	echo secret >secret
	run "$LR" --ro=/usr -- /usr/bin/cat secret
	assert_failure
	refute_output secret
}

@test "grants repeat and interleave in any order" {
	mkdir a b
	run "$LR" --rw "$PWD/a" --ro /usr --ro=/etc --rw="$PWD/b" --ro /lib --ro-try /nonexistent \
		-- /usr/bin/sh -c 'echo 1 > a/f; echo 2 > b/f'
	assert_success
	assert_equal "$(cat a/f)$(cat b/f)" 12
}

@test "duplicate grants of one directory merge to the union of their rights, in any order" {
	write_lands --ro /usr --rw "$d" --ro "$d"
	write_lands --ro /usr --ro "$d" --rw "$d" --ro "$d"
	write_lands --ro / --rw "$d" --rw "$d" --rw "$d"
	# The same inode under other spellings merges too.
	write_lands --ro /usr --ro "$d" --rw "$d/." --ro "$d/../d/"
	# Control: --ro alone does not allow the write.
	write_denied --ro /usr --ro "$d" --ro "$d/." --ro-try "$d"
}

@test "a symlink grant grants its target: a write through the target's directory lands" {
	mkdir real
	ln -s real link
	ln -s "$PWD/real" abslink
	rm -f real/f
	run "$LR" --rw "$PWD/link" -- sh -c 'echo via-target > real/f; echo beside > beside'
	assert_failure # the write beside the link
	assert_equal "$(cat real/f)" via-target
	assert_not_exist beside
	run "$LR" --rw abslink -- sh -c 'echo via-link > link/g'
	assert_success
	assert_equal "$(cat real/g)" via-link
	# A symlink to a file grants that file only.
	echo old >real/file
	ln -s real/file filelink
	run "$LR" --rw filelink -- sh -c 'echo new > real/file; echo no > real/other'
	assert_failure
	assert_equal "$(cat real/file)" new
	assert_not_exist real/other
}

@test "a relative grant resolves against the current directory" {
	mkdir -p sub other/sub
	run "$LR" --rw sub -- sh -c 'echo in > sub/f; echo out > f'
	assert_failure
	assert_equal "$(cat sub/f)" in
	assert_not_exist f
	cd other
	run "$LR" --rw sub -- sh -c 'echo in > sub/f; echo out > ../sub/g'
	assert_failure
	assert_equal "$(cat sub/f)" in
	assert_not_exist ../sub/g
	run "$LR" --rw ../sub -- sh -c 'echo up > ../sub/h'
	assert_success
	assert_equal "$(cat ../sub/h)" up
	# "." is the current directory.
	run "$LR" --rw . -- sh -c 'echo dot > dot'
	assert_success
	assert_equal "$(cat dot)" dot
}

@test "--rw-try and --ro-try skip a missing path (ENOENT) silently" {
	write_lands --rw-try "$BATS_TEST_TMPDIR/missing" --rw "$d"
	write_lands --rw-try "$BATS_TEST_TMPDIR/missing/deeper" --rw-try "$d"
	write_lands --ro / --ro-try "$BATS_TEST_TMPDIR/missing" --rw "$d"
	# Skipped means not granted: nothing appears at or beneath it.
	run "$LR" --rw-try "$BATS_TEST_TMPDIR/missing" -- mkdir "$BATS_TEST_TMPDIR/missing"
	assert_failure
	assert_not_exist "$BATS_TEST_TMPDIR/missing"
}

@test "--rw-try and --ro-try skip a path through a non-directory (ENOTDIR) silently" {
	echo >file
	write_lands --rw-try "$PWD/file/sub" --rw "$d"
	write_lands --ro / --ro-try "$PWD/file/x/y" --rw "$d"
}

@test "a skipped --ro-try still confines reads and exec (fail closed)" {
	run -126 --separate-stderr "$LR" --ro-try "$BATS_TEST_TMPDIR/missing" -- /usr/bin/true
	assert_one_launcher_line
	echo secret >secret
	run --separate-stderr "$LR" --ro /usr --ro-try "$BATS_TEST_TMPDIR/missing" -- /usr/bin/cat secret
	assert_failure
	assert_equal "$output" ""
}

@test "--ro-try and --rw-try fail with 125 on a symlink loop (ELOOP)" {
	ln -s loop loop
	for opt in --ro-try --rw-try --ro --rw; do
		run -125 --separate-stderr "$LR" $opt "$PWD/loop" -- touch "$d/ran"
		assert_one_launcher_line
		[[ $stderr == *"$opt path $PWD/loop"* ]] || fail "does not name $opt and the path: $stderr"
		[[ $stderr == *"ymbolic link"* ]] || fail "does not say why: $stderr"
		assert_not_exist "$d/ran"
	done
}

@test "--ro-try and --rw-try fail with 125 on a name too long (ENAMETOOLONG)" {
	local long
	long=$PWD/$(printf 'n%.0s' {1..300})
	for opt in --ro-try --rw-try; do
		run -125 --separate-stderr "$LR" $opt "$long" -- touch "$d/ran"
		assert_one_launcher_line
		[[ $stderr == *"$opt path $long"* ]] || fail "does not name $opt and the path: $stderr"
		assert_not_exist "$d/ran"
	done
}

@test "--ro-try and --rw-try fail with 125 on a path the caller may not search (EACCES, as nobody)" {
	as_nobody
	# nobody must reach the directory: the bats temporary directory is private.
	pub=$(mktemp -d /tmp/landlock-run-test.XXXXXX)
	chmod 0755 "$pub"
	mkdir -m 0700 "$pub/private"
	mkdir -m 0777 "$pub/out"
	for opt in --ro-try --rw-try; do
		# Control: nobody can run the launcher and write where granted.
		run -0 "${AS_NOBODY[@]}" "$LR" --rw "$pub/out" -- sh -c 'echo ok > "$1/f"' _ "$pub/out"
		assert_equal "$(cat "$pub/out/f")" ok
		run -125 --separate-stderr "${AS_NOBODY[@]}" \
			"$LR" $opt "$pub/private/x" -- touch "$pub/out/ran"
		assert_one_launcher_line
		[[ $stderr == *"$opt path $pub/private/x: Permission denied"* ]] || fail "$stderr"
		assert_not_exist "$pub/out/ran"
	done
}

@test "a missing --ro or --rw path is a launcher failure: 125, one line naming option and path, nothing ran" {
	for opt in --ro --rw; do
		run -125 --separate-stderr "$LR" $opt "$BATS_TEST_TMPDIR/missing" -- touch "$d/ran"
		assert_equal "$output" ""
		assert_one_launcher_line
		[[ $stderr == *"$opt path $BATS_TEST_TMPDIR/missing"* ]] || fail "$stderr"
		[[ $stderr == *"No such file or directory"* ]] || fail "$stderr"
		assert_not_exist "$d/ran"
		run -125 --separate-stderr "$LR" $opt=/etc/passwd/x -- touch "$d/ran"
		assert_one_launcher_line
		[[ $stderr == *"Not a directory"* ]] || fail "$stderr"
		assert_not_exist "$d/ran"
	done
}

@test "of several missing paths, the first on the command line is the one reported" {
	# Sorted by path, /z-missing would come last; the report follows the line.
	run -125 --separate-stderr "$LR" --rw "$d" --ro /z-missing --ro /a-missing -- touch "$d/ran"
	assert_one_launcher_line
	assert_equal "$stderr" "landlock-run: cannot open --ro path /z-missing: No such file or directory"
	assert_not_exist "$d/ran"
}

@test "a path given as --ro-try and --rw is required: missing, it fails naming --rw" {
	run -125 --separate-stderr "$LR" --ro-try "$d/missing" --rw "$d/missing" -- touch "$d/ran"
	assert_one_launcher_line
	[[ $stderr == *"cannot open --rw path $d/missing: No such file or directory" ]] || fail "$stderr"
	assert_not_exist "$d/ran"
	# Both optional: skipped, and the command runs.
	run --separate-stderr "$LR" --ro / --ro-try "$d/missing" --rw-try "$d/missing" --rw "$d" -- touch "$d/ran"
	assert_success
	assert_exist "$d/ran"
}

@test "a path with a newline in a failure line stays one line" {
	run -125 --separate-stderr "$LR" --rw $'/missing\nlandlock-run: forged' -- true
	assert_one_launcher_line
}

@test "C1 controls, U+2028 and bidi controls in a failure line: each a '?', the line one line" {
	local h
	for h in 0085 009b 2028 2029 202e 2066 200f 061c; do
		run -125 --separate-stderr "$LR" --rw "/missing$(printf "\\u$h")landlock-run: forged" -- true
		assert_one_launcher_line
		assert_equal "$stderr" "landlock-run: cannot open --rw path /missing?landlock-run: forged: No such file or directory"
	done
	# invalid UTF-8 too: a lone 0x9b is CSI to an 8-bit terminal
	run -125 --separate-stderr "$LR" --rw $'/missing\x9b31m' -- true
	assert_equal "$stderr" "landlock-run: cannot open --rw path /missing?31m: No such file or directory"
}

@test "a path longer than the line keeps the reason on it" {
	local long
	long=$(printf '/%0200d' $(seq 30)) # 6,030 bytes: more than a line holds
	run -125 --separate-stderr "$LR" --ro "$long" -- true
	assert_one_launcher_line
	[[ $stderr == "landlock-run: cannot open --ro path /0000"*"...: File"*"name too long" ]] ||
		fail "the reason is not at the end of the line: ${stderr: -100}"
}

@test "1,000 --rw grants on distinct directories all work" {
	local args
	mkdir -p many
	(cd many && mkdir $(seq 0 999))
	# One command, not a shell loop: bats traps every command of a test.
	mapfile -t args < <(printf -- "--rw\n$PWD/many/%s\n" $(seq 0 999))
	run --separate-stderr "$LR" "${args[@]}" -- sh -c '
for i in $(seq 0 999); do echo "$i" > "many/$i/f" || exit 1; done
echo no > many/f'
	assert_failure # only the last write, outside every grant
	[[ $stderr == *"many/f: Permission denied" ]] || fail "$stderr"
	assert_equal "$(cat many/*/f | sort -n | tail -1)" 999
	assert_equal "$(cat many/*/f | wc -l)" 1000
	assert_not_exist many/f
}

@test "1,000 --ro grants confine reads to exactly those directories" {
	local args
	mkdir -p many
	(cd many && mkdir $(seq 0 999) && for i in 0 500 999; do echo "$i" >"$i/f"; done)
	mapfile -t args < <(printf -- "--ro\n$PWD/many/%s\n" $(seq 1 999)) # not 0
	args=(--ro /usr "${args[@]}")
	run "$LR" "${args[@]}" -- /usr/bin/cat many/500/f many/999/f
	assert_success
	assert_output $'500\n999'
	run "$LR" "${args[@]}" -- /usr/bin/cat many/0/f
	assert_failure
	refute_output 0
}

@test "10,000 grants work under an open-file limit of 64, and the command gets 64 back" {
	local args
	mkdir first last
	# 9,997 distinct files that already exist (creating 10,000 is slow on a
	# busy disk), between a --rw grant first and one last on the command line.
	mapfile -t args < <(find /usr -type f -readable 2>/dev/null | head -n 9997 | sed 's/^/--ro\n/')
	[ "${#args[@]}" -eq 19994 ] || fail "found only $((${#args[@]} / 2)) files under /usr"
	args=(--rw "$PWD/first" "${args[@]}" --ro /usr --rw "$PWD/last")
	[ "${#args[@]}" -eq 20000 ] || fail "${#args[@]} arguments"
	run --separate-stderr prlimit --nofile=64:64 "$LR" "${args[@]}" -- \
		sh -c 'echo 1 > first/f; echo 2 > last/f; echo 3 > f; echo "$(ulimit -Sn) $(ulimit -Hn)"'
	assert_success
	[[ $stderr == *"cannot create f: Permission denied" ]] || fail "$stderr"
	assert_output "64 64"
	assert_equal "$(cat first/f) $(cat last/f)" "1 2"
	assert_not_exist f
}

@test "a descriptor the caller passed between the grant descriptors is never closed" {
	local args i control
	for ((i = 0; i < 100; i++)); do args+=(--ro "$d"); done
	# fds 3, 4 and 6 free, 5 and 7 taken: the launcher's grant descriptors
	# land on both sides of them, and closing in batches must leave them open.
	fds() { bash -c 'exec 3>&- 4>&- 6>&- 5</etc/hostname 7</etc/passwd; exec "$@"' _ "$@"; }
	# ls writes straight to stdout: the shell must hold no pipe of its own
	# while ls reads its descriptors.
	list='head -c 0 <&5 && head -c 0 <&7 && ls -v /proc/$$/fd'
	run -0 fds sh -c "$list"
	control=${output//$'\n'/ }
	[[ " $control " == *" 5 7 "* && " $control " != *" 3 "* ]] || fail "control: $control"
	run -0 fds "$LR" "${args[@]}" --ro / -- sh -c "$list"
	assert_equal "${output//$'\n'/ }" "$control"
}

@test "the command inherits the caller's soft and hard open-file limits unchanged" {
	run -0 bash -c 'ulimit -Sn 300 && exec "$@"' _ "$LR" --rw "$d" -- sh -c 'echo "$(ulimit -Sn) $(ulimit -Hn)"'
	assert_output "300 $(ulimit -Hn)"
}
