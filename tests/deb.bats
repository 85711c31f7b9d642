#!/usr/bin/env bats
# The Debian packages (make deb, scripts/deb.sh): what each holds, and the one for
# this machine (amd64 here) installed into a throwaway root with dpkg --root,
# proving itself there.
load helpers

ROOT=$BATS_TEST_DIRNAME/..
VERSION=$(cat "$ROOT/VERSION")
DEB=$ROOT/dist/deb/landlock-run_${VERSION}_$(dpkg --print-architecture).deb

setup_file() {
	make -s -C "$BATS_TEST_DIRNAME/.." deb >/dev/null
}

# extract DEB DIR: the package's files, as dpkg would unpack them
extract() {
	mkdir -p "$2"
	dpkg-deb --extract "$1" "$2"
}

@test "make deb: one package per architecture, named landlock-run_VERSION_ARCH.deb" {
	run ls "$ROOT/dist/deb"
	assert_output "landlock-run_${VERSION}_amd64.deb
landlock-run_${VERSION}_arm64.deb"
	for arch in amd64 arm64; do
		run dpkg-deb --field "$ROOT/dist/deb/landlock-run_${VERSION}_$arch.deb" Package Version Architecture Depends
		assert_output "Package: landlock-run
Version: $VERSION
Architecture: $arch"
	done
}

@test "this machine's package: the tested binary, the man page, both completions, the copyright; all root's" {
	run dpkg-deb --contents "$DEB"
	assert_success
	files=$(awk '$1 !~ /^d/ { print $1, $2, $6 }' <<<"$output")
	assert_equal "$files" "-rwxr-xr-x root/root ./usr/bin/landlock-run
-rw-r--r-- root/root ./usr/share/bash-completion/completions/landlock-run
-rw-r--r-- root/root ./usr/share/doc/landlock-run/copyright
-rw-r--r-- root/root ./usr/share/man/man1/landlock-run.1.gz
-rw-r--r-- root/root ./usr/share/zsh/vendor-completions/_landlock-run"
	extract "$DEB" "$BATS_TEST_TMPDIR/x"
	cmp "$ROOT/build/$HOSTTYPE/landlock-run" "$BATS_TEST_TMPDIR/x/usr/bin/landlock-run"
	cmp "$ROOT/landlock-run.1" <(gzip -dc "$BATS_TEST_TMPDIR/x/usr/share/man/man1/landlock-run.1.gz")
	cmp "$ROOT/completions/landlock-run.bash" "$BATS_TEST_TMPDIR/x/usr/share/bash-completion/completions/landlock-run"
	cmp "$ROOT/completions/_landlock-run" "$BATS_TEST_TMPDIR/x/usr/share/zsh/vendor-completions/_landlock-run"
	run grep -c '^License: MIT$' "$BATS_TEST_TMPDIR/x/usr/share/doc/landlock-run/copyright"
	assert_output 1
}

@test "the arm64 package holds the static aarch64 binary" {
	extract "$ROOT/dist/deb/landlock-run_${VERSION}_arm64.deb" "$BATS_TEST_TMPDIR/a"
	cmp "$ROOT/build/aarch64/landlock-run" "$BATS_TEST_TMPDIR/a/usr/bin/landlock-run"
	run "$TRYOP" elf "$BATS_TEST_TMPDIR/a/usr/bin/landlock-run"
	assert_output --partial 'machine=183 '
	assert_output --partial 'link=static'
}

@test "dpkg --root installs the package into a throwaway root; its landlock-run --probe proves this host" {
	require_landlock
	[ "$(id -u)" -eq 0 ] || skip "needs root: dpkg installs only as the superuser, even into --root"
	r=$BATS_TEST_TMPDIR/root
	mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates"
	touch "$r/var/lib/dpkg/status"
	run dpkg --root="$r" --log=/dev/null -i "$DEB"
	assert_success
	run dpkg --root="$r" --status landlock-run
	assert_line 'Status: install ok installed'
	run "$r/usr/bin/landlock-run" --probe
	assert_success
	[ "$KABI" -ge 5 ] && assert_output 'landlock: fully enforced' || assert_output 'landlock: partially enforced (older ABI)'
	run dpkg --root="$r" --log=/dev/null --remove landlock-run
	assert_success
	refute [ -e "$r/usr/bin/landlock-run" ]
}

@test "apt would install it as the README says (apt-get --simulate install ./FILE.deb)" {
	run apt-get install --simulate "$DEB"
	assert_success
	assert_line "Inst landlock-run ($VERSION local-deb [$(dpkg --print-architecture)])"
}
