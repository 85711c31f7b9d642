#!/usr/bin/env bash
# scripts/reproduce.sh [COMMIT] (make reproduce): build COMMIT (default HEAD) twice, each in
# a fresh clone, at two different paths and times and under another umask, time zone and
# locale, then compare the release artefacts byte for byte: the launcher for x86_64 and
# aarch64, the three npm tarballs and the two Python wheels (each build's gate checked them
# and recorded their sha256, and the two records must agree) and the two Debian packages.
# Prints one line per artefact and ends with "N passed, N failed".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
. "$here/tally.sh"

need_tools reproduce git node npm dpkg-deb "$LR_PYTHON"
commit=$(git -C "$root" rev-parse --verify "${1:-HEAD}^{commit}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ARTEFACTS=(build/x86_64/landlock-run build/aarch64/landlock-run dist/npm/SHA256SUMS dist/python/SHA256SUMS)

# build DIR: clone the commit into DIR and make every release artefact there
build() {
	git clone --quiet --no-checkout "$root" "$1"
	git -C "$1" checkout --quiet --detach "$commit"
	echo "reproduce: building $commit in $1" >&2
	if ! (cd "$1" && make -s ARCH=x86_64 && make -s ARCH=aarch64 && scripts/npm-pack.sh && scripts/wheel.sh && make -s deb) >"$1.log" 2>&1; then
		cat "$1.log" >&2
		echo "reproduce: the build in $1 failed" >&2
		return 1
	fi
}

build "$work/one"
sleep 2 # every file of the second clone is younger
(umask 0002 && TZ=Pacific/Kiritimati LC_ALL=C.UTF-8 build "$work/second-build/at-another-path")
two=$work/second-build/at-another-path

mapfile -t built < <(cd "$work/one" && ls dist/npm/*.tgz dist/python/*.whl dist/deb/*.deb)
for f in "${ARTEFACTS[@]}" "${built[@]}"; do
	tally_check "$f: byte-identical in both builds (sha256 $(sha256sum <"$work/one/$f" | cut -c1-16)…)" \
		cmp -s "$work/one/$f" "$two/$f"
done
tally_total
