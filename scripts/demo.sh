#!/usr/bin/env bash
# make demo: build, prove this host confines, then one denied and one allowed write.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
make -s
lr=$PWD/landlock-run
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir allowed

show() {
	printf '\n$'
	printf ' %q' "$@"
	printf '\n'
	set +e
	"$@"
	printf '(exit status %d)\n' "$?"
	set -e
}

echo "== Can this host confine? (landlock-run --probe)"
show "$lr" --probe
echo
echo "== A write outside every --rw grant is denied by the kernel:"
show "$lr" --rw "$work/allowed" -- sh -c 'echo secret > denied.txt'
if [ -e denied.txt ]; then echo "FAIL: denied.txt exists"; exit 1; fi
echo "denied.txt does not exist."
echo
echo "== A write beneath the grant lands:"
show "$lr" --rw "$work/allowed" -- sh -c 'echo hello > allowed/ok.txt'
printf 'allowed/ok.txt contains: %s\n' "$(cat allowed/ok.txt)"
