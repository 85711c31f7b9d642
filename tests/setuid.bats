#!/usr/bin/env bats
# Root's setuid and setgid files beneath write grants (issue 27, part 4;
# setuid.c). The kernel clears the bits when a process without CAP_FSETID
# changes a file by write(2) or a truncate, not when it stores through a
# MAP_SHARED mapping (the page fault path never calls file_remove_privs), so
# root's command, whose capabilities are dropped, could give a 4755 root-owned
# program new content that stays -rwsr-xr-x. Where the command can be root the
# launcher searches each write grant for them and walks the grant around them
# as --hide does: opening one for writing is EACCES. Each attack is beside its
# control: the same store without the launcher, or on a file that is not setuid.
load helpers

SYSOP=$HELPERS/sysop
AS_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# The attack: open for writing, map shared, store. ARGS: map|write FILE.
STORE='import mmap, os, sys
try:
    fd = os.open(sys.argv[2], os.O_RDWR)
except OSError as e:
    print("open", e.strerror); sys.exit(1)
if sys.argv[1] == "map":
    m = mmap.mmap(fd, 0)  # MAP_SHARED, PROT_READ | PROT_WRITE
    m[0:6] = b"owned!"
    m.close()
else:
    os.pwrite(fd, b"owned!", 0)
print("stored")'

need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

setup() {
	require_helpers
	require_landlock
	cd "$BATS_TEST_TMPDIR" || return
}

teardown() {
	local m
	for m in alias/b alias/a/sub ns back tmpfs; do
		! mountpoint -q "$BATS_TEST_TMPDIR/$m" || umount "$BATS_TEST_TMPDIR/$m"
	done
}

# program FILE MODE: a copy of sysop, FILE, with MODE.
program() { cp "$SYSOP" "$1" && chmod "$2" "$1"; }

@test "root: a setuid or setgid program inside a write grant cannot be opened for writing, so neither a shared mapping nor write(2) changes it (disk and tmpfs)" {
	need_root
	mkdir disk tmpfs
	mount -t tmpfs lr-setuid tmpfs || skip "cannot mount a tmpfs here"
	local dir mode how
	for dir in disk tmpfs; do
		mkdir -p "$dir/bin" "$dir/lib"
		for mode in 4755 2755 6755; do
			for how in map write; do
				program "$dir/bin/$how$mode" "$mode"
				run -1 "$LR" --ro / --rw "$dir" -- "$PYTHON" -c "$STORE" "$how" "$dir/bin/$how$mode"
				assert_output "open Permission denied"
				cmp -s "$SYSOP" "$dir/bin/$how$mode" || fail "$dir/bin/$how$mode changed"
				assert_equal "$(stat -c %a "$dir/bin/$how$mode")" "$mode"
			done
		done
		# control: the same store on a program that is not setuid, beside it
		program "$dir/bin/plain" 0755
		run -0 "$LR" --ro / --rw "$dir" -- "$PYTHON" -c "$STORE" map "$dir/bin/plain"
		assert_output stored
		assert_equal "$(head -c 6 "$dir/bin/plain")" "owned!"
		# control: setgid without group execute is mandatory locking, no privilege
		program "$dir/lib/lock" 2745
		run -0 "$LR" --ro / --rw "$dir" -- "$PYTHON" -c "$STORE" map "$dir/lib/lock"
		# control: without the launcher the store keeps the bit (the attack)
		"$PYTHON" -c "$STORE" map "$dir/bin/map4755"
		assert_equal "$(stat -c '%a %U' "$dir/bin/map4755")" "4755 root"
		assert_equal "$(head -c 6 "$dir/bin/map4755")" "owned!"
	done
}

# The limit left: a file capability (security.capability) is held as an
# extended attribute, which a search would have to read for every file; the
# kernel takes it away on write(2), not on a store through a mapping.
@test "root: a program with a file capability inside a write grant keeps it through a shared mapping (the limit), write(2) clears it" {
	need_root
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
	run -0 "$LR" --ro / --rw d -- "$PYTHON" -c "$STORE" map d/mapcap
	run -0 "$PYTHON" -c "$getcap" d/mapcap
	assert_output 2000
	run -0 "$LR" --ro / --rw d -- "$PYTHON" -c "$STORE" write d/writecap
	run -0 "$PYTHON" -c "$getcap" d/writecap
	assert_output none
}

# Landlock's refer rule: a rename or link may not give a file rights it did
# not have where it was. The directories on the way keep all but writing,
# truncating and refer, their other entries everything: nothing moves across
# directories into or out of them, and within one a setuid file stays
# unwritable under any name.
@test "root: no rename, link or symlink takes a setuid file where it could be written" {
	need_root
	mkdir -p t/bin t/other
	program t/bin/su 4755
	program t/bin/plain 0755
	local moves='import os, sys
def do(what, f, *a):
    try:
        f(*a); print(what, "ok")
    except OSError as e:
        print(what, e.strerror)
def write(p):
    os.close(os.open(p, os.O_RDWR))
do("rename", os.rename, "t/bin/su", "t/other/su")
do("link", os.link, "t/bin/su", "t/other/su")
do("dir", os.rename, "t/bin", "t/other/bin")
do("down", os.rename, "t/bin/su", "t/bin/sub/su")
do("out", os.rename, "t/bin/plain", "t/other/plain")
do("same", os.rename, "t/bin/su", "t/bin/su2")
do("write-renamed", write, "t/bin/su2")
do("samelink", os.link, "t/bin/su2", "t/bin/su3")
do("write-linked", write, "t/bin/su3")
os.symlink("../bin/su2", "t/other/sym")
do("write-symlink", write, "t/other/sym")'
	mkdir t/bin/sub
	run -0 "$LR" --ro / --rw t -- "$PYTHON" -c "$moves"
	assert_output "rename Invalid cross-device link
link Invalid cross-device link
dir Invalid cross-device link
down Invalid cross-device link
out Invalid cross-device link
same ok
write-renamed Permission denied
samelink ok
write-linked Permission denied
write-symlink Permission denied"
	assert_equal "$(stat -c %a t/bin/su2)" 4755
	cmp -s "$SYSOP" t/bin/su2
	# control: the same moves of a program that is not setuid all work
	rm -rf t && mkdir -p t/bin/sub t/other
	program t/bin/su 0755
	program t/bin/plain 0755
	run -0 "$LR" --ro / --rw t -- "$PYTHON" -c "${moves//t\/bin\/su\", \"t\/bin\/su2\"/t/other/su\", \"t/bin/su2\"}"
	assert_line "rename ok"
	assert_line "dir ok"
	refute_output --partial "Permission denied"
}

@test "root: what it costs: files made later in a directory on the way cannot be written; everything beside them can; the setuid file can be removed" {
	need_root
	mkdir -p t/usr/bin t/usr/share t/etc
	program t/usr/bin/su 4755
	echo old >t/usr/bin/plain
	echo old >t/etc/conf
	local script='for f in t/usr/bin/new t/usr/new t/new t/usr/share/new t/etc/new t/etc/conf t/usr/bin/plain; do
		if echo x 2>/dev/null >"$f"; then echo "$f ok"; else echo "$f refused"; fi
	done
	rm t/usr/bin/su && echo removed'
	run -0 "$LR" --ro / --rw /dev/null --rw t -- sh -c "$script"
	assert_output "t/usr/bin/new refused
t/usr/new refused
t/new refused
t/usr/share/new ok
t/etc/new ok
t/etc/conf ok
t/usr/bin/plain ok
removed"
	# the file is made, empty: making it is not writing it
	assert_file_empty t/usr/bin/new
	# control: with no setuid file in the tree every write works
	rm -rf t/usr/bin/new t/usr/new t/new
	program t/usr/bin/su 0755
	run -0 "$LR" --ro / --rw /dev/null --rw t -- sh -c "$script"
	refute_output --partial refused
}

@test "root: a directory on the way reached under another name (a bind mount without its submount) gets no rule: it is caught by inode" {
	need_root
	mkdir -p alias/a/sub alias/b
	mount -t tmpfs lr-setuid alias/a/sub || skip "cannot mount a tmpfs here"
	program alias/a/sub/su 4755
	mount --bind alias/a alias/b # non-recursive: alias/b/sub is the empty directory beneath
	run -1 --separate-stderr "$LR" -v --ro / --rw alias -- "$PYTHON" -c "$STORE" map alias/a/sub/su
	assert_output "open Permission denied"
	[[ $stderr == *"alias/b is the same inode as "*"alias/a, a directory above setuid file "*"alias/a/sub/su: it gets no rule, so it is not writable either"* ]] || fail "$stderr"
	# control: the store works without the launcher
	run -0 "$PYTHON" -c "$STORE" map alias/a/sub/su
}

# The bit means nothing on a nosuid mount, but the same inode can be mounted
# elsewhere without it: the search does not skip one.
@test "root: a setuid file on a nosuid mount beneath the grant is withheld too: it is the same file where it runs setuid" {
	need_root
	mkdir back ns
	mount -t tmpfs lr-setuid back || skip "cannot mount a tmpfs here"
	program back/su 4755
	mount --bind -o nosuid back ns || skip "cannot bind-mount nosuid here"
	mount -o remount,bind,nosuid ns
	run -1 "$LR" --ro / --rw ns -- "$PYTHON" -c "$STORE" map ns/su
	assert_output "open Permission denied"
	# control: without the launcher the store through the nosuid view changes
	# the setuid program in the other
	run -0 "$PYTHON" -c "$STORE" map ns/su
	assert_equal "$(stat -c %a back/su) $(head -c 6 back/su)" "4755 owned!"
}

@test "root: a write grant that is a setuid program itself keeps reading and running it, not writing" {
	need_root
	program su 4755
	run -1 --separate-stderr "$LR" -v --ro / --rw su -- "$PYTHON" -c "$STORE" map su
	assert_output "open Permission denied"
	[[ $stderr == *"landlock-run grant: --rw su -> $PWD/su: execute,read_file,ioctl_dev"$'\n'* ]] || fail "$stderr"
	run -0 "$LR" --ro / --rw su -- ./su socketpair unix # it runs
	run -0 "$LR" --ro / --rw su -- cmp "$SYSOP" su
}

@test "-v: how many setuid files are withheld and the first; no search without a write grant, as nobody, or with --allow-syscalls metadata" {
	need_root
	mkdir -p t/b t/a t/c
	program t/b/su 4755
	program t/a/sg 2755
	# another owner's setuid file gives only that owner's uid, and root's
	# command cannot open it for writing: it is not withheld
	program t/c/theirs 4755
	chown nobody t/c/theirs && chmod 4755 t/c/theirs
	# nor is another owner's that anyone may write (anyone outside may map it
	# already): a user's 4777 file in /tmp takes nothing from root's --rw /tmp
	program t/c/open 4777
	chown nobody t/c/open && chmod 4777 t/c/open
	run -0 --separate-stderr "$LR" -v --ro / --rw t -- true
	[[ $stderr == *"landlock-run setuid: 2 setuid or setgid files beneath the write grants are withheld from writing (the first $PWD/t/"*"), 2 rules around them; files made later in the directories on the way cannot be written; 4 files searched"* ]] || fail "$stderr"
	run -0 "$LR" --ro / --rw t -- sh -c 'echo x >t/c/new' # t/c is not on the way
	# with --keep-caps root's command may write any file: every owner's counts
	run -0 --separate-stderr "$LR" -v --keep-caps --ro / --rw t -- true
	[[ $stderr == *"landlock-run setuid: 4 setuid or setgid files"* ]] || fail "$stderr"
	run -0 --separate-stderr "$LR" -v --ro / --rw t --allow-syscalls metadata -- true
	[[ $stderr != *"landlock-run setuid:"* ]] || fail "$stderr"
	command -v strace >/dev/null || skip "no strace"
	run -0 strace -qq -f -e trace=getdents64 -o trace "$LR" --ro / --rw /dev/null -- true
	assert_file_empty trace
	run -0 strace -qq -e trace=getdents64 -o trace "$LR" --ro / -- true
	assert_file_empty trace
	local pub
	pub=$(mktemp -d /tmp/landlock-run-setuid.XXXXXX)
	chmod 755 "$pub" && mkdir "$pub/t" && chmod 777 "$pub/t"
	program "$pub/t/su" 4755
	run -0 strace -qq -e trace=getdents64 -o "$pub/trace" "${AS_NOBODY[@]}" "$LR" --ro / --rw "$pub/t" -- true
	local calls
	calls=$(cat "$pub/trace")
	rm -rf "$pub"
	[ -z "$calls" ] || fail "nobody's run searched: $calls"
}

@test "--explain: a refused write of a setuid file is not advised" {
	need_root
	mkdir -p t/bin
	program t/bin/su 4755
	run -1 --separate-stderr "$LR" --explain --ro / --rw t -- "$PYTHON" -c "$STORE" map t/bin/su
	[[ $stderr == *"landlock-run denied: write_file $PWD/t/bin/su (openat by python3"*"): not advised: a setuid or setgid program: root's command could rewrite it through a shared mapping and keep its bit, so no write grant reaches it"* ]] || fail "$stderr"
	# a file made in a directory on the way is advised as the file itself,
	# which the next run can write
	run -2 --separate-stderr "$LR" --explain --ro / --rw t -- sh -c 'echo x >t/bin/new'
	[[ $stderr == *"landlock-run denied: write_file $PWD/t/bin/new (openat by sh"*"): allow with --rw $PWD/t/bin/new"* ]] || fail "$stderr"
	run -0 "$LR" --ro / --rw t --rw t/bin/new -- sh -c 'echo x >t/bin/new'
}

# A command that cannot run as root gains nothing: root's 4755 program is not
# its to open for writing, and its own setuid file gives only its own uid
# (and it may set the bit on its own files anyway: the metadata rules are
# root's). Its runs are not searched.
@test "nobody: root's setuid program cannot be opened for writing; nobody's own stays its own, unsearched" {
	need_root
	local pub
	pub=$(mktemp -d /tmp/landlock-run-setuid.XXXXXX)
	chmod 755 "$pub" && mkdir "$pub/t" && chmod 777 "$pub/t"
	program "$pub/t/root" 4755
	program "$pub/t/mine" 4755
	chown nobody "$pub/t/mine" && chmod 4755 "$pub/t/mine"
	run "${AS_NOBODY[@]}" "$LR" --ro / --rw "$pub/t" -- "$PYTHON" -c "$STORE" map "$pub/t/root"
	local root=$output
	run "${AS_NOBODY[@]}" "$LR" --ro / --rw "$pub/t" -- "$PYTHON" -c "$STORE" map "$pub/t/mine"
	local mine=$output mode
	mode=$(stat -c '%a %U' "$pub/t/mine")
	cmp -s "$SYSOP" "$pub/t/root"
	local same=$?
	rm -rf "$pub"
	assert_equal "$root" "open Permission denied"
	[ "$same" -eq 0 ] || fail "nobody changed root's program"
	assert_equal "$mine" stored
	assert_equal "$mode" "4755 nobody"
}

# A process outside (here root's own, as one left by an earlier run would be
# inside its grant) renames the setuid file, and the directory holding it,
# within their directories while the launcher searches: an entry gone since
# its listing starts the search again, and an entry renamed after it is
# caught by inode. Each run either withholds the file or fails closed.
@test "root: a setuid file renamed back and forth while the grant is searched is still withheld" {
	need_root
	mkdir -p t/d1/bin t/many
	program t/d1/bin/su 4755
	for i in $(seq 2000); do : >"t/many/f$i"; done
	"$PYTHON" -c 'import os
while os.path.exists("t"):
    for a, b in (("t/d1/bin/su", "t/d1/bin/su2"), ("t/d1", "t/d2"), ("t/d2/bin/su2", "t/d2/bin/su"), ("t/d2", "t/d1")):
        try: os.rename(a, b)
        except OSError: pass' &
	local mover=$! i stored=0 closed=0 refused=0 missed=0
	for i in $(seq 40); do
		run "$LR" --ro / --rw t -- "$PYTHON" -c 'import mmap, os
for p in ("t/d1/bin/su", "t/d1/bin/su2", "t/d2/bin/su", "t/d2/bin/su2"):
    try:
        fd = os.open(p, os.O_RDWR)
    except FileNotFoundError:
        continue
    except PermissionError:
        print("refused"); break
    m = mmap.mmap(fd, 0); m[0:6] = b"owned!"; m.close(); print("stored"); break'
		case $status:$output in
		0:stored) stored=$((stored + 1)) ;;
		0:refused) refused=$((refused + 1)) ;;
		0:) missed=$((missed + 1)) ;; # renamed under every name it tried
		125:*) closed=$((closed + 1)) ;;
		*) fail "$status: $output" ;;
		esac
	done
	kill "$mover"
	wait "$mover" || :
	echo "# refused $refused, failed closed $closed, not found $missed, stored $stored" >&3
	[ "$stored" -eq 0 ] || fail "stored $stored times"
	cmp -s "$SYSOP" t/d*/bin/su* || fail "changed"
}
