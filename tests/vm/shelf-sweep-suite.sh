# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# The shelf sweep on negcam.ko (issue 40; sourced by suites.sh after
# shelf-suite.sh, whose shelf_cameras and shelf_load it uses; runs in the
# VM; `tests/vm/run.sh shelf-sweep` alone, and in `make test-shelf` after
# the compliance runs). Every camera of the shelf, the built-ins that cite
# a source and every data/cameras file, so a new camera is covered without
# editing this file, is loaded into a negcam.ko device through configfs;
# then every format the node lists (VIDIOC_ENUM_FMT, so every format of
# the camera) streams through v4l2-ctl at one size (640x480 asked, the
# driver's answer taken) and the fastest rate: 4 buffers, each with
# bytesused > 0 and no ERROR flag, whose frame-number stamps read back
# strictly increasing (tests/run/sweep-stamp, the reader negcam-run's
# sweep uses; MJPG, JPEG and H264 decoded to grey by ffmpeg first).
# Two devices (devices=2) take every other camera, side by side: under TCG
# each pair costs seconds of process start-up, and two streams keep both
# vCPUs busy. NEGCAM_VM_PROFILES="a b" narrows it to those cameras. The
# counts go to the summary; docs/cameras.md records the last run.

SWEEP=$NEGCAM_BUILD/tests/run/sweep-stamp
SWEEP_COUNT=4
# shellcheck source=tests/run/sweep-lib.sh
. "$NEGCAM_TREE/tests/run/sweep-lib.sh"

# The fourccs NODE lists, one a line, as v4l2-ctl prints them (spaces kept).
sweep_node_formats() {
	v4l2-ctl -d "$1" --list-formats | sed -n "s/^.*\[[0-9]*\]: '\(....\)'.*/\1/p"
}

# sweep_pair CAMERA NODE FOURCC DIR: one (camera, format) streamed and
# judged: one "PASS: ..." or "FAIL: ..." line (then the log's last lines,
# indented) on stdout.
sweep_pair() {
	local cam=$1 node=$2 f=$3 dir=$4 log raw st dq err zero bpl w h size why=''
	log=$dir/stream.log raw=$dir/frames.raw st=$dir/stamps.txt
	rm -f "$raw" "$raw.grey"
	timeout -k 5 60 bash -c "$(sweep_v4l2ctl "$node" "$f" "$SWEEP_COUNT" "$raw")" < /dev/null > "$log" 2>&1
	read -r dq err zero bpl w h <<< "$(sweep_summary "$log")"
	size=$(stat -c %s "$raw" 2>/dev/null || echo 0)
	[ "$dq" = "$SWEEP_COUNT" ] || why="$why, $dq of $SWEEP_COUNT buffers dequeued"
	[ "$err" = 0 ] || why="$why, $err flagged ERROR"
	[ "$zero" = 0 ] || why="$why, $zero with bytesused 0"
	if [ -z "$why" ] && { [ "$w" = 0 ] || [ "$size" = 0 ]; }; then
		why=", no G_FMT or nothing written"
	fi
	if [ -z "$why" ] && ! sweep_stamps "$f" "$w" "$h" "$bpl" $((size / SWEEP_COUNT)) "$raw" "$st"; then
		why=", stamps: $(tail -n 1 "$st")"
	fi
	if [ -n "$why" ]; then
		echo "FAIL: $cam '$f' ${w}x$h: ${why#, }"
		grep -v 'cap dqbuf' "$log" | tail -n 6 | sed 's/^/  | /'
		return 1
	fi
	echo "PASS: $cam '$f' ${w}x$h: $dq buffers, bytesused > 0, no ERROR, $(tail -n 1 "$st")"
}

# sweep_worker CFS NODE OUT CAMERA...: each camera into the device of CFS,
# each of its formats through NODE; result lines to OUT, then "CAMERAS N".
sweep_worker() {
	local cfs=$1 node=$2 out=$3 dir name f n=0
	shift 3
	dir=$(mktemp -d /tmp/shelf-sweep.XXXXXX)
	for name in "$@"; do
		if ! shelf_load "$name" "$cfs"; then
			echo "FAIL: $name: not loaded through configfs: $(head -n 2 "$cfs/status" | tr '\n' ' ')"
			continue
		fi
		n=$((n + 1))
		while IFS= read -r f; do
			sweep_pair "$name" "$node" "$f" "$dir"
		done < <(sweep_node_formats "$node")
	done >> "$out"
	echo "CAMERAS $n" >> "$out"
	rm -rf "$dir"
}

suite_shelf_sweep() {
	local cfs0 cfs1 node0 node1 t0 line i=0 half0=() half1=() cams=0 pairs=0 bad=0
	suite_begin shelf-sweep
	if [ ! -x "$SWEEP" ] || [ ! -x "$SHELF_CTL" ]; then
		fail "no $SWEEP or $SHELF_CTL (meson build dir NEGCAM_BUILD=$NEGCAM_BUILD)"
		suite_end; return
	fi
	export NEGCAM_BUILD
	[ -d /sys/module/negcam ] && negcam_unload
	check "insmod negcam.ko devices=2" 60 negcam_load devices=2 || { suite_end; return; }
	udevadm settle -t 30 2>/dev/null
	cfs0=$PROF_CFS/negcam-0 cfs1=$PROF_CFS/negcam-1
	node0=$(cat "$cfs0/video_node" 2>/dev/null) node1=$(cat "$cfs1/video_node" 2>/dev/null)
	case $node0 in /dev/*) ;; ?*) node0=/dev/$node0 ;; esac
	case $node1 in /dev/*) ;; ?*) node1=/dev/$node1 ;; esac
	if [ ! -c "$node0" ] || [ ! -c "$node1" ]; then
		fail "negcam: nodes '$node0' '$node1' from $cfs0, $cfs1"
		negcam_unload; suite_end; return
	fi
	for line in ${NEGCAM_VM_PROFILES:-$(shelf_cameras)}; do
		if [ $((i % 2)) = 0 ]; then half0+=("$line"); else half1+=("$line"); fi
		i=$((i + 1))
	done
	rm -f /tmp/shelf-sweep-0.txt /tmp/shelf-sweep-1.txt
	t0=$(now)
	sweep_worker "$cfs0" "$node0" /tmp/shelf-sweep-0.txt "${half0[@]}" &
	sweep_worker "$cfs1" "$node1" /tmp/shelf-sweep-1.txt "${half1[@]}" &
	wait
	while IFS= read -r line; do
		case $line in
		PASS:*) pass "${line#PASS: }"; pairs=$((pairs + 1)) ;;
		*'not loaded through configfs'*) fail "${line#FAIL: }" ;;
		FAIL:*) fail "${line#FAIL: }"; pairs=$((pairs + 1)) bad=$((bad + 1)) ;;
		CAMERAS*) cams=$((cams + ${line#CAMERAS })) ;;
		*) echo "$line" ;;
		esac
	done < <(cat /tmp/shelf-sweep-0.txt /tmp/shelf-sweep-1.txt)
	note "the shelf sweep: $cams cameras, $pairs (camera, format) pairs, $bad failed, in $(secs_since "$t0")s"
	SUMMARY+=("shelf-sweep: $cams cameras, $pairs (camera, format) pairs on negcam.ko, $((pairs - bad)) streamed with stamps in sequence, in $(secs_since "$t0")s")
	check "rmmod negcam" 60 negcam_unload
	dmesg_clean shelf-sweep
	suite_end
}
