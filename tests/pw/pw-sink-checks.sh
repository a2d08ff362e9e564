# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# tests/pw/pw-sink-checks.sh: the pw suite's checks of negcampwconvertsink
# (a GStreamer pipeline as the PipeWire camera), sourced by
# tests/pw/pw-suite.sh after pw-checks.sh (it uses check, wait_for, T,
# node_summary and $SIZES). The producer is a live videotestsrc of one
# solid colour behind identity (which prints each buffer it passes, so
# the producer's work is counted from outside); the sink's log
# (GST_DEBUG negcampwsink, negcamsinkcore) says each negotiation.
#   bad input: PipeWire not running, a 200-character label, a profile
#     that does not load: one ERROR line each, the pipeline fails
#   the node: Video/Source, media.role Camera, the label as description
#   producer on demand: with no consumer, no buffer passes identity
#   pipewiresrc at YUY2 320x240, 640x480, 1280x720 and MJPG 1280x720:
#     that size, the producer's colour (by pixel), the pipeline
#     renegotiated to it
#   a consumer asking a size the profile lacks: one warning line
#   two consumers at once
#   the last consumer gone: no more buffers pass identity (counters)
#   late frames dropped: a backlog of 3 s in a queue, released, reaches
#     a consumer at the interval, not in a burst (fails with the sink's
#     max-lateness off); after a hold with no queue, no burst either

SINK_NODE=negcam.Sink-Camera
SINK_RGB="32 192 64" # foreground-color=0xff20c040

# The ERROR lines of a pipeline into negcampwsink with $@ (properties).
sink_errors() {
	timeout 20 gst-launch-1.0 videotestsrc num-buffers=1 ! negcampwsink "$@" 2>&1 | grep '^ERROR: from element'
}

pw_sink_bad_input() {
	local d out
	d=$(mktemp -d)
	out=$(unset PIPEWIRE_REMOTE PIPEWIRE_RUNTIME_DIR; XDG_RUNTIME_DIR=$d sink_errors)
	echo "$out"
	check "negcampwsink, PipeWire not running: one error line that says how to start it" \
		test "$(grep -c 'PipeWire is not running.*systemctl --user start pipewire' <<<"$out")" = 1
	rmdir "$d"
	out=$(sink_errors label="$(printf 'L%.0s' $(seq 200))")
	echo "$out"
	check "negcampwsink, a 200-character label: one error line" \
		test "$(grep -c 'The label is 200 characters; it must have at most 63' <<<"$out")" = 1
	printf 'name bad\nformat YUYV\n  size 640xQ fps 30\n' >"$T/sink-bad.profile"
	out=$(sink_errors profile="$T/sink-bad.profile")
	echo "$out"
	check "negcampwsink, a profile that does not parse: one error line with its file:line" \
		test "$(grep -c "Cannot load profile .*$T/sink-bad.profile:3:" <<<"$out")" = 1
}

pw_sink_start() {
	[ -f "$GST_PLUGIN_PATH/libgstnegcam.so" ] || { check "negcampwconvertsink built" false; return 1; }
	GST_DEBUG=negcampwsink:4,negcamsinkcore:4 GST_DEBUG_NO_COLOR=1 timeout 300 gst-launch-1.0 -v \
		videotestsrc is-live=true pattern=solid-color foreground-color=0xff20c040 \
		! identity silent=false ! negcampwconvertsink label="Sink Camera" \
		>"$T/sink.out" 2>"$T/sink.log" &
	SINKPID=$!
	wait_for "[ -n \"\$(node_summary $SINK_NODE)\" ]" 150
	check "negcampwconvertsink publishes its node" test -n "$(node_summary "$SINK_NODE")"
}

# Buffers the producer made so far (identity's lines).
sink_made() { grep -c 'chain .*(identity0:sink)' "$T/sink.out"; }

pw_sink_check_listed() {
	local s a b
	s=$(node_summary "$SINK_NODE")
	echo "node: ${s:0:200}"
	check "negcampwconvertsink: Video/Source, media.role Camera, described by its label" \
		grep -q "^Video/Source Camera 'Sink Camera' 20 " <<<"$s"
	sleep 1
	a=$(sink_made)
	sleep 2
	b=$(sink_made)
	echo "producer buffers with no consumer: $a, 2 s later $b"
	check "producer on demand: no consumer, nothing made (at most the one held, before conversion)" \
		test "$a" -le 1 -a "$b" = "$a"
}

# The middle pixel of the last RGB frame of $1 ($2 x $3) near $SINK_RGB.
sink_colour() {
	python3 - "$@" $SINK_RGB <<'EOF2'
import sys
f, w, h, r, g, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), *map(int, sys.argv[4:7])
d = open(f, 'rb').read()
n = w * h * 3
if len(d) < n:
    sys.exit(1)
last = d[len(d) - n:]
o = ((h // 2) * w + w // 2) * 3
px = tuple(last[o:o + 3])
print('pixel', px, 'want', (r, g, b), file=sys.stderr)
sys.exit(0 if all(abs(x - y) <= 12 for x, y in zip(px, (r, g, b))) else 1)
EOF2
}

# One size: name, consumer caps, w, h, the decoder elements (MJPG).
sink_size_case() {
	local name=$1 caps=$2 w=$3 h=$4
	shift 4
	local f=$T/sink-${w}x$h.rgb tail=() neg
	for e in "$@"; do tail+=("$e" '!'); done
	timeout 40 gst-launch-1.0 -q pipewiresrc target-object="$SINK_NODE" num-buffers=5 ! "$caps" \
		! "${tail[@]}" videoconvert ! video/x-raw,format=RGB ! filesink location="$f" >"$f.log" 2>&1
	check "negcampwconvertsink $name: 5 frames of ${w}x$h" test "$(stat -c %s "$f" 2>/dev/null)" = $((5 * w * h * 3))
	check "negcampwconvertsink $name: the producer's colour" sink_colour "$f" "$w" "$h"
	case $name in
	MJPG*) neg="negotiation [0-9]*: image/jpeg, .*width=(int)$w, height=(int)$h" ;;
	*) neg="negotiation [0-9]*: video/x-raw, format=(string)YUY2, width=(int)$w, height=(int)$h" ;;
	esac
	check "negcampwconvertsink $name: the pipeline renegotiated to it" grep -q "$neg" "$T/sink.log"
	echo "| negcampwconvertsink | $name | $(grep -o "negotiation [0-9]*: [a-z/-]*, [^,]*, width=(int)$w, height=(int)$h" "$T/sink.log" | tail -1 | sed 's/negotiation [0-9]*: //; s/(int)//g; s/(string)//') | colour $(sink_colour "$f" "$w" "$h" 2>&1 | sed 's/ want.*//') |" >>"$SIZES"
}

pw_sink_check_sizes() {
	sink_size_case "YUY2 320x240" video/x-raw,format=YUY2,width=320,height=240 320 240
	sink_size_case "YUY2 640x480" video/x-raw,format=YUY2,width=640,height=480 640 480
	sink_size_case "YUY2 1280x720" video/x-raw,format=YUY2,width=1280,height=720 1280 720
	sink_size_case "MJPG 1280x720" image/jpeg,width=1280,height=720 1280 720 jpegdec
	check "negcampwconvertsink MJPG 1280x720: jpegenc in the chain" \
		grep -q "encoding = jpeg\|negotiation [0-9]*: image/jpeg" "$T/sink.log"
}

pw_sink_check_refused() {
	timeout 20 gst-launch-1.0 -q pipewiresrc target-object="$SINK_NODE" num-buffers=5 \
		! video/x-raw,format=YUY2,width=1000,height=1000 ! fakesink >"$T/sink-refused.log" 2>&1 &
	local c=$!
	wait_for "grep -q '^WARNING: .*link failed' '$T/sink.out'" 150
	grep "^WARNING: .*link failed" "$T/sink.out"
	check "negcampwconvertsink: a consumer asking 1000x1000 gets one warning line with the reason" \
		test "$(grep -c "^WARNING: .*a consumer's link failed: no more input formats" "$T/sink.out")" = 1
	kill "$c" 2>/dev/null
	wait "$c" 2>/dev/null
	echo "| negcampwconvertsink | YUY2 1000x1000 (not in the profile) | link error: no more input formats (a warning) | |" >>"$SIZES"
}

pw_sink_check_two() {
	local a b ra rb
	timeout 40 gst-launch-1.0 -q pipewiresrc target-object="$SINK_NODE" num-buffers=40 \
		! video/x-raw,format=YUY2,width=640,height=480 ! filesink location="$T/sink-two-a.raw" >/dev/null 2>&1 &
	a=$!
	sleep 1
	timeout 40 gst-launch-1.0 -q pipewiresrc target-object="$SINK_NODE" num-buffers=20 \
		! video/x-raw,format=YUY2,width=640,height=480 ! filesink location="$T/sink-two-b.raw" >/dev/null 2>&1 &
	b=$!
	wait $a; ra=$?
	wait $b; rb=$?
	check "negcampwconvertsink: two consumers at once, both end well" test "$ra$rb" = 00
	check "negcampwconvertsink: the first got 40 frames, the second 20" \
		test "$(stat -c %s "$T/sink-two-a.raw"):$(stat -c %s "$T/sink-two-b.raw")" = $((40 * 614400)):$((20 * 614400))
}

pw_sink_check_idle() {
	local a b c1 c2 pid
	pid=$(pgrep -P "$SINKPID" gst-launch-1.0) # timeout's child
	wait_for "[ \"\$(grep -o 'a consumer streams\|no consumer streams' '$T/sink.log' | tail -1)\" = 'no consumer streams' ]" 50
	sleep 0.5
	a=$(sink_made)
	c1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	sleep 2
	b=$(sink_made)
	c2=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	echo "the last consumer gone: producer buffers $a, 2 s later $b; CPU ticks $c1, then $c2"
	check "negcampwconvertsink: the last consumer gone, the producer makes nothing (counters)" test "$a" = "$b"
	check "negcampwconvertsink: ... and the pipeline uses (almost) no CPU (< 0.1 s in 2 s)" test $((c2 - c1)) -lt 10
}

# A consumer's 30 frames (31 read, the first left out) from node $1 at
# YUY2 320x240 30 fps: "SPAN SHORT", the seconds from first to last and
# how many of the 29 gaps are under 11 ms (a third of the interval). The
# times are the frames' PTS, which pipewiresrc takes from the header meta
# the sink stamps when it queues a frame: the node's delivery times, not
# the consumer's scheduling on a loaded host.
sink_span() {
	timeout 40 gst-launch-1.0 -v pipewiresrc target-object="$1" num-buffers=31 \
		! video/x-raw,format=YUY2,width=320,height=240,framerate=30/1 ! fakesink silent=false 2>/dev/null |
		python3 -c '
import re, sys
t = []
for l in sys.stdin:
    m = re.search(r"chain .*fakesink0:sink.*pts: (\d+):(\d+):([\d.]+)", l)
    if m:
        t.append(int(m[1]) * 3600 + int(m[2]) * 60 + float(m[3]))
g = [b - a for a, b in zip(t[1:], t[2:])]
print("%.3f %d" % (t[-1] - t[1], sum(x < 0.011 for x in g)) if len(t) > 2 else "0 99")'
}

# A backlog: a live source into a queue that holds 10 s, the sink held
# 3 s with no consumer (the queue fills with 90 frames, the source runs
# on). Released, the queue pushes them at once; late against the clock,
# they are dropped (the sink's QoS events make videoconvert drop them,
# its max-lateness drops the rest), so the consumer's 30 frames are
# spread over 29 intervals (at least 0.75 of it, for a loaded host) with
# at most 3 short gaps. With the sink's QoS and max-lateness off, tried
# by hand, this fails in 4 of 5 runs: 30 frames in 0.114 s, 0.187 s and
# 0.127 s (arrival times, then PTS), 26 to 28 short gaps (a burst); in
# the fifth the backlog happened to drain before the consumer's frames.
# The same after a hold with no queue (the source itself waited).
sink_no_burst() { python3 -c "import sys; sys.exit(0 if float('$1') >= 0.72 and int('$2') <= 3 else 1)"; }

pw_sink_check_late() {
	local p span held
	GST_DEBUG=negcamsinkcore:4 GST_DEBUG_NO_COLOR=1 timeout 120 gst-launch-1.0 \
		videotestsrc is-live=true ! queue max-size-buffers=300 max-size-time=0 max-size-bytes=0 \
		! negcampwconvertsink label="Late Camera" >"$T/late.out" 2>"$T/late.log" &
	p=$!
	wait_for "[ -n \"\$(node_summary negcam.Late-Camera)\" ]" 150
	sink_span negcam.Late-Camera >/dev/null
	sleep 3
	span=$(sink_span negcam.Late-Camera)
	kill -INT "$p" 2>/dev/null
	wait "$p" 2>/dev/null
	echo "30 frames after 3 s of backlog in a queue: ${span% *} s, ${span#* } gaps under 11 ms (29 intervals at 30 fps: 0.967 s)"
	check "negcampwconvertsink: a backlog is dropped, not burst (30 frames in >= 0.72 s, <= 3 gaps under 11 ms)" \
		sink_no_burst $span
	sleep 3
	held=$(sink_span "$SINK_NODE")
	echo "30 frames after 3 s held: ${held% *} s, ${held#* } gaps under 11 ms"
	check "negcampwconvertsink: after 3 s held, no burst (30 frames in >= 0.72 s, <= 3 gaps under 11 ms)" \
		sink_no_burst $held
	{
		echo "| negcampwconvertsink behind a queue, 3 s of backlog, then 30 frames of YUY2 320x240 | ${span% *} s, ${span#* } gaps under 11 ms (0.967 s at 30 fps) |"
		echo "| negcampwconvertsink, 3 s held, then 30 frames of YUY2 320x240 | ${held% *} s, ${held#* } gaps under 11 ms |"
	} >>"$T/pw-late.txt"
}

pw_sink_stop() {
	kill -INT "$SINKPID" 2>/dev/null
	wait "$SINKPID" 2>/dev/null
	wait_for "[ -z \"\$(node_summary $SINK_NODE)\" ]" 50
	check "negcampwconvertsink stopped: its node is gone" test -z "$(node_summary "$SINK_NODE")"
}

pw_sink_checks() {
	export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$build/gst}
	pw_sink_bad_input
	pw_sink_start || return
	pw_sink_check_listed
	pw_sink_check_sizes
	pw_sink_check_refused
	pw_sink_check_two
	pw_sink_check_idle
	pw_sink_check_late
	pw_sink_stop
}
