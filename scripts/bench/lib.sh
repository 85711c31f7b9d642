# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source this
# Shared by scripts/bench.sh and scripts/bench/*.sh. Source it (bash): it sets the
# paths and commands every step uses and defines functions only.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$root/build/bench # this run: the timed runs, strace and perf output, facts
g=$out/g              # 10,000 directories; benchmarked commands run from here
lr=$root/landlock-run
floor=$out/floor          # scripts/bench/floor.c: exec only
floor_ll=$out/floor-landlock # the same plus the bare Landlock system calls
floor_sc=$out/floor-seccomp  # and a seccomp filter (of one instruction)
floor_pr=$out/floor-promise  # or the terminal filter and the capability drop
floor_bl=$out/floor-baseline # and the baseline's and root's metadata rules too
floor_pc=$out/floor-promise-checks  # floor-promise, floor-baseline with the terminal's and the
floor_bc=$out/floor-baseline-checks # policy directories' checks every run makes
floor_tr=$out/floor-trace # floor-baseline-checks with the least tracer: --explain's floor
sym=$out/syms/landlock-run # unstripped, for perf to name functions (same comm)
launch_grants="--ro / --rw /tmp --rw /dev/null"
# --explain's cost: gcc compiles a C file of 1,000 lines (scripts/bench/compile.py),
# confined as a build is; find opens every directory of /usr under --ro / (with
# root's capabilities kept: without them it cannot read polkit's 0700 directory);
# and a zlib-sized ./configure && make -j2 (scripts/bench/project.py).
compile_grants="--ro / --rw $out/compile --rw /tmp --rw /dev/null"
compile_cmd="gcc -c -o $out/compile/big.o $out/compile/big.c"
find_grants="--keep-caps --ro / --rw /dev/null"
find_cmd="find /usr -xdev"
build_grants="--ro / --rw $out/project --rw /tmp --rw /dev/null"
build_cmd="sh -c 'cd $out/project && ./configure >/dev/null && make -s -j2 && make -s clean'"
# --explain on short real work beyond the bench's own (issue 30): a tree of some
# 800 headers extracted by tar and by unzip over the last round's, a make of nine
# small C files, and a command that fails with one denial.
real=$out/real
real_grants="--ro / --rw $real --rw /tmp --rw /dev/null"
tar_cmd="tar xf $real/tree.tar -C $real/t"
unzip_cmd="unzip -qo $real/tree.zip -d $real/u"
make_cmd="make -s -B -C $real/mk"
fail_cmd="sh -c 'touch /usr/landlock-run-bench 2>/dev/null; true'"
# the same with the write granted: no denial, so the difference is the explanation
granted_cmd="sh -c 'touch $real/landlock-run-bench 2>/dev/null; true'"
# abs CMDLINE: the same command line by the command's path (cases.sh).
abs() { echo "$(command -v "${1%% *}") ${1#* }"; }
bwrap_cmd="bwrap --ro-bind / / --dev /dev --proc /proc -- /bin/true"
# --hide's cost: a home of 200 entries (100 directories, 99 files and
# .ssh) whose .ssh is hidden beneath --ro /. It lies where a user's does,
# /home/NAME (bench.sh makes it there when /home is writable): the walk grants
# every entry of each directory on the way, so a home deep in the checkout
# would time the checkout's entries, not a home's.
home=${LR_BENCH_HOME:-$out/home}
hide_grants="--ro / --hide $home/.ssh"
# The entries that walk grants, as --ro options: every entry but symlinks and
# the one on the way, of / and of each directory down to the home.
hide_entries() {
	local dir=/ rest=${home#/}/.ssh next s=""
	while [ -n "$rest" ]; do
		next=${rest%%/*}
		s+=$(find "$dir" -mindepth 1 -maxdepth 1 ! -type l ! -name "$next" -printf ' --ro %p')
		dir=${dir%/}/$next
		if [[ $rest == */* ]]; then rest=${rest#*/}; else rest=""; fi
	done
	echo "${s# }"
}
# The seccomp filter's cost: the launcher as it runs by default (the
# baseline, and as root the metadata rules, which make every open run the
# filter) against the same launcher with only the TIOCSTI rules, every group
# allowed; on a system-call-heavy walk of /usr and the gcc compile.
tiocsti_only="--allow-syscalls io_uring,userns,keyring,bpf,perf,userfaultfd,metadata"
findx_cmd="find /usr -xdev"

say() { echo "bench: $*" >&2; }

# fact KEY VALUE: one fact for scripts/bench/report.py (build/bench/facts, KEY=VALUE).
fact() { printf '%s=%s\n' "$1" "${2//$'\n'/ }" >>"$out/facts"; }

# grants N: "--ro /" and N distinct directories, as short names relative to $g:
# 10,000 of them stay under the kernel's 128 KiB limit for one argument string
# (the launchers get them as one line of the cases file).
grants() {
	local i s="--ro /"
	for ((i = 0; i < $1; i++)); do s+=" --ro $i"; done
	echo "$s"
}

# dups N: "--ro /" and one directory N times.
dups() {
	local i s="--ro /"
	for ((i = 0; i < $1; i++)); do s+=" --ro 5"; done
	echo "$s"
}
