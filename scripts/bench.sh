#!/usr/bin/env bash
# make bench: what landlock-run costs per call, against the floor (a static
# exec-only wrapper), the floor plus the bare Landlock system calls, a bare
# /bin/true and bubblewrap; how it scales with the number of grants; what --probe
# costs; how big the binaries are; where the time goes. Writes the published
# figures, docs/performance.md and docs/bench-scaling.svg (only this target does;
# make test never runs it). Each step is a script of its own, in scripts/bench/:
#   checks.sh   the benchmarked commands run, confine and make the rules asked for
#   timing.sh   interleaved single runs of the cases of cases.sh (the table of what
#               is timed), by rounds.c
#   strace.sh   system call traces and counts
#   perf.sh     CPU samples
#   report.py   the tables, each target MET or NOT MET with its numbers, the text
# The Makefile builds floor.c (the floors), rounds.c and the unstripped launcher
# perf reads. A missed target is a figure, never a failure; a benchmarked command
# that fails is. Ends with one line "N passed, N failed".
#
# Environment:
#   LR_BENCH_ROUNDS=N   rounds of the launch-sized groups (default 2000)
#   LR_BENCH_SROUNDS=N  rounds of the groups of slow cases (default 30)
#   LR_BENCH_DOCS=DIR   where performance.md and the SVG go (default docs;
#                       empty: write nothing, only print)
#   LR_BENCH_PERF=0     skip the perf profile
set -euo pipefail
# shellcheck source=scripts/bench/lib.sh
. "$(dirname "$0")/bench/lib.sh"
# shellcheck source=scripts/tally.sh
. "$root/scripts/tally.sh"
cd "$root"
steps=$root/scripts/bench
docs=${LR_BENCH_DOCS-docs}
started=$SECONDS
export PYTHONDONTWRITEBYTECODE=1

scripts/setup.sh bench
rm -rf "$out"
if [ -z "${LR_BENCH_HOME-}" ] && [ -w /home ]; then
	LR_BENCH_HOME=$(mktemp -d /home/lr-bench.XXXXXX)
	export LR_BENCH_HOME
	home=$LR_BENCH_HOME
	trap 'rm -rf "$LR_BENCH_HOME"' EXIT
fi
mkdir -p "$g"
fact load_start "$(cut -d' ' -f1-3 /proc/loadavg)"

builds() {
	make -s all build/bench/floor build/bench/floor-landlock build/bench/floor-seccomp \
		build/bench/floor-promise build/bench/floor-baseline build/bench/floor-promise-checks \
		build/bench/floor-baseline-checks build/bench/floor-trace build/bench/rounds \
		build/bench/syms/landlock-run >/dev/null &&
		make -s ARCH=aarch64 all >/dev/null
}
tally_check "make builds the launchers (x86_64, aarch64), the floors and the unstripped launcher" builds
if [ "$tally_fail" -gt 0 ]; then
	tally_total
	exit 1
fi
(cd "$g" && seq 0 9999 | xargs mkdir)
mkdir -p "$home/.ssh"
(cd "$home" && seq 1 100 | sed 's/^/d/' | xargs mkdir && seq 1 99 | sed 's/^/f/' | xargs touch)
echo secret >"$home/.ssh/id_ed25519"
mkdir -p "$out/compile"
python3 "$steps/compile.py" "$out/compile/big.c"
python3 "$steps/project.py" "$out/project"
# the real work (lib.sh): some 800 headers as a tar and a zip, nine C files
mkdir -p "$real/t" "$real/u" "$real/mk"
cp -r /usr/include/linux "$real/src"
tar cf "$real/tree.tar" -C "$real/src" .
(cd "$real/src" && zip -qr "$real/tree.zip" .)
for i in 1 2 3 4 5 6 7 8; do
	printf '#include <string.h>\nint f%d(const char *s) { return (int)strlen(s) + %d; }\n' "$i" "$i" \
		>"$real/mk/f$i.c"
done
printf '#include <stdio.h>\nint main(void) { return puts("hi") < 0; }\n' >"$real/mk/main.c"
# shellcheck disable=SC2016 # make expands $(OBJ), $@ and $<, not the shell
printf 'OBJ = main.o f1.o f2.o f3.o f4.o f5.o f6.o f7.o f8.o\nprog: $(OBJ)\n\t$(CC) -o $@ $(OBJ)\n%%.o: %%.c\n\t$(CC) -O1 -c -o $@ $<\n' \
	>"$real/mk/Makefile"
tally_run checks "$steps/checks.sh"
tally_run timing "$steps/timing.sh"
"$steps/strace.sh"
"$steps/perf.sh"

abi=$("$lr" --probe -v 2>/dev/null | sed -n 's/^abi=//p')
fact abi "${abi:-?}"
fact dirty "$(git status --porcelain -- '*.c' '*.h' Makefile 2>/dev/null | grep -c . || true)"
fact load_end "$(cut -d' ' -f1-3 /proc/loadavg)"
fact version "$("$lr" --version)"
fact commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
fact bwrap_version "$(bwrap --version 2>/dev/null || echo none)"
fact size_x86_64 "$(stat -c %s build/x86_64/landlock-run)"
fact size_aarch64 "$(stat -c %s build/aarch64/landlock-run)"
fact size_budget_x86_64 "$(sed -n 's/^SIZE_BUDGET=//p' platform/linux-x64.env)"
fact size_target_x86_64 "$(sed -n 's/^SIZE_TARGET=//p' platform/linux-x64.env)"
fact size_floor "$(stat -c %s "$floor")"
if [ "$tally_fail" -eq 0 ]; then
	tally_check "report (scripts/bench/report.py)" python3 "$steps/report.py" "$out"
fi

publish() {
	mkdir -p "$docs"
	gnuplot -e "datafile='$out/scaling.dat'; reffile='$out/refs.gp'; outfile='$docs/bench-scaling.svg'" \
		"$steps/plot.gp" && cp "$out/performance.md" "$docs/performance.md"
}
if [ -n "$docs" ] && [ "$tally_fail" -eq 0 ]; then
	tally_check "wrote $docs/performance.md and $docs/bench-scaling.svg" publish
fi
say "took $((SECONDS - started)) s"
tally_total
