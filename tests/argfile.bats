#!/usr/bin/env bats
# @FILE arguments: a policy kept in a file, one argument per line, expanded
# before -- only; errors name the file and the line, and nothing runs.
load helpers
bats_require_minimum_version 1.5.0

setup() {
	require_landlock
	policy_dir
	cd "$BATS_TEST_TMPDIR"
	mkdir -p ok no 'with space'
	m=$BATS_TEST_TMPDIR/ran
}

# file_error NAME FILE-CONTENT WORDS...: with an @FILE holding CONTENT the
# launcher exits 125 with one line naming @$P/NAME and containing WORDS; the
# command (which would create $m) never runs.
file_error() {
	local name=$1 content=$2 word
	shift 2
	printf '%b' "$content" >"$P/$name"
	run -125 --separate-stderr "$LR" "@$P/$name" -- touch "$m"
	assert_one_launcher_line
	for word in "@$P/$name" "$@"; do
		[[ $stderr == *"$word"* ]] || fail "the line lacks '$word': $stderr"
	done
	assert_not_exist "$m"
}

@test "@FILE: one argument per line; blank lines, blank-looking lines and # comments are skipped" {
	printf '# a policy\n\n--ro=/\n   \n\t\n--rw\n%s/ok\n  # indented\n' "$PWD" >"$P/policy"
	# "  # indented" is neither blank nor a comment (# must come first): it is an
	# argument, which the parser refuses as a command without --.
	run -125 --separate-stderr "$LR" "@$P/policy" -- true
	assert_one_launcher_line
	[[ $stderr == *"@$P/policy line 8"* ]] || fail "$stderr"
	sed -i '$d' "$P/policy"
	run -0 --separate-stderr "$LR" "@$P/policy" -- sh -c 'echo in > ok/f'
	assert_equal "$stderr" ""
	assert_equal "$(cat ok/f)" in
	# The same policy confines: a write outside ok/ is denied.
	run -2 --separate-stderr "$LR" "@$P/policy" -- sh -c 'echo out > no/f'
	[[ $stderr == *"Permission denied"* ]] || fail "$stderr"
	assert_not_exist no/f
}

@test "@FILE: no quoting, so a path with spaces is one line; the last line needs no newline" {
	printf -- '--ro=/\n--rw\n%s/with space' "$PWD" >"$P/policy"
	run -0 "$LR" "@$P/policy" -- sh -c 'echo x > "with space/f"'
	assert_equal "$(cat 'with space/f')" x
	# Control: a line "--rw PATH" is one argument, not an option and a path.
	printf -- '--rw %s/ok\n' "$PWD" >"$P/oneline"
	run -125 --separate-stderr "$LR" "@$P/oneline" -- touch "$m"
	assert_one_launcher_line
	[[ $stderr == *"unknown option --rw $PWD/ok (@$P/oneline line 1)"* ]] || fail "$stderr"
}

@test "@FILE: files and command-line options mix in order, and a file may be given twice" {
	printf -- '--ro=/\n' >"$P/ro"
	printf -- '--rw=%s/ok\n' "$PWD" >"$P/rw"
	run -0 "$LR" "@$P/ro" --rw "$PWD/no" "@$P/rw" "@$P/ro" -- sh -c 'echo a > ok/a && echo b > no/b'
	assert_equal "$(cat ok/a)$(cat no/b)" ab
	# An option in a file may take its argument from the command line.
	printf -- '--rw\n' >"$P/half"
	run -0 "$LR" "@$P/half" "$PWD/ok" -- sh -c 'echo c > ok/c'
	assert_equal "$(cat ok/c)" c
}

@test "@FILE: after -- an @ argument belongs to the command, and a path starting with @ is written ./@" {
	printf -- '--ro=/\n' >"$P/policy"
	run -0 --separate-stderr "$LR" "@$P/policy" -- printf '%s\n' @policy @nosuchfile
	assert_output $'@policy\n@nosuchfile'
	mkdir @dir
	run -0 "$LR" --rw ./@dir -- sh -c 'echo x > @dir/f'
	assert_equal "$(cat @dir/f)" x
}

@test "@FILE: a pipe works (@/dev/stdin)" {
	printf -- '--ro=/\n--rw=%s/ok\n' "$PWD" |
		"$LR" @/dev/stdin -- sh -c 'echo piped > ok/p'
	assert_equal "$(cat ok/p)" piped
}

@test "@FILE errors: 125, one line naming the file (and the line), and nothing runs" {
	run -125 --separate-stderr "$LR" "@$P/missing" -- touch "$m"
	assert_one_launcher_line
	[[ $stderr == *"@$P/missing: No such file or directory"* ]] || fail "$stderr"
	assert_not_exist "$m"
	run -125 --separate-stderr "$LR" @ -- touch "$m"
	assert_one_launcher_line
	[[ $stderr == *"'@' names no file"* ]] || fail "$stderr"
	mkdir "$P/adir"
	run -125 --separate-stderr "$LR" "@$P/adir" -- touch "$m"
	assert_one_launcher_line
	[[ $stderr == *"@$P/adir: Is a directory"* ]] || fail "$stderr"
	file_error nested '--ro=/\n@other\n' "line 2" "do not nest"
	file_error dashdash '--ro=/\n--\n' "line 2" "'--'"
	file_error nul '--ro=/\n--rw=/tmp\0x\n' "line 2" "NUL"
	file_error unknown '# c\n--ro=/\n--bogus\n' "line 3" "--bogus"
	file_error abbrev '--str\n' "line 1" "abbreviated"
	file_error port '\n--tcp-bind=99999\n' "line 2" "99999"
	file_error scope '--scope=nope\n' "line 1" "nope"
	file_error abi '--abi=x\n' "line 1" "'x'"
	file_error noarg '--rw=\n' "line 1" "needs an argument"
	file_error value '--strict=1\n' "line 1" "takes no argument"
	file_error command 'touch\n' "line 1" "missing --"
}

@test "@FILE lifts the argv size limit: 100,000 grants that no command line could carry" {
	local n=100000
	mkdir g
	(cd g && seq 0 499 | xargs mkdir)
	{
		echo "--ro=/"
		for ((i = 0; i < n; i++)); do echo "--ro=$PWD/g/$((i % 500))"; done
		echo "--rw=$PWD/ok"
	} >"$P/big"
	[ "$(stat -c %s "$P/big")" -gt "$(getconf ARG_MAX)" ] || fail "the policy is smaller than ARG_MAX"
	# Control: the same arguments on the command line are too big for execve.
	local args
	mapfile -t args <"$P/big"
	run -126 "$LR" "${args[@]}" -- true
	assert_output --partial "Argument list too long"
	run -0 --separate-stderr "$LR" "@$P/big" -- sh -c 'echo big > ok/f'
	assert_equal "$stderr" ""
	assert_equal "$(cat ok/f)" big
	run -0 --separate-stderr "$LR" -v "@$P/big" -- true
	assert_equal "$(grep -c '^landlock-run grant: --ro ' <<<"$stderr")" $((n + 1))
}
