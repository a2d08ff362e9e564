# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=sh
# The sweep's judge of one stream, shared by the three sweeps (issue 40):
# tests/run/test_run_sweep.sh (negcam-run), tests/vm/shelf-sweep-suite.sh
# (negcam.ko) and tests/vm/uvc-suite.sh case_uvc_sweep (negcam-uvc behind
# uvcvideo). Sourced; POSIX sh. SWEEP must name the sweep-stamp binary
# (tests/run/sweep-stamp.c).

# sweep_v4l2ctl NODE FOURCC COUNT RAW: the v4l2-ctl line of one stream of
# FOURCC at 640x480 asked (the device's answer taken), the fastest rate,
# COUNT buffers written to RAW, --verbose so each dequeue is logged.
sweep_v4l2ctl() {
	printf "v4l2-ctl -d %s --set-fmt-video 'pixelformat=%s,width=640,height=480' " "$1" "$2"
	printf -- "--set-parm=1000 --get-fmt-video --stream-mmap --stream-count=%s --stream-to='%s' --verbose" "$3" "$4"
}

# sweep_summary LOG: one pass over a v4l2-ctl --verbose log: buffers
# dequeued, flagged error, with bytesused 0, then what G_FMT said
# (bytesperline, width, height).
sweep_summary() {
	[ -f "$1" ] || { echo 0 0 0 0 0 0; return; }
	awk '/cap dqbuf/ { n++; if (/error/) e++; if (/bytesused: 0 /) z++ }
	     /Width\/Height/ && !wh { split($0, a, ":"); gsub(/ /, "", a[2]); wh = a[2] }
	     /Bytes per Line/ && !b { split($0, a, ":"); gsub(/ /, "", a[2]); b = a[2] }
	     END { sub("/", " ", wh); printf "%d %d %d %s %s\n", n, e, z, b ? b : 0, wh ? wh : "0 0" }' "$1"
}

# sweep_stamps FOURCC W H BPL FRAMEBYTES FILE OUT: the stamps of one
# stream into OUT: raw through sweep-stamp, MJPG/JPEG/H264 decoded to
# grey by ffmpeg first (skipped, and said in OUT, without ffmpeg).
# Status 0 when every frame has a stamp and they strictly increase.
sweep_stamps() {
	case "$1" in
	MJPG|JPEG|H264)
		if ! command -v ffmpeg >/dev/null 2>&1; then
			echo "sweep-stamp: skipped, no ffmpeg" >"$7"
			return 0
		fi
		demux=mjpeg
		[ "$1" = H264 ] && demux=h264
		ffmpeg -nostdin -v error -f "$demux" -i "$6" -f rawvideo -pix_fmt gray -y "$6.grey" 2>"$7.ff" || {
			cat "$7.ff" >"$7"; return 1; }
		"$SWEEP" GREY "$2" "$3" "$2" $(($2 * $3)) "$6.grey" >"$7"
		;;
	*)
		"$SWEEP" "$1" "$2" "$3" "$4" "$5" "$6" >"$7"
		;;
	esac
}
