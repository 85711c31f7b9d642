# shellcheck shell=bash disable=SC2154 # the variables come from timing.sh and lib.sh
# scripts/bench/cases.sh: what make bench times, as a table. Sourced by
# scripts/bench/timing.sh, which defines
#   group NAME ROUNDS WARMUP  the cases after it form one group: ROUNDS rounds
#                             (after WARMUP more), each of which runs every case
#                             of the group once, in an order rotated by one
#   bench NAME COMMAND        one case: a command line, split at spaces (a word
#                             in single quotes kept whole) and run without a
#                             shell from build/bench/g (where grant names resolve)
# and has $rounds and $srounds (LR_BENCH_ROUNDS, LR_BENCH_SROUNDS) and everything
# of scripts/bench/lib.sh ($lr, $floor, $floor_ll, grants N, dups N).
#
# A ratio between two cases of one group comes from the same rounds. A new case is
# a line here; a target on it is a line of RATIOS in scripts/bench/targets.py; a
# group without a table of its own in the report gets a generic one.

# Launch: what one call costs, against the floors and bubblewrap. floor-promise is
# the least that keeps the promises of a run with every --allow-syscalls group
# (Landlock, the terminal filter, the capability drop); floor-baseline the least
# that keeps those of a default run as root (the baseline's and the metadata rules
# too), each filter written plainly in scripts/bench/floor.c; the -checks floors
# make the terminal's and the policy directories' checks as well, which every run
# makes beside its filter.
group launch "$rounds" 50
bench true "/bin/true"
bench floor "$floor /bin/true"
bench floor-landlock "$floor_ll $launch_grants -- /bin/true"
bench floor-seccomp "$floor_sc $launch_grants -- /bin/true"
bench floor-promise "$floor_pr $launch_grants -- /bin/true"
bench floor-baseline "$floor_bl $launch_grants -- /bin/true"
bench floor-promise-checks "$floor_pc $launch_grants -- /bin/true"
bench floor-baseline-checks "$floor_bc $launch_grants -- /bin/true"
bench landlock-run "$lr $launch_grants -- /bin/true"
bench landlock-run-keep-caps "$lr --keep-caps $launch_grants -- /bin/true"
bench landlock-run-tiocsti "$lr $tiocsti_only $launch_grants -- /bin/true"
bench landlock-run-kill-tree "$lr --kill-tree $launch_grants -- /bin/true"
bench landlock-run-private-tmp "$lr --ro / --private-tmp --rw /dev/null -- /bin/true"
bench landlock-run-no-unix "$lr --no-unix $launch_grants -- /bin/true"
bench probe "$lr --probe"
bench noop "$floor"
bench floor-noop "$floor $floor"
bench landlock-run-noop "$lr $launch_grants -- $floor"
if $bwrap_cmd 2>/dev/null; then bench bwrap "$bwrap_cmd"; fi # else checks.sh says why

# --explain: the tracer's cost, against the same confined runs without it.
group compile "$srounds" 2
bench compile "$lr $compile_grants -- $compile_cmd"
bench compile-explain "$lr --explain $compile_grants -- $compile_cmd"
bench compile-tiocsti "$lr $tiocsti_only $compile_grants -- $compile_cmd"
bench compile-kill-tree "$lr --kill-tree $compile_grants -- $compile_cmd"
bench compile-private-tmp "$lr ${compile_grants/--rw \/tmp/--private-tmp} -- $compile_cmd"
bench compile-no-unix "$lr --no-unix $compile_grants -- $compile_cmd"
group find "$srounds" 2
bench find "$lr $find_grants -- $find_cmd"
bench find-explain "$lr --explain $find_grants -- $find_cmd"
group build $((srounds / 2)) 1
bench build "$lr $build_grants -- $build_cmd"
bench build-explain "$lr --explain $build_grants -- $build_cmd"
bench build-kill-tree "$lr --kill-tree $build_grants -- $build_cmd"

# --explain on short real work beyond the bench's own, a group each (a writer in the
# same group would leave its writeback to whichever case ran after it); and
# floor-trace, the least tracer that sees the result of each call the policy can
# refuse (scripts/bench/floor-trace.c): what any ptrace --explain pays the kernel.
# Each command by its path in every case: floor-trace makes no PATH lookup, and
# the launcher's would add its failed execve calls to one side alone.
tar_cmd=$(abs "$tar_cmd") unzip_cmd=$(abs "$unzip_cmd") make_cmd=$(abs "$make_cmd")
fail_cmd=$(abs "$fail_cmd") granted_cmd=$(abs "$granted_cmd")
group tar $((srounds / 2)) 1
bench tar "$lr $real_grants -- $tar_cmd"
bench tar-explain "$lr --explain $real_grants -- $tar_cmd"
bench tar-floor-trace "$floor_tr $real_grants -- $tar_cmd"
group unzip $((srounds / 2)) 1
bench unzip "$lr $real_grants -- $unzip_cmd"
bench unzip-explain "$lr --explain $real_grants -- $unzip_cmd"
bench unzip-floor-trace "$floor_tr $real_grants -- $unzip_cmd"
group make $((srounds / 2)) 1
bench make "$lr $real_grants -- $make_cmd"
bench make-explain "$lr --explain $real_grants -- $make_cmd"
bench make-floor-trace "$floor_tr $real_grants -- $make_cmd"
# The short failure beside the whole-tree mode, and the same command with its write
# granted: its fixed cost splits into the tree mode, the explanation of one denial
# and the tracer's own start (report.py).
group fail $((rounds / 4)) 10
bench fail "$lr $real_grants -- $fail_cmd"
bench fail-explain "$lr --explain $real_grants -- $fail_cmd"
bench fail-floor-trace "$floor_tr $real_grants -- $fail_cmd"
bench fail-kill-tree "$lr --kill-tree $real_grants -- $fail_cmd"
bench granted "$lr $real_grants -- $granted_cmd"
bench granted-explain "$lr --explain $real_grants -- $granted_cmd"
bench granted-floor-trace "$floor_tr $real_grants -- $granted_cmd"

# --hide: the walk around ~/.ssh in a home of 200 entries, against --ro / alone;
# and floor-landlock given the rules the walk makes, against floor-landlock --ro /:
# what any launcher that withholds a path by granting what is around it pays.
group hide "$rounds" 50
bench ro-root "$lr --ro / -- /bin/true"
bench hide "$lr $hide_grants -- /bin/true"
bench floor-ro-root "$floor_ll --ro / -- /bin/true"
bench floor-hide "$floor_ll $(hide_entries) -- /bin/true"

# The seccomp filter's rules against only the TIOCSTI ones: the action
# cache answers every call without a rule, so only the rules' calls cost.
group filter "$srounds" 2
bench find-xdev "$lr $find_grants -- $findx_cmd"
bench find-xdev-tiocsti "$lr $tiocsti_only $find_grants -- $findx_cmd"

# Scaling with the number of grants: up to 1,000 ...
group small $((rounds / 2)) 20
for n in 0 1 10 100 1000; do
	bench "lr-$n" "$lr $(grants "$n") -- /bin/true"
	bench "fl-$n" "$floor_ll $(grants "$n") -- /bin/true"
done
bench true "/bin/true"

# ... and at 10,000, distinct and the same directory, with the cost of the argv alone.
group big $((3 * srounds)) 2
bench lr-0 "$lr $(grants 0) -- /bin/true"
bench fl-0 "$floor_ll $(grants 0) -- /bin/true"
bench lr-1 "$lr $(grants 1) -- /bin/true"
bench lr-10000 "$lr $(grants 10000) -- /bin/true"
bench fl-10000 "$floor_ll $(grants 10000) -- /bin/true"
bench lr-dup "$lr $(dups 10000) -- /bin/true"
bench fl-dup "$floor_ll $(dups 10000) -- /bin/true"
bench argv-10000 "/bin/true $(grants 10000)"
bench argv-dup "/bin/true $(dups 10000)"
bench true "/bin/true"
