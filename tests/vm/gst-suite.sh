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
#   vivid: the filter list gives valid results within each filter.

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
		# quick: the four profiles of the element's own tests (one of each
		# kind: discrete, few modes, stepwise, the 2007 quirks); full:
		# every built-in profile (the real-camera ones add ~3 minutes)
		if [ "$mode" = full ]; then
			profiles=${NEGCAM_VM_PROFILES:-$("$CTL" --list-profiles | awk '{ print $1 }')}
		else
			profiles=${NEGCAM_VM_PROFILES:-webcam vga stepwise tv-tuner}
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
		dmesg_clean "gst on vivid"
	else
		fail "vivid: no node"
	fi
	while IFS= read -r line; do SUMMARY+=("gst: $line"); done < "$GST_NUMBERS"
	suite_end
}
