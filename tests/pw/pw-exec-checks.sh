# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# tests/pw/pw-exec-checks.sh: negcam-pw --exec 'PIPELINE' (a producer on
# demand), sourced by tests/pw/pw-suite.sh (which defines PW, STAMP, T,
# check and wait_for; grab and stamps_in_sequence come from pw-checks.sh).
# A second node (label exec) whose producer draws one solid colour that
# the generator never draws:
#   no producer before the first consumer;
#   a consumer at YUY2 320x240: a producer started for exactly that
#     format, the frames that size and the producer's colour;
#   the next consumer at YUY2 640x480: a new producer (restarted), frames
#     640x480 of its colour; MJPG 1280x720: jpegenc in the producer;
#   after the last consumer: no child, no zombie, no pipe left open;
#   a pipeline that does not parse: one line naming it and gst-launch's
#     reason, and the consumer still gets (the generator's, stamped) frames.

EXEC_NODE=negcam.exec
EXEC_PIPE='videotestsrc is-live=true pattern=solid-color foreground-color=0xff2080e0'
EXEC_RGB="32 128 224"

# The children of negcam-pw $1 as "pid:state:comm" words (Z: a zombie).
exec_children() {
	local c
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		echo -n "$c:$(awk '{ print $2 ":" $3 }' /proc/"$c"/stat 2>/dev/null) "
	done
}

# Pipes negcam-pw $1 has open.
exec_pipes() { ls -l /proc/"$1"/fd 2>/dev/null | grep -c 'pipe:'; }

# rgb_check FILE W H: every frame's middle is the producer's colour (within 24).
rgb_check() {
	python3 - "$@" $EXEC_RGB <<'EOF'
import sys
f, w, h, want = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), [int(v) for v in sys.argv[4:7]]
data = open(f, 'rb').read()
size = w * h * 3
n = len(data) // size
bad = 0
for i in range(n):
    o = i * size + (h // 2 * w + w // 2) * 3
    px = data[o:o + 3]
    if any(abs(a - b) > 24 for a, b in zip(px, want)):
        bad += 1
        print('frame %d: middle %s, not %s' % (i, list(px), want), file=sys.stderr)
print('%d frames of %dx%d, %d not the colour' % (n, w, h, bad))
sys.exit(n == 0 or bad > 0 or len(data) % size)
EOF
}

# exec_case NAME CAPS W H [ELEMENTS...]: 10 frames through CAPS as RGB.
exec_case() {
	local name=$1 caps=$2 w=$3 h=$4 f=$T/exec-$1.rgb out
	shift 4
	TARGET=$EXEC_NODE grab "$f" 10 "$caps" "$@" videoconvert video/x-raw,format=RGB
	out=$(rgb_check "$f" "$w" "$h" 2>&1)
	echo "exec $name: $out"
	check "--exec $name: 10 frames of ${w}x${h} in the producer's colour" \
		test "$(stat -c %s "$f" 2>/dev/null)" = $((10 * w * h * 3)) -a -n "$(grep ' 0 not the colour' <<<"$out")"
	check "--exec $name: a producer started for that format" \
		grep -q "producer [0-9]* started: .*width=$w,height=$h," "$T/pw-exec.log"
}

pw_check_exec() {
	local p pipes0 kids starts g
	"$PW" --profile webcam --label exec --exec "$EXEC_PIPE" >"$T/pw-exec.log" 2>&1 &
	p=$!
	wait_for "grep -q ' ready, ' '$T/pw-exec.log'" 100
	sleep 0.5
	pipes0=$(exec_pipes "$p")
	check "--exec: no producer before the first consumer" \
		test -z "$(exec_children "$p")" -a -z "$(grep producer "$T/pw-exec.log")"
	# a longer consumer, to see the producer while it streams
	TARGET=$EXEC_NODE grab "$T/exec-long.raw" 90 video/x-raw,format=YUY2,width=320,height=240 &
	g=$!
	wait_for "grep -q 'producer [0-9]* started' '$T/pw-exec.log'" 150
	sleep 0.5
	kids=$(exec_children "$p")
	echo "exec: children while streaming: $kids"
	check "--exec: the producer (gst-launch-1.0) runs while a consumer streams" \
		grep -q ':gst-launch-1.0:[RS]' <<<"$(exec_children "$p" | tr -d '()')"
	wait "$g"
	exec_case "YUY2 320x240" video/x-raw,format=YUY2,width=320,height=240 320 240
	exec_case "YUY2 640x480" video/x-raw,format=YUY2,width=640,height=480 640 480
	exec_case "MJPG 1280x720" image/jpeg,width=1280,height=720 1280 720 jpegdec
	grep -q 'jpegenc ! image/jpeg ! fdsink' "$T/pw-exec.log"
	check "--exec MJPG: the producer encodes (jpegenc), the consumer gets MJPG" test $? = 0
	starts=$(grep -c 'producer [0-9]* started' "$T/pw-exec.log")
	check "--exec: each consumer's format started a producer of its own (4 starts: $starts)" \
		test "$starts" = 4
	wait_for "[ \$(grep -c 'producer [0-9]* stopped' '$T/pw-exec.log') = 4 ]" 50
	sleep 0.5
	kids=$(exec_children "$p")
	echo "exec: after the last consumer: children '$kids', pipes $(exec_pipes "$p") (before: $pipes0)"
	check "--exec: after the last consumer the producer is stopped and reaped (no child, no zombie)" \
		test -z "$kids" -a "$(grep -c 'producer [0-9]* stopped (no consumer streams)' "$T/pw-exec.log")" = 4
	check "--exec: and its pipes are closed" test "$(exec_pipes "$p")" = "$pipes0"
	kill "$p"
	wait "$p"
	pw_check_exec_bad
}

# A pipeline gst-launch cannot parse: one line with it and the reason;
# the node serves on with the generator's stamped frames.
pw_check_exec_bad() {
	local p f=$T/exec-bad.raw
	"$PW" --profile webcam --label exec --exec 'videotestsrc ! nosuchelement' >"$T/pw-exec-bad.log" 2>&1 &
	p=$!
	wait_for "grep -q ' ready, ' '$T/pw-exec-bad.log'" 100
	TARGET=$EXEC_NODE grab "$f" 30 video/x-raw,format=YUY2,width=320,height=240
	grep "producer 'videotestsrc ! nosuchelement'" "$T/pw-exec-bad.log"
	check "--exec a bad pipeline: one line naming it with gst-launch's reason" \
		test "$(grep -c "^negcam-pw: producer 'videotestsrc ! nosuchelement' exited with status 1 .*no element \"nosuchelement\".*generator's frames" "$T/pw-exec-bad.log")" = 1
	"$STAMP" yuyv422 320 240 "$f" >"$f.st" 2>&1
	check "--exec a bad pipeline: the consumer still gets 30 frames (the generator's, stamped)" \
		test "$(stat -c %s "$f" 2>/dev/null)" = $((30 * 320 * 240 * 2))
	check "--exec a bad pipeline: their stamps in sequence" stamps_in_sequence "$f.st"
	kill "$p"
	wait "$p"
	check "--exec a bad pipeline: negcam-pw ends cleanly (exit 0)" test $? = 0
}
