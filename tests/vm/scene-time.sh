#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# negcam.ko's scene follows device time (issue 16 item 4): two streams,
# started 0.3 s apart, each of one YUYV 640x480 frame on profile vga, are
# different pictures (the box moved), and both are stamped frame 0 (read back
# with vm-stamp, the engine's reader). Runs inside the test VM:
#   tests/vm/run.sh tests/vm/scene-time.sh
# Prints PASS/FAIL lines and "scene-time: N passed, N failed".
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "run it in the VM: tests/vm/run.sh $0" >&2; exit 2; }
cd "$NEGCAM_TREE" || exit 2
SYS=/sys/devices/platform/negcam.0
# pass, fail, negcam_load, negcam_unload, $BIN: the one VM shell library
# shellcheck source=tests/vm/lib.sh
. "$NEGCAM_TREE/tests/vm/lib.sh"
suite_begin scene-time

negcam_unload 2>/dev/null
negcam_load profile=vga || { fail "cannot load $KO"; exit 1; }
DEV=/dev/$(cat $SYS/video_node)
for i in 1 2; do
	v4l2-ctl -d "$DEV" --set-fmt-video=width=640,height=480,pixelformat=YUYV \
		--stream-mmap=4 --stream-count=1 --stream-to=/tmp/scene$i.yuyv 2>/dev/null
	sleep 0.3
done
negcam_unload

for i in 1 2; do
	size=$(stat -c %s /tmp/scene$i.yuyv 2>/dev/null || echo 0)
	if [ "$size" = 614400 ]; then pass "stream $i: one 640x480 YUYV frame"
	else fail "stream $i: $size bytes, want 614400"; fi
	if [ ! -x "$BIN/vm-stamp" ]; then
		fail "vm-stamp not built"
	elif "$BIN/vm-stamp" yuyv422 640 480 /tmp/scene$i.yuyv | grep -q '^frame 0: stamp 0$'; then
		pass "stream $i: its first frame is stamped 0"
	else
		fail "stream $i: stamp not 0: $("$BIN/vm-stamp" yuyv422 640 480 /tmp/scene$i.yuyv | head -n 1)"
	fi
done
if cmp -s /tmp/scene1.yuyv /tmp/scene2.yuyv; then
	fail "two streams started 0.3 s apart give the same picture"
else
	pass "two streams give different pictures: $(cmp -l /tmp/scene1.yuyv /tmp/scene2.yuyv | wc -l) bytes differ"
fi
suite_end
[ "$S_FAIL" = 0 ]
