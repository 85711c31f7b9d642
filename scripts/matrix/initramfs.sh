#!/usr/bin/env bash
# scripts/matrix/initramfs.sh ARCH: build/kernel-matrix/ARCH/initrd.gz, the guest's
# whole userland: a static busybox, the launcher under test, tests/tryop.c and
# tests/tty.c (static; lr-tty, beside busybox's tty), tests/sysop.c and on x86_64 tests/inject32.c,
# tests/guest/init as /init, and in /guest the tests/guest/*.sh checks and the
# rights table tests/rights.sh; on the host's own architecture also bubblewrap
# with its libraries (the lockdown boots' control).
# Run by scripts/kernel-matrix.sh.
#
#   LR_MATRIX_BIN_X86_64, LR_MATRIX_BIN_AARCH64  the launcher to put in instead of
#       the one `make` builds (e.g. a deliberately broken one)
set -euo pipefail
# shellcheck source=scripts/matrix/lib.sh
. "$(dirname "$0")/lib.sh"

arch=${1:?usage: initramfs.sh ARCH}
deb=$(pvar "$arch" DEB_ARCH)
dir=$work/$arch

# busybox DEB_ARCH: a static busybox for that architecture (the host's own for
# its architecture; another one downloaded once, never installed).
busybox() {
	local dest=$cache/busybox-static-$1 tmp
	if [ "$1" = "$(dpkg --print-architecture)" ]; then
		echo /bin/busybox
		return 0
	fi
	if [ ! -f "$dest/busybox" ]; then
		say "downloading busybox-static:$1 (once)"
		mkdir -p "$cache"
		tmp=$(mktemp -d "$cache/.dl.XXXXXX")
		download_deb "$(host_suite)" "busybox-static:$1" "$tmp"
		dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -C "$tmp" -x ./bin/busybox
		mkdir -p "$dest"
		mv "$tmp/bin/busybox" "$dest/busybox"
		rm -rf "$tmp"
	fi
	echo "$dest/busybox"
}

# launcher: the binary under test (built by make unless overridden).
launcher() {
	local var=LR_MATRIX_BIN_${arch^^} bin
	bin=${!var:-}
	[ -n "$bin" ] || bin=$root/build/$arch/landlock-run
	[ -x "$bin" ] || die "no launcher binary for $arch: $bin"
	[ "$(elf_machine "$bin")" = "$(pvar "$arch" ELF_MACHINE)" ] || die "$bin is not an $arch ELF binary"
	echo "$bin"
}

make -C "$root" -s ARCH="$arch" all test-helpers >&2
rm -rf "$dir"
mkdir -p "$dir"/root/{bin,proc,sys,dev,tmp,guest}
bin=$(launcher)
cp "$bin" "$dir/root/bin/landlock-run"
cp "$(busybox "$deb")" "$dir/root/bin/busybox"
cp "$root/build/$arch/tryop" "$dir/root/bin/tryop"
cp "$root/build/$arch/tty" "$dir/root/bin/lr-tty"
cp "$root/build/$arch/sysop" "$dir/root/bin/sysop"
[ "$arch" != x86_64 ] || cp "$root/build/$arch/inject32" "$dir/root/bin/inject32"
# bubblewrap, the control of the lockdown boots: the host's own, on its architecture
[ "$arch" != "$(uname -m)" ] || copy_with_libs "$dir/root" "$(command -v bwrap)"
install -m 0755 "$root/tests/guest/init" "$dir/root/init"
install -m 0644 "$root"/tests/guest/*.sh "$root/tests/rights.sh" "$dir/root/guest/"
(cd "$dir/root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$dir/initrd.gz"
