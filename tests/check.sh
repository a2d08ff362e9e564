# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Sourced by the host test scripts (tests/run/test_run_tools.sh,
# tests/run/test_run_matrix.sh, tests/engine/test_docs.sh):
# check counts and reports, with $NAME, $checks and $fails set by the caller.
check() {	# DESCRIPTION, then a command that must succeed
	what=$1; shift
	checks=$((checks + 1))
	if ! "$@"; then
		echo "$NAME: FAIL: $what" >&2
		fails=$((fails + 1))
	fi
}
has() { command -v "$1" >/dev/null 2>&1; }
contains() { grep -qF -e "$2" "$1"; }
