#!/usr/bin/env bash
# scripts/bump-version.sh NEWVERSION: set the one version of landlock-run everywhere it is
# written (VERSION, read by the Makefile into `landlock-run --version` and by
# scripts/write-wheel.py into the wheels' names and metadata, and the three npm packages;
# see scripts/write-packages.mjs). Adding a target is: add
# platform/<os>-<npm cpu>.env, run this script with the current version, commit.
# Rebuild afterwards (`make npm`, `make wheel`): the binaries embed VERSION.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

[ $# -eq 1 ] || { echo "usage: scripts/bump-version.sh NEWVERSION (e.g. 0.2.0)" >&2; exit 2; }
[[ $1 =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] ||
	{ echo "bump-version: '$1' is not a semantic version X.Y.Z[-pre]" >&2; exit 2; }
exec node "$here/write-packages.mjs" "$1"
