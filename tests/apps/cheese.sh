#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/apps/cheese.sh [BUILD]: GNOME's Cheese as a user of negcamsrc, with
# no kernel module: Cheese finds the camera through negcam's device
# provider (NEGCAM_PROVIDER_PROFILES=webcam), runs it in camerabin, and
# takes a photo, under Xvfb. Passes when the photo is the webcam profile's
# largest mode (1920x1080), names the camera in its EXIF data and shows the
# pattern's eight colour bars. Exit 77 when Cheese, Xvfb or xdotool is
# missing (make deps installs them). `make test-apps` runs it.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
for t in cheese Xvfb xdotool dbus-run-session; do
	command -v $t > /dev/null || { echo "cheese: $t is not installed (make deps)"; exit 77; }
done
tmp=$(mktemp -d /tmp/negcam-cheese.XXXXXX) || exit 2
cleanup() { [ -n "${C:-}" ] && kill $C 2>/dev/null; [ -n "${X:-}" ] && kill $X 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: cheese: $*"; echo "cheese: 0 passed, 1 failed"; exit 1; }

# A display of its own: Xvfb picks a free number and writes it to fd 3.
exec 3> "$tmp/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp > "$tmp/xvfb.log" 2>&1 &
X=$!
for _ in $(seq 50); do [ -s "$tmp/display" ] && break; sleep 0.1; done
exec 3>&-
[ -s "$tmp/display" ] || fail "Xvfb did not start ($(tail -n1 "$tmp/xvfb.log"))"
export DISPLAY=:$(cat "$tmp/display")
export GST_PLUGIN_PATH=$build/gst NEGCAM_PROVIDER_PROFILES=webcam GSETTINGS_BACKEND=memory
export LIBGL_ALWAYS_SOFTWARE=1 NO_AT_BRIDGE=1 HOME=$tmp/home XDG_RUNTIME_DIR=$tmp/rt GST_DEBUG=negcamsrc:4
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

dbus-run-session -- cheese > "$tmp/cheese.log" 2>&1 &
C=$!
# The viewfinder runs once negcamsrc has negotiated; the shutter is the
# window's space key (and its button, clicked too).
for _ in $(seq 120); do
	grep -q 'negotiated image/jpeg\|negotiated video/x-raw' "$tmp/cheese.log" && break
	kill -0 $C 2>/dev/null || fail "Cheese exited: $(tail -n3 "$tmp/cheese.log")"
	sleep 0.5
done
mode=$(sed -n 's/.*negotiated [^:]*: \([A-Z0-9]* [0-9]*x[0-9]* at [0-9/]* fps\).*/\1/p' "$tmp/cheese.log" | tail -n1)
[ -n "$mode" ] || fail "negcamsrc never negotiated in Cheese (log: $(grep -m3 -i 'negcam\|error' "$tmp/cheese.log"))"
win=$(xdotool search --name 'Take a Photo' 2>/dev/null | head -n1)
[ -n "$win" ] || fail "no Cheese window"
sleep 3
xdotool windowfocus --sync "$win" 2>/dev/null
xdotool mousemove --window "$win" 255 580 click 1 key --window "$win" space 2>/dev/null
photo=
for _ in $(seq 60); do
	photo=$(find "$HOME" -path '*cheese/media/*.jpg' -o -path '*Webcam/*.jpg' 2>/dev/null | head -n1)
	[ -n "$photo" ] && break
	sleep 0.5
done
[ -n "$photo" ] || fail "no photo after the shutter (negcamsrc: $mode)"
sleep 1
/usr/bin/python3 - "$photo" <<'PY' || fail "the photo is not the camera's picture: $photo"
import sys, cv2
img = cv2.imread(sys.argv[1])
h, w = img.shape[:2]
exif = open(sys.argv[1], 'rb').read(4096)
ok = (w, h) == (1920, 1080) and b'Negcam Webcam' in exif
# The eight bars, left to right (BGR), each sampled down its middle: most
# samples match (the pattern's moving square may cover a few).
bars = [(192, 192, 192), (0, 192, 192), (192, 192, 0), (0, 192, 0),
        (192, 0, 192), (0, 0, 192), (192, 0, 0), (0, 0, 0)]
for i, want in enumerate(bars):
    x = int((i + 0.5) * w / 8)
    hits = sum(all(abs(int(c) - t) < 40 for c, t in zip(img[int(h * (k + 1) / 11), x], want)) for k in range(10))
    ok = ok and hits >= 7
    print("bar %d at x=%d: %d of 10 samples %s" % (i, x, hits, want))
print("photo %dx%d, EXIF names the camera: %s" % (w, h, b'Negcam Webcam' in exif))
sys.exit(0 if ok else 1)
PY
echo "PASS: cheese: lists negcam's webcam, streams $mode, its photo is the camera's 1920x1080 picture"
echo "cheese: 1 passed, 0 failed"
