#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# negcam.ko loops in the VM (docs/loopback.md): an output node feeding
# capture nodes. Node caps and names, v4l2-compliance -s on both sides,
# the placeholder without a producer (v4l2-ctl, ffmpeg, timestamps), an
# ffmpeg producer read back by ffmpeg and by a plain consumer, negotiation
# both ways with SOURCE_CHANGE events, a killed and restarted producer, two
# consumers, follow mode with a size change mid-stream and its narrowing to
# the producer's format while it streams (enumeration, TRY_FMT, compliance,
# ffmpeg and v4l2src without a format), rmmod in every state and 100
# open/S_FMT/REQBUFS/STREAMON/close cycles from both sides, and no burst
# from a producer catching up (issue 39).
#   tests/vm/run.sh loop          (also: suites.sh quick|full)
# Each feature's checks are one test_* function, called in order at the
# end. Prints PASS/FAIL lines and "loop: N passed, N failed"; exit status 1 on
# any failure.

# Braces: bash reads the whole script before running it, so editing this
# file while a run is under way cannot break that run.
{
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "run it in the VM: tests/vm/run.sh loop" >&2; exit 2; }
cd "$NEGCAM_TREE" || exit 2
VM_DIR=$NEGCAM_TREE/tests/vm
# shellcheck source=tests/vm/lib.sh
. "$VM_DIR/lib.sh"
V=$BIN/vm-v4l2
OUT=${NEGCAM_RUN:-/tmp}/loop
mkdir -p "$OUT"
PIDS=()

load() { negcam_load "$@"; }
unload() { negcam_unload; }

# Stop what this suite started in the background.
reap() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	PIDS=()
}

# Load with loops, find loop 0's nodes: OUTN, CAP0, CAP1.
load_loops() {
	local i
	load "$@" || return 1
	for i in $(seq 50); do
		OUTN=$(node_by_card "negcam loop 0 output") && CAP0=$(node_by_card "negcam loop 0 capture 0") && break
		sleep 0.1
	done
	CAP1=$(node_by_card "negcam loop 0 capture 1")
	[ -n "${OUTN:-}" ] && [ -n "${CAP0:-}" ]
}

# A producer that stalls longer than loop_timeout_ms (qemu TCG on a loaded
# host does, for hundreds of ms) is replaced by placeholder frames, by
# design: where only producer frames are expected, short runs of them are
# allowed (STALLS).
STALLS='(g{1,10}P+)*g{0,10}'

# judge_stream STATUS LOG REGEX WHAT: a `vm-v4l2 consume` run (exit status,
# log) passed and its frame kinds (P: the producer's colour, g: any other,
# the placeholder) match the extended REGEX.
judge_stream() {
	local st=$1 log=$2 re=$3 kinds
	kinds=$(sed -n 's/^kinds: //p' "$log")
	note "frame kinds: $kinds"
	if [ "$st" = 0 ] && echo "$kinds" | grep -qE "$re"; then
		pass "$4"
	else
		fail "$4: status $st, kinds '$kinds' (log $log)"
	fi
}

# The 4 bytes ffmpeg writes for a colour in YUYV, as 8 hex digits.
yuyv_of() {
	ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i "color=$1:size=16x16" -frames:v 1 \
		-pix_fmt yuyv422 -f rawvideo - | head -c 4 | od -An -tx1 | tr -d ' \n'
}

export -f load node_by_card load_loops

finish() {
	reap
	unload 2>/dev/null
	dmesg_clean "loop"
	echo "loop: $S_PASS passed, $S_FAIL failed"
	[ "$S_FAIL" = 0 ]
	exit
}

suite_begin loop
[ -x "$V" ] || { fail "no $V (tests/vm/build-helpers.sh)"; finish; }
RED=$(yuyv_of red)
BLUE=$(yuyv_of blue)
note "ffmpeg's YUYV red is $RED, blue $BLUE"

# ---- nodes ----
test_nodes() {
	unload 2>/dev/null
	if ! check "insmod negcam.ko loops=1 loop_captures=2 (devices=1, webcam)" 60 load_loops loops=1 loop_captures=2; then
		finish
	fi
	# load_loops ran in a subshell under check: find the nodes here.
	OUTN=$(node_by_card "negcam loop 0 output") CAP0=$(node_by_card "negcam loop 0 capture 0")
	CAP1=$(node_by_card "negcam loop 0 capture 1")
	note "output $OUTN, captures $CAP0 $CAP1"
	D_OUT=$(v4l2-ctl -d "$OUTN" -D) D_CAP=$(v4l2-ctl -d "$CAP0" -D)
	caps_of() { sed -n '/Device Caps/,$p' | grep -E '^\s+Video (Capture|Output)$' | sed 's/^\s*//' | tr '\n' ' '; }
	if [ "$(echo "$D_CAP" | caps_of)" = "Video Capture " ] && [ "$(echo "$D_OUT" | caps_of)" = "Video Output " ]; then
		pass "device caps: capture node 'Video Capture' only, output node 'Video Output' only"
	else
		fail "device caps: capture '$(echo "$D_CAP" | caps_of)', output '$(echo "$D_OUT" | caps_of)'"
	fi
	b1=$(echo "$D_OUT" | sed -n 's/.*Bus info *: //p') b2=$(echo "$D_CAP" | sed -n 's/.*Bus info *: //p')
	b3=$(v4l2-ctl -d "$CAP1" -D | sed -n 's/.*Bus info *: //p')
	if [ "$b1" = platform:negcam-loop-0 ] && [ "$b2" = "$b1" ] && [ "$b3" = platform:negcam-loop-0-1 ]; then
		pass "bus_info platform:negcam-loop-0 on the output node and capture node 0, platform:negcam-loop-0-1 on capture node 1"
	else
		fail "bus_info: output '$b1', capture 0 '$b2', capture 1 '$b3'"
	fi
	if nodes_of_driver negcam | xargs -r -n1 v4l2-ctl -D -d 2>/dev/null | grep -q 'Bus info *: platform:negcam-0$'; then
		pass "devices=1: the plain capture device is still there (platform:negcam-0)"
	else
		fail "devices=1: no platform:negcam-0 node next to the loop"
	fi
	sizes=$(v4l2-ctl -d "$CAP0" --list-formats-ext)
	if echo "$sizes" | grep -q 'Size: Discrete 640x480' && ! echo "$sizes" | grep -qE 'Stepwise|Continuous'; then
		pass "capture node: discrete sizes ($(echo "$sizes" | grep -c 'Size: Discrete') listed)"
	else
		fail "capture node sizes: $(echo "$sizes" | grep Size | sort -u | head -n 3 | tr '\n' ' ')"
	fi
	if v4l2-ctl -d "$OUTN" --list-formats-out | grep -q "'MJPG'"; then
		pass "output node offers the capture side's formats (YUYV, MJPG)"
	else
		fail "output node formats: $(v4l2-ctl -d "$OUTN" --list-formats-out | tr '\n' ' ')"
	fi
}

# ---- compliance ----
test_compliance() {
	log=$(logname "v4l2-compliance -s capture no producer")
	compliance_retry "loop capture node, no producer: v4l2-compliance -s" "$log" 600 -d "$CAP0" -s
	compliance_check "loop capture node, no producer: v4l2-compliance -s" "$log"
	log=$(logname "v4l2-compliance -s output")
	compliance_retry "loop output node (compliance is the producer): v4l2-compliance -s" "$log" 600 -d "$OUTN" -s
	compliance_check "loop output node (compliance is the producer): v4l2-compliance -s" "$log"
	"$V" fmt "$OUTN" 640x480 YUYV > /dev/null
	"$V" produce "$OUTN" 0 "$RED" > "$OUT/producer-compliance.log" 2>&1 &
	PIDS+=($!)
	sleep 1
	log=$(logname "v4l2-compliance -s capture with producer")
	compliance_retry "loop capture node, producer running: v4l2-compliance -s" "$log" 600 -d "$CAP0" -s
	compliance_check "loop capture node, producer running: v4l2-compliance -s" "$log"
	reap
}

# ---- placeholder ----
test_placeholder() {
	"$V" fmt "$CAP0" 640x480 YUYV > /dev/null
	check "placeholder: v4l2-ctl --stream-mmap --stream-count=30 with no producer" 120 \
		bash -c "v4l2-ctl -d $CAP0 --stream-mmap --stream-count=30 --verbose 2>&1 | tee /dev/stderr | grep -c 'bytesused: 614400' | grep -qx 30"
	check "placeholder: 60 frames, bytesused = sizeimage, sequence and timestamps increasing" 120 \
		"$V" consume "$CAP0" 60
	check "placeholder: ffmpeg -f v4l2 -frames 30, pts strictly increasing" 120 \
		bash -c "ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -i $CAP0 -frames:v 30 -c copy -f framecrc - |
			tee /dev/stderr | awk -F, '/^ *0,/ { n++; if (n > 1 && \$3 + 0 <= p) bad++; p = \$3 + 0 }
			END { print n \" frames, \" bad + 0 \" not increasing\"; exit !(n == 30 && bad == 0) }'"
}

# ---- producer first: ffmpeg writes, a consumer without a format reads ----
test_producer_first() {
	"$V" fmt "$CAP0" 320x240 MJPG > /dev/null
	ffmpeg -nostdin -hide_banner -loglevel error -re -f lavfi -i color=red:size=640x480:rate=30 \
		-pix_fmt yuyv422 -t 60 -f v4l2 "$OUTN" > "$OUT/ffmpeg-producer.log" 2>&1 &
	FFP=$!
	PIDS+=($FFP)
	# ffmpeg takes seconds to start under TCG: wait for its S_FMT to show.
	for i in $(seq 100); do
		got=$("$V" fmt "$CAP0")
		[ "${got% *}" = "640x480 YUYV" ] && break
		sleep 0.2
	done
	first=$(v4l2-ctl -d "$CAP0" --list-formats | sed -n "s/.*\[0\]: '\([A-Z0-9]*\)'.*/\1/p")
	if [ "${got% *}" = "640x480 YUYV" ] && [ "$first" = YUYV ]; then
		pass "producer's S_FMT decides: capture G_FMT '$got', ENUM_FMT index 0 $first (was 320x240 MJPG)"
	else
		fail "after the ffmpeg producer's S_FMT: capture G_FMT '$got', ENUM_FMT index 0 '$first', want 640x480 YUYV"
	fi
	check "ffmpeg producer: a consumer with no format gets 30 red 640x480 YUYV frames" 120 \
		bash -c "$V consume $CAP0 30 $RED | tee /dev/stderr | grep -qxE 'kinds: P+$STALLS'"
	check "ffmpeg producer: ffmpeg -f v4l2 (no format) reads 10 red 640x480 frames" 120 \
		bash -c "ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -i $CAP0 -frames:v 10 -f rawvideo -y $OUT/ff.yuv &&
			ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i color=red:size=640x480 -frames:v 1 \
				-pix_fmt yuyv422 -f rawvideo -y $OUT/red.yuv &&
			s=\$(stat -c %s $OUT/ff.yuv) && echo \"\$s bytes\" && [ \$s = $((640 * 480 * 2 * 10)) ] &&
			tail -c 614400 $OUT/ff.yuv | cmp - $OUT/red.yuv"
	reap
	rm -f "$OUT/ff.yuv"
}

# ---- consumer first: the producer is told ----
test_consumer_first() {
	"$V" fmt "$OUTN" 640x480 YUYV > /dev/null
	check "consumer first: S_FMT 320x240 on the capture node -> 'Format Requests' control event on the output node" 60 \
		"$V" event "$OUTN" "$V fmt $CAP0 320x240 YUYV"
	got=$("$V" fmt "$OUTN")
	want=$(v4l2-ctl -d "$OUTN" --get-ctrl wanted_width,wanted_height | tr '\n' ' ')
	note "output node controls after the request: $want"
	if [ "${got% *}" = "320x240 YUYV" ] && [ "$want" = "wanted_width: 320 wanted_height: 240 " ]; then
		pass "consumer first: output G_FMT answers the consumer's format ($got), Wanted Width/Height 320/240"
	else
		fail "consumer first: output G_FMT '$got', controls '$want', want 320x240 YUYV"
	fi
	# A producer already streaming 640x480: the consumer gets the placeholder
	# at its own size; the producer is told, restarts, and its frames arrive.
	"$V" fmt "$CAP1" 640x480 YUYV > /dev/null
	"$V" fmt "$OUTN" 640x480 YUYV > /dev/null
	"$V" produce "$OUTN" 0 "$RED" > "$OUT/producer-a.log" 2>&1 &
	PA=$!
	PIDS+=($PA)
	sleep 1
	"$V" fmt "$CAP0" 320x240 YUYV > /dev/null
	"$V" consume "$CAP0" 150 "$BLUE" > "$OUT/consumer-first.log" 2>&1 &
	CA=$!
	sleep 2
	busy=$("$V" fmt "$OUTN")
	kill "$PA"; wait "$PA" 2>/dev/null
	after=$("$V" fmt "$OUTN")
	try=$(v4l2-ctl -d "$OUTN" --try-fmt-video-out width=1280,height=720,pixelformat=YUYV | sed -n 's/.*Width\/Height *: //p')
	"$V" produce "$OUTN" 60 "$BLUE" > "$OUT/producer-b.log" 2>&1
	wait "$CA"
	st=$?
	note "output G_FMT while the producer streams: $busy; after it stopped: $after; TRY_FMT 1280x720 then: $try"
	if [ "${busy% *}" = "640x480 YUYV" ] && [ "${after% *}" = "320x240 YUYV" ] && [ "$try" = 320/240 ]; then
		pass "busy producer keeps 640x480 until it stops; then G_FMT and TRY_FMT answer the streaming consumer's 320x240"
	else
		fail "output format: busy '$busy', after '$after', TRY_FMT '$try'"
	fi
	judge_stream $st "$OUT/consumer-first.log" '^g+P+g*$' \
		"consumer streaming 320x240: placeholder, then the restarted producer's frames, no restart, no wrong size"
	reap
	# Between a producer's S_FMT and its REQBUFS a consumer asks another size:
	# the producer keeps the format it set until it frees its buffers or closes.
	check "a producer's S_FMT holds the output format until REQBUFS(0) or close; its buffers fit its frames" 60 \
		"$V" hold-fmt "$OUTN" "$CAP1"

	# The leading consumer's rate is asked of the producer too: a STREAMON at
	# 15 fps in the output node's format (so that only the rate differs) is a
	# request, and the output node's G_PARM answers 15 fps after it.
	"$V" fmt "$OUTN" 640x480 YUYV > /dev/null
	v4l2-ctl -d "$OUTN" --set-output-parm 30 > /dev/null
	check "consumer's rate: STREAMON at 15 fps in the producer's format -> 'Format Requests' event on the output node" 60 \
		"$V" event "$OUTN" "v4l2-ctl -d $CAP0 --set-fmt-video width=640,height=480,pixelformat=YUYV --set-parm 15 --stream-mmap --stream-count 3"
	fps=$(v4l2-ctl -d "$OUTN" --get-output-parm | sed -n 's/.*Frames per second: *\([0-9.]*\).*/\1/p')
	if [ "$fps" = 15.000 ]; then
		pass "the output node's G_PARM answers the consumer's 15 fps"
	else
		fail "the output node's G_PARM after a consumer streamed at 15 fps: '$fps' fps"
	fi
	v4l2-ctl -d "$OUTN" --set-output-parm 30 > /dev/null
}

# ---- GStreamer v4l2sink as producer, no tee or identity ----
test_v4l2sink_producer() {
	BLACK=10801080
	"$V" fmt "$CAP0" 640x480 YUYV > /dev/null
	"$V" consume "$CAP0" 90 "$BLACK" > "$OUT/v4l2sink.log" 2>&1 &
	CA=$!
	check "gst-launch-1.0 videotestsrc ! video/x-raw,format=YUY2,width=640,height=480 ! v4l2sink device=OUT (150 buffers)" 180 \
		gst-launch-1.0 -q videotestsrc pattern=black is-live=true num-buffers=150 ! \
			video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 ! v4l2sink device="$OUTN"
	wait "$CA"
	judge_stream $? "$OUT/v4l2sink.log" 'P{10}' "v4l2sink producer: the consumer read its black 640x480 frames"
}

# ---- a write() producer that starts with STREAMON (OBS Studio's way) ----
# OBS's virtual camera sets a format, calls STREAMON before it has any
# buffer, write()s frames and ends with STREAMOFF, as v4l2loopback allows;
# videobuf2 alone refuses that STREAMON (EINVAL, no buffers), so OBS
# could not use a loop. The vb2 rule still holds for a handle that asked
# for buffers, and a second handle stays out (EBUSY).
test_write_streamon_producer() {
	"$V" fmt "$CAP0" 640x480 YUYV > /dev/null
	"$V" consume "$CAP0" 40 "$RED" > "$OUT/write-streamon-consumer.log" 2>&1 &
	CA=$!
	check "write() producer: STREAMON with no buffers, 60 frames, STREAMOFF, twice on one handle; a second handle's STREAMON EBUSY; REQBUFS(0) then STREAMON EINVAL" 120 \
		"$V" write-streamon "$OUTN" 60 "$RED"
	wait "$CA"
	judge_stream $? "$OUT/write-streamon-consumer.log" "P{10}" \
		"write() producer begun by STREAMON: the consumer reads its red frames"
}

# ---- negcamconvertsink as producer follows the consumers ----
# The consumer asks first (320x240), the producer pipeline is written once
# with no size of its own and ends up writing 320x240; then a consumer asks
# 1280x720 and the same running producer follows (Format Requests control
# event -> RECONFIGURE upstream -> new caps), no restart. 3600 buffers
# (2 minutes): the two consumers take over 30 s under TCG on a loaded
# host, and the producer must still be running when they are done.
test_negcamconvertsink_follows() {
	"$V" fmt "$CAP0" 320x240 YUYV > /dev/null
	"$V" consume "$CAP0" 400 "$BLACK" > "$OUT/sink-a.log" 2>&1 &
	CA=$!
	sleep 1
	GST_PLUGIN_PATH=$NEGCAM_BUILD/gst gst-launch-1.0 -q videotestsrc pattern=black is-live=true num-buffers=3600 ! \
		negcamconvertsink device="$OUTN" > "$OUT/negcamsink.log" 2>&1 &
	PS=$!
	PIDS+=($PS)
	wait "$CA"
	judge_stream $? "$OUT/sink-a.log" 'P{10}' "negcamconvertsink producer: the 320x240 consumer that asked first reads its black frames"
	got=$("$V" fmt "$OUTN")
	[ "${got% *}" = "320x240 YUYV" ] && pass "negcamconvertsink producer: the output node streams the consumer's 320x240 ($got)" ||
		fail "negcamconvertsink producer: output G_FMT '$got', want 320x240 YUYV (log $OUT/negcamsink.log)"
	# The producer catches up within loop_timeout_ms of the consumer's STREAMON
	# (3 s here: the pipeline renegotiates slowly under TCG), so the consumer
	# pauses and never sees the placeholder.
	loop_timeout 3000
	"$V" fmt "$CAP0" 1280x720 YUYV > /dev/null
	"$V" consume "$CAP0" 400 "$BLACK" > "$OUT/sink-b.log" 2>&1
	judge_stream $? "$OUT/sink-b.log" '^P+$' "negcamconvertsink producer follows a consumer asking 1280x720 without a restart, no placeholder meanwhile"
	loop_timeout
	kill -0 "$PS" 2>/dev/null && pass "negcamconvertsink producer: the same gst-launch still running after the change" ||
		fail "negcamconvertsink producer ended (log $OUT/negcamsink.log)"
	kill "$PS" 2>/dev/null; wait "$PS" 2>/dev/null
	reap
}

# ---- a producer catching up never bursts (issue 39) ----
# The issue's sequence: `videotestsrc is-live=true ! negcamconvertsink`
# feeds the loop; a consumer reads 150 frames of MJPG 1280x720, or what it
# gets in 12 s (JPEG encoding under TCG runs far below the 30 fps
# negotiated, 1.7 fps on a loaded host, so the live source falls behind
# its clock); then a consumer at YUYV 320x240 30 fps reads 150 frames
# while the pipeline writes its backlog as fast as it can. A camera never
# delivers faster than its interval: those 150 frames take about 5 s (at
# least 4.5 s), and no two timestamps are closer than the interval less
# the loop's 1/64 (32.8 ms; 32.7 for rounding). Before the loop paced its
# capture side (docs/loopback.md, "Pacing"), 121 of the 149 gaps were
# under 30 ms, the shortest 0.14 ms.
# burst_read NODE WxH FOURCC N LOG [SECONDS]: v4l2-ctl reads N frames at
# 30 fps into LOG, or what it gets in SECONDS; prints the seconds it took.
burst_read() {
	local t0 w=${2%x*} h=${2#*x} st
	t0=$(now)
	timeout "${6:-120}" v4l2-ctl -d "$1" --set-fmt-video=width="$w",height="$h",pixelformat="$3" \
		--set-parm=30 --stream-mmap=4 --stream-count="$4" --verbose > "$5" 2>&1
	st=$?
	[ $st = 0 ] || { [ -n "${6:-}" ] && [ $st = 124 ]; } || return 1
	secs_since "$t0"
}
# burst_gaps LOG: "frames min_gap_us median_gap_us gaps_under_30ms" of a v4l2-ctl log.
burst_gaps() {
	local gaps n
	n=$(grep -c 'cap dqbuf:' "$1")
	gaps=$(awk '/cap dqbuf:/ { for (i = 1; i <= NF; i++) if ($i == "ts:") t = $(i + 1)
			split(t, a, "."); us = a[1] * 1000000 + a[2]
			if (n++) print us - last; last = us }' "$1" | sort -n)
	echo "$n $(echo "$gaps" | head -n1) $(echo "$gaps" | awk '{ g[NR] = $1 } END { print g[int((NR + 1) / 2)] + 0 }') $(echo "$gaps" | awk '$1 < 30000' | wc -l)"
}
# burst_fed OUT: producer frames the loop handed over so far (copied or shared).
burst_fed() { v4l2-ctl -d "$1" -C frame_copies,shared_frames 2>/dev/null | awk '{ n += $2 } END { print n + 0 }'; }
test_no_burst() {
	local ps w ta tb st fed0 fed1 n min med fast _
	loop_timeout 3000
	"$V" fmt "$CAP0" 1280x720 MJPG > /dev/null
	# A first MJPG consumer until the pipeline (slow to start under TCG)
	# delivers; the one that counts then takes its place at once.
	v4l2-ctl -d "$CAP0" --set-fmt-video=width=1280,height=720,pixelformat=MJPG --set-parm=30 \
		--stream-mmap=4 --stream-count=100000 > /dev/null 2>&1 &
	w=$!
	fed0=$(burst_fed "$OUTN")
	GST_PLUGIN_PATH=$NEGCAM_BUILD/gst gst-launch-1.0 videotestsrc is-live=true ! \
		negcamconvertsink device="$OUTN" > "$OUT/burst-sink.log" 2>&1 &
	ps=$!
	PIDS+=($ps)
	for _ in $(seq 240); do [ "$(burst_fed "$OUTN")" -gt $((fed0 + 5)) ] && break; sleep 0.5; done
	kill "$w"; wait "$w" 2>/dev/null
	fed0=$(burst_fed "$OUTN")
	ta=$(burst_read "$CAP0" 1280x720 MJPG 150 "$OUT/burst-a.log" 12) || ta=fail
	fed1=$(burst_fed "$OUTN")
	note "MJPG 1280x720: $(burst_gaps "$OUT/burst-a.log" | awk '{ print $1 " frames in '"$ta"' s, median gap " $3 " us" }'); producer frames handed over meanwhile: $((fed1 - fed0))"
	fed0=$fed1
	tb=$(burst_read "$CAP0" 320x240 YUYV 150 "$OUT/burst-b.log") || tb=fail
	fed1=$(burst_fed "$OUTN")
	read -r n min med fast <<< "$(burst_gaps "$OUT/burst-b.log")"
	note "YUYV 320x240 after it: $n frames in $tb s, gaps min $min us, median $med us, $fast under 30 ms; producer frames handed over meanwhile: $((fed1 - fed0))"
	st=$(awk -v t="$tb" -v n="$n" -v m="$min" 'BEGIN { print (t != "fail" && n == 150 && t >= 4.5 && m >= 32700) ? 0 : 1 }')
	if [ "$st" = 0 ] && [ $((fed1 - fed0)) -ge 75 ]; then
		pass "no burst: after a slow MJPG 1280x720 read ($ta s), 150 YUYV 320x240 frames at 30 fps took $tb s, timestamps at least $min us apart, $((fed1 - fed0)) producer frames handed over"
	else
		fail "burst: 150 YUYV 320x240 frames at 30 fps took $tb s (want >= 4.5), $n frames, gaps min $min us, $fast under 30 ms, $((fed1 - fed0)) producer frames handed over (want >= 75) (logs $OUT/burst-*.log)"
	fi
	kill "$ps" 2>/dev/null; wait "$ps" 2>/dev/null
	loop_timeout
	reap
}

# ---- a browser as the consumer (tests/vm/browser.sh: Chromium, headless) ----
# What a video-call page sees: the loop's capture nodes are cameras, its
# output node is not; with no producer the page gets the placeholder at
# once; then a producer written once (negcamconvertsink, red) follows the
# sizes the page asks, exactly and without scaling (resizeMode "none"):
# 320x240, then 1280x720 (which Chromium takes in MJPG), no restart.
browser_size() {	# LOG STEP WxH WHAT: the step got WxH from the device, red
	local l=$(grep "^step $2 " "$1" | tail -n1)
	case $l in
	*" settings $3@"*" none shown $3 frames "*) browser_red "${l#* rgb }" && { pass "$4 (${l#step })"; return; } ;;
	esac
	fail "$4: ${l:-$(tail -n1 "$1")} (log $1)"
}
# Chromium on capture node 0: the placeholder, then the producer at the page's sizes.
test_browser_consumer() {
	if ! command -v chromium > /dev/null; then
		fail "browser: chromium is not installed (make deps installs it)"
	else
		blog=$OUT/browser-placeholder.log
		"$NEGCAM_TREE/tests/vm/browser.sh" "negcam loop 0 capture 0" > "$blog" 2>&1
		st=$?
		cams=$(sed -n 's/^cameras //p' "$blog")
		case $cams in
		*'"negcam loop 0 capture 0"'*'"negcam loop 0 capture 1"'*)
			case $cams in *"loop 0 output"*) fail "browser lists the output node as a camera: $cams" ;;
			*) pass "browser: both capture nodes are cameras, the output node is not ($cams)" ;; esac ;;
		*) fail "browser cameras: '${cams:-none}' (log $blog)" ;;
		esac
		l=$(grep '^step default ' "$blog")
		if [ $st = 0 ] && echo "$l" | grep -qE 'settings ([0-9]+x[0-9]+)@.* shown \1 frames 10 '; then
			pass "browser, no producer: the page shows the placeholder at once (${l#step default })"
		else
			fail "browser, no producer: ${l:-$(tail -n1 "$blog")} (log $blog)"
		fi
		GST_PLUGIN_PATH=$NEGCAM_BUILD/gst gst-launch-1.0 -q videotestsrc pattern=red is-live=true num-buffers=36000 ! \
			negcamconvertsink device="$OUTN" > "$OUT/browser-sink.log" 2>&1 &
		PS=$!
		PIDS+=($PS)
		sleep 2
		blog=$OUT/browser-sizes.log
		"$NEGCAM_TREE/tests/vm/browser.sh" "negcam loop 0 capture 0" 320x240,1280x720 300 red > "$blog" 2>&1
		browser_size "$blog" 320x240 320x240 "browser asks 320x240: the producer follows, the page shows its red frames at 320x240"
		browser_size "$blog" 1280x720 1280x720 "browser asks 1280x720: the same producer follows ($("$V" fmt "$OUTN")), red frames at 1280x720"
		kill -0 "$PS" 2>/dev/null && pass "browser: one producer run served both sizes" ||
			fail "browser: the negcamconvertsink producer ended (log $OUT/browser-sink.log)"
		# Firefox opens the first node whose bus_info starts with the camera's.
		# The output node shares capture node 0's: before capture nodes came
		# first it opened the output node and getUserMedia failed (AbortError).
		# Capture node 1 has its own: before, picking it opened capture node 0,
		# which fails while another program streams there, as here.
		if ! command -v firefox-esr > /dev/null; then
			fail "browser: firefox-esr is not installed (make deps installs it)"
		else
			v4l2-ctl -d "$CAP0" --set-fmt-video=width=640,height=480,pixelformat=YUYV \
				--stream-mmap --stream-count=100000 > "$OUT/browser-cap0.log" 2>&1 &
			PC=$!
			PIDS+=($PC)
			blog=$OUT/browser-firefox.log
			NEGCAM_BROWSER=firefox "$NEGCAM_TREE/tests/vm/browser.sh" "negcam loop 0 capture 1" 640x480 300 red > "$blog" 2>&1
			cams=$(sed -n 's/^cameras //p' "$blog")
			case $cams in
			*"loop 0 output"*) fail "Firefox lists the output node as a camera: $cams" ;;
			*'"negcam loop 0 capture 0"'*'"negcam loop 0 capture 1"'*) pass "Firefox lists the capture nodes only ($cams)" ;;
			*) fail "Firefox cameras: '${cams:-none}' (log $blog)" ;;
			esac
			browser_size "$blog" 640x480 640x480 "Firefox picks capture node 1 while v4l2-ctl streams capture node 0: it opens capture node 1, red frames at 640x480"
			kill -0 "$PC" 2>/dev/null && pass "the v4l2-ctl consumer of capture node 0 streamed on meanwhile" ||
				fail "the v4l2-ctl consumer of capture node 0 ended (log $OUT/browser-cap0.log)"
			kill "$PC" 2>/dev/null; wait "$PC" 2>/dev/null
		fi
		reap
	fi
}

# ---- OBS Studio's Virtual Camera as the producer (docs/loopback.md) ----
# OBS 29 looks for a module named v4l2loopback: obs.sh loads Debian's with
# devices=0 (no node of its own). OBS then takes the loop's output node,
# the first node that outputs. The check is that OBS's frames arrive at
# all (obs.sh says why OBS stalls under TCG).
test_obs_producer() {
	if ! command -v obs > /dev/null; then
		fail "OBS: obs-studio is not installed (make deps installs it)"
	else
		olog=$OUT/obs.log
		"$NEGCAM_TREE/tests/vm/obs.sh" "$CAP0" 640x480 30 60 > "$olog" 2>&1
		l=$(grep -m1 '^started ' "$olog")
		case $l in
		*"negcam loop 0 output") pass "OBS: its Virtual Camera starts on the loop's output node (${l#started })" ;;
		*) fail "OBS: virtual camera: ${l:-$(grep -E '^(failed|result)' "$olog" | tr '\n' ' ')} (log $olog)" ;;
		esac
		l=$(grep -m1 '^frames ' "$olog") red=$(echo "$l" | awk '{ print $4 }')
		if grep -q '^stream yuyv422 640x480$' "$olog" && [ "${red:-0}" -ge 10 ]; then
			pass "OBS: ffmpeg with no format of its own reads OBS's red 640x480 YUYV frames (${l#frames })"
		else
			fail "OBS: consumer: $(grep -m1 '^stream' "$olog"); ${l:-no frames} (log $olog)"
		fi
	fi
}

# ---- camerabin (what Cheese builds on) takes a photo at its own size ----
# The viewfinder streams 640x480; the photo asks 1280x720, so v4l2src
# restarts at that size; the producer written once (negcamconvertsink,
# red) follows, and the consumer waits for it rather than take the
# placeholder (loop_timeout_ms, 3 s here: TCG renegotiates slowly). Before,
# the photo was the test pattern, and a consumer's request between the
# producer's S_FMT and REQBUFS ended the producer (QBUF EINVAL).
test_camerabin_photo() {
	loop_timeout 3000
	GST_PLUGIN_PATH=$NEGCAM_BUILD/gst gst-launch-1.0 -q videotestsrc pattern=red is-live=true num-buffers=36000 ! \
		negcamconvertsink device="$OUTN" > "$OUT/camerabin-sink.log" 2>&1 &
	PS=$!
	PIDS+=($PS)
	"$V" fmt "$CAP0" 640x480 YUYV > /dev/null
	cblog=$OUT/camerabin.log
	timeout 180 /usr/bin/python3 "$NEGCAM_TREE/tests/vm/camerabin-photo.py" "$CAP0" \
		video/x-raw,width=640,height=480 video/x-raw,width=1280,height=720 "$OUT/camerabin.jpg" > "$cblog" 2>&1
	l=$(grep '^photo ' "$cblog")
	case $l in
	"photo 1280x720 rgb "*) browser_red "${l#* rgb }" && pass "camerabin: a 1280x720 photo while the viewfinder streams 640x480 is the producer's red picture (${l#photo })" ||
		fail "camerabin: the 1280x720 photo is not the producer's picture: ${l#photo } (the placeholder?)" ;;
	*) fail "camerabin: ${l:-$(tail -n1 "$cblog")} (log $cblog)" ;;
	esac
	kill -0 "$PS" 2>/dev/null && pass "camerabin: the negcamconvertsink producer followed both sizes and is still running" ||
		fail "camerabin: the producer ended: $(grep -m1 ERROR "$OUT/camerabin-sink.log") (log $OUT/camerabin-sink.log)"
	kill "$PS" 2>/dev/null; wait "$PS" 2>/dev/null
	loop_timeout
}

# What Firefox relies on: the first /dev/videoN carrying a bus_info is a
# capture node (nodes of one device share it; a loop's output node comes
# after its capture nodes, as a camera's metadata node does).
test_first_node_captures() {
	first_bus=$(for n in $(ls /dev/video* | sort -V); do
		v4l2-ctl -d "$n" -D 2>/dev/null | awk -v n="$n" '/Bus info/ {b = $NF} /Device Caps/ {d = 1} d && /Video (Capture|Output)$/ {print b, n, $2; exit}'
	done | awk '!seen[$1]++')
	if [ -n "$first_bus" ] && ! echo "$first_bus" | grep -qv ' Capture$'; then
		pass "the first node of each bus_info captures: $(echo "$first_bus" | awk '{printf "%s %s; ", $1, $2}')"
	else
		fail "a bus_info's first node does not capture: $(echo "$first_bus" | tr '\n' ';')"
	fi
}

# ---- producer killed mid-stream, restarted ----
test_producer_killed() {
	"$V" fmt "$CAP0" 640x480 YUYV > /dev/null
	"$V" fmt "$OUTN" 640x480 YUYV > /dev/null
	"$V" consume "$CAP0" 200 "$RED" > "$OUT/kill.log" 2>&1 &
	CA=$!
	"$V" produce "$OUTN" 0 "$RED" > /dev/null 2>&1 &
	PA=$!
	sleep 2
	kill -9 "$PA"; wait "$PA" 2>/dev/null
	sleep 2
	"$V" produce "$OUTN" 0 "$RED" > /dev/null 2>&1 &
	PA=$!
	PIDS+=($PA)
	wait "$CA"
	st=$?
	reap
	judge_stream $st "$OUT/kill.log" 'P+g+P+' \
		"producer killed (SIGKILL): placeholder with increasing timestamps, restarted: its frames come back"
}

# ---- two consumers, one killed ----
test_two_consumers() {
	"$V" fmt "$CAP1" 640x480 YUYV > /dev/null
	"$V" produce "$OUTN" 0 "$RED" > /dev/null 2>&1 &
	PIDS+=($!)
	"$V" consume "$CAP0" 150 "$RED" > "$OUT/two-a.log" 2>&1 &
	CA=$!
	"$V" consume "$CAP1" 100000 "$RED" > "$OUT/two-b.log" 2>&1 &
	CB=$!
	sleep 2
	kill -9 "$CB"; wait "$CB" 2>/dev/null
	wait "$CA"
	st=$?
	reap
	# (A consumer that starts before the producer's first frame gets the
	# placeholder until then, by design: a slow start under TCG does that.)
	judge_stream $st "$OUT/two-a.log" "^g{0,10}P+$STALLS\$" \
		"two consumers: the second killed, the first read the producer's frames throughout"
}

# ---- shared buffers: the producer's frames reach capture 0 without a copy ----
# (negcam-loop-share.c) Every page of each frame carries its number: a frame
# read while written, or changed while the consumer holds it, fails; so
# does a producer that stalls while the consumer stops reading for 1 s.
# Capture 1 reads at the same time, by copy.
test_shared_buffers() {
	"$V" fmt "$OUTN" 640x480 YUYV > /dev/null
	"$V" fmt "$CAP0" 640x480 YUYV > /dev/null
	"$V" fmt "$CAP1" 640x480 YUYV > /dev/null
	"$V" consume "$CAP1" 200 > "$OUT/share-b.log" 2>&1 &
	CB=$!
	check "shared buffers: 150 frames in the producer's memory, none torn or changed while held, the producer never stalled, most shared" 180 \
		"$V" share "$OUTN" "$CAP0" 150
	if wait "$CB"; then
		pass "shared buffers: a second consumer beside them reads 200 frames by copy, sizes and order right"
	else
		fail "shared buffers: the second consumer failed (log $OUT/share-b.log)"
	fi
}

# ---- rmmod in every state ----
# An open handle holds the module: rmmod must fail cleanly, then succeed.
rmmod_state() {
	local what=$1 pids=() p ok=0
	shift
	while [ $# -gt 0 ]; do
		bash -c "$1" > /dev/null 2>&1 &
		pids+=($!)
		shift
	done
	sleep 1.5
	rmmod negcam 2> /dev/null && ok=1
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	unload || { fail "rmmod after $what: module still loaded"; return 1; }
	[ $ok = 1 ] && note "rmmod during '$what' succeeded at once"
	dmesg_clean "rmmod with $what" || return 1
	load_loops loops=1 loop_captures=2 || { fail "reload after $what"; return 1; }
}
# rmmod with producer, consumers or idle handles open, then with nothing open.
test_rmmod_states() {
	rmmod_state "producer and two consumers streaming" "$V produce $OUTN 0 $RED" "$V consume $CAP0 100000" "$V consume $CAP1 100000"
	rmmod_state "producer streaming, no consumer" "$V produce $OUTN 0 $RED"
	rmmod_state "consumer streaming, no producer" "$V consume $CAP0 100000"
	rmmod_state "handles open, idle" "$V while-open $OUTN 'sleep 5'" "$V while-open $CAP0 'sleep 5'"
	unload
	check "rmmod with nothing open" 30 bash -c "! [ -d /sys/module/negcam ]"
}

# ---- 100 cycles from both sides at once ----
test_100_cycles() {
	load_loops loops=1 loop_captures=2
	check "100 open/S_FMT/REQBUFS/STREAMON/close cycles on the output and a capture node at once" 600 \
		bash -c "$V cycle $OUTN 100 & a=\$!; $V cycle $CAP0 100; b=\$?; wait \$a; [ \$? = 0 ] && [ \$b = 0 ]"
	dmesg_clean "100 cycles"
	unload
}

# ---- a loop made at run time through configfs ----
CFSL=/sys/kernel/config/negcam/loops
cfs_loop() {
	local n o c
	mkdir "$CFSL/cam" || return 1
	echo 2 > "$CFSL/cam/captures" && echo vga > "$CFSL/cam/profile" && echo 1 > "$CFSL/cam/enable" || return 1
	n=$(cat "$CFSL/cam/nodes")
	echo "nodes: $n"
	o=/dev/$(echo "$n" | awk '{ print $2 }') c=/dev/$(echo "$n" | awk '{ print $4 }')
	v4l2-ctl -d "$o" -D | grep -q 'Card type *: negcam loop 1 output$' || { echo "card of $o"; return 1; }
	v4l2-ctl -d "$c" -D | grep -q 'Card type *: negcam loop 1 capture 0$' || { echo "card of $c"; return 1; }
	[ "$(echo "$n" | wc -w)" = 6 ] || { echo "want 2 capture nodes"; return 1; }
	if echo webcam > "$CFSL/cam/profile" 2>/dev/null; then echo "profile store while enabled: no EBUSY"; return 1; fi
	"$V" consume "$c" 20 || return 1
	echo 0 > "$CFSL/cam/enable" && [ ! -e "$o" ] || { echo "$o still there after enable=0"; return 1; }
	rmdir "$CFSL/cam"
}
export CFSL V
export -f cfs_loop
# Two configfs loops switched on and off at once: one's enable may come while
# the other's removal still holds its platform device negcam-loop.N. Every
# enable must succeed, with no "duplicate filename" in the kernel log (the
# storm's finding: a slot was reused before its device was gone).
cfs_churn_one() {
	local d=$CFSL/$1 i
	mkdir "$d" || return 1
	for i in $(seq 1 "$2"); do
		echo 1 > "$d/enable" || { echo "$1: enable $i failed"; return 1; }
		echo 0 > "$d/enable" || { echo "$1: disable $i failed"; return 1; }
	done
	rmdir "$d"
}
cfs_churn() {
	local a b
	cfs_churn_one churn-a 40 & a=$!
	cfs_churn_one churn-b 40 & b=$!
	wait $a || return 1
	wait $b || return 1
	! dmesg | grep -E 'duplicate filename|kobject_add_internal failed|cannot create it'
}
export -f cfs_churn_one cfs_churn
# A configfs loop made and removed, then two switched on and off at once.
test_configfs_loop() {
	load_loops loops=1
	check "configfs: mkdir loops/cam, captures=2, profile=vga, enable=1 -> loop 1 with 2 capture nodes, streams; enable=0, rmdir" 120 cfs_loop
	rmdir "$CFSL/cam" 2>/dev/null
	check "configfs: two loops enabled and disabled at once, 40 rounds each: every enable succeeds, no duplicate device name" 600 cfs_churn
	rmdir "$CFSL/churn-a" "$CFSL/churn-b" 2>/dev/null
	unload
	check "rmmod after the configfs loop" 30 bash -c "! [ -d /sys/module/negcam ]"
}

# ---- labels: the names applications list (loop_labels=, configfs label) ----
label_cards() {	# LABEL NCAP: the nodes are LABEL, LABEL (2)..., LABEL (output)
	local i
	node_by_card "$1 (output)" > /dev/null || { echo "no node '$1 (output)'"; return 1; }
	node_by_card "$1" > /dev/null || { echo "no node '$1'"; return 1; }
	for ((i = 2; i <= $2; i++)); do
		node_by_card "$1 ($i)" > /dev/null || { echo "no node '$1 ($i)'"; return 1; }
	done
}
labels_param() {
	load loops=2 loop_captures=2 'loop_labels="Studio Cam,Desk"' || return 1
	label_cards "Studio Cam" 2 && label_cards Desk 2 || return 1
	v4l2-ctl -d "$(node_by_card "Studio Cam")" -D | grep -q 'Bus info *: platform:negcam-loop-0$' || { echo "bus_info"; return 1; }
	! node_by_card "negcam loop 0 output" > /dev/null
}
labels_too_long() {
	local d0=$(dmesg | wc -l)
	if load 'loop_labels="a label that is too long"'; then echo "insmod accepted 24 characters"; return 1; fi
	dmesg | tail -n +$((d0 + 1)) | grep "loop_labels: 'a label that is too long': at most 22"
}
labels_cfs() {
	local d=/sys/kernel/config/negcam/loops/named c
	mkdir "$d" || return 1
	echo "Call Cam" > "$d/label" || return 1
	[ "$(cat "$d/label")" = "Call Cam" ] || { echo "label reads '$(cat "$d/label")'"; return 1; }
	if echo "a label that is too long" > "$d/label" 2>/dev/null; then echo "24 characters accepted"; return 1; fi
	echo 1 > "$d/enable" || return 1
	label_cards "Call Cam" 1 || return 1
	c=$(node_by_card "Call Cam")
	v4l2-ctl -d "$c" --stream-mmap --stream-count=5 > /dev/null || { echo "'Call Cam' does not stream"; return 1; }
	if echo Other > "$d/label" 2>/dev/null; then echo "label changed while enabled: no EBUSY"; return 1; fi
	echo 0 > "$d/enable" && rmdir "$d"
}
export -f label_cards labels_param labels_too_long labels_cfs
# loop_labels=, a label too long, a label through configfs.
test_labels() {
	check "loop_labels=\"Studio Cam,Desk\": nodes 'Studio Cam', 'Studio Cam (2)', 'Studio Cam (output)', 'Desk', 'Desk (2)', 'Desk (output)'; bus_info unchanged" 60 labels_param
	unload
	check "loop_labels with 24 characters: insmod refuses it, the kernel log names it" 30 labels_too_long
	unload 2>/dev/null
	load_loops loops=1
	check "configfs label 'Call Cam': nodes 'Call Cam' and 'Call Cam (output)', it streams; 24 characters EINVAL; EBUSY while enabled" 120 labels_cfs
	rmdir /sys/kernel/config/negcam/loops/named 2>/dev/null
	unload
}

# Follow mode narrows the capture side to the producer's format while it
# streams (v4l2loopback's model): one fourcc, one discrete size, its rate;
# S_FMT answers it whatever is asked, so consumers with no format of
# their own (ffmpeg tries YU12 first, v4l2src fixates the largest size)
# get the producer's frames, not the placeholder at another format. With
# the producer gone the whole list is back.
follow_narrow() {
	local list nf sizes ivals pix ff caps log
	"$V" fmt "$OUTN" 640x480 YUYV > /dev/null
	"$V" produce "$OUTN" 0 "$RED" > "$OUT/narrow-producer.log" 2>&1 &
	PIDS+=($!)
	sleep 1
	list=$(v4l2-ctl -d "$CAP0" --list-formats-ext)
	nf=$(echo "$list" | grep -c "^[[:space:]]*\[[0-9]*\]: '")
	sizes=$(echo "$list" | grep 'Size:' | sed 's/^[[:space:]]*//' | paste -sd, -)
	ivals=$(echo "$list" | grep 'Interval:' | sed 's/^[[:space:]]*//' | paste -sd, -)
	note "capture node while the producer streams: $nf format(s), sizes '$sizes', intervals '$ivals'"
	if [ "$nf" = 1 ] && echo "$list" | grep -q "\[0\]: 'YUYV'" && [ "$sizes" = "Size: Discrete 640x480" ] &&
	   echo "$ivals" | grep -qx 'Interval: Discrete 0.033s (30.000 fps)'; then
		pass "follow, producer streaming: capture ENUM_FMT lists YUYV alone, one discrete size 640x480, its 30 fps"
	else
		fail "follow, producer streaming: capture lists $nf format(s), sizes '$sizes', intervals '$ivals'"
	fi
	# S_FMT (v4l2-ctl refuses to ask for a fourcc ENUM_FMT does not list)
	pix=$("$V" fmt "$CAP0" 3840x2160 YU12)
	if [ "${pix% *}" = "640x480 YUYV" ]; then
		pass "follow, producer streaming: capture S_FMT 3840x2160 YU12 answers the producer's 640x480 YUYV"
	else
		fail "follow, producer streaming: capture S_FMT 3840x2160 YU12 answers '$pix'"
	fi
	log=$(logname "v4l2-compliance -s follow capture narrowed")
	compliance_retry "follow capture node, producer streaming (narrowed): v4l2-compliance -s" "$log" 600 -d "$CAP0" -s
	compliance_check "follow capture node, producer streaming (narrowed): v4l2-compliance -s" "$log"
	rm -f "$OUT/narrow.yuv"
	ff=$(ffmpeg -nostdin -hide_banner -f v4l2 -i "$CAP0" -frames:v 10 -f rawvideo -y "$OUT/narrow.yuv" 2>&1 |
		tr '\r' '\n' | grep -m1 'Stream #0:0: Video:' | sed -E 's/.*Video: //; s/, [0-9.]+ fps.*//')
	pix=$(head -c 4 "$OUT/narrow.yuv" 2>/dev/null | od -An -tx1 | tr -d ' \n')
	if echo "$ff" | grep -q 'yuyv422.*640x480' && [ "$pix" = "$RED" ]; then
		pass "follow, producer streaming: ffmpeg -f v4l2 with no format reads the producer's red 640x480 YUYV ($ff)"
	else
		fail "follow, producer streaming: ffmpeg with no format got '$ff', first pixel '$pix' (red $RED)"
	fi
	caps=$(timeout -k 5 120 gst-launch-1.0 -v v4l2src device="$CAP0" num-buffers=5 ! fakesink 2>&1 |
		grep -m1 -o 'v4l2src0.GstPad:src: caps = .*' | sed 's/.*caps = //; s/([a-z]*)//g')
	if echo "$caps" | grep -q 'format=YUY2, width=640, height=480'; then
		pass "follow, producer streaming: v4l2src with no caps negotiates the producer's YUY2 640x480"
	else
		fail "follow, producer streaming: v4l2src caps '$caps'"
	fi
	reap
	if [ "$(v4l2-ctl -d "$CAP0" --list-formats-ext | grep -c "^[[:space:]]*\[[0-9]*\]: '")" = 10 ] &&
	   v4l2-ctl -d "$CAP0" --list-formats-ext | grep -q 'Size: Discrete 3840x2160'; then
		pass "follow, producer stopped: the capture node lists the whole follow profile again"
	else
		fail "follow, producer stopped: capture sizes $(v4l2-ctl -d "$CAP0" --list-formats-ext | grep Size | head -n 2 | tr '\n' ' ')"
	fi
	rm -f "$OUT/narrow.yuv"
}

# ---- follow mode: the producer changes size mid-stream ----
test_follow_mode() {
	if check "insmod loops=1 loop_profile=follow devices=0" 60 load_loops loops=1 loop_profile=follow devices=0; then
		OUTN=$(node_by_card "negcam loop 0 output") CAP0=$(node_by_card "negcam loop 0 capture 0")
		# No producer yet: common sizes, discrete, so that a browser lists the
		# camera; the producer may set any size (output node: stepwise).
		csz=$(v4l2-ctl -d "$CAP0" --list-formats-ext | grep 'Size:')
		if ! echo "$csz" | grep -qv 'Size: Discrete' && [ "$(echo "$csz" | wc -l)" -ge 100 ] &&
		   v4l2-ctl -d "$OUTN" --list-formats-out-ext | grep -q 'Size: Stepwise 16x16 - 3840x2160'; then
			pass "follow, no producer: discrete sizes on the capture node ($(echo "$csz" | wc -l)), stepwise on the output node"
		else
			fail "follow: capture sizes $(echo "$csz" | head -n 2 | tr '\n' ' '), output $(v4l2-ctl -d "$OUTN" --list-formats-out-ext | grep -m1 Size)"
		fi
		# a real client: not in quick (LOOP_CLIENTS, below)
		if [ "${NEGCAM_VM_MODE:-loop}" != quick ] && command -v chromium > /dev/null; then
			blog=$OUT/browser-follow.log
			"$NEGCAM_TREE/tests/vm/browser.sh" "negcam loop 0 capture 0" > "$blog" 2>&1
			l=$(grep '^step default ' "$blog")
			if echo "$l" | grep -qE 'settings ([0-9]+x[0-9]+)@.* shown \1 frames 10 '; then
				pass "follow, no producer: the browser lists the camera and shows the placeholder (${l#step default })"
			else
				fail "follow, no producer, browser: ${l:-$(grep -E '^(cameras|result)' "$blog" | tr '\n' ' ')} (log $blog)"
			fi
		fi
		# A producer size no camera lists: the consumers get it exactly, and
		# the nearest listed size once the producer stops.
		"$V" fmt "$OUTN" 1366x768 YUYV > /dev/null
		got=$("$V" fmt "$CAP0")
		"$V" produce "$OUTN" 10 "$RED" > /dev/null 2>&1
		after=$("$V" fmt "$CAP0")
		if [ "${got% *}" = "1366x768 YUYV" ] && [ "${after% *}" = "1280x720 YUYV" ]; then
			pass "follow: the producer's 1366x768 is the consumers' G_FMT; once it stopped, the nearest listed 1280x720"
		else
			fail "follow: producer 1366x768: capture G_FMT '$got', after it stopped '$after' (want 1366x768, then 1280x720)"
		fi
		"$V" fmt "$OUTN" 640x480 YUYV > /dev/null
		"$V" consume "$CAP0" 150 "$RED" > "$OUT/follow.log" 2>&1 &
		CA=$!
		"$V" produce "$OUTN" 30 "$RED" > /dev/null 2>&1
		"$V" fmt "$OUTN" 320x240 YUYV > /dev/null
		"$V" produce "$OUTN" 30 "$RED" > /dev/null 2>&1
		wait "$CA"
		st=$?
		cat "$OUT/follow.log"
		kinds=$(sed -n 's/^kinds: //p' "$OUT/follow.log")
		events=$(sed -n 's/.* out of order, \([0-9]*\) events/\1/p' "$OUT/follow.log")
		if [ $st = 0 ] && echo "$kinds" | grep -q P && [ "${events:-0}" -ge 1 ]; then
			pass "follow: size change 640x480 -> 320x240 mid-stream: the 640x480 consumer got no wrong-sized buffer, $events event(s)"
		else
			fail "follow: status $st, kinds '$kinds', events '${events:-}' (log $OUT/follow.log)"
		fi
		got=$("$V" fmt "$CAP0")
		if [ "${got% *}" = "320x240 YUYV" ]; then
			pass "follow: a consumer starting later sees the producer's 320x240 in G_FMT"
		else
			fail "follow: capture G_FMT '$got' after the producer's change, want 320x240 YUYV"
		fi
		follow_narrow
		unload
	fi
}

# ---- negcam-ctl loop: a virtual webcam in one command ----
CTL=$NEGCAM_BUILD/ctl/negcam-ctl
# add, list (idle, then a producer live and one consumer), a busy remove
# refused, remove; the nodes and the configfs directory go with it.
ctl_loop_cycle() {
	local out o c list p k
	out=$("$CTL" loop add --label Meeting --captures 2 --profile webcam) || { echo "add: $out"; return 1; }
	echo "$out"
	o=$(echo "$out" | awk '$1 == "output" { print $2 }') c=$(echo "$out" | awk '$1 == "capture0" { print $2 }')
	[ -c "$o" ] && [ -c "$c" ] || { echo "no nodes printed"; return 1; }
	echo "$out" | grep -q "^  capture1 .*/dev/v4l/by-id/negcam-Meeting-capture1$" || { echo "stable names"; return 1; }
	list=$("$CTL" loop list) && echo "$list"
	echo "$list" | grep -q '"Meeting": profile webcam, producer none, 0 consumers streaming' || return 1
	"$V" fmt "$o" 640x480 YUYV > /dev/null && "$V" fmt "$c" 640x480 YUYV > /dev/null
	"$V" produce "$o" 0 "$RED" > /dev/null 2>&1 & p=$!
	"$V" consume "$c" 300 > /dev/null 2>&1 & k=$!
	sleep 3
	list=$("$CTL" loop list) && echo "$list"
	echo "$list" | grep -q '"Meeting": profile webcam, producer live, 1 consumer streaming, format YUYV 640x480' ||
		{ kill $p $k; return 1; }
	if "$CTL" loop remove Meeting; then echo "a busy loop was removed"; kill $p $k; return 1; fi
	kill $p $k; wait $p $k 2>/dev/null
	"$CTL" loop remove Meeting || return 1
	[ ! -e "$o" ] && [ -z "$(ls "$CFSL")" ] || { echo "$o or a configfs directory left"; return 1; }
}
# What the kernel refuses leaves nothing behind: a loop whose label is
# taken, and an add beyond the module's eight loops.
ctl_loop_refusals() {
	local i
	"$CTL" loop add --label Twice > /dev/null || return 1
	if "$CTL" loop add --label Twice; then echo "a second 'Twice' was made"; return 1; fi
	for i in 1 2 3 4 5 6 7; do "$CTL" loop add > /dev/null || { echo "loop $i of 8"; return 1; }; done
	if "$CTL" loop add; then echo "a ninth loop was made"; return 1; fi
	[ "$(ls "$CFSL" | wc -l)" = 8 ] || { echo "half-made loop: $(ls "$CFSL")"; return 1; }
	for i in $(ls "$CFSL"); do rmdir "$CFSL/$i" || return 1; done
}
export CTL RED
export -f ctl_loop_cycle ctl_loop_refusals
test_ctl_loop() {
	unload 2>/dev/null
	load devices=0 || { fail "negcam-ctl loop: insmod"; return; }
	check "negcam-ctl loop add --label Meeting --captures 2: nodes and stable names printed; list shows it idle, then producer live and 1 consumer with the format; busy remove refused; remove takes nodes and configfs directory" 120 ctl_loop_cycle
	check "negcam-ctl loop add: a taken label and a ninth loop refused, nothing half-made" 120 ctl_loop_refusals
	unload
}

# The suite, feature by feature (each test_* above says what it checks);
# NEGCAM_LOOP_TESTS="test_nodes test_browser_consumer" runs only those
# (test_nodes first: it loads the module the others use).
# The real clients (Chromium and Firefox, OBS, camerabin, and Chromium on
# a follow-mode loop: about 5 minutes under TCG) run in the loop suite alone (tests/vm/run.sh loop, make
# test-loop-clients) and in full, not in quick (make test's 30 minutes);
# their last result is in docs/loopback.md.
LOOP_CLIENTS="test_browser_consumer test_obs_producer test_camerabin_photo"
[ "${NEGCAM_VM_MODE:-loop}" = quick ] && LOOP_CLIENTS=
LOOP_TESTS="test_nodes test_compliance test_placeholder test_producer_first test_consumer_first test_v4l2sink_producer test_write_streamon_producer
	test_negcamconvertsink_follows test_no_burst $LOOP_CLIENTS test_first_node_captures test_producer_killed test_two_consumers
	test_shared_buffers test_rmmod_states test_100_cycles test_configfs_loop test_labels test_ctl_loop test_follow_mode"
for t in ${NEGCAM_LOOP_TESTS:-$LOOP_TESTS}; do
	"$t"
done
finish
}
