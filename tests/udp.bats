#!/usr/bin/env bats
# UDP port rules (issue 11, Landlock ABI 10): --udp-bind, --udp-connect (connect
# and send with an address), --no-udp, port ranges, and what auto-binding needs:
# a socket that sends before binding binds an ephemeral port, which --udp-bind
# must allow (port 0) once bind is confined. Real datagrams to receivers this file
# starts outside any sandbox, both sides of each pair. Below ABI 10 every --udp-*
# option is refused (exit 125); the tests of what ABI 10 enforces say they are
# proven in the kernel matrix's sid guests (tests/guest/confine.sh) where this
# kernel is older.
load helpers

setup_file() {
	require_helpers
	# Two UDP receivers R and S; each datagram one gets is a line "got PORT".
	RECEIVED=$BATS_FILE_TMPDIR/received
	start_server "$RECEIVED" 2 udp-listen 2
	R=$(sed -n 1p "$RECEIVED")
	S=$(sed -n 2p "$RECEIVED")
	export R S RECEIVED
}

teardown_file() {
	stop_servers
}

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
	UDP_ABI=$(right_abi udp_bind)
	# Two ports nobody uses, for bind.
	F=$("$TRYOP" freeport)
	G=$("$TRYOP" freeport)
	while [ "$G" = "$F" ]; do G=$("$TRYOP" freeport); done
}

# arrivals PORT: how many datagrams the receiver on PORT has got so far.
arrivals() { grep -c "^got $1\$" "$RECEIVED" || true; }

# sends EXPECTED PORT ARGS...: the launcher runs `tryop udp-send PORT` under ARGS,
# tryop prints EXPECTED, and the datagram arrives exactly when it says ok. A denial
# gets its control: the same send without the launcher arrives.
sends() {
	local want=$1 port=$2 before i
	shift 2
	before=$(arrivals "$port")
	run "$LR" "$@" -- "$TRYOP" udp-send "$port"
	assert_output "$want"
	if [ "$want" = ok ]; then
		for ((i = 0; i < 40 && $(arrivals "$port") == before; i++)); do sleep 0.05; done
		assert_equal "$(arrivals "$port")" $((before + 1))
		return
	fi
	assert_failure 1
	sleep 0.2
	assert_equal "$(arrivals "$port")" "$before"
	run "$TRYOP" udp-send "$port"
	assert_output ok
	for ((i = 0; i < 40 && $(arrivals "$port") == before; i++)); do sleep 0.05; done
	assert_equal "$(arrivals "$port")" $((before + 1))
}

# binds EXPECTED PORT ARGS...: `tryop udp-bind PORT` under ARGS prints EXPECTED.
binds() {
	local want=$1 port=$2
	shift 2
	run "$LR" "$@" -- "$TRYOP" udp-bind "$port"
	assert_output "$want"
}

@test "without --udp-* UDP is unrestricted: bind, and a send that arrives" {
	sends ok "$R"
	sends ok "$R" --ro / --no-tcp
	binds ok "$F" --ro /
}

@test "below ABI $UDP_ABI every --udp-* option is refused: 125 naming it and ABI $UDP_ABI, nothing runs" {
	local n opt
	for ((n = 1; n < UDP_ABI && n <= KABI; n++)); do
		for opt in "--udp-bind 0" "--udp-connect $R" "--udp-connect none" "--no-udp"; do
			# shellcheck disable=SC2086 # the option and its argument
			run --separate-stderr "$LR" --abi "$n" $opt -- touch marker
			assert_failure 125
			assert_output ""
			assert_one_launcher_line
			[[ $stderr == *"${opt%% *} needs Landlock ABI $UDP_ABI"* ]] || fail "--abi $n $opt: $stderr"
			assert_file_not_exists marker
			# shellcheck disable=SC2086
			run --separate-stderr "$LR" --probe --abi "$n" $opt
			assert_failure 125
			assert_one_launcher_line
		done
	done
}

@test "usage: bad UDP ports and contradictions are refused on every ABI, naming the option" {
	local v
	for v in 65536 -1 udp '' '53,' '54-53' 'none,53'; do
		run -125 --separate-stderr "$LR" --udp-connect "$v" -- touch marker
		assert_one_launcher_line
		[[ $stderr == *--udp-connect* ]] || fail "'$v': $stderr"
	done
	run -125 --separate-stderr "$LR" --no-udp --udp-connect 53 -- touch marker
	assert_equal "$stderr" "landlock-run: --udp-connect 53 contradicts --no-udp, which allows no port: give one or the other"
	run -125 --separate-stderr "$LR" --udp-bind 0 --udp-bind none -- touch marker
	assert_equal "$stderr" "landlock-run: --udp-bind 0 contradicts --udp-bind none, which allows no port: give one or the other"
	assert_file_not_exists marker
}

# ---- ABI 10 and later: the kernel confines UDP ports ------------------------------

@test "--udp-connect R: a send to R arrives, one to S is EACCES and does not" {
	require_abi "$UDP_ABI"
	sends ok "$R" --udp-connect "$R"
	sends EACCES "$S" --udp-connect "$R"
	run "$LR" --udp-connect "$R" -- "$TRYOP" udp-connect "$S"
	assert_output EACCES
}

@test "--udp-connect alone leaves bind unconfined, so an unbound socket can send" {
	require_abi "$UDP_ABI"
	binds ok "$F" --udp-connect "$R"
	sends ok "$R" --udp-connect "$R" --no-tcp
}

@test "--udp-bind F: bind to F works, to G is EACCES; sending needs port 0 listed" {
	require_abi "$UDP_ABI"
	binds ok "$F" --udp-bind "$F"
	binds EACCES "$G" --udp-bind "$F"
	run "$TRYOP" udp-bind "$G"
	assert_output ok # the control
	# a send from an unbound socket binds an ephemeral port: denied without 0 ...
	sends EACCES "$R" --udp-bind "$F"
	sends EACCES "$R" --udp-bind "$F" --udp-connect "$R"
	# ... allowed with it
	sends ok "$R" --udp-bind "0,$F" --udp-connect "$R"
	binds ok 0 --udp-bind 0
}

@test "--no-udp: no bind, no send" {
	require_abi "$UDP_ABI"
	binds EACCES "$F" --no-udp
	sends EACCES "$R" --no-udp
	sends EACCES "$R" --udp-bind none --udp-connect none
}

@test "UDP ranges: each port of A-B" {
	require_abi "$UDP_ABI"
	local lo=$((R < S ? R : S)) hi=$((R < S ? S : R))
	sends ok "$lo" --udp-connect "$lo-$lo"
	sends ok "$hi" --udp-connect "$lo-$hi"
	sends EACCES "$hi" --udp-connect "$lo-$((hi - 1))"
}

@test "--abi $((UDP_ABI - 1)) refuses --udp-* on an ABI $UDP_ABI+ kernel" {
	require_abi "$UDP_ABI"
	run -125 --separate-stderr "$LR" --abi "$((UDP_ABI - 1))" --udp-connect "$R" -- true
	assert_equal "$stderr" "landlock-run: --udp-connect needs Landlock ABI $UDP_ABI, but --abi $((UDP_ABI - 1)) limits it to ABI $((UDP_ABI - 1))"
}

@test "probe: udp=yes, and --udp-bind / --udp-connect prove udp_bind / udp_connect" {
	require_abi "$UDP_ABI"
	run --separate-stderr "$LR" --probe -v --udp-bind 0 --udp-connect "$R"
	assert_success
	assert_line "udp=yes"
	assert_line --regexp '^proven=.*,udp_bind,udp_connect(,|$)'
}
