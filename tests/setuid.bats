#!/usr/bin/env bats
# Root's setuid and setgid files beneath write grants (issue 27, part 4).
# The kernel clears the bits when a process without CAP_FSETID changes a file
# by write(2) or a truncate, not when it stores through a MAP_SHARED mapping,
# so root's command, whose capabilities are dropped, could give a 4755
# root-owned program new content that stays -rwsr-xr-x. Where root's command
# can write a directory (or a setuid file itself) the filter refuses every
# shared mapping of a file (ENODEV); anonymous shared memory and private
# mappings stay. Each attack is beside its control: the same store with the
# refusal lifted (--allow-syscalls metadata), or without the launcher.
load helpers

SYSOP=$HELPERS/sysop

# The attack in Python, as a command would make it: open for writing, map
# shared, store. ARGS: map|write FILE.
STORE='import mmap, os, sys
try:
    fd = os.open(sys.argv[2], os.O_RDWR)
    if sys.argv[1] == "map":
        m = mmap.mmap(fd, 0)  # MAP_SHARED, PROT_READ | PROT_WRITE
        m[0:6] = b"owned!"
        m.close()
    else:
        os.pwrite(fd, b"owned!", 0)
except OSError as e:
    print(sys.argv[1], e.strerror); sys.exit(1)
print("stored")'

need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

setup() {
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
}

teardown() {
	! mountpoint -q "$BATS_TEST_TMPDIR/tmpfs" || umount "$BATS_TEST_TMPDIR/tmpfs"
}

# program FILE MODE: a copy of sysop, FILE, with MODE.
program() { cp "$SYSOP" "$1" && chmod "$2" "$1"; }

# unchanged FILE MODE: FILE is sysop's bytes and has MODE.
unchanged() {
	cmp -s "$SYSOP" "$1" || fail "$1 changed"
	assert_equal "$(stat -c %a "$1")" "$2"
}

# owned FILE MODE: FILE starts with the store and still has MODE.
owned() {
	assert_equal "$(head -c 6 "$1")" "owned!"
	assert_equal "$(stat -c '%a %U' "$1")" "$2 root"
}

@test "root: a store through a shared mapping leaves a setuid program changed and setuid (the attack, without the refusal), where write(2) clears the bit" {
	need_root
	mkdir d
	program d/su 4755
	run -0 "$LR" --ro / --rw d --allow-syscalls metadata -- "$PYTHON" -c "$STORE" map d/su
	assert_output stored
	owned d/su 4755
	program d/su 4755
	run -0 "$PYTHON" -c "$STORE" map d/su
	owned d/su 4755
	program d/passwd 4755
	run -0 "$LR" --ro / --rw d -- "$PYTHON" -c "$STORE" write d/passwd
	assert_equal "$(stat -c %a d/passwd)" 755
}

@test "root: no setuid or setgid program inside a write grant is changed through a shared mapping (disk and tmpfs)" {
	need_root
	mkdir disk tmpfs
	mount -t tmpfs lr-setuid tmpfs || skip "cannot mount a tmpfs here"
	local dir mode
	for dir in disk tmpfs; do
		for mode in 4755 2755 6755; do
			program "$dir/p$mode" "$mode"
			run -1 "$LR" --ro / --rw "$dir" -- "$PYTHON" -c "$STORE" map "$dir/p$mode"
			assert_output "map No such device"
			unchanged "$dir/p$mode" "$mode"
		done
		# control: lifted, the same store keeps the bits
		run -0 "$LR" --ro / --rw "$dir" --allow-syscalls metadata -- \
			"$PYTHON" -c "$STORE" map "$dir/p4755"
		owned "$dir/p4755" 4755
	done
}

@test "root: a file capability is kept from a shared mapping as the bits are (lifted, the store keeps it; write(2) clears it); outside every write grant the open for writing is Landlock's to refuse" {
	need_root
	# a file capability set and read as setcap and getcap do (vfs_cap_data v2,
	# cap_net_raw)
	local setcap='import os, shutil, struct, sys
for f in sys.argv[2:]:
    shutil.copy(sys.argv[1], f)
    os.setxattr(f, "security.capability", struct.pack("<5I", 0x02000001, 1 << 13, 0, 0, 0))'
	local getcap='import os, struct, sys
try:
    print("%x" % struct.unpack("<5I", os.getxattr(sys.argv[1], "security.capability"))[1])
except OSError:
    print("none")'
	mkdir d
	"$PYTHON" -c "$setcap" "$SYSOP" d/mapcap d/writecap
	run -1 "$LR" --ro / --rw d -- "$PYTHON" -c "$STORE" map d/mapcap
	assert_output "map No such device"
	cmp -s "$SYSOP" d/mapcap || fail "d/mapcap changed"
	run -0 "$LR" --ro / --rw d --allow-syscalls metadata -- "$PYTHON" -c "$STORE" map d/mapcap
	run -0 "$PYTHON" -c "$getcap" d/mapcap
	assert_output 2000
	run -0 "$LR" --ro / --rw d -- "$PYTHON" -c "$STORE" write d/writecap
	run -0 "$PYTHON" -c "$getcap" d/writecap
	assert_output none
	# outside every write grant Landlock refuses the open for writing
	program su 4755
	run -1 "$LR" --ro / --rw d -- "$PYTHON" -c "$STORE" map "$PWD/su"
	assert_output --partial "Permission denied"
	unchanged su 4755
}

@test "root: every way to a shared writable mapping is refused: MAP_SHARED_VALIDATE, a read-only one made writable, x32, i386's mmap2 and its old mmap" {
	need_root
	[ "$(uname -m)" = x86_64 ] || skip "the i386 and x32 ABIs are x86_64's (arm64: filtermodel)"
	mkdir d
	local how want
	for how in native validate upgrade x32 i386 i386-old; do
		program d/su 4755
		want=ENODEV
		[ "$how" = i386-old ] && want=ENOSYS
		run -1 "$LR" --ro / --rw d -- "$SYSOP" mapstore "$how" d/su
		assert_output "$want"
		unchanged d/su 4755
		# control: lifted, each stores (x32 only where the kernel has it)
		run "$LR" --ro / --rw d --allow-syscalls metadata -- "$SYSOP" mapstore "$how" d/su
		if [ "$how" = x32 ] && [ "$output" = ENOSYS ]; then
			continue
		fi
		assert_success
		assert_output ok
		owned d/su 4755
	done
}

@test "root: a file grant that is a setuid program refuses shared mappings; one on /dev/null, --private-tmp alone, --keep-caps and --allow-syscalls metadata do not" {
	need_root
	local map='import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    mmap.mmap(fd, 0, prot=mmap.PROT_READ); print("mapped")
except OSError as e:
    print(e.strerror)'
	program su 4755
	run -1 "$LR" --ro / --rw su -- "$SYSOP" mapstore native su
	assert_output ENODEV
	unchanged su 4755
	# read-only, shared: refused too where the grant may hold a setuid file
	run -0 "$LR" --ro / --rw "$BATS_TEST_TMPDIR" -- "$PYTHON" -c "$map" /etc/passwd
	assert_output "No such device"
	run -0 "$LR" --ro / --rw /dev/null -- "$PYTHON" -c "$map" /etc/passwd
	assert_output mapped
	# (stderr apart: the host's /tmp may hold a socket --private-tmp warns of)
	run -0 --separate-stderr "$LR" --ro / --private-tmp --rw /dev/null -- "$PYTHON" -c "$map" /etc/passwd
	assert_output mapped
	run -0 "$LR" --ro / --rw "$BATS_TEST_TMPDIR" --keep-caps -- "$PYTHON" -c "$map" /etc/passwd
	assert_output mapped
	run -0 "$LR" --ro / --rw "$BATS_TEST_TMPDIR" --allow-syscalls metadata -- \
		"$PYTHON" -c "$map" /etc/passwd
	assert_output mapped
	# a plain file grant that is no setuid file
	cp "$SYSOP" plain
	run -0 "$LR" --ro / --rw plain -- "$SYSOP" mapstore native plain
	assert_output ok
}

@test "root: anonymous shared memory and private mappings of files stay; glibc reads its gconv cache instead of mapping it" {
	need_root
	local mem='import mmap, os
m = mmap.mmap(-1, 4096); m[0:1] = b"x"  # MAP_SHARED | MAP_ANONYMOUS
fd = os.open("/etc/passwd", os.O_RDONLY)
p = mmap.mmap(fd, 0, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
p[0:1] = b"x"
pid = os.fork()
if pid == 0:
    m[0:1] = b"y"; os._exit(0)
os.waitpid(pid, 0)
print("kept", m[0:1].decode())'
	run -0 "$LR" --ro / --rw "$BATS_TEST_TMPDIR" -- "$PYTHON" -c "$mem"
	assert_output "kept y"
	run -0 "$LR" --ro / --rw "$BATS_TEST_TMPDIR" -- env LC_ALL=C.UTF-8 iconv -f UTF-8 -t ISO-8859-1 <<<"café"
	assert_output "$(printf 'caf\xe9')"
}

@test "nobody: no refusal (the metadata rules are root's); nobody cannot open root's setuid program for writing at all, and its own stays its own" {
	as_nobody
	local dir
	dir=$(mktemp -d "$NOBODY_DIR/XXXXXX") && chmod 0755 "$dir"
	program "$dir/su" 4755
	run -3 "${AS_NOBODY[@]}" "$LR" --ro / --rw "$dir" -- "$HELPERS/sysop" mapstore native "$dir/su"
	assert_output "open: EACCES"
	unchanged "$dir/su" 4755
	mkdir "$dir/own" && chown 65534:65534 "$dir/own"
	program "$dir/own/tool" 4755
	chown 65534:65534 "$dir/own/tool" && chmod 4755 "$dir/own/tool"
	run -0 "${AS_NOBODY[@]}" "$LR" --ro / --rw "$dir/own" -- "$HELPERS/sysop" mapstore native "$dir/own/tool"
	assert_output ok
	assert_equal "$(stat -c '%a %U' "$dir/own/tool")" "4755 nobody"
}

@test "root: -v names the grant that brings the refusal; --explain names each mapping refused but glibc's gconv cache" {
	need_root
	mkdir d
	program d/su 4755
	run -1 --separate-stderr "$LR" -v --ro / --rw /dev/null --rw d -- "$SYSOP" mapstore native d/su
	assert_output ENODEV
	assert_equal "$(grep -c '^landlock-run filter: mmap MAP_SHARED of a file refused (ENODEV): root.s command can write through --rw d, where a setuid file would keep its bit; --allow-syscalls metadata allows it$' <<<"$stderr")" 1
	run -0 --separate-stderr "$LR" -v --ro / --rw /dev/null -- /bin/true
	[[ "$stderr" != *"landlock-run filter:"* ]] || fail "a refusal without a write grant on a directory"
	run -1 --separate-stderr "$LR" --explain --ro / --rw d -- "$SYSOP" mapstore native d/su
	[[ "$stderr" == "landlock-run denied: metadata (mmap by sysop["*"]): a shared mapping of a file, refused where root's command can write a directory (a setuid file keeps its bits through one); run the command as another user, or allow with --allow-syscalls metadata" ]] ||
		fail "--explain said: $stderr"
	# read-only: reported too (the JVM dies of SIGSEGV without its modules')
	run -1 --separate-stderr "$LR" --explain --ro / --rw d -- \
		"$PYTHON" -c 'import mmap, os; mmap.mmap(os.open("/etc/passwd", os.O_RDONLY), 0, prot=mmap.PROT_READ)'
	[[ "$stderr" == *"landlock-run denied: metadata (mmap by python3["* ]] || fail "--explain said: $stderr"
	# but not glibc's gconv cache, which every process of a UTF-8 locale maps
	# and reads instead (its control: the mapping is there without the refusal)
	run -0 strace -f -e trace=mmap -o "$BATS_TEST_TMPDIR/trace" env LC_ALL=C.UTF-8 iconv -f UTF-8 -t ISO-8859-1 <<<"x"
	grep -q "PROT_READ, MAP_SHARED, " "$BATS_TEST_TMPDIR/trace" || skip "this glibc maps no gconv cache"
	run -0 --separate-stderr "$LR" --explain --ro / --rw d -- env LC_ALL=C.UTF-8 iconv -f UTF-8 -t ISO-8859-1 <<<"x"
	assert_output x
	[[ "$stderr" != *"mmap by"* ]] || fail "the gconv cache was reported: $stderr"
}

@test "root: what the refusal breaks, named in the man page: SQLite's WAL in a write grant (the rollback journal works)" {
	need_root
	"$PYTHON" -c 'import sqlite3' 2>/dev/null || skip "python3 without sqlite3"
	local db='import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
try:
    print(c.execute("pragma journal_mode=" + sys.argv[2]).fetchone()[0])
    c.execute("create table t(x)"); c.execute("insert into t values (1)"); c.commit()
    print("written")
except sqlite3.Error as e:
    print("error", e)'
	run -0 "$LR" --ro / --rw "$BATS_TEST_TMPDIR" -- "$PYTHON" -c "$db" "$BATS_TEST_TMPDIR/wal.db" wal
	assert_line --partial "error"
	run -0 "$LR" --ro / --rw "$BATS_TEST_TMPDIR" -- "$PYTHON" -c "$db" "$BATS_TEST_TMPDIR/del.db" delete
	assert_output "delete
written"
	# control: lifted, WAL works
	run -0 "$LR" --ro / --rw "$BATS_TEST_TMPDIR" --allow-syscalls metadata -- \
		"$PYTHON" -c "$db" "$BATS_TEST_TMPDIR/wal2.db" wal
	assert_output "wal
written"
}

@test "root: --allow-syscalls io_uring lifts the refusal, since io_uring's rings are shared mappings of its descriptor (the man page says so)" {
	need_root
	mkdir d
	program d/su 4755
	run -0 "$LR" --ro / --rw d --allow-syscalls io_uring -- "$SYSOP" io_uring-write d/out "by io_uring"
	assert_equal "$(cat d/out)" "by io_uring"
	run -0 --separate-stderr "$LR" -v --ro / --rw d --allow-syscalls io_uring -- "$SYSOP" mapstore native d/su
	owned d/su 4755
	# and -v says so
	assert_equal "$(grep -c "^landlock-run filter: mmap MAP_SHARED of a file allowed for io_uring's rings: root's command can write through --rw d, where a setuid file would keep its bit through one$" <<<"$stderr")" 1
	# control: without it, the ring cannot be mapped and the store is refused
	program d/su 4755
	run -1 "$LR" --ro / --rw d -- "$SYSOP" mapstore native d/su
	assert_output ENODEV
	unchanged d/su 4755
}

@test "root: a file grant with a file capability refuses shared mappings too; --keep-caps without CAP_FSETID does not lift the refusal" {
	need_root
	"$PYTHON" -c 'import os, shutil, struct, sys
shutil.copy(sys.argv[1], sys.argv[2])
os.setxattr(sys.argv[2], "security.capability", struct.pack("<5I", 0x02000001, 1 << 13, 0, 0, 0))' "$SYSOP" capf
	run -1 "$LR" --ro / --rw capf -- "$SYSOP" mapstore native capf
	assert_output ENODEV
	cmp -s "$SYSOP" capf || fail "capf changed"
	# control: lifted, the store goes through
	run -0 "$LR" --ro / --rw capf --allow-syscalls metadata -- "$SYSOP" mapstore native capf
	assert_output ok
	mkdir d
	program d/su 4755
	# a root exec is given the bounding set: without CAP_FSETID in it
	run -1 setpriv --bounding-set=-fsetid -- "$LR" --keep-caps --ro / --rw d -- "$SYSOP" mapstore native d/su
	assert_output ENODEV
	unchanged d/su 4755
	# control: with CAP_FSETID --keep-caps hands it on, and write(2) keeps the bit anyway
	run -0 "$LR" --keep-caps --ro / --rw d -- "$SYSOP" mapstore native d/su
	owned d/su 4755
}

@test "root: --probe with a write grant on a directory proves the refusal in its child (the kernel's own answer EBADF first), and without one does not try it" {
	need_root
	mkdir d
	run -0 strace -f -qq -e trace=mmap -o "$BATS_TEST_TMPDIR/trace" "$LR" --probe --ro / --rw d
	assert_output --partial "landlock:"
	assert_equal "$(grep -c 'MAP_SHARED, -1, 0) = -1 EBADF' "$BATS_TEST_TMPDIR/trace")" 1
	assert_equal "$(grep -c 'MAP_SHARED, -1, 0) = -1 ENODEV' "$BATS_TEST_TMPDIR/trace")" 1
	# control: no write grant on a directory, no refusal to prove
	run -0 strace -f -qq -e trace=mmap -o "$BATS_TEST_TMPDIR/trace" "$LR" --probe --ro / --rw /dev/null
	assert_equal "$(grep -c 'MAP_SHARED, -1' "$BATS_TEST_TMPDIR/trace")" 0
}

@test "root: --explain-json records a refused mapping as the filter's metadata refusal, with the option that lifts it" {
	need_root
	mkdir d
	program d/su 4755
	run -1 "$LR" --explain-json "$BATS_TEST_TMPDIR/report.json" --ro / --rw d -- "$SYSOP" mapstore native d/su
	assert_output ENODEV
	run -0 "$PYTHON" -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("syscall") == "mmap":
        print(r["kind"], r["comm"], r["right"], r["errno"], " ".join(r["allow"]))' "$BATS_TEST_TMPDIR/report.json"
	assert_output "syscall sysop metadata ENODEV --allow-syscalls metadata"
	unchanged d/su 4755
}
