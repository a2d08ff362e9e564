#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# negcam-uvc behind the real uvcvideo (docs/uvc.md), in the VM: the clear
# errors (vhci-hcd not loaded, not root, a port in use); for every built-in
# profile the uvcvideo node's --list-formats-ext against negcam-ctl's for
# the formats UVC carries, the card name and 5 frames (stepwise: refused,
# its formats named); H.264 from logitech-c920 decoded with its stamps;
# on webcam: streaming
# with v4l2-ctl (three sizes, frame numbers read back in order), ffmpeg
# (YUYV stamps, MJPEG decoded and its stamps read), v4l2src (raw and
# MJPEG), negcamsrc, v4l2-compliance -s (totals recorded); SIGINT detaches and a
# second run attaches; SIGKILL mid-stream ends the reader with an error
# (no hang) and a new run attaches; rmmod uvcvideo vhci-hcd leaves a clean
# kernel log.
#   tests/vm/run.sh uvc
# Prints PASS/FAIL lines and "uvc: N passed, N failed"; exit status 1 on
# any failure.

# Braces: bash reads the whole script before running it, so editing this
# file while a run is under way cannot break that run.
{
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "run it in the VM: tests/vm/run.sh uvc" >&2; exit 2; }
cd "$NEGCAM_TREE" || exit 2
VM_DIR=$NEGCAM_TREE/tests/vm
# shellcheck source=tests/vm/lib.sh
. "$VM_DIR/lib.sh"
UVC=$NEGCAM_BUILD/uvc/negcam-uvc
CTL=$NEGCAM_BUILD/ctl/negcam-ctl
OUT=${NEGCAM_RUN:-/tmp}/uvc
mkdir -p "$OUT"
CAM_PID='' NODE='' PORT=''

# start_cam PROFILE: negcam-uvc in the background; NODE, PORT, CAM_PID set.
start_cam() {
	local log=$OUT/negcam-uvc-$1.log i
	"$UVC" --profile "$1" > "$log" 2>&1 &
	CAM_PID=$!
	NODE=''
	for i in $(seq 150); do
		NODE=$(nodes_of_driver uvcvideo | head -n1)
		[ -n "$NODE" ] && break
		kill -0 "$CAM_PID" 2>/dev/null || break
		sleep 0.1
	done
	PORT=$(sed -n 's/.*attached on vhci-hcd port \([0-9]*\).*/\1/p' "$log")
	[ -n "$NODE" ] || { sed 's/^/  | /' "$log"; return 1; }
}

# stop_cam SIGNAL: signal negcam-uvc and wait up to 10 s for it; 0 when it ended.
stop_cam() {
	local i
	[ -n "$CAM_PID" ] || return 0
	kill -"$1" "$CAM_PID" 2>/dev/null
	for i in $(seq 100); do
		kill -0 "$CAM_PID" 2>/dev/null || { wait "$CAM_PID" 2>/dev/null; CAM_PID=''; return 0; }
		sleep 0.1
	done
	return 1
}

# no_uvc_node: wait up to 5 s for the uvcvideo node to go away.
no_uvc_node() {
	local i
	for i in $(seq 50); do
		[ -z "$(nodes_of_driver uvcvideo)" ] && return 0
		sleep 0.1
	done
	return 1
}

# stamps NAME FORMAT W H FILE N: vm-stamp reads N increasing frame numbers from FILE.
stamps() {
	local log
	log=$(logname "$1 vm-stamp")
	if "$BIN/vm-stamp" "$2" "$3" "$4" "$5" > "$log" 2>&1 && grep -q "^vm-stamp: $6 frames" "$log"; then
		pass "$1: $6 frames with increasing frame numbers $(sed -n 's/^frame 0: //p' "$log") .. $(grep '^frame' "$log" | tail -n1 | sed 's/^frame [0-9]*: //')"
	else
		tail -n 4 "$log" | sed 's/^/  | /'
		fail "$1: frame numbers: $(tail -n1 "$log")"
	fi
}

# The errors a person meets first.
case_errors() {
	local msg
	rmmod vhci-hcd 2>/dev/null
	msg=$("$UVC" --profile webcam 2>&1)
	case $msg in
	*"modprobe vhci-hcd"*) pass "without vhci-hcd: $msg" ;;
	*) fail "without vhci-hcd: '$msg' does not say modprobe vhci-hcd" ;;
	esac
	check "modprobe vhci-hcd uvcvideo" 60 bash -c 'modprobe vhci-hcd && modprobe uvcvideo' || return 1
	msg=$(setpriv --reuid 65534 --regid 65534 --clear-groups "$UVC" --profile webcam 2>&1)
	case $msg in
	*root*) pass "not root: $msg" ;;
	*) fail "not root: '$msg' does not say root" ;;
	esac
	msg=$("$UVC" --profile no-such-profile 2>&1)
	[ $? = 1 ] && pass "unknown profile refused: $(echo "$msg" | head -n1)" || fail "unknown profile: $msg"
}

# usb_ids NODE: idVendor:idProduct of the node's USB device, as sysfs shows them.
usb_ids() {
	local d
	d=$(readlink -f "/sys/class/video4linux/${1#/dev/}/device/..")
	echo "$(cat "$d/idVendor" 2>/dev/null):$(cat "$d/idProduct" 2>/dev/null)"
}

# want_usb_id PROFILE: the profile's usb-id, else negcam-uvc's 1d6b:0104.
want_usb_id() {
	local id
	id=$("$CTL" --show-profile "$1" | sed -n 's/^usb-id //p')
	echo "${id:-1d6b:0104}"
}

# Every built-in profile: the node lists what negcam-ctl lists for the formats
# UVC carries, the card is the profile's, 5 frames stream; a profile with
# nothing UVC can carry is refused with warnings naming its formats.
case_formats() {
	local p got want card msg
	for p in $("$CTL" --list-profiles | awk 'NF == 0 { exit } { print $1 }'); do
		if ! start_cam "$p"; then
			msg=$OUT/negcam-uvc-$p.log
			if grep -q 'no format UVC carries' "$msg" && grep -q 'left out' "$msg"; then
				pass "$p: refused, nothing UVC carries ($(grep -c 'left out' "$msg") formats named in warnings)"
			else
				fail "$p: no uvcvideo node within 15 s"
			fi
			stop_cam KILL; continue
		fi
		want=$(want_formats "$p")
		card=$(v4l2-ctl -d "$NODE" -D | sed -n 's/.*Card type *: //p')
		note "$p: $NODE, card '$card', bus $(v4l2-ctl -d "$NODE" -D | sed -n 's/.*Bus info *: //p'), port $PORT"
		got=$(v4l2-ctl -d "$NODE" --list-formats-ext | formats_of)
		if [ "$got" = "$want" ]; then
			pass "$p: uvcvideo lists what negcam-ctl lists ($(echo "$got" | grep -c '^format') formats, $(echo "$got" | grep -c Size) sizes, $(echo "$got" | grep -c Interval) intervals)"
		else
			diff <(echo "$want") <(echo "$got") | head -n 10 | sed 's/^/  | /'
			fail "$p: uvcvideo's --list-formats-ext differs from negcam-ctl's"
		fi
		expect "$p: card name from the profile" "$card" "$("$CTL" --profile "$p" -D 2>/dev/null | sed -n 's/.*Card type *: //p')"
		expect "$p: USB ids in sysfs are the profile's" "$(usb_ids "$NODE")" "$(want_usb_id "$p")"
		"$CTL" --show-profile "$p" | grep -q '^usb-id ' &&
			expect "$p: negcam-ctl --dump of the node writes its usb-id" \
				"$("$CTL" --dump "$NODE" 2>/dev/null | sed -n 's/^usb-id //p')" "$(want_usb_id "$p")"
		check "$p: v4l2-ctl streams 5 frames of the default format" 60 \
			v4l2-ctl -d "$NODE" --stream-mmap --stream-count=5
		stop_cam INT || { fail "$p: negcam-uvc did not end on SIGINT"; stop_cam KILL; }
		no_uvc_node || fail "$p: the uvcvideo node stayed after SIGINT"
	done
}

# H.264 (a frame-based format): logitech-c920's 640x480, decoded by ffmpeg, stamps in order.
case_h264() {
	local f=$OUT/frames.h264
	if ! start_cam logitech-c920; then
		fail "logitech-c920: no uvcvideo node within 15 s"; stop_cam KILL; return
	fi
	if check "logitech-c920: v4l2-ctl --stream-mmap H264 640x480 10 frames" 120 \
		v4l2-ctl -d "$NODE" --set-fmt-video width=640,height=480,pixelformat=H264 \
			--stream-mmap --stream-count=10 --stream-to="$f" &&
	   check "logitech-c920: ffmpeg decodes the H264 stream" 120 \
		ffmpeg -nostdin -hide_banner -loglevel error -f h264 -i "$f" -pix_fmt gray -f rawvideo -y "$f.gray"; then
		stamps "logitech-c920 H264 640x480 decoded" gray 640 480 "$f.gray" 10
	fi
	rm -f "$f" "$f.gray"
	stop_cam INT || { fail "logitech-c920: negcam-uvc did not end on SIGINT"; stop_cam KILL; }
	no_uvc_node || fail "logitech-c920: the uvcvideo node stayed after SIGINT"
}

# v4l2-ctl at three sizes, stamps read back; MJPEG frames.
case_v4l2ctl() {
	local wh w h t0 f=$OUT/frames.yuv
	for wh in 160x120 320x240 640x480; do
		w=${wh%x*} h=${wh#*x}
		t0=$(now)
		if check "v4l2-ctl --stream-mmap YUYV $wh 30 frames" 120 \
			v4l2-ctl -d "$NODE" --set-fmt-video "width=$w,height=$h,pixelformat=YUYV" \
				--stream-mmap --stream-count=30 --stream-to="$f"; then
			note "YUYV $wh: 30 frames in $(secs_since "$t0")s"
			stamps "v4l2-ctl YUYV $wh" yuyv422 "$w" "$h" "$f" 30
		fi
	done
	check "v4l2-ctl --stream-mmap MJPG 1280x720 10 frames" 120 \
		v4l2-ctl -d "$NODE" --set-fmt-video width=1280,height=720,pixelformat=MJPG \
			--stream-mmap --stream-count=10
	rm -f "$f"
}

# ffmpeg: YUYV with stamps, MJPEG decoded to grey with stamps; v4l2src raw and MJPEG.
case_apps() {
	local f=$OUT/ffmpeg.raw
	if check "ffmpeg -f v4l2 yuyv422 640x360 20 frames" 180 \
		ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -input_format yuyv422 -video_size 640x360 \
			-i "$NODE" -frames:v 20 -fps_mode passthrough -f rawvideo -y "$f"; then
		stamps "ffmpeg YUYV 640x360" yuyv422 640 360 "$f" 20
	fi
	if check "ffmpeg -f v4l2 mjpeg 1280x720 10 frames decoded" 180 \
		ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -input_format mjpeg -video_size 1280x720 \
			-i "$NODE" -frames:v 10 -fps_mode passthrough -pix_fmt gray -f rawvideo -y "$f"; then
		stamps "ffmpeg MJPEG 1280x720 decoded" gray 1280 720 "$f" 10
	fi
	rm -f "$f"
	check "gst v4l2src ! YUY2 320x240 ! fakesink, 30 buffers" 180 \
		gst-launch-1.0 -q v4l2src device="$NODE" num-buffers=30 ! video/x-raw,format=YUY2,width=320,height=240 ! fakesink
	check "gst v4l2src ! image/jpeg 640x480 ! jpegdec ! fakesink, 30 buffers" 180 \
		gst-launch-1.0 -q v4l2src device="$NODE" num-buffers=30 ! image/jpeg,width=640,height=480 ! jpegdec ! fakesink
	if [ -f "$NEGCAM_BUILD/gst/libgstnegcam.so" ]; then
		check "gst negcamsrc (kernel backend) ! YUY2 640x480 ! fakesink, 30 buffers" 180 \
			env GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" gst-launch-1.0 -q negcamsrc device="$NODE" num-buffers=30 ! \
				video/x-raw,format=YUY2,width=640,height=480 ! fakesink
	else
		skip "negcamsrc: the GStreamer plugin is not built"
	fi
}

# v4l2-compliance -s [PROFILE]: the totals are recorded (docs/uvc.md), the failures listed.
case_compliance() {
	local log total what=${1:-webcam}
	log=$(logname "v4l2-compliance -s $what")
	timeout -k 5 600 v4l2-compliance -d "$NODE" -s > "$log" 2>&1
	total=$(tr '\r' '\n' < "$log" | grep -E '^Total for' | tail -n1)
	if [ -n "$total" ]; then
		pass "v4l2-compliance -s ran on $what: $total"
		echo "UVC-COMPLIANCE: $what: $total"
		tr '\r' '\n' < "$log" | grep -E '^[[:space:]]*(fail|warn):|: FAIL' | sort | uniq -c | head -n 20 | sed 's/^/  | /'
	else
		tail -n 10 "$log" | sed 's/^/  | /'
		fail "v4l2-compliance -s on $what: no Total line (log $log)"
	fi
}

# SIGINT detaches (the port is free again, the log says so); a second run attaches.
case_lifetime() {
	local msg port=$PORT ndisc
	ndisc=$(dmesg | grep -c 'USB disconnect')
	msg=$("$UVC" --profile webcam --port "$port" 2>&1)
	case $msg in
	*"in use"*) pass "a port in use is refused: $msg" ;;
	*) fail "--port $port while attached: '$msg'" ;;
	esac
	if stop_cam INT; then
		pass "SIGINT: negcam-uvc ended: $(tail -n1 "$OUT/negcam-uvc-webcam.log")"
	else
		fail "SIGINT: negcam-uvc still runs after 10 s"; stop_cam KILL
	fi
	no_uvc_node && pass "SIGINT: the uvcvideo node is gone" || fail "SIGINT: the uvcvideo node stayed"
	grep -qE "^hs +0*$port +004 " /sys/devices/platform/vhci_hcd.0/status* &&
		pass "SIGINT: vhci-hcd port $port is free again" ||
		fail "SIGINT: vhci-hcd port $port: $(grep -hE "^hs +0*$port " /sys/devices/platform/vhci_hcd.0/status*)"
	[ "$(dmesg | grep -c 'USB disconnect')" -gt "$ndisc" ] && pass "SIGINT: the kernel saw a USB disconnect" ||
		fail "SIGINT: no USB disconnect in dmesg"
	start_cam webcam && pass "a second run attaches ($NODE, port $PORT)" ||
		fail "a second run: no uvcvideo node"
}

# SIGKILL mid-stream: the reader ends with an error within its timeout; a new run attaches.
case_sigkill() {
	local rpid i rc t0 last
	v4l2-ctl -d "$NODE" --set-fmt-video width=320,height=240,pixelformat=YUYV \
		--stream-mmap --stream-count=100000 > "$OUT/sigkill-reader.log" 2>&1 &
	rpid=$!
	sleep 3
	t0=$(now)
	kill -KILL "$CAM_PID"
	wait "$CAM_PID" 2>/dev/null
	CAM_PID=''
	for i in $(seq 300); do
		kill -0 "$rpid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$rpid" 2>/dev/null; then
		fail "SIGKILL mid-stream: v4l2-ctl still streams 30 s later (hang)"
		kill -KILL "$rpid"
	else
		wait "$rpid"; rc=$?
		# v4l2-ctl 1.22 ends its stream loop with status 0 after a failed DQBUF
		last=$(tr '\r' '\n' < "$OUT/sigkill-reader.log" | sed 's/^[<>]*//' | grep -v '^ *$' | tail -n1)
		case "$rc $last" in
		0\ *failed*|[1-9]*) pass "SIGKILL mid-stream: v4l2-ctl got an error after $(secs_since "$t0")s (status $rc): $last" ;;
		*) fail "SIGKILL mid-stream: v4l2-ctl ended without an error (status $rc): $last" ;;
		esac
	fi
	no_uvc_node && pass "SIGKILL: the uvcvideo node is gone" || fail "SIGKILL: the uvcvideo node stayed"
	if start_cam webcam; then
		pass "after SIGKILL a new run attaches ($NODE, port $PORT)"
		check "after SIGKILL: v4l2-ctl streams 10 frames" 60 \
			v4l2-ctl -d "$NODE" --stream-mmap --stream-count=10
		stop_cam INT || { fail "SIGINT after SIGKILL: still running"; stop_cam KILL; }
	else
		fail "after SIGKILL: no new attach"
	fi
}

# case_firmware_bugs, case_uvc_faults: firmware bugs and faults
# shellcheck source=tests/vm/uvc-bug-cases.sh
. "$VM_DIR/uvc-bug-cases.sh"

# ---- a pipeline as the camera (negcamuvcconvertsink) ----
# The producer: a solid colour, live, written once; the host's COMMITs
# choose its format. CAM_ARGB is its foreground-color (ARGB), GREEN_RGB the RGB a
# decoded frame must show (each channel within 20).
CAM_ARGB=0xff00c000 GREEN_RGB='0 192 0'
GST_PID='' CAM_LOG=$OUT/pipeline-cam.log

# start_pipeline_cam: gst-launch -m with negcamuvcconvertsink in the
# background (its bus messages, and negcamuvcsink's INFO lines, in
# $OUT/pipeline-cam.log, or $CAM_LOG); NODE set.
start_pipeline_cam() {
	local i
	GST_DEBUG=negcamuvcsink:4,negcamsinkcore:4 GST_DEBUG_NO_COLOR=1 GST_PLUGIN_PATH=$NEGCAM_BUILD/gst ${CAM_NICE:-} gst-launch-1.0 -m videotestsrc is-live=true pattern=solid-color \
		foreground-color=$CAM_ARGB ! negcamuvcconvertsink name=cam profile="${CAM_PROFILE:-webcam}" \
		> "$CAM_LOG" 2>&1 &
	GST_PID=$!
	NODE=''
	for i in $(seq 300); do
		NODE=$(nodes_of_driver uvcvideo | head -n1)
		[ -n "$NODE" ] && return 0
		kill -0 "$GST_PID" 2>/dev/null || break
		sleep 0.1
	done
	sed 's/^/  | /' "$CAM_LOG" | tail -n 20
	return 1
}

# rgb_at FILE W H N: the middle pixel of the last of N rgb24 frames in FILE.
rgb_at() {
	od -An -tu1 -N3 -j $(( ($4 - 1) * $2 * $3 * 3 + ($3 / 2 * $2 + $2 / 2) * 3 )) "$1" | xargs
}

# near "R G B" "R G B": every channel within 20.
near() {
	local a=($1) b=($2) i
	[ ${#a[@]} = 3 ] || return 1
	for i in 0 1 2; do
		[ $(( a[i] > b[i] ? a[i] - b[i] : b[i] - a[i] )) -le 20 ] || return 1
	done
}

# The sink's negotiations so far: its INFO lines (GST_DEBUG), not its
# negcamuvcsink-caps bus messages: gst-launch did not print the one posted
# right after the MJPEG stage was taken out (seen twice; not understood).
sink_caps() { grep -E ':<sink> negotiation [0-9]+: ' "$CAM_LOG"; }

# pipeline_step FORMAT W H: ffmpeg asks the node for FORMAT (yuyv422,
# mjpeg, h264) at WxH; 15 frames of that size in the producer's colour, and the
# producer renegotiated to it.
pipeline_step() {
	local f=$OUT/pipeline-cam.rgb n=15 rgb size t0 n0 i
	t0=$(now)
	n0=$(sink_caps | wc -l)
	if ! check "pipeline camera: ffmpeg $1 $2x$3, $n frames" 180 \
		ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -input_format "$1" -video_size "$2x$3" \
			-i "$NODE" -frames:v $n -fps_mode passthrough -pix_fmt rgb24 -f rawvideo -y "$f"; then
		return
	fi
	size=$(stat -c %s "$f")
	rgb=$(rgb_at "$f" "$2" "$3" $n)
	if [ "$size" = $(($2 * $3 * 3 * n)) ] && near "$rgb" "$GREEN_RGB"; then
		pass "pipeline camera: $1 $2x$3: $n frames of that size in $(secs_since "$t0")s, middle of the last ($rgb) is the producer's ($GREEN_RGB)"
	else
		fail "pipeline camera: $1 $2x$3: $size bytes (want $(($2 * $3 * 3 * n))), middle ($rgb), producer's ($GREEN_RGB)"
	fi
	rm -f "$f"
	# a negotiation to WxH after the ones before this step (gst-launch
	# prints the sink's message when the bus gives it: wait up to 10 s)
	for i in $(seq 100); do
		sink_caps | tail -n +$((n0 + 1)) | grep -qE "width=\(int\)$2, height=\(int\)$3" && break
		sleep 0.1
	done
	[ "$i" -lt 100 ] && pass "pipeline camera: the producer was renegotiated to $2x$3" ||
		fail "pipeline camera: no new negotiation of $2x$3 in $CAM_LOG"
}

# A GStreamer pipeline as the camera: 320x240 YUYV, 1280x720 MJPEG, 640x480
# YUYV asked by ffmpeg in turn; each arrives in the producer's colour, the
# pipeline renegotiated each time (its negotiations counted), never restarted
# (one gst-launch, one state change to PLAYING).
case_pipeline_camera() {
	local nego commits playing card i msg
	if [ ! -f "$NEGCAM_BUILD/gst/libgstnegcam.so" ]; then
		skip "pipeline camera: the GStreamer plugin is not built"
		return
	fi
	msg=$(GST_PLUGIN_PATH=$NEGCAM_BUILD/gst GST_REGISTRY_UPDATE=no setpriv --reuid 65534 --regid 65534 \
		--clear-groups gst-launch-1.0 videotestsrc num-buffers=1 ! negcamuvcsink 2>&1 | grep -m1 'Cannot attach')
	case $msg in
	*root*) pass "pipeline camera, not root: ${msg#ERROR: from element }" ;;
	*) fail "pipeline camera, not root: '$msg' does not say root" ;;
	esac
	if ! start_pipeline_cam; then
		fail "pipeline camera: no uvcvideo node within 30 s (log $CAM_LOG)"
		kill "$GST_PID" 2>/dev/null; wait "$GST_PID" 2>/dev/null
		return
	fi
	card=$(v4l2-ctl -d "$NODE" --info | sed -n 's/^[[:space:]]*Card type *: //p')
	pass "pipeline camera: negcamuvcconvertsink attached, $NODE, card '$card'"
	pipeline_step yuyv422 320 240
	pipeline_step mjpeg 1280 720
	pipeline_step yuyv422 640 480
	nego=$(sink_caps | wc -l)
	commits=$(grep -c 'negcamuvcsink-commit, ' "$CAM_LOG")
	playing=$(grep -cE 'from element "pipeline0" \(state-changed\).*new-state=\(GstState\)playing' "$CAM_LOG")
	note "pipeline camera: negotiations in order: $(sink_caps |
		sed 's/.*negotiation [0-9]*: \([a-z/-]*\).*width=(int)\([0-9]*\), height=(int)\([0-9]*\).*/\1 \2x\3;/' | xargs)"
	if kill -0 "$GST_PID" 2>/dev/null && [ "$playing" = 1 ] && [ "$nego" -ge 4 ]; then
		pass "pipeline camera: one gst-launch throughout, PLAYING once, $nego negotiations for $commits host COMMITs"
	else
		fail "pipeline camera: gst-launch alive: $(kill -0 "$GST_PID" 2>/dev/null && echo yes || echo no), PLAYING $playing times, $nego negotiations, $commits COMMITs"
	fi
	stop_pipeline_cam "pipeline camera"
}

# stop_pipeline_cam WHAT: SIGINT to the pipeline camera (SIGKILL after 10
# s); its uvcvideo node must go.
stop_pipeline_cam() {
	local i
	kill -INT "$GST_PID" 2>/dev/null
	for i in $(seq 100); do kill -0 "$GST_PID" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$GST_PID" 2>/dev/null; wait "$GST_PID" 2>/dev/null
	no_uvc_node && pass "$1: gst-launch ended, the uvcvideo node is gone" ||
		fail "$1: the uvcvideo node stayed after gst-launch ended"
}

# The pipeline camera on a profile with H.264 (logitech-c920): the host
# asks H.264 640x480, negcamuvcconvertsink puts its H.264 stage in
# (x264enc or openh264enc), ffmpeg decodes the producer's colour.
case_pipeline_camera_h264() {
	if [ ! -f "$NEGCAM_BUILD/gst/libgstnegcam.so" ]; then
		skip "pipeline camera H.264: the GStreamer plugin is not built"
		return
	fi
	if ! gst-inspect-1.0 x264enc > /dev/null 2>&1 && ! gst-inspect-1.0 openh264enc > /dev/null 2>&1; then
		skip "pipeline camera H.264: neither x264enc nor openh264enc is installed"
		return
	fi
	if ! CAM_PROFILE=logitech-c920 start_pipeline_cam; then
		fail "pipeline camera H.264: no uvcvideo node within 30 s (log $CAM_LOG)"
		kill "$GST_PID" 2>/dev/null; wait "$GST_PID" 2>/dev/null
		return
	fi
	pipeline_step h264 640 480
	sink_caps | grep -q 'video/x-h264' &&
		pass "pipeline camera H.264: the sink was fed video/x-h264 (the bin's encoder stage)" ||
		fail "pipeline camera H.264: no video/x-h264 negotiation in $CAM_LOG"
	stop_pipeline_cam "pipeline camera H.264"
}

# Headless Chromium (tests/vm/browser.sh) as the camera's user: the page
# lists the camera by its profile's card name and shows its frames, asked
# exactly at 640x480 then 1280x720, red as the producer (videotestsrc red
# ! negcamuvcconvertsink) makes them. The profile is tests/vm/uvc-browser.profile
# (YUYV 640x480 at 10 fps, MJPG 1280x720 at 5 fps): on `webcam` Chromium took
# 1280x720 in MJPG at 30 fps, which the VM could not encode while Chromium
# ran (no frame before Chromium's capture timeout).
case_browser() {
	local blog=$OUT/browser-uvc.log card='Negcam Browser Cam' s l cams
	if ! command -v chromium > /dev/null; then
		fail "browser: chromium is not installed (make deps installs it)"
		return
	fi
	# niced: under TCG a producer converting at 30 fps starved Chromium
	# (no getUserMedia in 240 s)
	CAM_LOG=$OUT/browser-cam.log
	CAM_ARGB=0xffff0000 CAM_NICE='nice -n 10' CAM_PROFILE=$VM_DIR/uvc-browser.profile start_pipeline_cam || { fail "browser: no uvcvideo node (log $CAM_LOG)"; return; }
	"$NEGCAM_TREE/tests/vm/browser.sh" "$card" 640x480,1280x720 300 red > "$blog" 2>&1
	cams=$(sed -n 's/^cameras //p' "$blog")
	case $cams in
	*"\"$card"*) pass "Chromium lists the USB camera by its profile's card: $cams" ;;
	*) fail "Chromium cameras: '${cams:-none}' (log $blog)" ;;
	esac
	for s in 640x480 1280x720; do
		l=$(grep "^step $s " "$blog" | tail -n1)
		if [[ $l == *" settings $s@"*" shown $s frames "* ]] && browser_red "${l#* rgb }"; then
			pass "Chromium asks $s: red frames from the pipeline camera (${l#step })"
		else
			fail "Chromium asks $s: ${l:-$(tail -n1 "$blog")} (log $blog)"
		fi
	done
	kill -0 "$GST_PID" 2>/dev/null && pass "browser: one pipeline served both sizes ($(sink_caps | wc -l) negotiations)" ||
		fail "browser: the pipeline camera ended (log $CAM_LOG)"
	kill -INT "$GST_PID" 2>/dev/null
	for s in $(seq 100); do kill -0 "$GST_PID" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$GST_PID" 2>/dev/null; wait "$GST_PID" 2>/dev/null
	no_uvc_node || fail "browser: the uvcvideo node stayed after gst-launch ended"
}

# ---- the shelf behind uvcvideo (make test-shelf-uvc), the webcam sweep (make test-uvc-sweep) ----

# caps_of FOURCC: the caps v4l2src and negcamsrc are given for it.
caps_of() {
	case $1 in
	YUYV) echo video/x-raw,format=YUY2 ;;
	UYVY) echo video/x-raw,format=UYVY ;;
	NV12) echo video/x-raw,format=NV12 ;;
	YU12) echo video/x-raw,format=I420 ;;
	GREY) echo video/x-raw,format=GRAY8 ;;
	MJPG) echo image/jpeg ;;
	H264) echo video/x-h264 ;;
	esac
}

# fmt_of: "FOURCC WxH" of a --get-fmt-video answer (v4l2-ctl's or negcam-ctl's -V).
fmt_of() {
	sed -n -e "s/.*Width\/Height *: \([0-9]*\)\/\([0-9]*\).*/\1x\2/p" \
		-e "s/.*Pixel Format *: '\([^']*\)'.*/\1/p" | tac | xargs
}

# shelf_camera NAME: the node lists what negcam-ctl lists of the profile for
# the formats UVC carries (only their fourccs when the listing shows no
# sizes: uvcvideo lists the profile's placeholder sizes then); the USB ids
# are the profile's; the default format is the profile's and v4l2src streams
# it (3 buffers). A profile with nothing UVC carries is refused, its
# formats named. Sets SHELF_OUTCOME to served or refused.
shelf_camera() {
	local n=$1 want got fmt rate what=''
	SHELF_OUTCOME=''
	if ! start_cam "$n"; then
		if grep -q 'no format UVC carries' "$OUT/negcam-uvc-$n.log"; then
			pass "$n: refused, nothing UVC carries ($(grep -c 'left out' "$OUT/negcam-uvc-$n.log") formats named in warnings)"
			SHELF_OUTCOME=refused
		else
			fail "$n: no uvcvideo node within 15 s"
		fi
		stop_cam KILL; return
	fi
	SHELF_OUTCOME=served
	note "$n: $NODE, card '$(v4l2-ctl -d "$NODE" -D | sed -n 's/.*Card type *: //p')', $(grep -c 'left out' "$OUT/negcam-uvc-$n.log") formats left out"
	want=$("$CTL" --profile "$n" --list-formats-ext | formats_of)
	got=$(v4l2-ctl -d "$NODE" --list-formats-ext | formats_of)
	if ! grep -q Size <<< "$want"; then
		got=$(grep '^format' <<< "$got") what=', fourccs only: the listing shows no sizes'
	fi
	if [ -n "$got" ] && [ "$got" = "$want" ]; then
		pass "$n: uvcvideo lists what the listing lists ($(grep -c '^format' <<< "$got") formats, $(grep -c Size <<< "$got") sizes, $(grep -c Interval <<< "$got") intervals$what)"
	else
		diff <(echo "$want") <(echo "$got") | head -n 10 | sed 's/^/  | /'
		fail "$n: uvcvideo's --list-formats-ext differs from the listing's"
	fi
	expect "$n: USB ids in sysfs" "$(usb_ids "$NODE")" "$(want_usb_id "$n")"
	fmt=$(v4l2-ctl -d "$NODE" --get-fmt-video | fmt_of)
	expect "$n: the default format is the profile's" "$fmt" "$("$CTL" --profile "$n" -V | fmt_of)"
	rate=$(v4l2-ctl -d "$NODE" --get-parm | sed -n 's/.*Frames per second.*(\([0-9]*\/[0-9]*\)).*/\1/p')
	set -- $fmt
	check "$n: v4l2src streams the default $1 $2 at $rate fps, 3 buffers" 180 \
		gst-launch-1.0 -q v4l2src device="$NODE" num-buffers=3 ! \
			"$(caps_of "$1"),width=${2%x*},height=${2#*x},framerate=$rate" ! fakesink
	stop_cam INT || { fail "$n: negcam-uvc did not end on SIGINT"; stop_cam KILL; }
	no_uvc_node || fail "$n: the uvcvideo node stayed after SIGINT"
}

# Every UVC camera of the shelf (data/cameras, '# Driver: uvcvideo') served
# by negcam-uvc, one after the other.
case_shelf() {
	local f n t0 t1 served=0 refused=0
	t1=$(now)
	for f in $(grep -l '^# Driver: uvcvideo' "$NEGCAM_TREE"/data/cameras/*.profile); do
		n=$(basename "$f" .profile)
		t0=$(now)
		shelf_camera "$n"
		case $SHELF_OUTCOME in
		served) served=$((served + 1)) ;;
		refused) refused=$((refused + 1)) ;;
		esac
		note "$n: $(secs_since "$t0")s"
	done
	echo "UVC-SHELF: $served served, $refused refused, $(secs_since "$t1")s"
}

# v4l2-compliance -s on the uvcvideo node of logitech-c920 and mjpg-720p60
# (webcam's is in the suite).
case_compliance_shelf() {
	local p
	for p in logitech-c920 mjpg-720p60; do
		start_cam "$p" || { fail "$p: no uvcvideo node within 15 s"; stop_cam KILL; continue; }
		case_compliance "$p"
		stop_cam INT || { fail "$p: negcam-uvc did not end on SIGINT"; stop_cam KILL; }
		no_uvc_node || fail "$p: the uvcvideo node stayed after SIGINT"
	done
}

# Every size of webcam in YUYV and MJPG through v4l2src and negcamsrc (kernel
# backend), 5 buffers each (MJPEG decoded by jpegdec).
case_sweep() {
	local fmt wh el dec t0 t1 n=0
	if [ ! -f "$NEGCAM_BUILD/gst/libgstnegcam.so" ]; then
		skip "sweep: the GStreamer plugin is not built"; return
	fi
	start_cam webcam || { fail "sweep: no uvcvideo node within 15 s"; stop_cam KILL; return; }
	t1=$(now)
	for fmt in YUYV MJPG; do
		dec=''
		[ "$fmt" = MJPG ] && dec='jpegdec !'
		for wh in $("$CTL" --profile webcam --list-framesizes "$fmt" | sed -n 's/.*Discrete \([0-9]*x[0-9]*\).*/\1/p'); do
			for el in v4l2src negcamsrc; do
				t0=$(now)
				check "sweep: $el $fmt $wh, 5 buffers" 180 \
					env GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" gst-launch-1.0 -q $el device="$NODE" num-buffers=5 ! \
						"$(caps_of "$fmt"),width=${wh%x*},height=${wh#*x}" ! $dec fakesink &&
					note "$el $fmt $wh: $(secs_since "$t0")s"
				n=$((n + 1))
			done
		done
	done
	echo "UVC-SWEEP: $n pipelines, $(secs_since "$t1")s"
	stop_cam INT || { fail "sweep: negcam-uvc did not end on SIGINT"; stop_cam KILL; }
}

# ---- the shelf sweep behind uvcvideo (issue 40; make test-shelf-uvc) ----
# Every camera of the shelf (the built-ins that cite a source, every
# data/cameras file: a new camera is covered without editing this) served by
# negcam-uvc; every format the uvcvideo node lists streams through v4l2-ctl
# at one size (640x480 asked, uvcvideo's answer taken) and the fastest rate:
# 4 buffers with bytesused > 0, no ERROR flag, frame-number stamps strictly
# increasing (tests/run/sweep-lib.sh and sweep-stamp, as the negcam-run and
# negcam.ko sweeps). The formats negcam-uvc leaves out are counted by the
# reason its warning gives.
case_uvc_sweep() {
	local n f dir log raw st dq err zero bpl w h size why t1 cams=0 refused=0 pairs=0 bad=0
	SWEEP=$NEGCAM_BUILD/tests/run/sweep-stamp
	# shellcheck source=tests/run/sweep-lib.sh
	. "$NEGCAM_TREE/tests/run/sweep-lib.sh"
	[ -x "$SWEEP" ] || { fail "uvc sweep: no $SWEEP"; return; }
	dir=$(mktemp -d /tmp/uvc-sweep.XXXXXX) log=$dir/stream.log raw=$dir/frames.raw st=$dir/stamps.txt
	: > "$OUT/left-out.txt"
	t1=$(now)
	for n in $({ "$CTL" --list-profiles | awk 'NF == 0 { exit } { print $1 }' |
			while read -r b; do "$CTL" --show-profile "$b" < /dev/null | grep -q '^# Source:' && echo "$b"; done
		ls "$NEGCAM_TREE"/data/cameras/*.profile | sed 's,.*/,,; s,\.profile$,,'; }); do
		if ! start_cam "$n"; then
			if grep -q 'no format UVC carries' "$OUT/negcam-uvc-$n.log"; then
				refused=$((refused + 1))
				note "$n: refused, nothing UVC carries"
			else
				fail "$n: no uvcvideo node within 15 s"
			fi
			grep 'left out' "$OUT/negcam-uvc-$n.log" | sed "s/^/$n: /" >> "$OUT/left-out.txt"
			stop_cam KILL; continue
		fi
		grep 'left out' "$OUT/negcam-uvc-$n.log" | sed "s/^/$n: /" >> "$OUT/left-out.txt"
		cams=$((cams + 1))
		while IFS= read -r f; do
			pairs=$((pairs + 1)) why=''
			rm -f "$raw" "$raw.grey"
			timeout -k 5 60 bash -c "$(sweep_v4l2ctl "$NODE" "$f" 4 "$raw")" < /dev/null > "$log" 2>&1
			read -r dq err zero bpl w h <<< "$(sweep_summary "$log")"
			size=$(wc -c < "$raw" 2>/dev/null || echo 0)
			[ "$dq" = 4 ] || why="$why, $dq of 4 buffers dequeued"
			[ "$err" = 0 ] || why="$why, $err flagged ERROR"
			[ "$zero" = 0 ] || why="$why, $zero with bytesused 0"
			[ -z "$why" ] && { [ "$w" = 0 ] || [ "$size" = 0 ]; } && why=", no G_FMT or nothing written"
			if [ -z "$why" ] && ! sweep_stamps "$f" "$w" "$h" "$bpl" $((size / 4)) "$raw" "$st"; then
				why=", stamps: $(tail -n 1 "$st")"
			fi
			if [ -n "$why" ]; then
				bad=$((bad + 1))
				fail "$n '$f' ${w}x$h through uvcvideo: ${why#, }"
				grep -v 'cap dqbuf' "$log" | tail -n 6 | sed 's/^/  | /'
			else
				pass "$n '$f' ${w}x$h through uvcvideo: 4 buffers, bytesused > 0, no ERROR, $(tail -n 1 "$st" | sed 's/^sweep-stamp: //')"
			fi
		done < <(v4l2-ctl -d "$NODE" --list-formats | sed -n "s/^.*\[[0-9]*\]: '\(....\)'.*/\1/p")
		stop_cam INT || { fail "$n: negcam-uvc did not end on SIGINT"; stop_cam KILL; }
		no_uvc_node || fail "$n: the uvcvideo node stayed after SIGINT"
	done
	rm -rf "$dir"
	note "formats left out, by reason: $(sed 's/.*left out: //' "$OUT/left-out.txt" | sort | uniq -c | tr '\n' ';')"
	echo "UVC-SHELF-SWEEP: $cams cameras served, $refused refused, $pairs (camera, format) pairs, $bad failed, $(wc -l < "$OUT/left-out.txt") formats left out, $(secs_since "$t1")s"
}

suite_begin uvc
T0=$(now)
# With case names as arguments, only those (after the modules are loaded):
#   tests/vm/run.sh tests/vm/uvc-suite.sh case_pipeline_camera
if [ $# -gt 0 ]; then
	check "modprobe vhci-hcd uvcvideo" 60 bash -c 'modprobe vhci-hcd && modprobe uvcvideo'
	for c in "$@"; do "$c"; done
	echo "uvc: $S_PASS passed, $S_FAIL failed"
	[ "$S_FAIL" = 0 ]
	exit
fi
case_errors
case_formats
case_h264
if start_cam webcam; then
	case_v4l2ctl
	case_apps
	case_compliance
	case_lifetime
	[ -n "$CAM_PID" ] && case_sigkill
else
	fail "webcam: no uvcvideo node within 15 s"
fi
stop_cam KILL
case_uvc_faults
case_pipeline_camera
case_pipeline_camera_h264
case_browser
check "rmmod uvcvideo vhci-hcd" 60 rmmod uvcvideo vhci-hcd
dmesg_clean uvc
echo "UVC-TIME: $(secs_since "$T0")s"
echo "uvc: $S_PASS passed, $S_FAIL failed"
[ "$S_FAIL" = 0 ]
exit
}
