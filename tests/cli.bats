#!/usr/bin/env bats
# The command line: usage errors (125, one line, nothing runs), --help,
# --version, make install with the man page, and the shape of the binary.
load helpers

REPO=$BATS_TEST_DIRNAME/..
# The product itself (LR_BIN may point $LR at an instrumented build).
BIN=$REPO/landlock-run

setup() {
	cd "$BATS_TEST_TMPDIR"
	m=$BATS_TEST_TMPDIR/ran
}

# usage_error NAME ARG...: the launcher fails with 125 and exactly one
# "landlock-run: " line that contains NAME; stdout stays empty and the
# marker file $m, which a command that ran would create, does not appear.
usage_error() {
	local name=$1
	shift
	run -125 --separate-stderr "$LR" "$@"
	assert_equal "$output" ""
	assert_one_launcher_line
	[[ $stderr == *"$name"* ]] || fail "the line does not name '$name': $stderr"
	assert_not_exist "$m"
}

@test "usage: no -- before the command is 125 and nothing runs" {
	usage_error "'touch'" touch "$m"
	usage_error "'touch'" --ro / touch "$m"
	usage_error "'touch'" --rw "$BATS_TEST_TMPDIR" touch "$m"
	# Control: with -- the same command runs.
	require_landlock
	run -0 "$LR" --rw "$BATS_TEST_TMPDIR" -- touch "$m"
	assert_exist "$m"
}

@test "usage: no command (nothing at all, or nothing after --) is 125" {
	usage_error "landlock-run: "
	usage_error "--" --
	usage_error "--" --ro / --
	usage_error "--" --rw "$BATS_TEST_TMPDIR" --
}

@test "usage: an unknown option is 125 and the line names it" {
	usage_error "--bogus" --bogus -- touch "$m"
	usage_error "--bogus" --bogus=1 -- touch "$m"
	usage_error "-x" -x -- touch "$m"
	usage_error "--RO" --RO / -- touch "$m"
	usage_error "--rox" --ro / --rox / -- touch "$m"
	usage_error "--strict" --strict=yes -- touch "$m"
}

@test "usage: an unknown long option within two edits of one gets 'did you mean'" {
	usage_error "unknown option --rwo (did you mean --rw?)" --rwo / -- touch "$m"
	usage_error "unknown option --tcp-conect (did you mean --tcp-connect?)" --tcp-conect 1 -- touch "$m"
	usage_error "unknown option --jsno (did you mean --json?)" --jsno --probe
	usage_error "unknown option --rwo (did you mean --rw?)" --rwo=/ -- touch "$m"
	# too far from every option: the plain hint, no guess
	usage_error "unknown option --bogus (try 'landlock-run --help')" --bogus -- touch "$m"
	usage_error "unknown option --xyzzy (try 'landlock-run --help')" --xyzzy -- touch "$m"
}

@test "usage: an option missing its argument is 125 and the line names it" {
	for opt in --ro --rw --ro-try --rw-try; do
		usage_error "$opt" "$opt"
	done
}

@test "usage: an argument that is -- or empty is refused, so --ro -- cmd never takes -- as a path" {
	for opt in --ro --rw --ro-try --rw-try; do
		usage_error "$opt" "$opt" -- touch "$m"
		usage_error "$opt" "$opt" "" -- touch "$m"
		usage_error "$opt" "$opt=" -- touch "$m"
		usage_error "$opt" "$opt=--" -- touch "$m"
	done
	# A directory really named -- is reachable as ./--.
	require_landlock
	mkdir -- --
	run -0 "$LR" --rw ./-- -- sh -c 'echo ok > ./--/f'
	assert_equal "$(cat ./--/f)" ok
}

@test "usage: an option argument that is itself an option is refused, so no option is swallowed" {
	local opts o arg
	# With an empty $CACHE, "--rw-try $CACHE --no-tcp" loses the word: --no-tcp
	# must not become a path, leaving TCP open.
	usage_error "--no-tcp" --rw-try --no-tcp -- touch "$m"
	usage_error "--rw-try" --rw-try --no-tcp -- touch "$m"
	usage_error "--strict" --rw /tmp --rw-try --strict --abi 3 -- touch "$m"
	# Control: --strict alone, as the user meant it, refuses ABI 3.
	usage_error "--strict" --rw /tmp --strict --abi 3 -- touch "$m"
	# Every option of --help, as the argument of every option that takes one.
	opts=$("$LR" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
	[ -n "$opts" ] || fail "--help lists no options"
	for o in --ro --rw --ro-try --rw-try --tcp-bind --tcp-connect --scope --abi; do
		for arg in $opts --ro=/ --bogus -v -vh -V; do
			usage_error "$arg" "$o" "$arg" -- touch "$m"
			usage_error "$o" "$o=$arg" -- touch "$m"
		done
	done
	# A directory really named --x is granted as ./--x.
	require_landlock
	mkdir -- --x
	run -0 "$LR" --rw ./--x -- sh -c 'echo ok > ./--x/f'
	assert_equal "$(cat ./--x/f)" ok
}

@test "usage: a bad short option in a cluster is named, whatever came before it" {
	usage_error "unknown option -x" --ro=/ -xv -- touch "$m"
	usage_error "unknown option -x" --ro / -vx -- touch "$m"
	usage_error "unknown option -x" -x -- touch "$m"
	usage_error "--strict takes no argument" --ro=/ --strict=1 -- touch "$m"
	usage_error "--verbose takes no argument" --verbose=1 -- touch "$m"
}

@test "usage: an empty argv (execve with argc 0) is 125 and nothing runs" {
	# Linux 5.18 and later pass a single empty argv[0] instead; older kernels
	# pass argc 0, where argv + 1 would point into the environment.
	run -125 --separate-stderr perl -e 'exec {$ARGV[0]} ()' "$LR"
	assert_equal "$output" ""
	assert_one_launcher_line
}

@test "usage: abbreviated long options are rejected, even unambiguous ones" {
	usage_error "--rw-t" --rw-t "$BATS_TEST_TMPDIR" -- touch "$m"
	usage_error "--ro-t" --ro-t=/ -- touch "$m"
	usage_error "--r" --r / -- touch "$m"
	usage_error "--stric" --stric -- touch "$m"
	usage_error "--verb" --verb -- touch "$m"
	usage_error "--pro" --pro
	# --hel must not be taken for --help: no help text, status 125.
	usage_error "--hel" --hel
	usage_error "--vers" --vers
}

@test "options after -- belong to the command" {
	require_landlock
	run -0 --separate-stderr "$LR" -- printf '%s\n' --bogus --ro -- --help
	assert_output $'--bogus\n--ro\n--\n--help'
	assert_equal "$stderr" ""
	run -0 --separate-stderr "$LR" --ro / -- sh -c 'echo "$@"' sh --rw / --version
	assert_output "--rw / --version"
}

@test "--help and -h print the usage on stdout with status 0, listing every option and exit status" {
	for opt in --help -h; do
		run -0 --separate-stderr "$LR" "$opt"
		assert_equal "$stderr" ""
		assert_line --index 0 "Usage: landlock-run [OPTION]... -- COMMAND [ARG]..."
		assert_line --index 1 "       landlock-run --learn FILE -- COMMAND [ARG]..."
		assert_line --index 2 "       landlock-run --probe [--json] [OPTION]..."
		assert_line --index 3 "       landlock-run --help | --version"
		for o in --ro --rw --ro-try --rw-try --unix --tcp-bind --tcp-connect --no-tcp --scope \
			--log-subprocesses --no-log --no-log-nested --explain --explain-json --learn \
			--abi --strict --probe --json --verbose --help --version; do
			assert_output --regexp "(^|[ ,])$o( |$)"
		done
		for code in 125 126 127; do assert_output --partial "$code"; done
	done
}

@test "--version and -V print 'landlock-run VERSION' with VERSION from the VERSION file" {
	local version
	version=$(cat "$REPO/VERSION")
	[ -n "$version" ] || fail "VERSION is empty"
	for opt in --version -V; do
		run -0 --separate-stderr "$LR" "$opt"
		assert_equal "$stderr" ""
		assert_equal "$output" "landlock-run $version"
	done
}

@test "--help and --version fail with 125 and one line when stdout cannot be written" {
	[ -w /dev/full ] || fail "/dev/full is missing"
	for opt in --help --version; do
		run -125 --separate-stderr bash -c '"$@" >/dev/full' _ "$LR" "$opt"
		assert_one_launcher_line
	done
}

@test "make install honours DESTDIR and PREFIX: binary and man page, and man -l renders the page" {
	local root=$BATS_TEST_TMPDIR/root
	[ -f "$REPO/landlock-run.1" ] || fail "landlock-run.1 is missing"
	run -0 make -s -C "$REPO" install DESTDIR="$root" PREFIX=/usr
	assert_file_executable "$root/usr/bin/landlock-run"
	assert_equal "$(stat -c %a "$root/usr/bin/landlock-run")" 755
	cmp "$BIN" "$root/usr/bin/landlock-run"
	assert_equal "$(stat -c %a "$root/usr/share/man/man1/landlock-run.1")" 644
	cmp "$REPO/landlock-run.1" "$root/usr/share/man/man1/landlock-run.1"
	run -0 "$root/usr/bin/landlock-run" --version
	assert_output "landlock-run $(cat "$REPO/VERSION")"
	# The default PREFIX is /usr/local.
	run -0 make -s -C "$REPO" install DESTDIR="$root/default"
	assert_file_executable "$root/default/usr/local/bin/landlock-run"
	assert_exist "$root/default/usr/local/share/man/man1/landlock-run.1"
	# The page renders, without groff warnings.
	run -0 --separate-stderr env LC_ALL=C MANWIDTH=1000 \
		man --warnings -l "$root/usr/share/man/man1/landlock-run.1"
	assert_equal "$stderr" ""
	assert_line --regexp '^LANDLOCK-RUN\(1\)'
	assert_output --partial NAME
	assert_output --partial SYNOPSIS
}

@test "the man page SYNOPSIS matches --help, and the page documents every option of --help" {
	local page synopsis opts o
	[ -f "$REPO/landlock-run.1" ] || fail "landlock-run.1 is missing"
	page=$(LC_ALL=C MANWIDTH=1000 man -l "$REPO/landlock-run.1" 2>/dev/null)
	synopsis=$(sed -n '/^SYNOPSIS/,/^[A-Z]/{/^ /p}' <<<"$page" | sed 's/^ *//')
	run -0 "$LR" --help
	# the usage block: the lines before the first empty one
	assert_equal "$synopsis" "$(sed -n '/^$/q; s/^ *\(Usage: \)\{0,1\}//p' <<<"$output")"
	opts=$(grep -o -- '--[a-z][a-z-]*' <<<"$output" | sort -u)
	for o in $opts; do
		grep -q -- "$o" <<<"$page" || fail "the man page does not mention $o"
	done
	for code in 125 126 127; do grep -q "$code" <<<"$page" || fail "the man page omits exit $code"; done
}

@test "the man page's header and footer say Linux, never BSD" {
	local page
	page=$(LC_ALL=C MANWIDTH=80 man -l "$REPO/landlock-run.1" 2>/dev/null)
	[[ $(head -n 1 <<<"$page") == "LANDLOCK-RUN(1)"*"Linux General Commands Manual"* ]] ||
		fail "header: $(head -n 1 <<<"$page")"
	[[ $(tail -n 1 <<<"$page") == "Linux "* ]] || fail "footer: $(tail -n 1 <<<"$page")"
	if grep -q BSD <<<"$page"; then fail "the page says BSD: $(grep BSD <<<"$page")"; fi
}

@test "the binary is static: no dynamic section, no interpreter, and file(1) says so" {
	require_helpers
	run -0 "$TRYOP" elf "$BIN"
	assert_output --regexp '^class=64 endian=little type=exec machine=[0-9]+ interp=no dynamic=no link=static$'
	run -0 file -L "$BIN"
	assert_output --partial "statically linked"
}

@test "the binary is within its platform's size budget (platform/*.env SIZE_BUDGET)" {
	local size budget env
	env=$(grep -l "^ARCH=$(uname -m)\$" "$REPO"/platform/*.env)
	budget=$(sed -n 's/^SIZE_BUDGET=//p' "$env")
	[ -n "$budget" ] || fail "$env has no SIZE_BUDGET"
	size=$(stat -c %s "$BIN")
	[ "$size" -le "$budget" ] || fail "landlock-run is $size bytes; the budget is $budget"
}
