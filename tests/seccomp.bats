#!/usr/bin/env bats
# The seccomp filter's groups beyond the terminal (issue 18; tiocsti.bats has
# the terminal): --no-network, the baseline (io_uring, user namespaces, the
# keyring, bpf, perf_event_open, userfaultfd) and root's metadata. Every
# refusal is an attack the way a program would make it (tests/sysop.c, real
# tools), beside a control that succeeds without the launcher or with the
# opt-out, so no test passes because the kernel refused anyway.
load helpers

REPO=$BATS_TEST_DIRNAME/..
SYSOP=$HELPERS/sysop
ALL=io_uring,userns,keyring,bpf,perf,userfaultfd,metadata
NEWUSER=10000000 # CLONE_NEWUSER, as sysop takes flags (hex)
AS_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

setup_file() {
	require_helpers
	start_server "$BATS_FILE_TMPDIR/tcp" 1 listen 1
	start_server "$BATS_FILE_TMPDIR/udp" 1 udp-listen 1
	TCP=$(sed -n 1p "$BATS_FILE_TMPDIR/tcp")
	UDP=$(sed -n 1p "$BATS_FILE_TMPDIR/udp")
	export TCP UDP
}

teardown() {
	! mountpoint -q "$BATS_TEST_TMPDIR/tmpfs" || umount "$BATS_TEST_TMPDIR/tmpfs"
}

teardown_file() {
	stop_servers
}

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
}

# refused ERRNO CMD...: under the launcher's default (plus the options in
# $OPTS), CMD prints ERRNO; with every group allowed the same CMD prints ok.
refused() {
	local want=$1
	shift
	run -0 "$LR" ${OPTS-} --allow-syscalls "$ALL" -- "$@"
	assert_output ok
	run -1 "$LR" ${OPTS-} -- "$@"
	assert_output "$want"
}

# stderr_has TEXT: $stderr (run --separate-stderr) holds TEXT.
stderr_has() { [[ $stderr == *"$1"* ]] || fail "stderr lacks [$1]: $stderr"; }

need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
x86_64_only() { [ "$(uname -m)" = x86_64 ] || skip "the i386 and x32 ABIs are x86_64's"; }

@test "the filter's numbers are the kernel's (its headers here; calls since 5.1 share one number)" {
	local plat cols name nums abi h n variant
	local -A header=(
		[linux-x64:0]=/usr/include/x86_64-linux-gnu/asm/unistd_64.h
		[linux-x64:1]=/usr/include/x86_64-linux-gnu/asm/unistd_x32.h
		[linux-x64:2]=/usr/include/x86_64-linux-gnu/asm/unistd_32.h
		[linux-arm64:0]=/usr/include/aarch64-linux-musl/bits/syscall.h
		[linux-arm64:1]=/usr/arm-linux-gnueabihf/include/asm/unistd-eabi.h)
	for h in "${header[@]}"; do
		[ -f "$h" ] || fail "$h is missing (make setup installs linux-libc-dev, musl and linux-libc-dev-armhf-cross)"
	done
	for plat in linux-x64 linux-arm64; do
		n=0
		while read -r name nums; do
			n=$((n + 1))
			read -r -a cols <<<"${nums//,/ }"
			# NAME__WHICH: NAME's numbers, where the columns of other calls are 0
			variant=
			[ "$name" = "${name%%__*}" ] || variant=1
			name=${name%%__*}
			for abi in "${!cols[@]}"; do
				h=${header[$plat:$abi]}
				nr=${cols[$abi]}
				# "nr" in the header: as is, bit 30 added (x32), base added (EABI)
				got=$(sed -n "s/^#define __NR_$name[[:space:]]\{1,\}\(.*\)\$/\1/p" "$h" |
					sed 's/(__X32_SYSCALL_BIT + \([0-9]*\))/\1/; s/(__NR_SYSCALL_BASE + \([0-9]*\))/\1/')
				if [ "$nr" = 0 ]; then
					[ -z "$got" ] || [ -n "$variant" ] || fail "$plat: $name is 0 in column $abi, $h has $got"
				elif [ -n "$got" ]; then
					[ "$got" = "$nr" ] || fail "$plat: $name is $nr in column $abi, $h says $got"
				else
					# newer than the headers: the shared number of every ABI
					[ "$nr" -ge 424 ] || fail "$plat: $name ($nr) is not in $h"
					[ "$nums" = "$(printf "$nr,%.0s" "${cols[@]}" | sed 's/,$//')" ] ||
						fail "$plat: $name ($nums) has different numbers from 424 on"
				fi
			done
		done < <(awk '/^#define NR_/ { n = substr($2, 4); $1 = $2 = ""; gsub(/[{} ]/, ""); print n, $0 }' \
			"$REPO/platform/$plat.h")
		[ "$n" -ge 30 ] || fail "$plat: only $n NR_ rows"
	done
}

@test "the numbers newer than the headers are those calls on this kernel (fchmodat2, setxattrat, removexattrat)" {
	[ "$(uname -m)" = x86_64 ] || skip "checked on x86_64's kernel"
	touch f
	[ "$(uname -r | cut -d. -f1)" -ge 7 ] || [ "$(uname -r | cut -d. -f2)" -ge 13 ] ||
		skip "setxattrat needs Linux 6.13"
	run -0 "$SYSOP" fchmodat2 f 741
	assert_equal "$(stat -c %a f)" 741
	run -0 "$SYSOP" setxattrat f
	run -0 "$PYTHON" -c 'import os; print(os.getxattr("f", "user.sysop").decode())'
	assert_output v
	run -0 "$SYSOP" removexattrat f
	run -1 "$SYSOP" removexattrat f
	assert_output ENODATA
}

# The builder itself, against a plain reading of its table: every group set,
# traced or not, every ABI and number; the argument values each rule tests,
# with the high halves set and without, with and without the tracer's mark.
@test "the filter answers as its rule table reads, for every group set and ABI (filtermodel)" {
	run -0 "$HELPERS/filtermodel"
	assert_output --regexp '^filtermodel: the filter answers as its table for [0-9]+ vectors, every group set traced or not, [0-9] ABIs .*, and [1-9][0-9]* prebuilt filters are the builder.s$'
}

@test "--no-network: a TCP connect and a UDP send to loopback listeners fail to create their socket" {
	run -0 "$LR" -- "$TRYOP" connect "$TCP"
	assert_output ok
	run -1 "$LR" --no-network -- "$TRYOP" connect "$TCP"
	assert_output "socket: EAFNOSUPPORT"
	local before
	before=$(grep -c "got $UDP" "$BATS_FILE_TMPDIR/udp" || true)
	run -0 "$LR" -- "$TRYOP" udp-send "$UDP"
	run -1 "$LR" --no-network -- "$TRYOP" udp-send "$UDP"
	assert_output "socket: EAFNOSUPPORT"
	sleep 0.2
	# the control's datagram arrived, the refused one did not
	assert_equal "$(grep -c "got $UDP" "$BATS_FILE_TMPDIR/udp")" "$((before + 1))"
}

@test "--no-network: IPv6, packet, netlink and vsock sockets are refused, AF_UNIX is not" {
	local fam type
	for fam in "inet stream" "inet dgram" "inet6 stream" "inet6 dgram" "netlink dgram" \
		"vsock stream"; do
		run -0 "$LR" -- "$SYSOP" socket $fam
		assert_output ok
		run -1 "$LR" --no-network -- "$SYSOP" socket $fam
		assert_output EAFNOSUPPORT
	done
	need_root
	# a packet socket needs CAP_NET_RAW: kept, only the filter refuses it
	run -0 "$LR" --keep-caps -- "$SYSOP" socket packet dgram
	run -1 "$LR" --keep-caps --no-network -- "$SYSOP" socket packet dgram
	assert_output EAFNOSUPPORT
	run -1 "$LR" --no-network -- "$SYSOP" socketpair inet
	assert_output EAFNOSUPPORT
	for type in stream dgram; do
		run -0 "$LR" --no-network -- "$SYSOP" socket unix "$type"
	done
	run -0 "$LR" --no-network -- "$SYSOP" socketpair unix
	run -0 "$LR" --no-network -- "$TRYOP" uself
}

@test "--no-network: a ping socket is refused (in a network namespace that allows it)" {
	need_root
	local ns=(unshare -n sh -c 'ip link set lo up && echo "0 2147483647" >/proc/sys/net/ipv4/ping_group_range && exec "$@"' sh)
	run -0 "${ns[@]}" "$LR" -- "$SYSOP" ping
	assert_output ok
	run -1 "${ns[@]}" "$LR" --no-network -- "$SYSOP" ping
	assert_output EAFNOSUPPORT
}

@test "--no-network through the i386 ABI: socket by family, socketcall's socket whatever the family" {
	x86_64_only
	run -0 "$LR" -- "$SYSOP" socket32 inet
	run -0 "$LR" -- "$SYSOP" socketcall unix
	run -1 "$LR" --no-network -- "$SYSOP" socket32 inet
	assert_output EAFNOSUPPORT
	run -0 "$LR" --no-network -- "$SYSOP" socket32 unix
	run -1 "$LR" --no-network -- "$SYSOP" socketcall unix
	assert_output EAFNOSUPPORT
}

@test "--no-network works on every ABI; the port rules the ABI has are handled, none allowed" {
	local abi tcp
	for abi in 1 3 "$KUSED"; do
		run -1 "$LR" --abi "$abi" --no-network -- "$TRYOP" connect "$TCP"
		assert_output "socket: EAFNOSUPPORT"
		run -0 --separate-stderr "$LR" --abi "$abi" --no-network -v -- true
		tcp=any
		[ "$abi" -ge 4 ] && tcp=none
		[[ $stderr == *"tcp_connect=$tcp"* ]] || fail "ABI $abi: $stderr"
		[[ $stderr == *"network=all"* ]] || fail "ABI $abi: $stderr"
	done
	# asked by name, --no-tcp still needs ABI 4
	run -125 --separate-stderr "$LR" --abi 3 --no-network --no-tcp -- true
	assert_one_launcher_line
}

@test "a port list with --no-network is a contradiction naming both options, in either order" {
	local opt
	for opt in --tcp-bind --tcp-connect --udp-bind --udp-connect; do
		run -125 --separate-stderr "$LR" --no-network "$opt" 443 -- touch ran
		assert_one_launcher_line
		[[ $stderr == *"$opt 443 contradicts --no-network"* ]] || fail "$stderr"
		run -125 --separate-stderr "$LR" "$opt" 443 --no-network -- touch ran
		assert_one_launcher_line
		assert_file_not_exists ran
	done
	run -0 "$LR" --no-network --tcp-connect none -- true
	# io_uring's own socket operation would pass by the filter
	run -125 --separate-stderr "$LR" --no-network --allow-syscalls userns,io_uring -- touch ran
	assert_one_launcher_line
	stderr_has "--allow-syscalls io_uring contradicts --no-network"
	assert_file_not_exists ran
}

@test "--allow-syscalls: unknown, empty or misspelt names are usage errors naming the known ones" {
	local v
	for v in bogus '' 'io_uring,' io-uring 'userns,,bpf' IO_URING; do
		run -125 --separate-stderr "$LR" --allow-syscalls "$v" -- touch ran
		assert_one_launcher_line
		[[ $stderr == *--allow-syscalls* ]] || fail "'$v': $stderr"
		assert_file_not_exists ran
	done
	run -125 --separate-stderr "$LR" --allow-syscalls bogus -- true
	stderr_has "known: $ALL"
}

@test "io_uring: io_uring_setup and a real io_uring write are refused with ENOSYS" {
	refused ENOSYS "$SYSOP" io_uring-setup
	run -0 "$LR" --allow-syscalls io_uring --rw . -- "$SYSOP" io_uring-write out "by io_uring"
	assert_output io_uring
	assert_equal "$(cat out)" "by io_uring"
	run -1 "$LR" --rw . -- "$SYSOP" io_uring-write out2 x
	assert_output ENOSYS
}

@test "io_uring: programs that use it still work through their fallback (sysop, node's libuv)" {
	run -0 "$LR" --rw . -- "$SYSOP" uring-or-write out "written"
	assert_output "fallback: ENOSYS"
	assert_equal "$(cat out)" "written"
	command -v node >/dev/null || skip "no node here"
	local js='require("fs").writeFile("n", "by node", e => { if (e) throw e })'
	# control: libuv sets up a ring here, without the launcher
	run -0 strace -f -e trace=io_uring_setup env UV_USE_IO_URING=1 node -e "$js"
	assert_output --regexp 'io_uring_setup\(.*\) = [0-9]+'
	rm n
	run -0 "$LR" --rw . -- env UV_USE_IO_URING=1 node -e "$js"
	assert_equal "$(cat n)" "by node"
}

@test "user namespaces: unshare -U and unshare(CLONE_NEWUSER) are refused, natively and through i386" {
	run -0 "$LR" --allow-syscalls userns -- unshare -U true
	run -1 --separate-stderr "$LR" -- unshare -U true
	stderr_has "Operation not permitted"
	refused EPERM "$SYSOP" unshare native "$NEWUSER"
	x86_64_only
	refused EPERM "$SYSOP" unshare i386 "$NEWUSER"
}

@test "user namespaces: clone with CLONE_NEWUSER is refused, natively, through i386 and x32" {
	refused EPERM "$SYSOP" clone native "$NEWUSER"
	run -0 "$LR" -- "$SYSOP" clone native 0
	x86_64_only
	refused EPERM "$SYSOP" clone i386 "$NEWUSER"
	run -0 "$LR" -- "$SYSOP" clone i386 0
	# x32: the filter refuses it; where the kernel lacks x32 it answers ENOSYS
	run -1 "$LR" -- "$SYSOP" clone x32 "$NEWUSER"
	assert_output EPERM
}

@test "user namespaces: clone3 is ENOSYS, and glibc's threads fall back to clone" {
	refused ENOSYS "$SYSOP" clone3 0
	run -0 "$LR" -- strace -f -e trace=clone3,clone "$PYTHON" -c \
		'import threading; t = threading.Thread(target=print, args=("thread ran",)); t.start(); t.join()'
	assert_output --regexp 'clone3\(.*\) = -1 ENOSYS'
	assert_output --regexp 'clone\(.*CLONE_THREAD'
	assert_output --partial "thread ran"
}

@test "user namespaces: one made outside cannot be joined, its /proc/PID/ns/user is out of reach" {
	local pid open='import os, sys; os.open(sys.argv[1], os.O_RDONLY); print("ok")'
	unshare -U sleep 60 3>&- &
	pid=$!
	sleep 0.2
	run "$PYTHON" -c "$open" "/proc/$pid/ns/user"
	assert_output ok
	# Landlock's ptrace rule: no process outside the sandbox may be inspected
	run "$LR" --allow-syscalls userns -- "$PYTHON" -c "$open" "/proc/$pid/ns/user"
	kill "$pid"
	assert_failure
	assert_output --partial PermissionError
}

@test "the keyring, bpf, perf_event_open and userfaultfd are refused with their errnos" {
	refused ENOSYS "$SYSOP" keyctl
	refused EPERM "$SYSOP" userfaultfd
	need_root
	# a map needs CAP_BPF, and perf_event_paranoid 3 (Debian's) CAP_PERFMON: with
	# the capabilities kept, only the filter refuses
	OPTS=--keep-caps refused EPERM "$SYSOP" bpf
	OPTS=--keep-caps refused EACCES "$SYSOP" perf
}

@test "root: /dev/userfaultfd's USERFAULTFD_IOC_NEW is refused with the group, natively, through i386 and x32" {
	need_root
	[ -c /dev/userfaultfd ] || skip "no /dev/userfaultfd (Linux 6.1)"
	local abi grant
	# --rw /dev: Landlock's ioctl_dev right (ABI 5) is given, as it is below ABI 5
	for grant in "--rw /dev" "--abi 4 --ro / --rw /dev/userfaultfd"; do
		for abi in native i386; do
			[ "$abi" = native ] || x86_64_only
			# control: the device makes a descriptor as userfaultfd(2) would
			run -0 "$LR" $grant --allow-syscalls userfaultfd -- "$SYSOP" uffd-dev "$abi"
			assert_output ok
			run -1 "$LR" $grant -- "$SYSOP" uffd-dev "$abi"
			assert_output EPERM
		done
	done
	[ "$(uname -m)" = x86_64 ] || return 0
	# x32: the filter refuses it; where the kernel lacks x32 the control answers ENOSYS
	run -1 "$LR" --rw /dev -- "$SYSOP" uffd-dev x32
	assert_output EPERM
}

@test "each name of --allow-syscalls allows its group only" {
	run -1 "$LR" --allow-syscalls io_uring -- "$SYSOP" keyctl
	assert_output ENOSYS
	run -0 "$LR" --allow-syscalls keyring -- "$SYSOP" keyctl
	run -1 "$LR" --allow-syscalls keyring -- "$SYSOP" io_uring-setup
	run -0 "$LR" --allow-syscalls keyring --allow-syscalls io_uring -- "$SYSOP" io_uring-setup
	run -0 "$LR" --allow-syscalls perf,userfaultfd -- "$SYSOP" userfaultfd
	run -1 "$LR" --allow-syscalls perf,userfaultfd -- "$SYSOP" clone native "$NEWUSER"
}

@test "root: chmod u+s and setfacl on a file outside every grant are refused, chmod +x in it works" {
	need_root
	command -v setfacl >/dev/null || fail "setfacl is missing (make setup installs acl)"
	mkdir grant outside
	touch outside/victim grant/output
	# controls: Landlock has no say over either
	run -0 "$LR" --rw grant --allow-syscalls metadata -- chmod u+s outside/victim
	assert_equal "$(stat -c %a outside/victim)" 4644
	chmod 644 outside/victim
	run -0 "$LR" --rw grant --allow-syscalls metadata -- setfacl -m u:nobody:rw outside/victim
	setfacl -b outside/victim
	run -1 "$LR" --rw grant -- chmod u+s outside/victim
	run -1 "$LR" --rw grant -- chmod g+s outside/victim
	run -1 "$LR" --rw grant -- setfacl -m u:nobody:rw outside/victim
	assert_output --partial "Operation not supported"
	assert_equal "$(stat -c %a outside/victim)" 644
	run -0 getfacl -c outside/victim
	refute_output --partial nobody
	run -0 "$LR" --rw grant -- chmod +x grant/output
	assert_equal "$(stat -c %a grant/output)" 755
	run -0 "$LR" --rw grant -- chmod 1777 grant/output # the sticky bit is no privilege
}

# silent_ok CMD...: under --rw . with the metadata rules, CMD exits 0 and prints nothing.
silent_ok() {
	run -0 --separate-stderr "$LR" --rw . -- "$@"
	[ -z "$output$stderr" ] || fail "$* printed [$output] [$stderr]"
}

@test "root: cp -a, cp -p, tar -p --xattrs, rsync -aX, install -m, sed -i of plain files work and stay silent" {
	need_root
	command -v rsync >/dev/null || fail "rsync is missing (make setup installs it)"
	mkdir -p src/sub x
	echo one >src/f
	echo two >src/sub/g
	chmod 640 src/f
	chmod 750 src/sub
	# the ACL each of these sets is refused: prove the tool reached the filter
	local tool
	for tool in "cp -a src/f a1" "cp -p src/f p1" "install -m 604 src/f i1" "sed -i s/one/1/ src/f"; do
		run -0 "$LR" --rw . -- strace -qq -f -e trace=fsetxattr -e status=failed $tool
		assert_output --partial '"system.posix_acl_access"'
		assert_output --partial "EOPNOTSUPP"
		rm -f a1 p1 i1
	done
	echo one >src/f
	silent_ok cp -a src ca
	silent_ok cp -p src/f cp
	silent_ok tar -cf t.tar --xattrs src
	silent_ok tar -xpf t.tar --xattrs -C x
	silent_ok rsync -aX src/ rs/
	silent_ok install -m 604 src/f inst
	silent_ok sed -i s/one/uno/ src/f
	assert_equal "$(stat -c %a ca/f ca/sub cp x/src/f x/src/sub rs/f rs/sub inst src/f)" \
		"$(printf '%s\n' 640 750 640 640 750 640 750 604 640)"
	assert_equal "$(cat ca/f cp x/src/f rs/sub/g inst src/f)" "$(printf '%s\n' one one one two one uno)"
}

@test "root: a real ACL and a security.* attribute are still refused (EOPNOTSUPP), beside their controls" {
	need_root
	command -v setfacl >/dev/null || fail "setfacl is missing (make setup installs acl)"
	local sec='import os, sys; os.setxattr(sys.argv[1], "security.lr", b"1"); print("ok")'
	touch acl sec
	# controls: the group allowed, each is set
	run -0 "$LR" --rw . --allow-syscalls metadata -- setfacl -m u:nobody:rw acl
	run -0 getfacl -c acl
	assert_output --partial "user:nobody:rw-"
	setfacl -b acl
	# security.* needs CAP_SYS_ADMIN: with it kept, only the filter refuses
	run -0 "$LR" --rw . --keep-caps --allow-syscalls metadata -- "$PYTHON" -c "$sec" sec
	assert_output ok
	run -0 "$PYTHON" -c 'import os; print(os.getxattr("sec", "security.lr"))'
	assert_output "b'1'"
	"$PYTHON" -c 'import os; os.removexattr("sec", "security.lr")'
	run -1 "$LR" --rw . -- setfacl -m u:nobody:rw acl
	assert_output --partial "Operation not supported"
	run -0 getfacl -c acl
	refute_output --partial nobody
	run -1 "$LR" --rw . --keep-caps -- "$PYTHON" -c "$sec" sec
	assert_output --partial "Errno 95"
	run -1 "$PYTHON" -c 'import os; os.getxattr("sec", "security.lr")'
	# cp -a of a file that has an ACL cannot keep it: it says so
	setfacl -m u:nobody:r acl
	run -1 "$LR" --rw . -- cp -a acl acl2
	assert_output --partial "Operation not supported"
	run -0 getfacl -c acl2
	refute_output --partial nobody
}

@test "root: a setuid mode by create, fchmodat2 or an attribute by setxattrat is refused too" {
	need_root
	touch f
	OPTS="--rw ." refused EPERM "$SYSOP" create "$BATS_TEST_TMPDIR/new" 4755
	assert_equal "$(stat -c %a new)" 4755 # the control's
	rm new
	run -0 "$LR" --rw . -- "$SYSOP" create "$BATS_TEST_TMPDIR/plain" 755
	refused EPERM "$SYSOP" fchmodat2 f 2755
	chmod 644 f
	run -0 "$LR" -- "$SYSOP" fchmodat2 f 755
	[ "$(uname -r | cut -d. -f1)" -ge 7 ] || [ "$(uname -r | cut -d. -f2)" -ge 13 ] ||
		skip "setxattrat needs Linux 6.13"
	refused EOPNOTSUPP "$SYSOP" setxattrat f
}

# Every call of the table the tests above do not reach through a tool, made
# raw (x86_64's numbers): refused with its errno by default, and with every
# group allowed the kernel's own answer, which is another.
@test "root: every call of the baseline and metadata rows is refused, each beside its control" {
	need_root
	x86_64_only
	touch f
	cat >calls.py <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
S = 0o104755  # S_IFREG | setuid | 0755, as mknod takes it
f, v = b"f", b"v"
fd = os.open("f", os.O_RDONLY)
calls = [  # name, number, arguments
    ("chmod", 90, (f, 0o4755)), ("fchmod", 91, (fd, 0o4755)),
    ("fchmodat", 268, (-100, f, 0o2755)), ("fchmodat2", 452, (-100, f, 0o4755, 0)),
    ("open", 2, (b"o1", os.O_CREAT | os.O_WRONLY, 0o4755)), ("creat", 85, (b"o2", 0o4755)),
    ("openat", 257, (-100, b"o3", os.O_CREAT | os.O_WRONLY, 0o2755)),
    ("mknod", 133, (b"n1", S, 0)), ("mknodat", 259, (-100, b"n2", S, 0)),
    ("setxattr", 188, (f, b"user.a", v, 1, 0)), ("lsetxattr", 189, (f, b"user.b", v, 1, 0)),
    ("fsetxattr", 190, (fd, b"user.c", v, 1, 0)), ("removexattr", 197, (f, b"user.a")),
    ("lremovexattr", 198, (f, b"user.b")), ("fremovexattr", 199, (fd, b"user.c")),
    ("io_uring_enter", 426, (-1, 0, 0, 0, 0, 0)), ("io_uring_register", 427, (-1, 0, 0, 0)),
    ("add_key", 248, (b"user", b"lr-test", v, 1, -2)),
    ("request_key", 249, (b"user", b"lr-no-such-key", 0, 0)),
]
for name, nr, args in calls:
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    e = ctypes.get_errno()
    print(name, "ok" if r >= 0 else __import__("errno").errorcode.get(e, e))
PY
	# (Python names EOPNOTSUPP, 95, by its other name ENOTSUP)
	local want=(chmod:EPERM fchmod:EPERM fchmodat:EPERM fchmodat2:EPERM open:EPERM creat:EPERM
		openat:EPERM mknod:EPERM mknodat:EPERM setxattr:ENOTSUP lsetxattr:ENOTSUP
		fsetxattr:ENOTSUP removexattr:ENOTSUP lremovexattr:ENOTSUP
		fremovexattr:ENOTSUP io_uring_enter:ENOSYS
		io_uring_register:ENOSYS add_key:ENOSYS request_key:ENOSYS)
	run -0 "$LR" --rw . -- "$PYTHON" calls.py
	assert_output "$(printf '%s\n' "${want[@]}" | tr : ' ')"
	assert_equal "$(stat -c %a f)" 644
	# control: the same calls, every group allowed; none answers the refusal's errno
	run -0 "$LR" --rw . --allow-syscalls "$ALL" -- "$PYTHON" calls.py
	local line name
	for line in "${lines[@]}"; do
		name=${line%% *}
		[[ " ${want[*]} " != *" $name:${line#* } "* ]] || fail "$name answers as refused without the filter: $line"
	done
	assert_equal "${#lines[@]}" "${#want[@]}"
}

@test "metadata is root's only: nobody may still set the setuid bit on its own file" {
	need_root
	chmod 777 .
	touch mine
	chown nobody mine
	run -0 "${AS_NOBODY[@]}" "$LR" -- chmod u+s mine
	assert_equal "$(stat -c %a mine)" 4644
	run -0 --separate-stderr "${AS_NOBODY[@]}" "$LR" -v -- true
	[[ $stderr == *"baseline=io_uring,userns,keyring,bpf,perf,userfaultfd"$'\n'* ]] || fail "$stderr"
}

@test "-v prints the network and the baseline in force" {
	run -0 --separate-stderr "$LR" -v -- true
	stderr_has "landlock-run policy: network_confined=nothing"$'\n'
	# network=none meant the same and read as "no network": kept one release for scripts
	stderr_has "landlock-run policy: network=none"
	stderr_has "landlock-run policy: baseline=$(baseline_groups)"
	run -0 --separate-stderr "$LR" -v --no-network --allow-syscalls userns,bpf -- true
	stderr_has "landlock-run policy: network_confined=all"$'\n'
	stderr_has "landlock-run policy: network=all"
	stderr_has "landlock-run policy: baseline=io_uring,keyring,perf,userfaultfd$([ "$(id -u)" = 0 ] && echo ,metadata)"$'\n'
	[ "$KUSED" -ge 4 ] || skip "port rules need ABI 4"
	run -0 --separate-stderr "$LR" -v --tcp-connect 443 -- true
	stderr_has "landlock-run policy: network_confined=tcp"$'\n'
	stderr_has "landlock-run policy: network=tcp"$'\n'
}

@test "the probe proves --no-network and the baseline in its child, in text and JSON" {
	run -0 --separate-stderr "$LR" --probe -v --no-network
	assert_line "network_confined=all"
	assert_line "network=all"
	assert_line "baseline=$(baseline_groups)"
	assert_line "unprovable="
	run -0 --separate-stderr "$LR" --probe --json --no-network --allow-syscalls keyring
	[[ $output == *'"network_confined":"all","network":"all","baseline":["io_uring","userns","bpf",'* ]] ||
		fail "$output"
	run -0 --separate-stderr "$LR" --probe -v --allow-syscalls "$ALL"
	assert_line "baseline="
	assert_line "network_confined=nothing"
	assert_line "network=none"
	need_root
	run -0 --separate-stderr "${AS_NOBODY[@]}" "$LR" --probe -v --no-network
	assert_line "network=all"
	assert_line "baseline=io_uring,userns,keyring,bpf,perf,userfaultfd"
}

@test "the probe: a call the kernel refuses with the filter's errno already is unprovable, not proven" {
	x86_64_only # fault takes these calls by their x86_64 numbers
	# a kernel without io_uring (425 answers ENOSYS), one with unprivileged bpf off (321, EPERM)
	run -0 --separate-stderr "$FAULT" 425 ENOSYS -- "$LR" --probe -v
	assert_line "unprovable=io_uring"
	assert_line "baseline=$(baseline_groups)"
	run -0 --separate-stderr "$FAULT" 321 EPERM -- "$LR" --probe --json
	[[ $output == *'"unprovable":["bpf"]'* ]] || fail "$output"
	# another errno before the sandbox: the filter's answer differs, so it is proven
	run -0 --separate-stderr "$FAULT" 321 EINVAL -- "$LR" --probe -v
	assert_line "unprovable="
}

@test "the probe fails when a group it reports is not refused (the filter refused at install)" {
	# a kernel that refuses the filter: the probe says so, never 'baseline='
	run -125 --separate-stderr "$FAULT" seccomp EINVAL -- "$LR" --probe --no-network
	assert_one_launcher_line
	stderr_has "cannot install the seccomp filter"
}

@test "--explain runs with the filter: a refused socket stays refused, and no launcher failure is told" {
	run -1 --separate-stderr "$LR" --explain --no-network -- "$SYSOP" socket inet stream
	assert_output EAFNOSUPPORT
	refute_launcher_line
}
