# tests/guest/expect.sh: how a guest check runs a command and says what is off.
# Sourced by tests/guest/check.sh (busybox sh).

LR=/bin/landlock-run
T=/tmp/lr # ok/ is what --rw grants; no/ is outside every grant
mkdir -p $T/ok $T/no

# r CMD...: run CMD; $rc, $out and $err (newlines shown as |) keep what it did.
r() {
	"$@" >/tmp/r.out 2>/tmp/r.err
	rc=$?
	out=$(cat /tmp/r.out)
	err=$(tr '\n' '|' </tmp/r.err)
	err=${err%|}
}

# check NAME FUNC: run FUNC, which appends reasons to $why when something is off.
check() {
	why=
	"$2"
	if [ -z "$why" ]; then
		echo "LRCHECK PASS $1"
	else
		echo "LRCHECK FAIL $1 $why"
	fi
}
no() { why="$why $*;"; }
want_rc() { [ "$rc" = "$1" ] || no "exit $rc, want $1 (stderr: $err)"; }
want_err() { case $err in *"$1"*) ;; *) no "stderr [$err] lacks [$1]" ;; esac; }
# the launcher's failure shape: exit 125, one stderr line "landlock-run: ...", no stdout
want_refusal() {
	want_rc 125
	[ -z "$out" ] || no "stdout [$out] on refusal"
	case $err in
	"landlock-run: "*"|"*) no "more than one stderr line [$err]" ;;
	"landlock-run: "*) ;;
	*) no "stderr [$err] is not one 'landlock-run: ' line" ;;
	esac
}
want_file() { [ "$(cat "$1" 2>/dev/null)" = "$2" ] || no "$1 holds [$(cat "$1" 2>&1)], want [$2]"; }
want_absent() { [ ! -e "$1" ] || no "$1 exists: the command ran"; }
want_empty() {
	if [ ! -f "$1" ] || [ -s "$1" ]; then no "$1 has $(wc -c <"$1") bytes, want 0 ($2)"; fi
}
has() { case ",$1," in *",$2,"*) return 0 ;; esac; return 1; }
# at_least N: the ABI in use (the kernel's, at most the newest the launcher
# knows) is N or newer
at_least() { [ "$U" -ge "$1" ]; }
