#!/usr/bin/env bash
# scripts/matrix/kernels.sh: the Debian kernels the matrix rows need, in
# .cache/kernels/PKG/{vmlinuz,config,version} (and vmlinux, the bzImage's ELF
# inside, where there is one). Prints one line per kernel a selected row needs:
#   SUITE/SERIES/DEB_ARCH PKG
# A series resolves to its newest package apt can fetch, or, when apt knows none
# (offline, stale lists), the newest one already cached. Packages are fetched with
# `apt-get download` and only unpacked (never installed); a warm run downloads
# nothing. Run by scripts/kernel-matrix.sh.
set -euo pipefail
# shellcheck source=scripts/matrix/lib.sh
. "$(dirname "$0")/lib.sh"

# kernel_re SERIES DEB_ARCH: Debian's package names for a kernel series, in the
# base flavour (no cloud/rt): linux-image-6.1.0-57-amd64 (bookworm's 6.1),
# linux-image-6.12.117+deb12-amd64, linux-image-7.2.13+deb14-amd64 (sid).
kernel_re() { echo "^linux-image-${1//./\\.}\\.[0-9]+(-[0-9]+|\\+deb[0-9]+)-$2\$"; }

cached_kernels() {
	local d
	for d in "$cache"/linux-image-*/vmlinuz; do
		[ -e "$d" ] && basename "$(dirname "$d")"
	done
	return 0
}

# apt_state SUITE: make SUITE's separate package lists (apt_opts) exist and be at
# most a day old (sid changes daily; stale lists name packages the archive has
# dropped). The host's own suite is left to the host.
apt_state() {
	local d=$cache/apt-$1 uri
	[ -z "$(apt_opts "$1")" ] && return 0
	if [ -n "$(find "$d/lists" -maxdepth 1 -name '*_Packages*' -mtime -1 2>/dev/null)" ]; then
		return 0
	fi
	uri=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources | head -n1)
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${uri:-http://deb.debian.org/debian} $1 main" \
		>"$d/sources.list"
	say "apt-get update of $1's package lists (kept apart in .cache/kernels/apt-$1)"
	# shellcheck disable=SC2046
	apt-get $(apt_opts "$1") update -qq >&2 || say "apt-get update for $1 failed; using what is cached"
}

# resolve SUITE SERIES/DEB_ARCH...: "SERIES/DEB_ARCH PKG" for each pair. Two
# apt-cache calls in all (each takes seconds): the names, then which of the three
# newest of each series have a candidate version (apt prints a native package
# without its :ARCH, so that is added back).
resolve() {
	local suite=$1 names pair re pkg tops=() ok native
	shift
	native=$(dpkg --print-architecture)
	# shellcheck disable=SC2046
	names=$(apt-cache $(apt_opts "$suite") pkgnames linux-image- 2>/dev/null || true)
	for pair in "$@"; do
		re=$(kernel_re "${pair%/*}" "${pair#*/}")
		for pkg in $(grep -E "$re" <<<"$names" | sort -Vr | head -n 3); do
			tops+=("$pkg:${pair#*/}")
		done
	done
	# shellcheck disable=SC2046
	ok=$([ ${#tops[@]} -eq 0 ] || apt-cache $(apt_opts "$suite") policy "${tops[@]}" 2>/dev/null |
		awk -v native="$native" '
			/^[^ ]/ { p = $1; sub(/:$/, "", p); if (p !~ /:/) p = p ":" native }
			/^  Candidate: [0-9]/ { print p }')
	for pair in "$@"; do
		re=$(kernel_re "${pair%/*}" "${pair#*/}")
		pkg=$(sed -n "s/:${pair#*/}\$//p" <<<"$ok" | grep -E "$re" | sort -V | tail -n 1 || true)
		[ -n "$pkg" ] || pkg=$(cached_kernels | grep -E "$re" | sort -V | tail -n 1 || true)
		[ -n "$pkg" ] || die "no Debian $suite ${pair%/*} kernel for ${pair#*/} (apt-get update?)"
		echo "$pair $pkg"
	done
}

# resolved SUITE PAIR...: resolve, reusing the last answer while SUITE's package
# lists are unchanged (the stamp is their names and times).
resolved() {
	local suite=$1 lists=/var/lib/apt/lists file=$cache/resolved-$1 stamp answer
	shift
	[ -z "$(apt_opts "$suite")" ] || lists=$cache/apt-$suite/lists
	stamp=$(stat -c '%n %Y' "$lists"/*_Packages* 2>/dev/null | md5sum | cut -c1-32)
	if [ "$(head -n1 "$file" 2>/dev/null)" != "$stamp" ]; then
		answer=$(resolve "$suite" "$@")
		printf '%s\n%s\n' "$stamp" "$answer" >"$file"
	fi
	tail -n +2 "$file"
}

# members DEB: the kernel image and config inside DEB, as tar names them:
# ./boot/vmlinuz-VER and ./boot/config-VER (bookworm), or
# ./usr/lib/modules/VER/vmlinuz and .../config (sid).
members() {
	dpkg-deb -c "$1" | awk '{ print $NF }' |
		grep -E '^\./(boot/(vmlinuz|config)-|usr/lib/modules/[^/]+/(vmlinuz|config)$)' || true
}

# fetch SUITE PKG DEB_ARCH: .cache/kernels/PKG. Bookworm's linux-image-VER holds
# the kernel itself; sid's is a meta package whose kernel is in linux-binary-VER
# and config in linux-base-VER.
fetch() {
	local suite=$1 pkg=$2 arch=$3 dest=$cache/$2 tmp deb ver m
	[ -f "$dest/vmlinuz" ] && return 0
	say "downloading $pkg:$arch from $suite (once; cached in .cache/kernels)"
	tmp=$(mktemp -d "$cache/.dl.XXXXXX")
	download_deb "$suite" "$pkg:$arch" "$tmp"
	if [ -z "$(members "$tmp/${pkg}"_*.deb)" ]; then
		ver=${pkg#linux-image-}
		download_deb "$suite" "linux-binary-$ver:$arch" "$tmp"
		download_deb "$suite" "linux-base-$ver:$arch" "$tmp"
	fi
	mkdir "$tmp/x" "$tmp/out"
	for deb in "$tmp"/*.deb; do
		m=$(members "$deb")
		[ -n "$m" ] || continue
		# shellcheck disable=SC2086 # one tar name per word
		dpkg-deb --fsys-tarfile "$deb" | tar -C "$tmp/x" -x $m
		grep -q vmlinuz <<<"$m" && dpkg-deb -f "$deb" Version >"$tmp/out/version"
	done
	find "$tmp/x" -type f -name 'vmlinuz*' -exec mv {} "$tmp/out/vmlinuz" \;
	find "$tmp/x" -type f -name 'config*' -exec mv {} "$tmp/out/config" \;
	if [ ! -f "$tmp/out/vmlinuz" ] || [ ! -f "$tmp/out/version" ]; then
		die "no kernel image in $pkg ($suite)"
	fi
	rm -rf "$dest"
	mv "$tmp/out" "$dest"
	rm -rf "$tmp"
}

# unpack_bzimage DIR: DIR/vmlinux, the uncompressed ELF inside an x86 bzImage.
# Decompressing the kernel under software emulation takes ~8 s of a ~12 s boot;
# qemu boots the ELF directly through its PVH entry (CONFIG_PVH, on in Debian).
# The payload's place comes from the boot protocol header: setup_sects at 0x1f1,
# payload_offset/length at 0x248/0x24c; the last 4 payload bytes are its size.
unpack_bzimage() {
	local z=$1/vmlinuz sects off len start tool
	[ -f "$1/vmlinux" ] && return 0
	[ "$(od -An -c -j514 -N4 "$z" | tr -d ' ')" = HdrS ] || return 0
	sects=$(od -An -tu1 -j$((0x1f1)) -N1 "$z" | tr -d ' ')
	off=$(od -An -tu4 -j$((0x248)) -N4 "$z" | tr -d ' ')
	len=$(od -An -tu4 -j$((0x24c)) -N4 "$z" | tr -d ' ')
	start=$(((sects + 1) * 512 + off))
	case $(od -An -tx1 -j"$start" -N4 "$z" | tr -d ' ') in
	1f8b*) tool="gzip -dc" ;;
	fd377a58) tool="xz -dc" ;;
	28b52ffd) tool="zstd -dcq" ;;
	*) return 0 ;; # another compressor: boot the bzImage (slower)
	esac
	if head -c $((start + len - 4)) "$z" | tail -c +$((start + 1)) | $tool >"$1/vmlinux.tmp" &&
		[ -n "$(elf_machine "$1/vmlinux.tmp")" ]; then
		mv "$1/vmlinux.tmp" "$1/vmlinux"
	else
		rm -f "$1/vmlinux.tmp"
	fi
}

mkdir -p "$cache"
trap 'rm -rf "$cache"/.dl.*' EXIT # downloads interrupted half-way

needed=" "
while read -r arch suite series lsm abi; do
	needed+="$suite/$series/$(pvar "$arch" DEB_ARCH) "
done < <(matrix_rows)

for suite in $(matrix_rows all | awk '{ print $2 }' | sort -u); do
	apt_state "$suite"
	mapfile -t pairs < <(matrix_rows all | while read -r arch s series lsm abi; do
		[ "$s" = "$suite" ] && echo "$series/$(pvar "$arch" DEB_ARCH)"
	done | sort -u)
	answer=$(resolved "$suite" "${pairs[@]}")
	while read -r pair pkg; do
		[[ $needed == *" $suite/$pair "* ]] || continue
		fetch "$suite" "$pkg" "${pair#*/}"
		unpack_bzimage "$cache/$pkg"
		# a newer Debian kernel replaces the cached one of the same series
		for old in $(cached_kernels | grep -E "$(kernel_re "${pair%/*}" "${pair#*/}")"); do
			[ "$old" = "$pkg" ] || rm -rf "${cache:?}/$old"
		done
		echo "$suite/$pair $pkg"
	done <<<"$answer"
done
