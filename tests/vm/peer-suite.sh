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
	local d
	for d in $(modinfo -F depends "$PEER_NEGCAM_KO" | tr ',' ' '); do modprobe "$d" || return 1; done
	# shellcheck disable=SC2086
	insmod "$PEER_NEGCAM_KO" $PEER_NEGCAM_ARGS || return 1
	OUT=$(node_named "negcam loop 0 output") && CAP=$(node_named "negcam loop 0 capture 0") || return 1
	CAP2=$(node_named "negcam loop 0 capture 1") || CAP2=$CAP
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
			"$(ffmpeg -version | head -n1 | cut -d' ' -f1-3), GStreamer $(gst-launch-1.0 --version | sed -n 's/.*GStreamer \([0-9.]*\).*/\1/p')."
		echo
		cat "$table"
		echo
		sed -n "/$end/,\$p" "$PEER_DOC"
	} > "$PEER_DOC.new" && mv "$PEER_DOC.new" "$PEER_DOC"
	note "table written into $PEER_DOC"
}

suite_peer() {
	local table
	suite_begin peer
	: > "$LOOP_TSV"
	if [ ! -f "$PEER_KO" ]; then
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
			rmmod v4l2loopback
		else
			fail "insmod v4l2loopback.ko exclusive_caps=1"
		fi
		dmesg_peer "v4l2loopback" v4l2loopback
	fi

	if [ -f "$PEER_NEGCAM_KO" ] && modinfo -p "$PEER_NEGCAM_KO" | grep -q '^loops:'; then
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
			rmmod negcam
		fi
		dmesg_clean "negcam loop"
	else
		skip "negcam loop: $PEER_NEGCAM_KO has no 'loops' parameter yet; only v4l2loopback measured"
	fi

	table=$LOGDIR/loopback-peers.md
	peer_table > "$table"
	echo
	cat "$table"
	peer_doc "$table"
	suite_end
}
