#!/usr/bin/env bash
# scripts/wheel.sh (make wheel): build the launcher for every platform/*.env target, write
# one Python wheel per target into dist/python/ (scripts/write-wheel.py: the package, the
# binary, the man page; no setuptools, no network), then run the wheel gate on them
# (scripts/wheel-gate.py), which records their sha256 in dist/python/SHA256SUMS. Wheels the
# gate refuses are moved to dist/python/rejected/ so they cannot be published by mistake.
# Reproducible: every member is dated SOURCE_DATE_EPOCH (default: the commit's time).
# Ends with the gate's "N passed, N failed" line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
cd "$root"

need_tools wheel "$LR_PYTHON"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null)}
[ -n "$SOURCE_DATE_EPOCH" ] || { echo "wheel: not a git checkout: set SOURCE_DATE_EPOCH" >&2; exit 1; }
out=dist/python

envs=(platform/*.env)
for env in "${envs[@]}"; do
	make -s ARCH="$(platform_var "$env" ARCH)" >&2
done
make -s test-helpers >&2 # the gate reads ELF headers with build/ARCH/tryop
rm -rf "$out"
mkdir -p "$out"
"$LR_PYTHON" "$here/write-wheel.py" "$out" "${envs[@]}"
wheels=("$out"/*.whl)
if ! "$LR_PYTHON" "$here/wheel-gate.py" --sums "$out/SHA256SUMS" "${wheels[@]}"; then
	mkdir -p "$out/rejected"
	mv "${wheels[@]}" "$out/rejected/"
	echo "wheel: the gate refused the wheels; moved them to $out/rejected/" >&2
	exit 1
fi
