#!/usr/bin/env bash
# scripts/containers/image.sh IMAGE: the container matrix's image, built locally
# (no registry is reachable, and none is needed): the static launcher this tree
# builds, a static busybox as its userland, the tests' static helpers (tryop),
# bubblewrap (the control) and Node.js with their libraries, the npm package's
# JavaScript in /opt/landlock-run, /etc/passwd with root and nobody, and the checks:
# tests/container/ in /check, tests/guest/*.sh and tests/rights.sh in /guest.
# Imported into podman's store as IMAGE. Run by scripts/container-matrix.sh.
#
#   LR_CONTAINERS_BIN  the launcher to put in instead of the one `make` builds (e.g. a
#       deliberately broken one); such a run is not publishable
set -euo pipefail
# shellcheck source=scripts/containers/lib.sh
. "$(dirname "$0")/lib.sh"

tag=${1:?usage: image.sh IMAGE}
rootfs=$work/rootfs
arch=$(uname -m)

make -C "$root" -s all test-helpers >&2
rm -rf "$rootfs"
mkdir -p "$rootfs"/{bin,etc,tmp,proc,sys,dev,root,check,guest,opt/landlock-run}
chmod 1777 "$rootfs/tmp"
install -m 0755 "${LR_CONTAINERS_BIN:-$root/build/$arch/landlock-run}" "$rootfs/bin/landlock-run"
install -m 0755 "$root/build/$arch/tryop" "$rootfs/bin/tryop"
install -m 0755 /bin/busybox "$rootfs/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$rootfs/bin/$applet" ] || ln -s busybox "$rootfs/bin/$applet"
done
copy_with_libs "$rootfs" "$(command -v bwrap)" "$(command -v node)"
cp -R "$root"/npm/landlock-run/{package.json,index.js,compat.js,lib} "$rootfs/opt/landlock-run/"
printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' 'nobody:x:65534:65534:nobody:/nonexistent:/bin/sh' \
	>"$rootfs/etc/passwd"
printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' >"$rootfs/etc/group"
install -m 0644 "$root"/tests/container/check.sh "$root"/tests/container/spawn.js "$rootfs/check/"
install -m 0644 "$root"/tests/guest/*.sh "$root/tests/rights.sh" "$rootfs/guest/"
tar -C "$rootfs" --numeric-owner --owner=0 --group=0 -cf "$work/rootfs.tar" .
podman import -q "$work/rootfs.tar" "$tag" >/dev/null
rm -rf "$rootfs" "$work/rootfs.tar"
