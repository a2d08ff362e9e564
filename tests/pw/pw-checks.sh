# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# tests/pw/pw-checks.sh: the checks of tests/pw/pw-suite.sh, one function
# per item of its header, sourced by it (it defines PW, STAMP, FAKEDEV,
# T, check and wait_for). Frames are read back with tests/vm/vm-stamp (the
# engine's stamp reader); the sizes asked and got go to $SIZES.

SIZES=$T/pw-sizes.txt
NODE=negcam.webcam

# STAMP's output in $1: every frame stamped, the stamps strictly
# increasing, and at most a fifth of them skipped (a consumer on a loaded
# machine misses cycles; it never sees a frame twice or out of order).
stamps_in_sequence() {
	awk '/^frame [0-9]+: stamp [0-9]+$/ { s = $4 + 0; if (n && s <= last) bad = 1
	                                       if (n) skip += s - last - 1; last = s; n++ }
	     /no stamp/ { bad = 1 }
	     END { if (skip) print "skipped " skip " of " n + skip > "/dev/stderr"
	           exit (n == 0 || bad || skip * 5 > n + skip) }' "$1"
}

# grab FILE N CAPS [ELEMENTS...]: N frames from TARGET (default the node)
# through CAPS and ELEMENTS into FILE; the log is FILE.log.
grab() {
	local file=$1 n=$2 caps=$3
	shift 3
	local tail=()
	for e in "$@"; do tail+=("$e" '!'); done
	timeout 40 gst-launch-1.0 -q pipewiresrc target-object="${TARGET:-$NODE}" num-buffers="$n" \
		! "$caps" ! "${tail[@]}" filesink location="$file" >"$file.log" 2>&1
}

pw_bad_input() {
	local d out rc
	d=$(mktemp -d)
	out=$(env -u PIPEWIRE_REMOTE -u PIPEWIRE_RUNTIME_DIR XDG_RUNTIME_DIR="$d" "$PW" --profile webcam 2>&1)
	rc=$?
	echo "$out"
	check "PipeWire not running: one line that says how to start it, exit 1" \
		test "$rc" = 1 -a "$(echo "$out" | wc -l)" = 1 -a -n "$(echo "$out" | grep 'not running.*systemctl --user start pipewire')"
	out=$("$PW" --profile webcam --label "$(printf 'L%.0s' $(seq 200))" 2>&1)
	rc=$?
	echo "$out"
	check "a 200-character label: one line, exit 2" \
		test "$rc" = 2 -a "$out" = "negcam-pw: --label is 200 characters; it must have 1 to 63"
	printf 'name bad\nformat YUYV\n  size 640xQ fps 30\n' >"$d/bad.profile"
	out=$("$PW" --profile "$d/bad.profile" 2>&1)
	rc=$?
	echo "$out"
	check "a profile that does not parse: its file:line, exit 2" \
		test "$rc" = 2 -a -n "$(echo "$out" | grep -F "$d/bad.profile:3:")"
	rm -rf "$d"
}

pw_start_node() {
	"$PW" --profile "$1" >"$T/pw.log" 2>&1 &
	PWPID=$!
	wait_for "grep -q ' ready, profile $1' '$T/pw.log'" 100
	check "negcam-pw --profile $1 publishes its node" grep -q "node .* ready" "$T/pw.log" || return 1
}

# The node as pw-dump shows it: "class role description n-enumformats sizes..."
node_summary() {
	pw-dump >"$T/dump.json" 2>/dev/null
	python3 - "$T/dump.json" "$1" <<'EOF'
import json, sys
for o in json.load(open(sys.argv[1])):
    info = o.get('info') or {}
    p = info.get('props') or {}
    if p.get('node.name') != sys.argv[2]:
        continue
    ef = (info.get('params') or {}).get('EnumFormat') or []
    fm = sorted({'%s/%s/%dx%d' % (f.get('mediaSubtype'), f.get('format', '-'),
                 f['size']['width'], f['size']['height']) for f in ef if isinstance(f.get('size'), dict)})
    print(p.get('media.class'), p.get('media.role'), repr(p.get('node.description')), len(ef), ' '.join(fm))
EOF
}

pw_check_listed() {
	local s out
	s=$(node_summary "$NODE")
	echo "node: ${s:0:300}"
	check "(a) the node is Video/Source with media.role Camera" test "${s%% \'*}" = "Video/Source Camera"
	check "(a) its description is the profile's card" grep -q "'Negcam Webcam'" <<<"$s"
	check "(a) EnumFormat: the profile's 20 formats and sizes (YUY2 and mjpg)" \
		grep -qE " 20 .*mjpg/-/1280x720 .*raw/YUY2/320x240" <<<"$s"
	out=$("$PW" --list 2>&1)
	echo "$out"
	check "(a) negcam-pw --list shows it" grep -qP "^[0-9]+\t$NODE\tNegcam Webcam\tVideo/Source$" <<<"$out"
	out=$("$PW" --profile webcam 2>&1)
	check "(a) a second negcam-pw with the same label is refused" \
		grep -q "label 'webcam' is taken" <<<"$out"
	printf 'name bayer\nformat BA81\n  size 640x480 fps 30\n' >"$T/bayer.profile"
	out=$("$PW" --profile "$T/bayer.profile" 2>&1)
	echo "$out"
	check "a profile SPA cannot carry: the format named" grep -q "format BA81 left out" <<<"$out"
	check "a profile SPA cannot carry: nothing published" test -z "$(node_summary negcam.bayer)"
}

# One size: CAPS, expected WxH, file bytes a frame, vm-stamp format, elements.
size_case() {
	local name=$1 caps=$2 w=$3 h=$4 bpf=$5 fmt=$6
	shift 6
	local f=$T/$name.raw n=10
	grab "$f" "$n" "$caps" "$@"
	"$STAMP" "$fmt" "$w" "$h" "$f" >"$f.st" 2>&1
	check "(b) $name: $n frames of ${w}x${h}" test "$(stat -c %s "$f" 2>/dev/null)" = $((n * bpf))
	check "(b) $name: stamps in sequence" stamps_in_sequence "$f.st"
	echo "| negcam-pw | $name | $(grep -o 'format [A-Z0-9]* [0-9x]* @[0-9/]*' "$T/pw.log" | tail -1 | cut -d' ' -f2-) | $(sed -n 's/^frame 0: stamp /first stamp /p' "$f.st") |" >>"$SIZES"
}

pw_check_sizes() {
	echo "| producer | asked | got | frames |" >"$SIZES"
	echo "|---|---|---|---|" >>"$SIZES"
	size_case "YUY2 320x240" video/x-raw,format=YUY2,width=320,height=240 320 240 $((320 * 240 * 2)) yuyv422
	size_case "YUY2 640x480" video/x-raw,format=YUY2,width=640,height=480 640 480 $((640 * 480 * 2)) yuyv422
	size_case "YUY2 1280x720" video/x-raw,format=YUY2,width=1280,height=720 1280 720 $((1280 * 720 * 2)) yuyv422
	size_case "MJPG 1280x720" image/jpeg,width=1280,height=720 1280 720 $((1280 * 720 * 3 / 2)) yuv420p \
		jpegdec videoconvert video/x-raw,format=I420
	check "(b) the MJPG consumer got MJPG from negcam-pw (no conversion on the way)" \
		grep -q "format MJPG 1280x720" "$T/pw.log"
}

pw_check_two() {
	local a b ra rb
	grab "$T/two-a.raw" 60 video/x-raw,format=YUY2,width=640,height=480 &
	a=$!
	wait_for "grep -c streaming '$T/pw.log' | grep -qx 5" 100
	sleep 0.3
	grab "$T/two-b.raw" 30 video/x-raw,format=YUY2,width=640,height=480 &
	b=$!
	wait $a; ra=$?
	wait $b; rb=$?
	"$STAMP" yuyv422 640 480 "$T/two-a.raw" >"$T/two-a.st" 2>&1
	"$STAMP" yuyv422 640 480 "$T/two-b.raw" >"$T/two-b.st" 2>&1
	check "(c) two consumers at once: both end well" test "$ra$rb" = 00
	check "(c) the first got 60 frames" test "$(stat -c %s "$T/two-a.raw")" = $((60 * 614400))
	check "(c) the first's stamps in sequence" stamps_in_sequence "$T/two-a.st"
	check "(c) the second got 30 frames" test "$(stat -c %s "$T/two-b.raw")" = $((30 * 614400))
	check "(c) the second's stamps in sequence" stamps_in_sequence "$T/two-b.st"
	check "(c) one stream served both (one 'streaming' for the pair)" \
		test "$(grep -c '^negcam-pw: streaming' "$T/pw.log")" = 5
}

# The frames counter of the last SIGUSR1 report.
frames_now() {
	kill -USR1 "$PWPID"
	sleep 0.3
	grep '^negcam-pw: counters:' "$T/pw.log" | tail -1 | sed -E 's/.*frames ([0-9]+),.*/\1/'
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$PWPID/stat"; }

pw_check_idle() {
	local f1 f2 c1 c2
	wait_for "[ \$(grep -c 'paused after' '$T/pw.log') = 5 ]" 50
	check "(d) the last consumer gone: the node paused, its timer off" \
		test "$(grep -c 'paused after .*the timer is off' "$T/pw.log")" = 5
	sleep 1 # the links' teardown events are handled before idle is measured
	f1=$(frames_now)
	c1=$(cpu_ticks)
	sleep 3
	f2=$(frames_now)
	c2=$(cpu_ticks)
	echo "idle: frames $f1 -> $f2, CPU ticks $c1 -> $c2 in 3 s"
	check "(d) no frame produced while idle (counter $f1 -> $f2)" test -n "$f1" -a "$f1" = "$f2"
	check "(d) no CPU used while idle (at most 1 tick in 3 s)" test $((c2 - c1)) -le 1
}

# A V4L2 program on PipeWire's V4L2 layer, where /dev/video0 exists (fake-dev.sh).
v4l2() { timeout "${V4L2_TIMEOUT:-30}" "$FAKEDEV" pw-v4l2 "$@"; }

pw_check_v4l2() {
	local out comp=$T/pw-v4l2-compliance.txt
	check "(e) a private /dev/video0 for pw-v4l2 (tests/pw/fake-dev.sh, a user namespace)" \
		"$FAKEDEV" test -e /dev/video0 || return 0
	out=$(v4l2 v4l2-ctl -d /dev/video0 --list-formats-ext 2>&1)
	echo "$out" | head -5
	check "(e) pw-v4l2 v4l2-ctl --list-formats-ext: YUYV and MJPG at 1280x720" \
		grep -qzE "'YUYV'.*Discrete 1280x720.*'MJPG'.*Discrete 1280x720" <<<"$out"
	v4l2 v4l2-ctl -d /dev/video0 --set-fmt-video=width=640,height=480,pixelformat=YUYV \
		--stream-mmap --stream-count=10 --stream-to="$T/v4l2.raw" >"$T/v4l2.log" 2>&1
	"$STAMP" yuyv422 640 480 "$T/v4l2.raw" >"$T/v4l2.st" 2>&1
	check "(e) v4l2-ctl streams 10 frames of YUYV 640x480" test "$(stat -c %s "$T/v4l2.raw" 2>/dev/null)" = $((10 * 614400))
	check "(e) their stamps in sequence" stamps_in_sequence "$T/v4l2.st"
	V4L2_TIMEOUT=90 v4l2 v4l2-compliance -d /dev/video0 -s >"$comp" 2>&1
	grep -E "^Total|fail:" "$comp"
	check "(e) v4l2-compliance -s runs to its total" grep -q "^Total for PipeWire device /dev/video0: " "$comp"
}

node_gone() { [ -z "$(node_summary "$NODE")" ]; }

pw_check_stop() {
	local c rc n0
	n0=$(grep -c '^negcam-pw: streaming' "$T/pw.log")
	timeout 60 gst-launch-1.0 -q pipewiresrc target-object="$NODE" ! video/x-raw,width=320,height=240 \
		! fakesink >"$T/stop-gst.log" 2>&1 &
	c=$!
	wait_for "[ \$(grep -c '^negcam-pw: streaming' '$T/pw.log') -gt $n0 ]" 150
	sleep 0.5
	kill -TERM "$PWPID"
	wait "$PWPID"
	rc=$?
	check "(f) SIGTERM while streaming: negcam-pw ends with 0" test "$rc" = 0
	check "(f) its node is removed and no memfd is left open" grep -q "node removed, 0 memfds open" "$T/pw.log"
	wait_for node_gone 30
	check "(f) the node is gone from PipeWire" node_gone
	wait_for "! kill -0 $c" 50
	kill "$c" 2>/dev/null
	wait "$c"
	rc=$?
	grep -m1 'ERROR' "$T/stop-gst.log"
	check "(f) SIGTERM: the consumer ends with an error within 5 s (\"camera ... stopped\")" \
		test "$rc" = 1 -a -n "$(grep 'stream error: negcam-pw: camera negcam.webcam (Negcam Webcam) stopped' "$T/stop-gst.log")"
	"$PW" --profile webcam >"$T/pw2.log" 2>&1 &
	PWPID=$!
	wait_for "grep -q ready '$T/pw2.log'" 100
	timeout 60 gst-launch-1.0 -q pipewiresrc target-object="$NODE" ! video/x-raw,width=320,height=240 \
		! fakesink >"$T/kill-gst.log" 2>&1 &
	c=$!
	wait_for "grep -q '^negcam-pw: streaming' '$T/pw2.log'" 150
	kill -KILL "$PWPID"
	wait "$PWPID"
	wait_for node_gone 30
	check "(f) SIGKILL: PipeWire removes the node" node_gone
	sleep 10
	if kill -0 "$c" 2>/dev/null; then
		echo "(f) SIGKILL: pipewiresrc still waits 10 s after (nothing of negcam-pw runs to tell it)"
		kill "$c"
	else
		echo "(f) SIGKILL: pipewiresrc ended: $(head -1 "$T/kill-gst.log")"
	fi
	wait "$c"
}

# (g) PipeWire's own recipe: pipewiresink mode=provide at one fixed format.
pw_check_provide() {
	local p name caps r
	timeout 120 gst-launch-1.0 -q videotestsrc is-live=true \
		! video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 \
		! pipewiresink mode=provide \
		stream-properties="props,media.class=Video/Source,media.role=Camera,node.name=gst-provide" \
		>"$T/provide.log" 2>&1 &
	p=$!
	wait_for "[ -n \"\$(node_summary gst-provide)\" ]" 100
	for name in "YUY2 640x480" "YUY2 320x240" "YUY2 1280x720" "MJPG 1280x720"; do
		case $name in
		MJPG*) caps=image/jpeg,width=1280,height=720 ;;
		*) set -- ${name/x/ }; caps=video/x-raw,format=YUY2,width=$2,height=$3 ;;
		esac
		TARGET=gst-provide timeout 15 gst-launch-1.0 -q pipewiresrc target-object=gst-provide \
			num-buffers=5 ! "$caps" ! fakesink >"$T/provide-one.log" 2>&1
		r=$?
		case $r in
		0) r="5 frames at $name" ;;
		124) r="no frame in 15 s" ;;
		*) r="failed: $(grep -m1 -oE 'ERROR: .*|no more input formats|not-negotiated' "$T/provide-one.log" | head -1)" ;;
		esac
		echo "| pipewiresink mode=provide (YUY2 640x480) | $name | $r | |" >>"$SIZES"
		[ "$name" = "YUY2 640x480" ] && check "(g) pipewiresink mode=provide serves its own size" \
			test "$r" = "5 frames at $name"
	done
	kill "$p" 2>/dev/null
	wait "$p" 2>/dev/null
	cat "$SIZES"
}

# A consumer asking a size the profile lacks: its link fails, the reason
# is in negcam-pw's log, and the node serves the next consumer.
pw_check_refused() {
	timeout 20 gst-launch-1.0 -q pipewiresrc target-object="$NODE" num-buffers=5 \
		! video/x-raw,format=YUY2,width=1000,height=1000 ! fakesink >"$T/refused.log" 2>&1 &
	local c=$!
	wait_for "grep -q 'link failed' '$T/pw.log'" 150
	check "a consumer asking 1000x1000: one line in negcam-pw's log with PipeWire's reason" \
		grep -q "a consumer's link failed: no more input formats" "$T/pw.log"
	kill "$c" 2>/dev/null
	wait "$c" 2>/dev/null
	echo "| negcam-pw | YUY2 1000x1000 (not in the profile) | link error: no more input formats | |" >>"$SIZES"
}

# H.264 (the shelf's via-h264-only, a second node beside the first):
# byte-stream access units that a decoder reads back to stamped frames.
pw_check_h264() {
	local p f=$T/h264.raw
	"$PW" --profile via-h264-only >"$T/pw-h264.log" 2>&1 &
	p=$!
	wait_for "grep -q ready '$T/pw-h264.log'" 100
	if ! gst-inspect-1.0 openh264dec >/dev/null 2>&1; then
		echo "(b) H.264 skipped: no openh264dec (gstreamer1.0-plugins-bad)"
	else
		TARGET=negcam.via-h264-only grab "$f" 10 video/x-h264,width=640,height=480 \
			h264parse openh264dec videoconvert video/x-raw,format=I420
		"$STAMP" yuv420p 640 480 "$f" >"$f.st" 2>&1
		check "(b) H264 640x480 from a second node: 10 decoded frames" \
			test "$(stat -c %s "$f" 2>/dev/null)" = $((10 * 640 * 480 * 3 / 2))
		check "(b) H264 640x480: stamps in sequence" stamps_in_sequence "$f.st"
		echo "| negcam-pw (via-h264-only) | H264 640x480 | $(grep -o 'format H264 [0-9x]* @[0-9/]*' "$T/pw-h264.log" | cut -d' ' -f2-) | $(sed -n 's/^frame 0: stamp /first stamp /p' "$f.st") |" >>"$SIZES"
	fi
	kill "$p"
	wait "$p"
}

# A stepwise profile (built-in stepwise: 48x32-1920x1088 step 16x8, 1-60
# fps): an SPA step range; a size on its grid is served at the rate asked,
# a consumer asking no size gets the profile's default.
pw_check_stepwise() {
	local p f=$T/step.raw
	"$PW" --profile stepwise >"$T/pw-step.log" 2>&1 &
	p=$!
	wait_for "grep -q ready '$T/pw-step.log'" 100
	TARGET=negcam.stepwise grab "$f" 10 video/x-raw,format=I420,width=400,height=304,framerate=15/1
	"$STAMP" yuv420p 400 304 "$f" >"$f.st" 2>&1
	check "(b) stepwise I420 400x304 at 15 fps: 10 frames of that size" \
		test "$(stat -c %s "$f" 2>/dev/null)" = $((10 * 400 * 304 * 3 / 2))
	check "(b) stepwise: the engine set YU12 400x304 at 15 fps" grep -q "format YU12 400x304 @15/1" "$T/pw-step.log"
	check "(b) stepwise: stamps in sequence" stamps_in_sequence "$f.st"
	TARGET=negcam.stepwise grab "$T/step-any.raw" 3 video/x-raw,format=I420
	check "(b) stepwise, no size asked: the profile's default 1280x720 at 30 fps" \
		grep -q "format YU12 1280x720 @30/1" "$T/pw-step.log"
	echo "| negcam-pw (stepwise) | I420 400x304 at 15 fps | $(grep -o 'format YU12 400x304 @[0-9/]*' "$T/pw-step.log" | cut -d' ' -f2-) | $(sed -n 's/^frame 0: stamp /first stamp /p' "$f.st") |" >>"$SIZES"
	echo "| negcam-pw (stepwise) | I420, any size | $(grep -o 'format YU12 1280x720 @[0-9/]*' "$T/pw-step.log" | cut -d' ' -f2-) | |" >>"$SIZES"
	kill "$p"
	wait "$p"
}

# Every shelf camera and built-in profile: published (then SIGTERM, exit
# 0), or refused with its reason when SPA can carry none of its formats.
pw_check_shelf() {
	local f p rc bad= n=0 left=0
	for f in "$root"/data/cameras/*.profile webcam vga stepwise tv-tuner; do
		n=$((n + 1))
		# Emptied here, not by the job's redirection: a job not yet started
		# under load left the last profile's "ready" for the wait to find
		# (then "not ready in 30 s", or a SIGTERM before its handler: rc 143).
		rm -f "$T/one.log"
		"$PW" --profile "$f" >"$T/one.log" 2>&1 &
		p=$!
		wait_for "grep -q ' ready, ' '$T/one.log' || ! kill -0 $p" 300
		if kill -0 "$p" 2>/dev/null && ! grep -q ' ready, ' "$T/one.log"; then
			bad+=" ${f##*/}(not ready in 30 s: $(tail -n 1 "$T/one.log"))"
			kill -KILL "$p"
			wait "$p"
		elif kill -0 "$p" 2>/dev/null; then
			kill "$p"
			wait "$p"
			rc=$?
			[ "$rc" = 0 ] && grep -q "0 memfds open" "$T/one.log" || bad+=" ${f##*/}(rc $rc)"
		else
			wait "$p"
			rc=$?
			grep -q "has no capture format SPA can carry" "$T/one.log" && [ "$rc" = 1 ] ||
				bad+=" ${f##*/}(rc $rc)"
		fi
		left=$((left + $(grep -c 'left out' "$T/one.log")))
	done
	echo "shelf: $n profiles, $left formats left out with a warning${bad:+, wrong:$bad}"
	check "every shelf camera and built-in profile published or refused with its reason ($n)" test -z "$bad"
}
