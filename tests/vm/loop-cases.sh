# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# The loopback acceptance cases of issue 12 that need no negcamsink, written
# over node paths so that one text runs against any loopback: sourced by
# tests/vm/peer-suite.sh (with tests/vm/lib.sh) inside the VM.
#
#   loop_cases LABEL LOAD_FN MODULE
#
# LOAD_FN loads MODULE and sets OUT (the node a producer writes), CAP (the
# node consumers read) and CAP2 (a second capture node for the two-consumer
# case, CAP when there is none); each group of cases gets a fresh load. For
# v4l2loopback OUT = CAP = CAP2 (one node for both directions).
# Every case writes one row "LABEL<TAB>CASE<TAB>MET<TAB>WHAT" to $LOOP_TSV,
# where MET (yes/no) says whether the issue's acceptance is met and WHAT is
# what was measured. A LABEL starting with "negcam" is under test: MET
# becomes PASS/FAIL. Any other label is a peer: its outcome is data, noted,
# never a failure ("v4l2loopback: STREAMON without producer: EIO").
#
#   loop_rmmod_cases LABEL LOAD_FN MODULE
#
# rmmod in each state (a handle open and idle, producer streaming, producer
# and consumer streaming with buffers mmapped, a consumer alone); LOAD_FN (re)loads the
# module and sets OUT, CAP and CAP2. dmesg must stay free of WARNING/BUG/Oops.

LOOP_TSV=${LOOP_TSV:-$LOGDIR/loop-cases.tsv}
LOOP_RED="81 90 81 240"	# YUYV of ffmpeg's color=red (BT.601 limited range)
PROD_PID=
CONS_PID=

loop_strict() { case $1 in negcam*) return 0 ;; esac; return 1; }

# loop_record LABEL CASE MET WHAT [JUDGED]: one row; PASS/FAIL for negcam
# unless JUDGED=1 (the check was already counted, e.g. compliance_check).
loop_record() {
	local label=$1 case=$2 met=$3 what=$4 judged=${5:-0}
	printf '%s\t%s\t%s\t%s\n' "$label" "$case" "$met" "$what" >> "$LOOP_TSV"
	if ! loop_strict "$label"; then
		note "$label: $case: $what (acceptance $([ "$met" = yes ] && echo met || echo 'not met'))"
	elif [ "$judged" = 1 ]; then
		:
	elif [ "$met" = yes ]; then
		pass "$label: $case: $what"
	else
		fail "$label: $case: $what"
	fi
}

# producer_start OUT WxH [COLOR]: ffmpeg writes a solid colour, YUYV, 30 fps,
# into OUT (the issue's producer); returns once it has written 15 frames
# (its -progress file says so; ffmpeg's start under TCG on a loaded host
# takes seconds), 1 if it exits or has not within 30 s.
producer_start() {
	local out=$1 size=$2 color=${3:-red} log i f
	log=$(logname "producer $size")
	rm -f "$log.progress"
	ffmpeg -nostdin -hide_banner -loglevel error -re -f lavfi -i "color=$color:size=$size:rate=30" \
		-pix_fmt yuyv422 -progress "$log.progress" -stats_period 0.2 -f v4l2 "$out" > "$log" 2>&1 &
	PROD_PID=$!
	for i in $(seq 150); do
		kill -0 "$PROD_PID" 2>/dev/null || return 1
		f=$(sed -n 's/^frame=//p' "$log.progress" 2>/dev/null | tail -n1)
		[ "${f:-0}" -ge 15 ] && return 0
		sleep 0.2
	done
	return 1
}

# producer_stop [SIGNAL]: SIGNAL (default TERM), SIGKILL after 3 s.
producer_stop() {
	local i
	[ -n "$PROD_PID" ] || return 0
	kill "${1:--TERM}" "$PROD_PID" 2>/dev/null
	for i in $(seq 30); do
		kill -0 "$PROD_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$PROD_PID" 2>/dev/null
	wait "$PROD_PID" 2>/dev/null
	PROD_PID=
}

# The first error v4l2-ctl, ffmpeg or gst-launch printed, shortened (for the
# WHAT column); else, with RC, "exit RC after: LAST LINE".
first_error() {
	local e
	e=$(tr '\r' '\n' < "$1" | grep -m1 -iE 'returned -1|error|invalid|failed|busy|cannot|no such|unable|SIGSEGV' |
		sed -E 's/^[[:space:]]*//; s/^\[[^]]*\] //' | cut -c1-110)
	[ -z "$e" ] && [ -n "${2:-}" ] && e="exit $2 after: $(tr '\r' '\n' < "$1" | grep -v '^\s*$' | tail -n1 | sed 's/^\s*//' | cut -c1-80)"
	echo "$e"
}

# stream_stats LOG SIZEIMAGE: from `v4l2-ctl --verbose --stream-mmap` output,
# "FRAMES BACKWARDS WRONGSIZE": buffers dequeued, timestamps that did not
# increase, and bytesused that differ from SIZEIMAGE.
stream_stats() {
	tr '\r' '\n' < "$1" | awk -v size="$2" '
	/dqbuf:/ { n++; for (i = 1; i <= NF; i++) {
		if ($i == "bytesused:") b = $(i + 1); if ($i == "ts:") t = $(i + 1) + 0 }
		if (n > 1 && t <= last) back++; last = t; if (b != size) wrong++ }
	END { printf "%d %d %d\n", n, back, wrong }'
}

# The last system call that failed in an strace log ("VIDIOC_STREAMON: EIO"),
# ENOTTY (an optional ioctl probed) aside: the one the program gave up on.
last_failed_call() {
	local l
	l=$(grep -E '= -1 E[A-Z]+' "$1" 2>/dev/null | grep -v ENOTTY | tail -n1)
	[ -n "$l" ] || return 1
	echo "$(echo "$l" | sed -E 's/^[0-9]+ +//; s/^(ioctl\([0-9]+, )?([A-Za-z_0-9]+).*/\2/'): $(echo "$l" | grep -oE 'E[A-Z]+ \([^)]*\)' | head -n1)"
}

# Lines dmesg gained since COUNT ("segfault at ... in LIB" of a crash).
dmesg_since() { dmesg | tail -n +"$(($1 + 1))"; }

sizeimage_of() { v4l2-ctl -d "$1" --get-fmt-video 2>/dev/null | sed -n 's/.*Size Image *: //p'; }

# consume_bg CAP LOG [COUNT]: a v4l2-ctl MMAP consumer in the background
# with line-buffered output (so LOG grows as frames arrive), under strace,
# in a process group of its own; sets CONS_PID. consume_kill ends it:
# SIGKILL to the group, since a consumer blocked in DQBUF keeps strace from
# detaching on SIGTERM, and a killed strace leaves v4l2-ctl running.
consume_bg() {
	setsid stdbuf -oL -eL strace -f -qq -e trace=ioctl,mmap -o "$2.strace" \
		v4l2-ctl -d "$1" --verbose --stream-mmap --stream-count="${3:-100000}" > "$2" 2>&1 &
	CONS_PID=$!
}
consume_kill() {
	local pid=${1:-$CONS_PID}
	[ -n "$pid" ] || return 0
	kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}
# Why a consumer got no frame: the call it gave up on, or its last words.
no_frames_why() { last_failed_call "$1.strace" || first_error "$1" "?"; }
frames_in() { tr '\r' '\n' < "$1" | grep -c 'dqbuf:'; }
# wait_frames LOG N SECONDS: until LOG shows N frames (a consumer under
# strace on a loaded TCG host takes seconds to start); 1 on time-out.
wait_frames() {
	local i
	for i in $(seq $(($3 * 5))); do
		[ "$(frames_in "$1")" -ge "$2" ] && return 0
		sleep 0.2
	done
	return 1
}

# ---------------------------------------------------------------- cases --
case_compliance() {	# LABEL NODE CASE: v4l2-compliance -s
	local label=$1 node=$2 case=$3 log total met=no
	log=$(logname "$label $case")
	timeout -k 5 600 v4l2-compliance -d "$node" -s > "$log" 2>&1
	total=$(tr '\r' '\n' < "$log" | grep -E '^Total for .* device' | tail -n1 | sed 's/^Total for .* device [^:]*: //')
	[ -n "$total" ] || total="no Total line: $(first_error "$log")"
	if loop_strict "$label"; then
		compliance_check "$label $case" "$log" 0 && met=yes
		loop_record "$label" "$case" $met "$total" 1
	else
		case $total in *"Failed: 0, Warnings: 0") met=yes ;; esac
		loop_record "$label" "$case" $met "$total"
	fi
}

case_caps() {	# LABEL CAP SUFFIX: device caps name capture only; sizes discrete
	local label=$1 cap=$2 sfx=$3 caps sizes disc
	caps=$(v4l2-ctl -d "$cap" -D 2>&1 | sed -n '/Device Caps/,$p' | grep -E '^\s+Video (Capture|Output)' | sed 's/^\s*//' | paste -sd+)
	[ "$caps" = "Video Capture" ] && met=yes || met=no
	loop_record "$label" "device caps$sfx" $met "${caps:-none}"
	v4l2-ctl -d "$cap" --list-formats-ext > /tmp/loop-list 2>&1
	sizes=$(grep -c 'Size:' /tmp/loop-list)
	disc=$(grep -c 'Size: Discrete' /tmp/loop-list)
	[ "$sizes" -gt 0 ] && [ "$sizes" = "$disc" ] && met=yes || met=no
	loop_record "$label" "discrete sizes$sfx" $met \
		"$disc of $sizes sizes discrete, $(grep -c "^\s*\[[0-9]*\]: '" /tmp/loop-list) capture formats: $(grep -m3 -oE "'[A-Z0-9 ]{4}'|Discrete [0-9]+x[0-9]+" /tmp/loop-list | paste -sd' ')"
}

case_placeholder() {	# LABEL CAP: consumers with no producer
	local label=$1 cap=$2 log n back wrong pts met rc
	log=$(logname "$label placeholder v4l2-ctl")
	timeout -k 5 60 strace -f -qq -e trace=ioctl,mmap -o "$log.strace" \
		v4l2-ctl -d "$cap" --verbose --stream-mmap --stream-count=30 > "$log" 2>&1
	rc=$?
	read -r n back wrong < <(stream_stats "$log" "$(sizeimage_of "$cap")")
	[ "$n" = 30 ] && [ "$back" = 0 ] && [ "$wrong" = 0 ] && met=yes || met=no
	if [ "$n" = 0 ]; then
		loop_record "$label" "no producer: v4l2-ctl --stream-mmap --stream-count=30" no "0 frames: $(last_failed_call "$log.strace" || first_error "$log" $rc)"
	else
		loop_record "$label" "no producer: v4l2-ctl --stream-mmap --stream-count=30" $met \
			"$n frames, $back non-increasing timestamps, $wrong wrong-sized"
	fi
	log=$(logname "$label placeholder ffmpeg")
	timeout -k 5 90 ffmpeg -nostdin -hide_banner -f v4l2 -i "$cap" -frames:v 30 -fps_mode passthrough \
		-f framecrc -y /tmp/loop.crc > "$log" 2>&1
	n=$(grep -c '^0,' /tmp/loop.crc 2>/dev/null)
	back=$(awk -F', *' '/^0,/ { if (seen && $2 + 0 <= last) b++; last = $2 + 0; seen = 1 } END { print b + 0 }' /tmp/loop.crc 2>/dev/null)
	[ "${n:-0}" = 30 ] && [ "$back" = 0 ] && met=yes || met=no
	if [ "${n:-0}" = 0 ]; then
		pts="0 frames: $(first_error "$log")"
	else
		pts="$n frames, $back non-increasing pts"
	fi
	loop_record "$label" "no producer: ffmpeg -f v4l2 -frames 30" $met "$pts"
	rm -f /tmp/loop.crc
}

# The mean of the YUYV quadruple in the middle of the last frame of FILE.
middle_pixel() {	# FILE W H
	local fs=$(($2 * $3 * 2)) size off
	size=$(stat -c %s "$1" 2>/dev/null) || return 1
	[ "$size" -ge "$fs" ] || return 1
	off=$(( (size / fs - 1) * fs + ($3 / 2 * $2 + $2 / 2) * 2 ))
	od -A n -t u1 -j "$off" -N 4 "$1" | xargs
}
is_red() {	# "Y U Y V" within 8 of LOOP_RED
	local a b i d
	read -ra a <<< "$1"
	read -ra b <<< "$LOOP_RED"
	[ ${#a[@]} = 4 ] || return 1
	for i in 0 1 2 3; do
		d=$((a[i] - b[i])); [ ${d#-} -le 8 ] || return 1
	done
}

case_follow() {	# LABEL OUT CAP: producer first, consumers with no format
	local label=$1 out=$2 cap=$3 log stream px met caps
	if ! producer_start "$out" 640x480; then
		loop_record "$label" "ffmpeg producer 640x480 YUYV" no "producer exits: $(first_error "$(logname "producer 640x480")")"
		producer_stop; return
	fi
	log=$(logname "$label ffmpeg consumer")
	timeout -k 5 90 ffmpeg -nostdin -hide_banner -f v4l2 -i "$cap" -frames:v 10 -f rawvideo -y /tmp/loop.yuv > "$log" 2>&1
	stream=$(tr '\r' '\n' < "$log" | grep -m1 'Stream #0:0: Video:' | sed -E 's/.*Video: //; s/, [0-9.]+ fps.*//; s/ \([^)]*\)//g')
	px=$(middle_pixel /tmp/loop.yuv 640 480)
	case $stream in *yuyv422*640x480*) is_red "$px" && met=yes || met=no ;; *) met=no ;; esac
	loop_record "$label" "ffmpeg producer, ffmpeg consumer (no format)" $met \
		"${stream:-no stream: $(first_error "$log")}; middle pixel YUYV ${px:-none} (red: $LOOP_RED)"
	log=$(logname "$label v4l2src consumer")
	timeout -k 5 90 gst-launch-1.0 --no-fault -v v4l2src device="$cap" num-buffers=10 ! filesink location=/tmp/loop.yuv > "$log" 2>&1
	caps=$(grep -m1 -o 'v4l2src0.GstPad:src: caps = .*' "$log" | sed 's/.*caps = //; s/(string)//g; s/(int)//g; s/(fraction)//g')
	px=$(middle_pixel /tmp/loop.yuv 640 480)
	case $caps in *format=YUY2*width=640*height=480*) is_red "$px" && met=yes || met=no ;; *) met=no ;; esac
	loop_record "$label" "ffmpeg producer, v4l2src consumer (no caps)" $met \
		"$(echo "${caps:-no caps: $(grep -m1 -E 'ERROR|WARNING' "$log" | cut -c1-100)}" | cut -d, -f1-4); middle pixel YUYV ${px:-none}"
	producer_stop
	rm -f /tmp/loop.yuv
}

case_v4l2sink() {	# LABEL OUT CAP: v4l2sink with no tee/identity while a consumer reads
	local label=$1 out=$2 cap=$3 plog clog n alive=no met rc prod d0 crash
	d0=$(dmesg | wc -l)
	plog=$(logname "$label v4l2sink producer")
	clog=$(logname "$label v4l2sink consumer")
	# --no-fault: on a crash gst-launch would otherwise wait for a debugger
	gst-launch-1.0 --no-fault videotestsrc is-live=true ! \
		video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 ! v4l2sink device="$out" > "$plog" 2>&1 &
	PROD_PID=$!
	sleep 4
	timeout -k 5 30 strace -f -qq -e trace=ioctl,mmap -o "$clog.strace" \
		v4l2-ctl -d "$cap" --verbose --stream-mmap --stream-count=30 > "$clog" 2>&1
	rc=$?
	n=$(frames_in "$clog")
	if kill -0 "$PROD_PID" 2>/dev/null; then
		alive=yes prod=running
		producer_stop -INT
	else
		wait "$PROD_PID"
		prod="exited with status $?"
		PROD_PID=
		crash=$(dmesg_since "$d0" | grep -m1 -oE 'segfault at .* in [^[ ]+')
		[ -n "$crash" ] && prod="$prod, ${crash%% at *} in ${crash##* in }" ||
			prod="$prod: $(first_error "$plog")"
	fi
	[ "$n" = 30 ] && [ $alive = yes ] && met=yes || met=no
	loop_record "$label" "v4l2sink producer (no tee/identity), consumer reads 30" $met \
		"consumer $n frames$([ "$n" != 30 ] && echo " ($(last_failed_call "$clog.strace" || first_error "$clog" $rc))"); producer $prod"
}

# Producer restarts at another size while consumers stream (what a user does
# when OBS's canvas or ffmpeg's -video_size changes).
case_size_change() {	# LABEL OUT CAP
	local label=$1 out=$2 cap=$3 clog flog size n back wrong p2 msg met
	producer_start "$out" 640x480 || { loop_record "$label" "producer size change" no "producer does not start"; producer_stop; return; }
	size=$(sizeimage_of "$cap")
	clog=$(logname "$label size change v4l2-ctl")
	flog=$(logname "$label size change ffmpeg")
	consume_bg "$cap" "$clog" 150
	local c1=$CONS_PID
	wait_frames "$clog" 10 20
	timeout -k 5 60 ffmpeg -nostdin -hide_banner -f v4l2 -i "$cap" -frames:v 150 -f null - > "$flog" 2>&1 &
	local f1=$!
	sleep 2
	producer_stop
	producer_start "$out" 320x240 && p2="restarted at 320x240" || p2="restart at 320x240 refused: $(first_error "$(logname "producer 320x240")")"
	sleep 3
	producer_stop
	consume_kill "$c1"
	kill "$f1" 2>/dev/null; wait "$f1" 2>/dev/null
	read -r n back wrong < <(stream_stats "$clog" "$size")
	msg=$(tr '\r' '\n' < "$flog" | grep -m1 -E 'Dequeued v4l2 buffer contains|error|Error' | sed -E 's/^\[[^]]*\] //' | cut -c1-100)
	case $msg in *"Dequeued v4l2 buffer contains"*) met=no ;; *) [ "$n" -gt 0 ] && [ "$wrong" = 0 ] && met=yes || met=no ;; esac
	loop_record "$label" "producer size change 640x480 -> 320x240 mid-stream" $met \
		"$p2; v4l2-ctl consumer: $n frames$([ "$n" = 0 ] && echo " ($(no_frames_why "$clog"))"), $wrong wrong-sized (bytesused != ${size:-?}); ffmpeg reader: ${msg:-no error}"
}

case_kill_producer() {	# LABEL OUT CAP
	local label=$1 out=$2 cap=$3 clog a b c d back met
	producer_start "$out" 640x480 || { loop_record "$label" "kill producer mid-stream" no "producer does not start"; producer_stop; return; }
	clog=$(logname "$label kill producer")
	consume_bg "$cap" "$clog"
	wait_frames "$clog" 10 20; a=$(frames_in "$clog")
	producer_stop -KILL
	sleep 3; b=$(frames_in "$clog")
	producer_start "$out" 640x480 green
	sleep 1; c=$(frames_in "$clog"); sleep 2; d=$(frames_in "$clog")
	producer_stop
	consume_kill
	read -r _ back _ < <(stream_stats "$clog" 0)
	[ $((b - a)) -gt 30 ] && [ $((d - c)) -gt 30 ] && [ "$back" = 0 ] && met=yes || met=no
	loop_record "$label" "kill -9 producer mid-stream, restart it" $met \
		"$a frames before; $((b - a)) in 3 s without producer; $((d - c)) in 2 s after the restart; $back repeated or earlier timestamps$([ "$a" = 0 ] && echo " ($(no_frames_why "$clog"))")"
}

case_two_consumers() {	# LABEL OUT CAP CAP2
	local label=$1 out=$2 cap=$3 cap2=$4 l1 l2 p1 a b c met
	producer_start "$out" 640x480 || { loop_record "$label" "two consumers, kill one" no "producer does not start"; producer_stop; return; }
	l1=$(logname "$label consumer 1")
	l2=$(logname "$label consumer 2")
	consume_bg "$cap" "$l1"; p1=$CONS_PID
	wait_frames "$l1" 10 20
	consume_bg "$cap2" "$l2"
	wait_frames "$l2" 10 20
	a=$(frames_in "$l1")
	b=$(frames_in "$l2")
	consume_kill "$p1"
	sleep 3
	c=$(frames_in "$l2")
	consume_kill
	producer_stop
	[ "$a" -gt 0 ] && [ "$b" -gt 0 ] && [ $((c - b)) -gt 30 ] && met=yes || met=no
	loop_record "$label" "two consumers stream, kill -9 one" $met \
		"consumer 1: $a frames$([ "$a" = 0 ] && echo " ($(no_frames_why "$l1"))"), consumer 2: $b frames$([ "$b" = 0 ] && echo " ($(no_frames_why "$l2"))"); after the kill consumer 2 got $((c - b)) in 3 s"
}

# A browser (tests/vm/browser.sh: getUserMedia, as a video-call page) on
# CAP, found by its card name: with no producer, then while the issue's
# ffmpeg producer writes red 640x480. Two rows: is the camera listed and
# does the page show frames; are they the producer's. case_browser is
# Chromium, case_firefox Firefox, each on a freshly loaded module.
case_browser() { browser_cases "$1" "$2" "$3" chromium; }	# LABEL OUT CAP
case_firefox() { browser_cases "$1" "$2" "$3" firefox; }	# LABEL OUT CAP

browser_cases() {	# LABEL OUT CAP BROWSER
	local label=$1 out=$2 cap=$3 name=Chromium bin=chromium card log
	[ "$4" = firefox ] && name=Firefox bin=firefox-esr
	if ! command -v $bin > /dev/null; then
		loop_record "$label" "$name, no producer: camera listed, frames shown" no "$bin not installed (make deps)"
		return
	fi
	card=$(v4l2-ctl -d "$cap" -D 2>/dev/null | sed -n 's/.*Card type *: //p')
	log=$(logname "$label $4 no producer")
	NEGCAM_BROWSER=$4 "$NEGCAM_TREE/tests/vm/browser.sh" "$card" > "$log" 2>&1
	browser_row "$label" "$name, no producer: camera listed, frames shown" "$log" "$card" ""
	if ! producer_start "$out" 640x480; then
		loop_record "$label" "$name, ffmpeg producer 640x480: its red frames shown" no "producer does not start"
		producer_stop; return
	fi
	log=$(logname "$label $4 producer")
	NEGCAM_BROWSER=$4 "$NEGCAM_TREE/tests/vm/browser.sh" "$card" "" 150 red > "$log" 2>&1
	producer_stop
	browser_row "$label" "$name, ffmpeg producer 640x480: its red frames shown" "$log" "$card" red
}

# OBS Studio's Virtual Camera as the producer (tests/vm/obs.sh): it needs
# a module named v4l2loopback (obs.sh loads Debian's with devices=0 when
# the peer is another) and writes into the first node that outputs, which
# must be OUT. Met when OBS started there and ffmpeg with no format reads
# at least 10 of 60 frames of OBS's red 640x480.
case_obs() {	# LABEL OUT CAP
	local label=$1 out=$2 cap=$3 log l red met=no
	if ! command -v obs > /dev/null; then
		loop_record "$label" "OBS Studio's Virtual Camera as producer" no "obs-studio not installed (make deps)"
		return
	fi
	log=$(logname "$label obs")
	"$NEGCAM_TREE/tests/vm/obs.sh" "$cap" 640x480 30 60 > "$log" 2>&1
	l=$(grep -m1 '^started ' "$log")
	red=$(awk '/^frames / { print $4 }' "$log")
	case $l in "started $out "*) grep -q '^stream yuyv422 640x480$' "$log" && [ "${red:-0}" -ge 10 ] && met=yes ;; esac
	loop_record "$label" "OBS Studio's Virtual Camera as producer, ffmpeg consumer (no format)" $met \
		"${l:-not started: $(grep -E '^(failed|result)' "$log" | tr '\n' ' ')}; $(grep -m1 '^stream' "$log"); $(grep -m1 '^frames' "$log" | cut -d' ' -f1-4)"
}

# browser_row LABEL CASE LOG CARD [red]: one row from a browser.sh LOG.
browser_row() {
	local label=$1 case=$2 log=$3 card=$4 l res met=no what
	res=$(sed -n 's/^result //p' "$log" | tail -n1)
	l=$(sed -n 's/^step default //p' "$log" | tail -n1)
	if ! grep -q "^cameras .*\"$card\"" "$log"; then
		l=$(sed -n 's/^cameras //p' "$log")
		what="not listed (the browser's cameras: ${l:-none}); ${res:-no result}"
	elif [ -z "$l" ]; then
		what="listed; ${res:-no result}$(sed -n 's/^first open / (first open: /p' "$log" | sed 's/$/)/')"
	else
		what="listed; ${l#settings }"
		case $5 in
		red) echo "$l" | grep -qE 'shown 640x480 ' && browser_red "${l#* rgb }" && met=yes ;;
		*) echo "$l" | grep -qE 'settings ([0-9]+x[0-9]+)@.* shown \1 frames 10 ' && met=yes ;;
		esac
	fi
	loop_record "$label" "$case" $met "$what"
}

# loop_fresh LOAD_FN MODULE: unload and load again (sets OUT, CAP, CAP2).
loop_fresh() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -d "/sys/module/$2" ] || break
		rmmod "$2" 2>/dev/null || sleep 0.3
	done
	"$1"
}

# N times (LOOP_STRESS_N, default 100) on each side at once: open, S_FMT,
# REQBUFS, STREAMON, a few buffers, close (v4l2-ctl, 2 s per run at most).
# Judged on the kernel log; the runs that streamed are counted. Run on
# negcam labels only: on v4l2loopback it corrupted the kernel heap within
# 11 s (docs/loopback-peers.md), which ends the VM and every later case.
case_stress() {	# LABEL OUT CAP
	local label=$1 out=$2 cap=$3 n=${LOOP_STRESS_N:-100} d0 pp cp po co bad met
	loop_strict "$label" || return 0
	d0=$(dmesg | wc -l)
	# shellcheck disable=SC2016
	bash -c 'for i in $(seq "$2"); do timeout -k 1 2 v4l2-ctl -d "$1" \
		--set-fmt-video-out=width=640,height=480,pixelformat=YUYV --stream-out-mmap=2 --stream-count=3 \
		> /dev/null 2>&1 && echo ok; done' stress "$out" "$n" > /tmp/loop-stress-out 2>&1 &
	pp=$!
	# shellcheck disable=SC2016
	bash -c 'for i in $(seq "$2"); do timeout -k 1 2 v4l2-ctl -d "$1" \
		--set-fmt-video=width=640,height=480,pixelformat=YUYV --stream-mmap=2 --stream-count=3 \
		> /dev/null 2>&1 && echo ok; done' stress "$cap" "$n" > /tmp/loop-stress-cap 2>&1 &
	cp=$!
	wait "$pp" "$cp"
	po=$(grep -c '^ok' /tmp/loop-stress-out)
	co=$(grep -c '^ok' /tmp/loop-stress-cap)
	bad=$(dmesg_since "$d0" | grep -m1 -E 'WARNING:|BUG:|Oops|general protection' | cut -c1-80)
	[ -z "$bad" ] && met=yes || met=no
	loop_record "$label" "$n x open/S_FMT/REQBUFS/STREAMON/close, both sides at once" $met \
		"output side streamed $po of $n, capture side $co of $n; dmesg ${bad:-clean}"
}

# Each group of cases starts from a fresh load, so that one case's leftovers
# (v4l2loopback: buffers of length 0 after a consumer without producer, a
# node unusable after v4l2sink crashed) do not decide the next one.
loop_cases() {
	local label=$1 load=$2 mod=$3 c d0
	d0=$(dmesg | wc -l)
	loop_fresh "$load" "$mod" || { loop_record "$label" "load" no "$load failed"; return; }
	note "$label: output $OUT, capture $CAP, second capture $CAP2"
	case_caps "$label" "$CAP" " (no producer)"
	case_compliance "$label" "$CAP" "v4l2-compliance -s on capture, no producer"
	case_placeholder "$label" "$CAP"
	# On the output node v4l2-compliance is the producer: while another
	# process owns the node's queue, every streaming test gets EBUSY, by
	# the V4L2 rule of one queue owner, on any driver.
	loop_fresh "$load" "$mod"
	case_compliance "$label" "$OUT" "v4l2-compliance -s on output (it is the producer)"
	loop_fresh "$load" "$mod"
	if producer_start "$OUT" 640x480; then
		case_compliance "$label" "$CAP" "v4l2-compliance -s on capture, producer running"
		case_caps "$label" "$CAP" " (producer running)"
	else
		loop_record "$label" "v4l2-compliance -s with a producer" no "producer does not start: $(first_error "$(logname "producer 640x480")")"
	fi
	producer_stop
	for c in case_follow case_size_change case_kill_producer case_two_consumers case_v4l2sink case_browser \
		case_firefox case_obs case_stress; do
		loop_fresh "$load" "$mod" || { loop_record "$label" "load" no "$load failed"; return; }
		"$c" "$label" "$OUT" "$CAP" "$CAP2"
	done
	loop_dmesg "$label" "$d0"
}

# loop_dmesg LABEL D0: the kernel log after the cases: PASS/FAIL for
# negcam; for a peer, its lines since line D0 as a row (a peer's WARNING or
# Oops is a finding, not a failure of the suite).
loop_dmesg() {
	local bad
	if loop_strict "$1"; then
		dmesg_clean "$1 cases"
		return
	fi
	bad=$(dmesg_since "$2" | klog_check) && bad=
	loop_record "$1" "kernel log after the cases" "$([ -z "$bad" ] && echo yes || echo no)" \
		"$([ -z "$bad" ] && echo "no WARNING/BUG/Oops" || printf '%s\n' "$bad" | grep -m1 -vE '^\s*$' | cut -c1-100)"
}

# ---------------------------------------------------------------- rmmod --
# rmmod_try LABEL MODULE STATE: rmmod while STATE holds the nodes, then
# release them and unload; records what rmmod said.
rmmod_try() {	# LABEL MODULE STATE
	local label=$1 mod=$2 state=$3 msg gone=no i met
	msg=$(rmmod "$mod" 2>&1) && msg="removed"
	[ -d "/sys/module/$mod" ] || gone=yes
	producer_stop -KILL
	consume_kill; CONS_PID=
	exec 8>&- 2>/dev/null
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -d "/sys/module/$mod" ] || break
		rmmod "$mod" 2>/dev/null || sleep 0.5
	done
	[ ! -d "/sys/module/$mod" ] && ! dmesg | grep -qE 'WARNING:|BUG:|Oops|general protection' && met=yes || met=no
	loop_record "$label" "rmmod while $state" $met \
		"$(echo "$msg" | sed 's/^rmmod: ERROR: //' | head -n1)$([ $gone = no ] && echo ", unloaded once released")$([ "$met" = no ] && echo "; dmesg: $(dmesg | grep -m1 -E 'WARNING:|BUG:|Oops|general protection|Module .* is in use' | cut -c1-80)")"
}

loop_rmmod_cases() {
	local label=$1 load=$2 mod=$3 state
	for state in "a handle is open (idle)" "the producer streams" "producer and consumer stream" \
		     "a consumer streams, no producer"; do
		"$load" || { loop_record "$label" "rmmod while $state" no "module does not load"; return; }
		case $state in
		"a handle is open (idle)") exec 8<> "$CAP" ;;
		"the producer streams") producer_start "$OUT" 640x480 ;;
		"producer and consumer stream")
			producer_start "$OUT" 640x480; consume_bg "$CAP" "$(logname "$label rmmod consumer")"; sleep 2 ;;
		"a consumer streams, no producer")
			consume_bg "$CAP" "$(logname "$label rmmod consumer np")"; sleep 2 ;;
		esac
		rmmod_try "$label" "$mod" "$state"
	done
}
