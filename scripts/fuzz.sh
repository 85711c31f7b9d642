#!/usr/bin/env bash
# make fuzz: fuzz landlock-run's command line (tests/fuzz/fuzz_args.c) and the
# tracer's decoders of forged stops (tests/fuzz/fuzz_trace.c) with libFuzzer,
# FUZZ_SECONDS (default 60) each, under ASan and UBSan (each harness says what
# counts as a finding). Before that, deliberately broken launchers must be
# caught by the harnesses, so a clean run means something. A finding leaves
# its input in .cache/fuzz/ (replay: build/fuzz/fuzz_args FILE, or
# fuzz_trace). Ends with one line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/tally.sh
. scripts/tally.sh

seconds=${FUZZ_SECONDS:-60}
build=build/fuzz
cache=.cache/fuzz
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-std=c11 -Wall -Wextra -Werror)
# The launcher's sources, as the Makefile lists them.
read -r -a srcs <<<"$(make -s print-srcs)"

scripts/setup.sh fuzz

# build OUT DIR [CFLAG...]: the harness over the launcher sources in DIR.
# main() becomes lr_main and the process-level calls go to the harness
# (tests/fuzz/hooks.h); main ends in run(), which never returns, but the
# compiler cannot know it.
build() {
	local out=$1 src=$2 f objs=()
	shift 2
	mkdir -p "$out"
	for f in "${srcs[@]}"; do
		objs+=("$out/${f%.c}.o")
		mkdir -p "${objs[-1]%/*}"
		clang "${flags[@]}" -Wno-return-type "$@" -DLR_VERSION="\"$(cat VERSION)\"" \
			-include tests/fuzz/hooks.h -c "$src/$f" -o "${objs[-1]}" || return 1
	done
	for f in fuzz_args process fuzz_trace; do
		clang "${flags[@]}" -c "tests/fuzz/$f.c" -o "$out/$f.o" || return 1
	done
	clang "${flags[@]}" -o "$out/fuzz_args" "${objs[@]}" "$out/fuzz_args.o" "$out/process.o" &&
		# the tracer's files and what they use, without main and the ptrace loop
		clang "${flags[@]}" -o "$out/fuzz_trace" \
			$(printf '%s\n' "${objs[@]}" | grep -vE '/(landlock-run|trace/trace)\.o$') \
			"$out/fuzz_trace.o"
}

# The tracer's seeds: forged calls of every row, each with a connect to a
# 127-byte abstract address (the overflow a forged stop once caused), a path
# at the guard page and lengths past every limit.
seed_trace() {
	local dir=$1 row mode
	mkdir -p "$dir"
	for mode in 64 65 114 115; do # two calls each (bits 6-7: 1); ABI 1 and 10
		for row in $(seq 0 40); do
			{
				printf "\\x$(printf %02x "$mode")"
				# row, ret EACCES, kinds: fd, pointer, length; values
				printf "\\x$(printf %02x "$row")\\x00\\x06\\x01\\x05\\x05\\x01\\x00\\x00\\x7f\\x08\\x08\\x00\\x00"
				printf "\\x$(printf %02x "$row")\\x01\\x04\\x02\\x00\\x00\\x00\\x00\\x00\\x05\\x41\\x00\\x00\\x00"
				printf '\001\000\000'
				head -c 125 /dev/zero | tr '\0' A
			} >"$dir/seed-$mode-$row"
		done
	done
}

# The seed corpus: one input per line of tests/fuzz/seeds.txt.
seed() {
	local dir=$1 abi args i=0
	mkdir -p "$dir"
	while read -r abi args; do
		case $abi in '' | '#'*) continue ;; esac
		i=$((i + 1))
		{
			printf "\\x$(printf %02x $((abi - 1)))"
			printf '%s' "${args// /$'\n'}" | tr '\n' '\0'
		} >"$dir/seed-$i"
	done <tests/fuzz/seeds.txt
}

fuzz() { # BINARY SECONDS CORPUS [libFuzzer options]
	local bin=$1 secs=$2 corpus=$3
	shift 3
	"$bin" -max_total_time="$secs" -close_fd_mask=3 -dict=tests/fuzz/args.dict \
		-max_len=1024 -timeout=10 -artifact_prefix="$cache/" "$@" "$corpus"
}

# mutant NAME FILE SED-EXPR FINDING [HARNESS]: the launcher with one check
# removed must be caught by HARNESS (fuzz_args, or fuzz_trace) for what it
# broke: its finding, or a sanitizer's report, matches the extended regular
# expression FINDING (a mutant caught for something else is not caught).
mutant() {
	local name=$1 file=$2 expr=$3 finding=$4 harness=${5:-fuzz_args} dir="$build/mutant-$1"
	rm -rf "$dir"
	mkdir -p "$dir/src"
	cp --parents "${srcs[@]}" ./*.h trace/*.h platform/* "$dir/src/"
	sed -i "$expr" "$dir/src/$file"
	if cmp -s "$file" "$dir/src/$file"; then
		echo "mutant $name: '$expr' changed nothing in $file (update scripts/fuzz.sh)" >&2
		return 1
	fi
	# A removed call may leave a function or parameter unused: not an error here.
	build "$dir" "$dir/src" -Wno-unused-function -Wno-unused-parameter || return 1
	if [ "$harness" = fuzz_trace ]; then seed_trace "$dir/corpus"; else seed "$dir/corpus"; fi
	# Expected to abort on a seed; success would mean the harness is blind.
	! fuzz "$dir/$harness" 30 "$dir/corpus" -artifact_prefix="$dir/" >"$dir/log" 2>&1 || return 1
	grep -aqE "(^$harness: |ERROR: AddressSanitizer: ).*($finding)" "$dir/log" && return
	echo "mutant $name: caught, but not for /$finding/:" >&2
	grep -aE -m 3 "^$harness: |ERROR: " "$dir/log" >&2
	return 1
}

fuzz_trace_clean() {
	local log="$build/fuzz_trace.log"
	seed_trace "$cache/trace-corpus"
	if ! fuzz "$build/fuzz_trace" "$seconds" "$cache/trace-corpus" -print_final_stats=1 \
		>"$log" 2>&1; then
		grep -E 'fuzz_trace: |ERROR: |SUMMARY: |runtime error|Test unit written' "$log" >&2
		return 1
	fi
	grep -E '^Done [0-9]+ runs' "$log" || true
}

fuzz_clean() {
	local stats="$build/stats" log="$build/fuzz.log"
	seed "$cache/corpus"
	rm -f "$stats"
	if ! LR_FUZZ_STATS="$stats" fuzz "$build/fuzz_args" "$seconds" "$cache/corpus" \
		-print_final_stats=1 >"$log" 2>&1; then
		grep -E 'fuzz_args: |ERROR: |SUMMARY: |runtime error|Test unit written' "$log" >&2
		return 1
	fi
	grep -E '^Done [0-9]+ runs' "$log" || true
	cat "$stats"
	# Every kind of ending was reached: exec (the policy checks ran), usage
	# errors (125), and --help/--version (0).
	grep -Eq 'execs=[1-9][0-9]* exit0=[1-9][0-9]* exit125=[1-9]' "$stats"
}

mkdir -p "$cache"
tally_check "fuzz: harness builds" build "$build" .
tally_check "fuzz: catches an exec without restrict_self" mutant no-enforce landlock-run.c \
	'/^[[:space:]]*enforce(&p, ruleset);$/d' 'exec without no_new_privs and restrict_self'
tally_check "fuzz: catches --strict on a partial ABI" mutant no-strict abi.c \
	's/if (r->strict)$/if (0)/' '--strict ran at ABI'
tally_check "fuzz: catches --udp-bind on an ABI before 10" mutant udp-abi abi.c \
	's/"udp_bind", 10, 0}/"udp_bind", 4, 0}/' 'ruleset asks for more than ABI'
tally_check "fuzz: catches a swallowed option" mutant swallow landlock-run.c \
	's/if (strncmp(optarg, "--", 2) == 0 || is_short_cluster(optarg))$/if (0)/' \
	'option .* swallowed the option'
tally_check "fuzz: catches SIGPIPE left ignored for the command" mutant sigpipe landlock-run.c \
	'/^[[:space:]]*give_back_sigpipe();$/d' 'exec with SIGPIPE ignored'
tally_check "fuzz: catches root's capabilities left to the command" mutant caps landlock-run.c \
	's/^\tif (!p.asked.keep_caps)$/\tif (0)/' \
	"exec with capabilities left|root's exec with bounding set"
tally_check "fuzz: catches a filter that reads the high half of an argument" mutant high \
	seccomp.c 's/SECCOMP_DATA_ARG(r->arg));$/SECCOMP_DATA_ARG(r->arg) + 4);/' \
	'seccomp filter answers '
tally_check "fuzz: catches a filter without the i386 ABI" mutant i386 platform/linux-x64.h \
	's/{AUDIT_ARCH_I386, 0},/{AUDIT_ARCH_I386 ^ 1, 0},/' 'seccomp filter answers 32-bit '
tally_check "fuzz: catches clone's flags read from the wrong argument" mutant clone-arg seccomp.c \
	's/{GROUP_USERNS, NR_clone, 0, SET,/{GROUP_USERNS, NR_clone, 1, SET,/' \
	'seccomp filter answers clone\('
tally_check "fuzz: catches a run without the baseline" mutant no-baseline seccomp.c \
	's/uint64_t groups = GROUP_TTY | GROUP_BASELINE;/uint64_t groups = GROUP_TTY;/' \
	'seccomp filter answers .* with 0x7fff0000'
tally_check "fuzz: catches an argument read before the number (no action cache)" mutant \
	cache seccomp.c \
	's/^\tfilter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_NR);$/\tfilter_emit(f, BPF_LD_ABS, 0, 0, SECCOMP_DATA_ARG(0));\n&/' \
	'seccomp filter reads an argument of '
tally_check "fuzz: catches an environment edited out of order" mutant env inherit.c \
	's/^\tfor (i = 0; i < n; i++) {$/\tfor (i = n; i-- > 0;) {/' \
	'the edits say|the caller gave more or fewer'
tally_check "fuzz: catches a forged stop trusted without the kernel's call number" mutant \
	trusted trace/watch.c 's/ \&\& info->seccomp.nr == (uint64_t)call_nr\[row\];$/;/' \
	'trusted_stop trusted a stop' fuzz_trace
tally_check "fuzz: catches a socket address copied past sun_path" mutant sun-path trace/calls.c \
	's/^\tn = n < sizeof sa->sun_path ? n : sizeof sa->sun_path;$//' \
	'stack-buffer-overflow|global-buffer-overflow|heap-buffer-overflow' fuzz_trace
# The grant's rule on its own path, though it has hidden paths beneath it
# (hide.c's found = 0 no longer does: check_alias then refuses the run).
tally_check "fuzz: catches a rule on a directory above a hidden path" mutant hide grants.c \
	's/^\tif (!grant_hides(p, g, fd, canon))$/\tif (!grant_hides(p, g, fd, canon) || 1)/' \
	'a rule on .*, which is the hidden path '
tally_check "fuzz: no finding in ${seconds}s" fuzz_clean
tally_check "fuzz: no finding in the tracer's decoders in ${seconds}s" fuzz_trace_clean
tally_total
