#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# What applications do under each fault (docs/faults.md), measured through
# negcam-run: v4l2-ctl, GStreamer's v4l2src, ffmpeg and OpenCV each take
# 60 frames (320x240, YUYV; MJPEG for corrupt and truncate) from a camera
# with one fault, under a 20 s limit. Each cell says what the program did:
# the frames it got, the gaps and flags it saw, its error or its freeze.
#
#   tests/apps/faults-apps.sh BUILD [--write docs/faults.md]
# --write replaces the table between the faults-apps markers of the doc
# (make test-faults-apps). Needs v4l2-ctl; the other programs are
# skipped ("-") when missing.
set -u
BUILD=$1 WRITE=
[ "${2:-}" = --write ] && WRITE=$3
RUN=$BUILD/run/negcam-run
LIMIT=20
T=$(mktemp -d "${TMPDIR:-/var/tmp}/negcam-faults-apps.XXXXXX")
trap 'rm -rf "$T"' EXIT
has() { command -v "$1" >/dev/null 2>&1; }

base='name faulty
card "Faulty Camera"
format MJPG
size 320x240 fps 30
size 640x480 fps 30
format YUYV
size 320x240 fps 30
size 640x480 fps 30
fault seed 7'

# The faults both application tables run, one per line: fault line | format
# (tests/apps/fault-cases.txt, shared with tests/apps/faults-chromium.sh).
cases=$(cat "$(dirname "$0")/fault-cases.txt")

# how a run ended: "" (exit 0), "exit N", "killed (frozen)" after the limit, "signal N"
ended() {
	case $1 in
	0) ;;
	124) echo "**frozen**, killed after ${LIMIT} s" ;;
	13[0-9]|14[0-9]) echo "**crash** (signal $(($1 - 128)))" ;;
	*) echo "exit $1" ;;
	esac
}
join() { echo "$*" | sed 's/^[ ;]*//; s/[ ;]*$//; s/  */ /g; s/ ;/;/g'; }

v4l2ctl() {	# FMT
	timeout $LIMIT "$RUN" --profile "$T/p.profile" -- v4l2-ctl -d /dev/video0 \
		--set-fmt-video=width=320,height=240,pixelformat=$1 --stream-mmap \
		--stream-count=60 --verbose >"$T/o" 2>&1
	rc=$(ended $?)
	n=$(grep -c 'cap dqbuf' "$T/o")
	gaps=$(grep -o 'seq: *[0-9]*' "$T/o" | awk '{ print $2 }' |
		awk 'NR > 1 && $1 > p + 1 { g += $1 - p - 1 } { p = $1 } END { print g + 0 }')
	err=$(grep -c '(error,' "$T/o")
	grep -o 'delta: [0-9.]* ms' "$T/o" | awk '{ printf "%d\n", $2 + 0.5 }' | sort -n >"$T/d"
	med=$(awk '{ a[NR] = $1 } END { print a[int(NR / 2) + 1] + 0 }' "$T/d")
	maxd=$(tail -1 "$T/d")
	fail=$(grep -m1 -E 'failed|timeout|EVENT' "$T/o" | sed 's/^[[:space:]]*//' | cut -c1-40)
	join "$n frames;" "$([ "$gaps" != 0 ] && echo "$gaps lost (seq gaps);")" \
		"$([ "$err" != 0 ] && echo "$err flagged error;")" \
		"$([ "${med:-0}" -gt 40 ] && echo "${med} ms apart;")" \
		"$([ "${maxd:-0}" -gt $((3 * ${med:-0} + 100)) ] && echo "longest delta ${maxd} ms;")" \
		"$([ -n "$fail" ] && echo "\`$fail\`;")" "$rc"
}

v4l2src() {	# FMT
	if [ "$1" = MJPG ]; then caps="image/jpeg,width=320,height=240 ! jpegdec"
	else caps="video/x-raw,width=320,height=240"; fi
	GST_DEBUG=v4l2src:4 timeout $LIMIT "$RUN" --profile "$T/p.profile" -- gst-launch-1.0 v4l2src \
		device=/dev/video0 num-buffers=60 ! $caps ! fakesink >"$T/o" 2>&1
	rc=$(ended $?)
	err=$(grep -m1 '^ERROR: from element' "$T/o" | sed 's/^ERROR: from element [^ ]*: //' | cut -c1-50)
	warn=$(grep -c '^WARNING' "$T/o")
	eos=$(grep -c 'Got EOS' "$T/o")
	res=$(grep -c 'Resolution change detected' "$T/o")
	join "$([ "$res" != 0 ] && echo "resolution change detected, renegotiated;")" \
		"$([ "$eos" != 0 ] && echo "60 buffers, EOS;")" \
		"$([ -n "$err" ] && echo "error \`$err\`;")" \
		"$([ "$warn" != 0 ] && echo "$warn warnings;")" "$rc"
}

ffmpeg_run() {	# FMT
	if [ "$1" = MJPG ]; then f=mjpeg; else f=yuyv422; fi
	timeout $LIMIT "$RUN" --profile "$T/p.profile" -- ffmpeg -hide_banner -nostdin -f v4l2 \
		-input_format $f -video_size 320x240 -i /dev/video0 -frames:v 60 -f null - \
		>"$T/o" 2>&1
	rc=$(ended $?)
	tr '\r' '\n' <"$T/o" >"$T/o2"
	n=$(grep -o 'frame= *[0-9]*' "$T/o2" | tail -1 | awk '{ print $NF }' | tr -d 'frame=')
	dec=$(grep -c '^\[mjpeg' "$T/o2")
	err=$(grep -v -e '^\[mjpeg' -e '^frame=' "$T/o2" | grep -m1 -iE 'error|invalid|No such device' |
		sed 's/^\[[^]]*\] //' | cut -c1-50)
	join "${n:-0} frames;" "$([ "$dec" != 0 ] && echo "$dec decoder messages;")" \
		"$([ -n "$err" ] && echo "\`$err\`;")" "$rc"
}

opencv() {	# FMT
	cat >"$T/cv.py" <<EOF
import sys, time, cv2
cap = cv2.VideoCapture('/dev/video0', cv2.CAP_V4L2)
cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*'$1'))
cap.set(cv2.CAP_PROP_FRAME_WIDTH, 320)
cap.set(cv2.CAP_PROP_FRAME_HEIGHT, 240)
ok = bad = 0
t = time.time()
for i in range(60):
    r, f = cap.read()
    if r and f is not None:
        ok += 1
    else:
        bad += 1
        if bad >= 3:
            break
print('opencv: %d frames; %d failed reads%s; %.1f s' % (ok, bad, ' (gave up)' if bad >= 3 else '', time.time() - t))
EOF
	timeout $LIMIT "$RUN" --profile "$T/p.profile" -- /usr/bin/python3 "$T/cv.py" >"$T/o" 2>&1
	rc=$(ended $?)
	res=$(grep -m1 '^opencv:' "$T/o" | sed 's/^opencv: //; s/; 0 failed reads//')
	warn=$(grep -ciE 'corrupt|premature|warn' "$T/o")
	join "$res;" "$([ "$warn" != 0 ] && echo "$warn warnings;")" "$rc"
}

table() {
	echo "| fault | v4l2-ctl --stream-mmap | v4l2src | ffmpeg | OpenCV |"
	echo "|---|---|---|---|---|"
	echo "$cases" | while IFS='|' read -r fault fmt; do
		printf '%s\n' "$base" >"$T/p.profile"
		[ "$fault" != none ] && echo "fault $fault" >>"$T/p.profile"
		c1=$(v4l2ctl "$fmt")
		c2=$(has gst-launch-1.0 && v4l2src "$fmt" || echo -)
		c3=$(has ffmpeg && ffmpeg_run "$fmt" || echo -)
		c4=$(/usr/bin/python3 -c 'import cv2' 2>/dev/null && opencv "$fmt" || echo -)
		echo "| \`$fault\` ($fmt) | $c1 | $c2 | $c3 | $c4 |"
	done
}

table >"$T/table"
cat "$T/table"
if [ -n "$WRITE" ]; then
	{
		sed '/<!-- faults-apps:begin -->/q' "$WRITE"
		echo "Measured $(date -u +%Y-%m-%d) on $(uname -sr), $(v4l2-ctl --version | head -1)," \
			"$(gst-launch-1.0 --version | sed -n 2p), $(ffmpeg -version | head -1 | cut -d' ' -f1-3)," \
			"OpenCV $(/usr/bin/python3 -c 'import cv2; print(cv2.__version__)' 2>/dev/null || echo -)" \
			"(\`make test-faults-apps\`):"
		echo
		cat "$T/table"
		sed -n '/<!-- faults-apps:end -->/,$p' "$WRITE"
	} >"$T/doc" && cp "$T/doc" "$WRITE"
fi
