#!/usr/bin/env bash
# make bench: what landlock-run costs per call, against the floor (a static
# exec-only wrapper), the floor plus the bare Landlock system calls, a bare
# /bin/true and bubblewrap; how it scales with the number of grants; what
# --probe costs; how big the binaries are; and where the time goes
# (strace, perf). Prints a Markdown table and, for each target of issue 7,
# MET or NOT MET with the numbers; writes docs/performance.md and
# docs/bench-scaling.svg.
#
# Timing: hyperfine -N (no shell), warm-up, and several rounds that each run
# every command of a group, so background load falls on all of them alike.
# A command's figure is the median of all its runs; a ratio is computed from
# the same rounds (its spread: the interquartile range of per-round ratios).
#
# A missed target does not fail the script; a benchmark command that fails
# does. The last line is "N passed, N failed" (checks that the benchmarked
# commands built, ran and confined as they should).
#
# Environment:
#   LR_BENCH_ROUNDS=N   launch rounds (default 30, 50 runs each)
#   LR_BENCH_SROUNDS=N  scaling rounds at 10,000 grants (default 8; 3N below)
#   LR_BENCH_DOCS=DIR   where performance.md and the SVG go (default docs;
#                       empty: write nothing, only print)
#   LR_BENCH_PERF=0     skip the perf profile
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"

rounds=${LR_BENCH_ROUNDS:-30}
srounds=${LR_BENCH_SROUNDS:-8}
docs=${LR_BENCH_DOCS-docs}
started=$SECONDS
passed=0 failed=0

say() { echo "bench: $*" >&2; }
pass() { passed=$((passed + 1)); echo "ok - $*"; }
flunk() { failed=$((failed + 1)); echo "not ok - $*"; }
finish() {
	echo "$passed passed, $failed failed"
	exit $((failed > 0))
}

need_packages hyperfine gnuplot-nox bubblewrap musl-tools strace python3 make

loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)

# --- build ---------------------------------------------------------------
if make -s >/dev/null && [ -x landlock-run ]; then
	pass "make builds build/x86_64/landlock-run"
else
	flunk "make builds build/x86_64/landlock-run"
	finish
fi
if make -s ARCH=aarch64 >/dev/null && [ -f build/aarch64/landlock-run ]; then
	pass "make ARCH=aarch64 builds build/aarch64/landlock-run"
else
	flunk "make ARCH=aarch64 builds build/aarch64/landlock-run"
fi

out=build/bench
rm -rf "$out"
mkdir -p "$out/json"
work=$(mktemp -d "${TMPDIR:-/tmp}/lr-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

lr=$root/landlock-run
floor=$work/floor
floor_ll=$work/floor-landlock
if musl-gcc -std=c11 -Wall -Wextra -Werror -static -Os -s -o "$floor" scripts/floor.c &&
	musl-gcc -std=c11 -Wall -Wextra -Werror -static -Os -s -DWITH_LANDLOCK \
		-o "$floor_ll" scripts/floor.c; then
	pass "scripts/floor.c builds (floor, floor-landlock)"
else
	flunk "scripts/floor.c builds (floor, floor-landlock)"
	finish
fi

# Grants are short names relative to $work/g: 10,000 of them, each "--ro N",
# stay under the kernel's 128 KiB limit for one argument string (hyperfine
# receives each command as one string).
mkdir "$work/g"
(cd "$work/g" && seq 0 9999 | xargs mkdir)
grants() { # grants N: "--ro /" and N distinct directories
	local i s="--ro /"
	for ((i = 0; i < $1; i++)); do s+=" --ro $i"; done
	echo "$s"
}
dups() { # dups N: "--ro /" and one directory N times
	local i s="--ro /"
	for ((i = 0; i < $1; i++)); do s+=" --ro 5"; done
	echo "$s"
}
g10k=$(grants 10000)
d10k=$(dups 10000)

# --- do the benchmarked commands work (and confine)? ---------------------
launch_grants="--ro / --rw /tmp --rw /dev/null"
# shellcheck disable=SC2086 # word splitting of grant lists is intended
check_confines() { # check_confines NAME LAUNCHER...: runs /bin/true, denies a write
	local name=$1
	shift
	if "$@" $launch_grants -- /bin/true &&
		! "$@" --ro / -- /bin/sh -c ": > '$work/denied'" 2>/dev/null &&
		[ ! -e "$work/denied" ]; then
		pass "$name runs /bin/true and denies a write outside --rw"
	else
		flunk "$name runs /bin/true and denies a write outside --rw"
	fi
}
check_confines landlock-run "$lr"
check_confines floor-landlock "$floor_ll"
if "$floor" /bin/true && "$floor"; then pass "floor runs /bin/true"; else flunk "floor runs /bin/true"; fi
if "$lr" --probe >/dev/null; then pass "landlock-run --probe"; else flunk "landlock-run --probe"; fi

# shellcheck disable=SC2086
rules() { (cd "$work/g" && { "$lr" -v $1 -- /bin/true 2>&1 | grep -c '^landlock-run rule: ' || true; }); }
n=$(rules "$g10k")
if [ "$n" -eq 10001 ]; then pass "10,000 distinct grants + / -> $n rules"; else flunk "10,000 distinct grants + / -> $n rules (want 10001)"; fi
n=$(rules "$d10k")
if [ "$n" -eq 2 ]; then pass "one directory 10,000 times + / -> $n rules"; else flunk "one directory 10,000 times + / -> $n rules (want 2)"; fi

bwrap_cmd="bwrap --ro-bind / / --dev /dev --proc /proc -- /bin/true"
bwrap_note=
# shellcheck disable=SC2086
if ! bwrap_err=$($bwrap_cmd 2>&1); then
	bwrap_note="bubblewrap left out: '$bwrap_cmd' failed: $(echo "$bwrap_err" | head -n 2 | tr '\n' ' ')"
	say "$bwrap_note"
	bwrap_cmd=
fi

# --- timing --------------------------------------------------------------
# hf FILE RUNS WARMUP NAME COMMAND [NAME COMMAND]...
hf() {
	local file=$1 runs=$2 warm=$3 args=()
	shift 3
	while [ $# -gt 0 ]; do
		args+=(-n "$1" "$2")
		shift 2
	done
	if ! hyperfine -N --style none --warmup "$warm" --runs "$runs" --export-json "$file" \
		"${args[@]}" >"$file.log" 2>&1; then
		say "hyperfine failed; its last lines:"
		tail -n 3 "$file.log" | cut -c 1-400 >&2
		return 1
	fi
}

timing_ok=1
launch=(
	true "/bin/true"
	floor "$floor /bin/true"
	floor-landlock "$floor_ll $launch_grants -- /bin/true"
	landlock-run "$lr $launch_grants -- /bin/true"
	probe "$lr --probe"
	noop "$floor"
	floor-noop "$floor $floor"
	landlock-run-noop "$lr $launch_grants -- $floor"
)
[ -z "$bwrap_cmd" ] || launch+=(bwrap "$bwrap_cmd")
say "launch: $rounds rounds x 50 runs of $((${#launch[@]} / 2)) commands"
for ((r = 1; r <= rounds; r++)); do
	hf "$out/json/launch-$r.json" 50 10 "${launch[@]}" || timing_ok=0
done

small=(
	lr-0 "$lr $(grants 0) -- /bin/true" fl-0 "$floor_ll $(grants 0) -- /bin/true"
	lr-1 "$lr $(grants 1) -- /bin/true" fl-1 "$floor_ll $(grants 1) -- /bin/true"
	lr-10 "$lr $(grants 10) -- /bin/true" fl-10 "$floor_ll $(grants 10) -- /bin/true"
	lr-100 "$lr $(grants 100) -- /bin/true" fl-100 "$floor_ll $(grants 100) -- /bin/true"
	lr-1000 "$lr $(grants 1000) -- /bin/true" fl-1000 "$floor_ll $(grants 1000) -- /bin/true"
	true "/bin/true"
)
big=(
	lr-0 "$lr $(grants 0) -- /bin/true" fl-0 "$floor_ll $(grants 0) -- /bin/true"
	lr-1 "$lr $(grants 1) -- /bin/true"
	lr-10000 "$lr $g10k -- /bin/true" fl-10000 "$floor_ll $g10k -- /bin/true"
	lr-dup "$lr $d10k -- /bin/true" fl-dup "$floor_ll $d10k -- /bin/true"
	argv-10000 "/bin/true $g10k" argv-dup "/bin/true $d10k" true "/bin/true"
)
say "scaling: $((3 * srounds)) rounds x 20 runs up to 1,000 grants, $srounds x 8 at 10,000"
for ((r = 1; r <= 3 * srounds; r++)); do
	(cd "$work/g" && hf "$root/$out/json/small-$r.json" 20 3 "${small[@]}") || timing_ok=0
	if ((r % 3 == 0)); then
		(cd "$work/g" && hf "$root/$out/json/big-$((r / 3)).json" 8 1 "${big[@]}") || timing_ok=0
	fi
done
if [ "$timing_ok" -eq 1 ]; then pass "every benchmark command ran (hyperfine)"; else flunk "every benchmark command ran (hyperfine)"; fi

# --- where the time goes -------------------------------------------------
say "profile: strace"
# shellcheck disable=SC2086
if (
	cd "$work/g"
	strace -f -qq -o "$root/$out/strace-launch.lr" "$lr" $launch_grants -- /bin/true
	strace -f -qq -o "$root/$out/strace-launch.fl" "$floor_ll" $launch_grants -- /bin/true
	strace -f -qq -o "$root/$out/strace-launch.floor" "$floor" /bin/true
	strace -f -qq -o "$root/$out/strace-probe.lr" "$lr" --probe >/dev/null
	strace -f -qq -o "$root/$out/strace-0.lr" "$lr" --ro / -- /bin/true
	strace -f -qq -o "$root/$out/strace-0.fl" "$floor_ll" --ro / -- /bin/true
	strace -f -qq -o "$root/$out/strace-10k.lr" "$lr" $g10k -- /bin/true
	strace -f -qq -o "$root/$out/strace-10k.fl" "$floor_ll" $g10k -- /bin/true
	strace -f -qq -o "$root/$out/strace-dup.lr" "$lr" $d10k -- /bin/true
	strace -c -f -o "$root/$out/strace-c-10k.lr" "$lr" $g10k -- /bin/true
) 2>"$out/strace.err"; then
	strace_note=
else
	strace_note="strace does not work here: $(head -n 1 "$out/strace.err")"
	say "$strace_note"
fi

perf_note=
if [ "${LR_BENCH_PERF:-1}" = 0 ]; then
	perf_note="perf skipped (LR_BENCH_PERF=0)"
elif ! command -v perf >/dev/null; then
	perf_note="perf is not installed (Debian: linux-perf, matching the running kernel)"
elif ! perf record -q -e cpu-clock -o "$work/perf.try" -- /bin/true >/dev/null 2>&1; then
	perf_note="perf record -e cpu-clock does not work here: $(perf record -q -e cpu-clock -o "$work/perf.try" -- /bin/true 2>&1 | head -n 1)"
else
	say "profile: perf (software cpu-clock sampling)"
	# An unstripped copy of the same sources and flags, so perf can name functions.
	sym=$work/landlock-run
	# The Makefile's own link flags without -s (strip), read from make itself.
	# shellcheck disable=SC2016 # $(LDFLAGS) is for make
	ldflags=$(make -s --no-print-directory --eval='lr-bench-ldflags: ; @echo $(LDFLAGS)' lr-bench-ldflags |
		sed 's/\(^\| \)-s\( \|$\)/ /g')
	if ! make -s BIN="$sym" LDFLAGS="$ldflags" "$sym" >/dev/null 2>&1; then
		cp "$lr" "$sym"
		perf_note="(symbols unavailable: the launcher profiled is the stripped binary)"
	fi
	# shellcheck disable=SC2016 # $@ expands in the inner bash
	loop='n=$1; shift; for ((i = 0; i < n; i++)); do "$@" || exit 1; done'
	# prof NAME RUNS COMMAND...: sample RUNS runs of COMMAND into $out/perf-NAME.txt
	prof() {
		local name=$1 runs=$2
		shift 2
		(cd "$work/g" && perf record -q -g -F 20000 -e cpu-clock -o "$work/perf.data" -- \
			bash -c "$loop" loop "$runs" "$@") >/dev/null 2>"$work/perf.err" &&
			perf script -i "$work/perf.data" -F comm,ip,sym,dso >"$out/perf-$name.txt" 2>/dev/null
	}
	# shellcheck disable=SC2086
	if prof launch-lr 1000 "$sym" $launch_grants -- /bin/true &&
		prof launch-fl 1000 "$floor_ll" $launch_grants -- /bin/true &&
		prof launch-floor 1000 "$floor" /bin/true &&
		prof 10k-lr 10 "$sym" $g10k -- /bin/true &&
		prof 10k-fl 10 "$floor_ll" $g10k -- /bin/true &&
		prof probe 500 "$sym" --probe; then
		:
	else
		perf_note="perf record failed here: $(head -n 1 "$work/perf.err" 2>/dev/null)"
	fi
	cp "$sym" "$floor" "$floor_ll" "$out/" # for reading instructions at sampled addresses
fi
[ -z "$perf_note" ] || say "$perf_note"

# --- report --------------------------------------------------------------
abi=$("$lr" --probe 2>/dev/null | sed -n 's/^abi=//p')
dirty=$(git status --porcelain -- '*.c' '*.h' Makefile 2>/dev/null | grep -c . || true)
LR_LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
LR_VERSION=$("$lr" --version)
LR_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LR_HYPERFINE=$(hyperfine --version)
LR_BWRAP_VERSION=$(bwrap --version 2>/dev/null || echo none)
LR_SIZE_X86=$(stat -c %s build/x86_64/landlock-run)
LR_SIZE_ARM=$(stat -c %s build/aarch64/landlock-run 2>/dev/null || echo 0)
LR_FLOOR_SIZE=$(stat -c %s "$floor")
export LR_OUT=$out LR_ROUNDS=$rounds LR_SROUNDS=$srounds LR_ABI=${abi:-?} LR_DIRTY=$dirty \
	LR_BWRAP_NOTE=$bwrap_note LR_PERF_NOTE=$perf_note LR_STRACE_NOTE=$strace_note LR_LOAD_START=$loadavg_start LR_LOAD_END \
	LR_VERSION LR_COMMIT LR_HYPERFINE LR_BWRAP_VERSION LR_SIZE_X86 LR_SIZE_ARM LR_FLOOR_SIZE
if [ "$timing_ok" -eq 1 ] && python3 scripts/bench-report.py; then
	pass "report"
else
	flunk "report"
	finish
fi

if [ -n "$docs" ] && [ "$failed" -eq 0 ]; then
	mkdir -p "$docs"
	if gnuplot -e "datafile='$out/scaling.dat'; reffile='$out/refs.gp'; outfile='$docs/bench-scaling.svg'" \
		scripts/bench-plot.gp && cp "$out/performance.md" "$docs/performance.md"; then
		pass "wrote $docs/performance.md and $docs/bench-scaling.svg"
	else
		flunk "wrote $docs/performance.md and $docs/bench-scaling.svg"
	fi
fi
say "took $((SECONDS - started)) s"
finish
