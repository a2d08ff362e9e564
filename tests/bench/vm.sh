#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tests/bench/vm.sh RES: the benchmarks that need a kernel device, run in
# the qemu VM by tests/bench/run.sh through tests/vm/run.sh: negcam.ko
# (profile webcam) and vivid side by side. Results as RES/*.kv.
set -u
TREE=${NEGCAM_TREE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)}
RES=$1
ONLY=${2:-all}	# all, or one of neg kgen lat cpu loop rt uvc (for reruns)
. "$TREE/tests/bench/lib.sh"
case ${NEGCAM_BUILD:=build} in /*) ;; *) NEGCAM_BUILD=$TREE/$NEGCAM_BUILD ;; esac
export GST_PLUGIN_PATH=$NEGCAM_BUILD/gst
MALLOC="env G_SLICE=always-malloc LD_PRELOAD=$BIN/bench-malloc.so"
mkdir -p "$RES"
# negcamsrc and v4l2src on uvcvideo, negcam-uvc the camera (uvc.sh)
[ "$ONLY" = uvc ] && exec bash "$TREE/tests/bench/uvc.sh" "$RES"

modprobe -a videobuf2-vmalloc videobuf2-v4l2 videodev configfs || exit 1
modprobe vivid n_devs=1 node_types=0x1 || exit 1
insmod "$TREE/kmod/negcam.ko" profile=webcam || exit 1
NEG=/dev/$(cat /sys/devices/platform/negcam.0/video_node)
VIV=
for d in /sys/class/video4linux/video*; do
	case $(cat "$d/name") in vivid*) VIV=/dev/${d##*/} ;; esac
done
[ -n "$VIV" ] || { echo "vm.sh: no vivid node" >&2; exit 1; }
echo "negcam.ko webcam: $NEG, vivid: $VIV"
{
	echo "kernel=$(uname -r)"
	echo "cpus=$(nproc)"
	echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	echo "gstreamer=$(gst-launch-1.0 --version | sed -n 's/.*GStreamer \([0-9.]*\).*/\1/p')"
} > "$RES/vm-machine.kv"
declare -A DEV=([negcam]=$NEG [vivid]=$VIV)
declare -A THREAD=([negcam]=negcam-0 [vivid]=vivid-000-vid-c)

# 1. negotiation: ioctls before STREAMON (strace), the element's own count,
#    time from NULL to the first buffer (3 processes without strace).
declare -A FILTER=(
	[none]=''
	[small]='! video/x-raw,format=YUY2,width=640,height=360 '
	[large]='! video/x-raw,format=YUY2,width=1280,height=720 '
	[mjpg]='! image/jpeg,width=1280,height=720 '
)
if [ "$ONLY" = all ] || [ "$ONLY" = neg ]; then
	for dev in negcam vivid; do
		for el in negcamsrc v4l2src; do
			for f in none small large mjpg; do
				p="$el name=src device=${DEV[$dev]} ${FILTER[$f]}! fakesink"
				measure_strace neg-$dev-$el-$f-strace $BIN/bench-gst -t 60 -w 1 -n 1 "$p"
				# timed without strace, 3 fresh processes (a repeat in
				# the same process may reuse what the element kept),
				# unless it does not negotiate at all
				grep -q '^rc=0' "$RES/neg-$dev-$el-$f-strace.kv" || continue
				for i in 1 2 3; do
					measure neg-$dev-$el-$f-$i $BIN/bench-gst -t 60 -w 1 -n 1 "$p"
				done
			done
		done
	done
	echo
fi

# 3. kernel frame generation at the fastest interval each driver allows.
if [ "$ONLY" = all ] || [ "$ONLY" = kgen ]; then
	for dev in negcam vivid; do
		measure kgen-$dev-640x480 $BIN/bench-v4l2 ${DEV[$dev]} YUYV 640 480 ${THREAD[$dev]} 200
		measure kgen-$dev-1280x720 $BIN/bench-v4l2 ${DEV[$dev]} YUYV 1280 720 ${THREAD[$dev]} 100
	done
	echo
fi

# 4. latency, delay from the timestamp to the push, copies: a consumer
#    that keeps up, and a slow one (a queue of 12, then 15 frames/s).
#    640x360: the largest 4:3/16:9 size both drivers give at 30 fps.
caps="video/x-raw,format=YUY2,width=640,height=360,framerate=30/1"
slow="queue max-size-buffers=12 max-size-bytes=0 max-size-time=0 ! identity sleep-time=66666"
if [ "$ONLY" = all ] || [ "$ONLY" = lat ]; then
	for dev in negcam vivid; do
		for el in negcamsrc v4l2src; do
			measure lat-$dev-$el-fast $BIN/bench-gst -c -w 20 -n 100 \
				"$el name=src device=${DEV[$dev]} ! $caps ! fakesink"
			measure lat-$dev-$el-slow $BIN/bench-gst -c -w 20 -n 100 \
				"$el name=src device=${DEV[$dev]} ! $caps ! $slow ! fakesink"
		done
	done
	echo
fi

# 5. CPU per frame at 30 fps live, 300 frames, kernel side included.
caps="video/x-raw,format=YUY2,width=640,height=480,framerate=30/1"
if [ "$ONLY" = all ] || [ "$ONLY" = cpu ]; then
	for el in negcamsrc v4l2src; do
		measure cpu-vm-$el $MALLOC $BIN/bench-gst -w 30 -n 300 -T negcam-0 \
			"$el name=src device=$NEG ! $caps ! fakesink"
	done
	measure mem-vm-negcamsrc-trace $MALLOC $BIN/bench-gst -w 30 -n 90 -m 200 \
		"negcamsrc name=src device=$NEG ! $caps ! fakesink"
	measure cpu-vm-vts $MALLOC $BIN/bench-gst -w 30 -n 300 \
		"videotestsrc name=src is-live=true ! $caps ! fakesink"
	echo
fi

# 8. ioctl round trips (issue 14): G_FMT, TRY_FMT, QUERYCAP on negcam.ko
#    and vivid, and on libnegcam-preload.so's node and the embedded
#    backend, all in this VM, so their ratios mean something under TCG.
#    The library's node is /dev/video9: the kernel nodes hold the low numbers.
RUNBIN=$NEGCAM_BUILD/tests/run/bench-run
if [ "$ONLY" = all ] || [ "$ONLY" = rt ]; then
	for i in 1 2 3; do
		for dev in negcam vivid; do
			measure rt-$dev-$i "$RUNBIN" --device "${DEV[$dev]}" $dev
		done
		measure rt-lib-$i env BENCH_RUN_NODE=/dev/video9 "$NEGCAM_BUILD/run/negcam-run" \
			--node /dev/video9 --profile webcam -- "$RUNBIN" webcam 0
	done
	echo
fi

# 7. loopback (issue 12): tests/bench/bench-loop.c on Debian's v4l2loopback
#    (one node, OUT = CAP; built by tests/vm/v4l2loopback.sh) and on a
#    negcam loop that follows its producer, both loaded at once and run
#    in turn, LOOP_ROUNDS rounds (default 5): one 300-frame run is noisy
#    under TCG, so report.py compares the medians over the rounds.
LOOP_ROUNDS=${LOOP_ROUNDS:-5}
loop_run() {	# NAME OUT CAP ROUND
	measure loop-$1-640x480-r$4 $BIN/bench-loop run "$2" "$3" 640 480 300
	measure loop-$1-1280x720-r$4 $BIN/bench-loop run "$2" "$3" 1280 720 300
}
# the ioctls a v4l2src consumer needs before STREAMON, a producer running;
# the registry is brought up to date first, so that its scan of every
# node is not counted
loop_ioctls() {	# NAME OUT CAP
	$BIN/bench-loop produce "$2" 640 480 60 > /dev/null 2>&1 &
	local prod=$!
	sleep 1
	gst-inspect-1.0 v4l2src > /dev/null 2>&1
	measure_strace loop-$1-v4l2src gst-launch-1.0 -q v4l2src device="$3" num-buffers=5 ! fakesink
	kill $prod 2>/dev/null; wait $prod 2>/dev/null
}
if [ "$ONLY" = all ] || [ "$ONLY" = loop ]; then
	PEER_KO=$TREE/tests/vm/out/v4l2loopback-$(uname -r)/v4l2loopback.ko
	LB= LOUT= LCAP=
	if [ -f "$PEER_KO" ] && insmod "$PEER_KO" devices=1 exclusive_caps=0 card_label=bench-peer; then
		sleep 0.5
		LB=$(node_named bench-peer)
		echo "v4l2loopback: $LB"
	else
		echo "vm.sh: no v4l2loopback ($PEER_KO): its loop rows are missing" >&2
	fi
	rmmod negcam 2>/dev/null
	if modinfo -p "$TREE/kmod/negcam.ko" | grep -q '^loops:' &&
	   insmod "$TREE/kmod/negcam.ko" loops=1 loop_captures=1 loop_profile=follow; then
		sleep 0.5
		LOUT=$(node_named "negcam loop 0 output")
		LCAP=$(node_named "negcam loop 0 capture 0")
		echo "negcam loop: $LOUT -> $LCAP"
	else
		echo "vm.sh: negcam.ko has no loops: only v4l2loopback measured" >&2
	fi
	for r in $(seq "$LOOP_ROUNDS"); do
		[ -n "$LB" ] && loop_run v4l2loopback "$LB" "$LB" "$r"
		[ -n "$LCAP" ] && loop_run negcam "$LOUT" "$LCAP" "$r"
	done
	# one module at a time, as a user has it
	[ -n "$LB" ] && rmmod negcam && loop_ioctls v4l2loopback "$LB" "$LB"
	[ -n "$LB" ] && rmmod v4l2loopback &&
		insmod "$TREE/kmod/negcam.ko" loops=1 loop_captures=1 loop_profile=follow && sleep 0.5 &&
		LOUT=$(node_named "negcam loop 0 output") && LCAP=$(node_named "negcam loop 0 capture 0")
	[ -n "$LCAP" ] && loop_ioctls negcam "$LOUT" "$LCAP"
	echo
fi
rmmod negcam 2>/dev/null
[ "$ONLY" = all ] && bash "$TREE/tests/bench/uvc.sh" "$RES"
exit 0	# failures are in the .kv files (rc=)
