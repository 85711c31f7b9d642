# Once per bats run (bats reads this file beside the test files): the directory
# where tests put what they run as another user (as_nobody in helpers.bash).
# A checkout may lie where only its owner can enter (root's home and every
# mktemp -d are 0700), so nobody could not execute the launcher or the test
# helpers in place. NOBODY_DIR is 0755 and root's (only root can become
# nobody), made with mktemp so no other user can have planted it.
setup_suite() {
	[ "$(id -u)" -eq 0 ] || return 0
	NOBODY_DIR=$(mktemp -d /tmp/landlock-run-nobody.XXXXXX) && chmod 0755 "$NOBODY_DIR" || return
	export NOBODY_DIR
}

teardown_suite() {
	[ -z "${NOBODY_DIR-}" ] || rm -rf "$NOBODY_DIR"
}
