#!/bin/sh
# A double of landlock-run's --status-fd protocol (landlock-run(1)), for spawn.test.mjs:
#   status-double.sh --status-fd 3 [--rw PATH | --explain | --learn FILE]... -- COMMAND...
# It writes what the protocol says the launcher writes, with the same text as its stderr
# line, and runs COMMAND without descriptor 3 (the launcher's close-on-exec).
# SILENT=usage or SILENT=kill fails before it writes anything.
[ "$1" = --status-fd ] && [ "$2" = 3 ] || { echo "landlock-run: double: no --status-fd 3" >&2; exit 125; }
shift 2
case $SILENT in
usage) echo "landlock-run: unknown option --bogus" >&2; exit 125 ;;
kill) kill -KILL $$ ;;
esac
fail() { # STATUS MESSAGE [EXEC]
	printf '{"exec":%s,"status":%d,"error":"%s"}\n' "${3:-false}" "$1" "landlock-run: $2" >&3
	echo "landlock-run: $2" >&2
	exit "$1"
}
mode=plain learn=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	--rw) [ -e "$2" ] || fail 125 "cannot open --rw path $2: No such file or directory"; shift ;;
	--explain) mode=explain ;;
	--learn) mode=learn learn=$2; shift ;;
	esac
	shift
done
shift
enforcement=partial
[ $mode = learn ] && enforcement=none
if [ $mode = plain ]; then
	printf '{"pid":%d,"abi":7,"abi_used":7,"enforcement":"%s"}\n' $$ $enforcement >&3
	command -v "$1" >/dev/null || fail 127 "cannot run $1: No such file or directory"
	exec "$@" 3>&-
fi
"$@" 3>&- &
child=$!
printf '{"pid":%d,"abi":7,"abi_used":7,"enforcement":"%s"}\n{"exec":true,"pid":%d}\n' $child $enforcement $child >&3
wait $child
st=$?
[ $mode = learn ] && [ ! -d "$(dirname "$learn")" ] && fail 125 "cannot write --learn file $learn: No such file or directory" true
exit $st
