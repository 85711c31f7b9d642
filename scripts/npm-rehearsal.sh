#!/usr/bin/env bash
# scripts/npm-rehearsal.sh [DIST]: the packed-install rehearsal. Installs the tarballs in
# DIST (default dist/npm, written by `make npm`) into throwaway projects with
# `npm install --offline` (an empty npm cache and an unreachable registry, so nothing can
# come from elsewhere), through node's test runner: npm/test/rehearsal/*.test.mjs. Its
# output ends with node's "# pass N" / "# fail N" lines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"

need_tools npm-rehearsal node npm
dist=${1:-$root/dist/npm}
[ -d "$dist" ] || { echo "npm-rehearsal: no $dist (run make npm)" >&2; echo "0 passed, 1 failed"; exit 1; }
dist=$(cd "$dist" && pwd)
version=$(cat "$root/VERSION")

native='' foreign='' foreign_run=''
for env in "$root"/platform/*.env; do
	if [ "$(platform_var "$env" ARCH)" = "$(uname -m)" ]; then
		native=$(basename "$env" .env)
	elif [ -z "$foreign" ]; then
		foreign=$(basename "$env" .env)
		foreign_run=$(platform_var "$env" QEMU_USER)
	fi
done
# qemu-user has no Landlock: the foreign binary under it is a kernel without Landlock
[ -z "$foreign_run" ] || need_tools npm-rehearsal "$foreign_run"
[ -x "$root/.cache/npm-tools/node_modules/.bin/tsc" ] ||
	{ echo "npm-rehearsal: .cache/npm-tools is missing (make setup installs it)" >&2; exit 1; }
missing=()
for t in "landlock-run-$version.tgz" "landlock-run-$native-$version.tgz" "landlock-run-$foreign-$version.tgz"; do
	[ -f "$dist/$t" ] || missing+=("$t")
done
if [ -z "$native" ] || [ ${#missing[@]} -gt 0 ]; then
	echo "npm-rehearsal: ${native:-no platform/*.env for $(uname -m)}; missing in $dist: ${missing[*]} (run make npm)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

# asked of the kernel without the launcher, so a broken launcher cannot move the target
kernel_abi=$("$root/build/$(uname -m)/tryop" abi) || :
[[ $kernel_abi =~ ^[0-9]+$ ]] || kernel_abi=0 # an errno name: no Landlock

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
env LR_DIST="$dist" LR_WORK="$work" LR_VERSION="$version" LR_KERNEL_ABI="$kernel_abi" \
	LR_BUILD_BINARY="$root/build/$(uname -m)/landlock-run" LR_NATIVE="$native" LR_FOREIGN="$foreign" \
	LR_FOREIGN_RUN="$foreign_run" \
	LR_ROOT="$root" LR_TOOLS="$root/.cache/npm-tools/node_modules" \
	npm_config_cache="$work/npm-cache" npm_config_registry=http://127.0.0.1:9/ \
	npm_config_offline=true npm_config_audit=false npm_config_fund=false \
	npm_config_update_notifier=false npm_config_loglevel=error \
	node --test --test-reporter=tap "$root"/npm/test/rehearsal/*.test.mjs
