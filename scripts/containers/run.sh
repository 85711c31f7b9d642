#!/usr/bin/env bash
# scripts/containers/run.sh IMAGE ROW: one container of the matrix. ROW is a line of
# tests/container/rows.txt (lib.sh: matrix_rows); the container runs
# tests/container/check.sh as the row's user, told what must happen, and the verdict
# comes only from the lines it prints (LRCHECK, LRDONE). Writes
# build/container-matrix/NAME-USER.log and NAME-USER.result, one line of results.tsv:
#   NAME USER TITLE LANDLOCK PASSED FAILED MS LANDLOCK-RUN EXPLAIN BUBBLEWRAP
# (the last three: the LRWHERE cells). Says on stderr what failed.
#   LR_CONTAINERS_TIMEOUT  seconds before the run counts as failed (default 120)
set -euo pipefail
# shellcheck source=scripts/containers/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: run.sh IMAGE ROW"
tag=$1
IFS='|' read -r name user landlock explain bwrap where options title <<<"$2"
run=$name-$user log=$work/$run.log
opts=()
[ "$options" != - ] || options=
for opt in $options; do
	case $opt in
	seccomp=*)
		f=$root/tests/container/seccomp/${opt#seccomp=}
		[ -f "$f" ] || f=$work/seccomp/${opt#seccomp=}
		[ -f "$f" ] || die "$run: no seccomp profile ${opt#seccomp=}"
		opts+=(--security-opt "seccomp=$f")
		;;
	*) opts+=("$opt") ;;
	esac
done

t0=$(date +%s%N)
timeout -k 5 "${LR_CONTAINERS_TIMEOUT:-120}" "${PODMAN_RUN[@]}" --name "lr-matrix-$$-$run" \
	--user "$user" -e LR_LANDLOCK="$landlock" -e LR_EXPLAIN="$explain" -e LR_BWRAP="$bwrap" \
	-e LR_WHERE="$where" "${opts[@]}" "$tag" /bin/sh /check/check.sh </dev/null >"$log" 2>&1 || true
podman rm -f "lr-matrix-$$-$run" >/dev/null 2>&1 || true # after a timeout
ms=$((($(date +%s%N) - t0) / 1000000))

read -r pass fail < <(judge_checks "$run" "$log" "$log")
cells=$(sed -n 's/^LRWHERE\t//p' "$log" | head -n 1)
[ -n "$cells" ] || cells=$'-\t-\t-'
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$user" "$title" "$landlock" "$pass" "$fail" "$ms" \
	"$cells" >"$work/$run.result"
[ "$fail" -eq 0 ]
