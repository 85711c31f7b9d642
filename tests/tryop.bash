# Shared by probe, abi, network, scope and log .bats files: the tryop helper
# (tests/tryop.c), servers it runs, and what the kernel says without the
# launcher. Load after helpers: `load helpers; load tryop`.

# Debian's python3 starts in 20 ms; a pyenv shim first in PATH takes 200.
PYTHON=$(command -v /usr/bin/python3 || command -v python3)

# setup_tryop: call in setup_file. Compiles tests/tryop.c with the system cc
# and asks the kernel once for its ABI ($KABI) and errata ($KERRATA).
setup_tryop() {
	TRYOP=$BATS_FILE_TMPDIR/tryop
	cc -std=c11 -Wall -Wextra -Werror -O2 -o "$TRYOP" "$BATS_TEST_DIRNAME/tryop.c"
	KABI=$(kernel_abi)
	KERRATA=$(kernel_errata)
	export TRYOP KABI KERRATA
}

# start_server OUT LINES ARG...: run `tryop ARG...` in the background with
# stdout in OUT and wait (at most 5 s) until it printed LINES lines. Its pid
# is appended to $BATS_FILE_TMPDIR/servers for stop_servers.
start_server() {
	local out=$1 lines=$2 i
	shift 2
	# 3>&-: bats waits for every holder of fd 3 before it finishes.
	"$TRYOP" "$@" >"$out" 3>&- &
	echo $! >>"$BATS_FILE_TMPDIR/servers"
	for ((i = 0; i < 100; i++)); do
		[ "$(grep -c '' "$out")" -ge "$lines" ] && return 0
		sleep 0.05
	done
	echo "tryop $* did not start: $(cat "$out")" >&2
	return 1
}

# stop_servers: end the servers this file started, by pid.
stop_servers() {
	local pid
	[ -f "$BATS_FILE_TMPDIR/servers" ] || return 0
	while read -r pid; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done <"$BATS_FILE_TMPDIR/servers"
	rm -f "$BATS_FILE_TMPDIR/servers"
}

# require_abi N: skip where the kernel's own ABI is below N (never on ABI 7).
require_abi() {
	[ "$KABI" -ge "$1" ] 2>/dev/null || skip "needs Landlock ABI $1, the kernel has $KABI"
}

# kernel_errata: the errata bitmask as the probe prints it (0x7), asked of
# the kernel directly; "unknown" where the kernel has no errata query.
kernel_errata() {
	"$PYTHON" -c 'import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(444, None, 0, 2)
print("0x%x" % r if r >= 0 else "unknown")'
}

# Filesystem right names in bit order, and the ones each ABI added.
FS_ABI1=execute,write_file,read_file,read_dir,remove_dir,remove_file,make_char,make_dir,make_reg,make_sock,make_fifo,make_block,make_sym
FS_ALL=$FS_ABI1,refer,truncate,ioctl_dev

# fs_handled_at N / fs_missing_at N: what the probe must print at ABI N.
fs_handled_at() {
	case $1 in
	1) echo "$FS_ABI1" ;;
	2) echo "$FS_ABI1,refer" ;;
	3 | 4) echo "$FS_ABI1,refer,truncate" ;;
	*) echo "$FS_ALL" ;;
	esac
}
fs_missing_at() {
	case $1 in
	1) echo "refer,truncate,ioctl_dev" ;;
	2) echo "truncate,ioctl_dev" ;;
	3 | 4) echo "ioctl_dev" ;;
	*) echo "" ;;
	esac
}
