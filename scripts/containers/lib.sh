# shellcheck shell=bash
# Shared by scripts/container-matrix.sh and scripts/containers/*.sh. Source it (bash);
# it sets root, work (this run's files under build/), results and image, and defines
# functions only.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
work=$root/build/container-matrix
results=$work/results.tsv
image=localhost/landlock-run-matrix:$$

say() { echo "container-matrix: $*" >&2; }
die() {
	say "$*"
	exit 1
}

# What every run needs on a cgroup v1 hybrid host (crun refuses it; the VM's hard
# limits refuse podman's default rlimits), and no network but loopback.
PODMAN_RUN=(podman run --rm --runtime runc --cgroup-manager cgroupfs
	--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 --network none)

# matrix_rows: the rows of tests/container/rows.txt, fields trimmed, "|"-separated,
# without comments; only the runs whose NAME-USER contains $LR_CONTAINERS_ONLY.
matrix_rows() {
	local line
	while IFS= read -r line; do
		case $line in '' | '#'*) continue ;; esac
		line=$(sed -E 's/[[:space:]]*\|[[:space:]]*/|/g; s/[[:space:]]+$//' <<<"$line")
		IFS='|' read -r name user _ <<<"$line"
		[[ $name-$user == *"${LR_CONTAINERS_ONLY:-}"* ]] || continue
		echo "$line"
	done <"$root/tests/container/rows.txt"
}
