# shellcheck shell=bash disable=SC2120 # optional arguments
# Shared by scripts/kernel-matrix.sh and scripts/matrix/*.sh. Source it (bash); it
# sets root, cache (downloaded kernels, kept between runs) and work (this run's
# files under build/) and defines functions only.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
cache=$root/.cache/kernels
work=$root/build/kernel-matrix
results=$work/results.tsv

say() { echo "kernel-matrix: $*" >&2; }
die() {
	say "$*"
	exit 1
}

platform_file() { grep -l "^ARCH=$1\$" "$root"/platform/*.env | head -n1; }
pvar() { platform_var "$(platform_file "$1")" "$2"; }

# boot_name ARCH SERIES LSM [LOCK]: x86_64-6.12, x86_64-6.1-nolandlock for
# lsm=lockdown,yama, x86_64-6.12-yama3 for the lockdown boot yama3.
boot_name() { echo "$1-$2${3/#default/}${4:+-$4}" | sed 's/lockdown,yama/-nolandlock/'; }

# matrix_rows [all]: the rows of tests/guest/kernels.txt ("ARCH SUITE SERIES LSM ABI
# LOCK", LOCK "-" where the row has none), without comments; unless "all", only the
# boots whose name contains $LR_MATRIX_ONLY.
matrix_rows() {
	local arch suite series lsm abi lock
	while read -r arch suite series lsm abi lock; do
		case $arch in '' | '#'*) continue ;; esac
		lock=${lock:--}
		[ "${1:-}" = all ] || [[ $(boot_name "$arch" "$series" "$lsm" "${lock#-}") == *"${LR_MATRIX_ONLY:-}"* ]] ||
			continue
		echo "$arch $suite $series $lsm $abi $lock"
	done <"$root/tests/guest/kernels.txt"
}

# host_suite: the Debian suite the host's own apt lists are for (bookworm).
host_suite() { sed -n 's/^VERSION_CODENAME=//p' /etc/os-release; }

# apt_opts SUITE: the apt options that read SUITE's package lists. The host's
# suite uses the host's own state; any other (sid) has its own under
# .cache/kernels/apt-SUITE, so the host stays on its suite.
apt_opts() {
	[ "$1" = "$(host_suite)" ] && return 0
	local d=$cache/apt-$1
	echo "-o Dir::Etc::sourcelist=$d/sources.list -o Dir::Etc::sourceparts=-" \
		"-o Dir::State::Lists=$d/lists -o Dir::Cache=$d/cache" \
		"-o APT::Architectures::=amd64 -o APT::Architectures::=arm64"
}

# download_deb SUITE PKG DIR: apt-get download PKG (NAME:ARCH) into DIR, which is
# handed to _apt so apt's download sandbox can write there without a warning.
download_deb() {
	chown _apt "$3" 2>/dev/null || true
	# shellcheck disable=SC2046 # apt_opts is a list of words
	(cd "$3" && apt-get $(apt_opts "$1") download -q "$2" 2>&1 | grep -v '^Get:' >&2) || true
	ls "$3"/"${2%%:*}"_*.deb >/dev/null 2>&1 || die "apt-get download $2 ($1) failed"
}

# elf_machine FILE: e_machine of an ELF file (62 x86_64, 183 aarch64), from the
# tree's one ELF reader (tryop elf, built by make test-helpers); fails for a file
# that is not ELF.
elf_machine() {
	local facts
	facts=$("$root/build/$(uname -m)/tryop" elf "$1") || return 1
	sed -n 's/.* machine=\([0-9]*\).*/\1/p' <<<"$facts"
}

# boot_image PKG: what qemu -kernel gets for a cached kernel.
boot_image() {
	if [ -f "$cache/$1/vmlinux" ]; then echo "$cache/$1/vmlinux"; else echo "$cache/$1/vmlinuz"; fi
}

# results_table [times]: the Markdown table of $results, one row per boot; with
# "times", a last column with each boot's wall time.
results_table() {
	local head='| Kernel (Debian package) | Arch | Boot | ABI | Errata | Passed | Failed |'
	local name arch lsm pkg version abi errata pass fail ms locked boot
	if [ "${1:-}" = times ]; then
		echo "$head Boot time |"
		echo "|---|---|---|---|---|---|---|---|"
	else
		echo "$head"
		echo "|---|---|---|---|---|---|---|"
	fi
	while IFS=$'\t' read -r name arch lsm pkg version abi errata pass fail ms locked; do
		case $name in '#'*) continue ;; esac
		[ "$lsm" = default ] && boot=default || boot="lsm=$lsm"
		[ "${locked:--}" = - ] || boot+=", $locked"
		printf '| %s (%s) | %s | %s | %s | %s | %s | %s |' \
			"$version" "$pkg" "$arch" "$boot" "$abi" "$errata" "$pass" "$fail"
		[ "${1:-}" = times ] && printf ' %d.%d s |' $((ms / 1000)) $((ms % 1000 / 100))
		echo
	done <"$results"
}
