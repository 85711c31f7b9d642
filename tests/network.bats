#!/usr/bin/env bats
# TCP port rules (issue 4, Landlock ABI 4) on real sockets on 127.0.0.1:
# each option's allowed/denied pair against listeners this file starts, the
# defaults, usage errors, ABI refusals, the probe and -v.
load helpers

setup_file() {
	require_helpers
	# Two listeners P and Q that accept until teardown_file.
	start_server "$BATS_FILE_TMPDIR/listeners" 2 listen 2
	P=$(sed -n 1p "$BATS_FILE_TMPDIR/listeners")
	Q=$(sed -n 2p "$BATS_FILE_TMPDIR/listeners")
	export P Q
}

teardown_file() {
	stop_servers
}

setup() {
	require_landlock
	require_abi 4
	cd "$BATS_TEST_TMPDIR" || return
	# Two ports nobody listens on, for bind; checked free without the sandbox.
	F=$("$TRYOP" freeport)
	G=$("$TRYOP" freeport)
	while [ "$G" = "$F" ]; do G=$("$TRYOP" freeport); done
}

# allowed ARGS... -- tryop OP PORT: the launcher runs it and it works.
# denied ARGS... -- tryop OP PORT: EACCES in the sandbox, and the control:
# the same operation works without the sandbox.
allowed() {
	run "$LR" "$@"
	assert_success
	assert_output ok
}

denied() {
	local op=${*: -2:1} port=${*: -1}
	run "$LR" "$@"
	assert_failure 1
	assert_output EACCES
	# the control: without the sandbox the same operation works
	run "$TRYOP" "$op" "$port"
	assert_output ok
}

@test "default: TCP bind and connect are unrestricted" {
	allowed -- "$TRYOP" connect "$P"
	allowed -- "$TRYOP" connect "$Q"
	allowed -- "$TRYOP" bind "$F"
	allowed --ro / --rw . -- "$TRYOP" connect "$P"
	allowed --ro / --rw . -- "$TRYOP" bind "$F"
}

@test "--tcp-connect P: connect to P works, to Q is EACCES" {
	allowed --tcp-connect "$P" -- "$TRYOP" connect "$P"
	denied --tcp-connect "$P" -- "$TRYOP" connect "$Q"
}

@test "--tcp-bind F: bind to F works, to G is EACCES" {
	allowed --tcp-bind "$F" -- "$TRYOP" bind "$F"
	denied --tcp-bind "$F" -- "$TRYOP" bind "$G"
}

@test "--tcp-bind F covers IPv6 too: bind to [::1]:F works, [::1]:G is EACCES" {
	run "$TRYOP" bind6 "$G"
	[ "$output" = ok ] || skip "no IPv6 loopback here ($output)"
	allowed --tcp-bind "$F" -- "$TRYOP" bind6 "$F"
	run "$LR" --tcp-bind "$F" -- "$TRYOP" bind6 "$G"
	assert_failure 1
	assert_output EACCES
}

@test "--tcp-connect=P and --tcp-bind=F: the = form" {
	allowed --tcp-connect="$P" -- "$TRYOP" connect "$P"
	denied --tcp-connect="$P" -- "$TRYOP" connect "$Q"
	allowed --tcp-bind="$F" -- "$TRYOP" bind "$F"
	denied --tcp-bind="$F" -- "$TRYOP" bind "$G"
}

@test "comma lists: --tcp-connect P,Q allows both; a list without Q denies Q" {
	allowed --tcp-connect "$P,$Q" -- "$TRYOP" connect "$P"
	allowed --tcp-connect "$P,$Q" -- "$TRYOP" connect "$Q"
	denied --tcp-connect "1,$P,65535" -- "$TRYOP" connect "$Q"
	allowed --tcp-bind "$F,$G" -- "$TRYOP" bind "$G"
	denied --tcp-bind "1,$F" -- "$TRYOP" bind "$G"
}

@test "repeated options add up" {
	allowed --tcp-connect "$P" --tcp-connect "$Q" -- "$TRYOP" connect "$Q"
	allowed --tcp-connect "$P" --tcp-connect "$Q" -- "$TRYOP" connect "$P"
	allowed --tcp-bind "$F" --tcp-bind "$G" -- "$TRYOP" bind "$G"
	allowed --tcp-bind "$F" --tcp-bind "$G" -- "$TRYOP" bind "$F"
}

@test "--tcp-connect none and --tcp-bind none: the kind is handled, no port allowed" {
	denied --tcp-connect none -- "$TRYOP" connect "$P"
	denied --tcp-bind none -- "$TRYOP" bind "$F"
	# the other kind stays unrestricted
	allowed --tcp-connect none -- "$TRYOP" bind "$F"
	allowed --tcp-bind none -- "$TRYOP" connect "$P"
}

@test "--no-tcp: both bind and connect denied" {
	denied --no-tcp -- "$TRYOP" connect "$P"
	denied --no-tcp -- "$TRYOP" bind "$F"
}

@test "--tcp-bind none --tcp-connect P: connect only to P, bind nowhere" {
	allowed --tcp-bind none --tcp-connect "$P" -- "$TRYOP" connect "$P"
	denied --tcp-bind none --tcp-connect "$P" -- "$TRYOP" connect "$Q"
	denied --tcp-bind none --tcp-connect "$P" -- "$TRYOP" bind "$F"
}

# range_with A B: a range A-B that holds port A and not port B.
range_with() {
	if (($2 > $1)); then echo "0-$1"; else echo "$1-65535"; fi
}

@test "ranges A-B: --tcp-connect and --tcp-bind allow each port of the range, and only those" {
	allowed --tcp-connect "$(range_with "$P" "$Q")" -- "$TRYOP" connect "$P"
	denied --tcp-connect "$(range_with "$P" "$Q")" -- "$TRYOP" connect "$Q"
	allowed --tcp-connect "1,$P-$P,65535" -- "$TRYOP" connect "$P"
	allowed --tcp-bind "$(range_with "$F" "$G")" -- "$TRYOP" bind "$F"
	denied --tcp-bind "$(range_with "$F" "$G")" -- "$TRYOP" bind "$G"
	# the whole range: 65536 rules, still a working launch
	allowed --tcp-connect 0-65535 -- "$TRYOP" connect "$Q"
}

@test "none together with ports for the same kind is refused, in either order, naming both" {
	local ports=${P}
	run -125 --separate-stderr "$LR" --no-tcp --tcp-connect "$ports" -- touch marker
	assert_equal "$stderr" "landlock-run: --tcp-connect $ports contradicts --no-tcp, which allows no port: give one or the other"
	run -125 --separate-stderr "$LR" --tcp-connect "$ports" --no-tcp -- touch marker
	assert_equal "$stderr" "landlock-run: --tcp-connect $ports contradicts --no-tcp, which allows no port: give one or the other"
	run -125 --separate-stderr "$LR" --tcp-bind 80,443 --tcp-bind none -- touch marker
	assert_equal "$stderr" "landlock-run: --tcp-bind 80,443 contradicts --tcp-bind none, which allows no port: give one or the other"
	assert_file_not_exists marker
	# the control: none for one kind and ports for the other is no contradiction
	allowed --tcp-bind none --tcp-connect "$ports" -- "$TRYOP" connect "$P"
	# and none twice, or --no-tcp with none, says the same thing twice
	denied --no-tcp --tcp-connect none -- "$TRYOP" connect "$P"
}

@test "a contradiction within a policy file names the file and the line" {
	policy_dir # $P is the policy directory from here on, not a port
	printf '%s\n' --no-tcp '# the registry' --tcp-connect 443 >"$P/policy"
	run -125 --separate-stderr "$LR" "@$P/policy" -- true
	assert_equal "$stderr" "landlock-run: --tcp-connect 443 contradicts --no-tcp, which allows no port: give one or the other (@$P/policy line 3)"
}

@test "a kind never mentioned stays unrestricted" {
	allowed --tcp-bind "$F" -- "$TRYOP" connect "$P"
	allowed --tcp-bind "$F" -- "$TRYOP" connect "$Q"
	allowed --tcp-connect "$P" -- "$TRYOP" bind "$F"
	allowed --tcp-connect "$P" -- "$TRYOP" bind "$G"
}

@test "bind to port 0 (an ephemeral port) needs port 0 listed" {
	denied --tcp-bind "$F" -- "$TRYOP" bind 0
	allowed --tcp-bind 0 -- "$TRYOP" bind 0
}

@test "ports 0 and 65535 are accepted" {
	run --separate-stderr "$LR" --tcp-bind 0,65535 --tcp-connect 65535 -- true
	assert_success
	assert_equal "$stderr" ""
}

@test "limit: UDP is not covered by Landlock's TCP rules (bind and send work under --no-tcp)" {
	allowed --no-tcp -- "$TRYOP" udp-bind "$G"
	allowed --no-tcp -- "$TRYOP" udp-send "$P"
}

@test "limit: MPTCP sockets are not covered either (bind and connect work under --no-tcp)" {
	[ "$(cat /proc/sys/net/mptcp/enabled 2>/dev/null)" = 1 ] || skip "MPTCP is not enabled"
	denied --no-tcp -- "$TRYOP" connect "$P"
	allowed --no-tcp -- "$TRYOP" mptcp-connect "$P"
	allowed --no-tcp -- "$TRYOP" mptcp-bind "$G"
}

@test "every invalid PORT is a usage error: 125 naming the option, nothing runs" {
	local opt v
	for opt in --tcp-bind --tcp-connect; do
		for v in 65536 -1 abc '' '80,' ' 80' '+80' '0x50' ',80' '80,,443' '80 ' 'none,80' '99999999999999999999' \
			'90-80' '80-' '-80' '80-90-100' '80--90' '80-+90' '80- 90' '80-65536' '1-2,3-2'; do
			run --separate-stderr "$LR" "$opt" "$v" -- touch marker
			assert_failure 125
			assert_output ""
			assert_one_launcher_line
			[[ $stderr == *"$opt"* ]] || fail "$opt '$v': not naming $opt: $stderr"
			assert_file_not_exists marker
		done
		run --separate-stderr "$LR" "$opt=" -- touch marker
		assert_failure 125
		assert_one_launcher_line
		[[ $stderr == *"$opt"* ]] || fail "$opt=: not naming $opt: $stderr"
		assert_file_not_exists marker
	done
}

@test "a bad port is quoted once; the list is quoted too only when it says more" {
	run -125 --separate-stderr "$LR" --tcp-connect http -- true
	assert_equal "$stderr" "landlock-run: --tcp-connect: invalid port 'http' (a port is 0 to 65535, a range A-B has A <= B; or 'none' alone)"
	run -125 --separate-stderr "$LR" --tcp-bind 80,http -- true
	assert_equal "$stderr" "landlock-run: --tcp-bind: invalid port 'http' in '80,http' (a port is 0 to 65535, a range A-B has A <= B; or 'none' alone)"
}

@test "--abi 3 refuses every TCP option: 125 naming it and ABI 4, nothing runs" {
	local opt
	for opt in "--tcp-connect 80" "--tcp-bind 80" "--tcp-bind none" "--no-tcp"; do
		# shellcheck disable=SC2086 # the option and its argument
		run --separate-stderr "$LR" --abi 3 $opt -- touch marker
		assert_failure 125
		assert_output ""
		assert_one_launcher_line
		[[ $stderr == *"${opt%% *}"*"ABI 4"* ]] || fail "$opt: not naming ${opt%% *} and ABI 4: $stderr"
		assert_file_not_exists marker
	done
}

@test "--abi 4 enforces TCP rules" {
	allowed --abi 4 --tcp-connect "$P" -- "$TRYOP" connect "$P"
	denied --abi 4 --tcp-connect "$P" -- "$TRYOP" connect "$Q"
	denied --abi 4 --tcp-bind "$F" -- "$TRYOP" bind "$G"
}

@test "probe --tcp-bind proves tcp_bind, --tcp-connect proves tcp_connect, --no-tcp both" {
	run --separate-stderr "$LR" --probe -v --tcp-bind 8080
	assert_success
	assert_line "tcp=yes"
	assert_line "proven=$(proven_at "$KUSED"),tcp_bind"
	run --separate-stderr "$LR" --probe -v --tcp-connect 443
	assert_success
	assert_line "proven=$(proven_at "$KUSED"),tcp_connect"
	run --separate-stderr "$LR" --probe -v --no-tcp
	assert_success
	assert_line "proven=$(proven_at "$KUSED"),tcp_bind,tcp_connect"
	run --separate-stderr "$LR" --probe --json --tcp-bind 8080 --tcp-connect 443
	assert_success
	assert_output --partial "\"proven\":[\"$(proven_at "$KUSED" | sed 's/,/","/g')\",\"tcp_bind\",\"tcp_connect\"]"
	# without TCP options the probe does not claim them
	run --separate-stderr "$LR" --probe -v
	assert_line "proven=$(proven_at "$KUSED")"
}

@test "probe --abi 3 with a TCP option: 125, no stdout" {
	run --separate-stderr "$LR" --probe -v --abi 3 --tcp-bind 8080
	assert_failure 125
	assert_output ""
	assert_one_launcher_line
	[[ $stderr == *--tcp-bind*"ABI 4"* ]] || fail "$stderr"
}

@test "-v shows tcp_bind and tcp_connect: any, none or the sorted port list" {
	run --separate-stderr "$LR" -v --tcp-bind 8080,80 --tcp-bind 443 -- true
	assert_success
	grep -Fxq "landlock-run policy: tcp_bind=80,443,8080" <<<"$stderr" || fail "$stderr"
	grep -Fxq "landlock-run policy: tcp_connect=any" <<<"$stderr" || fail "$stderr"
	run --separate-stderr "$LR" -v --no-tcp -- true
	grep -Fxq "landlock-run policy: tcp_bind=none" <<<"$stderr" || fail "$stderr"
	grep -Fxq "landlock-run policy: tcp_connect=none" <<<"$stderr" || fail "$stderr"
	run --separate-stderr "$LR" -v --tcp-connect 0 -- true
	grep -Fxq "landlock-run policy: tcp_connect=0" <<<"$stderr" || fail "$stderr"
	grep -Fxq "landlock-run policy: tcp_bind=any" <<<"$stderr" || fail "$stderr"
}
