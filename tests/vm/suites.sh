#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The VM suites; runs inside the test VM (tests/vm/run.sh quick|full|vivid).
#   vivid  the vivid smoke suite: proves the harness with a real driver
#   quick  vivid + negcam.ko acceptance; v4l2-compliance -f on vga
#   full   as quick, with v4l2-compliance -f on every built-in profile
#   negcam [full]  the negcam.ko part alone (vivid only as DMABUF exporter)
#   loop   negcam.ko loops alone (tests/vm/loop-suite.sh)
#   uvc    negcam-uvc behind uvcvideo on vhci-hcd (tests/vm/uvc-suite.sh)
#   gadget negcam-uvc --gadget: a usb_f_uvc gadget's control plane through
#          usbip-vudc (tests/vm/gadget-suite.sh)
#   storm [vivid|all]  the concurrent ioctl storm (tests/vm/storm-suite.sh)
#   shelf  every shelf camera on negcam.ko: listing, v4l2-compliance -s,
#          then the shelf sweep (shelf-sweep alone: every (camera, format)
#          streams with stamps in sequence, tests/vm/shelf-sweep-suite.sh)
#   mplane negcamsrc on vivid's multiplanar node (tests/vm/mplane-suite.sh)
#   pipewire  the desktop's camera stack: udevd, pipewire, wireplumber
#   peer [v4l2loopback|negcam|akvcam...]  loopback cases on v4l2loopback,
#          a negcam loop and akvcam, side by side (default: all three; alone:
#          v4l2loopback can panic the VM, see docs/loopback-peers.md)
# Each suite prints "NAME: N passed, N failed"; the exit status is 1 when any
# check failed. Logs go to $NEGCAM_RUN/logs/.

# Braces: bash reads the whole script before running it, so editing this
# file while a run is under way cannot break that run.
{
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "suites.sh runs inside the VM: use tests/vm/run.sh ${1:-quick}" >&2; exit 2; }
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=tests/vm/lib.sh
. "$VM_DIR/lib.sh"
# shellcheck source=tests/vm/negcam-suite.sh
. "$VM_DIR/negcam-suite.sh"
# shellcheck source=tests/vm/profiles-suite.sh
. "$VM_DIR/profiles-suite.sh"
# shellcheck source=tests/vm/shelf-suite.sh
. "$VM_DIR/shelf-suite.sh"
# shellcheck source=tests/vm/shelf-sweep-suite.sh
. "$VM_DIR/shelf-sweep-suite.sh"
# shellcheck source=tests/vm/gst-suite.sh
. "$VM_DIR/gst-suite.sh"
# shellcheck source=tests/vm/sink-suite.sh
. "$VM_DIR/sink-suite.sh"
# shellcheck source=tests/vm/mplane-suite.sh
. "$VM_DIR/mplane-suite.sh"
# shellcheck source=tests/vm/peer-suite.sh
. "$VM_DIR/peer-suite.sh"
# shellcheck source=tests/vm/pipewire-suite.sh
. "$VM_DIR/pipewire-suite.sh"

MODE=${1:-quick}
# The suite scripts read it (loop-suite.sh leaves its real clients out of
# quick). A part run alone takes the mode it stands for from the host
# (NEGCAM_VM_MODE=quick tests/vm/run.sh loop: the loop part as quick runs
# it; make test's rerun of a failed part, tests/run-all.sh).
export NEGCAM_VM_MODE=${NEGCAM_VM_MODE:-$MODE}
RUN_START=$(now)
read -r BOOT_UP _ < /proc/uptime
SUMMARY+=("VM: kernel $(uname -r), command started ${BOOT_UP}s after kernel start")

# ---------------------------------------------------------------- vivid --
VIVID=
suite_vivid() {
	local dev log t0
	suite_begin vivid
	if ! check "modprobe vivid" 60 modprobe vivid n_devs=1 node_types=0x1; then
		suite_end; return
	fi
	dev=$(wait_node vivid) || { fail "vivid: no /dev/video node appeared"; suite_end; return; }
	VIVID=$dev
	note "vivid capture node: $dev"

	log=$(logname "v4l2-compliance -s $dev")
	t0=$(now)
	timeout -k 5 300 v4l2-compliance -d "$dev" -s > "$log" 2>&1
	note "v4l2-compliance -s took $(secs_since "$t0")s"
	# vivid is the reference, not under test: its warnings (timing-dependent
	# request-control checks under TCG) are shown, not failed.
	compliance_check "vivid v4l2-compliance -s" "$log" 1

	check "vivid v4l2-ctl --list-formats-ext" 60 \
		bash -c "v4l2-ctl -d $dev --list-formats-ext | tee /dev/stderr | grep -q \"\\[0\\]: '\""
	check "vivid gst-launch v4l2src num-buffers=30 ! fakesink" 180 \
		gst-launch-1.0 -q v4l2src device="$dev" num-buffers=30 ! fakesink
	check "vivid gst-launch v4l2src ! video/x-raw,format=YUY2,width=640,height=480 ! fakesink" 180 \
		gst-launch-1.0 -q v4l2src device="$dev" num-buffers=30 ! video/x-raw,format=YUY2,width=640,height=480 ! fakesink
	check "vivid ffmpeg -f v4l2 yuyv422 640x480 5 frames" 180 \
		bash -c "ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -input_format yuyv422 -video_size 640x480 \
			-i $dev -frames:v 5 -fps_mode passthrough -f rawvideo -y /tmp/vivid.yuv &&
			s=\$(stat -c %s /tmp/vivid.yuv) && echo \"\$s bytes\" && [ \"\$s\" = $((640 * 480 * 2 * 5)) ]"
	rm -f /tmp/vivid.yuv
	dmesg_peer "vivid" vivid
	suite_end
}

# script_checks NAME SCRIPT TIMEOUT [ARGS]: a script printing PASS:/FAIL: lines
# and "NAME: N passed, N failed" at its end; one result per line.
script_checks() {
	local name=$1 script=$2 to=$(($3 * ${NEGCAM_VM_SLOW:-1})) log line
	shift 3
	rmmod negcam 2>/dev/null
	log=$(logname "$(basename "$script")")
	timeout -k 5 "$to" bash "$NEGCAM_TREE/$script" "$@" > "$log" 2>&1
	while IFS= read -r line; do
		case $line in
		PASS:*) pass "${line#PASS: }" ;;
		FAIL:*) fail "${line#FAIL: }" ;;
		esac
	done < "$log"
	grep -q "^$name: [0-9]* passed" "$log" || fail "$script did not finish (log $log)"
}

# suite_script NAME SCRIPT TIMEOUT: a suite that is one such script.
suite_script() {
	suite_begin "$1"
	script_checks "$@"
	dmesg_clean "$1"
	suite_end
}

# ----------------------------------------------------------------- kmod --
# The module's own checks beyond acceptance (tests/vm/kmod-suite.sh): configfs,
# sysfs counters, pacing, drops, alternate fields; then the scene moving on
# across streams (tests/vm/scene-time.sh); one result per check.
suite_kmod() {
	suite_begin kmod
	script_checks kmod tests/vm/kmod-suite.sh 600
	script_checks scene-time tests/vm/scene-time.sh 600
	dmesg_clean kmod
	suite_end
}

# ------------------------------------------------------------- provider --
# negcamdeviceprovider on real nodes (tests/vm/provider-suite.sh):
# gst-device-monitor-1.0 lists vivid's and negcam.ko's nodes with caps and
# the built-in profiles; insmod and simulated unplug are followed.
suite_provider() { suite_script provider tests/vm/provider-suite.sh 600; }

# ------------------------------------------------------------------ uvc --
# negcam-uvc behind the real uvcvideo through vhci-hcd (tests/vm/uvc-suite.sh,
# docs/uvc.md); not in quick or full yet.
suite_uvc() {
	local log
	suite_begin uvc
	script_checks uvc tests/vm/uvc-suite.sh 1200
	log=$(logname uvc-suite.sh)
	while IFS= read -r line; do SUMMARY+=("uvc: ${line#UVC-}"); done < <(grep -E '^UVC-(COMPLIANCE|TIME):' "$log")
	suite_end
}

# ----------------------------------------------------------------- loop --
# negcam.ko loops, an output node feeding capture nodes
# (tests/vm/loop-suite.sh, docs/loopback.md).
suite_loop() { suite_script loop tests/vm/loop-suite.sh 1200; }

# ---------------------------------------------------------------- storm --
# The concurrent ioctl storm on negcam.ko, then rmmod and the kernel log
# (tests/vm/storm-suite.sh; ARG vivid or all: on vivid too, not judged).
suite_storm() {
	local log
	suite_begin storm
	script_checks storm tests/vm/storm-suite.sh $((${NEGCAM_STORM_SECONDS:-60} * 3 + 300)) "$@"
	log=$(logname storm-suite.sh)
	sed -n '/^storm: operations/,/^storm: total/p; /^NOTE/p' "$log"
	while IFS= read -r line; do SUMMARY+=("storm: $line"); done < <(grep -E '^storm: total|^NOTE: vivid storm' "$log")
	suite_end
}

case "$MODE" in
vivid) suite_vivid ;;
storm) suite_storm "${2:-negcam}" ;;
loop) suite_loop ;;
kmod) suite_kmod ;;
provider) suite_provider ;;
uvc) suite_uvc ;;
gadget) suite_script gadget tests/vm/gadget-suite.sh 600 ;;
peer) shift; suite_peer "$@" ;;
profiles)
	# --dump of vivid into negcam.ko, the camera shelf (tests/vm/profiles-suite.sh)
	modprobe vivid n_devs=1 node_types=0x1 && VIVID=$(wait_node vivid)
	suite_profiles
	;;
shelf)
	# every shelf camera on negcam.ko: listing, v4l2-compliance -s
	# (tests/vm/shelf-suite.sh; make test-shelf)
	suite_shelf
	suite_shelf_sweep
	;;
shelf-sweep)
	# every (camera, format) of the shelf streamed on negcam.ko
	# (tests/vm/shelf-sweep-suite.sh)
	suite_shelf_sweep
	;;
gst)
	# negcamsrc on negcam.ko and vivid alone (tests/vm/gst-suite.sh)
	suite_gst "${2:-quick}"
	;;
sink)
	# negcamsink on vivid's output node alone (tests/vm/sink-suite.sh)
	suite_begin sink
	GST_NUMBERS=$LOGDIR/gst-numbers.txt
	: > "$GST_NUMBERS"
	suite_sink_checks
	while IFS= read -r line; do SUMMARY+=("sink: $line"); done < "$GST_NUMBERS"
	suite_end
	;;
mplane)
	# negcamsrc on vivid's multiplanar node alone (tests/vm/mplane-suite.sh)
	suite_begin mplane
	GST_NUMBERS=$LOGDIR/gst-numbers.txt
	: > "$GST_NUMBERS"
	suite_mplane_checks
	suite_end
	;;
negcam)
	# negcam.ko alone (quick settings), vivid loaded only as DMABUF exporter.
	modprobe vivid n_devs=1 node_types=0x1 && VIVID=$(wait_node vivid)
	suite_negcam "${2:-quick}"
	;;
quick|full)
	suite_vivid
	suite_negcam "$MODE"
	suite_kmod
	suite_loop
	suite_profiles
	suite_gst "$MODE"
	suite_provider
	suite_pipewire
	;;
pipewire)
	# the desktop's camera stack on negcam.ko (tests/vm/pipewire-suite.sh)
	suite_pipewire
	;;
*) echo "suites.sh: unknown suite '$MODE' (vivid, quick, full, negcam, kmod, loop, gst, sink, mplane, profiles, shelf, shelf-sweep, provider, peer, storm, pipewire, uvc, gadget)" >&2; exit 2 ;;
esac

echo
echo "======== summary ($MODE, $(secs_since "$RUN_START")s in the VM) ========"
printf '%s\n' "${SUMMARY[@]}"
if [ ${#FAILED[@]} -gt 0 ]; then
	echo "failed checks:"
	printf '  %s\n' "${FAILED[@]}"
fi
echo "vm $MODE: $T_PASS passed, $T_FAIL failed"
[ "$T_FAIL" = 0 ]
exit
}
