#!/usr/bin/env bash
# scripts/python-rehearsal.sh [DIST]: the wheel rehearsal. Makes a fresh virtual environment
# (Debian's python3; --system-site-packages only for Debian's pytest and mypy), installs
# this machine's wheel from DIST (default dist/python, written by `make wheel`) with
# `pip install --no-index` (no index, no cache: nothing can come from elsewhere), and runs
# python/tests there with pytest; the tests make fresh environments of their own too. The
# package is imported from the environment, never from the tree (python -P; the tests check
# where it comes from). Ends with the suite's "N passed, N failed" line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"

need_tools python-rehearsal "$LR_PYTHON" mypy
dist=${1:-$root/dist/python}
dist=$(cd "$dist" 2>/dev/null && pwd) || { echo "python-rehearsal: no $1 (run make wheel)" >&2; echo "0 passed, 1 failed"; exit 1; }
version=$(cat "$root/VERSION")

native='' foreign='' foreign_run=''
for env in "$root"/platform/*.env; do
	if [ "$(platform_var "$env" ARCH)" = "$(uname -m)" ]; then
		native=$(platform_var "$env" ARCH)
	elif [ -z "$foreign" ]; then
		foreign=$(platform_var "$env" ARCH)
		foreign_run=$(platform_var "$env" QEMU_USER)
	fi
done
[ -z "$foreign_run" ] || need_tools python-rehearsal "$foreign_run"
wheel=$(ls "$dist"/landlock_run-"$version"-py3-none-*_"$native".whl 2>/dev/null) ||
	{ echo "python-rehearsal: no $native wheel in $dist (run make wheel)" >&2; echo "0 passed, 1 failed"; exit 1; }

# asked of the kernel without the launcher, so a broken launcher cannot move the target
kernel_abi=$("$root/build/$native/tryop" abi) || :
[[ $kernel_abi =~ ^[0-9]+$ ]] || kernel_abi=0 # an errno name: no Landlock

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# pip: no index, no configuration, no cache, no version check
export PIP_NO_INDEX=1 PIP_CONFIG_FILE=/dev/null PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
	PIP_INDEX_URL=http://127.0.0.1:9/ PYTHONDONTWRITEBYTECODE=1
"$LR_PYTHON" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-deps "$wheel" >&2
cd "$root" # test ids relative to the tree; nothing is imported from it (python -P)
env LR_ROOT="$root" LR_DIST="$dist" LR_VERSION="$version" LR_KERNEL_ABI="$kernel_abi" LR_WORK="$work" \
	LR_NATIVE="$native" LR_FOREIGN="$foreign" LR_FOREIGN_RUN="$foreign_run" LR_VENV="$work/venv" \
	LR_SYSTEM_PYTHON="$LR_PYTHON" \
	"$work/venv/bin/python" -P -m pytest -v -p no:cacheprovider \
	--basetemp="$work/pytest" --rootdir="$root/python/tests" "$root/python/tests"
