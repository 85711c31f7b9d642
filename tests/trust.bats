#!/usr/bin/env bats
# What the caller can trust: a confined run cannot plant anything for the
# next one (a symlink at a report path, a rewritten policy), and the status
# descriptor tells a launcher failure from a command that forges one. Each
# attack is performed for real, beside a control that shows it works where
# the launcher does not stand in its way.
load helpers

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
	d=$(pwd -P)
	mkdir ws out
	echo 'secret profile' >"$d/victim"
}

# ---- report files ------------------------------------------------------------

@test "attack: a symlink the confined run 1 plants at its report path; run 2 is refused, the target is intact" {
	# Run 1, confined to ws, plants the link where the npm README once wrote its report.
	run -0 "$LR" --ro / --rw "$d/ws" -- ln -sf "$d/victim" "$d/ws/denials.json"
	assert_equal "$(readlink ws/denials.json)" "$d/victim"
	# Control: whoever writes through that path as it was opened before truncates the victim.
	cp victim victim.copy
	sh -c 'echo x > "$1"' _ "$d/ws/denials.json"
	assert_equal "$(cat victim)" x
	cp victim.copy victim
	# Run 2, the same policy, as root: refused before anything runs, the victim untouched.
	run -125 --separate-stderr "$LR" --ro / --rw "$d/ws" --explain-json "$d/ws/denials.json" \
		-- touch "$d/ran"
	assert_one_launcher_line
	[[ $stderr == *"--explain-json $d/ws/denials.json is a symlink: a report is never written through one"* ]] ||
		fail "$stderr"
	assert_equal "$(cat victim)" 'secret profile'
	assert_not_exist ran
	# Without the link it is still refused: the confined run could plant one at any time.
	rm ws/denials.json
	run -125 --separate-stderr "$LR" --ro / --rw "$d/ws" --explain-json "$d/ws/denials.json" \
		-- touch "$d/ran"
	[[ $stderr == *"--rw $d/ws would let COMMAND replace --explain-json $d/ws/denials.json"* ]] ||
		fail "$stderr"
	assert_not_exist ran
}

teardown() {
	[ ! -f "$BATS_TEST_TMPDIR/cleanup" ] || rm -rf "$(cat "$BATS_TEST_TMPDIR/cleanup")"
	! mountpoint -q "$BATS_TEST_TMPDIR/small" || umount "$BATS_TEST_TMPDIR/small"
}

@test "attack: another user's symlink at a predictable report path outside the grants is not followed" {
	as_nobody
	# A directory like /tmp, which nobody can reach (the bats directory is private).
	out=$(mktemp -d /tmp/landlock-run-trust.XXXXXX)
	echo "$out" >"$BATS_TEST_TMPDIR/cleanup"
	chmod 1777 "$out"
	chmod 755 "$d"
	"${AS_NOBODY[@]}" ln -s "$d/victim" "$out/report.json"
	for option in --explain-json --learn; do
		local extra=(--ro /)
		[ "$option" = --learn ] && extra=()
		run -125 --separate-stderr "$LR" "${extra[@]}" "$option" "$out/report.json" -- touch "$d/ran"
		assert_one_launcher_line
		[[ $stderr == *"$option $out/report.json is a symlink"* ]] || fail "$stderr"
	done
	assert_equal "$(cat victim)" 'secret profile'
	assert_not_exist ran
	# Nor another user's regular file, nor a FIFO, which would hang the launcher.
	rm "$out/report.json"
	"${AS_NOBODY[@]}" touch "$out/report.json"
	run -125 --separate-stderr "$LR" --ro / --explain-json "$out/report.json" -- true
	[[ $stderr == *"exists and is not a regular file of yours"* ]] || fail "$stderr"
	rm "$out/report.json"
	mkfifo "$out/report.json"
	run -125 --separate-stderr timeout 5 "$LR" --ro / --explain-json "$out/report.json" -- true
	[[ $stderr == *"exists and is not a regular file of yours"* ]] || fail "$stderr"
}

@test "a report path whose directory the command can write, or reach through a symlink it can replace, is refused" {
	# The directory itself, an ancestor, and a symlink in a writable tree on the way.
	run -125 --separate-stderr "$LR" --ro / --rw "$d" --explain-json "$d/out/r.json" -- true
	[[ $stderr == *"--rw $d would let COMMAND replace"* ]] || fail "$stderr"
	ln -s "$d/out" ws/to-out
	run -125 --separate-stderr "$LR" --ro / --rw "$d/ws" --explain-json "$d/ws/to-out/r.json" -- true
	[[ $stderr == *"--rw $d/ws would let COMMAND replace --explain-json $d/ws/to-out/r.json"* ]] ||
		fail "$stderr"
	# --rw-try and --unix count too; a read grant does not.
	run -125 --separate-stderr "$LR" --ro / --rw-try "$d/out" --explain-json "$d/out/r.json" -- true
	run -125 --separate-stderr "$LR" --ro / --unix "$d/out" --explain-json "$d/out/r.json" -- true
	run -0 "$LR" --ro / --ro "$d/out" --rw "$d/ws" --explain-json "$d/out/r.json" -- true
	# With --no-symlinks, no component of the path may be a symlink.
	run -125 --separate-stderr "$LR" --no-symlinks --ro / --explain-json "$d/ws/to-out/r.json" -- true
	[[ $stderr == *"goes through a symlink (--no-symlinks)"* ]] || fail "$stderr"
	assert_not_exist out/r.json.unused
}

@test "a relative report path is judged where it resolves: ../out/r.json from inside the workspace" {
	cd ws
	# The workspace is the lookup's start, but ../out leaves it at once: nothing in it is read.
	run -0 "$LR" --ro / --rw "$d/ws" --explain-json ../out/r.json -- true
	assert_file_exist "$d/out/r.json"
	policy_dir
	printf '%s\n' --ro / >"$P/p.policy"
	run -0 "$LR" "@$P/p.policy" --rw "$d/ws" -- true
	# Where it resolves is still guarded: the directory it lands in, and what is above it.
	run -125 --separate-stderr "$LR" --ro / --rw "$d/out" --explain-json ../out/r.json -- true
	[[ $stderr == *"--rw $d/out would let COMMAND replace --explain-json ../out/r.json"* ]] ||
		fail "$stderr"
	run -125 --separate-stderr "$LR" --ro / --rw "$d" --explain-json ../out/r.json -- true
	[[ $stderr == *"--rw $d would let COMMAND replace"* ]] || fail "$stderr"
	# A directory the path goes down through before it goes up is gone through: a
	# symlink the command can replace there would send the report elsewhere.
	ln -s "$d/out" to-out
	run -125 --separate-stderr "$LR" --ro / --rw "$d/ws" --explain-json to-out/../out/r.json -- true
	[[ $stderr == *"--rw $d/ws would let COMMAND replace"* ]] || fail "$stderr"
	run -125 --separate-stderr "$LR" --ro / --rw "$d/ws" --explain-json ./to-out/r.json -- true
	[[ $stderr == *"--rw $d/ws would let COMMAND replace"* ]] || fail "$stderr"
}

@test "a report is written beside its target and renamed over it: never half, mode 0600, the caller's" {
	echo 'old report' >out/r.json
	local before
	before=$(stat -c %i out/r.json)
	# While the command runs the old report still stands, whole, and a hidden new file is beside it.
	run -0 --separate-stderr env -u UMASK sh -c 'umask 077; exec "$@"' _ "$LR" --ro / --rw "$d/ws" \
		--explain-json "$d/out/r.json" -- sh -c "touch $d/no-such/f 2>/dev/null; cat $d/out/r.json; ls -A $d/out"
	assert_equal "${lines[0]}" 'old report'
	[[ ${lines[1]} == .r.json.?????? ]] || fail "no temporary file beside the report: $output"
	# After: the new report, a new inode, exactly 0600 and root's; no temporary file left.
	assert_equal "$(ls -A out)" r.json
	[ "$(stat -c %i out/r.json)" != "$before" ] || fail "the old file was rewritten in place"
	assert_equal "$(stat -c '%a %U' out/r.json)" "600 $(id -un)"
	# the mode is the launcher's, not the umask's (run would set it in a subshell)
	sh -c 'umask 0; exec "$@"' _ "$LR" --ro / --explain-json "$d/out/r.json" -- true
	assert_equal "$(stat -c %a out/r.json)" 600
}

@test "a report whose writes fail is never committed: 125, the old report stays, no temporary file" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	mkdir small
	mount -t tmpfs -o size=64k tmpfs small || skip "cannot mount a tmpfs here"
	echo 'old report' >small/r.json
	# 2,000 distinct denials are some 400 KB of JSON, more than the 64 KiB left
	run -125 --separate-stderr "$LR" --ro / --explain-json "$d/small/r.json" -- \
		"$HELPERS/hostile" creates "$d/ws" 2000
	assert_one_launcher_line
	[[ $stderr == *"cannot write the --explain-json file $d/small/r.json: a write failed"* ]] ||
		fail "$stderr"
	assert_equal "$(cat small/r.json)" 'old report'
	assert_equal "$(ls -A small)" r.json
	# control: 20 denials fit, and the report is committed
	run -0 "$LR" --ro / --explain-json "$d/small/r.json" -- "$HELPERS/hostile" creates "$d/ws" 20
	assert_equal "$(grep -c '"kind":"fs"' small/r.json)" 20
}

@test "--learn merges into a policy it wrote, replaces it whole (mode 0600), and refuses any other file" {
	run -0 "$LR" --learn "$d/out/p" -- cat "$d/victim"
	grep -qx -- "--ro=$d" out/p || fail "$(cat out/p)"
	local before
	before=$(stat -c %i out/p)
	run -0 "$LR" --learn "$d/out/p" -- touch "$d/ws/made"
	grep -qx -- "--ro=$d" out/p || fail "the first run's grant is gone: $(cat out/p)"
	grep -qx -- "--rw=$d/ws" out/p || fail "$(cat out/p)"
	[ "$(stat -c %i out/p)" != "$before" ] || fail "rewritten in place"
	assert_equal "$(stat -c %a out/p)" 600
	# A file --learn did not write is neither merged nor replaced.
	echo '--rw=/' >out/q
	run -125 --separate-stderr "$LR" --learn "$d/out/q" -- touch "$d/ran"
	[[ $stderr == *"--learn $d/out/q exists and is not a policy --learn wrote"* ]] || fail "$stderr"
	assert_equal "$(cat out/q)" --rw=/
	assert_not_exist ran
}

@test "a report can go to a pipe the caller hands over as /dev/fd/N, which COMMAND never holds" {
	# 3>&-: bats waits for every holder of its descriptor 3.
	# The denied write is in $d, outside the grant, where any caller could write.
	run -0 bash -c '"$1" --ro / --rw "$2" --explain-json /dev/fd/9 -- sh -c \
		"test -e /proc/\$\$/fd/9 && echo holds >$2/fds; echo x > $3/denied-by-test" \
		9>&1 >/dev/null 2>&1 | cat 3>&-' _ "$LR" "$d/ws" "$d"
	[[ $output == *"\"path\":\"$d/denied-by-test\""* ]] || fail "$output"
	assert_not_exist denied-by-test
	assert_not_exist ws/fds
	# Control: a descriptor the launcher does not take is held.
	bash -c 'sh -c "test -e /proc/\$\$/fd/9 && echo holds" 9>/dev/null' >ws/fds
	assert_equal "$(cat ws/fds)" holds
	# stdin, stdout, stderr, or a copy of one of them, are refused: COMMAND holds those.
	run -125 --separate-stderr "$LR" --ro / --explain-json /dev/fd/1 -- true
	[[ $stderr == *"descriptor 1 is stdin, stdout or stderr"* ]] || fail "$stderr"
	run -125 --separate-stderr bash -c 'set -o pipefail; "$1" --ro / --explain-json /proc/self/fd/5 -- true 5>&1 | cat' _ "$LR"
	[[ $stderr == *"descriptor 5 is the same pipe as descriptor 1"* ]] || fail "$stderr"
	run -125 --separate-stderr "$LR" --ro / --explain-json /dev/fd/7 -- true 7<"$d/victim"
	[[ $stderr == *"descriptor 7 is not a pipe or a socket"* ]] || fail "$stderr"
}

# ---- policies ----------------------------------------------------------------

@test "attack: run 1 rewrites the policy kept in its tree, run 2 would start from it: refused, and a policy directory no run can write" {
	policy_dir
	mkdir -p proj/.landlock
	printf -- '--ro=/\n--rw=%s\n' "$d/proj" >proj/.landlock/test.policy
	# Control, the old layout: run 1 (npm ci under --rw proj) rewrites the policy
	# in place, owner, mode and link count unchanged, for a wider next run.
	run -0 "$LR" --ro / --rw "$d/proj" -- sh -c \
		'printf -- "--ro=/\n--rw=%s\n--keep-caps\n" "$2" > "$1"' _ "$d/proj/.landlock/test.policy" "$d/out"
	assert_equal "$(tail -n 1 proj/.landlock/test.policy)" --keep-caps
	assert_equal "$(stat -c '%u %a %h' proj/.landlock/test.policy)" "0 644 1"
	# Run 2 from it (which on the old layout wrote out/ and kept its capabilities):
	# refused before anything runs, naming the file and where to keep it.
	cd proj
	run -125 --separate-stderr "$LR" @.landlock/test.policy -- sh -c \
		'touch "$1/planted"; grep CapEff /proc/self/status' _ "$d/out"
	assert_one_launcher_line
	[[ $stderr == *"@.landlock/test.policy is not in a policy directory"*"move it to $P/"* ]] ||
		fail "$stderr"
	assert_not_exist "$d/out/planted"
	cd "$d"
	# Kept in the policy directory, run 1 cannot reach it: a grant on the policy
	# directory, above it or inside it is refused; beside it, the write is denied.
	printf -- '--ro=/\n--rw=%s\n' "$d/proj" >"$P/test.policy"
	for grant in "$P" "$XDG_CONFIG_HOME" "$BATS_TEST_TMPDIR/.." "$P/test.policy"; do
		run -125 --separate-stderr "$LR" --ro / --rw "$grant" -- sh -c 'echo --keep-caps >> "$1"' _ \
			"$P/test.policy"
		assert_one_launcher_line
		[[ $stderr == *"the policy directory $P: no run may write where policies are kept"* ]] ||
			fail "$stderr"
	done
	run -2 "$LR" --ro / --rw "$d/proj" -- sh -c 'echo --keep-caps >> "$1"' _ "$P/test.policy"
	# Run 2 starts from the policy as the caller wrote it.
	run -0 --separate-stderr "$LR" "@$P/test.policy" -- sh -c 'touch proj/built; grep CapEff /proc/self/status'
	assert_output --partial 0000000000000000
	assert_file_exist proj/built
	assert_equal "$(tail -n 1 "$P/test.policy")" "--rw=$d/proj"
}

@test "a policy outside the policy directories is refused, wherever it is and however it is named" {
	policy_dir
	mkdir cfg
	printf -- '--ro=/\n' >cfg/p
	for at in "$d/cfg/p" cfg/p ./cfg/p; do
		run -125 --separate-stderr "$LR" "@$at" -- touch "$d/ran"
		assert_one_launcher_line
		[[ $stderr == *"@$at is not in a policy directory, where no run can change it: move it to $P/ (or /etc/landlock-run/)"* ]] ||
			fail "$stderr"
	done
	# A symlink in the policy directory to a file outside is no way in, nor one
	# outside (which a run could point elsewhere) to a file inside.
	ln -s "$d/cfg/p" "$P/link"
	run -125 --separate-stderr "$LR" "@$P/link" -- true
	[[ $stderr == *"@$P/link is not in a policy directory"* ]] || fail "$stderr"
	cp cfg/p "$P/p"
	ln -s "$P/p" cfg/link
	run -125 --separate-stderr "$LR" "@$d/cfg/link" -- true
	[[ $stderr == *"@$d/cfg/link is not in a policy directory"* ]] || fail "$stderr"
	# A relative name in the policy directory is the file's.
	(cd "$P" && "$LR" @p -- true) || fail "@p from the policy directory"
	# A subdirectory of the policy directory is the policy directory's, unless others can write it.
	mkdir -m 0700 "$P/ci"
	cp cfg/p "$P/ci/p"
	run -0 "$LR" "@$P/ci/p" -- true
	chmod 0777 "$P/ci"
	run -125 --separate-stderr "$LR" "@$P/ci/p" -- true
	[[ $stderr == *"@$P/ci/p: its directory $P/ci is not yours or root's, or is writable by its group or by others"* ]] ||
		fail "$stderr"
	chmod 0770 "$P"
	run -125 --separate-stderr "$LR" "@$P/p" -- true
	[[ $stderr == *"its directory $P is not yours or root's"* ]] || fail "$stderr"
	# Control: the same file in the policy directory as it should be.
	chmod 0700 "$P"
	run -0 "$LR" "@$P/p" -- true
	# Without XDG_CONFIG_HOME, the directory is ~/.config/landlock-run.
	mkdir -p home/.config/landlock-run
	cp cfg/p home/.config/landlock-run/p
	run -0 env -u XDG_CONFIG_HOME HOME="$d/home" "$LR" "@$d/home/.config/landlock-run/p" -- true
	run -125 --separate-stderr env -u XDG_CONFIG_HOME HOME="$d/home" "$LR" "@$P/p" -- true
	[[ $stderr == *"move it to $d/home/.config/landlock-run/"* ]] || fail "$stderr"
}

@test "--rw on, above or inside the policy directory is refused by inode: through a symlink, a bind mount, before it exists" {
	policy_dir
	mkdir -m 0700 "$P/sub"
	ln -s "$P" plink
	ln -s "$XDG_CONFIG_HOME" clink
	for grant in "$d/plink" "$d/clink" "$d/plink/sub" /; do
		run -125 --separate-stderr "$LR" --ro / --rw "$grant" -- true
		assert_one_launcher_line
		[[ $stderr == *"--rw $grant is "*"the policy directory $P: "*"grant the directories the command writes, beside it"* ]] ||
			fail "$stderr"
	done
	run -125 --separate-stderr "$LR" --ro / --rw-try "$d/plink/sub" -- true
	[[ $stderr == *"--rw-try $d/plink/sub is inside the policy directory $P"* ]] || fail "$stderr"
	# --ro there is harmless, and so is --rw beside it.
	run -0 "$LR" --ro / --ro "$P" --rw "$d/ws" -- true
	# A second name for it by a bind mount, judged by inode.
	[ "$(id -u)" -eq 0 ] || skip "needs root to bind-mount"
	unshare --mount true 2>/dev/null || skip "no mount namespace here (unshare --mount)"
	mkdir alias
	run -125 --separate-stderr env LR="$LR" C="$XDG_CONFIG_HOME" A="$d/alias" unshare --mount sh -c \
		'mount --bind "$C" "$A" && "$LR" --ro / --rw "$A/landlock-run/sub" -- true'
	[[ $stderr == *"--rw $d/alias/landlock-run/sub is inside the policy directory $P"* ]] || fail "$stderr"
	run -0 env A="$d/alias" C="$XDG_CONFIG_HOME" unshare --mount sh -c \
		'mount --bind "$C" "$A" && touch "$A/landlock-run/sub/x"'
	assert_file_exist "$P/sub/x"
}

@test "attack: a --rw \$HOME run makes ~/.config/landlock-run and plants a policy: refused before it exists" {
	mkdir -p home/work
	export HOME=$d/home
	unset XDG_CONFIG_HOME
	# Control: what a --rw $HOME run could do, run without the launcher's check.
	(mkdir -p -m 0700 home/.config/landlock-run && printf -- '--ro=/\n--keep-caps\n' >home/.config/landlock-run/p)
	run -0 "$LR" "@$HOME/.config/landlock-run/p" -- true
	rm -r home/.config
	# The policy directory is not there: its nearest directory ($HOME) is guarded.
	run -125 --separate-stderr "$LR" --ro / --rw "$HOME" -- sh -c \
		'mkdir -p ~/.config/landlock-run && echo --keep-caps > ~/.config/landlock-run/p'
	assert_one_launcher_line
	[[ $stderr == *"--rw $HOME is above the policy directory $HOME/.config/landlock-run (not there yet: the command could make it)"* ]] ||
		fail "$stderr"
	assert_not_exist home/.config
	# A tree beside it stays grantable, and so is one beneath the nearest directory.
	run -0 "$LR" --ro / --rw "$HOME/work" -- touch "$HOME/work/f"
	mkdir home/.config
	run -0 "$LR" --ro / --rw "$HOME/work" -- true
	run -125 --separate-stderr "$LR" --ro / --rw "$HOME/.config" -- true
	[[ $stderr == *"--rw $HOME/.config is the policy directory"*"(not there yet"* ]] ||
		[[ $stderr == *"--rw $HOME/.config is above the policy directory"* ]] || fail "$stderr"
	# With --private-tmp the grants are still judged.
	run -125 --separate-stderr "$LR" --private-tmp --ro / --rw "$HOME" -- true
	[[ $stderr == *"is above the policy directory"* ]] || fail "$stderr"
}

@test "a policy someone else could change is refused: another owner, group or other write, a second name" {
	policy_dir
	printf -- '--ro=/\n' >"$P/p"
	run -0 "$LR" "@$P/p" -- true
	chmod g+w "$P/p"
	run -125 --separate-stderr "$LR" "@$P/p" -- true
	[[ $stderr == *"@$P/p is writable by its group or by others (mode 664)"* ]] || fail "$stderr"
	chmod 644 "$P/p"
	ln "$P/p" "$P/p2"
	run -125 --separate-stderr "$LR" "@$P/p" -- true
	[[ $stderr == *"has 2 names (hard links)"* ]] || fail "$stderr"
	rm "$P/p2"
	# A pipe from the caller is nobody else's; a FIFO by name is not a pipe handed over.
	run -0 bash -c 'cat "$2" | "$1" @/dev/stdin -- true' _ "$LR" "$P/p"
	run -0 bash -c '"$1" @<(cat "$2") -- true' _ "$LR" "$P/p"
	mkfifo fifo
	run -125 --separate-stderr bash -c '(cat "$2" > fifo &) ; "$1" @fifo -- true' _ "$LR" "$P/p"
	[[ $stderr == *"@fifo is not a regular file"* ]] || fail "$stderr"
	# Another owner's file is refused; root's serves another user (in a
	# directory nobody can reach: the bats directory is private).
	as_nobody
	chown 65534 "$P/p"
	run -125 --separate-stderr "$LR" "@$P/p" -- true
	[[ $stderr == *"@$P/p is owned by uid 65534"* ]] || fail "$stderr"
	chown 0 "$P/p"
	pub=$(mktemp -d /tmp/landlock-run-trust.XXXXXX)
	echo "$pub" >"$BATS_TEST_TMPDIR/cleanup"
	chmod 755 "$pub"
	mkdir -m 0755 "$pub/landlock-run"
	cp "$P/p" "$pub/landlock-run/"
	run -0 "${AS_NOBODY[@]}" env XDG_CONFIG_HOME="$pub" "$LR" "@$pub/landlock-run/p" -- true
	# Control: outside a policy directory of nobody's, the same root-owned file is refused.
	cp "$P/p" "$pub/"
	run -125 "${AS_NOBODY[@]}" env XDG_CONFIG_HOME="$pub" "$LR" "@$pub/p" -- true
}

# ---- the status descriptor ---------------------------------------------------

@test "--status-fd: a forged launcher failure and a real one, told apart by the descriptor alone" {
	# The command forges the launcher's line and status: stderr and status cannot tell.
	run -125 --separate-stderr "$LR" --status-fd 3 --ro / -- sh -c \
		'echo "landlock-run: cannot open --rw path /x: No such file or directory" >&2; exit 125' 3>forged
	assert_one_launcher_line
	# The real one.
	run -125 --separate-stderr "$LR" --status-fd 3 --ro / --rw "$d/nonexistent" -- true 3>real
	assert_one_launcher_line
	# The descriptor: the forger ran (a pid line, nothing after it); the real failure did not.
	run -0 "$PYTHON" -c 'import json, sys
forged = [json.loads(l) for l in open(sys.argv[1])]
real = [json.loads(l) for l in open(sys.argv[2])]
assert len(forged) == 3 and sorted(forged[0]) == ["abi", "abi_used", "enforcement", "pid"], forged
assert forged[1:] == [{"exec": True, "pid": forged[0]["pid"]}, {"exit": 125}], forged
assert len(real) == 2 and real[0]["exec"] is False and real[0]["status"] == 125, real
assert real[1] == {"exit": 125}, real' forged real
	grep -q '"error":"landlock-run: cannot open --rw path '"$d"'/nonexistent: No such file or directory"' real ||
		fail "$(cat real)"
}

@test "--status-fd: the pid is the command's, 126 and 127 are failure lines, and the command never holds FD" {
	run -0 "$LR" --status-fd 8 --ro / -- sh -c 'echo $$; test ! -e /proc/$$/fd/8 || echo holds' 8>st
	assert_equal "$(sed -n 1p st)" "{\"pid\":${lines[0]},\"abi\":$KABI,\"abi_used\":$KUSED,\"enforcement\":\"$(
		[ "$KUSED" -ge "$FULL_ABI" ] && echo full || echo partial)\"}"
	assert_equal "$(sed -n '2,$p' st)" "{\"exec\":true,\"pid\":${lines[0]}}"$'\n''{"exit":0}'
	assert_equal "${#lines[@]}" 1
	run -127 "$LR" --status-fd 3 --ro / -- "$d/no-such-command" 3>st
	assert_equal "$(sed -n 2p st)" "{\"exec\":false,\"status\":127,\"error\":\"landlock-run: cannot run $d/no-such-command: command not found\"}"
	assert_equal "$(sed -n '3,$p' st)" '{"exit":127}'
	printf '#!/bin/sh\n' >script
	chmod 644 script
	run -126 "$LR" --status-fd 3 --ro / -- "$d/script" 3>st
	grep -q '^{"exec":false,"status":126,"error":"landlock-run: cannot execute ' st || fail "$(cat st)"
	# The error is the stderr line, a quote kept and a control byte made '?' as there.
	run -127 --separate-stderr "$LR" --status-fd 3 --ro / -- "$d/a\"b"$'\n' 3>st
	"$PYTHON" -c 'import json,sys; l=[json.loads(x) for x in open(sys.argv[1])]; assert l[1]["error"] == sys.argv[2], l' \
		st "$stderr"
}

# The README's recipe once read 3>status.json from inside the workspace: a
# file the command can append to, after the launcher's real lines.
forged_failure='echo "{\"exec\":false,\"status\":125,\"error\":\"landlock-run: forged\"}" >>"$1/status.json"; touch "$1/ran"'

# What the contract says of the status lines in FILE: "executed" when a pid
# line came and no "exec":false line after it, else "not executed".
contract() {
	"$PYTHON" -c 'import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
pid = [i for i, o in enumerate(lines) if "pid" in o and "exec" not in o]
failed = [i for i, o in enumerate(lines) if o.get("exec") is False]
print("executed" if pid and not [i for i in failed if i > pid[0]] else "not executed")' "$1"
}

@test "attack: the command appends a forged failure to a status file it can write; refused before it runs" {
	# Control: the status lines land in a file in the workspace (a pipe the launcher
	# cannot see through): the command ran, and the file says it never did. The
	# command waits for cat to append the pid line, as an attacker would.
	local after_pid='for i in $(seq 500); do grep -q "\"pid\"" "$1/status.json" 2>/dev/null && break; sleep 0.01; done; '
	run -0 bash -o pipefail -c '"$1" --status-fd 3 --ro / --rw "$2" -- sh -c "$3" _ "$2" 3>&1 >/dev/null |
		cat >>"$2/status.json"' _ "$LR" "$d/ws" "$after_pid$forged_failure"
	assert_exist ws/ran
	grep -q '"error":"landlock-run: forged"' ws/status.json || fail "$(cat ws/status.json)"
	assert_equal "$(contract ws/status.json)" "not executed"
	rm ws/ran ws/status.json
	# The recipe as it was: refused with 125 before the command runs, the reason on the descriptor.
	run -125 --separate-stderr "$LR" --status-fd 3 --ro / --rw "$d/ws" -- sh -c "$forged_failure" _ "$d/ws" \
		3>ws/status.json
	assert_one_launcher_line
	[[ $stderr == "landlock-run: --status-fd 3: --rw $d/ws lets COMMAND write its file $d/ws/status.json, and forge the status: hand over a pipe or a socket"* ]] ||
		fail "$stderr"
	assert_not_exist ws/ran
	assert_equal "$(tail -n1 ws/status.json)" '{"exit":125}'
	# Judged by inode: through a symlink to the workspace, through a grant above it, a second name.
	ln -s "$d/ws" link
	run -125 --separate-stderr "$LR" --status-fd 3 --ro / --rw "$d" -- true 3>link/status.json
	[[ $stderr == *"--status-fd 3: --rw $d lets COMMAND write its file $d/ws/status.json"* ]] || fail "$stderr"
	: >out/st && ln out/st ws/st2
	run -125 --separate-stderr "$LR" --status-fd 3 --ro / --rw "$d/ws" -- true 3>>out/st
	[[ $stderr == *"--status-fd 3: its file has 2 names (hard links)"* ]] || fail "$stderr"
	rm -f ws/st2 out/st ws/status.json
	# The fixed recipe: a pipe the command does not hold, or a file outside every write grant.
	run -0 bash -o pipefail -c '"$1" --status-fd 3 --ro / --rw "$2" -- sh -c "$3" _ "$2" 3>&1 >/dev/null |
		cat >"$4/st"' _ "$LR" "$d/ws" "$forged_failure" "$d/out"
	assert_exist ws/ran
	assert_equal "$(contract out/st)" executed
	assert_equal "$(tail -n1 out/st)" '{"exit":0}'
	rm ws/ran
	run -0 "$LR" --status-fd 3 --ro / --rw "$d/ws" -- sh -c "$forged_failure" _ "$d/ws" 3>out/st2
	assert_equal "$(contract out/st2)" executed
	refute grep -q forged out/st2
}

@test "--status-fd: the end record comes once the whole tree is gone, then end of file: exit, signal, traced" {
	left='sleep 300 & echo $! >"$1/left"; '
	for mode in "" --explain; do
		# the pipeline ends at the end of file: by then the leftover is gone
		run -3 bash -o pipefail -c '"$1" --status-fd 3 $4 --ro / --rw "$2" -- sh -c "$3 exit 3" _ "$2" \
			3>&1 >/dev/null | cat >"$2/../out/st"' _ "$LR" "$d/ws" "$left" "$mode"
		assert_equal "$(tail -n1 out/st)" '{"exit":3}'
		run ! kill -0 "$(cat ws/left)"
		grep -q '^{"exec":true,"pid":' out/st || fail "$(cat out/st)"
		run -143 "$LR" --status-fd 3 $mode --ro / -- sh -c 'kill -TERM $$' 3>out/st
		assert_equal "$(tail -n1 out/st)" '{"signal":"SIGTERM"}'
		run -137 "$LR" --status-fd 3 $mode --ro / -- sh -c 'kill -KILL $$' 3>out/st
		assert_equal "$(tail -n1 out/st)" '{"signal":"SIGKILL"}'
	done
	# The launcher killed: the supervisor ends the tree and says how the run ended.
	"$LR" --status-fd 3 --ro / -- sleep 300 3>out/st &
	l=$!
	for _ in $(seq 100); do grep -q exec out/st && break; sleep 0.05; done
	kill -KILL "$l"
	for _ in $(seq 100); do grep -q signal out/st && break; sleep 0.05; done
	assert_equal "$(tail -n1 out/st)" '{"signal":"SIGKILL"}'
	pid=$(sed -n 's/^{"exec":true,"pid":\([0-9]*\)}$/\1/p' out/st)
	[ -n "$pid" ] || fail "$(cat out/st)"
	run ! kill -0 "$pid"
}

@test "--status-fd with --explain and --learn: the child's pid, then exec:true; a failure after exec says so" {
	run -0 "$LR" --status-fd 3 --explain --ro / -- sh -c 'echo $$' 3>st
	assert_equal "$(sed -n 2p st)" "{\"exec\":true,\"pid\":$output}"
	grep -q "^{\"pid\":$output," st || fail "$(cat st)"
	run -127 "$LR" --status-fd 3 --explain --ro / -- "$d/none" 3>st
	assert_equal "$(grep -c exec st)" 1
	grep -q '"exec":false,"status":127' st || fail "$(cat st)"
	# --learn: enforcement none; a policy it cannot write after the run is exec:true, 125.
	policy_dir
	mkdir -m 0700 "$P/sub"
	run -0 "$LR" --status-fd 3 --learn "$P/sub/p" -- true 3>st
	grep -q '"enforcement":"none"' st || fail "$(cat st)"
	run -125 --separate-stderr "$LR" --status-fd 3 --learn "$P/sub/p" -- rm -r "$P/sub" 3>st
	assert_one_launcher_line
	assert_equal "$(sed -n 2p st)" "{\"exec\":true,\"pid\":$(sed -n 's/^{"pid":\([0-9]*\).*/\1/p' st)}"
	grep -q '^{"exec":true,"status":125,"error":"landlock-run: cannot write the --learn file ' st ||
		fail "$(cat st)"
}

# The tracer holds the status descriptor (and a report's pipe) while the
# command runs as its child and as its user: /proc/TRACER/fd/N would be the
# command's way to it, and under --learn no ruleset stands in the way.
@test "--status-fd with --explain and --learn: the command cannot write the tracer's descriptor through /proc" {
	forge='echo FORGED >/proc/$PPID/fd/3 || echo refused'
	# control: a parent of the same user without the launcher is reachable so
	sh -c "sh -c '$forge'" 3>ctl
	assert_equal "$(cat ctl)" FORGED
	run -0 "$LR" --status-fd 3 --learn "$d/p" -- sh -c "$forge" 3>st
	assert_output --partial refused
	refute grep -q FORGED st
	run -0 "$LR" --status-fd 3 --explain --ro / --rw /dev/null -- sh -c "$forge" 3>st
	assert_output --partial refused
	refute grep -q FORGED st
	# as nobody, the tracer unprivileged from the start
	as_nobody
	out=$(mktemp -d /tmp/landlock-run-trust.XXXXXX)
	echo "$out" >"$BATS_TEST_TMPDIR/cleanup"
	chmod 1777 "$out"
	run -0 "${AS_NOBODY[@]}" "$LR" --status-fd 3 --learn "$out/p" -- sh -c "$forge" 3>"$out/st"
	assert_output --partial refused
	refute grep -q FORGED "$out/st"
}

@test "--status-fd refuses stdin, stdout, stderr, a copy of one, a closed descriptor, and --probe" {
	run -125 --separate-stderr "$LR" --status-fd 2 -- true
	[[ $stderr == *"--status-fd 2: descriptor 2 is stdin, stdout or stderr"* ]] || fail "$stderr"
	run -125 --separate-stderr bash -c '"$1" --status-fd 4 -- true 4>&2' _ "$LR"
	[[ $stderr == *"descriptor 4 is the same file as descriptor 2"* ]] || fail "$stderr"
	run -125 --separate-stderr "$LR" --status-fd 9 -- true
	[[ $stderr == *"--status-fd 9: Bad file descriptor"* ]] || fail "$stderr"
	run -125 --separate-stderr "$LR" --status-fd x3 -- true
	[[ $stderr == *"--status-fd: invalid descriptor 'x3'"* ]] || fail "$stderr"
	run -125 --separate-stderr "$LR" --status-fd 3 --probe 3>st
	[[ $stderr == *"--probe runs no command: remove --status-fd"* ]] || fail "$stderr"
	grep -q '"exec":false,"status":125' st || fail "$(cat st)"
}
