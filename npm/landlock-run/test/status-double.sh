#!/bin/sh
# A double of landlock-run's --status-fd protocol in the whole-tree mode (landlock-run(1)),
# for spawn.test.mjs:
#   status-double.sh --status-fd 3 [--rw PATH | --explain | --learn FILE | --kill-tree]... -- COMMAND...
# It writes what the protocol says the launcher writes, with the same text as its stderr
# line, runs COMMAND as its child without descriptor 3 (the launcher's close-on-exec), and
# ends with the end record: {"exit":N}, or {"signal":"NAME"} and dies of that signal.
# It refuses a run without --kill-tree, which spawnConfined() always asks for.
# SILENT=usage or SILENT=kill fails before it writes anything.
[ "$1" = --status-fd ] && [ "$2" = 3 ] || { echo "landlock-run: double: no --status-fd 3" >&2; exit 125; }
shift 2
case $SILENT in
usage) echo "landlock-run: unknown option --bogus" >&2; exit 125 ;;
kill) kill -KILL $$ ;;
esac
fail() { # STATUS MESSAGE [EXEC]
	printf '{"exec":%s,"status":%d,"error":"%s"}\n{"exit":%d}\n' "${3:-false}" "$1" "landlock-run: $2" "$1" >&3
	echo "landlock-run: $2" >&2
	exit "$1"
}
tree= enforcement=partial learn=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	--rw) [ -e "$2" ] || fail 125 "cannot open --rw path $2: No such file or directory"; shift ;;
	--kill-tree) tree=yes ;;
	--learn) enforcement=none learn=$2; shift ;;
	esac
	shift
done
shift
[ -n "$tree" ] || fail 125 "double: no --kill-tree"
if ! command -v "$1" >/dev/null; then
	printf '{"pid":%d,"abi":7,"abi_used":7,"enforcement":"%s"}\n' $$ $enforcement >&3
	fail 127 "cannot run $1: No such file or directory"
fi
exec 5<&0 # an asynchronous command's stdin is /dev/null unless redirected
"$@" 3>&- <&5 5<&- &
child=$!
printf '{"pid":%d,"abi":7,"abi_used":7,"enforcement":"%s"}\n{"exec":true,"pid":%d}\n' $child $enforcement $child >&3
wait $child
st=$?
[ -n "$learn" ] && [ ! -d "$(dirname "$learn")" ] && fail 125 "cannot write --learn file $learn: No such file or directory" true
[ $st -gt 128 ] || { echo "{\"exit\":$st}" >&3; exit $st; }
sig=$(kill -l $((st - 128)))
echo "{\"signal\":\"SIG$sig\"}" >&3
exec 3>&-
trap - "$sig"
kill -s "$sig" $$
