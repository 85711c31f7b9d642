#!/usr/bin/env bats
# What the suites use is what scripts/setup.sh installs. A package installed by
# hand on a developer's machine makes every test that needs it pass there and
# fail on a fresh one (CI): linux-libc-dev-armhf-cross once hid that way. So
# every system file the tests, scripts and Makefile name, and every program
# they run, must come from a package the setup names, one those depend on, or
# one every Debian system has (Essential, or Priority required). Files and
# programs that are not on this machine, or that no Debian package owns (the
# image's own Node.js, a pyenv shim), are not judged here: where they are
# missing, the suite that uses them fails on its own.
load helpers

setup_file() {
	cd "$BATS_TEST_DIRNAME/.."
	covered_now >"$BATS_FILE_TMPDIR/covered"
}

setup() {
	cd "$BATS_TEST_DIRNAME/.."
}

# The files that name tools: what make test and the setup run. tests/guest runs
# inside the kernel matrix's guests, on busybox (busybox-static).
sources() {
	git ls-files tests scripts Makefile .ci |
		grep -v -e '\.svg$' -e '\.png$' -e '^tests/setup\.bats$' -e '^tests/guest/'
}

# Every package the setup installs, every package a Debian system always has,
# and what they depend on (covered: as setup_file found them).
covered() { cat "$BATS_FILE_TMPDIR/covered"; }
covered_now() {
	# shellcheck disable=SC2046 # one package per word
	apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances $(scripts/setup.sh --list all fuzz sanitize) \
		$(dpkg-query -W -f='${Package} ${Essential} ${Priority}\n' |
			awk '$2 == "yes" || $3 == "required" { print $1 }') 2>/dev/null |
		sed -n 's/^\([a-z0-9][a-z0-9.+-]*\)\(:[a-z0-9]*\)\{0,1\}$/\1/p' | sort -u
}

# The owner of each existing regular file in "$@", as "PACKAGE PATH" lines. dpkg
# records a file by the path its package holds it at: with /bin a link to
# usr/bin, /bin/cat is known and /usr/bin/cat is not; so each file is looked up
# as named, resolved, and resolved without /usr. One dpkg-query for them all.
owners() {
	local -A by_path=()
	local f real pkgs path c
	local -a asked=()
	for f in "$@"; do
		[ -f "$f" ] || continue
		real=$(readlink -f "$f")
		asked+=("$f" "$real" "${real#/usr}")
	done
	[ "${#asked[@]}" -gt 0 ] || return 0
	while IFS= read -r line; do
		case $line in diversion*) continue ;; esac
		pkgs=${line%%: *}
		path=${line#*: }
		by_path[$path]=${pkgs%%[:,]*}
	done < <(dpkg-query -S "${asked[@]}" 2>/dev/null)
	for ((c = 0; c < ${#asked[@]}; c += 3)); do
		for path in "${asked[c]}" "${asked[c + 1]}" "${asked[c + 2]}"; do
			[ -z "${by_path[$path]-}" ] && continue
			echo "${by_path[$path]} ${asked[c]}"
			break
		done
	done
}

# Absolute paths of system files the sources name.
named_files() {
	# shellcheck disable=SC2046 # one file per word
	grep -ohE '(^|[^A-Za-z0-9_.$-])/(usr|lib|lib64|bin|sbin|etc)/[A-Za-z0-9_.+/-]*[A-Za-z0-9_]' \
		$(sources) | sed 's|^[^/]*||' | sort -u
}

# Programs the sources run: a word in command position of a shell line (at its
# start, after | ; && || $( ` or a word that runs its argument), or the first
# string of a Python argument list. Comments and test titles are prose.
run_words() {
	local f
	for f in $(sources); do
		case $f in
		*.py)
			grep -oE '\[\s*"[a-z][a-z0-9_.+-]*"' "$f" | sed 's/.*"\(.*\)"/\1/' || true
			;;
		*.c | *.h | *.mjs | *.js | *.json | *.md | *.txt | *.svg | *.ts) ;;
		*)
			grep -vE '^\s*(#|@test)' "$f" |
				grep -oE '(^\s*|[|;&`(]\s*|\brun( -[0-9!]+)?\s+|\bexec\s+|\bcommand -v\s+|\btimeout( -[a-z] [0-9a-z]+)* [0-9.]+[sm]?\s+|\bneed_tools [a-z-]+( [a-z0-9-]+)*\s+)[a-z][a-z0-9_.+-]*\b' |
				grep -oE '[a-z][a-z0-9_.+-]*$' || true
			;;
		esac
	done | sort -u
}

@test "every system file the suites and scripts name comes from a package the setup installs" {
	local -A ok=()
	local pkg path missing=()
	while read -r pkg; do ok[$pkg]=1; done < <(covered)
	[ "${#ok[@]}" -ge 100 ] || fail "the setup and its dependencies cover only ${#ok[@]} packages"
	# shellcheck disable=SC2046 # one file per word
	while read -r pkg path; do
		[ -n "${ok[$pkg]-}" ] || missing+=("$path (package $pkg)")
	done < <(owners $(named_files))
	[ "${#missing[@]}" -eq 0 ] ||
		fail "$(printf '%s\n' "named by the tests, installed by no step of scripts/setup.sh: add each package to the group that needs it:" "${missing[@]}")"
}

@test "every program the suites and scripts run comes from a package the setup installs" {
	local -A ok=()
	local pkg path missing=() words=() w defined
	while read -r pkg; do ok[$pkg]=1; done < <(covered)
	# shellcheck disable=SC2046 # one file per word
	defined=" $(grep -ohE '^\s*[a-z_][a-z0-9_-]*\(\)' $(sources) | tr -d ' \t()' | tr '\n' ' ') "
	while read -r w; do
		[[ $defined == *" $w "* ]] && continue
		case $(type -t "$w") in keyword | builtin) continue ;; esac
		path=$(type -P "$w") && words+=("$path")
	done < <(run_words)
	[ "${#words[@]}" -ge 50 ] || fail "only ${#words[@]} programs found: the search is broken"
	while read -r pkg path; do
		[ -n "${ok[$pkg]-}" ] || missing+=("$path (package $pkg)")
	done < <(owners "${words[@]}")
	[ "${#missing[@]}" -eq 0 ] ||
		fail "$(printf '%s\n' "run by the tests, installed by no step of scripts/setup.sh: add each package to the group that needs it:" "${missing[@]}")"
}

# The control: a package that is installed here but named nowhere is caught.
@test "a file of a package the setup does not name is reported, with its package" {
	local pkg path
	# a package installed here, neither required nor pulled in by the setup
	pkg=$(comm -23 <(dpkg-query -W -f='${Package}\n' | sort -u) <(covered | sort -u) | head -n 1)
	[ -n "$pkg" ] || skip "every installed package is covered by the setup"
	path=$(dpkg-query -L "$pkg" | while read -r f; do [ -f "$f" ] && echo "$f" && break; done)
	[ -n "$path" ] || skip "$pkg has no regular file"
	run owners "$path"
	assert_output "$pkg $path"
	run grep -cx "$pkg" <(covered)
	assert_output 0
}
