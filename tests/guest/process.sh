# tests/guest/process.sh: what the command inherits on a real kernel: no terminal
# injection through any system-call ABI the guest's CPU runs, and no capabilities
# (the guest runs as root, so the kernel itself allows TIOCSTI on every kernel,
# whatever its legacy_tiocsti). Each with the control without the launcher.
# Sourced by check.sh.

# on_pty CMD...: CMD on a new pty that is its controlling terminal (lr-tty, built
# from tests/tty.c); $said is what CMD printed, $read what the terminal's next
# reader got (both with \n escaped).
on_pty() {
	r lr-tty run "$@"
	said=$(printf '%s\n' "$out" | sed -n 's/^output: //p')
	read=$(printf '%s\n' "$out" | sed -n 's/^read: //p')
}
# injects ABI CMD: pushes x through ABI with command CMD without the launcher,
# and is refused (EPERM, nothing read) under it
injects() {
	on_pty lr-tty inject "$1" "$2" x
	[ "$read" = x ] || no "$1 $2 without the launcher: read [$read], printed [$said]"
	on_pty $LR -- lr-tty inject "$1" "$2" x
	[ "$said" = 'EPERM\n' ] || no "$1 $2 under the launcher printed [$said], want EPERM"
	[ -z "$read" ] || no "$1 $2 under the launcher: the terminal read [$read]"
}
# The native ABI, plain and with high bits the kernel ignores; on x86_64 also
# i386 (int 0x80, and a real 32-bit program) and x32 (booted with syscall.x32=y).
c_tiocsti() {
	injects native 0x5412
	injects native 0x100005412
	[ "$(uname -m)" = x86_64 ] || return 0
	injects i386 0x5412
	injects x32 0x5412
	on_pty inject32 x
	[ "$read" = x ] || no "inject32 without the launcher: read [$read], printed [$said]"
	on_pty $LR -- inject32 x
	[ "$said" = 'errno 1\n' ] && [ -z "$read" ] || no "inject32 under the launcher: printed [$said], read [$read]"
}
# caps: the Cap lines of /proc/self/status, joined
caps() { printf '%s\n' "$out" | sed -n 's/^\(Cap[a-zA-Z]*\):[[:space:]]*/\1=/p' | tr '\n' ' '; }
c_caps_dropped() {
	r grep Cap /proc/self/status
	caller=$(caps)
	case $caller in *CapEff=0000000000000000*) no "the guest's root has no capability: $caller" ;; esac
	r $LR -- grep Cap /proc/self/status
	want_rc 0
	zeros="CapInh=0000000000000000 CapPrm=0000000000000000 CapEff=0000000000000000 CapBnd=0000000000000000 CapAmb=0000000000000000 "
	[ "$(caps)" = "$zeros" ] || no "the command's capabilities: $(caps)"
	r $LR --keep-caps -- grep Cap /proc/self/status
	[ "$(caps)" = "$caller" ] || no "--keep-caps: $(caps), the caller has $caller"
	# the effect: root without CAP_CHOWN cannot give a file away
	echo x >$T/ok/owned
	r $LR --rw $T/ok -- chown 65534 $T/ok/owned
	[ "$rc" != 0 ] || no "chown without capabilities exited 0"
	r $LR --keep-caps --rw $T/ok -- chown 65534 $T/ok/owned
	want_rc 0
}
