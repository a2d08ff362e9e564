# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# The loopback peer comparison (issue 12), sourced by suites.sh; runs in the
# VM (tests/vm/run.sh peer). The cases of tests/vm/loop-cases.sh run against
# Debian's v4l2loopback (built for this kernel by tests/vm/v4l2loopback.sh on
# the host; exclusive_caps=0, and =1 for what a browser sees) and, when
# negcam.ko has a `loops` parameter, against a negcam loop (loop_profile=
# follow, two capture nodes; the capture-only and discrete-size cases also
# on loop_profile=webcam). v4l2loopback's outcomes are data; the negcam
# loop's are PASS/FAIL. The side-by-side table goes to the log and to the
# generated section of docs/loopback-peers.md.

# shellcheck source=tests/vm/loop-cases.sh
. "$VM_DIR/loop-cases.sh"

PEER_KO=$NEGCAM_TREE/tests/vm/out/v4l2loopback-$(uname -r)/v4l2loopback.ko
PEER_NEGCAM_KO=${NEGCAM_KO:-$NEGCAM_TREE/kmod/negcam.ko}
PEER_DOC=$NEGCAM_TREE/docs/loopback-peers.md
PEER_EXCL=0
PEER_NEGCAM_ARGS="loops=1 loop_captures=2 loop_profile=follow"
PEER_AKVCAM_KO=$NEGCAM_TREE/tests/vm/out/akvcam-$(uname -r)/akvcam.ko
PEER_AKVCAM_INI=/tmp/akvcam-peer.ini
PEER_AKVCAM_NR=40	# videonr of the output node; the captures follow it

# peer_insmod KO ARGS...: the modules KO depends on, then KO.
peer_insmod() {
	local ko=$1 d
	shift
	for d in $(modinfo -F depends "$ko" | tr ',' ' '); do modprobe "$d" || return 1; done
	insmod "$ko" "$@"
}

peer_v4l2loopback_load() {
	modprobe videodev || return 1
	insmod "$PEER_KO" devices=1 exclusive_caps=$PEER_EXCL card_label=peer || return 1
	OUT=$(wait_node "v4l2 loopback") || return 1
	CAP=$OUT CAP2=$OUT
}

# The node whose card name is $1 (sysfs name, as v4l2-ctl -D shows it).
node_named() {
	local d i
	for i in $(seq 50); do
		for d in /sys/class/video4linux/video*; do
			[ "$(cat "$d/name" 2>/dev/null)" = "$1" ] && { echo "/dev/${d##*/}"; return 0; }
		done
		sleep 0.1
	done
	return 1
}

peer_negcam_load() {
	# shellcheck disable=SC2086
	peer_insmod "$PEER_NEGCAM_KO" $PEER_NEGCAM_ARGS || return 1
	OUT=$(node_named "negcam loop 0 output") && CAP=$(node_named "negcam loop 0 capture 0") || return 1
	CAP2=$(node_named "negcam loop 0 capture 1") || CAP2=$CAP
}

# akvcam's configuration (its INI format, share/config_example.ini there):
# one output node feeding two capture nodes, at fixed numbers; every node
# offers YUYV 640x480 and 320x240 at 30 fps. The output node takes write()
# (ffmpeg's -f v4l2 writes) as well as MMAP and USERPTR; the captures are
# MMAP and USERPTR, as a webcam. No default_frame: without a producer
# akvcam fills frames with random bytes.
peer_akvcam_ini() {
	local n=$PEER_AKVCAM_NR
	cat <<-EOF
	[Cameras]
	cameras/size = 3
	cameras/1/type = output
	cameras/1/mode = mmap, userptr, rw
	cameras/1/description = akvcam peer output
	cameras/1/formats = 1, 2
	cameras/1/videonr = $n
	cameras/2/type = capture
	cameras/2/mode = mmap, userptr
	cameras/2/description = akvcam peer capture 0
	cameras/2/formats = 1, 2
	cameras/2/videonr = $((n + 1))
	cameras/3/type = capture
	cameras/3/mode = mmap, userptr
	cameras/3/description = akvcam peer capture 1
	cameras/3/formats = 1, 2
	cameras/3/videonr = $((n + 2))

	[Formats]
	formats/size = 2
	formats/1/format = YUY2
	formats/1/width = 640
	formats/1/height = 480
	formats/1/fps = 30
	formats/2/format = YUY2
	formats/2/width = 320
	formats/2/height = 240
	formats/2/fps = 30

	[Connections]
	connections/size = 1
	connections/1/connection = 1:2:3
	EOF
}

peer_akvcam_load() {
	peer_akvcam_ini > "$PEER_AKVCAM_INI"
	peer_insmod "$PEER_AKVCAM_KO" config_file="$PEER_AKVCAM_INI" || return 1
	OUT=$(node_named_nr "akvcam peer output" "$PEER_AKVCAM_NR") &&
		CAP=$(node_named_nr "akvcam peer capture 0" $((PEER_AKVCAM_NR + 1))) || return 1
	CAP2=$(node_named_nr "akvcam peer capture 1" $((PEER_AKVCAM_NR + 2))) || CAP2=$CAP
}

# /dev/videoNR once it exists and its card (VIDIOC_QUERYCAP) is $1: akvcam
# names every node "akvcam-device" in sysfs.
node_named_nr() {
	local i
	for i in $(seq 50); do
		v4l2-ctl -d "/dev/video$2" -D 2>/dev/null | grep -qF "Card type        : $1" && { echo "/dev/video$2"; return 0; }
		sleep 0.1
	done
	return 1
}

peer_run_akvcam() {
	if [ ! -f "$PEER_AKVCAM_KO" ]; then
		skip "akvcam: $PEER_AKVCAM_KO not built (not in Debian; docs/loopback-peers.md says how it was built)"
		return
	fi
	loop_cases akvcam peer_akvcam_load akvcam
	rmmod akvcam 2>/dev/null
	loop_rmmod_cases akvcam peer_akvcam_load akvcam
	dmesg_peer "akvcam" akvcam
}

# The rows of $LOOP_TSV side by side, one column per label, as Markdown.
peer_table() {
	awk -F'\t' '
	!($1 in col) { col[$1] = ++ncol; name[ncol] = $1 }
	!($2 in row) { row[$2] = ++nrow; cname[nrow] = $2 }
	{ gsub(/\|/, "\\|", $4); cell[row[$2], col[$1]] = ($3 == "yes" ? "met: " : "**not met**: ") $4 }
	END {
		printf "| case |"; for (c = 1; c <= ncol; c++) printf " %s |", name[c]; printf "\n"
		printf "|---|"; for (c = 1; c <= ncol; c++) printf "---|"; printf "\n"
		for (r = 1; r <= nrow; r++) {
			printf "| %s |", cname[r]
			for (c = 1; c <= ncol; c++) printf " %s |", ((r, c) in cell ? cell[r, c] : "-")
			printf "\n"
		}
	}' "$LOOP_TSV"
}

# Replaces the generated section of docs/loopback-peers.md with the table.
peer_doc() {
	local table=$1 begin='<!-- peer-suite: begin -->' end='<!-- peer-suite: end -->'
	[ -f "$PEER_DOC" ] && grep -qF "$begin" "$PEER_DOC" || { note "no generated section in $PEER_DOC: not updated"; return; }
	{
		sed "/$begin/q" "$PEER_DOC"
		echo
		echo "Run of $(date -u '+%Y-%m-%d %H:%M UTC'), kernel $(uname -r), $(basename "$(dirname "$PEER_KO")")" \
			"($(cat "$(dirname "$PEER_KO")/version" 2>/dev/null)), v4l-utils $(v4l2-ctl --version | sed -n 's/.* \([0-9.]*\).*/\1/p' | head -n1)," \
			"akvcam $(cut -c1-12 "$(dirname "$PEER_AKVCAM_KO")/version" 2>/dev/null || echo 'not built')," \
			"$(ffmpeg -version | head -n1 | cut -d' ' -f1-3), GStreamer $(gst-launch-1.0 --version | sed -n 's/.*GStreamer \([0-9.]*\).*/\1/p')."
		echo
		cat "$table"
		echo
		sed -n "/$end/,\$p" "$PEER_DOC"
	} > "$PEER_DOC.new" && mv "$PEER_DOC.new" "$PEER_DOC"
	note "table written into $PEER_DOC"
}

# peer_asked NAME: NAME is among the peers suite_peer was asked for.
peer_asked() { case " $PEER_ONLY " in *" $1 "*) return 0 ;; esac; return 1; }

suite_peer() {
	local table
	PEER_ONLY=${*:-v4l2loopback negcam akvcam}
	suite_begin peer
	: > "$LOOP_TSV"
	if ! peer_asked v4l2loopback; then
		:
	elif [ ! -f "$PEER_KO" ]; then
		skip "v4l2loopback: $PEER_KO not built (tests/vm/v4l2loopback.sh needs Debian's v4l2loopback-dkms)"
	else
		PEER_EXCL=0
		loop_cases v4l2loopback peer_v4l2loopback_load v4l2loopback
		rmmod v4l2loopback 2>/dev/null
		loop_rmmod_cases v4l2loopback peer_v4l2loopback_load v4l2loopback
		# What a browser sees with the workaround: capture only while a producer runs.
		PEER_EXCL=1
		if peer_v4l2loopback_load; then
			case_caps "v4l2loopback exclusive_caps=1" "$CAP" " (no producer)"
			producer_start "$OUT" 640x480
			case_caps "v4l2loopback exclusive_caps=1" "$CAP" " (producer running)"
			producer_stop
			loop_fresh peer_v4l2loopback_load v4l2loopback &&
				case_browser "v4l2loopback exclusive_caps=1" "$OUT" "$CAP"
			loop_fresh peer_v4l2loopback_load v4l2loopback &&
				case_firefox "v4l2loopback exclusive_caps=1" "$OUT" "$CAP"
			rmmod v4l2loopback
		else
			fail "insmod v4l2loopback.ko exclusive_caps=1"
		fi
		dmesg_peer "v4l2loopback" v4l2loopback
	fi

	if ! peer_asked negcam; then
		:
	elif [ -f "$PEER_NEGCAM_KO" ] && modinfo -p "$PEER_NEGCAM_KO" | grep -q '^loops:'; then
		rmmod negcam 2>/dev/null
		PEER_NEGCAM_ARGS="loops=1 loop_captures=2 loop_profile=follow"
		loop_cases "negcam loop" peer_negcam_load negcam
		rmmod negcam 2>/dev/null
		loop_rmmod_cases "negcam loop" peer_negcam_load negcam
		PEER_NEGCAM_ARGS="loops=1 loop_captures=1 loop_profile=webcam"
		if ! peer_negcam_load; then
			fail "insmod negcam.ko $PEER_NEGCAM_ARGS: no loop nodes"
			rmmod negcam 2>/dev/null
		else
			case_caps "negcam loop webcam" "$CAP" " (no producer)"
			case_browser "negcam loop webcam" "$OUT" "$CAP"
			loop_fresh peer_negcam_load negcam &&
				case_firefox "negcam loop webcam" "$OUT" "$CAP"
			rmmod negcam
		fi
		dmesg_clean "negcam loop"
	else
		skip "negcam loop: $PEER_NEGCAM_KO has no 'loops' parameter yet; only the peers measured"
	fi
	peer_asked akvcam && peer_run_akvcam

	table=$LOGDIR/loopback-peers.md
	peer_table > "$table"
	echo
	cat "$table"
	if [ $# = 0 ]; then
		peer_doc "$table"
	else
		note "only $*: $PEER_DOC not updated (tests/vm/run.sh peer runs every peer and updates it)"
	fi
	suite_end
}
