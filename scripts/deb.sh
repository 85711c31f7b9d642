#!/usr/bin/env bash
# scripts/deb.sh (make deb): one Debian package per platform/*.env entry with a DEB_ARCH,
# dist/deb/landlock-run_VERSION_ARCH.deb, built with dpkg-deb from the static binary, the
# man page, the bash and zsh completions and the copyright file; installable with
# `apt install ./landlock-run_VERSION_amd64.deb`. No dependencies: the binary is static.
# Reproducible: every file's mtime is SOURCE_DATE_EPOCH (default: the commit's time), and
# dpkg-deb uses it for the archive.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
cd "$root"

need_tools deb dpkg-deb gzip
version=$(cat VERSION)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null)}
[ -n "$SOURCE_DATE_EPOCH" ] || { echo "deb: not a git checkout: set SOURCE_DATE_EPOCH" >&2; exit 1; }
out=dist/deb
rm -rf "$out"
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# control ARCH SIZE_KIB: the package's DEBIAN/control
control() {
	cat <<-EOF
		Package: landlock-run
		Version: $version
		Architecture: $1
		Maintainer: landlock-run maintainers <maintainers@users.noreply.a-seed-0bd43816.example>
		Installed-Size: $2
		Section: utils
		Priority: optional
		Multi-Arch: foreign
		Description: run a command under the Linux Landlock LSM
		 landlock-run is a small, static, setuid-free launcher that confines a command
		 with Landlock: writes only beneath --rw grants, reads beneath --ro grants, TCP
		 ports and IPC scopes, failing closed. "landlock-run --probe" tells whether
		 this host confines.
	EOF
}

for env in platform/*.env; do
	arch=$(platform_var "$env" ARCH)
	deb_arch=$(platform_var "$env" DEB_ARCH)
	[ -n "$deb_arch" ] || continue
	make -s ARCH="$arch" >&2
	pkg=$stage/$deb_arch
	install -D -m 0755 "build/$arch/landlock-run" "$pkg/usr/bin/landlock-run"
	install -d -m 0755 "$pkg/usr/share/man/man1" "$pkg/usr/share/doc/landlock-run" "$pkg/DEBIAN"
	gzip -9n <landlock-run.1 >"$pkg/usr/share/man/man1/landlock-run.1.gz"
	install -D -m 0644 completions/landlock-run.bash "$pkg/usr/share/bash-completion/completions/landlock-run"
	install -D -m 0644 completions/_landlock-run "$pkg/usr/share/zsh/vendor-completions/_landlock-run"
	{
		printf 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n'
		printf 'Upstream-Name: landlock-run\n\nFiles: *\nCopyright: 2026 the landlock-run authors\nLicense: MIT\n'
		sed -e '1,/^Copyright/d' -e 's/^$/./' -e 's/^/ /' LICENSE
	} >"$pkg/usr/share/doc/landlock-run/copyright"
	chmod 0644 "$pkg/usr/share/man/man1/landlock-run.1.gz" "$pkg/usr/share/doc/landlock-run/copyright"
	(cd "$pkg" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$pkg/DEBIAN/md5sums"
	control "$deb_arch" "$(du -sk --apparent-size "$pkg/usr" | cut -f1)" >"$pkg/DEBIAN/control"
	chmod 0644 "$pkg/DEBIAN/md5sums" "$pkg/DEBIAN/control"
	find "$pkg" -type d -exec chmod 0755 {} +
	find "$pkg" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	dpkg-deb --root-owner-group -Zxz --build "$pkg" "$out/landlock-run_${version}_$deb_arch.deb" >&2
	echo "deb: $out/landlock-run_${version}_$deb_arch.deb" >&2
done
