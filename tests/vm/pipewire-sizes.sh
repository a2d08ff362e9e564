# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# Sizes asked against sizes got, for a negcam.ko loop seen through
# PipeWire's V4L2 monitor (sourced by tests/vm/pipewire-suite.sh, inside
# the VM, with PipeWire and WirePlumber running): the producer on the
# loop's output node is negcamconvertsink (negcamsrc pattern=solid before
# it), written once with no size; each consumer is a new
#   pipewiresrc target-object=NODE num-buffers=10 ! CAPS ! fakesink
# on the loop's capture node, at YUY2 320x240, 640x480, 1280x720 and MJPG
# 1280x720, in that order. For each: the caps pipewiresrc negotiated, the
# frames it got, the format the producer then wrote (the output node's
# G_FMT) and how many of its frames the loop handed over meanwhile (its
# Frame Copies and Shared Frames controls). Prints the rows of
# docs/pipewire.md's table ("Sizes asked and sizes got", the loop's rows)
# as notes; a size not granted, not written by the producer, or with none
# of its frames handed over, fails.
#
#   pw_loop_sizes OUT CAP

PW_LOOP_SIZES="YUYV:320x240 YUYV:640x480 YUYV:1280x720 MJPG:1280x720"

# pw_caps_got LOG: "FORMAT WxH" of the caps on pipewiresrc's source pad
# (gst-launch -v), the last ones set; empty for none.
pw_caps_got() {
	grep -a 'pipewiresrc0.GstPad:src: caps = ' "$1" | tail -n1 | sed 's/.*caps = //' |
		awk '{ f = ($0 ~ /^image\/jpeg/) ? "MJPG" : "?"
			if (match($0, /format=\(string\)[A-Za-z0-9]+/)) f = substr($0, RSTART + 15, RLENGTH - 15)
			w = h = "?"
			if (match($0, /width=\(int\)[0-9]+/)) w = substr($0, RSTART + 11, RLENGTH - 11)
			if (match($0, /height=\(int\)[0-9]+/)) h = substr($0, RSTART + 12, RLENGTH - 12)
			print f, w "x" h }'
}

# pw_loop_fed OUT: producer frames the loop handed to its consumers so far
# (its Frame Copies and Shared Frames controls).
pw_loop_fed() { v4l2-ctl -d "$1" -C frame_copies,shared_frames 2>/dev/null | awk '{ n += $2 } END { print n + 0 }'; }

# pw_loop_size NAME OUT FOURCC WxH: one consumer; prints "ok|ROW" or "bad|ROW".
pw_loop_size() {
	local name=$1 out=$2 fcc=$3 size=$4 caps log st got wrote asked fed
	caps="$(gst_caps_of "$fcc"),width=${size%x*},height=${size#*x}"
	asked="$([ "$fcc" = YUYV ] && echo YUY2 || echo "$fcc") $size"
	log=$(logname "pw loop size $fcc $size")
	fed=$(pw_loop_fed "$out")
	timeout 90 gst-launch-1.0 -v pipewiresrc target-object="$name" num-buffers=10 \
		stream-properties="props,media.type=Video,media.category=Capture,media.role=Camera" ! \
		"$caps" ! fakesink > "$log" 2>&1
	st=$?
	fed=$(($(pw_loop_fed "$out") - fed))
	got=$(pw_caps_got "$log")
	wrote=$("$V" fmt "$out" 2>/dev/null)
	wrote=${wrote% *}
	local row="| negcam.ko loop (VM), producer negcamconvertsink | $asked | "
	if [ "$st" = 0 ]; then
		row+="${got:-no caps}, 10 frames; the producer wrote ${wrote:-?}, $fed of its frames handed over meanwhile |"
	else
		row+="no 10 frames in 90 s (status $st; caps ${got:-none}) |"
	fi
	[ "$fed" -gt 0 ] || fed=none
	case "$st:$got:$wrote:$fed" in
	"0:$([ "$fcc" = YUYV ] && echo YUY2 || echo MJPG) $size:$size $fcc:"[0-9]*) echo "ok$row" ;;
	*) echo "bad$row (log $log)" ;;
	esac
}

pw_loop_sizes() {
	local out=$1 cap=$2 name prod plog s r r2 rows=()
	V=${V:-$BIN/vm-v4l2}
	name=$(pw_source_of "$cap")
	[ -n "$name" ] || { fail "pipewire sizes: $cap is no PipeWire source"; return; }
	plog=$(logname "pw loop sizes producer")
	GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" gst-launch-1.0 -e negcamsrc pattern=solid is-live=true ! \
		negcamconvertsink device="$out" > "$plog" 2>&1 &
	prod=$!
	# The producer follows each consumer within loop_timeout_ms (3 s: the
	# pipeline renegotiates slowly under TCG); the consumer pauses meanwhile.
	loop_timeout 3000
	for s in $PW_LOOP_SIZES; do
		r=$(pw_loop_size "$name" "$out" "${s%%:*}" "${s#*:}")
		r2=${r#ok}
		rows+=("${r2#bad}")
		case $r in
		ok*) pass "pipewire sizes: pipewiresrc asked ${s%%:*} ${s#*:} of the loop and got it: ${r#ok}" ;;
		*) fail "pipewire sizes: ${r#bad}" ;;
		esac
	done
	loop_timeout
	kill -INT "$prod" 2>/dev/null; wait "$prod" 2>/dev/null
	note "docs/pipewire.md, Sizes asked and sizes got (the loop's rows):"
	for r in "${rows[@]}"; do note "${r%% (log *}"; done
}
