#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tests/run/format-app.sh APP: one application reading /dev/video0 in the
# format $NEGCAM_FORMAT (negcam-run --each-profile --all-formats sets it;
# four characters as v4l2-ctl prints them). APP: v4l2-ctl, ffmpeg,
# v4l2src, opencv. When the application has no name for the format, says
# why on stderr and exits 3, before opening the stream: the per-format
# matrix (tests/run/matrix-formats.sh, docs/matrix.md) counts such a row
# as the application's, not negcam's.
set -u
F=${NEGCAM_FORMAT:?NEGCAM_FORMAT is not set: run under negcam-run --all-formats}
root=$(cd "$(dirname "$0")/../.." && pwd)
cant() { echo "$1" >&2; exit 3; }
# Debian's python3 (python3-opencv), not a pyenv shim that may come first
# in PATH; trying 'import cv2' for each case would double its cost.
python_cv2() {
	if [ -x /usr/bin/python3 ]; then echo /usr/bin/python3; else echo python3; fi
}

# GStreamer 1.22's v4l2src caps for a fourcc (gstv4l2object.c's table).
gst_caps() {
	case "$1" in
	YUYV) echo video/x-raw,format=YUY2 ;; UYVY|YVYU|VYUY|NV12|NV21|NV16|NV61) echo "video/x-raw,format=$1" ;;
	NM12) echo video/x-raw,format=NV12 ;; NM21) echo video/x-raw,format=NV21 ;;
	YU12) echo video/x-raw,format=I420 ;; YV12) echo video/x-raw,format=YV12 ;;
	422P) echo video/x-raw,format=Y42B ;; YM24) echo video/x-raw,format=Y444 ;;
	GREY) echo video/x-raw,format=GRAY8 ;; "Y16 ") echo video/x-raw,format=GRAY16_LE ;;
	RGB3) echo video/x-raw,format=RGB ;; BGR3) echo video/x-raw,format=BGR ;;
	RGBP) echo video/x-raw,format=RGB16 ;; RGBO) echo video/x-raw,format=RGB15 ;;
	BX24) echo video/x-raw,format=xRGB ;; XR24) echo video/x-raw,format=BGRx ;;
	BA81) echo video/x-bayer,format=bggr ;; GBRG) echo video/x-bayer,format=gbrg ;;
	GRBG) echo video/x-bayer,format=grbg ;; RGGB) echo video/x-bayer,format=rggb ;;
	MJPG|JPEG) echo image/jpeg ;; H264) echo video/x-h264,stream-format=byte-stream ;;
	esac
}

# ffmpeg's pixel format or codec name for the format, from its own
# -list_formats ("Raw : yuyv422 : YUYV 4:2:2 : ..."), matched by the
# description ENUM_FMT gives; "Unsupported" when ffmpeg has none.
ffmpeg_name() {
	desc=$(v4l2-ctl -d /dev/video0 --list-formats |
		sed -n "s/^.*\[[0-9]*\]: '$1' (\(.*\))$/\1/p" | sed 's/, compressed$//; s/, emulated$//')
	ffmpeg -hide_banner -f v4l2 -list_formats all -i /dev/video0 2>&1 |
		awk -v d="$desc" 'index($0, " " d " :") {
			sub(/^[^]]*\] *[A-Za-z]+ *: */, ""); split($0, a, " "); print a[1]; exit }'
}

case "$1" in
v4l2-ctl)
	exec v4l2-ctl -d /dev/video0 --set-fmt-video "pixelformat=$F" --stream-mmap --stream-count=3 ;;
v4l2src)
	caps=$(gst_caps "$F")
	[ -n "$caps" ] || cant "GStreamer 1.22's v4l2src has no caps for '$F'"
	exec gst-launch-1.0 -q v4l2src device=/dev/video0 num-buffers=3 ! "$caps" ! fakesink ;;
ffmpeg)
	! v4l2-ctl -d /dev/video0 -D | grep -q "Video Capture Multiplanar" ||
		cant "ffmpeg's v4l2 input opens single-planar capture nodes only; this one is multiplanar"
	name=$(ffmpeg_name "$F")
	[ -n "$name" ] || cant "ffmpeg's v4l2 input does not list '$F'"
	[ "$name" != Unsupported ] || cant "ffmpeg's v4l2 input has no pixel format for '$F' (Unsupported)"
	exec ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -input_format "$name" \
		-i /dev/video0 -frames:v 3 -f null - ;;
opencv)
	! v4l2-ctl -d /dev/video0 -D | grep -q "Video Capture Multiplanar" ||
		cant "OpenCV 4.6's V4L2 backend opens single-planar capture nodes only; this one is multiplanar"
	exec "$(python_cv2)" "$root/tests/run/opencv-grab.py" 3 "$F" ;;
*)
	echo "usage: NEGCAM_FORMAT=FCC format-app.sh v4l2-ctl|v4l2src|ffmpeg|opencv" >&2
	exit 2 ;;
esac
