#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# v4l2-compliance -s on negcam.ko with each fault on (docs/faults.md,
# "negcam.ko under v4l2-compliance"): one device, a profile of YUYV and
# MJPG at 320x240 and 640x480, 30 fps, `fault seed 7` and one fault
# line; the streaming tests run in that format (MJPG for corrupt and
# truncate). Each fault has the compliance failures it may cause (a
# pattern below, with the reason; HANG: v4l2-compliance waits for frames
# that never come and is killed after 90 s, as meant); any other failure,
# or a crash, another timeout or a kernel-log report, fails the case.
# Runs in the VM:   tests/vm/run.sh tests/vm/faults-compliance.sh [--write FILE]
# (make test-faults-compliance: --write docs/faults.md replaces the table
# between the faults-compliance markers). About 10 minutes under TCG.
# Prints PASS/FAIL lines and "faults-compliance: N passed, N failed".

set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "run it in the VM: tests/vm/run.sh tests/vm/faults-compliance.sh" >&2; exit 2; }
cd "$NEGCAM_TREE" || exit 2
WRITE=
[ "${1:-}" = --write ] && WRITE=$2
CFS=/sys/kernel/config/negcam/negcam-0
SYS=/sys/devices/platform/negcam.0
# shellcheck source=tests/vm/lib.sh
. "$NEGCAM_TREE/tests/vm/lib.sh"
suite_begin faults-compliance
OUT=${NEGCAM_RUN:-/tmp}/faults-compliance
mkdir -p "$OUT"

# fault line | format | failures it may cause (ERE over the fail: lines; "" none; HANG) | why
CASES='none|YUYV||no fault: a clean run
drop 10%|YUYV||a lost frame is a sequence gap: v4l2-compliance warns (got sequence number N, expected M), it does not fail
error 10%|YUYV||an ERROR buffer is a legal buffer
corrupt 20%|MJPG||v4l2-compliance does not decode the payload
truncate 20%|MJPG||a short bytesused is legal for MJPG
stall 500ms every 1s|YUYV||a stall shorter than its poll timeout only delays frames
rate 10|YUYV||frames come slower than G_PARM says: nothing checks the rate
timestamp-jump 300ms every 500ms|YUYV||stamps that jump forward still increase
timestamp-jump -300ms every 500ms|YUYV|timestamp|stamps that go back: a check of their order may fail (v4l2-compliance 1.22.1 flagged none)
source-change 500ms 640x480|YUYV|HANG|the stream delivers nothing after the change until STREAMOFF, and v4l2-compliance waits for frames without a timeout (as v4l2-ctl, ffmpeg and OpenCV do, "What applications do")
unplug 2s|YUYV|.|the queue goes in error (a waiting DQBUF: EIO), then the node: the streaming test running then fails'

base() { # base FOURCC
	printf 'name faulty\ncard "Faulty Camera"\nformat %s\n  size 320x240 fps 30\n  size 640x480 fps 30\nformat %s\n  size 320x240 fps 30\n  size 640x480 fps 30\nfault seed 7\n' \
		"$1" "$([ "$1" = MJPG ] && echo YUYV || echo MJPG)"
}

ROWS=()
# one_case FAULT FOURCC ALLOWED WHY
one_case() {
	local fault=$1 fourcc=$2 allowed=$3 why=$4 dev log total fails other n verdict d0 to rc warns clean
	d0=$(dmesg | wc -l)
	{ base "$fourcc"; [ "$fault" = none ] || echo "fault $fault"; } > "$OUT/p.profile"
	if ! cat "$OUT/p.profile" > $CFS/profile; then
		fail "$fault: profile refused: $(cat $CFS/status)"; return
	fi
	dev=/dev/$(cat $SYS/video_node)
	log=$OUT/$(echo "$fault" | tr -c 'A-Za-z0-9' _).log
	to=600
	[ "$allowed" = HANG ] && to=90
	timeout -k 5 $to v4l2-compliance -d "$dev" -s > "$log" 2>&1
	rc=$?
	total=$(grep -E '^Total for' "$log" | tail -n 1 | sed 's/^Total for [^:]*: //')
	# the streaming progress ("Video Capture: Frame #012") shares lines with warn: and fail:
	clean=$(tr '\r' '\n' < "$log" | sed -E 's/[[:space:]]*Video (Capture|Output)( MPlane| Multiplanar)?: Frame #[0-9]+( \([a-z]+\))?//g')
	fails=$(printf '%s\n' "$clean" | grep -E '^[[:space:]]*fail: ' | sed -E 's/^[[:space:]]*fail: //; s/^[^ ]*\([0-9]+\): //' | sort | uniq -c | sort -rn)
	n=$(printf '%s\n' "$fails" | grep -c .)
	warns=$(printf '%s\n' "$clean" | grep -E '^[[:space:]]*warn: ' | sed -E 's/^[[:space:]]*warn: //; s/^[^ ]*\([0-9]+\): //; s/[0-9]+/N/g' | sort | uniq -c | sort -rn)
	if [ -n "$allowed" ] && [ "$allowed" != HANG ]; then other=$(printf '%s\n' "$fails" | grep -vE "$allowed" | grep .)
	elif [ "$allowed" != HANG ]; then other=$fails
	else other=; fi # the format changed under it: what failed before the hang is listed
	if [ -z "$total" ] && [ $rc = 124 ] && [ "$allowed" = HANG ]; then
		total="no summary: killed after $to s, streaming after '$(grep -E '^[[:space:]]*test ' "$log" | tail -n 1 | sed 's/^[[:space:]]*//')'"
		verdict="yes: $why"
	elif [ -z "$total" ]; then verdict="no: no summary (exit $rc: crashed or timed out)"
	elif [ -n "$other" ]; then verdict="no: $(printf '%s\n' "$other" | head -n 1 | sed 's/^ *//')"
	else verdict="yes: $why"; fi
	if dmesg | tail -n +$((d0 + 1)) | grep -qE 'WARNING|BUG|Oops|circular locking|INFO: task'; then
		verdict="no: kernel log: $(dmesg | tail -n +$((d0 + 1)) | grep -m1 -E 'WARNING|BUG|Oops|circular locking|INFO: task')"
	fi
	note "$fault ($fourcc): ${total:-no summary}"
	[ -n "$fails" ] && printf '%s\n' "$fails" | head -n 6 | sed 's/^/  | /'
	case $verdict in yes*) pass "$fault: v4l2-compliance -s: ${total:-?}; failures as meant" ;;
	*) fail "$fault: v4l2-compliance -s: ${total:-?}; $verdict (log $log)" ;; esac
	fails=$(printf '%s\n' "$fails" | head -n 3 | sed -E 's/^ *([0-9]+) /\1x /; s/\|/\\|/g' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	warns=$(printf '%s\n' "$warns" | head -n 2 | sed -E 's/^ *([0-9]+) /\1x /; s/\|/\\|/g' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	ROWS+=("| \`$fault\` ($fourcc) | ${total:-no summary} | ${fails:-none} | ${warns:-none} | $verdict |")
}

negcam_load profile=vga || { fail "insmod negcam.ko"; suite_end; exit 1; }
while IFS='|' read -r fault fourcc allowed why; do
	[ -d $CFS ] || { negcam_unload; negcam_load profile=vga; }
	one_case "$fault" "$fourcc" "$allowed" "$why"
done <<< "$CASES"
sleep 1
if negcam_unload; then pass "rmmod negcam after the runs"; else fail "rmmod negcam after the runs"; fi

TABLE=$OUT/table.md
{
	echo "Measured $(date -u +%Y-%m-%d) in the VM on Linux $(uname -r), $(v4l2-compliance --version 2>&1 | head -n 1 | sed 's/ *$//') (\`make test-faults-compliance\`):"
	echo
	echo "| fault | v4l2-compliance -s | failures seen (count x message, first 3) | warnings seen (first 2) | expected? |"
	echo "|---|---|---|---|---|"
	printf '%s\n' "${ROWS[@]}"
} > "$TABLE"
cat "$TABLE"
if [ -n "$WRITE" ]; then
	python3 - "$WRITE" "$TABLE" <<'EOF'
import sys
doc, table = sys.argv[1], open(sys.argv[2]).read()
text = open(doc).read()
b, e = '<!-- faults-compliance:begin -->\n', '<!-- faults-compliance:end -->'
i, j = text.index(b) + len(b), text.index(e)
open(doc, 'w').write(text[:i] + table + text[j:])
EOF
fi
suite_end
[ "$S_FAIL" = 0 ]
