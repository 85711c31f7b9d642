#!/usr/bin/env bash
# scripts/kernel-matrix.sh (make kernel-matrix): prove the launcher on real Debian
# kernels of both architectures under qemu (software emulation). Boots each kernel
# with a busybox initramfs holding the launcher and tests/guest/check.sh, and reads
# the verdict from the LRCHECK/LRDONE lines the guest prints (qemu exits 0 whatever
# happens inside). Kernels are fetched with `apt-get download` and only unpacked
# into .cache/kernels (never installed); a second run downloads nothing.
#
# Environment:
#   LR_MATRIX_BIN_X86_64, LR_MATRIX_BIN_AARCH64  launcher binary to test instead of
#       the one `make` builds (e.g. a deliberately broken one); docs are not rewritten
#   LR_MATRIX_ONLY   run only boots whose name contains this (e.g. x86_64-6.12)
#   LR_MATRIX_JOBS   parallel boots (default: number of CPUs)
#   LR_MATRIX_TIMEOUT  seconds per boot before it counts as failed (default 150)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"

cache=$root/.cache/kernels
work=$root/build/kernel-matrix
doc=$root/docs/kernel-matrix.md
jobs=${LR_MATRIX_JOBS:-$(nproc)}
boot_timeout=${LR_MATRIX_TIMEOUT:-150}

# One boot per row: ARCH SERIES LSM EXPECTED_ABI. LSM "default" keeps the kernel's
# built-in list (Landlock first on Debian); lockdown,yama leaves Landlock disabled,
# so landlock_create_ruleset fails with EOPNOTSUPP (expected ABI 0 = none).
# Slow aarch64 boots first, so the two CPUs stay busy until the end.
matrix=(
	"aarch64 6.12 default 6"
	"aarch64 6.1 default 2"
	"aarch64 6.1 lockdown,yama 0"
	"x86_64 6.12 default 6"
	"x86_64 6.1 default 2"
	"x86_64 6.1 lockdown,yama 0"
)

say() { echo "kernel-matrix: $*" >&2; }
die() {
	say "$*"
	exit 1
}

platform_file() { grep -l "^ARCH=$1\$" "$root"/platform/*.env | head -n1; }
pvar() { platform_var "$(platform_file "$1")" "$2"; }

# Debian's package name pattern for a kernel series (flavour without cloud/rt/dbg).
kernel_re() {
	case $1 in
	6.1) echo "^linux-image-6\\.1\\.0-[0-9]+-$2\$" ;;
	6.12) echo "^linux-image-6\\.12\\.[0-9]+\\+deb12-$2\$" ;;
	*) die "unknown kernel series $1" ;;
	esac
}

# fetchable NAME:ARCH...: those apt has a candidate version for (one apt-cache call;
# apt prints a native package without its :ARCH, so that is added back).
fetchable() {
	local native
	native=$(dpkg --print-architecture)
	apt-cache policy "$@" 2>/dev/null | awk -v native="$native" '
		/^[^ ]/ { p = $1; sub(/:$/, "", p); if (p !~ /:/) p = p ":" native }
		/^  Candidate: [0-9]/ { print p }'
}

cached_kernels() {
	local d
	for d in "$cache"/linux-image-*/vmlinuz; do
		[ -e "$d" ] && basename "$(dirname "$d")"
	done
	return 0
}

# resolve_kernels PAIR...: for each SERIES/DEB_ARCH pair, print "PAIR PKG" for the
# newest package of the series apt can fetch or, when apt knows none (offline,
# stale lists), the newest one already cached. Two apt-cache calls in all: each
# takes seconds.
resolve_kernels() {
	local names pair re pkg tops=() ok
	names=$(apt-cache pkgnames linux-image-6.1 2>/dev/null || true)
	for pair in "$@"; do
		re=$(kernel_re "${pair%/*}" "${pair#*/}")
		for pkg in $(grep -E "$re" <<<"$names" | sort -Vr | head -n 3); do
			tops+=("$pkg:${pair#*/}")
		done
	done
	ok=$([ ${#tops[@]} -eq 0 ] || fetchable "${tops[@]}")
	for pair in "$@"; do
		re=$(kernel_re "${pair%/*}" "${pair#*/}")
		pkg=$(sed -n "s/:${pair#*/}\$//p" <<<"$ok" | grep -E "$re" | sort -V | tail -n 1 || true)
		[ -n "$pkg" ] || pkg=$(cached_kernels | grep -E "$re" | sort -V | tail -n 1 || true)
		[ -n "$pkg" ] || die "no Debian ${pair%/*} kernel for ${pair#*/} (apt-get update?)"
		echo "$pair $pkg"
	done
}

# download_deb PKG DIR: apt-get download into DIR (handed to _apt, so apt's
# download sandbox can write there without a warning).
download_deb() {
	chown _apt "$2" 2>/dev/null || true
	(cd "$2" && apt-get download -q "$1" 2>&1 | grep -v '^Get:' >&2) || true
	ls "$2"/*.deb >/dev/null 2>&1 || die "apt-get download $1 failed"
}

# fetch_kernel PKG DEB_ARCH: .cache/kernels/PKG/{vmlinuz,config,version}.
fetch_kernel() {
	local dest=$cache/$1 tmp deb
	[ -f "$dest/vmlinuz" ] && return 0
	say "downloading $1:$2 (once; cached in .cache/kernels)"
	tmp=$(mktemp -d "$cache/.dl.XXXXXX")
	download_deb "$1:$2" "$tmp"
	deb=$(ls "$tmp"/*.deb)
	mkdir "$tmp/out"
	dpkg-deb -f "$deb" Version >"$tmp/out/version"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -C "$tmp" -x --wildcards './boot/vmlinuz-*' './boot/config-*'
	mv "$tmp"/boot/vmlinuz-* "$tmp/out/vmlinuz"
	mv "$tmp"/boot/config-* "$tmp/out/config"
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
	local z=$1/vmlinuz sects off len start tool pkg
	[ -f "$1/vmlinux" ] && return 0
	[ "$(od -An -c -j514 -N4 "$z" | tr -d ' ')" = HdrS ] || return 0
	sects=$(od -An -tu1 -j$((0x1f1)) -N1 "$z" | tr -d ' ')
	off=$(od -An -tu4 -j$((0x248)) -N4 "$z" | tr -d ' ')
	len=$(od -An -tu4 -j$((0x24c)) -N4 "$z" | tr -d ' ')
	start=$(((sects + 1) * 512 + off))
	case $(od -An -tx1 -j"$start" -N4 "$z" | tr -d ' ') in
	1f8b*) tool="gzip -dc" pkg=gzip ;;
	fd377a58) tool="xz -dc" pkg=xz-utils ;;
	28b52ffd) tool="zstd -dcq" pkg=zstd ;;
	*) return 0 ;; # another compressor: boot the bzImage (slower)
	esac
	need_packages "$pkg"
	if head -c $((start + len - 4)) "$z" | tail -c +$((start + 1)) | $tool >"$1/vmlinux.tmp" &&
		[ -n "$(elf_machine "$1/vmlinux.tmp")" ]; then
		mv "$1/vmlinux.tmp" "$1/vmlinux"
	else
		rm -f "$1/vmlinux.tmp"
	fi
}

# boot_image PKG: what qemu -kernel gets.
boot_image() {
	if [ -f "$cache/$1/vmlinux" ]; then echo "$cache/$1/vmlinux"; else echo "$cache/$1/vmlinuz"; fi
}

# busybox_for DEB_ARCH: a static busybox for that architecture.
busybox_for() {
	local dest=$cache/busybox-static-$1 tmp
	if [ "$1" = "$(dpkg --print-architecture)" ]; then
		echo /bin/busybox
		return 0
	fi
	if [ ! -f "$dest/busybox" ]; then
		say "downloading busybox-static:$1 (once)"
		tmp=$(mktemp -d "$cache/.dl.XXXXXX")
		download_deb "busybox-static:$1" "$tmp"
		dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -C "$tmp" -x ./bin/busybox
		mkdir -p "$dest"
		mv "$tmp/bin/busybox" "$dest/busybox"
		rm -rf "$tmp"
	fi
	echo "$dest/busybox"
}

# elf_machine FILE: e_machine of a little-endian ELF file (62 x86_64, 183 aarch64).
elf_machine() {
	[ "$(head -c4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ] || return 1
	od -An -tu2 -j18 -N2 "$1" | tr -d ' '
}

# launcher_for ARCH: the binary under test (built by make unless overridden).
launcher_for() {
	local var=LR_MATRIX_BIN_${1^^} bin
	bin=${!var:-}
	if [ -z "$bin" ]; then
		if [ "$1" = "$(uname -m)" ]; then
			make -C "$root" -s >&2
		else
			make -C "$root" -s ARCH="$1" >&2
		fi
		bin=$root/build/$1/landlock-run
	fi
	[ -x "$bin" ] || die "no launcher binary for $1: $bin"
	[ "$(elf_machine "$bin")" = "$(pvar "$1" ELF_MACHINE)" ] ||
		die "$bin is not an $1 ELF binary"
	echo "$bin"
}

# build_initramfs ARCH: build/kernel-matrix/ARCH/initrd.gz with busybox, the
# launcher, the truncate(2) helper, /init and the check script.
build_initramfs() {
	local arch=$1 deb cc specs dir bin
	deb=$(pvar "$arch" DEB_ARCH)
	cc=$(pvar "$arch" CC)
	specs=$(pvar "$arch" SPECS)
	dir=$work/$arch
	rm -rf "$dir"
	mkdir -p "$dir/root/bin" "$dir/root/proc" "$dir/root/sys" "$dir/root/dev" "$dir/root/tmp"
	bin=$(launcher_for "$arch")
	cp "$bin" "$dir/root/bin/landlock-run"
	cp "$(busybox_for "$deb")" "$dir/root/bin/busybox"
	command -v "$cc" >/dev/null || "$root/scripts/setup.sh" "build-$arch"
	"$cc" ${specs:+-specs "$specs"} -std=c11 -Os -Wall -Wextra -Werror -static -s \
		-o "$dir/root/bin/lr-truncate" "$root/tests/guest/lr-truncate.c"
	install -m 0755 "$root/tests/guest/init" "$dir/root/init"
	install -m 0644 "$root/tests/guest/check.sh" "$dir/root/check.sh"
	(cd "$dir/root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$dir/initrd.gz"
	echo "$bin" >"$dir/launcher"
}

boot_name() { echo "$1-$2${3/#default/}" | sed 's/lockdown,yama/-nolandlock/'; }

# boot ARCH SERIES LSM EXPECT KERNEL_PKG: one qemu run; the console goes to NAME.log.
boot() {
	local arch=$1 series=$2 lsm=$3 expect=$4 pkg=$5 name qemu console append t0
	local machine=()
	name=$(boot_name "$arch" "$series" "$lsm")
	qemu=$(pvar "$arch" QEMU_SYSTEM)
	case $arch in
	x86_64) console=ttyS0 ;;
	aarch64)
		console=ttyAMA0
		machine=(-M virt -cpu cortex-a57)
		;;
	esac
	append="console=$console panic=-1 quiet LR_EXPECT_ABI=$expect"
	[ "$lsm" = default ] || append+=" lsm=$lsm"
	t0=$(date +%s%N)
	timeout -k 5 "$boot_timeout" "$qemu" -accel tcg "${machine[@]}" -m 512 -smp 1 -nic none \
		-nographic -no-reboot -kernel "$(boot_image "$pkg")" -initrd "$work/$arch/initrd.gz" \
		-append "$append" </dev/null >"$work/$name.log" 2>&1 || true
	echo $((($(date +%s%N) - t0) / 1000000)) >"$work/$name.ms"
}

# ---- setup ------------------------------------------------------------------
t_begin=$(date +%s%N)
need_arm64_arch
need_packages qemu-system-x86 qemu-system-arm busybox-static cpio
if ! ls /var/lib/apt/lists/*_binary-arm64_Packages* >/dev/null 2>&1; then
	say "apt lists lack arm64: apt-get update"
	apt-get update -qq >&2
fi
mkdir -p "$cache" "$work"
trap 'rm -rf "$cache"/.dl.*' EXIT # downloads interrupted half-way
rm -f "$work"/*.log "$work"/*.ms

rows=()
for row in "${matrix[@]}"; do
	read -r arch series lsm expect <<<"$row"
	name=$(boot_name "$arch" "$series" "$lsm")
	[[ $name == *"${LR_MATRIX_ONLY:-}"* ]] && rows+=("$row")
done
[ ${#rows[@]} -gt 0 ] || die "LR_MATRIX_ONLY=${LR_MATRIX_ONLY:-} matches no boot"

# Resolving takes two slow apt-cache calls; reuse the answer while apt's package
# lists are unchanged (the stamp is their names and times).
declare -A kpkg built
pairs=() needed=" "
for row in "${matrix[@]}"; do
	read -r arch series lsm expect <<<"$row"
	pairs+=("$series/$(pvar "$arch" DEB_ARCH)")
done
for row in "${rows[@]}"; do
	read -r arch series lsm expect <<<"$row"
	needed+="$series/$(pvar "$arch" DEB_ARCH) "
done
mapfile -t pairs < <(printf '%s\n' "${pairs[@]}" | sort -u)
stamp=$(stat -c '%n %Y' /var/lib/apt/lists/*_Packages* 2>/dev/null | md5sum | cut -c1-32)
if [ "$(head -n1 "$cache/resolved" 2>/dev/null)" = "$stamp" ]; then
	resolved=$(tail -n +2 "$cache/resolved")
else
	resolved=$(resolve_kernels "${pairs[@]}")
	printf '%s\n%s\n' "$stamp" "$resolved" >"$cache/resolved"
fi
while read -r pair pkg; do
	[[ $needed == *" $pair "* ]] || continue
	fetch_kernel "$pkg" "${pair#*/}"
	unpack_bzimage "$cache/$pkg"
	kpkg[$pair]=$pkg
	# a newer Debian kernel replaces the cached one of the same series
	for old in $(cached_kernels | grep -E "$(kernel_re "${pair%/*}" "${pair#*/}")"); do
		[ "$old" = "$pkg" ] || rm -rf "${cache:?}/$old"
	done
done <<<"$resolved"
for row in "${rows[@]}"; do
	read -r arch series lsm expect <<<"$row"
	if [ -z "${built[$arch]:-}" ]; then
		build_initramfs "$arch"
		built[$arch]=1
	fi
done

# ---- boot -------------------------------------------------------------------
say "booting ${#rows[@]} kernels, $jobs at a time (software emulation)"
t_start=$(date +%s%N)
t_prep=$(((t_start - t_begin) / 1000000))
running=0
for row in "${rows[@]}"; do
	read -r arch series lsm expect <<<"$row"
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	boot "$arch" "$series" "$lsm" "$expect" "${kpkg[$series/$(pvar "$arch" DEB_ARCH)]}" &
	running=$((running + 1))
done
wait
t_boot=$((($(date +%s%N) - t_start) / 1000000))

# ---- verdict ----------------------------------------------------------------
secs() { printf '%d.%d s' $(($1 / 1000)) $(($1 % 1000 / 100)); }
total_pass=0 total_fail=0
head='| Kernel (Debian package) | Arch | Boot | ABI | Errata | Passed | Failed |'
table="$head Boot time |
|---|---|---|---|---|---|---|---|"
doc_table="$head
|---|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
	read -r arch series lsm expect <<<"$row"
	name=$(boot_name "$arch" "$series" "$lsm")
	pkg=${kpkg[$series/$(pvar "$arch" DEB_ARCH)]}
	out=$work/$name.out
	tr -d '\r' <"$work/$name.log" >"$out"
	pass=$(grep -ac 'LRCHECK PASS ' "$out" || true)
	fail=$(grep -ac 'LRCHECK FAIL ' "$out" || true)
	if ! grep -aq 'LRDONE' "$out"; then
		fail=$((fail + 1))
		say "$name: the guest did not finish (no LRDONE); console log: $work/$name.log"
		grep -av 'LRCHECK ' "$out" | tail -n 15 | sed "s/^/  $name| /" >&2 || true
	fi
	grep -ao 'LRCHECK FAIL .*' "$out" | sed "s/^/  $name| /" >&2 || true
	info=$(grep -ao 'LRINFO abi=.*' "$out" | head -n1 || true)
	abi=$(sed -n 's/.* abi=\([^ ]*\).*/\1/p' <<<" ${info#LRINFO }")
	errata=$(sed -n 's/.* errata=\([^ ]*\).*/\1/p' <<<" ${info#LRINFO }")
	[ "$lsm" = default ] && boot_desc=default || boot_desc="lsm=$lsm"
	cells="| $(cat "$cache/$pkg/version") ($pkg) | $arch | $boot_desc | ${abi:-?} | ${errata:-?} | $pass | $fail |"
	table+=$'\n'"$cells $(secs "$(cat "$work/$name.ms")") |"
	doc_table+=$'\n'"$cells"
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
done

echo "$table"
echo "boots: $(secs $t_boot) wall, $jobs at a time; preparation: $(secs $t_prep)"

# The committed results come only from the launcher `make` builds, all boots.
if [ -z "${LR_MATRIX_BIN_X86_64:-}${LR_MATRIX_BIN_AARCH64:-}${LR_MATRIX_ONLY:-}" ]; then
	cat >"$doc" <<EOF
# Kernel matrix results

Written by \`make kernel-matrix\` (scripts/kernel-matrix.sh). Each row is one boot of a
Debian kernel package under qemu with software emulation (\`-accel tcg\`): a busybox
initramfs runs tests/guest/check.sh against the launcher built for that architecture
(\`make\`, \`make ARCH=aarch64\`). ABI and errata are what \`landlock-run --probe\`
reported inside the guest; "none" is a kernel booted with \`lsm=lockdown,yama\`, where
Landlock is built in but not enabled (EOPNOTSUPP).

$doc_table

$total_pass passed, $total_fail failed.

What the guest proves on every kernel with Landlock enabled: the probe reports the
expected ABI, the full/partial verdict and the rights, TCP, scopes and log flags of
that ABI, and its self-test passed; a write outside \`--rw\` is denied and leaves no
file while the same write without the launcher works; a granted write lands; a read
outside \`--ro\` is denied; truncate(2) of a file outside the grants is denied exactly
when the ABI has the truncate right (3+) and succeeds on ABI 2; \`--strict\` (ABI 5),
\`--tcp-connect\` (4), \`--scope signal\` (6) and \`--no-log\` (7) run the command exactly
when the kernel has that ABI and are otherwise refused with 125 before it runs; on
ABI 4+ a TCP connect or bind to a port outside the grant is denied (EACCES) and the
granted one is not; on ABI 6+ \`--scope signal\` stops a signal to a process outside
the sandbox (EPERM). With Landlock disabled, \`--probe\`, \`--probe --json\` and runs
exit 125 with one \`landlock-run: \` line and the command never runs.
EOF
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
