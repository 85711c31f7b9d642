#!/usr/bin/env bash
# scripts/bench/checks.sh: the commands make bench times do what they are meant
# to (run, confine, make the rules asked for), so a figure is never of a command
# that failed. Records as facts what is a figure rather than a check: whether
# bubblewrap runs here, and what 10,000 grants do under a NOFILE limit of 64.
# Ends with one line "N passed, N failed".
set -euo pipefail
# shellcheck source=scripts/bench/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/tally.sh
. "$root/scripts/tally.sh"
cd "$g"

# confines LAUNCHER: runs /bin/true, and denies a write outside --rw.
# shellcheck disable=SC2086 # grant lists split into words
confines() {
	"$1" $launch_grants -- /bin/true &&
		! "$1" --ro / -- /bin/sh -c ": > '$out/denied'" 2>/dev/null &&
		[ ! -e "$out/denied" ]
}
floor_runs() { "$floor" /bin/true && "$floor"; }
probe_runs() { "$lr" --probe >/dev/null; }
# grant_lines N ARGS: -v lists N grants for ARGS.
# shellcheck disable=SC2086
grant_lines() { [ "$("$lr" -v $2 -- /bin/true 2>&1 | grep -c '^landlock-run grant: ')" -eq "$1" ]; }

tally_check "landlock-run runs /bin/true and denies a write outside --rw" confines "$lr"
tally_check "floor-landlock runs /bin/true and denies a write outside --rw" confines "$floor_ll"
tally_check "floor-seccomp runs /bin/true and denies a write outside --rw" confines "$floor_sc"
tally_check "floor-promise runs /bin/true and denies a write outside --rw" confines "$floor_pr"
tally_check "floor-baseline runs /bin/true and denies a write outside --rw" confines "$floor_bl"
tally_check "floor-promise-checks runs /bin/true and denies a write outside --rw" confines "$floor_pc"
tally_check "floor-baseline-checks runs /bin/true and denies a write outside --rw" confines "$floor_bc"
# The -checks floors keep the two promises they are timed for, as the launcher does:
# a write grant above the policy directory /etc/landlock-run, and a terminal, are
# refused (the launcher supervises a run on a terminal instead: exit 0).
tty=$root/build/$(uname -m)/tty
keeps_checks() { # keeps_checks FLOOR
	"$1" --ro / -- /bin/true && ! "$1" --ro / --rw /etc -- /bin/true &&
		! "$lr" --ro / --rw /etc -- /bin/true 2>/dev/null &&
		! "$tty" run "$1" --ro / -- /bin/true >/dev/null &&
		"$tty" run "$lr" --ro / -- /bin/true >/dev/null
}
make -s -C "$root" test-helpers >/dev/null
tally_check "floor-promise-checks refuses --rw /etc and a terminal, as landlock-run does" \
	keeps_checks "$floor_pc"
tally_check "floor-baseline-checks refuses --rw /etc and a terminal, as landlock-run does" \
	keeps_checks "$floor_bc"
tally_check "floor runs /bin/true, and exits 0 alone" floor_runs
# floor-trace confines as floor-baseline-checks does, sees a refusal at its exit (its
# one line), lets an allowed write go on, and passes the command's status on.
traces() {
	local o rc=0
	o=$("$floor_tr" --ro / --rw "$out" -- /bin/sh -c \
		": > '$out/allowed'; echo > /floor-trace-denied; exit 3" 2>&1) || rc=$?
	[ "$rc" -eq 3 ] && [ -e "$out/allowed" ] && [ ! -e /floor-trace-denied ] &&
		[ "$(grep -c '^floor-trace: a call was refused$' <<<"$o")" -eq 1 ]
}
tally_check "floor-trace runs /bin/true and denies a write outside --rw" confines "$floor_tr"
tally_check "floor-trace reports the one refused call, allows the granted write, passes the status on" \
	traces
# The fail group's two commands: one denial explained, and none with the write granted.
denials() { # denials CMDLINE: the lines of --explain's denials
	eval "\"\$lr\" --explain $real_grants -- $1" 2>&1 | grep -c '^landlock-run denied: ' || true
}
explained_once() { [ "$(denials "$fail_cmd")" -eq 1 ] && [ "$(denials "$granted_cmd")" -eq 0 ]; }
tally_check "--explain names the fail command's one denial, and none once the write is granted" \
	explained_once
# The floors of the promises keep them: each of the filter's refusals answers under
# floor-baseline as under a default run, and under floor-promise as under a run with
# every group allowed (tests/sysop.c, tests/tty.c: make test-helpers).
sysop=$root/build/$(uname -m)/sysop
head -c 4096 /dev/zero >"$out/setid" # a page mapstore can store into
refusals=("$sysop io_uring-setup" "$sysop unshare native 0x10000000" "$sysop clone native 0x10000000"
	"$sysop clone3 0" "$sysop keyctl" "$sysop bpf" "$sysop perf" "$sysop userfaultfd"
	"$sysop create $out/setid-new 4755" "$sysop fchmodat2 $out/setid 4755" "$sysop setxattr $out/setid"
	"$sysop mapstore native $out/setid" "$sysop mapstore i386 $out/setid"
	"$sysop mapstore i386-old $out/setid"
	"$tty run $tty inject native 0x5412 x" "$tty run $tty inject i386 0x5412 x"
	"$tty run $tty inject x32 0x5412 x")
# shellcheck disable=SC2086 # the launcher's options and a command line, split into words
same_answers() { # same_answers FLOOR OPTIONS...: each refusal as landlock-run OPTIONS gives it
	local floor=$1 call a b
	shift
	for call in "${refusals[@]}"; do
		rm -f "$out/setid-new"
		a=$("$floor" --ro / --rw "$out" -- $call 2>&1) || true
		rm -f "$out/setid-new"
		b=$("$lr" "$@" --ro / --rw "$out" -- $call 2>&1) || true
		[ "$a" = "$b" ] || { say "$floor: $call: [$a], landlock-run $*: [$b]"; return 1; }
	done
}
tally_check "floor-baseline refuses each of the filter's calls as a default landlock-run run does" \
	same_answers "$floor_bl"
# shellcheck disable=SC2086
tally_check "floor-promise answers each of them as landlock-run with every group allowed does" \
	same_answers "$floor_pr" $tiocsti_only
tally_check "landlock-run --probe" probe_runs
# --explain's cases: the same work with and without it, and nothing to report.
# shellcheck disable=SC2086
explained_alike() { # explained_alike GRANTS COMMAND: same output, no denial
	local plain traced cmd
	eval "cmd=($2)" # split as hyperfine -N splits it: quotes group words
	plain=$("$lr" $1 -- "${cmd[@]}" 2>&1) && traced=$("$lr" --explain $1 -- "${cmd[@]}" 2>&1) &&
		[ "$plain" = "$traced" ] && [[ $traced != *"landlock-run denied"* ]]
}
tally_check "gcc compiles the 1,000-line C file confined, the same under --explain, nothing denied" \
	explained_alike "$compile_grants" "$compile_cmd"
tally_check "find /usr -xdev prints the same under --explain, nothing denied" \
	explained_alike "$find_grants" "$find_cmd"
tally_check "the zlib-sized ./configure && make -j2 prints the same under --explain, nothing denied" \
	explained_alike "$build_grants" "$build_cmd"
# shellcheck disable=SC2086
hides() { # the hidden key is unreadable, its siblings readable; without --hide it reads
	"$lr" --ro / -- cat "$home/.ssh/id_ed25519" >/dev/null &&
		! "$lr" $hide_grants -- cat "$home/.ssh/id_ed25519" 2>/dev/null &&
		"$lr" $hide_grants -- test -d "$home/d1"
}
tally_check "--ro / --hide: the hidden key is unreadable, a sibling is there, and without --hide it reads" hides
# shellcheck disable=SC2086
fact hide_rules "$("$lr" -v $hide_grants -- /bin/true 2>&1 | sed -n 's/^landlock-run hide: .*: \([0-9]*\) rules$/\1/p')"
fact hide_home_entries "$(ls -A "$home" | wc -l)"
fact hide_home "$home"
# The filter's cases: the same walk with and without the baseline, and -v says
# which groups each launcher's filter refuses.
# shellcheck disable=SC2086
same_walk() { [ "$("$lr" $find_grants -- $findx_cmd | wc -l)" = "$("$lr" $tiocsti_only $find_grants -- $findx_cmd | wc -l)" ]; }
# shellcheck disable=SC2086
baseline_is() { "$lr" -v $1 -- /bin/true 2>&1 | grep -qx "landlock-run policy: baseline=$2"; }
tally_check "find /usr -xdev lists as many paths under the baseline as with every group allowed" same_walk
tally_check "-v: the default run refuses the baseline groups" baseline_is "" \
	"io_uring,userns,keyring,bpf,perf,userfaultfd$([ "$(id -u)" = 0 ] && echo ,metadata)"
tally_check "-v: with every group allowed, nothing but TIOCSTI is refused" baseline_is "$tiocsti_only" ""
tally_check "-v: 10,000 distinct directories and / are 10,001 grants" grant_lines 10001 "$(grants 10000)"
tally_check "-v: one directory 10,000 times and / are 10,001 grants" grant_lines 10001 "$(dups 10000)"

# shellcheck disable=SC2086
if ! err=$($bwrap_cmd 2>&1); then
	fact bwrap_note "bubblewrap left out: '$bwrap_cmd' failed: $(head -n 2 <<<"$err")"
fi
# A launcher that keeps every grant open until the end fails here with EMFILE.
set +e
# shellcheck disable=SC2046
err=$(prlimit --nofile=64:64 "$lr" $(grants 10000) -- /bin/true 2>&1)
fact nofile64_rc $?
set -e
fact nofile64_err "$err"
tally_total
