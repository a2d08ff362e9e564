# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=bash
#
# negcamsink on a real output node (issue 12, item 6), sourced by
# suites.sh; runs in the VM (tests/vm/run.sh sink, and at the end of gst).
# vivid with a video output node (node_types=0x101: bit 0 capture, bit 8
# output):
#   - caps come from the node: with no filter, negcamsink negotiates the
#     node's current format (G_FMT of the output queue, first in its caps);
#   - videotestsrc ! YUY2 640x480 ! negcamsink: every frame reaches the
#     device with 0 copies (the "negcamsink-stats" message at EOS), no tee
#     or identity; v4l2sink on the same node noted side by side;
#   - io-mode=dmabuf: the same through exported dma-bufs;
#   - negcamconvertsink from a 160x120 I420 source at the node's size;
#   - gst-device-monitor-1.0 Video/Sink lists the output node for negcamsink.

# The vivid node whose device caps say Video Output.
vivid_output_node() {
	local n
	for n in $(nodes_of_driver vivid); do
		v4l2-ctl -d "$n" -D 2>/dev/null | sed -n '/Device Caps/,$p' |
			grep -q 'Video Output$' && { echo "$n"; return 0; }
	done
	return 1
}

# sink_run NAME LOG PIPELINE...: gst-launch -m; the stats line in LOG.
sink_run() {
	local name=$1 log=$2; shift 2
	GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" GST_DEBUG=negcamsink:4 GST_DEBUG_NO_COLOR=1 \
		timeout -k 5 180 gst-launch-1.0 -m -v "$@" > "$log" 2>&1
}

stat_of() { sed -n "s/.*negcamsink-stats.* $2=([a-z0-9]*)\([0-9]*\).*/\1/p" "$1" | tail -n1; }

sink_vivid() {
	local out log fmt w h caps frames copies rc
	out=$(vivid_output_node) || { fail "vivid: no video output node"; return; }
	note "vivid output node: $out"
	v4l2-ctl -d "$out" --set-fmt-video-out=width=320,height=240,pixelformat=YUYV > /dev/null 2>&1
	fmt=$(v4l2-ctl -d "$out" --get-fmt-video-out)
	w=$(echo "$fmt" | sed -n 's|.*Width/Height *: *\([0-9]*\)/.*|\1|p')
	h=$(echo "$fmt" | sed -n 's|.*Width/Height *: *[0-9]*/\([0-9]*\).*|\1|p')

	log=$(logname "negcamsink caps from the node")
	sink_run caps "$log" videotestsrc num-buffers=5 ! negcamsink device="$out"
	rc=$?
	caps=$(grep -m1 'negcamsink0.GstPad:sink: caps = ' "$log")
	if [ $rc = 0 ] && echo "$caps" | grep -q "width=(int)$w, height=(int)$h"; then
		pass "negcamsink on $out: no filter gives the node's current format ${w}x$h"
	else
		fail "negcamsink on $out: exit $rc, caps '$caps', node format ${w}x$h (log $log)"
	fi

	log=$(logname "negcamsink videotestsrc YUY2 640x480")
	sink_run zero "$log" videotestsrc num-buffers=60 ! \
		video/x-raw,format=YUY2,width=640,height=480 ! negcamsink device="$out"
	rc=$?
	frames=$(stat_of "$log" frames)
	copies=$(stat_of "$log" copies)
	note "negcamsink: exit $rc, frames ${frames:-?}, copies ${copies:-?}; node now: $(v4l2-ctl -d "$out" --get-fmt-video-out | grep -E 'Width|Pixel' | tr -s ' \n' ' ')"
	if [ $rc = 0 ] && [ "$frames" = 60 ] && [ "$copies" = 0 ]; then
		pass "negcamsink on $out: 60 frames of YUY2 640x480, 0 copies, no tee/identity"
	else
		fail "negcamsink on $out: exit $rc, frames '$frames', copies '$copies' (log $log)"
	fi
	echo "negcamsink: vivid output 640x480 YUY2 videotestsrc: exit $rc, ${frames:-?} frames, ${copies:-?} copies" >> "$GST_NUMBERS"

	log=$(logname "negcamsink io-mode=dmabuf")
	sink_run dmabuf "$log" videotestsrc num-buffers=30 ! \
		video/x-raw,format=YUY2,width=640,height=480 ! negcamsink device="$out" io-mode=dmabuf
	rc=$?
	frames=$(stat_of "$log" frames)
	copies=$(stat_of "$log" copies)
	if [ $rc = 0 ] && [ "$frames" = 30 ] && [ "$copies" = 0 ] && grep -q 'dmabuf=(boolean)true' "$log"; then
		pass "negcamsink io-mode=dmabuf on $out: upstream writes into exported dma-bufs, 0 copies"
	else
		fail "negcamsink io-mode=dmabuf on $out: exit $rc, frames '$frames', copies '$copies' (log $log)"
	fi

	log=$(logname "v4l2sink videotestsrc YUY2 640x480")
	GST_DEBUG=v4l2bufferpool:6 GST_DEBUG_NO_COLOR=1 timeout -k 5 180 gst-launch-1.0 -q \
		videotestsrc num-buffers=60 ! video/x-raw,format=YUY2,width=640,height=480 ! \
		v4l2sink device="$out" > "$log" 2>&1
	rc=$?
	copies=$(grep -c 'gst_v4l2_buffer_pool_copy_buffer' "$log")
	note "v4l2sink on $out: exit $rc, $copies of 60 frames copied (v4l2bufferpool 'copying buffer'), for comparison"
	echo "negcamsink: v4l2sink on the same node: exit $rc, $copies of 60 frames copied" >> "$GST_NUMBERS"
	pass "v4l2sink on $out ran for comparison (exit $rc)"

	log=$(logname "negcamconvertsink 160x120 I420 source")
	sink_run convert "$log" videotestsrc num-buffers=30 ! \
		video/x-raw,format=I420,width=160,height=120 ! negcamconvertsink device="$out"
	rc=$?
	frames=$(stat_of "$log" frames)
	copies=$(stat_of "$log" copies)
	caps=$(grep -m1 'GstNegcamSink:sink.GstPad:sink: caps = ' "$log")
	if [ $rc = 0 ] && [ "${frames:-0}" -ge 30 ] && [ "$copies" = 0 ] &&
		echo "$caps" | grep -q "format=(string)YUY2" &&
		echo "$caps" | grep -q "width=(int)640, height=(int)480"; then
		pass "negcamconvertsink on $out: 160x120 I420 served as the node's YUY2 640x480, 0 copies"
	else
		fail "negcamconvertsink on $out: exit $rc, frames '$frames', copies '$copies', caps '$caps' (log $log)"
	fi
	echo "negcamconvertsink: vivid output, 160x120 I420 source: exit $rc, ${frames:-?} frames, ${copies:-?} copies" >> "$GST_NUMBERS"

	log=$(logname "gst-device-monitor Video-Sink")
	# NEGCAM_PROVIDER_NODES=1: nodes listed on request once the provider
	# asks for it (issue 16); harmless before
	NEGCAM_PROVIDER_NODES=1 GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" timeout -k 5 60 gst-device-monitor-1.0 Video/Sink > "$log" 2>&1
	if grep -q "negcamsink device=$out" "$log"; then
		pass "gst-device-monitor-1.0 Video/Sink lists $out for negcamsink"
	else
		fail "gst-device-monitor-1.0 Video/Sink: no negcamsink entry for $out (log $log)"
	fi
	sink_lost "$out"
}

# Device loss: vivid unbound while negcamsink plays; the error names the
# device, as negcamsrc's does, and the pipeline stops.
sink_lost() {
	local out=$1 log rc drv=/sys/bus/platform/drivers/vivid
	log=$(logname "negcamsink device loss")
	(sleep 5; echo vivid.0 > $drv/unbind) &
	sink_run lost "$log" videotestsrc is-live=true ! \
		video/x-raw,format=YUY2,width=640,height=480 ! negcamsink device="$out"
	rc=$?
	wait
	note "$(grep -m1 'ERROR: from element' "$log")"
	if [ $rc != 0 ] && [ $rc != 124 ] && grep -q "Device $out .*disappeared" "$log"; then
		pass "negcamsink on $out: vivid unbound while playing: error names the device, pipeline stops"
	else
		fail "negcamsink device loss: exit $rc (log $log)"
	fi
	echo vivid.0 > $drv/bind 2> /dev/null
}

suite_sink_checks() {
	rmmod vivid 2> /dev/null
	if check "modprobe vivid n_devs=1 node_types=0x101" 60 \
		modprobe vivid n_devs=1 node_types=0x101; then
		sink_vivid
		dmesg_clean "negcamsink on vivid"
	fi
	# back to the capture-only vivid the other suites load
	rmmod vivid 2> /dev/null
	modprobe vivid n_devs=1 node_types=0x1
}
