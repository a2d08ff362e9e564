#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tests/ci-report.sh LOG LOGDIR: the end of a CI run in a few lines: make
# test's summary lines that failed, its total, and the first failing checks
# of each failed suite (from LOGDIR/SUITE.log, or the VM chain's output).
log=$1 logdir=$2
if ! grep -q '^======== negcam test summary' "$log"; then
	echo "ci: make test printed no summary; its last lines:"
	tail -n 15 "$log"
	exit 0
fi
echo "ci: make test's summary (failed suites only; the whole output is above)"
sed -n '/^======== negcam test summary/,/^total:/p' "$log" |
	awk '/^total:/ || !(/: [0-9]+ passed, 0 failed$/ || /^=+ /)'
for s in $(sed -n '/^======== negcam test summary/,/^total:/p' "$log" |
	sed -nE 's/^([a-z0-9-]+): [0-9]+ passed, [1-9][0-9]* failed$/\1/p'); do
	f=$logdir/$s.log
	[ -f "$f" ] || continue
	echo "ci: $s, its first failures ($f):"
	grep -E '(^ *|: )(FAIL|not ok|ERROR)|: harness exit status|TIMEOUT' "$f" | head -n 6 | cut -c1-300
done
exit 0
