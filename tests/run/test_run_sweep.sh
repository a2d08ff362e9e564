#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The shelf sweep (issue 40): every (camera, format) of the camera shelf
# (data/cameras/*.profile, found here, so a new camera is covered without
# editing this test) streams through negcam-run and v4l2-ctl at one size
# (640x480 asked, the camera's answer taken): 4 buffers, each with
# bytesused > 0 and no ERROR flag, whose frame number stamps read back
# strictly increasing (tests/run/sweep-stamp.c; MJPG, JPEG and H264 are
# decoded by ffmpeg to grey first, when it is installed). One negcam-run
# runs v4l2-ctl once per format of a part of a camera's formats (6), at
# the fastest rate of the size (--set-parm), JOBS parts at a time (the
# streams mostly wait for their frames); the results are judged
# afterwards, camera by camera. About a minute on 2 loaded cores.
#
# Bad input (issue 40): a profile whose 'sizeimage' is below what its
# format needs is refused with file:line before anything runs; a listing
# with a fourcc negcam does not know imports as an opaque format, and is
# swept with the shelf (an 8-bit picture, then zeros to its sizeimage).
#
#   test_run_sweep.sh SOURCE_ROOT BUILD_ROOT [CAMERA...]
set -u
SRC=$1 BUILD=$2
shift 2
NAME=test_run_sweep
RUN=$BUILD/run/negcam-run
CTL=$BUILD/ctl/negcam-ctl
SWEEP=$BUILD/tests/run/sweep-stamp
COUNT=4 JOBS=${NEGCAM_SWEEP_JOBS:-8}
T=$(mktemp -d "${TMPDIR:-/var/tmp}/negcam-sweep.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0 checks=0
. "$SRC/tests/check.sh"
. "$SRC/tests/run/sweep-lib.sh"
export NEGCAM_SHELF_DIR="$SRC/data/cameras"

# The fourccs of a profile, as v4l2-ctl prints them (with their spaces).
formats_of() {
	"$CTL" --profile "$1" --list-formats | sed -n "s/^.*\[[0-9]*\]: '\(....\)'.*/\1/p"
}

# One v4l2-ctl line per format into a script negcam-run runs, in DIR.
camera_script() {	# CAMERA DIR
	i=0
	formats_of "$1" | while IFS= read -r f; do
		printf "timeout 30 v4l2-ctl -d /dev/video0 --set-fmt-video 'pixelformat=%s,width=640,height=480' " "$f"
		printf -- "--set-parm=1000 --get-fmt-video --stream-mmap --stream-count=%s --stream-to='%s/%s' " \
			"$COUNT" "$2" "$i.raw"
		printf -- "--verbose >'%s/%s.log' 2>&1\n" "$2" "$i"
		printf '%s\n' "$f" >"$2/$i.fcc"
		i=$((i + 1))
	done
}

# Stream a chunk of CAMERA's formats (a part of its script); PART.rc
# gets negcam-run's status.
stream_part() {	# CAMERA PART
	timeout 300 "$RUN" --profile "$1" -- sh "$2" >"$2.log" 2>&1
	echo $? >"$2.rc"
}

one_format() {	# CAMERA DIR INDEX
	d=$2 log=$2/$3.log
	IFS= read -r f <"$2/$3.fcc"
	pair="$1 '$f'"
	set -- $(sweep_summary "$log") "$d" "$3"
	dq=$1 w=$5 h=$6 d=$7
	check "$pair: $COUNT buffers dequeued (got $dq)" [ "$dq" = "$COUNT" ]
	check "$pair: no buffer flagged ERROR ($2)" [ "$2" = 0 ]
	check "$pair: every bytesused > 0 ($3 empty)" [ "$3" = 0 ]
	size=$(wc -c <"$d/$8.raw" 2>/dev/null || echo 0)
	if [ "$w" = 0 ] || [ "$dq" != "$COUNT" ] || [ "$size" = 0 ]; then
		check "$pair: G_FMT and a stream to read stamps from" false
		sed -n 1,15p "$log" >&2
		return
	fi
	sweep_stamps "$f" "$w" "$h" "$4" $((size / COUNT)) "$d/$8.raw" "$d/$8.st"
	check "$pair ${w}x$h: stamps strictly increasing" [ $? = 0 ]
	case $(tail -n 1 "$d/$8.st") in
	*"strictly increasing"*|*skipped*) ;;
	*) tail -n 3 "$d/$8.st" >&2 ;;
	esac
	pairs=$((pairs + 1))
	rm -f "$d/$8.raw" "$d/$8.raw.grey"
}

# Bad input: a sizeimage too small, refused at its line.
printf 'name small\nformat YUYV\n  sizeimage 1000\n  size 640x480 fps 30\n' >"$T/small.profile"
"$RUN" --profile "$T/small.profile" -- sh -c 'echo RAN' >"$T/small.out" 2>&1
rc=$?
check "sizeimage below the format's need: exit 2 (got $rc)" [ "$rc" = 2 ]
check "sizeimage below the format's need: said at small.profile:3" \
	grep -q "small.profile:3:[0-9]*: sizeimage 1000 is smaller than 'YUYV' needs at 640x480 (614400 bytes)" \
	"$T/small.out"
check "sizeimage below the format's need: nothing ran" sh -c '! grep -q RAN "$1"' - "$T/small.out"
# A fourcc no table knows: imported as opaque, then swept with the shelf.
printf "ioctl: VIDIOC_ENUM_FMT\n\tType: Video Capture\n\n\t[0]: 'NCQX' (Vendor Depth Thing)\n%s\n%s\n" \
	"		Size: Discrete 640x480" "			Interval: Discrete 0.033s (30.000 fps)" >"$T/vendor.txt"
"$CTL" --import "$T/vendor.txt" --name vendor-ncqx >"$T/vendor-ncqx.profile" 2>"$T/vendor.err"
check "an unknown fourcc imports" [ $? = 0 ]
check "an unknown fourcc imports as opaque" grep -q "^format NCQX opaque" "$T/vendor-ncqx.profile"

cameras=0 pairs=0 formats=0
if [ $# -eq 0 ]; then
	set -- $(ls "$SRC"/data/cameras/*.profile | sed 's,.*/,,; s,\.profile$,,') "$T/vendor-ncqx.profile"
fi
k=0
for cam in "$@"; do	# stream, in parts of 6 formats, JOBS parts at a time
	dir=$T/${cam##*/}.d
	mkdir -p "$dir"
	camera_script "$cam" "$dir" >"$dir/script.sh"
	split -l 6 "$dir/script.sh" "$dir/part."
	for part in "$dir"/part.??; do
		stream_part "$cam" "$part" &
		k=$((k + 1))
		[ $((k % JOBS)) = 0 ] && wait
	done
done
wait
for cam in "$@"; do	# judge
	dir=$T/${cam##*/}.d
	n=$(ls "$dir"/*.fcc 2>/dev/null | wc -l)
	rc=$(cat "$dir"/part.??.rc 2>/dev/null | sort -u | tr '\n' ' ')
	check "$cam: has formats ($n)" [ "$n" -gt 0 ]
	check "$cam: negcam-run streamed them in time (rc $rc)" \
		sh -c '[ -n "$1" ] && ! echo "$1" | grep -qw 124' - "$rc"
	i=0
	while [ "$i" -lt "$n" ]; do
		one_format "${cam##*/}" "$dir" "$i"
		i=$((i + 1))
	done
	formats=$((formats + n))
	cameras=$((cameras + 1))
done
echo "$NAME: $cameras cameras, $formats (camera, format) pairs, $pairs judged"
echo "$NAME: $checks checks, $fails failed"
[ "$fails" = 0 ]
