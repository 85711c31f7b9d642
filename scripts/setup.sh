#!/usr/bin/env bash
# Install what building and testing landlock-run needs, only when missing.
# scripts/setup.sh [GROUP...]; groups: build build-x86_64 build-aarch64 test npm all (default).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

group_build_x86_64() { need_packages musl-tools make; }
group_build_aarch64() {
	need_arm64_arch
	need_packages gcc-aarch64-linux-gnu musl-dev:arm64
}
group_build() { group_build_x86_64; }
group_test() {
	group_build_x86_64
	need_packages bats bats-assert bats-support bats-file man-db groff-base clang-format file binutils \
		python3 clang libclang-rt-14-dev
}
# make npm and its tests: Node.js (may come from elsewhere than Debian: this image has its
# own), qemu-user to run the aarch64 binary's --version.
group_npm() {
	group_build_x86_64
	group_build_aarch64
	command -v node >/dev/null && command -v npm >/dev/null || need_packages nodejs npm
	need_packages qemu-user-static
}
group_all() {
	group_test
	group_npm
	need_packages qemu-system-x86 qemu-system-arm busybox-static cpio zstd xz-utils \
		hyperfine gnuplot-nox bubblewrap
}

[ $# -gt 0 ] || set -- all
for g in "$@"; do
	"group_${g//-/_}"
done
