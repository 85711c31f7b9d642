#!/usr/bin/env bats
# The launcher's sources follow the checked-in .clang-format, so style is never
# a review topic; and docs/development.md's figure for them follows the files.
load helpers

@test "every C file in the tree is clang-formatted (make format fixes them)" {
	cd "$BATS_TEST_DIRNAME/.."
	run clang-format --dry-run -Werror $(git ls-files '*.c' '*.h')
	assert_success
}

# docs/development.md's Layout gives the size of what a plain run executes, the
# audit surface; a change to those files changes the figure with it.
@test "the Layout's line count of the confinement path is what wc -l counts" {
	cd "$BATS_TEST_DIRNAME/.."
	local files n
	files=$(make -s print-srcs | tr ' ' '\n' | grep -v -e '^trace/' -e '^probe\.c$')
	# shellcheck disable=SC2086 # one file name per word
	n=$(cat $files ./*.h platform/linux-x64.h | wc -l)
	n=$(echo "$n" | sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta')
	run grep -c "the audit surface of the sandbox: $n lines" docs/development.md
	assert_output 1
}

# docs/development.md's Layout tables list the confinement path's files, and the tracer's, so
# that each calls only those below it: no two of them call each other, however
# indirectly. (A table's FIRST row to its LAST: the C files in between.)
calls_only_below() {
	local first=$1 last=$2 files=() f g i j sym
	cd "$BATS_TEST_DIRNAME/.."
	mapfile -t files < <(sed -n "/$first/,/$last/p" docs/development.md |
		sed -n 's/^| `\([a-z/-]*\.c\)` |.*/\1/p')
	[ "${#files[@]}" -ge 10 ] || fail "the table lists ${#files[@]} C files"
	for f in "${files[@]}"; do
		musl-gcc -std=c11 -c -DLR_VERSION='"test"' -o "$BATS_TEST_TMPDIR/${f//\//_}.o" "$f" ||
			fail "cannot compile $f"
		nm --defined-only "$BATS_TEST_TMPDIR/${f//\//_}.o" | awk '$2 ~ /[TDRB]/ {print $3}' \
			>"$BATS_TEST_TMPDIR/${f//\//_}.defs"
	done
	for ((i = 0; i < ${#files[@]}; i++)); do
		f=${files[i]}
		for sym in $(nm -u "$BATS_TEST_TMPDIR/${f//\//_}.o" | awk '{print $2}'); do
			for ((j = 0; j < i; j++)); do
				g=${files[j]}
				! grep -qx "$sym" "$BATS_TEST_TMPDIR/${g//\//_}.defs" ||
					fail "$f calls $sym of $g, which the table lists above it"
			done
		done
	done
}

@test "the Layout's confinement path: each file calls only the files below it in the table" {
	calls_only_below '^\*\*The confinement path' '^`probe\.c`'
}

@test "the Layout's tracer: each of trace/'s files calls only the files below it in the table" {
	calls_only_below '^| `trace\/trace\.h`' '^| `trace\/tracer\.h`'
}

# Every C file includes the headers of the files it calls, and no header but
# the writer's is in nearly every file: none is everyone's dictionary.
@test "no header of the launcher is included by every C file" {
	cd "$BATS_TEST_DIRNAME/.."
	local srcs n h count
	srcs=$(make -s print-srcs)
	n=$(wc -w <<<"$srcs")
	for h in $(git ls-files '*.h' | grep -v -e '^platform/' -e '^tests/'); do
		# shellcheck disable=SC2086 # one file name per word
		count=$(grep -l -E "^#include \"(\.\./)?${h##*/}\"" $srcs | wc -l)
		[ "$count" -lt "$n" ] || fail "$h is included by all $n C files"
	done
	[ ! -e landlock-run.h ] || fail "landlock-run.h is back: put a type in the header of its concept"
}
