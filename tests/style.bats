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

# The Layout table lists the confinement path's files so that each calls only
# those below it: no two of them call each other, however indirectly.
@test "the README's confinement path: each file calls only the files below it in the table" {
	cd "$BATS_TEST_DIRNAME/.."
	local files=() f g i j sym
	mapfile -t files < <(sed -n '/^Layout\. \*\*The confinement path/,/^`probe\.c`/p' README.md |
		sed -n 's/^| `\([a-z-]*\.c\)` |.*/\1/p')
	[ "${#files[@]}" -ge 10 ] || fail "the table lists ${#files[@]} C files"
	for f in "${files[@]}"; do
		musl-gcc -std=c11 -c -DLR_VERSION='"test"' -o "$BATS_TEST_TMPDIR/${f%.c}.o" "$f" ||
			fail "cannot compile $f"
		nm --defined-only "$BATS_TEST_TMPDIR/${f%.c}.o" | awk '$2 ~ /[TDRB]/ {print $3}' \
			>"$BATS_TEST_TMPDIR/${f%.c}.defs"
	done
	for ((i = 0; i < ${#files[@]}; i++)); do
		f=${files[i]}
		for sym in $(nm -u "$BATS_TEST_TMPDIR/${f%.c}.o" | awk '{print $2}'); do
			for ((j = 0; j < i; j++)); do
				g=${files[j]}
				! grep -qx "$sym" "$BATS_TEST_TMPDIR/${g%.c}.defs" ||
					fail "$f calls $sym of $g, which the table lists above it"
			done
		done
	done
}
