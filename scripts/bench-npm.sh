#!/usr/bin/env bash
# scripts/bench-npm.sh [DIST]: what npm's ways of running landlock-run cost against the
# binary itself. Installs the tarballs in DIST (default dist/npm, from `make npm`) offline
# into a throwaway project and times `X -- /bin/true` with hyperfine for X = the platform
# binary, /bin/sh doing nothing but exec it (the floor of any sh launcher),
# node_modules/.bin/landlock-run (what npm linked there is printed), the entry package's sh
# launcher by its own path and `npx landlock-run`. Prints each median and its ratio to the
# binary's. Figures only: nothing here passes or fails on time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"

need_tools bench-npm node npm hyperfine
dist=$(cd "${1:-$root/dist/npm}" && pwd)
version=$(cat "$root/VERSION")
native=
for env in "$root"/platform/*.env; do
	[ "$(platform_var "$env" ARCH)" = "$(uname -m)" ] && native=$(basename "$env" .env)
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$work"
printf '{"name":"bench","version":"0.0.0","private":true,"overrides":{"@landlock-run/%s":"file:%s"}}\n' \
	"$native" "$dist/landlock-run-$native-$version.tgz" >package.json
npm_config_cache=$work/cache npm install --offline --no-audit --no-fund --loglevel=error \
	"$dist/landlock-run-$version.tgz" >&2
binary=$work/node_modules/@landlock-run/$native/bin/landlock-run
echo "npm $(npm --version): node_modules/.bin/landlock-run -> $(readlink node_modules/.bin/landlock-run)"

hyperfine -N --warmup 20 --runs "${BENCH_RUNS:-500}" --export-csv "$work/fast.csv" \
	-n binary "$binary -- /bin/true" \
	-n "/bin/sh exec" "/bin/sh -c 'exec $binary -- /bin/true'" \
	-n .bin/landlock-run "$work/node_modules/.bin/landlock-run -- /bin/true" \
	-n "sh launcher" "$work/node_modules/landlock-run/bin/landlock-run -- /bin/true" >&2
hyperfine -N --warmup 1 --runs "${BENCH_NPX_RUNS:-10}" --export-csv "$work/npx.csv" \
	-n "npx landlock-run" "npx --offline landlock-run -- /bin/true" >&2

# CSV columns: command,mean,stddev,median,...; seconds
tail -q -n +2 "$work/fast.csv" "$work/npx.csv" | awk -F, '
	NR == 1 { base = $4 }
	{ printf "%-18s median %8.3f ms  %6.2fx the binary\n", $1, $4 * 1000, $4 / base }'
