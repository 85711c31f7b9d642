#!/usr/bin/env bash
# scripts/npm-pack.sh (make npm): build the launcher for every platform/*.env target, put
# each binary and its manifest into npm/<env name>/, `npm pack` the platform packages and
# the entry package npm/landlock-run into dist/npm/ (each with LICENSE, the entry with the
# man page), then run the pack gate on the tarballs; it records their sha256 in
# dist/npm/SHA256SUMS. Tarballs the gate refuses are moved to dist/npm/rejected/ so they
# cannot be published by mistake. Ends with the gate's "N passed, N failed" line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
cd "$root"

need_tools npm-pack node npm
version=$(cat VERSION)
out=dist/npm

fail() { echo "npm-pack: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

# VERSION is the single source; the package.json files are written by bump-version.sh
names=()
for env in platform/*.env; do
	names+=("$(basename "$env" .env)")
done
for dir in "${names[@]/#/npm/}" npm/landlock-run; do
	[ -f "$dir/package.json" ] || fail "$dir/package.json missing: run scripts/bump-version.sh $version"
	v=$(node -p "require('./$dir/package.json').version")
	[ "$v" = "$version" ] || fail "$dir/package.json has version $v, VERSION has $version: run scripts/bump-version.sh $version"
done

for name in "${names[@]}"; do
	env=platform/$name.env
	arch=$(platform_var "$env" ARCH)
	make -s ARCH="$arch" >&2
	dir=npm/$name
	install -m 0644 LICENSE "$dir/LICENSE"
	install -D -m 0755 "build/$arch/landlock-run" "$dir/bin/landlock-run"
	sha=$(sha256sum "$dir/bin/landlock-run")
	printf '{\n  "binary": "bin/landlock-run",\n  "arch": "%s",\n  "elfMachine": %s,\n  "sha256": "%s"\n}\n' \
		"$arch" "$(platform_var "$env" ELF_MACHINE)" "${sha%% *}" >"$dir/manifest.json"
done

install -m 0644 LICENSE landlock-run.1 npm/landlock-run/
make -s test-helpers >&2 # the gate reads ELF headers with build/ARCH/tryop
rm -rf "$out"
mkdir -p "$out"
tarballs=()
for dir in "${names[@]/#/npm/}" npm/landlock-run; do
	file=$(npm pack --offline --ignore-scripts --silent --pack-destination "$out" "./$dir" | tail -n 1)
	[ -f "$out/$file" ] || fail "npm pack $dir wrote no tarball ($file)"
	tarballs+=("$out/$file")
	echo "npm-pack: $out/$file" >&2
done

if ! node "$here/npm-gate.mjs" --sums "$out/SHA256SUMS" "${tarballs[@]}"; then
	mkdir -p "$out/rejected"
	mv "${tarballs[@]}" "$out/rejected/"
	echo "npm-pack: the gate refused the tarballs; moved them to $out/rejected/" >&2
	exit 1
fi
