#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/vm/installed-suite.sh VERSION: the installed packages, booted. Runs
# in the VM on the root tests/deb-install.sh installed (run.sh --root DIR,
# its own kernel), with nothing of the build tree: the DKMS-built negcam.ko
# (modprobe), /usr/bin/negcam-ctl, the udev rule in /lib/udev/rules.d, the
# plugin in GStreamer's plugin directory. As a user would:
#   modprobe negcam; systemd-udevd (SYSTEMD_IGNORE_CHROOT=1: the 9p root
#   looks like a chroot to systemd); negcam-ctl loop add --label Meeting;
#   udev's /dev/v4l/by-id/negcam-Meeting-output and -capture0; the
#   README's producer (videotestsrc ! negcamconvertsink) into the output
#   link; a browser-style consumer (v4l2-ctl: S_FMT 640x480 YUYV, mmap
#   streaming) reads the producer's white frames through the capture link
#   while `loop list` shows the producer live and 1 consumer; loop remove
#   takes the links away. Then the example configuration of negcam-dkms:
#   modprobe with examples/modprobe-negcam.conf makes its two labelled
#   loops, and systemd-modules-load with examples/modules-load-negcam.conf
#   loads the module.
# Prints PASS:/FAIL: lines and "installed: N passed, N failed".

# Braces: bash reads the whole script before running it.
{
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "installed-suite.sh runs inside the VM (tests/deb-install.sh --boot DIR)" >&2; exit 2; }
VERSION=${1:?usage: installed-suite.sh VERSION}
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=tests/vm/lib.sh
. "$VM_DIR/lib.sh"
export SYSTEMD_IGNORE_CHROOT=1
CTL=/usr/bin/negcam-ctl
EXAMPLES=/usr/share/doc/negcam-dkms/examples
BYID=/dev/v4l/by-id/negcam
W=640 H=480

# settle: udev has handled every event so far.
settle() { udevadm settle -t 30; }

# installed_module: modprobe finds the DKMS module of the packages.
installed_module() {
	local file
	file=$(modinfo -F filename negcam 2>&1)
	case $file in
	/lib/modules/"$(uname -r)"/updates/dkms/negcam.ko*) pass "modinfo negcam: the DKMS module $file" ;;
	*) fail "modinfo negcam: '$file', not DKMS's under /lib/modules/$(uname -r)/updates/dkms" ;;
	esac
	check "modprobe negcam" 60 modprobe negcam
	expect "loaded negcam.ko's version (/sys/module/negcam/version)" \
		"$(cat /sys/module/negcam/version 2>&1)" "$VERSION"
	expect "negcam-ctl is the installed one" "$(command -v negcam-ctl)" "$CTL"
}

# udevd: systemd-udevd with the installed rules, existing devices replayed.
udevd_start() {
	mkdir -p /run/udev
	check "systemd-udevd --daemon (the root's udev)" 30 /lib/systemd/systemd-udevd --daemon &&
		udevadm trigger --action=add && settle
}

# list_has PATTERN SECONDS: a line of `negcam-ctl loop list` matches
# PATTERN in time; LIST_LINE is that line.
list_has() {
	local _
	for _ in $(seq $(($2 * 2))); do
		LIST_LINE=$("$CTL" loop list 2>&1 | grep -E "$1") && return 0
		sleep 0.5
	done
	return 1
}

# white_frame FILE: the last YUYV frame of FILE is the producer's white.
white_frame() {
	local px
	px=$(tail -c $((W * H * 2)) "$1" | od -An -tu1 -N8 | tr -s ' ')
	note "last frame's first pixels:$px"
	[ "$px" = " 235 128 235 128 235 128 235 128" ]
}

# stream_meeting: producer, a consumer through the stable name, loop list.
stream_meeting() {
	local prod cons f=/tmp/meeting.yuv n=120
	gst-launch-1.0 -q videotestsrc is-live=true pattern=white ! \
		video/x-raw,format=YUY2,width=$W,height=$H,framerate=30/1 ! \
		negcamconvertsink device="$BYID-Meeting-output" > "$(logname producer)" 2>&1 &
	prod=$!
	if list_has '"Meeting".*producer live' 90; then
		pass "the installed plugin's negcamconvertsink writes to $BYID-Meeting-output (loop list: producer live)"
	else
		fail "the producer never became live: $("$CTL" loop list 2>&1 | tr '\n' ' '); $(tail -n 5 "$(logname producer)")"
	fi
	timeout 120 v4l2-ctl -d "$BYID-Meeting-capture0" --set-fmt-video=width=$W,height=$H,pixelformat=YUYV \
		--stream-mmap --stream-count=$n --stream-to="$f" > "$(logname consumer)" 2>&1 &
	cons=$!
	if list_has '"Meeting".*producer live, 1 consumer streaming' 60; then
		pass "negcam-ctl loop list while the consumer reads: $LIST_LINE"
	else
		fail "loop list never showed the producer live and 1 consumer: $("$CTL" loop list 2>&1 | tr '\n' ' ')"
	fi
	wait "$cons"
	expect "the consumer (v4l2-ctl --stream-mmap on $BYID-Meeting-capture0) exits" "$?" 0
	expect "the consumer read $n frames of ${W}x$H YUYV" "$(stat -c %s "$f" 2>&1)" $((n * W * H * 2))
	if white_frame "$f"; then
		pass "the consumer's last frame is the producer's (white)"
	else
		fail "the consumer's last frame is not the producer's white"
	fi
	rm -f "$f"
	kill -INT "$prod" 2>/dev/null; wait "$prod" 2>/dev/null
}

# meeting: the README's virtual webcam, by the installed packages.
meeting() {
	local log
	log=$(logname "loop add")
	if "$CTL" loop add --label Meeting > "$log" 2>&1; then
		pass "negcam-ctl loop add --label Meeting: $(tr '\n' ' ' < "$log")"
	else
		fail "negcam-ctl loop add --label Meeting: $(tr '\n' ' ' < "$log")"
		return
	fi
	byid_links "udev made $BYID-Meeting-output and -capture0 (/lib/udev/rules.d/60-negcam.rules)" present Meeting
	expect "$BYID-Meeting-capture0 points at the node loop add printed" \
		"$(readlink -f "$BYID-Meeting-capture0")" "$(awk '$1 == "capture0" { print $2 }' "$log")"
	stream_meeting
	check "negcam-ctl loop remove Meeting" 30 "$CTL" loop remove Meeting
	byid_links "the by-id links are gone after loop remove" gone Meeting
}

# examples: negcam-dkms's example modprobe.d and modules-load.d files work.
examples() {
	negcam_unload
	check "modprobe -C $EXAMPLES/modprobe-negcam.conf negcam" 60 \
		modprobe -C "$EXAMPLES/modprobe-negcam.conf" negcam
	if list_has '"Meeting"' 10 && list_has '"Studio Cam"' 10; then
		pass "the example's loops: $("$CTL" loop list | grep '^loop' | tr '\n' ' ')"
	else
		fail "the example's loops 'Meeting' and 'Studio Cam' are not listed: $("$CTL" loop list 2>&1 | tr '\n' ' ')"
	fi
	byid_links "udev's links for the example's loop 'Studio Cam' (negcam-Studio_Cam-*)" present Studio_Cam
	negcam_unload
	check "systemd-modules-load $EXAMPLES/modules-load-negcam.conf" 60 \
		/lib/systemd/systemd-modules-load "$EXAMPLES/modules-load-negcam.conf"
	if [ -d /sys/module/negcam ]; then pass "systemd-modules-load loaded negcam"
	else fail "negcam not loaded by systemd-modules-load"; fi
	negcam_unload
}

suite_begin installed
note "root $NEGCAM_VM_ROOT, kernel $(uname -r), version $VERSION"
installed_module
if [ -d /sys/module/negcam ]; then
	udevd_start
	meeting
	examples
fi
udevadm control --exit 2>/dev/null
negcam_unload 2>/dev/null
suite_end
[ "$S_FAIL" = 0 ]
exit
}
