#!/usr/bin/env bash
# scripts/matrix/boot.sh ARCH SUITE SERIES LSM ABI PKG [LOCK]: boot one kernel of the matrix
# under qemu (software emulation) with the initramfs of scripts/matrix/initramfs.sh,
# and judge it. The guest prints LRINFO/LRCHECK/LRDONE lines (tests/guest/check.sh);
# qemu exits 0 whatever happens inside, so the verdict comes only from those lines.
# Writes build/kernel-matrix/NAME.log (the console) and NAME.result, one line of
# results.tsv (lib.sh: results_table); says on stderr what failed. A lockdown boot
# (LOCK: userns, yama1..3, tests/guest/lockdown.sh) also writes NAME.where, its rows
# of the where-it-works table. Run by scripts/kernel-matrix.sh.
#
#   LR_MATRIX_TIMEOUT  seconds before the boot counts as failed (default 150)
set -euo pipefail
# shellcheck source=scripts/matrix/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 6 ] || [ $# -eq 7 ] || die "usage: boot.sh ARCH SUITE SERIES LSM ABI PKG [LOCK]"
arch=$1 series=$3 lsm=$4 abi=$5 pkg=$6 lock=${7:-}
name=$(boot_name "$arch" "$series" "$lsm" "$lock")
log=$work/$name.log out=$work/$name.out

# Per architecture: the serial console and the machine qemu emulates.
case $arch in
x86_64) console=ttyS0 machine=() extra=" syscall.x32=y" ;; # Debian builds x32 in, off
aarch64) console=ttyAMA0 machine=(-M virt -cpu cortex-a57) extra= ;;
*) die "no qemu machine for $arch" ;;
esac
append="console=$console panic=-1 quiet LR_EXPECT_ABI=$abi$extra"
[ "$lsm" = default ] || append+=" lsm=$lsm"
[ -z "$lock" ] || append+=" LR_LOCK=$lock"

t0=$(date +%s%N)
timeout -k 5 "${LR_MATRIX_TIMEOUT:-150}" "$(pvar "$arch" QEMU_SYSTEM)" -accel tcg "${machine[@]}" \
	-m 512 -smp 1 -nic none -nographic -no-reboot -kernel "$(boot_image "$pkg")" \
	-initrd "$work/$arch/initrd.gz" -append "$append" </dev/null >"$log" 2>&1 || true
ms=$((($(date +%s%N) - t0) / 1000000))

# ---- judge ------------------------------------------------------------------
tr -d '\r' <"$log" >"$out"
read -r pass fail < <(judge_checks "$name" "$out" "$log")
info=" $(grep -ao 'LRINFO abi=.*' "$out" | head -n1 | sed 's/^LRINFO//' || true)"
got_abi=$(sed -n 's/.* abi=\([^ ]*\).*/\1/p' <<<"$info")
errata=$(sed -n 's/.* errata=\([^ ]*\).*/\1/p' <<<"$info")
locked=$(sed -n 's/^LRINFO locked=//p' "$out" | head -n1)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$arch" "$lsm" "$pkg" \
	"$(cat "$cache/$pkg/version")" "${got_abi:-?}" "${errata:-?}" "$pass" "$fail" "$ms" \
	"${locked:--}" >"$work/$name.result"
# the where rows: the kernel, then what the guest printed (locked, user, cells)
grep -a '^LRWHERE	' "$out" | sed "s/^LRWHERE	/Linux $(cat "$cache/$pkg/version" | sed 's/[-+~].*//') ($pkg)	/" \
	>"$work/$name.where" || true
[ "$fail" -eq 0 ]
