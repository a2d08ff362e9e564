#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tests/bench/uvc.sh RES: negcamsrc against v4l2src on the uvcvideo node
# that negcam-uvc serves (profile webcam), in one VM boot (issue 33):
# for each of 4 caps filters, ioctls before STREAMON (strace), the PROBE
# and COMMIT requests the camera received during the run (negcam-uvc's
# counts, SIGUSR1 before and after), and 5 fresh processes timed from
# NULL->PLAYING to the first buffer. With NEGCAM_OLD_GST=DIR (default
# tests/bench/out/old-gst when it holds libgstnegcam.so) a second
# negcamsrc (another build of the plugin, e.g. main's) runs as
# "negcamsrc-old" with its own registry. Results as RES/uvc-*.kv;
# tests/bench/uvc-report.py RES prints the table.
#   tests/bench/run.sh BUILD vm uvc, or in the VM: tests/bench/vm.sh RES uvc
set -u
TREE=${NEGCAM_TREE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)}
RES=$1
. "$TREE/tests/bench/lib.sh"
case ${NEGCAM_BUILD:=build} in /*) ;; *) NEGCAM_BUILD=$TREE/$NEGCAM_BUILD ;; esac
mkdir -p "$RES"
UVCLOG=$RES/uvc-negcam-uvc.log
OLD=${NEGCAM_OLD_GST:-}
[ -z "$OLD" ] && [ -f "$TREE/tests/bench/out/old-gst/libgstnegcam.so" ] && OLD=$TREE/tests/bench/out/old-gst

modprobe -a vhci-hcd uvcvideo || exit 1
"$NEGCAM_BUILD/uvc/negcam-uvc" --profile webcam > "$UVCLOG" 2>&1 &
CAM=$!
NODE=
for i in $(seq 150); do
	for d in /sys/class/video4linux/video*; do
		# uvcvideo's capture node is index 0, its metadata node index 1
		[ "$(cat "$d/name" 2>/dev/null)" = "Negcam Webcam" ] \
			&& [ "$(cat "$d/index")" = 0 ] && NODE=/dev/${d##*/}
	done
	[ -n "$NODE" ] && break
	sleep 0.1
done
[ -n "$NODE" ] || { echo "uvc.sh: no uvcvideo node" >&2; cat "$UVCLOG" >&2; exit 1; }
echo "negcam-uvc webcam: $NODE"

# counts: negcam-uvc's latest "counts:" line after a SIGUSR1, as
# "PROBE_SET PROBE_GET COMMIT_SET COMMIT_GET".
counts() {
	local n i
	n=$(grep -c ' counts: ' "$UVCLOG")
	kill -USR1 $CAM
	for i in $(seq 50); do
		[ "$(grep -c ' counts: ' "$UVCLOG")" -gt "$n" ] && break
		sleep 0.05
	done
	grep ' counts: ' "$UVCLOG" | tail -1 | sed -n \
		's/.* \([0-9]*\) PROBE SET_CUR, \([0-9]*\) PROBE GET, \([0-9]*\) COMMIT, \([0-9]*\) COMMIT GET.*/\1 \2 \3 \4/p'
}

declare -A FILTER=(
	[yuy2-vga]='video/x-raw,format=YUY2,width=640,height=480'
	[mjpg-720p]='image/jpeg,width=1280,height=720'
	[raw-any]='video/x-raw'
	[yuy2-10fps]='video/x-raw,format=YUY2,framerate=10/1'
)
ELEMENTS="negcamsrc v4l2src"
[ -n "$OLD" ] && ELEMENTS="negcamsrc-old $ELEMENTS"

# reset: the camera as plugged in (webcam's default, YUYV 640x480 at 30
# fps): uvcvideo keeps the last program's format, which a negotiation
# that starts from the device's mode would otherwise inherit from the
# row before. Done before the counts are taken.
reset() {
	v4l2-ctl -d "$NODE" --set-fmt-video=width=640,height=480,pixelformat=YUYV \
		--set-parm=30 > /dev/null 2>&1
}

# run_el ID ELEMENT FILTER MEASURE: one bench-gst process for ELEMENT.
run_el() {
	local id=$1 el=$2 f=$3 how=$4 name=$2
	local env=(env GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" GST_REGISTRY=/tmp/uvc-bench-new.reg)
	if [ "$el" = negcamsrc-old ]; then
		name=negcamsrc
		env=(env GST_PLUGIN_PATH="$OLD" GST_REGISTRY=/tmp/uvc-bench-old.reg)
	fi
	$how "$id" "${env[@]}" "$BIN/bench-gst" -t 60 -w 1 -n 1 \
		"$name name=src device=$NODE ! $f ! fakesink"
}

for f in yuy2-vga mjpg-720p raw-any yuy2-10fps; do
	for el in $ELEMENTS; do
		id=uvc-$el-$f
		reset
		before=$(counts)
		run_el "$id-strace" "$el" "${FILTER[$f]}" measure_strace
		after=$(counts)
		read -r a b c d <<< "$before"
		read -r e g h j <<< "$after"
		printf 'probe_set=%d\nprobe_get=%d\ncommit_set=%d\ncommit_get=%d\n' \
			$((e - a)) $((g - b)) $((h - c)) $((j - d)) > "$RES/$id-usb.kv"
	done
	# timed without strace, 5 fresh processes, the elements alternating
	for i in 1 2 3 4 5; do
		for el in $ELEMENTS; do
			reset
			run_el "uvc-$el-$f-$i" "$el" "${FILTER[$f]}" measure
		done
	done
done
echo
kill -INT $CAM
wait $CAM
tail -1 "$UVCLOG"
