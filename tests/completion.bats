#!/usr/bin/env bats
# Shell completion (completions/): bash and zsh offer exactly the options that
# `landlock-run --help` lists, so an option added without its completion fails
# here, and bash completes the values and the command after `--`.
load helpers

COMPLETIONS=$BATS_TEST_DIRNAME/../completions

# help_options: every option `--help` lists (-v and --verbose separately), sorted.
help_options() {
	"$LR" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--?[a-zA-Z][a-z-]*' | sort
}

# bash_complete WORD...: what the bash completion offers for the last WORD, one per line.
# BASH_COMPLETION=1 loads the bash-completion library first (its _command_offset).
bash_complete() {
	bash -c '[ -z "$BASH_COMPLETION" ] || . /usr/share/bash-completion/bash_completion
		. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)) COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_landlock_run 2>/dev/null; printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPLETIONS/landlock-run.bash" landlock-run "$@"
}

@test "bash completion offers exactly the options of --help, and --" {
	run bash_complete -
	assert_success
	assert_equal "$(sort <<<"$output")" "$( (help_options; echo --) | sort)"
}

@test "zsh completion has a spec for exactly the options of --help, and loads" {
	# a spec is '...--name=[' or '...--name[' or {-v,--verbose}'[...'
	specs=$(grep -oP -- "(?<=[{,'*])--?[a-zA-Z][a-z-]*(?=[\[=,}])" "$COMPLETIONS/_landlock-run" |
		grep -oE -- '--?[a-zA-Z][a-z-]*' | sort -u)
	assert_equal "$specs" "$(help_options)"
	run zsh -n "$COMPLETIONS/_landlock-run"
	assert_success
	run zsh -f -c 'fpath=("$1" $fpath); autoload -Uz compinit; compinit -u -d "$2"; print -r -- $_comps[landlock-run]' \
		_ "$COMPLETIONS" "$BATS_TEST_TMPDIR/zcompdump"
	assert_output _landlock-run
}

@test "bash completion: option values, and @FILE" {
	mkdir "$BATS_TEST_TMPDIR/grant-dir"
	run bash_complete --ro "$BATS_TEST_TMPDIR/grant-d"
	assert_output "$BATS_TEST_TMPDIR/grant-dir"
	run bash_complete --rw-try "$BATS_TEST_TMPDIR/grant-d"
	assert_output "$BATS_TEST_TMPDIR/grant-dir"
	run bash_complete --tcp-connect n
	assert_output none
	run bash_complete --scope sig
	assert_output signal
	run bash_complete --scope signal,ab
	assert_output signal,abstract-unix
	run bash_complete --allow-syscalls io_uring,user
	assert_output "io_uring,userns
io_uring,userfaultfd"
	run bash_complete --allow-syscalls me
	assert_output metadata
	run bash_complete --abi ''
	assert_output ''
	touch "$BATS_TEST_TMPDIR/policy.args"
	run bash_complete --ro / "@$BATS_TEST_TMPDIR/policy.a"
	assert_output "@$BATS_TEST_TMPDIR/policy.args"
	run bash_complete --ro / @ "$BATS_TEST_TMPDIR/policy.a" # as bash splits the line
	assert_output "$BATS_TEST_TMPDIR/policy.args"
}

@test "bash completion: after --, the command and its arguments, with and without bash-completion" {
	for lib in '' 1; do
		BASH_COMPLETION=$lib run bash_complete --ro / -- ech
		assert_line echo
		mkdir -p "$BATS_TEST_TMPDIR/args"
		touch "$BATS_TEST_TMPDIR/args/file-$lib"
		BASH_COMPLETION=$lib run bash_complete --ro / -- cat "$BATS_TEST_TMPDIR/args/fi"
		assert_line "$BATS_TEST_TMPDIR/args/file-$lib"
		# an option after -- is the command's, not landlock-run's
		BASH_COMPLETION=$lib run bash_complete -- ls --ro
		[[ $output != *--ro* ]]
	done
}

@test "make install puts the completions where bash-completion and zsh look" {
	run make -s -C "$BATS_TEST_DIRNAME/.." install DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/usr
	assert_success
	cmp "$COMPLETIONS/landlock-run.bash" "$BATS_TEST_TMPDIR/root/usr/share/bash-completion/completions/landlock-run"
	cmp "$COMPLETIONS/_landlock-run" "$BATS_TEST_TMPDIR/root/usr/share/zsh/site-functions/_landlock-run"
	run make -s -C "$BATS_TEST_DIRNAME/.." uninstall DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/usr
	assert_success
	run find "$BATS_TEST_TMPDIR/root" -type f
	assert_output ''
}
