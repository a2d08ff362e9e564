# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=bash
#
# negcamsrc on a multiplanar capture node (issue 35, item 2), sourced by
# suites.sh; runs in the VM (tests/vm/run.sh mplane, and at the end of gst).
# vivid with multiplanar=2 (V4L2_CAP_VIDEO_CAPTURE_MPLANE only), its OSD
# text off so that every frame of the colour bars is the same:
#   - NV12 -> NM12 (2 buffers), I420 -> YM12 (3 buffers), YUY2 -> YUYV
#     (1 plane), each at 640x360 and 1280x720: negcamsrc's message names
#     the fourcc and its planes; a frame into filesink equals byte for byte
#     the frame v4l2-ctl --stream-to writes for the same format (several
#     memories: copied once, counted, as filesink takes no GstVideoMeta;
#     YUYV: not copied, vivid's 128-byte data_offset skipped); through
#     videoconvert (no copy), mmap and io-mode=dmabuf (each plane
#     exported), it equals v4l2-ctl's frame through the same videoconvert,
#     and v4l2src's on the same node and caps (noted when v4l2src gives no
#     frame: it hangs on vivid's multiplanar YUYV);
#   - requests before STREAMON, negcamsrc against v4l2src (strace), for
#     NV12 640x360: negcamsrc must ask fewer;
#   - the device tests (test_negcamsrc_device: caps filters, frames,
#     dma-buf) on the node;
#   - negcamdeviceprovider (NEGCAM_PROVIDER_NODES=1) lists the node;
#   - ffmpeg's v4l2 input on the node, noted (not judged).
# Afterwards vivid is loaded again as the other suites expect it.

MP_FRAMES=$LOGDIR/mplane-frames
MP_SIZES=${NEGCAM_MP_SIZES:-640x360 1280x720}

# mp_grab OUT ELEM DEV CAPS [PROPS...] [-- TAIL]: one frame of ELEM on DEV
# through CAPS (and TAIL, e.g. "videoconvert ! video/x-raw,format=I420")
# into OUT; the log (with -m messages, negcamsrc:4 and negcamdevice:4) next to it.
mp_grab() {
	local out=$1 elem=$2 dev=$3 caps=$4 tail="" props=(); shift 4
	while [ $# -gt 0 ]; do
		[ "$1" = -- ] && { shift; tail="$* !"; break; }
		props+=("$1"); shift
	done
	rm -f "$out"
	# shellcheck disable=SC2086
	GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" GST_DEBUG=negcamsrc:4,negcamdevice:4 GST_DEBUG_NO_COLOR=1 \
		timeout -k 5 "${MP_TIMEOUT:-120}" gst-launch-1.0 -m "$elem" device="$dev" num-buffers=1 \
		"${props[@]}" ! "$caps" ! $tail filesink location="$out" > "$out.log" 2>&1
}

# mp_ref OUT DEV FOURCC W H: the frame v4l2-ctl streams for FOURCC WxH
# (each plane's bytes one after the other).
mp_ref() {
	rm -f "$1"
	timeout -k 5 60 v4l2-ctl -d "$2" -v "width=$4,height=$5,pixelformat=$3" \
		--stream-mmap --stream-count=1 --stream-to="$1" > "$1.log" 2>&1
}

# md5 FILE: the start of its md5sum; empty when FILE is missing or empty.
md5() { [ -s "$1" ] && md5sum < "$1" | cut -c1-12; }

# mp_to GSTFMT: the format videoconvert turns GSTFMT into for the
# comparisons: the same subsampling, planes rearranged only (a chroma
# resampling would depend on caps fields rawvideoparse sets otherwise).
mp_to() {
	case "$1" in NV12) echo I420 ;; I420) echo NV12 ;; *) echo UYVY ;; esac
}

# mp_conv OUT IN GSTFMT W H: the raw frame IN through the same videoconvert
# as the element's frames.
mp_conv() {
	local f
	f=$(echo "$3" | tr 'A-Z' 'a-z')
	rm -f "$1"
	timeout -k 5 60 gst-launch-1.0 -q filesrc location="$2" ! \
		rawvideoparse format="$f" width="$4" height="$5" ! videoconvert ! \
		video/x-raw,format="$(mp_to "$3")" ! filesink location="$1" > "$1.log" 2>&1
}

# mp_copy_ok LOG PLANES: a frame of several memories into filesink (no
# GstVideoMeta) is copied once, counted; a one-plane frame is not.
mp_copy_ok() {
	if [ "$2" -gt 1 ]; then grep -q 'copied' "$1"; else ! grep -q 'copied' "$1"; fi
}

# mp_format DEV GSTFMT FOURCC PLANES W H: the checks of one format and size.
mp_format() {
	local dev=$1 gfmt=$2 fcc=$3 planes=$4 w=$5 h=$6 caps b msg ref a vc v4 dm rc to
	caps="video/x-raw,format=$gfmt,width=$w,height=$h"
	b="$MP_FRAMES/$gfmt-${w}x$h"
	mp_ref "$b.ref" "$dev" "$fcc" "$w" "$h"
	mp_grab "$b.copy" negcamsrc "$dev" "$caps"
	msg=$(grep -m1 'negcam-negotiated' "$b.copy.log")
	case "$msg" in
	*"fourcc=(string)$fcc,"*"planes=(uint)$planes,"*) ;;
	*) fail "mplane $gfmt ${w}x$h: negcamsrc did not set $fcc with $planes planes: ${msg:-no message} (log $b.copy.log)"; return ;;
	esac
	ref=$(md5 "$b.ref") a=$(md5 "$b.copy")
	if [ -n "$ref" ] && [ "$a" = "$ref" ] && mp_copy_ok "$b.copy.log" "$planes"; then
		pass "mplane $gfmt ${w}x$h: $fcc, $planes planes; frame into filesink = v4l2-ctl's ($a, $(stat -c %s "$b.copy") bytes$([ "$planes" -gt 1 ] && echo ', copied once: no GstVideoMeta there'))"
	else
		fail "mplane $gfmt ${w}x$h: filesink frame $a, v4l2-ctl's $ref (logs $b.copy.log, $b.ref.log)"
	fi
	mp_conv "$b.refc" "$b.ref" "$gfmt" "$w" "$h"
	to="video/x-raw,format=$(mp_to "$gfmt")"
	mp_grab "$b.vc" negcamsrc "$dev" "$caps" -- videoconvert ! "$to"
	mp_grab "$b.dm" negcamsrc "$dev" "$caps" io-mode=dmabuf -- videoconvert ! "$to"
	ref=$(md5 "$b.refc") vc=$(md5 "$b.vc") dm=$(md5 "$b.dm")
	if [ -n "$ref" ] && [ "$vc" = "$ref" ] && [ "$dm" = "$ref" ] && ! grep -q 'copied' "$b.vc.log" "$b.dm.log"; then
		pass "mplane $gfmt ${w}x$h: through videoconvert, no copy: negcamsrc = io-mode=dmabuf = v4l2-ctl's frame converted alike ($vc)"
	else
		fail "mplane $gfmt ${w}x$h: through videoconvert negcamsrc $vc, dmabuf $dm, v4l2-ctl's converted $ref (logs $b.vc.log, $b.dm.log)"
	fi
	MP_TIMEOUT=40 mp_grab "$b.v4" v4l2src "$dev" "$caps" -- videoconvert ! "$to"
	rc=$? v4=$(md5 "$b.v4")
	if [ -n "$v4" ] && [ "$v4" = "$vc" ]; then
		pass "mplane $gfmt ${w}x$h: v4l2src on the same node and caps gives the same frame ($v4; it set $(v4l2-ctl -d "$dev" --get-fmt-video | sed -n "s/.*Pixel Format *: *'\([^']*\)'.*/\1/p"))"
	elif [ -z "$v4" ]; then
		note "mplane $gfmt ${w}x$h: v4l2src gave no frame (exit $rc, log $b.v4.log)"
		SUMMARY+=("mplane: $gfmt ${w}x$h: v4l2src gave no frame within 40 s (exit $rc)")
	else
		fail "mplane $gfmt ${w}x$h: v4l2src's frame $v4, negcamsrc's $vc (logs $b.v4.log, $b.vc.log)"
	fi
}

# mp_requests DEV: requests before STREAMON for NV12 640x360, negcamsrc
# (its request log) against v4l2src (strace).
mp_requests() {
	local dev=$1 log tr ours theirs caps=video/x-raw,format=NV12,width=640,height=360
	log=$(logname "requests negcamsrc") tr=$(logname "requests v4l2src strace")
	# level 6: QBUF and DQBUF are logged one level below the others
	GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" GST_DEBUG=negcamsrc:6,negcamdevice:6 GST_DEBUG_NO_COLOR=1 \
		timeout -k 5 120 gst-launch-1.0 negcamsrc device="$dev" num-buffers=1 ! \
		"$caps" ! fakesink > "$log" 2>&1
	ours=$(awk '/negcam_device_ioctl:/ { if (/ VIDIOC_STREAMON:/) exit; n++ } END { print n + 0 }' "$log")
	if ! command -v strace > /dev/null; then
		skip "mplane requests: no strace (negcamsrc $ours)"; return
	fi
	timeout -k 5 120 strace -f -e trace=ioctl -o "$tr" gst-launch-1.0 v4l2src \
		device="$dev" num-buffers=1 ! "$caps" ! fakesink > /dev/null 2>&1
	# (vivid has a control named "Inject VIDIOC_STREAMON Error")
	theirs=$(awk '/ioctl\(/ { if (/ioctl\([0-9]+, VIDIOC_STREAMON,/) exit; n++ } END { print n + 0 }' "$tr")
	SUMMARY+=("mplane: NV12 640x360 before STREAMON: negcamsrc $ours requests, v4l2src $theirs ioctls")
	if [ "$ours" -gt 0 ] && [ "$ours" -lt "$theirs" ]; then
		pass "mplane requests before STREAMON (NV12 640x360): negcamsrc $ours, v4l2src $theirs"
	else
		fail "mplane requests before STREAMON: negcamsrc $ours, v4l2src $theirs (logs $log, $tr)"
	fi
}

# mp_ffmpeg DEV: ffmpeg's v4l2 input on the node, noted.
mp_ffmpeg() {
	local log rc
	log=$(logname "ffmpeg")
	timeout -k 5 60 ffmpeg -hide_banner -f v4l2 -input_format nv12 -video_size 640x360 \
		-i "$1" -frames:v 1 -f rawvideo -y "$MP_FRAMES/ffmpeg.nv12" > "$log" 2>&1
	rc=$?
	note "ffmpeg -f v4l2 on the multiplanar node: exit $rc: $(grep -m1 -iE 'error|not a video|cannot|invalid' "$log")"
	SUMMARY+=("mplane: ffmpeg -f v4l2 NV12 640x360: exit $rc (noted, not judged)")
}

# mp_provider DEV: negcamdeviceprovider, asked for nodes, lists the
# multiplanar node for negcamsrc, with caps.
mp_provider() {
	local log
	log=$(logname "provider")
	GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" NEGCAM_PROVIDER_NODES=1 timeout -k 5 120 \
		gst-device-monitor-1.0 Video/Source > "$log" 2>&1
	if grep -q "device.path = $1" "$log" && grep -q "negcamsrc device=$1" "$log"; then
		pass "device provider lists the multiplanar node $1 for negcamsrc"
	else
		fail "device provider does not list the multiplanar node $1 (log $log)"
	fi
}

# The whole part: vivid reloaded multiplanar, the checks, vivid back.
suite_mplane_checks() {
	local mp f s g c p
	mkdir -p "$MP_FRAMES"
	rmmod vivid 2> /dev/null
	if ! check "modprobe vivid n_devs=1 node_types=0x1 multiplanar=2" 60 \
		modprobe vivid n_devs=1 node_types=0x1 multiplanar=2; then
		modprobe vivid n_devs=1 node_types=0x1
		return
	fi
	mp=$(wait_node vivid) || { fail "mplane: no vivid node"; return; }
	if v4l2-ctl -d "$mp" -D | grep -q 'Video Capture Multiplanar'; then
		pass "vivid $mp is a multiplanar capture node"
	else
		fail "vivid $mp: no Video Capture Multiplanar in its device caps"
	fi
	v4l2-ctl -d "$mp" -c osd_text_mode=2 || fail "mplane: vivid's OSD text could not be turned off"
	for s in $MP_SIZES; do
		for f in NV12:NM12:2 I420:YM12:3 YUY2:YUYV:1; do
			IFS=: read -r g c p <<< "$f"
			mp_format "$mp" "$g" "$c" "$p" "${s%x*}" "${s#*x}"
		done
	done
	mp_requests "$mp"
	gst_device_test "vivid multiplanar: caps filters valid, frames, dma-buf" 400 \
		"$mp" "" test_filters,test_frames,test_dmabuf
	mp_provider "$mp"
	mp_ffmpeg "$mp"
	dmesg_peer "negcamsrc on vivid multiplanar" vivid
	rmmod vivid 2> /dev/null
	modprobe vivid n_devs=1 node_types=0x1
}
