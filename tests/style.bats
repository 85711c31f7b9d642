#!/usr/bin/env bats
# The launcher's sources follow the checked-in .clang-format, so style is never
# a review topic; and the README's figure for them follows the files.
load helpers

@test "every C file in the tree is clang-formatted (make format fixes them)" {
	cd "$BATS_TEST_DIRNAME/.."
	run clang-format --dry-run -Werror $(git ls-files '*.c' '*.h')
	assert_success
}

# The README's Layout gives the size of what a plain run executes, the audit
# surface; a change to those files changes the figure with it.
@test "the README's line count of the confinement path is what wc -l counts" {
	cd "$BATS_TEST_DIRNAME/.."
	local files n
	files=$(make -s print-srcs | tr ' ' '\n' | grep -v -e '^trace/' -e '^probe\.c$')
	# shellcheck disable=SC2086 # one file name per word
	n=$(cat $files ./*.h platform/linux-x64.h | wc -l)
	n=$(echo "$n" | sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta')
	run grep -c "the audit surface of the sandbox: $n lines" README.md
	assert_output 1
}
