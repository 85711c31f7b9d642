#!/usr/bin/env bats
# The launcher's sources follow the checked-in .clang-format, so style is never
# a review topic.
load helpers

@test "every C file in the tree is clang-formatted (make format fixes them)" {
	cd "$BATS_TEST_DIRNAME/.."
	run clang-format --dry-run -Werror $(git ls-files '*.c' '*.h')
	assert_success
}
