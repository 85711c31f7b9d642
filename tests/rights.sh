# tests/rights.sh: which Landlock ABI brought each right, the one table the tests
# read: bats through tests/helpers.bash, the kernel-matrix guest's check.sh under
# busybox sh (so: POSIX sh). Values from LANDLOCK-FACTS.md.
#
# One row per right the launcher knows: KIND NAME ABI, in the kernel's bit order
# within each kind, NAME as the launcher prints it. KIND is fs (handled_access_fs),
# net (handled_access_net), scope (scoped), log (landlock_restrict_self flags) or
# unused (what the kernel offers and the launcher knowingly does not use).
# A new right is a new row; nothing else here changes.
RIGHTS='
fs execute 1
fs write_file 1
fs read_file 1
fs read_dir 1
fs remove_dir 1
fs remove_file 1
fs make_char 1
fs make_dir 1
fs make_reg 1
fs make_sock 1
fs make_fifo 1
fs make_block 1
fs make_sym 1
fs refer 2
fs truncate 3
fs ioctl_dev 5
fs resolve_unix 9
net tcp_bind 4
net tcp_connect 4
net udp_bind 10
net udp_connect 10
scope abstract-unix 6
scope signal 6
log --no-log 7
log --log-subprocesses 7
log --no-log-nested 7
unused tsync 8
unused quiet 10
'

# rights_where KIND TEST N: the KIND names whose ABI passes [ ABI TEST N ],
# comma-separated, in table order.
rights_where() {
	local kind name abi list=
	while read -r kind name abi; do
		[ "$kind" = "$1" ] && [ "$abi" "$2" "$3" ] && list=$list${list:+,}$name
	done <<EOF
$RIGHTS
EOF
	echo "$list"
}

# rights KIND N: what ABI N has of KIND. rights_missing KIND N: what it lacks.
rights() { rights_where "$1" -le "$2"; }
rights_missing() { rights_where "$1" -gt "$2"; }

# abi_max [KIND]: the newest ABI in the table (the newest the launcher knows),
# or the one that brought the newest right of KIND: abi_max fs is the ABI from
# which the launcher calls enforcement full.
abi_max() {
	printf '%s\n' "$RIGHTS" | grep -e "^${1:-[a-z]*} " | sort -k3n | tail -n 1 | cut -d' ' -f3
}

# right_abi NAME: the ABI that brought NAME; fails for a name not in the table.
right_abi() {
	local row
	row=$(printf '%s\n' "$RIGHTS" | grep -e " $1 ") || return 1
	echo "${row##* }"
}
