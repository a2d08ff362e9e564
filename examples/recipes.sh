#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# gst-launch recipes for negcamsrc, one per built-in profile (the list
# comes from negcam-ctl --list-profiles: a profile without a hand-written
# recipe below gets a plain one), plus renegotiation and the 2007 driver
# quirks. Each recipe prints its command line, runs it and prints the
# negotiation summary.
#
#   ./examples/recipes.sh BUILD_DIR [list | all | NAME...]
set -eu

usage() {
	cat <<USAGE
Usage: $0 BUILD_DIR [list | all | NAME...]
gst-launch recipes for negcamsrc from the build tree BUILD_DIR (e.g. build):
  list     the recipes, one per built-in profile and more (the default)
  all      run every recipe
  NAME...  run these recipes (renegotiate: the C example)
USAGE
}

case "${1:-}" in
-h|--help) usage; exit 0 ;;
'') usage >&2; exit 2 ;;
esac
BUILD=$1
shift
[ -d "$BUILD" ] || { echo "$0: no build directory '$BUILD'" >&2; usage >&2; exit 2; }
BUILD=$(cd "$BUILD" && pwd)
export GST_PLUGIN_PATH="$BUILD/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
export GST_REGISTRY="$BUILD/registry.bin"

# name | description | pipeline (gst-launch-1.0 syntax)
RECIPES='
webcam|UVC-like webcam: 1280x720 raw is only 10 fps on USB 2.0, so ask for MJPG and decode|negcamsrc profile=webcam num-buffers=30 ! image/jpeg,width=1280,height=720,framerate=30/1 ! jpegdec ! videoconvert ! fakesink
webcam-raw|webcam, raw YUYV at the device default (prefer=device)|negcamsrc profile=webcam num-buffers=30 ! video/x-raw ! videoconvert ! fakesink
webcam-fps|webcam, prefer=framerate: the fastest raw mode|negcamsrc profile=webcam prefer=framerate num-buffers=30 ! video/x-raw ! fakesink
vga|the seed article device: YUYV 640x480 only|negcamsrc profile=vga num-buffers=30 ! video/x-raw,width=640,height=480 ! videoconvert ! fakesink
stepwise|scaler: any size on a 16x8 grid, any rate from 1 to 60 fps|negcamsrc profile=stepwise num-buffers=30 ! video/x-raw,format=I420,width=800,height=608,framerate=50/1 ! fakesink
stepwise-range|scaler, a size range: the largest grid size inside it|negcamsrc profile=stepwise prefer=resolution num-buffers=10 ! video/x-raw,width=[100,400],height=[100,300] ! fakesink
tv-tuner|2007 TV card: interlaced PAL, no size/interval enumeration, fixed rate|negcamsrc profile=tv-tuner num-buffers=25 ! video/x-raw ! deinterlace ! videoconvert ! fakesink
tv-tuner-ntsc|2007 TV card, NTSC: the size is asked, TRY_FMT confirms, G_PARM tells the rate|negcamsrc profile=tv-tuner num-buffers=30 ! video/x-raw,width=720,height=480 ! fakesink
tv-tuner-quirk|2007 quirk: the device cannot enumerate, TRY_FMT adjusts the largest size asked to 720x576 and negcamsrc re-fixates|negcamsrc profile=tv-tuner prefer=resolution num-buffers=5 ! video/x-raw ! fakesink
tv-tuner-refused|2007 quirk: a size the card cannot do; the error names the field, asked and offered value|negcamsrc profile=tv-tuner num-buffers=5 ! video/x-raw,width=320,height=240 ! fakesink
impossible|a filter the device cannot meet: the error lists what it offers|negcamsrc profile=vga num-buffers=5 ! video/x-raw,format=RGB ! fakesink
'
# Every other built-in profile: the summary negcam-ctl gives, the device's
# own mode, decoded (MJPG-only cameras too) as a player takes it.
CTL="$BUILD/ctl/negcam-ctl"
[ -x "$CTL" ] || { echo "$0: $CTL not built (ninja -C $BUILD)" >&2; exit 1; }
PROFILES=$("$CTL" --list-profiles | awk 'NF == 0 { exit } { print }')
RECIPES="$RECIPES$(printf '%s\n' "$PROFILES" | while read -r name summary; do
	printf '%s\n' "$RECIPES" | grep -q "^$name|" ||
		printf '%s|%s|negcamsrc profile=%s is-live=false num-buffers=10 ! decodebin ! videoconvert ! fakesink\n' \
			"$name" "$summary" "$name"
done)
"

run() {
	name=$1
	line=$(printf '%s\n' "$RECIPES" | grep "^$name|") || { echo "no recipe $name" >&2; return 1; }
	desc=$(printf '%s' "$line" | cut -d'|' -f2)
	pipe=$(printf '%s' "$line" | cut -d'|' -f3)
	echo "== $name: $desc"
	echo "gst-launch-1.0 -m $pipe"
	# shellcheck disable=SC2086
	out=$(gst-launch-1.0 -m $pipe 2>&1) && rc=0 || rc=$?
	printf '%s\n' "$out" | sed -n 's/.*negcam-negotiated.*summary=(string)"\([^"]*\)".*/negotiated: \1/p' | sed 's/\\//g'
	printf '%s\n' "$out" | sed -n 's/.*adjusted=(string)"\([^"]*\)".*/adjusted:   \1/p' | sed 's/\\//g'
	printf '%s\n' "$out" | grep -A3 '^ERROR: from element' | grep -v '^Additional debug info' | head -n 3 || true
	echo "exit status $rc"
	echo
}

case "${1:-list}" in
list)
	printf '%s\n' "$RECIPES" | grep '|' | cut -d'|' -f1,2 | sed 's/|/: /'
	echo "renegotiate: $BUILD/examples/negcam-renegotiate [profile] (two caps changes while PLAYING)"
	;;
all)
	for n in $(printf '%s\n' "$RECIPES" | grep '|' | cut -d'|' -f1); do run "$n"; done
	[ -x "$BUILD/examples/negcam-renegotiate" ] && "$BUILD/examples/negcam-renegotiate" webcam
	;;
*)
	for n in "$@"; do
		if [ "$n" = renegotiate ]; then "$BUILD/examples/negcam-renegotiate" webcam; else run "$n"; fi
	done
	;;
esac
