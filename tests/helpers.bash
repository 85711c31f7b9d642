# Shared by every tests/*.bats (`load helpers`): the assertion libraries, the
# launcher and the test helpers under test, what the kernel says without the
# launcher, the rights table (tests/rights.sh), and servers for socket tests.
bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert
bats_load_library bats-file

# The binary under test: scripts/sanitize.sh points LR_BIN at an ASan build.
LR=${LR_BIN:-$BATS_TEST_DIRNAME/../landlock-run}
# The test helpers, built by `make test-helpers` (scripts/test.sh runs it):
# tryop (tests/tryop.c), fault and fakeabi (tests/fault.c).
HELPERS=${BATS_TEST_DIRNAME%/*}/build/$HOSTTYPE
TRYOP=$HELPERS/tryop
FAULT=$HELPERS/fault
FAKEABI=$HELPERS/fakeabi
# Debian's python3 starts in 20 ms; a pyenv shim first in PATH takes 200.
PYTHON=$(command -v /usr/bin/python3 || command -v python3)
. "$BATS_TEST_DIRNAME/rights.sh"

# The kernel's own answers, asked by tryop rather than the launcher, so a broken
# launcher cannot turn failures into skips: the ABI ("7", or an errno name such
# as ENOSYS) and the errata as the probe prints them ("0x7", or "unknown" where
# the kernel has no errata query).
KABI=$("$TRYOP" abi 2>/dev/null) || true
KERRATA=$("$TRYOP" errata 2>/dev/null) || KERRATA=unknown

# require_helpers: fail when the test helpers are missing or older than their
# sources (make -q builds nothing); checked once per file.
require_helpers() {
	[ -e "$BATS_FILE_TMPDIR/helpers-ok" ] && return 0
	make -s -q -C "$BATS_TEST_DIRNAME/.." test-helpers ||
		fail "the test helpers in $HELPERS are missing or stale: run make test-helpers"
	touch "$BATS_FILE_TMPDIR/helpers-ok"
}

# Landlock is a kernel feature: fail (not skip) when the kernel has it and
# skip only where it truly does not.
require_landlock() {
	require_helpers
	[ "$KABI" -gt 0 ] 2>/dev/null && return 0
	skip "this kernel has no usable Landlock ($KABI)"
}

# require_abi N: skip where the kernel's own ABI is below N, saying where it is
# proven instead: the kernel matrix boots Debian's kernels up to ABI 10.
require_abi() {
	[ "$KABI" -ge "$1" ] 2>/dev/null ||
		skip "needs Landlock ABI $1, the kernel has $KABI (proven on Linux 7.2, ABI 10, by make kernel-matrix)"
}

# as_nobody: from here on the test runs what it runs as nobody from copies,
# and AS_NOBODY is the prefix that does it. Skips unless root. The checkout may
# lie where nobody cannot enter (root's home, any mktemp -d), so the launcher
# and the test helpers are copied to a fresh directory under $NOBODY_DIR
# (tests/setup_suite.bash), and LR, HELPERS, TRYOP, FAULT and FAKEABI point at
# the copies: root's runs in the same test then use the very same bytes.
as_nobody() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to become another user"
	[ -d "${NOBODY_DIR-}" ] || fail "no \$NOBODY_DIR: bats did not run tests/setup_suite.bash"
	local dir
	dir=$(mktemp -d "$NOBODY_DIR/XXXXXX") && chmod 0755 "$dir" &&
		cp "$LR" "$dir/landlock-run" && cp -R "$HELPERS" "$dir/helpers" ||
		fail "cannot copy the launcher and the helpers to $dir"
	LR=$dir/landlock-run HELPERS=$dir/helpers
	TRYOP=$HELPERS/tryop FAULT=$HELPERS/fault FAKEABI=$HELPERS/fakeabi
	AS_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
}

# policy_dir: a policy directory of this test's own, the only place (with
# /etc/landlock-run) @FILE reads a policy from: XDG_CONFIG_HOME is exported
# and $P is $XDG_CONFIG_HOME/landlock-run (mode 0700). It lies beside the
# test's temporary directory, not in it, so a --rw on that directory is not
# a grant above the policy directory (which the launcher refuses).
policy_dir() {
	export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR.config
	P=$XDG_CONFIG_HOME/landlock-run
	mkdir -m 0700 "$XDG_CONFIG_HOME" "$P" || fail "cannot make the policy directory $P"
}

# out_dir: $OUT, an empty directory for the command to write in; $MARKER, the
# file in it that the command in RAN leaves when it runs ("${RAN[@]}" is
# `-- COMMAND...`, to end a launcher command line with).
out_dir() {
	OUT=$BATS_TEST_TMPDIR/out
	MARKER=$OUT/ran
	RAN=(-- sh -c 'echo ran >"$0"' "$MARKER")
	mkdir "$OUT"
}

# assert_one_launcher_line: stderr ($output with --separate-stderr: $stderr)
# holds exactly one line, and it starts with "landlock-run: ".
assert_one_launcher_line() {
	local err=${stderr-$output}
	[ "$(printf '%s\n' "$err" | grep -c '')" -eq 1 ] ||
		fail "expected exactly one stderr line, got: $err"
	[[ $err == "landlock-run: "* ]] || fail "expected a 'landlock-run: ' line, got: $err"
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

# refute_launcher_line: no "landlock-run: " failure line on stderr (-v lines
# have other prefixes).
refute_launcher_line() {
	if grep -q '^landlock-run: ' <<<"${stderr-}"; then fail "a failure line in: $stderr"; fi
}

# KUSED: the ABI a run uses here without --abi: the kernel's, at most the
# newest the launcher knows.
KUSED=$KABI
[ "$KABI" -gt "$(abi_max)" ] 2>/dev/null && KUSED=$(abi_max)

# FULL_ABI: from this ABI on every filesystem right the launcher knows is
# handled, and the probe says "fully enforced" (the newest fs row of rights.sh).
FULL_ABI=$(abi_max fs)

# yes_from N USED: yes when ABI USED has what ABI N brought, else no.
yes_from() { if [ "$2" -ge "$1" ]; then echo yes; else echo no; fi; }

# verdict_at USED: the probe's first line at abi_used=USED.
verdict_at() {
	if [ "$1" -ge "$FULL_ABI" ]; then
		echo "landlock: fully enforced"
	else
		echo "landlock: partially enforced (older ABI)"
	fi
}

# proven_at USED: what the probe proves without policy options at abi_used=USED:
# the three file checks, and a pathname socket from the ABI that confines it.
proven_at() {
	echo "read_dir,read_file,write_file$([ "$1" -ge "$(right_abi resolve_unix)" ] && echo ,resolve_unix)"
}

# where_here: the probe's where= for a launcher run from here: seccomp_filter
# when this shell already runs under a seccomp filter (a container runner).
where_here() {
	grep -qx 'Seccomp:[[:space:]]*2' /proc/self/status && echo seccomp_filter || :
}

# probe_report ABI USED ERRATA [PROVEN] [WHERE]: the whole text report the probe
# must print for a kernel of ABI used at USED, every key from tests/rights.sh;
# WHERE (default: where_here) is what the place it ran in stands in the way of.
probe_report() {
	local used=$2
	verdict_at "$used"
	echo "abi=$1"
	echo "abi_used=$used"
	echo "errata=$3"
	echo "fs=$([ "$used" -ge "$FULL_ABI" ] && echo full || echo partial)"
	echo "fs_handled=$(rights fs "$used")"
	echo "fs_missing=$(rights_missing fs "$used")"
	echo "pathname_sockets=$(yes_from "$(right_abi resolve_unix)" "$used")"
	echo "tcp=$(yes_from "$(right_abi tcp_connect)" "$used")"
	echo "udp=$(yes_from "$(right_abi udp_connect)" "$used")"
	echo "scopes=$(rights scope "$used")"
	echo "log_flags=$(yes_from "$(right_abi --no-log)" "$used")"
	echo "unused=$(rights unused "$used")"
	echo "proven=${4:-$(proven_at "$used")}"
	echo "unprovable="
	echo "tty_injection=refused"
	echo "network_confined=nothing"
	echo "network=none"
	echo "baseline=$(baseline_groups)"
	echo "no_unix=no"
	echo "explain=yes"
	echo "where=${5-$(where_here)}"
	echo "self_test=passed"
}

# baseline_groups: what the filter refuses by default, for whoever runs this:
# root's metadata too where the caller is uid 0 (any of its three uids).
baseline_groups() {
	echo "io_uring,userns,keyring,bpf,perf,userfaultfd$([ "$(id -u)" = 0 ] && echo ,metadata)"
}
