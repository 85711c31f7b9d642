# Shared shell helpers for scripts/*.sh. Source it; it defines functions, and LR_PYTHON.

# need_packages PKG...: install the Debian packages that are missing, saying which.
# apt-get update runs at most once per process tree (LR_APT_UPDATED). With
# LR_SETUP_LIST=1 (scripts/setup.sh --list) it only names them, one a line.
need_packages() {
	local missing=() pkg
	if [ -n "${LR_SETUP_LIST:-}" ]; then
		printf '%s\n' "$@"
		return 0
	fi
	for pkg in "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$pkg")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "landlock-run setup: installing ${missing[*]}" >&2
	if [ -z "${LR_APT_UPDATED:-}" ]; then
		apt-get update -qq -o DPkg::Lock::Timeout=300 >&2 || return 1
		export LR_APT_UPDATED=1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		-o DPkg::Lock::Timeout=300 \
		"${missing[@]}" >&2
}

# need_arm64_arch: make Debian's arm64 packages installable (for musl-dev:arm64 etc.).
need_arm64_arch() {
	[ -z "${LR_SETUP_LIST:-}" ] || return 0
	dpkg --print-foreign-architectures | grep -qx arm64 && return 0
	echo "landlock-run setup: adding dpkg architecture arm64" >&2
	dpkg --add-architecture arm64
	unset LR_APT_UPDATED
}

# need_tools WHO TOOL...: fail unless every TOOL is on PATH, saying make setup installs it.
need_tools() {
	local who=$1 tool
	shift
	for tool; do
		command -v "$tool" >/dev/null || { echo "$who: $tool is missing (make setup installs it)" >&2; return 1; }
	done
}

# platform_var FILE VAR: one value from a platform/*.env entry.
platform_var() {
	sed -n "s/^$2=//p" "$1"
}

# Debian's python3, whose venv, pip wheel, pytest and mypy scripts/setup.sh installs (a
# python3 earlier on PATH, such as pyenv's, has none of them).
LR_PYTHON=/usr/bin/python3

# copy_with_libs ROOT FILE...: each FILE (a program of this host) and the shared
# libraries ldd names for it, at the same paths under ROOT (a guest's or an image's).
copy_with_libs() {
	local dest=$1 file lib
	shift
	for file; do
		for lib in "$file" $(ldd "$file" 2>/dev/null | awk '/=> \// { print $3 } /^[ \t]*\// { print $1 }'); do
			mkdir -p "$dest$(dirname "$lib")"
			cp -L "$lib" "$dest$lib"
		done
	done
}

# judge_checks NAME OUT LOG: the verdict of what a guest or a container printed to OUT
# (tests/guest/check.sh's lines; LOG is where to look): prints "PASSED FAILED", and
# says on stderr (through the caller's say) each failed check, and a run without
# LRDONE, which counts as one failure more.
judge_checks() {
	local name=$1 out=$2 log=$3 pass fail
	pass=$(grep -ac 'LRCHECK PASS ' "$out" || true)
	fail=$(grep -ac 'LRCHECK FAIL ' "$out" || true)
	if ! grep -aq 'LRDONE' "$out"; then
		fail=$((fail + 1))
		say "$name: the run did not finish (no LRDONE); its output: $log"
		grep -av 'LRCHECK ' "$out" | tail -n 15 | sed "s/^/  $name| /" >&2 || true
	fi
	grep -ao 'LRCHECK FAIL .*' "$out" | sed "s/^/  $name| /" >&2 || true
	echo "$pass $fail"
}
