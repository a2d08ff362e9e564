#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Faults (docs/faults.md) through negcam-run, each read from outside with
# the tools an application developer has, not from the profile:
# - drop: sequence gaps in v4l2-ctl --verbose; the same seed gives the
#   same gaps on two runs, another seed others;
# - error: buffers v4l2-ctl shows with the 'error' flag, no gap;
# - stall, timestamp-jump: one delta of 533 ms between 33 ms ones (the
#   jump in far less wall time than the stall);
# - rate: 100 ms deltas while G_PARM still says 30 fps;
# - corrupt, truncate: ffmpeg's MJPEG decoder errors (none without);
# - source change, unplug: test_fault_events (POLLPRI and DQEVENT, G_FMT's
#   new size; POLLERR, ENODEV, the node gone); v4l2-ctl --stream-poll
#   prints its SOURCE CHANGE EVENT;
# - negcam-run --faults FILE: a fault switched on while streaming;
#   a bad list refused with FILE:LINE:COL before the command runs.
#
#   test_faults.sh SOURCE_ROOT BUILD_ROOT
set -u
SRC=$1 BUILD=$2 NAME=test_faults
RUN=$BUILD/run/negcam-run
EVENTS=$BUILD/tests/run/test_fault_events
T=$(mktemp -d "${TMPDIR:-/var/tmp}/negcam-faults-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0 checks=0

. "$SRC/tests/check.sh"

cat >"$T/base.profile" <<'EOF'
name faulty
card "Faulty Camera"
format MJPG
size 320x240 fps 30
size 640x480 fps 30
format YUYV
size 320x240 fps 30
size 640x480 fps 30
EOF

profile() {	# NAME FAULT-LINE...: $T/NAME.profile, the base with the faults
	n=$1; shift
	cp "$T/base.profile" "$T/$n.profile"
	for l in "$@"; do echo "fault $l" >>"$T/$n.profile"; done
}

stream() {	# PROFILE COUNT [FMT]: v4l2-ctl's verbose capture into $T/out
	timeout 30 "$RUN" --profile "$T/$1.profile" -- v4l2-ctl -d /dev/video0 \
		--set-fmt-video=width=320,height=240,pixelformat=${3:-YUYV} \
		--stream-mmap --stream-count="$2" --verbose >"$T/out" 2>&1
}
seqs() { grep -o 'seq: *[0-9]*' "$T/out" | awk '{ print $2 }'; }
# the sequence numbers below 60 that no buffer carried
gaps() { seqs | awk 'NR == 1 { p = $1; next } { for (s = p + 1; s < $1 && s < 60; s++) print s; p = $1 }' | tr '\n' ' '; }
deltas() { grep -o 'delta: [0-9.]* ms' "$T/out" | awk '{ print int($2 + 0.5) }'; }

# drop: gaps, the same on two runs of one seed
profile drop7 "seed 7" "drop 10%"
profile drop8 "seed 8" "drop 10%"
stream drop7 70; g1=$(gaps)
stream drop7 70; g2=$(gaps)
stream drop8 70; g3=$(gaps)
echo "$NAME: drop 10%: seed 7 lost [$g1] and [$g2], seed 8 [$g3]"
check "drop: sequence gaps seen" [ -n "$g1" ]
check "drop: the same seed loses the same frames on two runs" [ "$g1" = "$g2" ]
check "drop: another seed loses others" [ "$g1" != "$g3" ]
stream base 40; check "no faults: no gap" [ -z "$(gaps)" ]

# error: flagged, delivered (no gap); v4l2-ctl does not count them, so ask for few
profile error "seed 3" "error 20%"
stream error 30
n=$(grep -c '(error,' "$T/out")
echo "$NAME: error 20%: $n of $(seqs | wc -l) buffers flagged"
check "error: buffers flagged ERROR" [ "$n" -gt 0 ]
check "error: no gap (they are delivered)" [ -z "$(gaps)" ]

# stall and timestamp jump: one 533 ms delta; the jump does not take the time
profile stall "stall 500ms every 1s"
start=$(date +%s%N); stream stall 45; t_stall=$(( ($(date +%s%N) - start) / 1000000 ))
check "stall: a 533 ms delta" [ "$(deltas | grep -cx 533)" -ge 1 ]
profile jump "timestamp-jump 500ms every 1s"
start=$(date +%s%N); stream jump 45; t_jump=$(( ($(date +%s%N) - start) / 1000000 ))
check "timestamp-jump: a 533 ms delta" [ "$(deltas | grep -cx 533)" -ge 1 ]
echo "$NAME: 45 frames in $t_stall ms with the stall, $t_jump ms with the jump"
check "the stall takes the time, the jump does not" [ $((t_stall - t_jump)) -gt 300 ]

# rate: the camera lists 30 and delivers 10
profile rate "rate 10"
stream rate 20
check "rate 10: 100 ms deltas" [ "$(deltas | sort -n | awk '{ a[NR] = $1 } END { print a[int(NR / 2) + 1] }')" = 100 ]
timeout 10 "$RUN" --profile "$T/rate.profile" -- v4l2-ctl -d /dev/video0 --get-parm >"$T/parm" 2>&1
check "rate 10: G_PARM still says 30 fps" contains "$T/parm" "Frames per second: 30.000"

# corrupt and truncate: ffmpeg's MJPEG decoder
ff() {	# PROFILE: ffmpeg decodes 30 MJPEG frames into $T/ff
	timeout 60 "$RUN" --profile "$T/$1.profile" -- ffmpeg -hide_banner -nostdin -f v4l2 \
		-input_format mjpeg -video_size 320x240 -i /dev/video0 -frames:v 30 -f null - \
		>"$T/ff" 2>&1
}
if has ffmpeg; then
	ff base
	check "ffmpeg: no decode error without faults" [ "$(grep -c '\[mjpeg' "$T/ff")" = 0 ]
	profile corrupt "seed 1" "corrupt 50%"
	ff corrupt
	echo "$NAME: corrupt 50%: $(grep -c '\[mjpeg' "$T/ff") ffmpeg mjpeg messages"
	check "corrupt: ffmpeg reports decode errors" grep -qE '\[mjpeg.*(error|bad vlc|overread)' "$T/ff"
	profile truncate "seed 1" "truncate 50%"
	ff truncate
	check "truncate: ffmpeg reports EOI missing" contains "$T/ff" "EOI missing"
fi
stream truncate 20 MJPG
check "truncate: bytesused varies from frame to frame" \
	[ "$(grep -o 'bytesused: [0-9]*' "$T/out" | sort -u | wc -l)" -gt 5 ]

# source change and unplug
profile sc "source-change 500ms 640x480"
timeout 30 "$RUN" --profile "$T/sc.profile" -- "$EVENTS" source-change 640 480 >"$T/ev" 2>&1
check "source change: test_fault_events (POLLPRI, DQEVENT, G_FMT, the new size)" \
	grep -q "^test_fault_events: [1-9][0-9]* passed, 0 failed" "$T/ev"
cat "$T/ev" >&2
timeout 30 "$RUN" --profile "$T/sc.profile" -- v4l2-ctl -d /dev/video0 --stream-mmap \
	--stream-poll --stream-count=100 >"$T/out" 2>&1
check "source change: v4l2-ctl --stream-poll sees it" contains "$T/out" "SOURCE CHANGE EVENT"
profile unplug "unplug 500ms"
timeout 30 "$RUN" --profile "$T/unplug.profile" -- "$EVENTS" unplug >"$T/ev" 2>&1
check "unplug: test_fault_events (POLLERR, ENODEV, the node gone)" \
	grep -q "^test_fault_events: [1-9][0-9]* passed, 0 failed" "$T/ev"
cat "$T/ev" >&2
stream unplug 100
check "unplug: v4l2-ctl's DQBUF fails with ENODEV" contains "$T/out" "VIDIOC_DQBUF: failed: No such device"

# negcam-run --faults FILE: switched while streaming, refused when bad
rm -f "$T/live"
( sleep 1; echo "error 100%" >"$T/live" ) &
timeout 30 "$RUN" --profile "$T/base.profile" --faults "$T/live" -- v4l2-ctl -d /dev/video0 \
	--stream-mmap --stream-count=40 --verbose >"$T/out" 2>&1
wait
first=$(grep -m1 -o 'seq: *[0-9]*.*(error,' "$T/out" | awk '{ print $2 }')
echo "$NAME: --faults: the first ERROR buffer is seq ${first:-none}"
check "--faults: no error before the file, every buffer after" \
	[ "${first:-0}" -gt 10 ] && [ "$(sed -n "/seq: *$first /,\$p" "$T/out" | grep dqbuf | grep -vc '(error,')" = 0 ]
echo "drop 150%" >"$T/bad"
"$RUN" --faults "$T/bad" -- true 2>"$T/err"
check "--faults: a bad list is refused with FILE:LINE:COL" \
	contains "$T/err" "negcam-run: --faults $T/bad:1:6: '150%' is over 100%"
echo "fault dorp 5%" >>"$T/base.profile"
"$RUN" --profile "$T/base.profile" -- true 2>"$T/err"
check "a bad fault line in a profile is refused with FILE:LINE:COL" \
	contains "$T/err" "$T/base.profile:9:7: unknown fault 'dorp'"

echo "$NAME: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
