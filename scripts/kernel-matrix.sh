#!/usr/bin/env bash
# scripts/kernel-matrix.sh (make kernel-matrix): prove the launcher on real Debian
# kernels of both architectures under qemu (software emulation). One boot per row
# of tests/guest/kernels.txt; each runs the tests/guest checks against the launcher
# built for that architecture. The steps are scripts of their own:
#   scripts/matrix/kernels.sh     find and download the kernels (cached)
#   scripts/matrix/initramfs.sh   the guest userland, per architecture
#   scripts/matrix/boot.sh        boot one kernel and judge what the guest printed
# Results go to build/kernel-matrix/results.tsv (and the lockdown boots' rows of the
# where-it-works table to where.tsv) only; `make kernel-matrix-doc`
# (scripts/matrix/publish.sh) writes them into docs/kernel-matrix.md and the README's where-it-works summary.
# Ends with one line "N passed, N failed".
#
# Environment:
#   LR_MATRIX_BIN_X86_64, LR_MATRIX_BIN_AARCH64  launcher binary to test instead of
#       the one `make` builds (e.g. a deliberately broken one); such a run is not
#       publishable
#   LR_MATRIX_ONLY   run only boots whose name contains this (e.g. x86_64-6.12)
#   LR_MATRIX_JOBS   parallel boots (default: number of CPUs)
#   LR_MATRIX_TIMEOUT  seconds per boot before it counts as failed (default 150)
set -euo pipefail
# shellcheck source=scripts/matrix/lib.sh
. "$(dirname "$0")/matrix/lib.sh"
# shellcheck source=scripts/tally.sh
. "$root/scripts/tally.sh"
m=$root/scripts/matrix
jobs=${LR_MATRIX_JOBS:-$(nproc)}

secs() { printf '%d.%d s' $(($1 / 1000)) $(($1 % 1000 / 100)); }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

t_begin=$(now_ms)
"$root/scripts/setup.sh" matrix
make -C "$root" -s test-helpers # tryop elf reads the kernels' and launchers' headers
mapfile -t rows < <(matrix_rows)
[ ${#rows[@]} -gt 0 ] || die "LR_MATRIX_ONLY=${LR_MATRIX_ONLY:-} matches no boot"
mkdir -p "$work"
rm -f "$work"/*.log "$work"/*.out "$work"/*.result "$work"/*.where "$work/where.tsv" "$results"

declare -A kernel
kernels=$("$m/kernels.sh")
while read -r key pkg; do kernel[$key]=$pkg; done <<<"$kernels"
for arch in $(printf '%s\n' "${rows[@]}" | awk '{ print $1 }' | sort -u); do
	"$m/initramfs.sh" "$arch"
done

say "booting ${#rows[@]} kernels, $jobs at a time (software emulation)"
t_start=$(now_ms)
running=0
for row in "${rows[@]}"; do
	read -r arch suite series lsm abi lock <<<"$row"
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	"$m/boot.sh" "$arch" "$suite" "$series" "$lsm" "$abi" \
		"${kernel[$suite/$series/$(pvar "$arch" DEB_ARCH)]}" "${lock#-}" &
	running=$((running + 1))
done
wait || true
t_end=$(now_ms)

# One file of results, in the order of the rows; its first line says whether the
# run may be published (every row, the launchers make builds).
if [ -z "${LR_MATRIX_BIN_X86_64:-}${LR_MATRIX_BIN_AARCH64:-}${LR_MATRIX_ONLY:-}" ]; then
	echo "# complete run" >"$results"
else
	echo "# partial run: LR_MATRIX_ONLY='${LR_MATRIX_ONLY:-}'" \
		"LR_MATRIX_BIN_X86_64='${LR_MATRIX_BIN_X86_64:-}' LR_MATRIX_BIN_AARCH64='${LR_MATRIX_BIN_AARCH64:-}'" >"$results"
fi
for row in "${rows[@]}"; do
	read -r arch suite series lsm abi lock <<<"$row"
	name=$(boot_name "$arch" "$series" "$lsm" "${lock#-}")
	if [ -f "$work/$name.result" ]; then
		cat "$work/$name.result" >>"$results"
		cat "$work/$name.where" >>"$work/where.tsv" 2>/dev/null || true
	else
		say "$name: no result (boot.sh failed before judging)"
		tally_add "$name" 0 1 >/dev/null
	fi
done

results_table times
while IFS=$'\t' read -r name _ _ _ _ _ _ pass fail _; do
	case $name in '#'*) continue ;; esac
	tally_add "$name" "$pass" "$fail"
done <"$results"
echo "boots: $(secs $((t_end - t_start))) wall, $jobs at a time; preparation: $(secs $((t_start - t_begin)))"
tally_total
