#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tests/bench/host.sh BUILD RES: the benchmarks that run on the build host
# (embedded negcamsrc, videotestsrc, memcpy, frame generator). Results as
# RES/*.kv for report.py. Called by tests/bench/run.sh.
set -u
TREE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
BUILD=$1 RES=$2
. "$TREE/tests/bench/lib.sh"
export GST_PLUGIN_PATH=$TREE/$BUILD/gst
PROF=$TREE/tests/bench/bench.profile
MALLOC="env G_SLICE=always-malloc LD_PRELOAD=$BIN/bench-malloc.so"

# 1. negotiation, embedded engine, webcam profile: the element's own count
#    (no ioctl to trace), time from NULL to the first buffer (median of 3 processes).
declare -A FILTER=(
	[none]=''
	[small]='! video/x-raw,format=YUY2,width=640,height=360 '
	[large]='! video/x-raw,format=YUY2,width=1280,height=720 '
	[mjpg]='! image/jpeg,width=1280,height=720 '
)
for f in none small large mjpg; do
	for i in 1 2 3; do
		measure neg-emb-$f-$i $BIN/bench-gst -w 1 -n 1 \
			"negcamsrc name=src ${FILTER[$f]}! fakesink"
	done
done

# 2. throughput, is-live=false into fakesink, and the memcpy ceiling.
for size in 1920x1080 3840x2160; do
	w=${size%x*} h=${size#*x}
	big=$([ $w -gt 2000 ] && echo 1 || echo 0)
	for fmt in YUY2 NV12; do
		caps="video/x-raw,format=$fmt,width=$w,height=$h,framerate=30/1"
		id=$fmt-$size
		measure tp-negcam-$id $BIN/bench-gst -w 200 -n $((big ? 5000 : 20000)) \
			"negcamsrc name=src profile=$PROF is-live=false ! $caps ! fakesink"
		for pat in smpte black; do
			measure tp-vts-$pat-$id $BIN/bench-gst -w 10 \
				-n $([ $pat = black ] && echo $((big ? 300 : 1000)) || echo $((big ? 60 : 200))) \
				"videotestsrc name=src pattern=$pat is-live=false ! $caps ! fakesink"
		done
		v4l=$([ $fmt = YUY2 ] && echo YUYV || echo NV12)
		measure tp-framegen-$id $BIN/bench-framegen $v4l $w $h 1
		sz=$([ $fmt = YUY2 ] && echo $((w * h * 2)) || echo $((w * h * 3 / 2)))
		for i in 1 2 3; do
			measure tp-memcpy-$id-$i $BIN/bench-memcpy $sz 1
		done
	done
done

# 5. CPU per frame at 30 fps live, 300 frames (host part: no kernel device).
for size in 640x480 1920x1080; do
	w=${size%x*} h=${size#*x}
	caps="video/x-raw,format=YUY2,width=$w,height=$h,framerate=30/1"
	prof=$([ $w = 640 ] && echo webcam || echo "$PROF")
	measure cpu-host-negcam-$size $MALLOC $BIN/bench-gst -w 30 -n 300 \
		"negcamsrc name=src profile=$prof ! $caps ! fakesink"
	measure cpu-host-vts-$size $MALLOC $BIN/bench-gst -w 30 -n 300 \
		"videotestsrc name=src is-live=true ! $caps ! fakesink"
done

# 6. memory: allocations per frame and peak RSS over 10,000 frames (non-live),
#    then the backtraces of the allocations of 2,000 steady-state frames.
caps="video/x-raw,format=YUY2,width=640,height=480,framerate=30/1"
measure mem-negcam $MALLOC $BIN/bench-gst -w 100 -n 10000 \
	"negcamsrc name=src is-live=false ! $caps ! fakesink"
measure mem-vts $MALLOC $BIN/bench-gst -w 100 -n 10000 \
	"videotestsrc name=src is-live=false ! $caps ! fakesink"
measure mem-negcam-live-trace $MALLOC $BIN/bench-gst -w 30 -n 90 -m 200 \
	"negcamsrc name=src ! $caps ! fakesink"
echo
