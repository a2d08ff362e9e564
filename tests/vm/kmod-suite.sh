#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# negcam.ko checks beyond the acceptance suite (tests/vm/negcam-suite.sh):
# the configfs files, sysfs counters, frame pacing against absolute
# deadlines, drop counting, V4L2_FIELD_ALTERNATE and the test pattern.
# Runs inside the test VM:   tests/vm/run.sh tests/vm/kmod-suite.sh
# Each feature's checks are one test_* function, called in order at the
# end. Prints PASS/FAIL lines and "kmod: N passed, N failed"; exit status 1
# on any failure.

set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "run it in the VM: tests/vm/run.sh tests/vm/kmod-suite.sh" >&2; exit 2; }
cd "$NEGCAM_TREE" || exit 2
CFS=/sys/kernel/config/negcam/negcam-0
SYS=/sys/devices/platform/negcam.0
# pass, fail, expect, negcam_load, negcam_unload: the one VM shell library
# shellcheck source=tests/vm/lib.sh
. "$NEGCAM_TREE/tests/vm/lib.sh"
# test_kfaults_*: faults switched, source change, backward stamps, a loop's unplug
# shellcheck source=tests/vm/kmod-faults.sh
. "$NEGCAM_TREE/tests/vm/kmod-faults.sh"
suite_begin kmod
load() { negcam_load "$@"; }
unload() { negcam_unload; }

# Timestamps (µs) and sequence numbers of N buffers streamed with v4l2-ctl.
stream() { # stream DEV COUNT [extra v4l2-ctl args]
	local dev=$1 n=$2
	shift 2
	v4l2-ctl -d "$dev" --stream-mmap=4 --stream-count="$n" --verbose "$@" 2>&1 |
		awk '/cap dqbuf:/ { for (i = 1; i <= NF; i++) { if ($i == "seq:") s = $(i + 1); if ($i == "ts:") t = $(i + 1) }
			split(t, a, "."); print s, a[1] * 1000000 + a[2] }'
}

load profile=vga || { echo "cannot load $KO"; exit 1; }
DEV=/dev/$(cat $SYS/video_node)

# --- sysfs -----------------------------------------------------------------
test_sysfs() {
	expect "sysfs profile" "$(cat $SYS/profile)" vga
	expect "sysfs counters at load (frames dropped skipped)" \
		"$(cat $SYS/frames) $(cat $SYS/dropped_frames) $(cat $SYS/skipped_slots)" "0 0 0"
	expect "configfs video_node = sysfs video_node" "$(cat $CFS/video_node)" "$(cat $SYS/video_node)"
}

# --- configfs: builtin, status, profile, profile_large ---------------------
test_configfs_builtin() {
	expect "configfs builtin shows the profile in force" "$(cat $CFS/builtin)" vga
	if echo webcam > $CFS/builtin; then pass "builtin: write 'webcam' accepted"; else fail "builtin: write 'webcam' refused"; fi
	expect "builtin after the write" "$(cat $CFS/builtin)" webcam
	expect "status after it" "$(cat $CFS/status)" "ok: profile webcam"
	expect "card name follows the profile" "$(v4l2-ctl -d $DEV -D | sed -n 's/.*Card type *: //p')" "Negcam Webcam"
	if echo no-such-profile > $CFS/builtin 2>/dev/null; then
		fail "builtin: unknown name accepted"
	else
		pass "builtin: unknown name refused"
	fi
	expect "webcam still in force after the refusal" "$(cat $CFS/builtin)" webcam
}

# The text read back is the text in force.
test_profile_readback() {
	negcam_text=$(cat $CFS/profile)
	case "$negcam_text" in *"name webcam"*) pass "profile reads back the webcam text";; *) fail "profile read-back: $negcam_text";; esac
}

# A long text (> 4 KiB: comments) through profile_large; profile refuses it whole.
test_profile_large() {
	{
		for i in $(seq 150); do echo "# padding line $i of a long profile text ........................"; done
		printf 'name longone\ncard "Long One"\nformat YUYV\n  size 320x240 fps 15\n'
	} > /tmp/long.profile
	if cat /tmp/long.profile > $CFS/profile 2>/tmp/err; then
		fail "profile: a $(stat -c %s /tmp/long.profile)-byte text accepted by the one-write file"
	else
		pass "profile: a $(stat -c %s /tmp/long.profile)-byte text refused: $(cat /tmp/err)"
	fi
	expect "profile unchanged by the refused long text" "$(cat $CFS/builtin)" webcam
	cat /tmp/long.profile > $CFS/profile_large
	expect "profile_large: status" "$(cat $CFS/status)" "ok: profile longone"
	# (through a pipe: cmp -s trusts st_size, which configfs leaves at 0)
	if cat $CFS/profile_large | cmp -s - /tmp/long.profile; then
		pass "profile_large reads back the whole text"
	else
		fail "profile_large read-back differs: $(cat $CFS/profile_large | cmp - /tmp/long.profile 2>&1)"
	fi
	expect "format after the long profile" "$(v4l2-ctl -d $DEV -V | sed -n 's/.*Width\/Height *: //p')" "320/240"
}

# Malformed through profile_large: status and log name line and column.
test_profile_malformed() {
	printf 'name bad\nformat YUYV\n  size 320x240 fps zero\n' > /tmp/bad.profile
	cat /tmp/bad.profile > $CFS/profile_large
	st=$(cat $CFS/status)
	case "$st" in "error -22: line 3, column "*) pass "profile_large malformed: status: $st";; *) fail "profile_large malformed: status: $st";; esac
	expect "old profile in force after the malformed text" "$(cat $CFS/builtin)" longone
	if dmesg | tail -n 5 | grep -q "profile rejected: line 3, column"; then
		pass "kernel log names line 3 and its column"
	else
		fail "no kernel log line with line 3"
	fi
}

# A profile without capture formats is refused.
test_profile_no_capture() {
	printf 'name outonly\nformat YUYV output\n  size 320x240 fps 15\n' > /tmp/out.profile
	if cat /tmp/out.profile > $CFS/profile 2>/dev/null; then
		[ "$(cat $CFS/builtin)" = outonly ] && fail "a profile without capture formats was accepted" ||
			pass "output-only text did not replace the profile ($(cat $CFS/status))"
	else
		pass "a profile without capture formats refused: $(cat $CFS/status)"
	fi
}

# --- pacing ------------------------------------------------------------------
test_pacing() {
	echo vga > $CFS/builtin
	stream $DEV 40 > /tmp/ts.txt
	n=$(wc -l < /tmp/ts.txt)
	expect "40 buffers streamed" "$n" 40
	# Every timestamp is the end of a slot: start + k * 33333.3 µs, so each
	# difference is a whole number of intervals (within 2 µs of rounding).
	bad=$(awk 'NR > 1 { d = $2 - t; k = int(d / 33333.333 + 0.5); e = d - k * 33333.333; if (k < 1 || e > 2 || e < -2) print NR": delta "d" µs" } { t = $2 }' /tmp/ts.txt | head -n 3)
	if [ -z "$bad" ]; then
		pass "30 fps: every timestamp difference is a whole number of 33.333 ms intervals"
	else
		fail "30 fps: timestamp differences off the slot grid: $bad"
		head -n 4 /tmp/ts.txt | sed 's/^/  seq ts(µs): /'
	fi
	seqs=$(awk 'NR > 1 && $1 != s + 1 { g++ } { s = $1 } END { print g + 0 }' /tmp/ts.txt)
	note_drop=$(cat $SYS/dropped_frames)
	echo "  sequence gaps: $seqs, dropped_frames: $note_drop, skipped_slots: $(cat $SYS/skipped_slots)"
	# Over the stream, the rate is exact: (last - first) / intervals = 33333 µs
	# up to rounding, whatever the lateness of single wake-ups.
	span=$(awk 'NR == 1 { f = $2 } { l = $2 } END { print int((l - f) / 33333.333 + 0.5) }' /tmp/ts.txt)
	if [ "$span" -ge 39 ]; then pass "40 frames span $span intervals"; else fail "40 frames span $span intervals"; fi
}

# S_PARM: 15 fps gives 66.667 ms slots (webcam offers 15 fps at 640x480).
test_s_parm_pacing() {
	echo webcam > $CFS/builtin
	stream $DEV 10 -p 15 > /tmp/ts15.txt
	bad=$(awk 'NR > 1 { d = $2 - t; k = int(d / 66666.667 + 0.5); e = d - k * 66666.667; if (k < 1 || e > 2 || e < -2) print NR": delta "d } { t = $2 }' /tmp/ts15.txt | head -n 3)
	if [ -z "$bad" ] && [ "$(wc -l < /tmp/ts15.txt)" = 10 ]; then
		pass "15 fps after S_PARM: timestamps on the 66.667 ms grid"
	else
		fail "15 fps after S_PARM: $bad"
		head -n 4 /tmp/ts15.txt | sed 's/^/  seq ts(µs): /'
	fi
}

# --- drops: a consumer that stops dequeuing --------------------------------
test_drops() {
	before=$(cat $SYS/dropped_frames)
	stream $DEV 12 --stream-sleep=6 > /tmp/tsdrop.txt
	after=$(cat $SYS/dropped_frames)
	gaps=$(awk 'NR > 1 && $1 > s + 1 { g += $1 - s - 1 } { s = $1 } END { print g + 0 }' /tmp/tsdrop.txt)
	if [ "$gaps" -ge 10 ] && [ $((after - before)) -ge "$gaps" ]; then
		pass "a consumer asleep for 1 s: dropped_frames +$((after - before)), sequence gaps $gaps"
	else
		fail "a consumer asleep for 1 s: dropped_frames +$((after - before)), sequence gaps $gaps (want gaps >= 10, dropped >= gaps)"
	fi
}

# --- faults (docs/faults.md): the engine's decisions in the capture thread ---
# The same seed loses the same frames as through negcam-run (seed 7, drop
# 10%: 4 6 47 58 59, tests/run/test_faults.sh); ERROR buffers; a stall.
# A slow consumer under TCG may lose more (no buffer queued), never fewer.
test_faults() {
	local missing f
	printf 'name faulty\nformat YUYV\n  size 320x240 fps 15\nfault seed 7\nfault drop 10%%\nfault error 10%%\n' > /tmp/faults.profile
	if cat /tmp/faults.profile > $CFS/profile; then
		pass "faults: a profile with fault lines accepted"
	else
		fail "faults: a profile with fault lines refused: $(cat $CFS/status)"; return
	fi
	v4l2-ctl -d $DEV --stream-mmap=4 --stream-count=70 --verbose > /tmp/faults.out 2>&1
	missing=$(grep -o 'seq: *[0-9]*' /tmp/faults.out | awk '{ print $2 }' |
		awk 'NR == 1 { p = $1; next } { for (s = p + 1; s < $1 && s < 60; s++) printf "%s ", s; p = $1 }')
	note "faults: sequence numbers below 60 missing: $missing"
	for f in 4 6 47 58 59; do
		case " $missing" in *" $f "*) ;; *) fail "faults: frame $f (seed 7) was not lost"; return ;; esac
	done
	pass "faults: seed 7 loses frames 4 6 47 58 59, as through negcam-run"
	f=$(grep -c '(error,' /tmp/faults.out)
	if [ "$f" -gt 0 ]; then pass "faults: $f buffers flagged ERROR"; else fail "faults: no ERROR buffer"; fi
	printf 'name faulty\nformat YUYV\n  size 320x240 fps 15\nfault stall 1s every 2s\n' > /tmp/faults.profile
	cat /tmp/faults.profile > $CFS/profile # one write(), as configfs wants
	stream $DEV 40 > /tmp/faults-stall.txt
	f=$(awk 'NR > 1 && $2 - t > 900000 { n++ } { t = $2 } END { print n + 0 }' /tmp/faults-stall.txt)
	if [ "$f" -ge 1 ]; then pass "faults: stall 1s every 2s: $f gaps of more than 0.9 s"; else fail "faults: no stall seen"; fi
	# unplug: the simulated unplug's effects, from the capture thread
	printf 'name faulty\nformat YUYV\n  size 320x240 fps 15\nfault unplug 1s\n' > /tmp/faults.profile
	cat /tmp/faults.profile > $CFS/profile
	v4l2-ctl -d $DEV --stream-mmap=4 --stream-count=100 > /tmp/faults-unplug.out 2>&1
	if grep -qE 'DQBUF: failed: (Input/output error|No such device)' /tmp/faults-unplug.out; then
		pass "faults: unplug 1s: v4l2-ctl's DQBUF fails: $(grep -o 'DQBUF: failed: .*' /tmp/faults-unplug.out)"
	else
		fail "faults: unplug 1s: $(tr -d '<>' < /tmp/faults-unplug.out | tr '\n' ' ' | cut -c1-200)"
	fi
	sleep 1
	if [ -e "$DEV" ] || [ -d "$CFS" ]; then fail "faults: after the unplug the node or configfs remains"; else pass "faults: the node and the configfs directory are gone"; fi
	if unload && load profile=vga; then pass "faults: rmmod and reload after the unplug"; else fail "faults: rmmod or reload after the unplug"; fi
	DEV=/dev/$(cat $SYS/video_node)
}

# --- V4L2_FIELD_ALTERNATE: two fields per frame, same sequence --------------
test_field_alternate() {
	printf 'name alt\nfield alternate\nformat YUYV\n  size 640x480 fps 25\n' > /tmp/alt.profile
	cat /tmp/alt.profile > $CFS/profile
	stream $DEV 8 > /tmp/tsalt.txt
	expect "alternate: sequence numbers of 8 fields" "$(awk '{ printf "%s ", $1 }' /tmp/tsalt.txt)" "0 0 1 1 2 2 3 3 "
	bad=$(awk 'NR > 1 { d = $2 - t; if (d < 19998 || d > 20002) print d } { t = $2 }' /tmp/tsalt.txt | head -n 2)
	if [ -z "$bad" ]; then pass "alternate: fields 20 ms apart at 25 fps"; else fail "alternate: field spacing $bad"; fi
	# height counts one field's lines (V4L2, vivid); sizes stay frames
	fmt=$(v4l2-ctl -d $DEV --get-fmt-video | awk -F: '/Width\/Height/ { gsub(/ /, "", $2); wh = $2 } /Field/ { gsub(/ /, "", $2); f = $2 } /Size Image/ { gsub(/ /, "", $2); s = $2 } END { print wh, f, s }')
	expect "alternate: G_FMT is one field" "$fmt" "640/240 Alternating 307200"
	expect "alternate: ENUM_FRAMESIZES lists the frame" "$(v4l2-ctl -d $DEV --list-framesizes=YUYV | grep -o 'Discrete [0-9x]*')" "Discrete 640x480"
	v4l2-ctl -d $DEV --set-fmt-video=width=640,height=240,field=alternate
	expect "alternate: S_FMT 640x240 keeps the 640x480 frame" "$(v4l2-ctl -d $DEV --get-fmt-video | awk -F: '/Width\/Height/ { gsub(/ /, "", $2); print $2 }')" "640/240"
	v4l2-ctl -d $DEV --stream-mmap=4 --stream-count=4 --stream-to=/tmp/alt.raw
	expect "alternate: 4 buffers of 640x240 YUYV" "$(stat -c %s /tmp/alt.raw)" "$((4 * 640 * 2 * 240))"
	fields=$(tests/vm/out/bin/vm-v4l2 fields $DEV 6 | grep -v "^  ok:" | awk '{ printf "%s/%s/%s ", $1, $2, $3 }')
	expect "alternate: buffers (sequence/field/bytesused)" "$fields" "0/top/307200 0/bottom/307200 1/top/307200 1/bottom/307200 2/top/307200 2/bottom/307200 "
	# v4l2-compliance without -s: its streaming check of ALTERNATE cannot pass
	# on a correctly numbered stream (docs/kmod.md), the format side must.
	timeout -k 5 300 v4l2-compliance -d $DEV > /tmp/alt-compliance.log 2>&1
	total=$(grep -E '^Total for' /tmp/alt-compliance.log | tail -n 1)
	case $total in
	*"Failed: 0, Warnings: 0"*) pass "alternate: v4l2-compliance: $total" ;;
	*) fail "alternate: v4l2-compliance: ${total:-no summary}"
		grep -E '^[[:space:]]*(fail|warn):' /tmp/alt-compliance.log | head -n 5 | sed 's/^/  | /' ;;
	esac
}

# --- a multiplanar profile: a VIDEO_CAPTURE_MPLANE node ---------------------
# The node follows the profile (negcam_vid_follow_profile): caps, queue type,
# and one buffer per plane for the M formats; back to single-planar after.
# ffmpeg's v4l2 input has no multiplanar support: it reads the node through
# libv4l2's mplane plugin (v4l2convert.so), as applications without it do.
# Compliance runs on YM12 and YUYV: v4l-utils 1.22.1 expects NM12's
# description as 'Y/CbCr 4:2:0 (N-C)', Linux 6.1 says 'Y/UV 4:2:0 (N-C)'
# (the NV12 skew of compliance_check, tests/vm/lib.sh), so NM12 joins after.
MP_PROFILE='name mp
multiplanar
default YM12
format YM12
  size 320x240 fps 30
format YUYV
  size 320x240 fps 30'
MP_NM12='format NM12
  size 320x240 fps 30'
V4L2CONVERT=/usr/lib/x86_64-linux-gnu/libv4l/v4l2convert.so
mp_caps() {
	v4l2-ctl -d $DEV -D | sed -n '/Device Caps/,$p' | grep -E 'Video Capture|Read/Write' |
		sed 's/^[[:space:]]*//' | tr '\n' ,
}
test_multiplanar() {
	local log planes
	printf '%s\n' "$MP_PROFILE" > /tmp/mp.profile
	cat /tmp/mp.profile > $CFS/profile # one write(2): configfs applies each
	expect "mplane: status" "$(cat $CFS/status)" "ok: profile mp"
	expect "mplane: device caps" "$(mp_caps)" "Video Capture Multiplanar,"
	log=$(logname mplane-compliance)
	compliance_retry "mplane: v4l2-compliance -s" "$log" 600 -d $DEV -s
	compliance_check "mplane: v4l2-compliance -s (YM12, three planes)" "$log"
	printf '%s\n%s\n' "$MP_PROFILE" "$MP_NM12" > /tmp/mp.profile
	cat /tmp/mp.profile > $CFS/profile
	planes=$(v4l2-ctl -d $DEV --set-fmt-video=pixelformat=NM12 --get-fmt-video |
		awk '/Number of planes/ { n = $NF } /Size Image/ { s = s " " $NF } END { print n s }')
	expect "mplane: NM12 has two planes" "$planes" "2 76800 38400"
	v4l2-ctl -d $DEV --stream-mmap=4 --stream-count=3 --stream-to=/tmp/nm12.raw
	expect "mplane: 3 NM12 frames streamed, both planes" "$(stat -c %s /tmp/nm12.raw 2>/dev/null)" "$((3 * 115200))"
	if gst-launch-1.0 -q v4l2src device=$DEV num-buffers=10 ! video/x-raw,format=I420 ! fakesink; then
		pass "mplane: v4l2src streams YM12 (I420, three planes)"
	else
		fail "mplane: v4l2src YM12"
	fi
	if gst-launch-1.0 -q v4l2src device=$DEV num-buffers=10 ! video/x-raw,format=NV12 ! fakesink; then
		pass "mplane: v4l2src streams NM12 (NV12, two planes)"
	else
		fail "mplane: v4l2src NM12"
	fi
	# the plugin opens the node only when its current format has one plane
	v4l2-ctl -d $DEV --set-fmt-video=pixelformat=YUYV
	if LD_PRELOAD=$V4L2CONVERT ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 \
		-input_format yuyv422 -video_size 320x240 -i $DEV -frames 10 -f rawvideo -y /tmp/mp.yuv &&
	   [ "$(stat -c %s /tmp/mp.yuv)" = $((10 * 320 * 240 * 2)) ]; then
		pass "mplane: ffmpeg (through libv4l2) streams 10 frames"
	else
		fail "mplane: ffmpeg through libv4l2"
	fi
	echo vga > $CFS/builtin
	expect "mplane: single-planar again with a single-planar profile" "$(mp_caps)" "Video Capture,Read/Write,"
}

# --- test pattern ---------------------------------------------------------------
test_pattern_control() {
	echo vga > $CFS/builtin
	v4l2-ctl -d $DEV -c test_pattern=0
	v4l2-ctl -d $DEV --stream-mmap --stream-count=1 --stream-to=/tmp/p0.raw
	v4l2-ctl -d $DEV -c test_pattern=2
	v4l2-ctl -d $DEV --stream-mmap --stream-count=1 --stream-to=/tmp/p2.raw
	if [ -s /tmp/p0.raw ] && ! cmp -s /tmp/p0.raw /tmp/p2.raw; then
		pass "test_pattern changes the pixels"
	else
		fail "test_pattern 0 and 2 give the same frame"
	fi
}

# --- unplug while idle, with the configfs directory gone too ---------------
test_unplug_idle() {
	exec 3< "$DEV"
	echo 1 > $SYS/unplug
	if [ -e "$DEV" ] || [ -d "$CFS" ]; then
		fail "after the unplug: node $( [ -e "$DEV" ] && echo present || echo gone ), configfs $( [ -d "$CFS" ] && echo present || echo gone )"
	else
		pass "after the unplug the node and the configfs directory are gone"
	fi
	if v4l2-ctl -d /proc/self/fd/3 -D > /dev/null 2>&1; then
		fail "QUERYCAP on a handle opened before the unplug still works"
	else
		pass "a handle opened before the unplug fails"
	fi
	if rmmod negcam 2>/dev/null; then fail "rmmod while a handle is open succeeded"; else pass "rmmod while a handle is open: in use"; fi
	exec 3<&-
	if unload; then pass "rmmod once the handle is closed"; else fail "rmmod once the handle is closed"; fi
}

# The suite, feature by feature (each test_* above says what it checks);
# with arguments only those (tests/vm/run.sh tests/vm/kmod-suite.sh test_faults).
if [ $# -gt 0 ]; then
	for t in "$@"; do "$t"; done
	suite_end
	[ "$S_FAIL" = 0 ]
	exit
fi
test_sysfs
test_configfs_builtin
test_profile_readback
test_profile_large
test_profile_malformed
test_profile_no_capture
test_pacing
test_s_parm_pacing
test_drops
test_field_alternate
test_multiplanar
test_pattern_control
test_faults
test_kfaults_source_change
test_kfaults_ts_back
test_kfaults_switch
test_kfaults_loop_unplug
test_unplug_idle
suite_end
[ "$S_FAIL" = 0 ]
