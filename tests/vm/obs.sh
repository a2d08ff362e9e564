#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# OBS Studio as a loopback's producer, inside the test VM: Debian's OBS 29
# under Xvfb shows one scene, a red colour source, and starts its Virtual
# Camera (--startvirtualcam), as a user does for a video call; ffmpeg then
# reads a capture node with no format of its own.
#
#   tests/vm/obs.sh CAPTURE [WxH] [FPS] [FRAMES]
#
# WxH and FPS: OBS's canvas and output (default 640x480 at 30); FRAMES:
# how many the consumer reads (default 60). Prints one line each:
#   loaded v4l2loopback devices=0        see below
#   started /dev/videoN CARD             OBS writes there
#   failed LINE                          OBS's own words, when it could not
#   stream FORMAT WxH                    what ffmpeg got from CAPTURE
#   frames N red M kinds KINDS           KINDS: P red, g anything else
#   result ok | result fail WHY
# Exit status 0 on "result ok" (OBS started, frames read), 1 otherwise, 77
# when OBS is not installed. Judging the frames is the caller's.
#
# What OBS 29 does (plugins/linux-v4l2/v4l2-output.c there): it offers the
# Virtual Camera only when a module named v4l2loopback is loaded or
# installed (/proc/modules, modinfo), else it runs "pkexec modprobe
# v4l2loopback"; then it takes the first /dev/videoN, counting up, that
# has Video Output in its device caps and accepts G_FMT, S_PARM, S_FMT
# YUYV at its output size and STREAMON, and write()s whole frames there.
# So for any other loopback this script loads Debian's v4l2loopback with
# devices=0, which makes no node (docs/loopback.md, "OBS Studio"), and
# unloads it at the end. Mesa's llvmpipe crashes in its JIT code under
# qemu's TCG as soon as OBS converts frames (seen in gdb), so OBS draws
# with softpipe here; it then stalls for over a second at times, so
# negcam's placeholder timeout (loop_timeout_ms) is 3 s for the run, so
# that a stall does not hide OBS's frames.
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "obs.sh runs inside the VM (tests/vm/run.sh)" >&2; exit 2; }
[ $# -ge 1 ] || { echo "usage: obs.sh CAPTURE [WxH] [FPS] [FRAMES]" >&2; exit 2; }
command -v obs > /dev/null && command -v Xvfb > /dev/null ||
	{ echo "result fail obs or Xvfb not installed (make deps)"; exit 77; }
CAP=$1 SIZE=${2:-640x480} FPS=${3:-30} FRAMES=${4:-60}
W=${SIZE%x*} H=${SIZE#*x}
TIMEOUT=$((120 * ${NEGCAM_VM_SLOW:-1}))
KO=${NEGCAM_V4L2LOOPBACK_KO:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/out/v4l2loopback-$(uname -r)/v4l2loopback.ko}
RED="63 102 63 240"	# YUYV of OBS's red, BT.709 limited range (set below)
HOMEDIR=$(mktemp -d /tmp/obs.XXXXXX) || exit 2
LOADED='' XPID='' OPID='' TMO='' TMO_FILE=/sys/module/negcam/parameters/loop_timeout_ms
cleanup() {
	[ -n "$OPID" ] && kill "$OPID" 2>/dev/null && wait "$OPID" 2>/dev/null
	[ -n "$TMO" ] && echo "$TMO" > "$TMO_FILE"
	[ -n "$XPID" ] && kill "$XPID" 2>/dev/null
	[ -n "$LOADED" ] && rmmod v4l2loopback 2>/dev/null
	rm -rf "$HOMEDIR"
}
trap cleanup EXIT
result() { echo "result $*"; [ "$1" = ok ]; exit $?; }

# OBS's settings: no first-run wizard, the canvas and output at WxH, FPS,
# BT.709 limited range, and one scene that is a red colour source.
obs_config() {
	local d=$HOMEDIR/.config/obs-studio
	mkdir -p "$d/basic/profiles/Negcam" "$d/basic/scenes" || return 1
	printf '[General]\nFirstRun=true\n[Basic]\nProfile=Negcam\nProfileDir=Negcam\nSceneCollection=Negcam\nSceneCollectionFile=Negcam\n' > "$d/global.ini"
	printf '[General]\nName=Negcam\n[Video]\nBaseCX=%s\nBaseCY=%s\nOutputCX=%s\nOutputCY=%s\nFPSType=1\nFPSInt=%s\nColorSpace=709\nColorRange=Partial\n' \
		"$W" "$H" "$W" "$H" "$FPS" > "$d/basic/profiles/Negcam/basic.ini"
	cat > "$d/basic/scenes/Negcam.json" <<EOF
{"name": "Negcam", "current_scene": "Scene", "current_program_scene": "Scene",
 "scene_order": [{"name": "Scene"}],
 "sources": [
  {"id": "color_source", "versioned_id": "color_source_v3", "name": "Red",
   "settings": {"color": 4278190335, "width": $W, "height": $H}},
  {"id": "scene", "versioned_id": "scene", "name": "Scene",
   "settings": {"id_counter": 1, "items": [{"name": "Red", "id": 1, "visible": true,
    "pos": {"x": 0.0, "y": 0.0}, "scale": {"x": 1.0, "y": 1.0}, "align": 5, "bounds_type": 0}]}}
 ]}
EOF
}

# The consumer's frames as P (the middle pixel is OBS's red) and g.
frame_kinds() {	# FILE N
	local i px k='' fs=$((W * H * 2))
	for ((i = 0; i < $2; i++)); do
		px=$(od -A n -t u1 -j $((i * fs + (H / 2 * W + W / 2) * 2)) -N 4 "$1" | xargs)
		if awk -v a="$px" -v b="$RED" 'BEGIN { n = split(a, x); split(b, y)
			for (j = 1; j <= 4; j++) { d = x[j] - y[j]; if (n != 4 || d > 8 || d < -8) exit 1 } }'; then
			k+=P
		else
			k+=g
		fi
	done
	echo "$k"
}

if ! grep -q '^v4l2loopback ' /proc/modules; then
	modprobe videodev && insmod "$KO" devices=0 || result fail "OBS needs a v4l2loopback module: $KO does not load"
	LOADED=1
	echo "loaded v4l2loopback devices=0"
fi
[ -w "$TMO_FILE" ] && TMO=$(cat "$TMO_FILE") && echo 3000 > "$TMO_FILE"
obs_config || result fail "cannot write OBS's settings"
mountpoint -q /dev/shm || { mkdir -p /dev/shm && mount -t tmpfs -o mode=1777 tmpfs /dev/shm; }
Xvfb :42 -screen 0 1280x800x24 -nolisten tcp > "$HOMEDIR/xvfb.log" 2>&1 &
XPID=$!
sleep 2
HOME=$HOMEDIR DISPLAY=:42 GALLIUM_DRIVER=softpipe obs --startvirtualcam --disable-missing-files-check \
	> "$HOMEDIR/obs.log" 2>&1 &
OPID=$!
t0=$SECONDS
until grep -qE 'Virtual camera started|Failed to start virtual camera|v4l2loopback not installed' "$HOMEDIR/obs.log"; do
	kill -0 "$OPID" 2>/dev/null || result fail "OBS exited ($(tail -n1 "$HOMEDIR/obs.log"))"
	[ $((SECONDS - t0)) -lt "$TIMEOUT" ] || result fail "OBS did not start its virtual camera in $TIMEOUT s"
	sleep 1
done
if ! grep -q 'Virtual camera started' "$HOMEDIR/obs.log"; then
	grep -E 'error:|warning:' "$HOMEDIR/obs.log" | grep -iE 'virtual|streaming|v4l2|device' | sed 's/^/failed /' | head -n 5
	result fail "no virtual camera"
fi
node=$(for f in "/proc/$OPID/fd/"*; do readlink "$f"; done 2>/dev/null | grep -m1 '^/dev/video')
echo "started ${node:-?} $(v4l2-ctl -d "${node:-/dev/null}" -D 2>/dev/null | sed -n 's/.*Card type *: //p')"
sleep 3
timeout -k 5 $((60 * ${NEGCAM_VM_SLOW:-1})) ffmpeg -nostdin -hide_banner -f v4l2 -i "$CAP" -frames:v "$FRAMES" \
	-f rawvideo -y "$HOMEDIR/frames.yuv" > "$HOMEDIR/ffmpeg.log" 2>&1
stream=$(tr '\r' '\n' < "$HOMEDIR/ffmpeg.log" | grep -m1 'Stream #0:0: Video:' | sed -E 's/.*Video: [^,]*, ([a-z0-9]+)[^,]*, ([0-9]+x[0-9]+).*/\1 \2/')
echo "stream ${stream:-none}"
n=$(($(stat -c %s "$HOMEDIR/frames.yuv" 2>/dev/null || echo 0) / (W * H * 2)))
kinds=$(frame_kinds "$HOMEDIR/frames.yuv" "$n")
red=${kinds//g/}
echo "frames $n red ${#red} kinds $kinds"
kill -0 "$OPID" 2>/dev/null || result fail "OBS exited while the consumer read ($(tail -n1 "$HOMEDIR/obs.log"))"
[ "$n" -gt 0 ] || result fail "the consumer read no frame ($(grep -m1 -iE 'error|fail' "$HOMEDIR/ffmpeg.log"))"
result ok
