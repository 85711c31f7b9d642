#!/usr/bin/env bash
# scripts/container-matrix.sh (make container-matrix): prove the launcher inside real
# containers, where bubblewrap cannot work: podman with Debian's runc, an image built
# here from the static launcher, busybox, bubblewrap and Node.js (no registry), one
# run per row of tests/container/rows.txt: podman's defaults, no-new-privileges, a
# hardened container, Docker's and containerd's default seccomp profiles as they
# publish them, Docker 20.10.17's (before the Landlock calls), profiles that refuse
# the Landlock calls or ptrace, and --privileged; as root and as nobody. Each runs the
# checks of tests/container/check.sh. The steps are scripts of their own:
#   scripts/containers/profiles.py  the profiles derived from Docker's default
#   scripts/containers/image.sh     the image
#   scripts/containers/run.sh       one container, judged from what it printed
# Results go to build/container-matrix/results.tsv only; `make container-matrix-doc`
# (scripts/containers/publish.sh) writes them into docs/container-matrix.md and the
# README's where-it-works summary. Ends with one line "N passed, N failed".
#
# Environment:
#   LR_CONTAINERS_ONLY     run only the rows whose NAME-USER contains this (a partial
#                          run, not publishable)
#   LR_CONTAINERS_TIMEOUT  seconds per container (default 120)
#   LR_CONTAINERS_BIN      the launcher to test instead of the one make builds (e.g. a
#                          deliberately broken one; not publishable)
set -euo pipefail
# shellcheck source=scripts/containers/lib.sh
. "$(dirname "$0")/containers/lib.sh"
# shellcheck source=scripts/tally.sh
. "$root/scripts/tally.sh"
c=$root/scripts/containers

"$root/scripts/setup.sh" containers
mapfile -t rows < <(matrix_rows)
[ ${#rows[@]} -gt 0 ] || die "LR_CONTAINERS_ONLY=${LR_CONTAINERS_ONLY:-} matches no row"
mkdir -p "$work"
rm -f "$work"/*.log "$work"/*.result "$results"
python3 "$c/profiles.py" "$root/tests/container/seccomp/moby-default.json" "$work/seccomp"
# An image (and so its containers: rmi -f takes them too) is this run's, tagged with its
# pid; one whose run is gone was left by a run killed before its trap (SIGKILL, a lost
# machine), and goes now. A live run's, from another checkout, stays.
for tag in $(podman images --format '{{.Tag}}' "${image%:*}" 2>/dev/null); do
	kill -0 "$tag" 2>/dev/null || podman rmi -f "${image%:*}:$tag" >/dev/null 2>&1 || true
done
trap 'podman rmi -f "$image" >/dev/null 2>&1 || true' EXIT
"$c/image.sh" "$image"

say "${#rows[@]} containers, one at a time"
t0=$(date +%s)
for row in "${rows[@]}"; do
	"$c/run.sh" "$image" "$row" || true
done

# One file of results, in the order of the rows; its first line says whether the run
# may be published (every row), its second what it ran on.
if [ -z "${LR_CONTAINERS_ONLY:-}${LR_CONTAINERS_BIN:-}" ]; then
	echo "# complete run" >"$results"
else
	echo "# partial run: LR_CONTAINERS_ONLY='${LR_CONTAINERS_ONLY:-}' LR_CONTAINERS_BIN='${LR_CONTAINERS_BIN:-}'" >"$results"
fi
echo "# podman $(podman version --format '{{.Client.Version}}'), runc $(runc --version | sed -n 's/^runc version //p'), Linux $(uname -r), $(uname -m)" >>"$results"
for row in "${rows[@]}"; do
	IFS='|' read -r name user _ <<<"$row"
	if [ -f "$work/$name-$user.result" ]; then
		cat "$work/$name-$user.result" >>"$results"
	else
		say "$name-$user: no result (run.sh failed before judging)"
		tally_add "$name-$user" 0 1 >/dev/null
	fi
done
while IFS=$'\t' read -r name user _ _ pass fail _; do
	case $name in '#'*) continue ;; esac
	tally_add "$name-$user" "$pass" "$fail"
done <"$results"
echo "containers: $(($(date +%s) - t0)) s"
tally_total
