#!/usr/bin/env bats
# The README is the newcomer's page: every recipe runs as pasted, and every
# number and option it names is true of this build.
load helpers

README=$BATS_TEST_DIRNAME/../README.md

# The command column of the recipe table, one row a line, unescaped as
# markdown shows it (\| is |).
recipes() {
	sed -n '/^<!-- recipes: begin/,/^<!-- recipes: end/p' "$README" |
		grep '^| ' | tail -n +2 | sed -E 's/^\|[^`]*\| `(.*)` \|$/\1/; s/\\\|/|/g'
}

# A place to paste into: landlock-run on PATH is the build under test, HOME a
# fresh one, WORKSPACE a directory with a Makefile, and CMD a shell command.
setup() {
	require_landlock
	mkdir -p "$BATS_TEST_TMPDIR/bin" "$BATS_TEST_TMPDIR/home" "$BATS_TEST_TMPDIR/ws"
	ln -sf "$(realpath "$LR")" "$BATS_TEST_TMPDIR/bin/landlock-run"
	printf 'all:\n\techo built > built.txt\n' >"$BATS_TEST_TMPDIR/ws/Makefile"
}

# paste CMD RECIPE: run RECIPE in bash as a user would paste it, from a fresh
# directory, with $CMD set to CMD.
paste_recipe() {
	local cmd=$1 recipe=$2
	mkdir -p "$BATS_TEST_TMPDIR/cwd"
	run --separate-stderr env -C "$BATS_TEST_TMPDIR/cwd" \
		PATH="$BATS_TEST_TMPDIR/bin:$PATH" HOME="$BATS_TEST_TMPDIR/home" \
		WORKSPACE="$BATS_TEST_TMPDIR/ws" CMD="$cmd" bash -c "$recipe"
}

@test "the README has a recipe table, and it is short enough to read in a minute" {
	[ "$(recipes | wc -l)" -ge 6 ] || fail "recipes: $(recipes)"
	[ "$(wc -l <"$README")" -le 300 ] || fail "the README has $(wc -l <"$README") lines"
}

@test "every recipe runs as pasted and exits 0" {
	local recipe
	while IFS= read -r recipe; do
		paste_recipe 'echo ok' "$recipe"
		[ "$status" -eq 0 ] || fail "exit $status: $recipe: $stderr"
	done < <(recipes)
}

@test "the first recipe answers the harness question: credentials hidden, workspace writable, no network, a status" {
	local first status_file=$BATS_TEST_TMPDIR/cwd/status.jsonl i
	first=$(recipes | head -1)
	mkdir -p "$BATS_TEST_TMPDIR/home/.ssh"
	echo secret >"$BATS_TEST_TMPDIR/home/.ssh/id_test"
	# Control: the same command without the launcher reads the key.
	run cat "$BATS_TEST_TMPDIR/home/.ssh/id_test"
	assert_output secret
	paste_recipe 'cat ~/.ssh/id_test' "$first"
	[ "$status" -ne 0 ] || fail "the key was read: $output"
	refute_output --partial secret
	paste_recipe 'echo made > "$WORKSPACE/made.txt" && ! echo x > "$HOME/outside.txt"' "$first"
	assert_success
	assert_file_exists "$BATS_TEST_TMPDIR/ws/made.txt"
	assert_file_not_exists "$BATS_TEST_TMPDIR/home/outside.txt"
	paste_recipe "$PYTHON -c 'import socket; socket.socket(socket.AF_INET)'" "$first"
	assert_failure
	# nor a UNIX socket (an ssh-agent's, docker.sock, a relay out): control first
	run "$PYTHON" -c 'import socket; socket.socket(socket.AF_UNIX)'
	assert_success
	paste_recipe "$PYTHON -c 'import socket; socket.socket(socket.AF_UNIX)'" "$first"
	assert_failure
	# Temporary files go to a directory of the run's own, gone afterwards; the
	# host's /tmp (another program's file there) is out of reach. Control: without
	# the launcher the file reads.
	echo other >"$BATS_TEST_TMPDIR/other-run.txt"
	chmod 644 "$BATS_TEST_TMPDIR/other-run.txt"
	paste_recipe 'mktemp && echo "$TMPDIR"' "$first"
	assert_success
	[[ ${lines[1]} == /tmp/landlock-run.* && ${lines[0]} == "${lines[1]}"/* ]] || fail "$output"
	assert_file_not_exists "${lines[1]}"
	run cat "$BATS_TEST_TMPDIR/other-run.txt"
	assert_output other
	paste_recipe "cat '$BATS_TEST_TMPDIR/other-run.txt'" "$first"
	assert_failure
	refute_output other
	# The status arrives on a pipe (the process substitution), never a file the
	# command holds: the pid line, and no line saying the command never ran.
	for i in $(seq 50); do grep -q '"pid":' "$status_file" 2>/dev/null && break; sleep 0.1; done
	grep -q '"pid":' "$status_file" || fail "status: $(cat "$status_file" 2>&1)"
	! grep -q '"exec":false' "$status_file" || fail "status: $(cat "$status_file")"
}

@test "the README's size is the size budget the build holds it to, and the binary keeps it" {
	local budget kib
	budget=$(sed -n 's/^SIZE_BUDGET=//p' "$BATS_TEST_DIRNAME/../platform/linux-x64.env")
	kib=$(grep -o 'under [0-9]* KiB on x86_64' "$README" | cut -d' ' -f2)
	assert_equal "$kib" "$((budget / 1024))"
	[ "$(stat -c %s "$BATS_TEST_DIRNAME/../build/x86_64/landlock-run")" -le "$budget" ]
}

@test "the README's version is this build's" {
	local version
	version=$(cat "$BATS_TEST_DIRNAME/../VERSION")
	run bash -c "grep -o '[0-9]\+\.[0-9]\+\.[0-9]\+' '$README' | sort -u"
	assert_output "$version"
}

@test "every option the README names is one that --help lists" {
	local help opt
	help=$("$LR" --help)
	for opt in $(grep -o -- '--[a-z][a-z-]*' "$README" | sort -u); do
		case $opt in --no-index | --list) continue ;; esac # pip's, scripts/setup.sh's
		grep -q -- "$opt\b" <<<"$help" || fail "$opt is in the README, not in --help"
	done
}

@test "every file the README links to is in the tree" {
	local link
	for link in $(grep -o '](\([^)#]*\))' "$README" | sed 's/^](//; s/)$//' | grep -v '^https\?:'); do
		[ -e "$BATS_TEST_DIRNAME/../$link" ] || fail "the README links to $link, which is not there"
	done
}
