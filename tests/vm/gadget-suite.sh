#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# negcam-uvc --gadget (docs/uvc.md, "A board as a USB webcam") in the VM:
# the control plane of a usb_f_uvc gadget answered by negcam's request
# handling, through usbip-vudc (the gadget's UDC), usbipd --device over
# loopback, usbip attach on vhci-hcd, and uvcvideo. Checks: the clear
# errors (no libcomposite, not root, --remove with nothing to remove);
# uvcvideo binds; its --list-formats-ext equals negcam-ctl's for what
# usb_f_uvc carries; TRY_FMT and S_FMT reach the handler as PROBE SET_CUR;
# STREAMON as COMMIT with the asked format (streaming itself fails:
# usbip-vudc has no isochronous transfers, and what happens is recorded);
# a second COMMIT; SIGTERM removes the gadget; after SIGKILL --remove does;
# logitech-c920 with H264 left out: the listing and a COMMIT of MJPG, whose
# index moved.
#   tests/vm/run.sh gadget
# Prints PASS/FAIL lines and "gadget: N passed, N failed".
{
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "run it in the VM: tests/vm/run.sh gadget" >&2; exit 2; }
cd "$NEGCAM_TREE" || exit 2
VM_DIR=$NEGCAM_TREE/tests/vm
CARRIED='YUYV UYVY NV12 YU12 GREY MJPG' # usb_f_uvc 6.1: no frame-based (H.264) formats
# shellcheck source=tests/vm/lib.sh
. "$VM_DIR/lib.sh"
UVC=$NEGCAM_BUILD/uvc/negcam-uvc
CTL=$NEGCAM_BUILD/ctl/negcam-ctl
OUT=${NEGCAM_RUN:-/tmp}/gadget
mkdir -p "$OUT"
rm -f "$OUT/usbipd.pid"
UDC=usbip-vudc.0
GDIR=/sys/kernel/config/usb_gadget/negcam-$UDC
LOG=$OUT/negcam-uvc-gadget.log
PID='' NODE=''

# counts: SIGUSR1, then the last "counts:" and "gadget:" lines of the log.
counts() {
	kill -USR1 "$PID"
	sleep 0.5
	grep -E '^negcam-uvc: (counts|gadget):' "$LOG" | tail -n 2
}
field() { sed -n "s/.* \([0-9]*\) $1[,;].*/\1/p" | tail -n1; }

case_errors() {
	local msg
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	msg=$("$UVC" --profile webcam --gadget "$UDC" 2>&1)
	case $msg in
	*"modprobe libcomposite"*) pass "without libcomposite: $msg" ;;
	*) fail "without libcomposite: '$msg'" ;;
	esac
	check "modprobe usbip-vudc vhci-hcd libcomposite usb_f_uvc uvcvideo" 60 bash -c \
		'for m in usbip-vudc vhci-hcd libcomposite usb_f_uvc uvcvideo; do modprobe $m || exit 1; done'
	msg=$(setpriv --reuid 65534 --regid 65534 --clear-groups "$UVC" --profile webcam --gadget "$UDC" 2>&1)
	case $msg in
	*root*) pass "not root: $msg" ;;
	*) fail "not root: '$msg' does not say root" ;;
	esac
	msg=$("$UVC" --gadget "$UDC" --remove 2>&1)
	[ $? = 1 ] && pass "--remove with no gadget: $msg" || fail "--remove with no gadget: $msg"
}

# start PROFILE: the gadget, attached through usbipd and usbip; NODE set.
start() {
	local i t0
	"$UVC" --profile "$1" --gadget "$UDC" > "$LOG" 2>&1 &
	PID=$!
	for i in $(seq 100); do grep -q ', node /dev/' "$LOG" && break; sleep 0.1; done
	grep -q ', node /dev/' "$LOG" || { sed 's/^/  | /' "$LOG"; fail "$1: the gadget did not start"; return 1; }
	pass "$1: $(grep ', node /dev/' "$LOG" | sed 's/^negcam-uvc: //')"
	ip link set lo up
	[ -s "$OUT/usbipd.pid" ] || usbipd --device -D --pid "$OUT/usbipd.pid"
	for i in $(seq 50); do ss -ltn 2>/dev/null | grep -q ':3240 ' && break; sleep 0.1; done
	t0=$(now)
	check "usbip attach -r 127.0.0.1 -d $UDC" 60 usbip attach -r 127.0.0.1 -d "$UDC" || return 1
	for i in $(seq 300); do
		NODE=$(nodes_of_driver uvcvideo | head -n1)
		[ -n "$NODE" ] && break
		sleep 0.1
	done
	[ -n "$NODE" ] || { fail "$1: no uvcvideo node within 30 s of attach"; return 1; }
	pass "$1: uvcvideo bound $NODE $(secs_since "$t0") s after attach, card '$(v4l2-ctl -d "$NODE" -D | sed -n 's/.*Card type *: //p')'"
}

case_formats() {
	local got want
	want=$(want_formats "$1")
	got=$(v4l2-ctl -d "$NODE" --list-formats-ext | formats_of)
	if [ -n "$got" ] && [ "$got" = "$want" ]; then
		pass "$1: --list-formats-ext equals negcam-ctl's without H264 ($(grep -c '^format' <<< "$got") formats, $(grep -c Size <<< "$got") sizes, $(grep -c Interval <<< "$got") intervals)"
	else
		diff <(echo "$want") <(echo "$got") | head -n 20 | sed 's/^/  | /'
		fail "$1: --list-formats-ext differs from negcam-ctl's"
	fi
}

# commit_check NAME FOURCC W H N: S_FMT, then a STREAMON (no frame comes); the
# handler's Nth COMMIT is FOURCC WxH.
commit_check() {
	local c
	v4l2-ctl -d "$NODE" --set-fmt-video=width="$3",height="$4",pixelformat="$2"
	timeout 10 v4l2-ctl -d "$NODE" --stream-mmap --stream-count=1 > /dev/null 2>&1
	c=$(counts)
	[ "$(head -n1 <<< "$c" | field COMMIT)" = "$5" ] && grep -q "committed: $2 $3x$4 " <<< "$c" &&
		pass "$1: STREAMON after S_FMT $2 $3x$4: COMMIT $5 is $2 $3x$4" ||
		{ echo "$c" | sed 's/^/  | /'; fail "$1: COMMIT of $2 $3x$4"; }
}

# stop SIGNAL: detach from vhci-hcd, signal negcam-uvc, wait for it; its status.
stop() {
	local i
	usbip detach -p "$(usbip port | sed -n 's/^Port \([0-9]*\):.*/\1/p' | head -n1)" > /dev/null 2>&1
	for i in $(seq 50); do [ -z "$(nodes_of_driver uvcvideo)" ] && break; sleep 0.1; done
	kill -"$1" "$PID"
	for i in $(seq 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
	wait "$PID" 2>/dev/null
}

# TRY_FMT and S_FMT are PROBE SET_CUR; STREAMON is COMMIT (then no frame).
case_probe_commit() {
	local c0 p0 p1 p2 c1 st log
	c0=$(counts)
	p0=$(head -n1 <<< "$c0" | field 'PROBE SET_CUR')
	v4l2-ctl -d "$NODE" --try-fmt-video=width=320,height=240,pixelformat=YUYV > "$OUT/try.txt" 2>&1
	p1=$(counts | head -n1 | field 'PROBE SET_CUR')
	[ "$p1" -gt "$p0" ] && grep -q '320/240' "$OUT/try.txt" &&
		pass "TRY_FMT YUYV 320x240: 320x240, $((p1 - p0)) PROBE SET_CUR seen by the handler" ||
		fail "TRY_FMT: PROBE SET_CUR $p0 -> $p1"
	v4l2-ctl -d "$NODE" --set-fmt-video=width=1280,height=720,pixelformat=MJPG
	p2=$(counts | head -n1 | field 'PROBE SET_CUR')
	v4l2-ctl -d "$NODE" --get-fmt-video | grep -q "1280/720" && [ "$p2" -gt "$p1" ] &&
		pass "S_FMT MJPG 1280x720: G_FMT 1280x720, $((p2 - p1)) PROBE SET_CUR" ||
		fail "S_FMT: PROBE SET_CUR $p1 -> $p2"
	log=$OUT/stream-mjpg.log
	st=$(now)
	timeout 10 v4l2-ctl -d "$NODE" --stream-mmap --stream-count=1 --verbose > "$log" 2>&1
	note "streaming (expected to fail, no isochronous transfers on usbip-vudc): v4l2-ctl killed after $(secs_since "$st") s with no frame; last: $(grep -E 'STREAMON|DQBUF' "$log" | tail -n1 | sed 's/^[ \t]*//'); uvcvideo logged $(dmesg | grep -c 'Non-zero status (-18)') 'Non-zero status (-18)' (EXDEV)"
	c1=$(counts)
	[ "$(head -n1 <<< "$c1" | field COMMIT)" = 1 ] && grep -q 'committed: MJPG 1280x720 interval 333333' <<< "$c1" &&
		pass "STREAMON: the handler saw 1 COMMIT, committed MJPG 1280x720 at 30 fps" ||
		{ echo "$c1" | sed 's/^/  | /'; fail "STREAMON: no COMMIT of MJPG 1280x720"; }
	grep -q '1 streamon' <<< "$c1" && pass "the gadget's STREAMON event came" || fail "no STREAMON event"
	grep -E 'gadget: (streaming|starting)' "$LOG" | tail -n1 | sed 's/^/  gadget side: /'
	commit_check "a second stream" YUYV 640 480 2
	dmesg | grep -E 'Non-zero status|Failed to query|non compliance' | sort -u -k3 | tail -n 4 | sed 's/^/  kernel: /'
}

case_lifetime() {
	local i
	stop TERM && [ ! -e "$GDIR" ] &&
		pass "SIGTERM: exit 0, gadget removed from configfs" || fail "SIGTERM: still running or $GDIR left"
	grep -A1 '^negcam-uvc: removed' "$LOG" | sed 's/^negcam-uvc: /  at exit: /'
	cp "$LOG" "$OUT/negcam-uvc-gadget-webcam.log"
	"$UVC" --profile webcam --gadget "$UDC" > "$LOG" 2>&1 &
	PID=$!
	for i in $(seq 100); do grep -q ', node /dev/' "$LOG" && break; sleep 0.1; done
	kill -KILL "$PID"; wait "$PID" 2>/dev/null
	[ -e "$GDIR" ] && "$UVC" --gadget "$UDC" --remove && [ ! -e "$GDIR" ] &&
		pass "SIGKILL leaves the gadget; --remove takes it down" || fail "--remove after SIGKILL"
}

# logitech-c920: H264 (its second format) left out, so MJPG is the gadget's
# format 2 where negcam-uvc on vhci-hcd has it 3: the indexes must follow.
case_c920() {
	if start logitech-c920; then
		grep -q 'format H264 left out: usb_f_uvc' "$LOG" && pass "logitech-c920: H264 left out with a warning" ||
			fail "logitech-c920: no warning for H264"
		case_formats logitech-c920
		commit_check logitech-c920 MJPG 1280 720 1
	fi
	stop TERM && [ ! -e "$GDIR" ] || fail "logitech-c920: gadget left in configfs"
}

suite_begin gadget
T0=$(now)
case_errors
if start webcam; then
	case_formats webcam
	case_probe_commit
fi
case_lifetime
case_c920
[ -s "$OUT/usbipd.pid" ] && kill "$(cat "$OUT/usbipd.pid")"
check "rmmod uvcvideo vhci-hcd usb_f_uvc libcomposite usbip-vudc" 60 \
	rmmod uvcvideo vhci-hcd usb_f_uvc libcomposite usbip-vudc
dmesg_clean gadget
echo "GADGET-TIME: $(secs_since "$T0")s"
echo "gadget: $S_PASS passed, $S_FAIL failed"
[ "$S_FAIL" = 0 ]
exit
}
