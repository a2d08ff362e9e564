#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `make demo`: negcamsrc on the embedded webcam profile negotiates a caps
# filter, prints what it chose and what that cost, and writes a few frames
# as PNG files to ./demo-out/.
#
#   ./examples/demo.sh BUILD_DIR
set -eu

BUILD=${1:-build}
BUILD=$(cd "$BUILD" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${NEGCAM_DEMO_OUT:-./demo-out}

if [ ! -e "$BUILD/gst/libgstnegcam.so" ]; then
	echo "demo: $BUILD/gst/libgstnegcam.so missing: build first (make build)" >&2
	exit 1
fi
export GST_PLUGIN_PATH="$BUILD/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
export GST_REGISTRY="$BUILD/registry.bin"

FILTER='video/x-raw,width=640,height=360'
NFRAMES=5
rm -rf "$OUT"
mkdir -p "$OUT"

echo "== negcamsrc profile=webcam ! $FILTER ! videoconvert ! pngenc ! multifilesink"
LOG="$OUT/gst-launch.log"
if ! gst-launch-1.0 -m negcamsrc profile=webcam num-buffers=$NFRAMES ! "$FILTER" ! \
	videoconvert ! pngenc ! multifilesink location="$OUT/frame-%02d.png" >"$LOG" 2>&1; then
	cat "$LOG" >&2
	exit 1
fi

# gst-launch -m prints the element message; unescape its summary and caps.
summary=$(sed -n 's/.*negcam-negotiated.*summary=(string)"\([^"]*\)".*/\1/p' "$LOG" | sed 's/\\//g' | head -n 1)
caps=$(sed -n 's/.*negcam-negotiated, caps=(GstCaps)"\([^"]*\)".*/\1/p' "$LOG" | sed 's/\\//g' | head -n 1)
echo "negotiated: $summary"
echo "caps:       $caps"
echo "(v4l2src would first enumerate every format, size and interval: see docs/negcamsrc.md)"

n=$(find "$OUT" -name "frame-*.png" | wc -l)
echo "wrote $n PNG frames:"
ls -1 "$OUT"/frame-*.png
[ "$n" -eq "$NFRAMES" ]

if [ -x "$BUILD/examples/negcam-renegotiate" ]; then
	echo
	echo "== renegotiating twice while PLAYING (examples/negcam-renegotiate.c)"
	"$BUILD/examples/negcam-renegotiate" webcam
fi
echo
echo "more recipes: $HERE/recipes.sh $BUILD list"
