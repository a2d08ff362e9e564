#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# negcam-run --each-profile (docs/matrix.md) and the programs issue 14
# names, on a host with no /dev/video* and no module:
#   matrix   ffmpeg over the 10 built-ins: the table, its counts against
#            NEGCAM_RUN_TRACE, JUnit XML read back by python3; a profile
#            ffmpeg cannot use, a failing command and a timeout are failed
#            cases; a directory of imported listings; fork and exec
#   v4l2src  the acceptance line, and v4l2src's requests through the matrix
#   opencv   cv2.VideoCapture(CAP_V4L2) reads 30 frames of the size it set
#            (77, skipped, when no python3 imports cv2)
#   example  examples/grab-yuyv on every built-in
#   markdown --markdown, --append and --label: one Markdown table of a row
#            per camera per application; cells escaped; bad uses refused
#   shelf    v4l2-ctl streaming on every camera of the shelf (--profiles
#            shelf), under a minute; a shelf camera by name in the library
#
#   test_run_matrix.sh SOURCE_ROOT BUILD_ROOT PART
set -u
SRC=$1 BUILD=$2 PART=$3 NAME=test_run_$3
RUN=$BUILD/run/negcam-run
CTL=$BUILD/ctl/negcam-ctl
T=$(mktemp -d "${TMPDIR:-/var/tmp}/negcam-matrix-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0 checks=0
FF="ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -i /dev/video0 -frames:v 5 -f null -"

. "$SRC/tests/check.sh"
# col FILE PROFILE COLUMN: a column of PROFILE's row (counted from the end
# for the numbers, as the format is "-" when CMD never opened the node)
col() {
	awk -v p="$2" -v c="$3" 'BEGIN { split("other EBUSY EINVAL frames setup S_PARM ENUM G_FMT S_FMT TRY", k, " ")
		for (i in k) back[k[i]] = i - 1 }
		$1 == p { print c == "exit" ? $2 : $(NF - back[c]); exit }' "$1"
}
# junit FILE PYTHON-EXPRESSION: true when the expression holds; `cases` maps
# names to testcase elements, `suite` is the testsuite
junit() {
	python3 - "$1" "$2" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = root.find('testsuite')
cases = {c.get('name'): c for c in suite.iter('testcase')}
fail = lambda n: cases[n].find('failure')
sys.exit(0 if eval(sys.argv[2]) else 1)
EOF
}

check "this host has no /dev/video0 (the case negcam-run is for)" [ ! -e /dev/video0 ]

if [ "$PART" = matrix ]; then
builtins=$("$CTL" --list-profiles | awk 'NF == 0 { exit } { print $1 }')
# shellcheck disable=SC2086
timeout 600 "$RUN" --each-profile --junit "$T/r.xml" -- $FF >"$T/t" 2>"$T/e"; rc=$?
cat "$T/t"
check "ffmpeg on every built-in: exit status 0 (got $rc)" [ "$rc" = 0 ]
check "the table has a header and 10 rows" [ "$(wc -l <"$T/t")" = 11 ]
for p in $builtins; do
	check "$p: a row that says exit 0" [ "$(col "$T/t" "$p" exit)" = 0 ]
	check "$p: ffmpeg set a format (S_FMT >= 1)" [ "$(col "$T/t" "$p" S_FMT)" -ge 1 ]
	check "$p: at least 5 frames delivered" [ "$(col "$T/t" "$p" frames)" -ge 5 ]
done
check "webcam: ffmpeg kept the default YUYV 640x480 at 30 fps" \
	grep -Eq '^webcam +0 +YUYV 640x480 30fps none ' "$T/t"
check "mjpg-720p60: MJPG is all there is, at 60 fps" \
	grep -Eq '^mjpg-720p60 +0 +MJPG 1280x720 60fps none ' "$T/t"
check "tv-tuner: interlaced PAL" grep -Eq '^tv-tuner +0 +UYVY 720x576 25fps interlaced ' "$T/t"
check "tv-tuner: its legacy-einval quirk shows as EINVAL" [ "$(col "$T/t" tv-tuner EINVAL)" -ge 1 ]
check "webcam: no EINVAL" [ "$(col "$T/t" webcam EINVAL)" = 0 ]
check "the JUnit XML: one testsuite of 10 cases, 0 failures" \
	junit "$T/r.xml" "suite.get('tests') == '10' and suite.get('failures') == '0' and len(cases) == 10"
check "the JUnit XML: the testsuite says when and where" \
	junit "$T/r.xml" "__import__('re').fullmatch(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d', suite.get('timestamp')) and suite.get('hostname')"
check "the JUnit XML: a case per built-in, none failed" \
	junit "$T/r.xml" "sorted(cases) == sorted('$(echo $builtins)'.split()) and not any(map(fail, cases))"

# The counts against the library's own trace of the same command.
# shellcheck disable=SC2086
NEGCAM_RUN_TRACE=1 timeout 60 "$RUN" --profile webcam -- $FF 2>"$T/trace" >/dev/null
sfmt=$(grep -c 'VIDIOC_S_FMT ' "$T/trace")
setup=$(awk '/VIDIOC_STREAMON /{exit} /^negcam-run: fd /{n++} END{print n+0}' "$T/trace")
check "webcam: S_FMT count $(col "$T/t" webcam S_FMT) equals the trace's $sfmt" [ "$(col "$T/t" webcam S_FMT)" = "$sfmt" ]
check "webcam: setup count $(col "$T/t" webcam setup) equals the trace's $setup before STREAMON" \
	[ "$(col "$T/t" webcam setup)" = "$setup" ]

# A profile ffmpeg cannot use, beside one it can: a failed case with its message.
# shellcheck disable=SC2086
timeout 120 "$RUN" --each-profile --profiles "$SRC/tests/run/profiles/hsv-only.profile,vga" \
	--junit "$T/f.xml" -- $FF >"$T/t" 2>"$T/e"; rc=$?
cat "$T/t"
check "a failed case makes the exit status 1 (got $rc)" [ "$rc" = 1 ]
check "hsv-only: exit 1 in the table" [ "$(col "$T/t" hsv-only exit)" = 1 ]
check "hsv-only: the format it was left with" grep -Eq '^hsv-only +1 +HSV3 640x480 30fps' "$T/t"
check "vga still passes" [ "$(col "$T/t" vga exit)" = 0 ]
check "the XML counts 1 failure of 2" junit "$T/f.xml" "suite.get('failures') == '1' and suite.get('tests') == '2'"
check "hsv-only fails with ffmpeg's message" \
	junit "$T/f.xml" "'Cannot find a proper format' in fail('hsv-only').get('message')"
check "the message keeps its line breaks" junit "$T/f.xml" "'\n' in fail('hsv-only').get('message')"
check "vga has no failure" junit "$T/f.xml" "fail('vga') is None"
check "negcam-run names the failed case on stderr" contains "$T/e" "hsv-only failed:"
check "and sums up on stderr" contains "$T/e" "negcam-run: 2 profiles, 1 passed, 1 failed"

# A command that exits 3 with markup in its message, and one that outlives --timeout.
timeout 60 "$RUN" --each-profile --profiles vga --junit "$T/x.xml" -- \
	sh -c 'echo "bad <&> \"here\"" >&2; exit 3' >"$T/t" 2>/dev/null; rc=$?
check "exit 3: negcam-run exits 1 (got $rc)" [ "$rc" = 1 ]
check "exit 3 in the table" [ "$(col "$T/t" vga exit)" = 3 ]
check "the message is escaped and reads back" \
	junit "$T/x.xml" "fail('vga').get('message').strip() == 'bad <&> \"here\"' and fail('vga').get('type') == 'exit 3'"
start=$(date +%s)
timeout 60 "$RUN" --each-profile --timeout 1 --profiles vga,webcam --junit "$T/o.xml" -- \
	sh -c 'echo waiting >&2; sleep 30' >"$T/t" 2>/dev/null; rc=$?
took=$(($(date +%s) - start))
check "timeouts: exit status 1 (got $rc)" [ "$rc" = 1 ]
check "timeouts: 2 cases of 1 s end in under 15 s (took $took)" [ "$took" -lt 15 ]
check "timeouts: the table says timeout" [ "$(col "$T/t" webcam exit)" = timeout ]
check "timeouts: a failure of type timeout, with the stderr tail" \
	junit "$T/o.xml" "fail('webcam').get('type') == 'timeout' and 'waiting' in fail('webcam').get('message')"
timeout 60 "$RUN" --each-profile --profiles vga --junit "$T/s.xml" -- sh -c 'kill -SEGV $$' >"$T/t" 2>"$T/e"
check "a command killed by SIGSEGV: SIGSEGV in the table" [ "$(col "$T/t" vga exit)" = SIGSEGV ]
check "a command killed by SIGSEGV: a failure of type SIGSEGV" junit "$T/s.xml" "fail('vga').get('type') == 'SIGSEGV'"
check "the summary line counts it" contains "$T/e" "negcam-run: 1 profile, 0 passed, 1 failed"
timeout 60 "$RUN" --node /dev/video5 --each-profile --profiles vga -- v4l2-ctl -d /dev/video5 -D >"$T/t" 2>&1
check "--node with --each-profile: the command finds /dev/video5" [ "$(col "$T/t" vga exit)" = 0 ]
timeout 60 "$RUN" --each-profile --profiles vga -- sh -c 'sleep 300 & echo $! >"$0"' "$T/bg" >"$T/t" 2>&1
check "a command that never opens the node: format -" grep -Eq '^vga +0 +- +0 +0 +0 +0 +0 +0 +0 +0 +0 +0$' "$T/t"
sleep 0.2
state=$(cut -d' ' -f3 "/proc/$(cat "$T/bg")/stat" 2>/dev/null)	# gone, or a zombie nobody reaps
check "what the command left in the background is killed (state '$state')" [ "${state:-Z}" = Z ]
check "a missing command is a failed case (127)" sh -c \
	"'$RUN' --each-profile --profiles vga -- /nonexistent/cmd 2>/dev/null | grep -Eq '^vga +127'"
"$RUN" --each-profile --profiles nosuchprofile -- true >"$T/t" 2>&1; rc=$?
check "an unknown profile stops the run with 2 (got $rc)" [ "$rc" = 2 ]
"$RUN" --each-profile --profile vga -- true >/dev/null 2>&1; rc=$?
check "--each-profile with --profile is refused with 2 (got $rc)" [ "$rc" = 2 ]

# A directory of imported bug-report listings (docs/matrix.md).
mkdir "$T/cams"
for c in usb2-vga-camera mjpg-720p60; do
	"$CTL" --import "$SRC/tests/engine/profiles/cameras/$c.txt" --name "$c" >"$T/cams/$c.profile"
done
timeout 120 "$RUN" --each-profile --profiles "$T/cams" --junit "$T/d.xml" -- \
	v4l2-ctl -d /dev/video0 --stream-mmap --stream-count=3 >"$T/t" 2>/dev/null; rc=$?
cat "$T/t"
check "a directory: both imported cameras pass (rc $rc)" [ "$rc" = 0 ]
check "a directory: the cases are named after the files, in order" \
	junit "$T/d.xml" "[c.get('name') for c in suite.iter('testcase')] == ['mjpg-720p60', 'usb2-vga-camera']"
check "a directory: v4l2-ctl streamed 3 frames" [ "$(col "$T/t" usb2-vga-camera frames)" -ge 3 ]

# A program that closes the descriptors above the node's and opens a file
# (the library's own end at the node's eventfd and below): the record is
# never written into that file, as the library keeps no descriptor open for it.
cat >"$T/closeall.py" <<'EOF'
import fcntl, os, sys
fd = os.open('/dev/video0', os.O_RDWR)
fcntl.ioctl(fd, 0x80685600, bytearray(104))  # VIDIOC_QUERYCAP
os.closerange(fd + 1, 4096)
out = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
os.write(out, b'hello')
fcntl.ioctl(fd, 0x80685600, bytearray(104))
EOF
timeout 60 "$RUN" --each-profile --profiles vga -- python3 "$T/closeall.py" "$T/hello" >"$T/t" 2>&1
check "closing descriptors: the program's file holds what it wrote" [ "$(cat "$T/hello")" = hello ]
check "closing every descriptor: the case passes" [ "$(col "$T/t" vga exit)" = 0 ]

# The record is written at most once a second while only counts change,
# and at STREAMOFF, close and exit: 300 frames as fast as the profile
# gives them cost a handful of writes, not two per frame, and every frame
# is in the table.
if has strace; then
	strace -f -qq -e trace=pwrite64 -o "$T/pw" "$RUN" --each-profile \
		--profiles "$SRC/tests/bench/unthrottled.profile" -- \
		v4l2-ctl -d /dev/video0 --stream-mmap --stream-count=300 >"$T/t" 2>/dev/null
	writes=$(grep -c 'pwrite64(' "$T/pw")
	check "300 frames: all in the table ($(col "$T/t" unthrottled frames))" \
		[ "$(col "$T/t" unthrottled frames)" = 300 ]
	check "300 frames: the record written $writes times, not per frame" [ "$writes" -lt 100 ]
fi
# A program killed by the timeout while streaming: what it reached is in
# the table (the counts of its last second may be missing).
timeout 60 "$RUN" --each-profile --timeout 3 --profiles vga -- \
	v4l2-ctl -d /dev/video0 --stream-mmap >"$T/t" 2>/dev/null
check "killed while streaming: timeout in the table" [ "$(col "$T/t" vga exit)" = timeout ]
check "killed while streaming: its streaming format is in the table" \
	grep -q '^vga .* YUYV 640x480 30fps none ' "$T/t"

# Several processes (a shell, two v4l2-ctl): their counts add up.
q() { timeout 60 "$RUN" --each-profile --profiles vga --requests -- sh -c "$1" >"$T/q" 2>&1; \
	sed -n 's/.* in all: //p' "$T/q" | tr ',' '\n' | awk '$1 == "G_FMT" { print $2 }'; }
one=$(q 'v4l2-ctl -d /dev/video0 --get-fmt-video >/dev/null')
two=$(q 'v4l2-ctl -d /dev/video0 --get-fmt-video >/dev/null; v4l2-ctl -d /dev/video0 --get-fmt-video >/dev/null')
check "two processes' G_FMT ($two) are twice one's ($one)" [ -n "$one" -a "$two" = "$((one * 2))" ]
fi

if [ "$PART" = v4l2src ]; then
timeout 60 "$RUN" -- gst-launch-1.0 v4l2src device=/dev/video0 ! video/x-raw,width=640,height=360 \
	! fakesink num-buffers=30 >"$T/g" 2>&1; rc=$?
check "the acceptance line: v4l2src ! 640x360 ! fakesink num-buffers=30 (rc $rc)" [ "$rc" = 0 ]
check "the pipeline reached EOS" contains "$T/g" "Got EOS from element"
timeout 60 "$RUN" --each-profile --profiles webcam --requests -- gst-launch-1.0 -q v4l2src \
	device=/dev/video0 ! video/x-raw,width=640,height=360 ! fakesink num-buffers=30 >"$T/t" 2>&1
cat "$T/t"
check "v4l2src streamed YUYV 640x360 at 30 fps" grep -Eq '^webcam +0 +YUYV 640x360 30fps none ' "$T/t"
check "v4l2src got 30 frames" [ "$(col "$T/t" webcam frames)" -ge 30 ]
# v4l2src on negcam.ko webcam, same filter (docs/benchmarks.md, VM): 146
# ENUM_FRAMEINTERVALS and 22 ENUM_FRAMESIZES before STREAMON.
check "v4l2src asked 146 ENUM_FRAMEINTERVALS before STREAMON, as on negcam.ko" \
	grep -q "before STREAMON: ENUM_FRAMEINTERVALS 146, ENUM_FRAMESIZES 22," "$T/t"
fi

if [ "$PART" = opencv ]; then
PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import cv2' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "$NAME: SKIP: no python3 imports cv2 (Debian's python3-opencv)"
	exit 77
fi
cat >"$T/cv.py" <<'EOF'
import sys, cv2
w, h = int(sys.argv[1]), int(sys.argv[2])
cap = cv2.VideoCapture('/dev/video0', cv2.CAP_V4L2)
assert cap.isOpened(), 'not opened'
cap.set(cv2.CAP_PROP_FRAME_WIDTH, w)
cap.set(cv2.CAP_PROP_FRAME_HEIGHT, h)
got = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
n = 0
for i in range(30):
    ok, frame = cap.read()
    if not ok or frame.shape != (h, w, 3):
        sys.exit('frame %d: %s %s' % (i, ok, None if frame is None else frame.shape))
    n += 1
print('opencv: %d frames of %dx%d, size %dx%d' % (n, w, h, got[0], got[1]))
EOF
for s in "640 480" "1280 720" "320 240"; do
	# shellcheck disable=SC2086
	timeout 120 "$RUN" --profile webcam -- "$PY" "$T/cv.py" $s >"$T/o" 2>&1; rc=$?
	cat "$T/o"
	check "OpenCV reads 30 frames of ${s% *}x${s#* } (rc $rc)" [ "$rc" = 0 ]
	check "OpenCV reports ${s% *}x${s#* }" contains "$T/o" "size ${s% *}x${s#* }"
done
fi

if [ "$PART" = markdown ]; then
# --markdown FILE: the table in Markdown, a row per profile; --append and
# --label: one table of a row per camera per application (docs/matrix.md).
# mdrow FILE CAMERA APP: that row's cells, one a line (escaped '|' kept)
mdrow() {
	python3 - "$@" <<'EOF2'
import re, sys
for line in open(sys.argv[1]):
    cells = [c.strip() for c in re.split(r'(?<!\\)\|', line.rstrip('\n'))[1:-1]]
    if cells[:2] == sys.argv[2:4]:
        print('\n'.join(cells))
EOF2
}
cell() { mdrow "$1" "$2" "$3" | sed -n "${4}p"; }	# FILE CAMERA APP N (1: camera)
HEADER='| camera | application | result | format reached | setup | requests | frames | errors | why it failed |'
# shellcheck disable=SC2086
timeout 120 "$RUN" --each-profile --profiles "vga,$SRC/tests/run/profiles/hsv-only.profile" \
	--markdown "$T/m.md" -- $FF >"$T/t" 2>/dev/null; rc=$?
cat "$T/m.md"
check "--markdown: the run's status is the cases' (1, got $rc)" [ "$rc" = 1 ]
check "--markdown: the header" [ "$(head -n 1 "$T/m.md")" = "$HEADER" ]
check "--markdown: the alignment row (numbers to the right)" \
	[ "$(sed -n 2p "$T/m.md")" = '|---|---|---|---|--:|--:|--:|---|---|' ]
check "--markdown: a row per profile" [ "$(wc -l <"$T/m.md")" = 4 ]
check "vga: ffmpeg, pass, the format it reached" [ "$(mdrow "$T/m.md" vga ffmpeg | sed -n '2,4p' | tr '\n' ,)" = "ffmpeg,pass,YUYV 640x480 30fps none," ]
check "vga: setup as in the text table ($(col "$T/t" vga setup))" [ "$(cell "$T/m.md" vga ffmpeg 5)" = "$(col "$T/t" vga setup)" ]
check "vga: every request counted (more than setup)" [ "$(cell "$T/m.md" vga ffmpeg 6)" -gt "$(col "$T/t" vga setup)" ]
check "vga: 5 frames" [ "$(cell "$T/m.md" vga ffmpeg 7)" = 5 ]
check "vga: the errors by kind (2 ENOTTY: G_STD)" [ "$(cell "$T/m.md" vga ffmpeg 8)" = "2 ENOTTY" ]
check "vga: no reason, it passed" [ -z "$(cell "$T/m.md" vga ffmpeg 9)" ]
check "hsv-only: exit 1" [ "$(cell "$T/m.md" hsv-only ffmpeg 3)" = "exit 1" ]
check "hsv-only: no error from the device" [ "$(cell "$T/m.md" hsv-only ffmpeg 8)" = 0 ]
cell "$T/m.md" hsv-only ffmpeg 9 >"$T/why"
check "hsv-only: why: ffmpeg's last two lines, Markdown's brackets escaped" grep -Eq \
	'^\\\[video4linux2,v4l2 @ 0x[0-9a-f]+\\\] Cannot find a proper format .* / /dev/video0: Invalid argument$' "$T/why"
# the same table, another application: rows added under the one header
timeout 120 "$RUN" --each-profile --profiles vga,mjpg-720p60 --markdown "$T/m.md" --append --label v4l2src \
	--junit "$T/g.xml" -- gst-launch-1.0 -q v4l2src device=/dev/video0 num-buffers=5 ! video/x-raw ! fakesink \
	>/dev/null 2>&1; rc=$?
cat "$T/m.md"
check "--append: one header" [ "$(grep -c '^| camera |' "$T/m.md")" = 1 ]
check "--append: 4 rows under it" [ "$(wc -l <"$T/m.md")" = 6 ]
check "--append --label v4l2src: vga passes" [ "$(cell "$T/m.md" vga v4l2src 3)" = pass ]
check "v4l2src on the MJPG-only camera with a raw filter fails" [ "$(cell "$T/m.md" mjpg-720p60 v4l2src 3)" = "exit 1" ]
cell "$T/m.md" mjpg-720p60 v4l2src 9 >"$T/why"
check "and the row says why: not-negotiated" contains "$T/why" "not-negotiated"
check "--label names the JUnit class too" junit "$T/g.xml" "cases['vga'].get('classname') == 'negcam-run.v4l2src'"
# what a cell cannot hold: pipes, markup, line breaks
timeout 60 "$RUN" --each-profile --profiles vga --markdown "$T/x.md" -- \
	sh -c 'printf "a|b *c* <d>\n\n  second\tline  \n" >&2; exit 3' >/dev/null 2>&1
check "a cell escapes '|', '*' and markup, and joins the last two lines" \
	[ "$(cell "$T/x.md" vga sh 9)" = 'a\|b \*c\* &lt;d&gt; /   second line' ]
check "the row has its 9 cells" [ "$(mdrow "$T/x.md" vga sh | wc -l)" = 9 ]
timeout 60 "$RUN" --each-profile --timeout 1 --profiles vga --markdown "$T/o.md" -- sleep 30 >/dev/null 2>&1
check "a timeout: result timeout" [ "$(cell "$T/o.md" vga sleep 3)" = timeout ]
check "a timeout: why" [ "$(cell "$T/o.md" vga sleep 9)" = "killed after the 1 s timeout" ]
# bad uses
echo "# notes" >"$T/notes.md"
"$RUN" --each-profile --profiles vga --markdown "$T/notes.md" --append -- true >/dev/null 2>"$T/e"; rc=$?
check "--append to a file that is not negcam-run's table: refused with 2 (got $rc)" [ "$rc" = 2 ]
check "--append to a file that is not negcam-run's table: the file is kept" [ "$(cat "$T/notes.md")" = "# notes" ]
check "and the error says so" contains "$T/e" "its first line is not the header of negcam-run's table"
"$RUN" --each-profile --profiles vga --append -- true >/dev/null 2>"$T/e"; rc=$?
check "--append without --markdown: refused with 2 (got $rc)" [ "$rc" = 2 ]
check "--append without --markdown: said in words" contains "$T/e" "--append adds to a --markdown FILE"
"$RUN" --markdown "$T/y.md" -- true >/dev/null 2>&1; rc=$?
check "--markdown without --each-profile: refused with 2 (got $rc), nothing written" [ "$rc" = 2 -a ! -e "$T/y.md" ]
"$RUN" --each-profile --profiles vga --markdown "$T/nodir/z.md" -- true >/dev/null 2>"$T/e"; rc=$?
check "--markdown into a missing directory: 2 (got $rc)" [ "$rc" = 2 ]
check "--markdown into a missing directory: the file named" contains "$T/e" "--markdown $T/nodir/z.md"
fi

if [ "$PART" = shelf ]; then
# Every camera of the shelf (docs/cameras.md) through the matrix with
# v4l2-ctl streaming, as `make test` runs it (issue 35's acceptance).
ncams=$(( $(ls "$SRC"/data/cameras/*.profile | wc -l) + 6 ))
start=$(date +%s)
timeout 300 "$RUN" --each-profile --profiles shelf --junit "$T/s.xml" --markdown "$T/s.md" --timeout 60 -- \
	v4l2-ctl -d /dev/video0 --stream-mmap --stream-count=3 >"$T/t" 2>"$T/e"; rc=$?
took=$(($(date +%s) - start))
cat "$T/t" "$T/e"
echo "$NAME: the shelf's $ncams cameras with v4l2-ctl in $took s"
check "--profiles shelf: every camera passes with v4l2-ctl --stream-mmap (rc $rc)" [ "$rc" = 0 ]
check "--profiles shelf: $ncams cameras, the 6 real built-ins and the files of data/cameras" \
	junit "$T/s.xml" "len(cases) == $ncams and suite.get('failures') == '0'"
check "the synthetic built-ins are not cameras of the shelf" \
	junit "$T/s.xml" "not set(cases) & {'webcam', 'vga', 'stepwise', 'tv-tuner'} and 'logitech-c920' in cases"
for f in "$SRC"/data/cameras/*.profile; do
	p=$(basename "$f" .profile)
	check "$p: v4l2-ctl streamed 3 frames" [ "$(col "$T/t" "$p" frames)" -ge 3 ]
done
check "the Markdown table: a row per camera, each a pass" \
	[ "$(grep -c '^| [^ ]* | v4l2-ctl | pass | ' "$T/s.md")" = "$ncams" ]
check "the shelf in under a minute ($took s)" [ "$took" -lt 60 ]
# a shelf camera by name: the library, in v4l2-ctl's process, finds it too
timeout 30 "$RUN" --profile via-h264-only -- v4l2-ctl -d /dev/video0 --list-formats >"$T/v" 2>&1
check "--profile via-h264-only (a shelf name): v4l2-ctl lists its H264" contains "$T/v" "'H264'"
mkdir "$T/empty"
NEGCAM_SHELF_DIR=$T/empty "$RUN" --each-profile --profiles shelf -- true >/dev/null 2>"$T/e"; rc=$?
check "--profiles shelf with an empty shelf directory: 2 (got $rc)" [ "$rc" = 2 ]
check "--profiles shelf with an empty shelf directory: named" contains "$T/e" "$T/empty: no *.profile file in it"
fi

if [ "$PART" = example ]; then
timeout 300 "$RUN" --each-profile --junit "$T/r.xml" -- "$BUILD/examples/grab-yuyv" >"$T/t" 2>/dev/null
rc=$?
cat "$T/t"
check "grab-yuyv fails somewhere: exit status 1 (got $rc)" [ "$rc" = 1 ]
for p in webcam logitech-c920 elp-4k usb-hdmi-capture; do
	check "$p: YUYV 1280x720, one frame by read()" \
		grep -Eq "^$p +0 +YUYV 1280x720 .* 1 +0 +0 +[0-9]+\$" "$T/t"
done
check "vga: S_FMT gives 640x480, which the program takes" grep -Eq '^vga +0 +YUYV 640x480' "$T/t"
check "stepwise has no YUYV: the program fails" \
	junit "$T/r.xml" "'no YUYV, got YU12' in fail('stepwise').get('message')"
check "mjpg-720p60 has no YUYV: the program fails" \
	junit "$T/r.xml" "'no YUYV, got MJPG' in fail('mjpg-720p60').get('message')"
check "tv-tuner refuses S_FMT of YUYV with EINVAL (legacy-einval)" \
	junit "$T/r.xml" "'Invalid argument' in fail('tv-tuner').get('message')"
check "tv-tuner: the EINVAL is counted" [ "$(col "$T/t" tv-tuner EINVAL)" = 1 ]
check "the XML counts 3 failures" junit "$T/r.xml" "suite.get('failures') == '3'"
fi

echo "$NAME: $((checks - fails)) of $checks checks passed"
[ "$fails" = 0 ]
