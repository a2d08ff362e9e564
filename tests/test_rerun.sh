#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tests/test_rerun.sh: make test's rerun of a failed suite (tests/rerun.sh),
# proven on stand-in suites and a stand-in VM harness: a suite that fails
# once passes on its rerun and is listed; one that fails twice stays
# failed; NEGCAM_RERUN=0 reruns nothing; a VM boot whose part "loop"
# failed boots that part alone, as quick, and its counts replace the
# first ones. Prints "rerun-selftest: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
NAME=rerun-selftest checks=0 fails=0
. "$root/tests/check.sh"
logdir=$(mktemp -d /tmp/negcam-rerun.XXXXXX)
trap 'rm -rf "$logdir"' EXIT
flaky=$logdir/rerun.txt build=$logdir
. "$root/tests/rerun.sh"

# A stand-in suite: fails its first $1 runs (counted in $logdir/NAME.runs).
stand_in() {
	local name=$1 failing=$2 n
	n=$(($(cat "$logdir/$name.runs" 2>/dev/null || echo 0) + 1))
	echo "$n" >"$logdir/$name.runs"
	if [ "$n" -le "$failing" ]; then
		echo "FAIL: run $n lost a race" >"$logdir/$name.log"; p=3 f=1
	else
		echo "ok: run $n" >"$logdir/$name.log"; p=4 f=0
	fi
}
runs() { cat "$logdir/$1.runs"; }

: >"$flaky"
with_rerun once stand_in once 1 >/dev/null
check "a suite failing once: run twice" test "$(runs once)" = 2
check "... and counted as its rerun: 4 passed, 0 failed" test "$p:$f" = 4:0
check "... and listed with its first run's failure" grep -q '^once: 1 failed on its first run, 0 on its rerun; the first failures: FAIL: run 1 lost a race' "$flaky"
check "... its first log kept" grep -q 'run 1' "$logdir/once.first.log"

with_rerun twice stand_in twice 2 >/dev/null
check "a suite failing twice: run twice, and failed" test "$(runs twice):$f" = 2:1
check "... and not listed as passed on a rerun" sh -c "! grep -q '^twice' '$flaky'"

with_rerun good stand_in good 0 >/dev/null
check "a passing suite: run once" test "$(runs good):$f" = 1:0

NEGCAM_RERUN=0 with_rerun off stand_in off 1 >/dev/null
check "NEGCAM_RERUN=0: run once, failed" test "$(runs off):$f" = 1:1

# A stand-in VM harness: quick reports part loop failing; loop alone
# passes when told NEGCAM_VM_MODE=quick, and fails otherwise.
vm_harness=$logdir/run.sh
cat >"$vm_harness" <<'HARNESS'
#!/bin/sh
echo "$1 ${NEGCAM_VM_MODE:-}" >>"$(dirname "$0")/boots"
echo "======== summary ($1) ========"
case $1 in
quick) echo "kmod: 77 passed, 0 failed, 0 skipped (85s)"
	echo "loop: 60 passed, 2 failed, 0 skipped (375s)"
	echo "FAIL: loop: a race"; echo "vm quick: 137 passed, 2 failed"; exit 1 ;;
loop) if [ "${NEGCAM_VM_MODE:-}" = quick ]; then echo "vm loop: 62 passed, 0 failed"; exit 0; fi
	echo "vm loop: 61 passed, 1 failed"; exit 1 ;;
esac
HARNESS
chmod +x "$vm_harness"
: >"$flaky"
( vm_run vm quick >/dev/null
  [ "$f" != 0 ] && vm_rerun vm quick >/dev/null
  echo "$p:$f" >"$logdir/vm.result" )
check "a VM boot with a failed part: that part boots alone, as quick" \
	test "$(cat "$logdir/boots" | paste -sd, -)" = "quick ,loop quick"
check "... its counts replace the first ones: 139 passed, 0 failed" test "$(cat "$logdir/vm.result")" = 139:0
check "... and it is listed" grep -q '^vm: 2 failed on its first run, 0 on its rerun (parts loop)' "$flaky"

echo "rerun-selftest: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
