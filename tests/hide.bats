#!/usr/bin/env bats
# --hide PATH: a secret beneath a readable tree stays unreadable however the
# command goes for it. Every attack runs beside a control, the same command
# without --hide (or without the launcher), that reads the secret, so each
# test can fail; what is around the hidden path stays readable; the
# contradictions Landlock cannot express are refused.
load helpers

setup() {
	require_landlock
	H=$BATS_TEST_TMPDIR/home # a home directory with credentials in it
	S=$H/.ssh/id_ed25519	 # the secret
	W=$H/work		 # the command's writable workspace
	mkdir -p "$H/.ssh/keys" "$H/.config/gh" "$H/.config/other/deep" "$H/docs" "$H/.sshx" "$W"
	echo SECRET-KEY >"$S"
	echo SUBKEY >"$H/.ssh/keys/k"
	echo GH-TOKEN >"$H/.config/gh/hosts.yml"
	echo readme >"$H/docs/readme"
	echo deep >"$H/.config/other/deep/file"
	echo sibling >"$H/.sshx/notes"
	printf '#!/bin/sh\necho SCRIPT-RAN\n' >"$H/.ssh/tool"
	chmod +x "$H/.ssh/tool"
	cd "$BATS_TEST_TMPDIR"
}

# The policies every attack runs under: beneath --ro /, --hide alone
# (reading confined to all but the hidden path), and a second --ro grant
# that holds the hidden path, beside / or beside /usr alone; with a
# writable workspace.
POLICIES=("--ro /" "" "--ro / --ro $BATS_TEST_TMPDIR/home"
	"--ro /usr --ro $HELPERS --ro $BATS_TEST_TMPDIR/home")

# hidden CMD...: under each policy with --hide $H/.ssh the command's output
# has no secret in it and it fails; without --hide (the control) it prints it.
hidden() {
	local p
	for p in "${POLICIES[@]}"; do
		# shellcheck disable=SC2086 # the policy is split into its options
		run --separate-stderr "$LR" $p --rw "$W" -- "$@"
		assert_success
		[[ $output == *SECRET-KEY* ]] || fail "control ($p without --hide): no secret in [$output]"
		# shellcheck disable=SC2086
		run --separate-stderr "$LR" $p --hide "$H/.ssh" --rw "$W" -- "$@"
		assert_failure
		[[ $output != *SECRET-KEY* ]] || fail "--hide ($p): the secret came out: [$output]"
		refute_launcher_line
	done
}

@test "cat, and a shell's redirection: the hidden file cannot be read" {
	hidden cat "$S"
	hidden sh -c 'read -r line <"$1" && echo "$line"' _ "$S"
	[[ $stderr == *"Permission denied"* ]] || fail "not EACCES: $stderr"
}

@test "ls and find: the hidden directory cannot be listed or walked" {
	echo >"$H/.ssh/SECRET-KEY-name"
	hidden ls "$H/.ssh"
	hidden find "$H/.ssh"
	hidden sh -c 'find "$1" -type f -exec cat {} +' _ "$H"
}

@test "a script inside the hidden tree: neither executed nor read by its interpreter" {
	run "$LR" --ro / -- "$H/.ssh/tool"
	assert_output SCRIPT-RAN # control
	run --separate-stderr "$LR" --ro / --hide "$H/.ssh" -- "$H/.ssh/tool"
	assert_failure 126
	assert_equal "$stderr" "landlock-run: cannot execute $H/.ssh/tool: Permission denied ($H/.ssh/tool is hidden by --hide $H/.ssh)"
	run "$LR" --hide "$H/.ssh" -- sh "$H/.ssh/tool"
	assert_failure
	refute_output --partial SCRIPT-RAN
}

@test "through .., /proc/self/root and a working directory inside the hidden tree" {
	hidden cat "$H/docs/../.ssh/id_ed25519"
	hidden cat "/proc/self/root$S"
	hidden sh -c 'cd "$1/docs" && cat ../.ssh/id_ed25519' _ "$H"
	cd "$H/.ssh"
	hidden cat id_ed25519
	hidden cat /proc/self/cwd/id_ed25519
	hidden sh -c 'cd keys && cat ../id_ed25519'
}

@test "through a symlink or a hard link the command makes in its workspace" {
	hidden sh -c 'ln -sf "$1" "$2/link" && cat "$2/link"' _ "$S" "$W"
	hidden sh -c 'ln -sfn "$1" "$2/dirlink" && cat "$2/dirlink/id_ed25519"' _ "$H/.ssh" "$W"
	# A hard link needs the refer right on the source's directory, which a
	# hidden one has not (ABI 1: no link across directories at all).
	run sh -c 'ln "$1" "$2/hard" && cat "$2/hard"' _ "$S" "$W"
	assert_output SECRET-KEY # control: without the launcher
	rm -f "$W/hard"
	run "$LR" --hide "$H/.ssh" --rw "$W" -- sh -c 'ln "$1" "$2/hard"; cat "$2/hard"' _ "$S" "$W"
	assert_failure
	refute_output --partial SECRET-KEY
}

@test "by inode: a hard link beside a hidden file gets no rule, so the hidden file stays unreadable" {
	echo NETRC-SECRET >"$H/.netrc"
	ln "$H/.netrc" "$H/netrc.bak"
	ln "$H/.netrc" "$W/netrc.work"
	run "$LR" --ro / -- cat "$H/.netrc"
	assert_output NETRC-SECRET # control: without --hide it reads
	# The control of the defence: a rule on the link (as the walk gave one
	# before) grants the hidden file by its own name: rules are on inodes.
	run "$LR" --ro /usr --ro "$H/netrc.bak" -- cat "$H/.netrc"
	assert_output NETRC-SECRET
	local p
	for p in "${POLICIES[@]:0:3}"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$LR" -v $p --hide "$H/.netrc" -- cat "$H/.netrc"
		assert_failure
		refute_output --partial NETRC-SECRET
		[[ $stderr == *"landlock-run hide: $H/netrc.bak is the same inode as --hide $H/.netrc: it gets no rule, so it is hidden too"* ]] ||
			fail "no -v line for the link ($p): $stderr"
		# shellcheck disable=SC2086
		run "$LR" $p --hide "$H/.netrc" -- cat "$H/netrc.bak" "$H/docs/readme"
		assert_failure
		assert_output --partial readme # the walk goes on around it
		refute_output --partial NETRC-SECRET
	done
	# The limit: a hard link beneath a granted directory is another path.
	run "$LR" --ro / --hide "$H/.netrc" -- cat "$W/netrc.work"
	assert_output NETRC-SECRET
	run "$LR" --ro / --hide "$H/.netrc" -- cat "$H/.netrc"
	assert_failure
}

# in_mounts SCRIPT: the sh SCRIPT as root in a mount namespace of its own,
# where it can bind-mount $H (with $H, $LR and $S in its environment).
in_mounts() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to bind-mount"
	unshare --mount true 2>/dev/null || skip "no mount namespace here (unshare --mount)"
	run --separate-stderr env H="$H" LR="$LR" S="$S" W="$W" unshare --mount sh -c "$1"
}

@test "by inode: a bind mount of the home at an entry of a walked directory gets no rule" {
	mkdir "$BATS_TEST_TMPDIR/alias"
	# control: the alias's rule is the home's, and reveals the key by its own name
	in_mounts 'mount --bind "$H" "$H/../alias" && "$LR" --ro /usr --ro "$H/../alias" -- cat "$S"'
	assert_output SECRET-KEY
	in_mounts 'mount --bind "$H" "$H/../alias" && "$LR" -v --ro / --hide "$H/.ssh" -- cat "$S"'
	assert_failure
	refute_output --partial SECRET-KEY
	[[ $stderr == *"landlock-run hide: $BATS_TEST_TMPDIR/alias is the same inode as $H, a directory above --hide $H/.ssh: it gets no rule"* ]] ||
		fail "no -v line for the alias: $stderr"
	# and the home itself bound over an entry of itself
	in_mounts 'mount --bind "$H" "$H/docs" && "$LR" --hide "$H/.ssh" -- cat "$S"'
	assert_failure
	refute_output --partial SECRET-KEY
	in_mounts 'mount --bind "$H" "$H/docs" && "$LR" --hide "$H/.ssh" -- cat "$H/.config/gh/hosts.yml"'
	assert_output GH-TOKEN # what is around stays readable
}

@test "by inode: a bind mount of a directory further up than the home, at an entry of the home, gets no rule" {
	local t=$BATS_TEST_TMPDIR
	# control: beneath the entry the key is there by another name
	in_mounts 'mount --bind "$BATS_TEST_TMPDIR" "$H/docs" && "$LR" --ro / -- cat "$H/docs/home/.ssh/id_ed25519"'
	assert_output SECRET-KEY
	# the walk up from the hidden directory, and from a hidden file, names every level
	for hidden in "$H/.ssh" "$S"; do
		in_mounts "mount --bind \"\$BATS_TEST_TMPDIR\" \"\$H/docs\" && \"\$LR\" -v --ro / --hide $hidden -- cat \"\$H/docs/home/.ssh/id_ed25519\""
		assert_failure
		refute_output --partial SECRET-KEY
		[[ $stderr == *"landlock-run hide: $H/docs is the same inode as $t, a directory above --hide $hidden: it gets no rule"* ]] ||
			fail "no -v line for the alias of $t (--hide $hidden): $stderr"
	done
}

@test "by inode: a grant through a bind mount of the home, or of the hidden path, is refused naming both" {
	local a=$BATS_TEST_TMPDIR/alias why="(a hard link or a bind mount): its rule would reveal what is hidden"
	mkdir "$a"
	in_mounts 'mount --bind "$H" "$H/../alias" && "$LR" --ro "$H/../alias/docs" --ro /usr -- cat "$H/../alias/docs/readme"'
	assert_output readme # control: a grant through the alias beside the hidden path works
	for g in "--ro $a" "--rw $a" "--ro $a/.ssh" "--ro $a/.ssh/keys" "--ro $a/.ssh/id_ed25519"; do
		in_mounts "mount --bind \"\$H\" \"\$H/../alias\" && \"\$LR\" --ro / $g --hide \"\$H/.ssh\" -- cat \"\$S\""
		assert_failure 125
		assert_output ""
		assert_one_launcher_line
	done
	in_mounts 'mount --bind "$H" "$H/../alias" && "$LR" --ro / --ro "$H/../alias" --hide "$H/.ssh" -- true'
	assert_equal "$stderr" "landlock-run: --ro $H/../alias is the same directory as $H, a directory above --hide $H/.ssh $why; grant what is needed beside the hidden path instead"
	in_mounts 'mount --bind "$H" "$H/../alias" && "$LR" --ro "$H/../alias/.ssh" --hide "$H/.ssh" -- true'
	assert_equal "$stderr" "landlock-run: --ro $H/../alias/.ssh is the same directory as --hide $H/.ssh $why; grant what is needed beside the hidden path instead"
	in_mounts 'mount --bind "$H" "$H/../alias" && "$LR" --ro "$H/../alias/.ssh/keys" --hide "$H/.ssh" -- true'
	assert_equal "$stderr" "landlock-run: --ro $H/../alias/.ssh/keys is within --hide $H/.ssh through $a/.ssh (a bind mount): it would reveal what is hidden"
	in_mounts 'mount --bind "$H" "$H/../alias" && "$LR" --ro "$H/../alias/.ssh/keys" --ro /usr -- cat "$H/.ssh/keys/k"'
	assert_output SUBKEY # control: without --hide the grant reads the hidden tree
}

@test "the limits: a hidden symlink's target, a hidden file's attributes and a watch on a hidden directory still show" {
	ln -s vault-token-4b1d "$H/.ssh/tok"
	run "$LR" --ro / --hide "$H/.ssh" -- cat "$S"
	assert_failure # the contents are withheld ...
	run -0 "$LR" --ro / --hide "$H/.ssh" -- readlink "$H/.ssh/tok"
	assert_output vault-token-4b1d # ... the metadata is not (the man page's CAVEATS)
	run -0 "$LR" --ro / --hide "$H/.ssh" -- /usr/bin/python3 -c '
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(0)
print("watch" if libc.inotify_add_watch(fd, sys.argv[1].encode(), 0x100) > 0 else "refused")' "$H/.ssh"
	assert_output watch
	/usr/bin/python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.passphrase", b"hunter2")' "$S" ||
		skip "no user extended attributes here"
	run -0 "$LR" --ro / --hide "$H/.ssh" -- /usr/bin/python3 -c \
		'import os, sys; print(os.getxattr(sys.argv[1], "user.passphrase").decode())' "$S"
	assert_output hunter2
}

@test "openat(O_PATH) of an ancestor, then a relative open; reopening an O_PATH descriptor" {
	hidden sh -c '"$0" open-at "$1" .ssh/id_ed25519 && cat "$2"' "$TRYOP" "$H" "$S"
	for args in "$H .ssh/id_ed25519" "$H/.ssh id_ed25519" "$H/docs ../.ssh/id_ed25519"; do
		# shellcheck disable=SC2086
		run "$TRYOP" open-at $args
		assert_output ok # control
		# shellcheck disable=SC2086
		run "$LR" --ro / --hide "$H/.ssh" -- "$TRYOP" open-at $args
		assert_output EACCES
	done
	run "$TRYOP" reopen "$S"
	assert_output ok
	run "$LR" --ro / --hide "$H/.ssh" -- "$TRYOP" reopen "$S"
	assert_output EACCES
}

@test "what is around the hidden path stays readable: siblings, deeper branches, the system" {
	local p
	for p in "${POLICIES[@]}"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$LR" $p --hide "$H/.ssh" -- sh -c \
			'cat "$1/docs/readme" "$1/.config/other/deep/file" "$1/.sshx/notes" && ls "$1/.config/gh" && /bin/true' _ "$H"
		assert_success
		assert_output "$(printf 'readme\ndeep\nsibling\nhosts.yml')"
	done
}

@test "the directories on the way can be entered but not listed; what is made in them later is unreadable" {
	run "$LR" --hide "$H/.ssh" -- sh -c 'cd "$1" && cat docs/readme && stat -c %n .ssh && ls' _ "$H"
	assert_failure
	assert_line readme
	assert_line .ssh # a lookup needs no right
	assert_line --partial "ls: cannot open directory '.': Permission denied"
	# A file made in $H after launch, and a hidden path that did not exist at launch.
	timeout 20 "$LR" --hide "$H/.ssh" --hide "$H/.aws" -- sh -c \
		'while [ ! -e "$1/.aws/credentials" ]; do sleep 0.05; done; cat "$1/later" "$1/.aws/credentials"' \
		_ "$H" >"$BATS_TEST_TMPDIR/later.out" 2>&1 &
	local pid=$!
	sleep 0.3
	echo LATER-SECRET >"$H/later"
	mkdir "$H/.aws"
	echo AWS-SECRET >"$H/.aws/credentials"
	local rc=0
	wait $pid || rc=$?
	assert_equal "$rc" 1
	run cat "$BATS_TEST_TMPDIR/later.out"
	refute_output --partial SECRET
	assert_equal "$(grep -c 'Permission denied' "$BATS_TEST_TMPDIR/later.out")" 2
	run cat "$H/later" "$H/.aws/credentials"
	assert_output "$(printf 'LATER-SECRET\nAWS-SECRET')" # control
}

@test "several hidden paths, nested, repeated and through a symlink, share one walk" {
	ln -s .config/gh "$H/ghlink"
	run --separate-stderr "$LR" -v --ro / --hide "$H/.ssh" --hide "$H/.ssh/keys" --hide "$H/ghlink" \
		--hide "$H/.ssh" -- sh -c 'cat "$1/.ssh/keys/k"; cat "$1/.config/gh/hosts.yml"; cat "$1/.ssh/id_ed25519"; cat "$1/docs/readme" "$1/.config/other/deep/file"' _ "$H"
	assert_output "$(printf 'readme\ndeep')"
	assert_equal "$(grep -c 'Permission denied' <<<"$stderr")" 3
	# -v: each hidden path as resolved and the rules its walk added; the nested
	# and repeated ones add none, and $H, shared, is listed once.
	grep -q "^landlock-run grant: --ro / -> /: execute,read_file,read_dir on [0-9]* entries around the hidden paths$" <<<"$stderr" ||
		fail "no expanded grant line in: $stderr"
	assert_equal "$(grep -c '^landlock-run hide: ' <<<"$stderr")" 4
	grep -q "^landlock-run hide: --hide $H/.ssh/keys -> $H/.ssh/keys: 0 rules$" <<<"$stderr" || fail "$stderr"
	assert_equal "$(grep -c "^landlock-run hide: --hide $H/.ssh -> $H/.ssh: .* rules$" <<<"$stderr")" 2
	# $H, listed by the first walk, is not listed again: .config's walk adds a
	# rule for its one other entry only.
	grep -q "^landlock-run hide: --hide $H/ghlink -> $H/.config/gh: 1 rules$" <<<"$stderr" || fail "$stderr"
}

@test "the walk gives a symlink entry no rule: a link to the hidden path or to a directory on the way reveals nothing" {
	ln -s .ssh "$H/to-ssh"
	ln -s "$H" "$H/docs/to-home"
	ln -s "$H/docs/readme" "$H/to-readme"
	run "$LR" --ro / -- cat "$H/to-ssh/id_ed25519"
	assert_output SECRET-KEY # control
	hidden cat "$H/to-ssh/id_ed25519"
	hidden cat "$H/docs/to-home/.ssh/id_ed25519"
	hidden sh -c 'ls "$1/docs/to-home/" && cat "$2"' _ "$H" "$S"
	# A symlink to a readable file still reads: its target has a rule of its own.
	run "$LR" --hide "$H/.ssh" -- cat "$H/to-readme"
	assert_output readme
}

@test "a hidden file, not a directory" {
	echo 'machine example.com password NETRC-SECRET' >"$H/.netrc"
	run "$LR" --ro / -- cat "$H/.netrc"
	assert_output --partial NETRC-SECRET
	run --separate-stderr "$LR" --ro / --hide "$H/.netrc" -- sh -c 'cat "$1/.netrc"; cat "$1/docs/readme"' _ "$H"
	assert_output readme
	assert_equal "$stderr" "cat: $H/.netrc: Permission denied"
}

@test "a relative hidden path, and one in @FILE" {
	cd "$H"
	run "$LR" --ro / --hide .ssh -- cat "$S"
	assert_failure
	refute_output --partial SECRET
	policy_dir
	printf -- '--ro=/\n--hide\n%s\n' "$H/.ssh" >"$P/policy"
	run --separate-stderr "$LR" "@$P/policy" -- sh -c 'cat "$1"; cat docs/readme' _ "$S"
	assert_output readme
	assert_equal "$stderr" "cat: $S: Permission denied"
}

# refused WANT ARG...: the launcher refuses ARG... with 125 and one line that
# contains WANT; the command never runs.
refused() {
	local want=$1 ran=$BATS_TEST_TMPDIR/ran
	shift
	rm -f "$ran"
	run --separate-stderr "$LR" "$@" -- touch "$ran"
	assert_failure 125
	assert_one_launcher_line
	assert_output ""
	[[ $stderr == *"$want"* ]] || fail "stderr lacks [$want]: $stderr"
	assert_not_exist "$ran"
}

@test "refused: a hidden path beneath --rw, --rw-try or --unix, naming both options and why" {
	local why="Landlock cannot withhold part of a directory without taking away"
	refused "--hide $H/.ssh is beneath --rw $H: $why creating files in it" --ro / --rw "$H" --hide "$H/.ssh"
	refused "--hide $H/.ssh is beneath --rw-try $BATS_TEST_TMPDIR: $why creating files in it" \
		--hide "$H/.ssh" --rw-try "$BATS_TEST_TMPDIR"
	refused "--hide $H/.ssh is beneath --unix $H: $why connecting to sockets made in it later" \
		--unix "$H" --hide "$H/.ssh"
	refused "--hide $H/.ssh/x is beneath --rw $H: $why" --rw "$H" --hide "$H/.ssh/x"
	# --probe takes --hide like any policy option, and refuses alike.
	run --separate-stderr "$LR" --probe --rw "$H" --hide "$H/.ssh"
	assert_failure 125
	assert_one_launcher_line
}

@test "refused: a grant on or beneath a hidden path, and --hide /" {
	local why="Landlock rules only add rights, so it would reveal what is hidden"
	refused "--ro $H/.ssh/keys is within --hide $H/.ssh: $why" --ro / --ro "$H/.ssh/keys" --hide "$H/.ssh"
	refused "--rw $H/.ssh is within --hide $H/.ssh: $why" --hide "$H/.ssh" --rw "$H/.ssh"
	refused "--ro $S is within --hide $H/.ssh: $why" --ro "$S" --hide "$H/.ssh"
	refused "--hide / hides /: Landlock withholds a path by granting what is around it, and nothing is around /" \
		--hide /
	refused "--hide /proc/self/root hides /" --ro / --hide /proc/self/root
	# A hidden path within another is no contradiction: it is hidden already.
	run "$LR" --hide "$H/.." --hide "$H/.ssh" -- cat /etc/hostname
	assert_success
}

@test "a path that does not exist still hides; one it cannot name is refused" {
	run "$LR" -v --ro / --hide "$H/.aws/credentials" -- true
	assert_success
	assert_line --partial "landlock-run hide: --hide $H/.aws/credentials -> $H/.aws/credentials (does not exist): "
	refused "--hide $H/nope/../.ssh: $H/nope/.. follows a path that does not exist" --hide "$H/nope/../.ssh"
	ln -s /nonexistent/aws "$H/.aws"
	refused "--hide $H/.aws/credentials: $H/.aws is a symlink to a path that does not exist (hide its target)" \
		--hide "$H/.aws/credentials"
	refused "cannot open --hide path $S/x: Not a directory" --hide "$S/x"
}

@test "--no-symlinks refuses a hidden path through a symlink; without it the target is hidden" {
	ln -s .ssh "$H/sshlink"
	refused "cannot open --hide path $H/sshlink: it goes through a symlink (--no-symlinks)" \
		--no-symlinks --hide "$H/sshlink"
	run "$LR" --hide "$H/sshlink" -- cat "$S"
	assert_failure
	refute_output --partial SECRET
	run "$LR" --no-symlinks --hide "$H/.ssh" -- cat "$H/docs/readme"
	assert_output readme
}

@test "a directory on the way with more entries than the bound is refused, naming it" {
	mkdir "$H/big"
	(cd "$H/big" && seq 1 16383 | xargs touch && mkdir secret)
	run "$LR" --ro / --hide "$H/big/secret" -- cat "$H/big/1"
	assert_success # 16384 entries: within the bound
	touch "$H/big/one-more"
	refused "--hide $H/big/secret: $H/big has more than 16384 entries, one rule each" --ro / --hide "$H/big/secret"
}

@test "an entry that vanishes between the listing and its rule is skipped, and stays unreadable" {
	echo gone >"$H/victim"
	run --separate-stderr "$FAULT" openat,openat2 ENOENT --path victim -- "$LR" --hide "$H/.ssh" -- \
		sh -c 'cat "$1/docs/readme"; cat "$1/victim"' _ "$H"
	assert_failure
	assert_output readme
	refute_launcher_line
	# A directory that cannot be listed for another reason fails closed, naming it.
	run --separate-stderr "$FAULT" getdents64 EIO -- "$LR" --hide "$H/.ssh" -- true
	assert_failure 125
	assert_one_launcher_line
	[[ $stderr == "landlock-run: --hide $H/.ssh: cannot list /: "* ]] || fail "$stderr"
}

@test "--learn with --hide: the learning run cannot read the hidden path, and is otherwise unconfined" {
	run --separate-stderr "$LR" --learn "$BATS_TEST_TMPDIR/learned" --hide "$H/.ssh" -- sh -c \
		'cat "$1/docs/readme"; echo x >"$2/written"; cat "$1/.ssh/id_ed25519"' _ "$H" "$BATS_TEST_TMPDIR"
	assert_failure
	assert_output readme
	assert_equal "$(cat "$BATS_TEST_TMPDIR/written")" x
	assert_file_exists "$BATS_TEST_TMPDIR/learned"
	# control: --learn alone reads it
	run --separate-stderr "$LR" --learn "$BATS_TEST_TMPDIR/learned" -- cat "$S"
	assert_output SECRET-KEY
}

@test "--learn with --hide: the policy keeps the hidden paths and no grant that reveals or contradicts one" {
	local canon
	policy_dir
	canon=$(cd "$H/.ssh" && pwd -P)
	run --separate-stderr "$LR" --learn "$P/learned" --hide "$H/.ssh" -- sh -c \
		'cat "$1/docs/readme" "$1/.sshx/notes"; touch "$1/new"; echo x > "$1/.ssh/known"' _ "$H"
	assert_success
	local policy
	policy=$(grep -v '^# ' "$P/learned")
	grep -qx -- "--hide=$canon" <<<"$policy" || fail "no --hide line in: $policy"
	# The writes in the home and in the hidden directory cannot be granted beside it.
	grep -q "^# not granted: --rw=${canon%/.ssh} (--hide $canon)" "$P/learned" ||
		fail "$(cat "$P/learned")"
	grep -q "^# not granted: --rw=$canon (--hide $canon)" "$P/learned" ||
		fail "$(cat "$P/learned")"
	refute_output --partial SECRET
	# The learned policy is accepted, reads what the run read, and still hides the key.
	run --separate-stderr "$LR" "@$P/learned" -- cat "$H/docs/readme" "$H/.sshx/notes"
	assert_success
	run --separate-stderr "$LR" "@$P/learned" -- cat "$S"
	assert_failure
	refute_output --partial SECRET
}

@test "--explain reports a read of a hidden path as hidden, with no advice to widen" {
	local canon J=$BATS_TEST_TMPDIR/denials.json
	canon=$(cd "$H" && pwd -P)
	for p in "--ro /" ""; do
		# shellcheck disable=SC2086 # the policy is split into its options
		run --separate-stderr "$LR" --explain --explain-json "$J" $p --hide "$H/.ssh" -- \
			sh -c 'cat "$1/.ssh/id_ed25519"; x=$(ls "$1"); cat "$1/docs/readme"' _ "$H"
		assert_output readme
		assert_equal "$(grep '^landlock-run denied' <<<"$stderr" | sed 's/\[[0-9]*\]//')" "$(printf '%s\n' \
			"landlock-run denied: read_file $canon/.ssh/id_ed25519 (openat by cat): hidden by --hide $H/.ssh" \
			"landlock-run denied: read_dir $canon (openat by ls): no grant allows it while --hide $H/.ssh is beneath it")"
		run -0 "$PYTHON" -c 'import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [(d["allow"], d.get("hidden"), d.get("hidden_beneath")) for d in lines] == [
    ([], sys.argv[2], None), ([], None, sys.argv[2])], lines' "$J" "$H/.ssh"
	done
	# Control: without --hide the same reads are allowed, and nothing is reported.
	run -0 --separate-stderr "$LR" --explain --ro / -- cat "$S"
	assert_output SECRET-KEY
	assert_equal "$stderr" ""
}

@test "--explain with --hide runs the command under the same sandbox and keeps its status" {
	run --separate-stderr "$LR" --explain --ro / --hide "$H/.ssh" -- sh -c 'cat "$1"; cat "$2"; exit 3' _ "$H/docs/readme" "$S"
	assert_equal "$status" 3
	assert_output readme
	run --separate-stderr "$LR" --explain --hide "$H/.ssh" -- cat "$S"
	assert_failure 1
	refute_output --partial SECRET
}

@test "--probe takes --hide and still proves the same denials" {
	run --separate-stderr "$LR" --probe --ro / --hide "$H/.ssh"
	assert_success
	assert_output "$(verdict_at "$KUSED")"
	run --separate-stderr "$LR" --probe --hide "$H/.ssh" --rw "$W"
	assert_success
}
