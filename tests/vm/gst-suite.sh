# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=bash
#
# negcamsrc on real devices (issue 5), sourced by suites.sh; runs in the VM.
# The checks are tests/gst/test_negcamsrc_device.c (built on the host in
# $NEGCAM_BUILD), one gst-check test at a time (GST_CHECKS):
#   negcam.ko, every built-in profile (quick: webcam vga stepwise tv-tuner;
#     full: all of negcam-ctl --list-profiles): the caps-filter list of the embedded
#     tests negotiates to the same caps through the kernel backend as in
#     process; frames read back by number after videoconvert, driver
#     timestamps attached.
#   negcam.ko webcam and vivid: dma-buf buffers, 50 caps changes while
#     playing (half of them with a device buffer held downstream), a slow
#     consumer at 1080p (0 copies) next to v4l2src on the same device.
#   negcam.ko: simulated unplug while playing (error names the device, no
#     crash, no leaked object or descriptor; GST_TRACERS=leaks).
#   vivid: the filter list gives valid results within each filter;
#     videoscale before a 320x180 filter negotiates 320x180 (downstream's
#     first structure), v4l2src noted; image/jpeg (nothing matches) costs
#     at most a fifth of v4l2src's ioctls.
#   negcamsink on vivid's video output node (tests/vm/sink-suite.sh).
#   negcamsrc on vivid's multiplanar node (tests/vm/mplane-suite.sh).

GST_TEST=$NEGCAM_BUILD/tests/gst/test_negcamsrc_device
GST_SLOW_FRAMES=${NEGCAM_GST_SLOW_FRAMES:-30}
# the consumer takes 300 ms a frame; 1080p YUYV runs at 5 fps on both devices
GST_SLOW_SLEEP=${NEGCAM_GST_SLOW_SLEEP:-300000}

# gst_device_test NAME TIMEOUT DEVICE PROFILE TESTS [ENV...]: one run of
# the device test; its summary lines ("filters:", "slow-consumer:" ...) are
# shown and kept for the suite summary.
gst_device_test() {
	local name=$1 to=$2 dev=$3 prof=$4 tests=$5 log; shift 5
	log=$(logname "$name")
	if check "$name" "$to" env GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" \
		NEGCAM_TEST_DEVICE="$dev" NEGCAM_TEST_PROFILE="$prof" GST_CHECKS="$tests" \
		"$@" "$GST_TEST"; then
		grep -E '^(filters|frames|slow-consumer|renegotiate|unplug):' "$log" | sed 's/^/  /'
	fi
	grep -E '^slow-consumer:' "$log" >> "$GST_NUMBERS"
}

# v4l2src on the same device and consumer: frames, and copies counted from
# its pool's "copy buffer" log lines (v4l2bufferpool at LOG level).
v4l2src_slow() {
	local dev=$1 log n copies lost lat
	log=$(logname "v4l2src slow consumer $dev")
	GST_DEBUG=v4l2bufferpool:6,v4l2src:5 GST_DEBUG_NO_COLOR=1 timeout -k 5 180 \
		gst-launch-1.0 -q v4l2src device="$dev" num-buffers="$GST_SLOW_FRAMES" ! \
		video/x-raw,format=YUY2,width=1920,height=1080 ! queue ! \
		identity sleep-time="$GST_SLOW_SLEEP" ! fakesink > "$log" 2>&1
	n=$?
	copies=$(grep -c 'copy buffer' "$log")
	# v4l2src warns "lost frames detected: count = N" per gap
	lost=$(sed -n 's/.*lost frames detected: count = \([0-9]*\).*/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
	lat=$(grep 'report latency min' "$log" | tail -n1 | sed 's/.*report latency //')
	echo "slow-consumer: v4l2src $dev 1920x1080 YUY2, consumer $GST_SLOW_SLEEP us/frame: exit $n, $GST_SLOW_FRAMES frames, $copies copies (v4l2bufferpool 'copy buffer' lines), $lost lost (its warnings), latency $lat" >> "$GST_NUMBERS"
	note "v4l2src on $dev: $copies copies of $GST_SLOW_FRAMES frames, $lost lost, latency $lat"
	[ $n = 0 ] && pass "v4l2src slow consumer on $dev ran (for comparison)" ||
		fail "v4l2src slow consumer on $dev: exit $n (log $log)"
}

# gst_alternate NAME DEV ELEMENT STRICT: ELEMENT (negcamsrc or v4l2src) on
# DEV, whose current field is V4L2_FIELD_ALTERNATE, through the filter
# video/x-raw(format:Interlaced),interlace-mode=alternate: the caps carry the
# frame height (twice G_FMT's), each buffer is one field of G_FMT's
# sizeimage, TOP and BOTTOM alternate (GST_VIDEO_BUFFER_FLAG_TOP_FIELD =
# 0xa00000 of the flag word, BOTTOM_FIELD 0x800000) and a buffer lasts half
# the frame interval. STRICT 1 judges (negcamsrc), 0 notes (v4l2src).
gst_alternate() {
	local name=$1 dev=$2 elem=$3 strict=$4 log h size caps sizes flags want got dur order
	log=$(logname "$name")
	GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" timeout -k 5 120 gst-launch-1.0 -v "$elem" device="$dev" \
		num-buffers=8 ! 'video/x-raw(format:Interlaced),interlace-mode=alternate' ! \
		fakesink silent=false > "$log" 2>&1
	# the format the element set (G_FMT outlives the pipeline)
	h=$(v4l2-ctl -d "$dev" --get-fmt-video | sed -n 's|.*Width/Height *: *[0-9]*/\([0-9]*\).*|\1|p')
	size=$(v4l2-ctl -d "$dev" --get-fmt-video | sed -n 's/.*Size Image *: *\([0-9]*\).*/\1/p')
	caps=$(grep -m1 'fakesink0.GstPad:sink: caps = ' "$log")
	sizes=$(grep 'chain' "$log" | sed -n 's/.*(\([0-9]*\) bytes.*/\1/p' | sort -u | tr '\n' ' ')
	flags=$(grep 'chain' "$log" | sed -n 's/.*flags: \([0-9a-f]*\).*/\1/p' |
		while read -r f; do printf '%x ' $((0x$f & 0xa00000)); done)
	dur=$(grep 'chain' "$log" | sed -n 's/.*duration: \([0-9:.]*\).*/\1/p' | sort -u | tr '\n' ' ')
	want="height=(int)$((2 * h))"
	got="caps ${caps:+$(echo "$caps" | grep -o 'width=(int)[0-9]*'), $(echo "$caps" | grep -o 'height=(int)[0-9]*'), $(echo "$caps" | grep -o 'interlace-mode=(string)[a-z]*')}; buffers of ${sizes:-none}bytes (G_FMT after: ${h} lines, $size bytes); field flags ${flags:-none}; durations ${dur:-none}"
	if [ "$strict" = 0 ]; then
		note "$name (for comparison): $got"
		SUMMARY+=("gst: $name: $got")
		return
	fi
	case "$caps" in
	*"$want"*interlace-mode=\(string\)alternate*|*interlace-mode=\(string\)alternate*"$want"*) ;;
	*) fail "$name: caps '$caps', want $want and interlace-mode alternate (log $log)"; return ;;
	esac
	[ "$sizes" = "$size " ] || { fail "$name: buffer sizes '$sizes', want one field, $size (log $log)"; return; }
	# offset = the frame's sequence, shared by its two fields: 2 x offset
	# (+1 for BOTTOM) must grow buffer by buffer. A driver late under TCG
	# loses fields (vivid then gives TOP, TOP), and the numbers show it.
	order=$(grep 'chain' "$log" | sed -n 's/.*offset: \([0-9]*\),.*flags: \([0-9a-f]*\).*/\1 \2/p' |
		{ n=0 last=-1 t=0 b=0 bad=
		while read -r off fl; do
			n=$((n + 1)) f=$((0x$fl & 0xa00000)) k=$((2 * off))
			[ $f = $((0x800000)) ] && k=$((k + 1)) b=1
			[ $f = $((0xa00000)) ] && t=1
			if [ $f != $((0xa00000)) ] && [ $f != $((0x800000)) ]; then bad="$bad not-a-field@$n"
			elif [ $k -le $last ]; then bad="$bad out-of-order@$n"; fi
			last=$k
		done
		[ $t = 1 ] && [ $b = 1 ] || bad="$bad missing-top-or-bottom"
		echo "${bad:-ok}"; })
	[ "$order" = ok ] || { fail "$name: field flags '$flags' ($order), want TOP (a00000) and BOTTOM (800000) in stream order (log $log)"; return; }
	case "$flags" in
	"a00000 800000 a00000 800000 a00000 800000 a00000 800000 "|"800000 a00000 800000 a00000 800000 a00000 800000 a00000 ") ;;
	*) note "$name: fields lost on the way (the driver missed slots): $flags" ;;
	esac
	pass "$name: $got"
	SUMMARY+=("gst: $name: $got")
}

# gst_downstream_size NAME DEV W H: negcamsrc, then v4l2src, on DEV
# through videoscale ! videoconvert ! video/x-raw,format=I420,width=W,height=H
# (W x H a size DEV offers, not its current one): downstream lists W x H
# first, so the source negotiates W x H instead of having it scaled.
# negcamsrc is judged, v4l2src (which fixates from downstream's first
# structure too) noted next to it.
gst_downstream_size() {
	local name=$1 dev=$2 w=$3 h=$4 elem log caps got
	for elem in v4l2src negcamsrc; do
		log=$(logname "$name $elem")
		GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" timeout -k 5 120 gst-launch-1.0 -v "$elem" \
			device="$dev" num-buffers=2 ! videoscale ! videoconvert ! \
			"video/x-raw,format=I420,width=$w,height=$h" ! fakesink > "$log" 2>&1
		caps=$(grep -m1 "${elem}0.GstPad:src: caps = " "$log")
		got="$(echo "$caps" | grep -o 'width=(int)[0-9]*') $(echo "$caps" | grep -o 'height=(int)[0-9]*')"
		if [ "$elem" = v4l2src ]; then
			note "$name: v4l2src negotiated $got (for comparison)"
			SUMMARY+=("gst: $name: v4l2src $got")
		elif [ "$got" = "width=(int)$w height=(int)$h" ]; then
			pass "$name: negcamsrc negotiated ${w}x$h, the size downstream lists first"
			SUMMARY+=("gst: $name: negcamsrc $got")
		else
			fail "$name: negcamsrc negotiated '$got', want ${w}x$h (log $log)"
		fi
	done
}

# gst_unmatched_cost NAME DEV: a filter nothing on DEV matches
# (image/jpeg on vivid): negcamsrc's requests until the error (its debug
# log has a line per request) must be at most a fifth of v4l2src's ioctls
# (strace) on the same node.
gst_unmatched_cost() {
	local name=$1 dev=$2 log tr ours theirs
	log=$(logname "$name negcamsrc")
	tr=$(logname "$name v4l2src strace")
	GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" GST_DEBUG=negcamsrc:5,negcamdevice:5 GST_DEBUG_NO_COLOR=1 \
		timeout -k 5 120 gst-launch-1.0 negcamsrc device="$dev" num-buffers=1 ! \
		image/jpeg ! fakesink > "$log" 2>&1
	ours=$(grep -c 'negcam_device_ioctl:' "$log")
	grep -q 'cannot produce any format downstream accepts' "$log" ||
		{ fail "$name: negcamsrc did not refuse image/jpeg (log $log)"; return; }
	if ! command -v strace > /dev/null; then
		note "$name: negcamsrc $ours requests; no strace for v4l2src's count"
		pass "$name: negcamsrc refused in $ours requests"
		return
	fi
	timeout -k 5 120 strace -f -e trace=ioctl -o "$tr" gst-launch-1.0 v4l2src \
		device="$dev" num-buffers=1 ! image/jpeg ! fakesink > /dev/null 2>&1
	theirs=$(grep -c 'ioctl(' "$tr")
	SUMMARY+=("gst: $name: negcamsrc $ours requests, v4l2src $theirs ioctls")
	if [ $((ours * 5)) -le "$theirs" ]; then
		pass "$name: negcamsrc $ours requests, at most a fifth of v4l2src's $theirs"
	else
		fail "$name: negcamsrc $ours requests, more than a fifth of v4l2src's $theirs (log $log)"
	fi
}

suite_gst() {
	local mode=${1:-quick} profiles p dev node attr viv d line
	suite_begin gst
	GST_NUMBERS=$LOGDIR/gst-numbers.txt
	: > "$GST_NUMBERS"
	if [ ! -f "$NEGCAM_BUILD/gst/libgstnegcam.so" ]; then
		skip "the GStreamer plugin is not built in $NEGCAM_BUILD (meson -Dgst=disabled or GStreamer missing): gst suite skipped"
		suite_end; return
	fi
	if [ ! -x "$GST_TEST" ]; then
		fail "$GST_TEST missing (gstreamer-check-1.0 dev files?): build it (ninja -C ${NEGCAM_BUILD##*/})"
		suite_end; return
	fi
	if [ ! -f "$KO" ]; then
		skip "kmod/negcam.ko is not built: negcam.ko part skipped"
	else
		[ -d /sys/module/negcam ] && negcam_unload
		# quick: webcam and stepwise, a discrete and a ranged profile (vga
		# and tv-tuner, few modes and the 2007 quirks, left to full for make
		# test's 30 minutes); full: every built-in profile (the real-camera
		# ones add ~3 minutes)
		if [ "$mode" = full ]; then
			profiles=${NEGCAM_VM_PROFILES:-$("$CTL" --list-profiles | awk 'NF == 0 { exit } { print $1 }')}
		else
			profiles=${NEGCAM_VM_PROFILES:-webcam stepwise}
		fi
		note "profiles: $(echo $profiles)"
		for p in $profiles; do
			check "insmod negcam.ko profile=$p" 60 negcam_load profile="$p" || continue
			dev=$(wait_node negcam) || { fail "$p: no node"; negcam_unload; continue; }
			gst_device_test "negcam $p: caps filters same as embedded, frames by number" 300 \
				"$dev" "$p" test_filters,test_frames
			if [ "$p" = webcam ]; then
				gst_device_test "negcam $p: dma-buf, 50 caps changes" 300 "$dev" "$p" \
					test_dmabuf,test_renegotiate_50
				gst_device_test "negcam $p: frames through libv4l2 (libv4l2=true)" 120 "$dev" "$p" \
					test_frames NEGCAM_TEST_LIBV4L2=1
				gst_device_test "negcam $p: slow consumer 1080p, 0 copies" 300 "$dev" "$p" \
					test_slow_consumer NEGCAM_TEST_SLOW_FRAMES="$GST_SLOW_FRAMES" NEGCAM_TEST_SLEEP_US="$GST_SLOW_SLEEP"
				v4l2src_slow "$dev"
				node=${dev#/dev/}
				attr=
				for d in /sys/devices/platform/negcam.*; do
					[ "$(cat "$d/video_node" 2>/dev/null)" = "$node" ] && attr=$d/unplug
				done
				if [ -n "$attr" ]; then
					gst_device_test "negcam $p: unplug while playing" 120 "$dev" "$p" \
						test_unplug NEGCAM_TEST_UNPLUG="$attr" GST_TRACERS=leaks
				else
					fail "no unplug attribute for $dev"
				fi
			fi
			negcam_unload
			dmesg_clean "gst on negcam $p"
		done
		# one field per buffer: negcamsrc and v4l2src on the same node
		if check "insmod negcam.ko, profile tests/gst/alternate.profile" 60 negcam_load profile=vga &&
			dev=$(wait_node negcam) &&
			cat tests/gst/alternate.profile > /sys/kernel/config/negcam/negcam-0/profile; then
			gst_alternate "negcam alternate: negcamsrc" "$dev" negcamsrc 1
			gst_alternate "negcam alternate: v4l2src" "$dev" v4l2src 0
		else
			fail "negcam alternate: no node or the profile was refused"
		fi
		negcam_unload
		dmesg_clean "gst on negcam alternate"
	fi

	viv=${VIVID:-}
	if [ -z "$viv" ]; then
		modprobe vivid n_devs=1 node_types=0x1 && viv=$(wait_node vivid)
	fi
	if [ -n "$viv" ]; then
		# vivid keeps the last format (negcam suite sets 4K XR24): back to
		# its default so that 1080p YUYV is reachable quickly
		v4l2-ctl -d "$viv" -v width=640,height=360,pixelformat=YUYV > /dev/null 2>&1
		gst_device_test "vivid: caps filters valid, frames, dma-buf, 50 caps changes" 400 \
			"$viv" "" test_filters,test_frames,test_dmabuf,test_renegotiate_50
		gst_device_test "vivid: slow consumer 1080p, 0 copies" 300 "$viv" "" \
			test_slow_consumer NEGCAM_TEST_SLOW_FRAMES="$GST_SLOW_FRAMES" NEGCAM_TEST_SLEEP_US="$GST_SLOW_SLEEP"
		v4l2src_slow "$viv"
		v4l2-ctl -d "$viv" -v width=640,height=360,pixelformat=YUYV > /dev/null 2>&1
		gst_downstream_size "vivid: videoscale, downstream prefers 320x180" "$viv" 320 180
		gst_unmatched_cost "vivid: unmatched image/jpeg" "$viv"
		# vivid's TV input (input 1 of the default input_types) with
		# field alternate, the same checks; then back to the webcam input
		if v4l2-ctl -d "$viv" -i 1 > /dev/null 2>&1 &&
			v4l2-ctl -d "$viv" -v field=alternate > /dev/null 2>&1 &&
			v4l2-ctl -d "$viv" --get-fmt-video | grep -q 'Field *: Alternating'; then
			gst_alternate "vivid alternate: negcamsrc" "$viv" negcamsrc 1
			gst_alternate "vivid alternate: v4l2src" "$viv" v4l2src 0
		else
			fail "vivid: input 1 with field alternate could not be set"
		fi
		v4l2-ctl -d "$viv" -i 0 > /dev/null 2>&1
		v4l2-ctl -d "$viv" -v width=640,height=360,pixelformat=YUYV,field=none > /dev/null 2>&1
		dmesg_peer "gst on vivid" vivid
	else
		fail "vivid: no node"
	fi
	# negcamsink on vivid's video output node (tests/vm/sink-suite.sh)
	suite_sink_checks
	# negcamsrc on vivid's multiplanar node (tests/vm/mplane-suite.sh); in
	# quick mode (make test) at 640x360 only, 1280x720 too in full mode and
	# alone (tests/vm/run.sh mplane): each size is a few minutes under TCG
	[ "$mode" = full ] || MP_SIZES=${NEGCAM_MP_SIZES:-640x360}
	suite_mplane_checks
	while IFS= read -r line; do SUMMARY+=("gst: $line"); done < "$GST_NUMBERS"
	suite_end
}
