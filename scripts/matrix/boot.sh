#!/usr/bin/env bash
# scripts/matrix/boot.sh ARCH SUITE SERIES LSM ABI PKG: boot one kernel of the matrix
# under qemu (software emulation) with the initramfs of scripts/matrix/initramfs.sh,
# and judge it. The guest prints LRINFO/LRCHECK/LRDONE lines (tests/guest/check.sh);
# qemu exits 0 whatever happens inside, so the verdict comes only from those lines.
# Writes build/kernel-matrix/NAME.log (the console) and NAME.result, one line of
# results.tsv (lib.sh: results_table); says on stderr what failed. Run by
# scripts/kernel-matrix.sh.
#
#   LR_MATRIX_TIMEOUT  seconds before the boot counts as failed (default 150)
set -euo pipefail
# shellcheck source=scripts/matrix/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 6 ] || die "usage: boot.sh ARCH SUITE SERIES LSM ABI PKG"
arch=$1 series=$3 lsm=$4 abi=$5 pkg=$6
name=$(boot_name "$arch" "$series" "$lsm")
log=$work/$name.log out=$work/$name.out

# Per architecture: the serial console and the machine qemu emulates.
case $arch in
x86_64) console=ttyS0 machine=() extra=" syscall.x32=y" ;; # Debian builds x32 in, off
aarch64) console=ttyAMA0 machine=(-M virt -cpu cortex-a57) extra= ;;
*) die "no qemu machine for $arch" ;;
esac
append="console=$console panic=-1 quiet LR_EXPECT_ABI=$abi$extra"
[ "$lsm" = default ] || append+=" lsm=$lsm"

t0=$(date +%s%N)
timeout -k 5 "${LR_MATRIX_TIMEOUT:-150}" "$(pvar "$arch" QEMU_SYSTEM)" -accel tcg "${machine[@]}" \
	-m 512 -smp 1 -nic none -nographic -no-reboot -kernel "$(boot_image "$pkg")" \
	-initrd "$work/$arch/initrd.gz" -append "$append" </dev/null >"$log" 2>&1 || true
ms=$((($(date +%s%N) - t0) / 1000000))

# ---- judge ------------------------------------------------------------------
tr -d '\r' <"$log" >"$out"
pass=$(grep -ac 'LRCHECK PASS ' "$out" || true)
fail=$(grep -ac 'LRCHECK FAIL ' "$out" || true)
if ! grep -aq 'LRDONE' "$out"; then
	fail=$((fail + 1))
	say "$name: the guest did not finish (no LRDONE); console log: $log"
	grep -av 'LRCHECK ' "$out" | tail -n 15 | sed "s/^/  $name| /" >&2 || true
fi
grep -ao 'LRCHECK FAIL .*' "$out" | sed "s/^/  $name| /" >&2 || true
info=" $(grep -ao 'LRINFO abi=.*' "$out" | head -n1 | sed 's/^LRINFO//' || true)"
got_abi=$(sed -n 's/.* abi=\([^ ]*\).*/\1/p' <<<"$info")
errata=$(sed -n 's/.* errata=\([^ ]*\).*/\1/p' <<<"$info")
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$arch" "$lsm" "$pkg" \
	"$(cat "$cache/$pkg/version")" "${got_abi:-?}" "${errata:-?}" "$pass" "$fail" "$ms" >"$work/$name.result"
[ "$fail" -eq 0 ]
