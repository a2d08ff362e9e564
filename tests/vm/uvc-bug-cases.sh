# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The uvc suite's cases for firmware bugs and faults (sourced by
# tests/vm/uvc-suite.sh; docs/uvc.md "Firmware bugs", docs/faults.md):
#   case_firmware_bugs: each 'uvc-bugs' name served twice behind uvcvideo,
#     under the USB id uvcvideo's table matches (its quirk applied) and under
#     negcam's own id (no quirk), or with the module's `quirks` parameter
#     when the table has no entry; what uvcvideo did each time (S_FMT,
#     G_FMT, intervals, frames, bytesused, its kernel log) is measured,
#     printed as a table row (UVC-BUG lines, also $OUT/uvc-bugs.txt) and
#     checked against what the quirk is for.
#   case_uvc_faults: 'fault seed 7', 'fault drop 10%', 'fault unplug 4s' on
#     the frame path: uvcvideo's sequence gaps are the engine's frames, and
#     the unplug is a USB disconnect: the node goes, the reader gets ENODEV.
# Long (two attaches a bug under TCG): make test-uvc-bugs, or
#   tests/vm/run.sh tests/vm/uvc-suite.sh case_firmware_bugs case_uvc_faults

QPARAM=/sys/module/uvcvideo/parameters/quirks

# bug_cam TAG USBID BUGS FORMAT[,FORMAT...] WxH [FAULTS...]: a profile of
# one size (30, 15 and 5 fps) a format with those bugs, attached; NODE,
# CAM_PID set.
bug_cam() {
	local tag=$1 id=$2 bugs=$3 fmt=$4 size=$5 prof=$OUT/bug-$1.profile log=$OUT/bug-$1.log i f
	shift 5
	{
		echo "name bug-$tag"
		[ "$id" = - ] || echo "usb-id $id"
		[ "$bugs" = - ] || echo "uvc-bugs $bugs"
		for f in "$@"; do echo "fault $f"; done
		for f in ${fmt//,/ }; do
			echo "format $f"
			echo "size $size fps 30 15 5"
		done
	} > "$prof"
	"$UVC" --profile "$prof" > "$log" 2>&1 &
	CAM_PID=$!
	NODE=''
	for i in $(seq 200); do
		NODE=$(nodes_of_driver uvcvideo | head -n1)
		[ -n "$NODE" ] && break
		kill -0 "$CAM_PID" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$NODE" ] || { sed 's/^/  | /' "$log"; return 1; }
}

# g_fmt: the node's G_FMT into M_PIX, M_SIZE, M_W, M_H.
g_fmt() {
	local fmt
	fmt=$(v4l2-ctl -d "$NODE" --get-fmt-video 2>/dev/null)
	M_PIX=$(echo "$fmt" | sed -n "s/.*Pixel Format *: '\([^']*\)'.*/\1/p")
	M_W=$(echo "$fmt" | sed -n 's/.*Width\/Height *: \([0-9]*\)\/.*/\1/p')
	M_H=$(echo "$fmt" | sed -n 's/.*Width\/Height *: [0-9]*\/\([0-9]*\).*/\1/p')
	M_SIZE=${M_W}x$M_H
}

# measure TAG [PIX]: what uvcvideo does with the camera at NODE, into M_*
# (S_FMT of the format G_FMT gives, or of PIX, then G_FMT; intervals
# listed; 10 frames asked under a 15 s limit; the distinct bytesused).
measure() {
	local log=$OUT/bug-$1-stream.log fmt
	g_fmt
	M_INTERVALS=$(v4l2-ctl -d "$NODE" --list-formats-ext 2>/dev/null | grep -c 'Interval:')
	if v4l2-ctl -d "$NODE" --set-fmt-video "width=$M_W,height=$M_H,pixelformat=${2:-$M_PIX}" > "$log.fmt" 2>&1; then
		M_SFMT=ok
	else
		M_SFMT="failed ($(tr '\n' ' ' < "$log.fmt" | cut -c1-60))"
	fi
	g_fmt
	fmt=$(v4l2-ctl -d "$NODE" --get-fmt-video 2>/dev/null)
	M_BPL=$(echo "$fmt" | sed -n 's/.*Bytes per Line *: \([0-9]*\).*/\1/p')
	M_SIZEIMAGE=$(echo "$fmt" | sed -n 's/.*Size Image *: \([0-9]*\).*/\1/p')
	timeout 15 v4l2-ctl -d "$NODE" --verbose --stream-mmap --stream-count=10 > "$log" 2>&1
	M_FRAMES=$(grep -c 'dqbuf:' "$log")
	M_BYTES=$(sed -n 's/.*bytesused: *\([0-9]*\).*/\1/p' "$log" | sort -un | head -n3 | tr '\n' ' ')
	M_STREAM=$(grep -oE 'VIDIOC_[A-Z_]+: failed: [A-Za-z ]+' "$log" | head -n1)
}

# bug_run TAG MODE USBID QUIRKS BUGS FORMAT WxH [PIX]: attach, measure (S_FMT
# PIX), detach; one UVC-BUG line. QUIRKS: the module parameter (-1:
# uvcvideo's table).
bug_run() {
	local tag=$1 mode=$2 d0 line
	M_SKIP=
	# UVC_BUGS_ONLY="tag ...": only those (a shorter run)
	case " ${UVC_BUGS_ONLY:-$tag} " in *" $tag "*) ;; *) M_SKIP=1; return 0 ;; esac
	# the parameter is unsigned: -1 (the table's quirks) is 4294967295
	if [ "$4" = -1 ]; then echo 4294967295; else printf '%d\n' "$4"; fi > "$QPARAM"
	d0=$(dmesg | wc -l)
	if ! bug_cam "$tag-$mode" "$3" "$5" "$6" "$7"; then
		fail "$tag ($mode): no uvcvideo node"; stop_cam KILL; return 1
	fi
	measure "$tag-$mode" "${8:-}"
	stop_cam INT || { fail "$tag ($mode): negcam-uvc still runs"; stop_cam KILL; }
	no_uvc_node || fail "$tag ($mode): the node stayed"
	M_KLOG=$(dmesg | tail -n +$((d0 + 1)) | grep -E 'uvcvideo|UVC' | grep -vE 'Found UVC|USB Video Class|input:|resubmit video URB' |
		sed 's/^\[[^]]*\] //' | sort -u | head -n3 | tr '\n' ';')
	line="$tag | $mode ($3, quirks=$4) | $M_PIX $M_SIZE | S_FMT $M_SFMT | bpl $M_BPL sizeimage $M_SIZEIMAGE | intervals $M_INTERVALS | frames $M_FRAMES/10 | bytesused ${M_BYTES:--} | ${M_STREAM:-} | ${M_KLOG:-}"
	echo "UVC-BUG: $line"
	echo "$line" >> "$OUT/uvc-bugs.txt"
}

# expect_m NAME COND...: pass or fail on a test of the last measure's M_* values.
expect_m() {
	local name=$1
	shift
	[ -z "$M_SKIP" ] || return 0
	if "$@"; then pass "$name"; else fail "$name (frames $M_FRAMES, S_FMT $M_SFMT, $M_PIX $M_SIZE, bpl $M_BPL, intervals $M_INTERVALS)"; fi
}

case_firmware_bugs() {
	M_FRAMES= M_SFMT= M_PIX= M_SIZE= M_BPL= M_SIZEIMAGE= M_INTERVALS= M_BYTES= M_KLOG= M_STREAM= M_SKIP=
	: > "$OUT/uvc-bugs.txt"
	# tag, bug, the id in uvcvideo's table (6.1), the quirk's bit, format, size
	bug_run no-fid table 174f:5212 -1 no-fid YUYV 320x240
	expect_m "no-fid under Syntek 174f:5212 (STREAM_NO_FID): 10 frames" [ "$M_FRAMES" = 10 ]
	bug_run no-fid none - 0 no-fid YUYV 320x240
	expect_m "no-fid without the quirk: at most one frame in 15 s" [ "$M_FRAMES" -le 1 ]

	bug_run minmax table 045e:00f8 -1 probe-no-minmax YUYV 320x240
	expect_m "probe-no-minmax under 045e:00f8 (PROBE_MINMAX): S_FMT and 10 frames" \
		[ "$M_SFMT" = ok ] && [ "$M_FRAMES" = 10 ]
	bug_run minmax none - 0 probe-no-minmax YUYV 320x240
	expect_m "probe-no-minmax without the quirk: S_FMT fails" [ "$M_SFMT" != ok ]

	bug_run def table 045e:0721 -1 probe-no-def YUYV 320x240
	expect_m "probe-no-def under 045e:0721 (PROBE_DEF): 10 frames, no GET_DEF warning" \
		[ "$M_FRAMES" = 10 ] && ! echo "$M_KLOG" | grep -q 'GET_DEF'
	bug_run def none - 0 probe-no-def YUYV 320x240
	expect_m "probe-no-def without the quirk: the GET_DEF(PROBE) workaround logged, 10 frames" \
		[ "$M_FRAMES" = 10 ] && echo "$M_KLOG" | grep -q 'GET_DEF'

	bug_run extrafields table 18cd:cafe -1 probe-needs-max-frame YUYV 320x240
	expect_m "probe-needs-max-frame under 18cd:cafe (PROBE_EXTRAFIELDS): S_FMT and 10 frames" \
		[ "$M_SFMT" = ok ] && [ "$M_FRAMES" = 10 ]
	bug_run extrafields none - 0 probe-needs-max-frame YUYV 320x240
	expect_m "probe-needs-max-frame without the quirk: S_FMT fails" [ "$M_SFMT" != ok ]

	# 6.1.192 clamps a payload size above the largest alt to it, with a warning;
	# FIX_BANDWIDTH replaces the camera's value by its own estimate first
	bug_run bandwidth table 06f8:300c -1 bandwidth-over YUYV 320x240
	expect_m "bandwidth-over under 06f8:300c (FIX_BANDWIDTH): 10 YUYV frames, no warning" \
		[ "$M_FRAMES" = 10 ] && ! echo "$M_KLOG" | grep -q 'exceeds the size'
	bug_run bandwidth none - 0 bandwidth-over YUYV 320x240
	expect_m "bandwidth-over without the quirk: the non-compliance warning, the largest alt, 10 frames" \
		[ "$M_FRAMES" = 10 ] && echo "$M_KLOG" | grep -q 'exceeds the size'
	bug_run bandwidth-mjpeg table 06f8:300c -1 bandwidth-over MJPG 320x240
	expect_m "bandwidth-over on MJPEG: the warning even with FIX_BANDWIDTH (uncompressed only)" \
		echo "$M_KLOG" | grep -q 'exceeds the size'

	bug_run rate table 04f2:b071 -1 rate-ignored YUYV 320x240
	expect_m "rate-ignored under 04f2:b071 (RESTRICT_FRAME_RATE): one interval listed" [ "$M_INTERVALS" = 1 ]
	bug_run rate none - 0 rate-ignored YUYV 320x240
	expect_m "rate-ignored without the quirk: the three listed" [ "$M_INTERVALS" = 3 ]

	bug_run y8 table 2833:0201 -1 y8-as-yuyv GREY 640x480
	expect_m "y8-as-yuyv under Oculus 2833:0201 (FORCE_Y8): GREY 640x480, 307200 bytes" \
		[ "$M_PIX $M_SIZE" = "GREY 640x480" ] && [ "$M_BYTES" = "307200 " ]
	bug_run y8 none - 0 y8-as-yuyv GREY 640x480
	expect_m "y8-as-yuyv without the quirk: YUYV 320x480" [ "$M_PIX $M_SIZE" = "YUYV 320x480" ]

	bug_run bpp table 29fe:4d53 -1 wrong-bpp YUYV 320x240
	expect_m "wrong-bpp under GEO 29fe:4d53 (FORCE_BPP): bytesperline 640" [ "$M_BPL" = 640 ]
	bug_run bpp none - 0 wrong-bpp YUYV 320x240
	expect_m "wrong-bpp without the quirk: bytesperline 320" [ "$M_BPL" = 320 ]

	# not in 6.1's table: the module parameter sets the quirk
	bug_run noeof none 0c45:6366 -1 mjpeg-no-eof MJPG 320x240
	expect_m "mjpeg-no-eof under Sonix 0c45:6366 (no entry in 6.1): 10 frames, ended by FID" [ "$M_FRAMES" = 10 ]
	bug_run noeof param - 0x20000 mjpeg-no-eof MJPG 320x240
	# the FID toggle (with empty packets between frames) ends each frame first:
	# the quirk's SOI check never fires
	expect_m "mjpeg-no-eof with quirks=0x20000: 10 frames as well" [ "$M_FRAMES" = 10 ]

	# not a quirk bit: uvc_fixup_video_ctrl() matches the Cam Link 4K's id itself
	bug_run camlink table 0fd9:0066 -1 probe-format-in-hint YUYV,NV12 320x240 NV12
	expect_m "probe-format-in-hint under Elgato 0fd9:0066 (its probe fix): S_FMT NV12 gives NV12, 10 frames" \
		[ "$M_PIX" = NV12 ] && [ "$M_FRAMES" = 10 ]
	bug_run camlink none - 0 probe-format-in-hint YUYV,NV12 320x240 NV12
	expect_m "probe-format-in-hint without the fix: S_FMT NV12 gives YUYV" [ "$M_PIX" = YUYV ]

	bug_run maxframe none - 0 max-frame-small MJPG 320x240
	expect_m "max-frame-small (no quirk): sizeimage 1024, no frame (each overflows)" \
		[ "$M_SIZEIMAGE" = 1024 ] && [ "$M_FRAMES" = 0 ]
	echo 4294967295 > "$QPARAM"
}

# Faults on the frame path, and the unplug as a USB disconnect.
case_uvc_faults() {
	local log=$OUT/faults-stream.log t0 rc gaps ndisc
	ndisc=$(dmesg | grep -c 'USB disconnect')
	bug_cam faults - - YUYV 320x240 "seed 7" "drop 10%" "unplug 4s" ||
		{ fail "faults: no uvcvideo node"; stop_cam KILL; return; }
	t0=$(now)
	timeout 60 v4l2-ctl -d "$NODE" --verbose --stream-mmap --stream-count=100000 > "$log" 2>&1
	rc=$?
	gaps=$(sed -n 's/.*seq: *\([0-9]*\).*/\1/p' "$log" | awk 'NR > 1 && $1 != p + 1 { printf "%s%d", s, p + 1; s = "," } { p = $1 }')
	note "faults: $(grep -c 'dqbuf:' "$log") frames, lost after: $gaps; v4l2-ctl status $rc after $(secs_since "$t0")s"
	# the engine's lost frames (seed 7: 4, 6, 47, 58, 59) must all be gaps; a
	# frame uvcvideo had no buffer for under TCG would be one more
	local n miss=
	for n in 4 6 47 58; do
		case ",$gaps," in *",$n,"*) ;; *) miss="$miss $n" ;; esac
	done
	[ -z "$miss" ] && pass "seed 7, drop 10%: uvcvideo's sequence gaps at frames $gaps (the engine's 4, 6, 47, 58-59)" ||
		fail "seed 7, drop 10%: gaps at '$gaps', missing$miss"
	# v4l2-ctl 1.22 says "do_handle_cap: qbuf error" without the errno, or
	# "VIDIOC_DQBUF: failed: Invalid argument" when uvcvideo's disconnect
	# has already cancelled the queue (seen in make test, 2026-12-07)
	grep -qE 'No such device|qbuf error|dqbuf error|VIDIOC_DQBUF: failed' "$log" &&
		pass "unplug 4s: the reader's stream ended with an error: $(grep -oE 'No such device|[dq]buf error|VIDIOC_DQBUF: failed.*' "$log" | head -n1)" ||
		fail "unplug 4s: the reader did not fail ($(tail -n1 "$log"))"
	no_uvc_node && pass "unplug: the /dev/video node is gone" || fail "unplug: the node stayed"
	[ "$(dmesg | grep -c 'USB disconnect')" -gt "$ndisc" ] && pass "unplug: the kernel saw a USB disconnect" ||
		fail "unplug: no USB disconnect in dmesg"
	stop_cam KILL
	no_uvc_node || fail "unplug: a node stayed"
	# ffmpeg names the errno
	bug_cam unplug - - YUYV 320x240 "unplug 3s" || { fail "unplug: no uvcvideo node"; stop_cam KILL; return; }
	timeout 60 ffmpeg -hide_banner -nostdin -f v4l2 -i "$NODE" -f null - > "$OUT/unplug-ffmpeg.log" 2>&1
	grep -q 'No such device' "$OUT/unplug-ffmpeg.log" &&
		pass "unplug 3s: ffmpeg got ENODEV: $(grep -m1 'No such device' "$OUT/unplug-ffmpeg.log")" ||
		fail "unplug 3s: ffmpeg: $(tail -n1 "$OUT/unplug-ffmpeg.log")"
	grep -q 'unplugged (fault unplug)' "$OUT/bug-unplug.log" && pass "unplug: negcam-uvc said so and ended" ||
		fail "unplug: negcam-uvc: $(tail -n1 "$OUT/bug-unplug.log")"
	stop_cam KILL
}
