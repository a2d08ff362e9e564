#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The elp-stereo-3d-usb warning of issue 40 (docs/cameras.md): v4l2-compliance
# -s on negcam.ko at its default MJPG 3200x1200, 60 fps, said "data from max
# bytesused B+0 to length L was touched" in two of three runs. In the VM:
# elp-stereo-3d-usb loaded through configfs, then
#   1. ROUNDS runs of tests/vm/userptr-tail.c (FRAMES USERPTR frames each): no
#      dequeued frame is written past its bytesused (PASS per round), and
#      each buffer written past the largest dequeued bytesused at STREAMOFF
#      is a whole JPEG frame, one the driver delivered or was drawing when
#      streaming stopped and that nobody dequeued (what v4l2-compliance's
#      USERPTR check then reads as "touched");
#   2. RUNS runs of v4l2-compliance -s FRAMES: no failure (PASS per run),
#      the warnings counted by kind.
#   tests/vm/run.sh tests/vm/mjpg-tail.sh [ROUNDS [RUNS [FRAMES]]]   (default 10 10 20)
# FRAMES is 20, not v4l2-compliance's default, to keep a run short under
# TCG: the race needs only the frame in flight at STREAMOFF, whatever the
# count.
# Prints PASS/FAIL lines, the counts, and "mjpg-tail: N passed, N failed".
{
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "run it in the VM: tests/vm/run.sh tests/vm/mjpg-tail.sh" >&2; exit 2; }
cd "$NEGCAM_TREE" || exit 2
VM_DIR=$NEGCAM_TREE/tests/vm
# shellcheck source=tests/vm/lib.sh
. "$VM_DIR/lib.sh"
# shellcheck source=tests/vm/profiles-suite.sh
. "$VM_DIR/profiles-suite.sh"
# shellcheck source=tests/vm/shelf-suite.sh
. "$VM_DIR/shelf-suite.sh"
ROUNDS=${1:-10} RUNS=${2:-10} FRAMES=${3:-20} CAM=elp-stereo-3d-usb
suite_begin mjpg-tail
export NEGCAM_BUILD
check "insmod negcam.ko" 60 negcam_load || exit 1
NODE=$(wait_node negcam) CFS=$(prof_cfs_dir)
check "$CAM into negcam.ko through configfs" 60 shelf_load "$CAM" "$CFS" || exit 1
note "$NODE: $(v4l2-ctl -d "$NODE" --get-fmt-video | grep -E 'Width|Pixel' | tr -s ' \t' ' ' | tr '\n' ' ')"
beyond=0 whole=0 past=0
for r in $(seq "$ROUNDS"); do
	log=$(logname "userptr-tail round $r")
	"$BIN/userptr-tail" "$NODE" "$FRAMES" > "$log" 2>&1
	rc=$?
	sum=$(grep '^userptr-tail: [0-9]* frames' "$log")
	# frames, past, filled, whole, beyond, max
	read -r _ n_past _ _ n_beyond _ <<< "$(echo "$sum" | sed 's/[^0-9 ]//g')"
	past=$((past + ${n_past:-0}))
	beyond=$((beyond + ${n_beyond:-0}))
	whole=$((whole + $(grep -c '(a whole JPEG frame), past the largest dequeued bytesused' "$log")))
	if [ "$rc" = 0 ] && [ -n "$sum" ] && ! grep -q 'not a whole JPEG frame' "$log"; then
		pass "round $r: ${sum#userptr-tail: }"
	else
		fail "round $r (exit $rc): $(tail -n 3 "$log" | tr '\n' ' ')"
	fi
done
echo "MJPG-TAIL: $ROUNDS rounds of $FRAMES USERPTR frames: $past dequeued frames written past bytesused; $beyond buffers written past the largest dequeued bytesused at STREAMOFF, $whole of them whole JPEG frames never dequeued"
touched=0 warned=0
for r in $(seq "$RUNS"); do
	log=$(logname "v4l2-compliance run $r")
	t0=$(now)
	timeout -k 5 900 v4l2-compliance -d "$NODE" -s "$FRAMES" > "$log" 2>&1
	tr '\r' '\n' < "$log" > /tmp/mjpg-tail-clean.txt
	t=$(grep -c 'data from max bytesused' /tmp/mjpg-tail-clean.txt)
	w=$(grep -c 'warn: ' /tmp/mjpg-tail-clean.txt)
	touched=$((touched + (t > 0))) warned=$((warned + (w > 0)))
	totals=$(grep -E '^Total' /tmp/mjpg-tail-clean.txt | tail -n 1)
	if grep -qE 'Failed: 0,' <<< "$totals"; then
		pass "v4l2-compliance -s $FRAMES run $r ($(secs_since "$t0")s): $totals; 'max bytesused' warnings: $t"
	else
		fail "v4l2-compliance -s run $r: ${totals:-no totals}"
	fi
	grep -o 'warn: .*' /tmp/mjpg-tail-clean.txt | sed 's/^/  | /'
done
echo "MJPG-TAIL-COMPLIANCE: $RUNS runs of v4l2-compliance -s $FRAMES on $CAM MJPG 3200x1200: 0 failed expected; $touched with the 'max bytesused' warning, $warned with any warning"
check "rmmod negcam" 60 negcam_unload
dmesg_clean mjpg-tail
suite_end
[ "$S_FAIL" = 0 ]
exit
}
