#!/usr/bin/env bats
# The launcher's sources follow the checked-in .clang-format, so style is never
# a review topic.
load helpers

@test "C sources are clang-formatted (make format fixes them)" {
	cd "$BATS_TEST_DIRNAME/.."
	run clang-format --dry-run -Werror ./*.c ./*.h tests/*.c tests/*.h tests/fuzz/*.c tests/fuzz/*.h
	assert_success
}
