#!/usr/bin/env bash
# Install what building and testing landlock-run needs, only when missing.
# scripts/setup.sh [--list] [GROUP...]; groups: build build-x86_64 build-aarch64 test npm
# python fuzz sanitize matrix containers bench release all (default). --list names the
# Debian packages the groups install, one a line, and installs nothing (tests/setup.bats
# checks every tool and file the suites use against it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

# musl-gcc is a wrapper around gcc, which also builds tests/fault.c (make test-helpers).
group_build_x86_64() { need_packages musl-tools gcc make; }
group_build_aarch64() {
	need_arm64_arch
	need_packages gcc-aarch64-linux-gnu musl-dev:arm64
}
group_build() { group_build_x86_64; }
# The bats suite, tests/arm64-qemu-user.bats included (the aarch64 build under qemu-user),
# and tests/audit.
group_test() {
	group_build_x86_64
	group_build_aarch64
	# strace: tests/inherit.bats holds a launcher in a system call (strace -D); procps:
	# tests/scope.bats reads a process's state with ps;
	# gcc: tests/inject32.c, a freestanding i386 program (gcc -m32, no multilib)
	need_packages bats bats-assert bats-support bats-file man-db groff-base clang-format file binutils \
		python3 clang libclang-rt-14-dev qemu-user-static strace procps gcc
	# tests/seccomp.bats reads the kernel's system-call numbers from the headers of
	# each ABI the filter covers: x86_64's, x32's and i386's (linux-libc-dev), aarch64's
	# (musl-dev:arm64) and 32-bit arm's (linux-libc-dev-armhf-cross).
	need_packages linux-libc-dev linux-libc-dev-armhf-cross
	# tests/audit's workloads: make -j2, git, python3 -m venv and pip, setfacl, npm;
	# tests/seccomp.bats: root's tools under the metadata rules (rsync -aX).
	need_packages make git python3-venv python3-pip acl rsync
	need_node
}
# Node.js and npm: Debian's, unless the machine has its own (this image's nodejs
# package is NodeSource's, which brings npm too).
need_node() {
	[ -z "${LR_SETUP_LIST:-}" ] && command -v node >/dev/null && command -v npm >/dev/null && return 0
	need_packages nodejs npm
}
# make npm and its tests: Node.js (may come from elsewhere than Debian: this image has its
# own), qemu-user to run the aarch64 binary's --version, and from the npm registry the
# TypeScript compiler and Node's types that the declaration checks compile against,
# Node 18 (the oldest that engines admits) for the rehearsal's require() and import, and
# npm 10 (what Node 20 and 22 bring) for its bin links.
group_npm() {
	group_build_x86_64
	group_build_aarch64
	need_node
	need_packages qemu-user-static
	[ -z "${LR_SETUP_LIST:-}" ] || return 0
	local dir=$here/../.cache/npm-tools
	local tools="typescript@5.9.3 @types/node@20.19.43 node-linux-$(node -p process.arch)@18.20.8 npm@10.9.9"
	[ "$(cat "$dir/installed" 2>/dev/null)" = "$tools" ] && return 0
	echo "landlock-run setup: installing $tools from npm into .cache/npm-tools" >&2
	mkdir -p "$dir"
	# shellcheck disable=SC2086 # one word per package
	npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error $tools >&2 &&
		echo "$tools" >"$dir/installed"
}
# make wheel and its tests (scripts/test-python.sh): both toolchains, qemu-user to run the
# aarch64 binary's --version, Debian's python3 (3.11) with venv and the pip wheel that
# ensurepip installs offline into a fresh virtual environment, pytest for the tests, mypy
# for the strict type check. Nothing comes from PyPI.
group_python() {
	group_build_x86_64
	group_build_aarch64
	need_packages qemu-user-static python3 python3-venv python3-pip-whl python3-pytest mypy
}
group_fuzz() { need_packages clang libclang-rt-dev; }
group_sanitize() {
	group_test
	group_fuzz
}
# The kernel matrix: both toolchains, qemu, the guest's busybox, the decompressors
# of Debian's kernel images, Debian's arm64 package lists (apt-get download of
# arm64 kernels and busybox), and bubblewrap for the lockdown boots.
group_matrix() {
	group_build_x86_64
	group_build_aarch64
	need_packages qemu-system-x86 qemu-system-arm busybox-static cpio gzip xz-utils zstd
	need_packages bubblewrap # the lockdown boots' control, copied into the x86_64 guest
	[ -z "${LR_SETUP_LIST:-}" ] || return 0
	ls /var/lib/apt/lists/*_binary-arm64_Packages* >/dev/null 2>&1 && return 0
	echo "landlock-run setup: apt lists lack arm64: apt-get update" >&2
	apt-get update -qq -o DPkg::Lock::Timeout=300 >&2
}
# The container matrix (scripts/container-matrix.sh): podman with Debian's runc (crun
# fails on this cgroup v1 hybrid machine), uidmap for podman's user namespaces,
# bubblewrap as the control inside the image, a static busybox as its userland, and
# Node.js for spawnConfined in it.
group_containers() {
	group_build_x86_64
	need_packages podman runc uidmap bubblewrap busybox-static
	need_node
}
group_bench() {
	group_build_x86_64
	group_build_aarch64
	# linux-perf: scripts/bench/perf.sh samples where the launcher spends its time;
	# tar, zip, unzip, make: the real work --explain is timed on (cases.sh).
	need_packages hyperfine gnuplot-nox bubblewrap strace python3 linux-perf tar zip unzip make
}
# make deb, make reproduce and their tests: the shells whose completion is tested
# (dpkg-deb comes with dpkg).
group_release() {
	need_packages zsh bash-completion
}
group_all() {
	group_test
	group_npm
	group_python
	group_release
	group_matrix
	group_containers
	group_bench
}

if [ "${1-}" = --list ]; then
	export LR_SETUP_LIST=1
	shift
fi
[ $# -gt 0 ] || set -- all
for g in "$@"; do
	"group_${g//-/_}"
done
