#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# make bench: tests/bench/run.sh [BUILD] [all|host|pw|vm [neg|kgen|lat|cpu|loop|rt|uvc]]
#
# Measures negcam against what users would pick instead (v4l2src, vivid,
# videotestsrc, memcpy), on the host (embedded negcamsrc) and in the qemu VM
# (negcam.ko and vivid; negcam loops and Debian's v4l2loopback; uvcvideo
# serving negcam-uvc, tests/bench/uvc.sh, whose table uvc-report.py
# prints), and on the host in a private PipeWire session (negcam-pw
# against pipewiresink mode=provide, tests/bench/pw.sh, whose table
# pw-report.py prints), then writes the report and prints it: docs/benchmarks.md after
# a whole run (all parts), else tests/bench/out/results/benchmarks.md, so
# that a run of one part cannot replace the document with a report in
# which the other parts are "not measured". Results of the latest run of
# each part stay in tests/bench/out/results/ (key=value files, strace
# logs, stderr). Nothing here asserts a time.
# Takes about 13 minutes on a quiet 2-core host (the pw part 2.5).
set -u
TREE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
BUILD=${1:-build}
WHAT=${2:-all}
VMPART=${3:-all}
RES=$TREE/tests/bench/out/results
cd "$TREE" || exit 1
START=$(date +%s)

[ -d "$BUILD" ] || meson setup "$BUILD" > /dev/null || exit 1
ninja -C "$BUILD" > /dev/null || { echo "bench: $BUILD does not build" >&2; exit 1; }
"$TREE/tests/bench/build.sh" || { echo "bench: helpers do not build" >&2; exit 1; }
if [ "$WHAT" != host ] && [ "$WHAT" != pw ] && [ ! -f kmod/negcam.ko ]; then
	flock /tmp/negcam-kmod.lock make -C kmod > /dev/null || exit 1
fi
mkdir -p "$RES"
if [ "$WHAT" = all ]; then
	rm -f "$RES"/*
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
{
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	echo "cpus=$(nproc)"
	echo "mem=$(awk '/MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
	echo "kernel=$(uname -r)"
	echo "gstreamer=$(gst-launch-1.0 --version | sed -n 's/.*GStreamer \([0-9.]*\).*/\1/p')"
	echo "commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- engine gst kmod 2>/dev/null || echo ' (with uncommitted changes in engine/gst/kmod)')"
	echo "build=$BUILD"
	echo "load_start=$(load)"
	echo "parts=$WHAT${3:+ $VMPART}"
} > "$RES/machine.kv.new"

if [ "$WHAT" = all ] || [ "$WHAT" = host ]; then
	echo "bench: host part (embedded negcamsrc, videotestsrc, memcpy)"
	"$TREE/tests/bench/host.sh" "$BUILD" "$RES"
fi
if [ "$WHAT" = all ] || [ "$WHAT" = pw ]; then
	"$TREE/tests/bench/pw.sh" "$BUILD" "$RES" > /dev/null
fi
vm_status=
if [ "$WHAT" = all ] || [ "$WHAT" = vm ]; then
	echo "bench: VM part (negcam.ko and vivid in qemu)"
	NEGCAM_BUILD=$BUILD "$TREE/tests/vm/run.sh" --timeout 900 \
		tests/bench/vm.sh "$RES" "$VMPART" | grep --line-buffered -v '^\[\|^NEGCAM-VM'
	vm_status=${PIPESTATUS[0]}
fi
{
	cat "$RES/machine.kv.new"
	echo "load_end=$(load)"
	echo "duration=$(( ($(date +%s) - START) / 60 )) min $(( ($(date +%s) - START) % 60 )) s"
	[ -n "$vm_status" ] && echo "vm_status=$vm_status"
} > "$RES/machine.kv"
rm -f "$RES/machine.kv.new"
REPORT=$TREE/docs/benchmarks.md
if [ "$WHAT" != all ] || [ "$VMPART" != all ]; then
	REPORT=$RES/benchmarks.md
	echo "bench: a part only ($WHAT $VMPART): report in $REPORT (docs/benchmarks.md is a whole run's)"
fi
python3 "$TREE/tests/bench/report.py" "$RES" "$REPORT"
