#!/usr/bin/env bats
# Where the place the launcher runs in stands in its way (issue 29): a seccomp
# filter that refuses the Landlock calls (a container runtime's profile: EPERM
# from Docker's before 20.10.18, ENOSYS from runc for calls newer than its
# profile), ptrace refused, /proc not mounted. Each is named in the one failure
# line, with the setting that fixes it, instead of a wrong cause ("Landlock is
# not supported by this kernel" on a kernel that has it); the probe says
# whether explaining works and what it met (explain=, where=). The filters are
# tests/fault.c's, on the real kernel; each refusal beside the run that works
# without what refuses. Yama's ptrace_scope (not built into this host's
# kernel) is proven in the kernel matrix's yama guests.

load helpers

setup() {
	require_landlock
	out_dir
	# make sanitize: LeakSanitizer needs /proc and no tracer, which these runs take
	# away on purpose (it exits 1, a fatal error); ASan and UBSan still run
	[ -z "${LR_SANITIZE-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS-}:detect_leaks=0"
}

LANDLOCK_CALLS=landlock_create_ruleset,landlock_add_rule,landlock_restrict_self
FILTER_LINE="landlock-run: a seccomp filter refuses the Landlock system calls (Seccomp: 2 in /proc/self/status): allow landlock_create_ruleset, landlock_add_rule and landlock_restrict_self in its profile (--security-opt seccomp=PROFILE; the defaults of podman, containerd 1.6+ and Docker 20.10.18+ do)"
NO_PROC=": mount it (mount -t proc proc /proc)"

# refused_with LINE CMD...: CMD fails closed (125, no stdout, the marker
# absent) with exactly the stderr line LINE.
refused_with() {
	local line=$1
	shift
	run --separate-stderr "$@"
	assert_equal "$status" 125
	assert_equal "$output" ""
	assert_equal "$stderr" "$line"
	assert_file_not_exists "$MARKER"
}

# in_mounts SCRIPT: the sh SCRIPT in a mount namespace of its own.
# no_proc_sanitized: skip under make sanitize. The sanitizers' runtime needs
# /proc: LeakSanitizer lists /proc/PID/task to stop the world and ends the
# launcher with a fatal error of its own without it, and ASan reads its
# options from /proc/self/environ and warns on stderr when /proc/self is not
# there; the plain suite runs these tests.
no_proc_sanitized() {
	[ -z "${LR_SANITIZE-}" ] || skip "the sanitizers need /proc (LeakSanitizer, make sanitize)"
}

in_mounts() {
	unshare --mount true 2>/dev/null || skip "no mount namespace here (unshare --mount)"
	run --separate-stderr unshare --mount sh -c "$1"
}

# probe_key KEY: KEY's value in the text report in $output.
probe_key() { sed -n "s/^$1=//p" <<<"$output"; }

@test "a filter answering EPERM to the Landlock calls (Docker before 20.10.18) is named, with the profile setting" {
	refused_with "$FILTER_LINE: Operation not permitted" \
		"$FAULT" "$LANDLOCK_CALLS" EPERM -- "$LR" --rw "$OUT" "${RAN[@]}"
	refused_with "$FILTER_LINE: Operation not permitted" "$FAULT" "$LANDLOCK_CALLS" EPERM -- "$LR" --probe
	refused_with "$FILTER_LINE: Operation not permitted" "$FAULT" "$LANDLOCK_CALLS" EPERM -- "$LR" --probe --json
	# control: the same run without the filter confines and runs
	run --separate-stderr "$LR" --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_file_exists "$MARKER"
}

@test "a filter answering ENOSYS (runc, for calls newer than the profile) is named, not 'not supported by this kernel'" {
	refused_with "$FILTER_LINE: Function not implemented" \
		"$FAULT" "$LANDLOCK_CALLS" ENOSYS -- "$LR" --rw "$OUT" "${RAN[@]}"
	refused_with "$FILTER_LINE: Function not implemented" \
		"$FAULT" "$LANDLOCK_CALLS" ENOSYS -- "$LR" --probe --json
	# any errno the kernel's version query never gives is the filter's too
	refused_with "$FILTER_LINE: Invalid argument" \
		"$FAULT" landlock_create_ruleset EINVAL --arg2 1 -- "$LR" --rw "$OUT" "${RAN[@]}"
	# control: a kernel without Landlock, ENOSYS with no filter, is
	# tests/arm64-qemu-user.bats's "Landlock is not supported by this kernel"
}

@test "ENOSYS from beyond a filter that lets the call through is the kernel's: 'not supported by this kernel'" {
	# A filter whose action lets the call go on (TRACE, with no tracer: ENOSYS)
	# stands in for a profile that allows the Landlock calls on a kernel without
	# them (no such kernel boots here): the filter the launcher adds in a child
	# of its own outranks it, as it does ALLOW, and sees the call.
	local line="landlock-run: Landlock is not supported by this kernel (it needs Linux 5.13 or later built with CONFIG_SECURITY_LANDLOCK): Function not implemented"
	refused_with "$line" "$FAULT" "$LANDLOCK_CALLS" TRACE -- "$LR" --rw "$OUT" "${RAN[@]}"
	refused_with "$line" "$FAULT" "$LANDLOCK_CALLS" TRACE -- "$LR" --probe --json
	# control: the same errno from the filter itself is the filter's
	refused_with "$FILTER_LINE: Function not implemented" \
		"$FAULT" landlock_create_ruleset ENOSYS -- "$LR" --rw "$OUT" "${RAN[@]}"
}

@test "a filter that also refuses seccomp(2) leaves no telling who answered, and the line says so" {
	refused_with "landlock-run: cannot query the Landlock ABI version (the kernel or the seccomp filter it runs under refused it; no telling which): Function not implemented" \
		"$FAULT" landlock_create_ruleset,seccomp ENOSYS -- "$LR" --probe
	# control: with seccomp(2) allowed, the filter is named
	refused_with "$FILTER_LINE: Function not implemented" \
		"$FAULT" landlock_create_ruleset ENOSYS -- "$LR" --probe
}

@test "without /proc the filter is still named: the kernel is asked, not /proc" {
	no_proc_sanitized
	in_mounts "mount -t tmpfs none /proc && '$FAULT' $LANDLOCK_CALLS EPERM -- '$LR' --rw '$OUT' ${RAN[*]@Q}"
	assert_equal "$status" 125
	assert_equal "$output" ""
	assert_equal "$stderr" "$FILTER_LINE: Operation not permitted"
	assert_file_not_exists "$MARKER"
	in_mounts "mount -t tmpfs none /proc && '$FAULT' $LANDLOCK_CALLS TRACE -- '$LR' --probe"
	assert_equal "$status" 125
	assert_equal "$stderr" "landlock-run: Landlock is not supported by this kernel (it needs Linux 5.13 or later built with CONFIG_SECURITY_LANDLOCK): Function not implemented"
}

@test "a FIFO where /proc/self/status should be, in a /proc that is not procfs, is never waited on" {
	no_proc_sanitized
	unshare --mount true 2>/dev/null || skip "no mount namespace here (unshare --mount)"
	# A plain directory in place of /proc (its self a symlink to this shell's pid,
	# which the exec chain keeps), /proc/self/status a FIFO with no writer, and
	# prctl(PR_GET_SECCOMP) refused so that the launcher falls back on the file.
	local fake="mount -t tmpfs none /proc && ln -s \$\$ /proc/self && mkdir /proc/\$\$ && mkfifo /proc/\$\$/status"
	# control: an open of that FIFO waits for a writer that never comes
	run timeout 2 unshare --mount sh -c "$fake && exec cat /proc/self/status"
	assert_equal "$status" 124
	run --separate-stderr timeout 20 unshare --mount sh -c "$fake && exec '$FAULT' prctl EINVAL --arg0 21 -- \
		'$FAULT' $LANDLOCK_CALLS EPERM -- '$LR' --probe"
	assert_equal "$status" 125
	assert_equal "$stderr" "$FILTER_LINE: Operation not permitted"
}

@test "probe under a filter that lets Landlock through (a container's default): passes, where=seccomp_filter" {
	# a filter that matches no call: no ruleset is descriptor 999
	run --separate-stderr "$FAULT" landlock_add_rule EINVAL --arg0 999 -- "$LR" --probe -v
	assert_success
	assert_equal "$(probe_key where)" seccomp_filter
	assert_equal "$(probe_key explain)" yes
	run --separate-stderr "$FAULT" landlock_add_rule EINVAL --arg0 999 -- "$LR" --probe --json
	assert_success
	assert_output --partial '"explain":true,"where":["seccomp_filter"],"self_test":"passed"}'
	# control: from this shell, where says what this shell runs under
	run --separate-stderr "$LR" --probe -v
	assert_success
	assert_equal "$(probe_key where)" "$(where_here)"
}

@test "ptrace refused by a filter: --explain and --learn name ptrace and the profile, the probe says explain=no" {
	# make sanitize: LeakSanitizer stops the world with the ptrace taken away here.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	local why="needs ptrace to watch the command, and a seccomp filter refuses it (Seccomp: 2 in /proc/self/status): allow ptrace in its profile (--security-opt seccomp=PROFILE): Operation not permitted"
	refused_with "landlock-run: --explain $why" "$FAULT" ptrace EPERM -- "$LR" --explain "${RAN[@]}"
	refused_with "landlock-run: --learn $why" "$FAULT" ptrace EPERM -- "$LR" --learn "$OUT/policy" "${RAN[@]}"
	assert_file_not_exists "$OUT/policy"
	run --separate-stderr "$FAULT" ptrace EPERM -- "$LR" --probe -v
	assert_success
	assert_equal "$(probe_key explain)" no
	assert_equal "$(probe_key where)" seccomp_filter,ptrace_refused
	run --separate-stderr "$FAULT" ptrace EPERM -- "$LR" --probe --json
	assert_output --partial '"explain":false,"where":["seccomp_filter","ptrace_refused"],'
	# control: a filter that leaves ptrace alone; --explain watches and the probe says so
	run --separate-stderr "$FAULT" landlock_add_rule EINVAL --arg0 999 -- "$LR" --explain --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_file_exists "$MARKER"
	run --separate-stderr "$FAULT" landlock_add_rule EINVAL --arg0 999 -- "$LR" --probe -v
	assert_equal "$(probe_key explain)" yes
}

@test "ptrace refused because the launcher is traced already (strace -f, an outer --explain): the tracer is named, not a filter" {
	command -v strace >/dev/null || skip "no strace"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	local why="needs ptrace to watch the command, and the launcher is itself traced by one that follows its children (TracerPid in /proc/self/status: strace -f, an outer --explain): run it outside that tracer: Operation not permitted"
	refused_with "landlock-run: --explain $why" strace -f -qq -o /dev/null "$LR" --explain "${RAN[@]}"
	# under a seccomp filter that lets ptrace through, still the tracer, not the filter
	refused_with "landlock-run: --learn $why" \
		"$FAULT" landlock_add_rule EINVAL --arg0 999 -- strace -f -qq -o /dev/null "$LR" --learn "$OUT/policy" "${RAN[@]}"
	assert_file_not_exists "$OUT/policy"
	# an outer --explain follows its command's children too (under make
	# sanitize, the inner launcher opens the sanitizers' log first: granted)
	run --separate-stderr "$LR" --explain --ro / --rw /dev/null ${LR_SANITIZE_LOG:+--rw "$LR_SANITIZE_LOG"} \
		-- "$LR" --explain "${RAN[@]}"
	assert_equal "$status" 125
	assert_equal "${stderr_lines[0]}" "landlock-run: --explain $why"
	assert_file_not_exists "$MARKER"
	# control: the same tracer, not following children: --explain traces its own
	run --separate-stderr strace -qq -o /dev/null "$LR" --explain --rw "$OUT" "${RAN[@]}"
	assert_success
	assert_file_exists "$MARKER"
}

@test "/proc not mounted: --explain, --learn, --kill-tree, --hide and -v say they need it; the probe says explain=no, where=proc_missing" {
	no_proc_sanitized
	echo secret >"$OUT/secret"
	local lr="'$LR'" ran="${RAN[*]@Q}" mode
	for mode in "--explain --rw $OUT" "--learn $OUT/policy"; do
		in_mounts "mount -t tmpfs none /proc && $lr $mode $ran"
		assert_equal "$status" 125
		assert_equal "$stderr" "landlock-run: ${mode%% *} needs /proc to follow the command's paths and descriptors (/proc/PID)$NO_PROC"
		assert_file_not_exists "$MARKER"
	done
	# the whole-tree mode finds what the command left there
	in_mounts "mount -t tmpfs none /proc && $lr --kill-tree --rw $OUT $ran"
	assert_equal "$status" 125
	assert_equal "$stderr" "landlock-run: --kill-tree needs /proc to find what COMMAND leaves running (/proc/thread-self/children)$NO_PROC"
	assert_file_not_exists "$MARKER"
	assert_file_not_exists "$OUT/policy"
	in_mounts "mount -t tmpfs none /proc && $lr --hide '$OUT/secret' -- cat '$OUT/secret'"
	assert_equal "$status" 125
	assert_equal "$output" ""
	assert_equal "$stderr" "landlock-run: --hide needs /proc to name the paths it opens (/proc/self/fd)$NO_PROC"
	in_mounts "mount -t tmpfs none /proc && $lr -v --rw '$OUT' $ran 2>&1 >/dev/null | grep -v '^landlock-run policy: '"
	assert_output "landlock-run: -v needs /proc to name the paths of the grants (/proc/self/fd)$NO_PROC"
	assert_file_not_exists "$MARKER"
	# a plain run needs no /proc: it confines and runs
	in_mounts "mount -t tmpfs none /proc && $lr --rw '$OUT' $ran && $lr -- sh -c 'echo x >$OUT/denied'"
	assert_failure
	assert_file_exists "$MARKER"
	assert_file_not_exists "$OUT/denied"
	in_mounts "mount -t tmpfs none /proc && $lr --probe -v"
	assert_success
	assert_equal "$(probe_key explain)" no
	assert_equal "$(probe_key where)" proc_missing
}

@test "control: a read-only /proc is enough for --explain, --learn, --hide and -v, and the probe says explain=yes" {
	unshare --mount --pid --fork true 2>/dev/null || skip "no pid namespace here"
	echo secret >"$OUT/secret"
	local lr="'$LR'" ro="mount -t proc -o ro proc /proc"
	run --separate-stderr unshare --mount --pid --fork sh -c "$ro && $lr --explain -- sh -c 'echo x >$OUT/e'"
	assert_failure
	assert_regex "${stderr_lines[0]}" "^landlock-run denied: make_reg $OUT/e \\(openat by sh\\[[0-9]+\\]\\): allow with --rw $OUT\$"
	run --separate-stderr unshare --mount --pid --fork sh -c "$ro && $lr --learn $OUT/policy -- sh -c 'echo x >$OUT/l'"
	assert_success
	assert_file_contains "$OUT/policy" "^--rw=$OUT\$"
	run --separate-stderr unshare --mount --pid --fork sh -c "$ro && $lr --hide $OUT/secret -- cat $OUT/secret"
	assert_failure
	assert_equal "$output" ""
	assert_regex "$stderr" "^cat: $OUT/secret: Permission denied"
	run --separate-stderr unshare --mount --pid --fork sh -c "$ro && $lr -v --rw $OUT -- true"
	assert_success
	run --separate-stderr unshare --mount --pid --fork sh -c "$ro && $lr --probe -v"
	assert_success
	assert_equal "$(probe_key explain)" yes
	assert_equal "$(probe_key where)" "$(where_here)"
}
