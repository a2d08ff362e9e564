#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# negcamdeviceprovider in the VM, on real nodes, with vivid and negcam.ko
# loaded. By default (no NEGCAM_PROVIDER_*, no provider.conf)
# `gst-device-monitor-1.0 Video/Source` lists no negcam profile and no
# node through negcamsrc: each node at most once, v4l2deviceprovider's
# (which, without udev in the VM, lists none). With NEGCAM_PROVIDER_NODES=1
# (v4l2deviceprovider hidden) and every built-in profile named in
# NEGCAM_PROVIDER_PROFILES, it lists both nodes through negcamsrc, once
# each (device.path, caps, launch line
# "negcamsrc device=NODE"), the negcam.ko node with the caps of the
# embedded profile it plays, and every built-in profile. Then hotplug: a
# monitor in follow mode (-f) sees the negcam.ko node added on insmod,
# modified with the new profile's caps after a configfs profile swap
# (V4L2_EVENT_SOURCE_CHANGE), and removed on the simulated unplug
# (/sys/devices/platform/negcam.N/unplug).
#   tests/vm/run.sh tests/vm/provider-suite.sh     (also: suites.sh quick|full)
# Prints PASS/FAIL lines and "provider: N passed, N failed"; exit status 1
# on any failure.

# Braces: bash reads the whole script before running it, so editing this
# file while a run is under way cannot break that run.
{
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "run it in the VM: tests/vm/run.sh tests/vm/provider-suite.sh" >&2; exit 2; }
cd "$NEGCAM_TREE" || exit 2
BUILD=${NEGCAM_BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD=$NEGCAM_TREE/$BUILD ;; esac
CTL=$BUILD/ctl/negcam-ctl
export GST_PLUGIN_PATH=$BUILD/gst
OUT=${NEGCAM_RUN:-/tmp}/provider
mkdir -p "$OUT"
MON_PID=
# pass, fail, negcam_load, negcam_unload, wait_node: the one VM shell library
# shellcheck source=tests/vm/lib.sh
. "$NEGCAM_TREE/tests/vm/lib.sh"
suite_begin provider

finish() {
	[ -n "$MON_PID" ] && kill "$MON_PID" 2>/dev/null
	rmmod negcam 2>/dev/null
	suite_end
	[ "$S_FAIL" = 0 ]
	exit
}
load() { negcam_load "$@"; }
unload() { negcam_unload; }
node_of() { wait_node "$@"; }

# The record of listing $1 (one device: "found:"/"added:" and its lines)
# that contains the text $2, e.g. "negcamsrc device=/dev/video0 ".
record_with() {
	awk -v want="$2" 'BEGIN { RS = "\nDevice " } index($0, want) { print }' "$1"
}

# The caps lines of a block (first after "caps  :", then the continuation
# lines up to "properties:").
caps_of() {
	awk '/^\tcaps  : / { on = 1; sub(/^\tcaps  : /, ""); print; next }
		/^\tproperties:/ { on = 0 } on { sub(/^[ \t]+/, ""); print }'
}

[ -e "$BUILD/gst/libgstnegcam.so" ] || { fail "no plugin $BUILD/gst/libgstnegcam.so (NEGCAM_BUILD)"; finish; }
[ -e "$KO" ] || { fail "no module $KO"; finish; }
command -v gst-device-monitor-1.0 >/dev/null ||
	{ fail "gst-device-monitor-1.0 missing (Debian gstreamer1.0-plugins-base-apps)"; finish; }
gst-inspect-1.0 negcam > "$OUT/inspect.txt" 2>&1
grep -q negcamdeviceprovider "$OUT/inspect.txt" || { fail "negcamdeviceprovider not registered (see $OUT/inspect.txt)"; finish; }

# ---- static listing: vivid + negcam.ko ----
unload 2>/dev/null
modprobe vivid n_devs=1 node_types=0x1 || { fail "modprobe vivid"; finish; }
VIVID=$(node_of vivid) || { fail "no vivid node"; finish; }
load || { fail "insmod $KO"; finish; }
NEGCAM=$(node_of negcam) || { fail "no negcam.ko node"; finish; }
echo "  vivid $VIVID, negcam.ko $NEGCAM"

# ---- default: nothing of negcam, each node at most once ----
mkdir -p "$OUT/empty-config"
DEF=$OUT/monitor-default.txt
env -u NEGCAM_PROVIDER_PROFILES -u NEGCAM_PROVIDER_NODES XDG_CONFIG_HOME="$OUT/empty-config" \
	timeout -k 5 300 gst-device-monitor-1.0 Video/Source > "$DEF" 2>&1
for n in "$NEGCAM" "$VIVID"; do
	c=$(awk -v want="device.path = $n" 'BEGIN { RS = "\nDevice " } index($0, want "\n") { k++ } END { print k + 0 }' "$DEF")
	if [ "$c" -le 1 ]; then
		pass "default listing: $n listed $c time(s) (v4l2deviceprovider's; it needs udev, absent here)"
	else
		fail "default listing: $n listed $c times (log $DEF)"
	fi
done
if grep -q "negcamsrc" "$DEF"; then
	fail "default listing names negcamsrc: nothing of negcam is listed unless asked (log $DEF)"
else
	pass "default listing: no negcam profile, no negcamsrc entry"
fi

# From here: the nodes asked for (v4l2deviceprovider hidden), every
# built-in profile named.
export NEGCAM_PROVIDER_NODES=1
NEGCAM_PROVIDER_PROFILES=$("$CTL" --list-profiles 2>/dev/null | awk 'NF == 0 { exit } { print $1 }' | paste -sd, -)
export NEGCAM_PROVIDER_PROFILES

LIST=$OUT/monitor.txt
t0=$(date +%s%N)
if timeout -k 5 300 gst-device-monitor-1.0 Video/Source > "$LIST" 2>&1; then
	pass "gst-device-monitor-1.0 Video/Source ran ($(( ($(date +%s%N) - t0) / 1000000 )) ms)"
else
	fail "gst-device-monitor-1.0 Video/Source: exit $? (log $LIST)"
fi

for n in "$NEGCAM" "$VIVID"; do
	c=$(awk -v want="device.path = $n" 'BEGIN { RS = "\nDevice " } index($0, want "\n") { k++ } END { print k + 0 }' "$LIST")
	[ "$c" = 1 ] && pass "$n listed once with NEGCAM_PROVIDER_NODES=1" ||
		fail "$n listed $c times with NEGCAM_PROVIDER_NODES=1 (log $LIST)"
	b=$(record_with "$LIST" "negcamsrc device=$n ")
	nc=$(caps_of <<< "$b" | grep -c '^\(video/\|image/\)')
	if grep -q "device.path = $n\$" <<< "$b" && grep -q "device.api = v4l2" <<< "$b" &&
		grep -q "class : Video/Source" <<< "$b" && [ "$nc" -gt 0 ]; then
		pass "$n listed by negcamdeviceprovider: $(sed -n 's/^\tname  : //p' <<< "$b"), $nc caps structures"
	else
		fail "$n not listed by negcamdeviceprovider with caps (log $LIST)"
	fi
	printf '%s\n' "$b" > "$OUT/block-$(basename "$n").txt"
	# The element create_element() made, as the monitor prints it, streams.
	el=$(sed -n 's/^\tgst-launch-1.0 \(negcamsrc .*\) ! \.\.\.$/\1/p' <<< "$b" | head -n1)
	if [ -n "$el" ] && timeout -k 5 120 gst-launch-1.0 -q $el num-buffers=5 ! fakesink \
		> "$OUT/launch-$(basename "$n").txt" 2>&1; then
		pass "$n: the listed element ($el) streams 5 buffers"
	else
		fail "$n: the listed element '$el' did not stream (log $OUT/launch-$(basename "$n").txt)"
	fi
done

# negcam.ko plays the webcam profile by default: the node's caps must be
# the embedded webcam profile's (the same enumeration code both ways).
kb=$(record_with "$LIST" "negcamsrc device=$NEGCAM ")
eb=$(awk 'BEGIN { RS = "\nDevice " } /negcam.profile = webcam/ && /device.api = negcam/ { print }' "$LIST")
if [ -n "$kb" ] && [ -n "$eb" ] && [ "$(caps_of <<< "$kb")" = "$(caps_of <<< "$eb")" ]; then
	pass "negcam.ko node caps equal the embedded webcam profile's ($(caps_of <<< "$kb" | wc -l) structures)"
else
	caps_of <<< "$kb" > "$OUT/caps-kmod.txt"
	caps_of <<< "$eb" > "$OUT/caps-embedded.txt"
	fail "negcam.ko node caps differ from the embedded webcam profile's (see $OUT/caps-*.txt)"
fi
grep -q "negcam.profile = webcam" <<< "$kb" && pass "negcam.ko node has negcam.profile = webcam" ||
	fail "negcam.ko node without negcam.profile (log $LIST)"

for p in $("$CTL" --list-profiles 2>/dev/null | awk 'NF == 0 { exit } { print $1 }'); do
	eb=$(awk -v want="negcam.profile = $p" 'BEGIN { RS = "\nDevice " } index($0, want) && /device.api = negcam/ { print }' "$LIST")
	if [ -n "$eb" ] && [ "$(caps_of <<< "$eb" | grep -c .)" -gt 0 ]; then
		pass "built-in profile $p listed with caps"
	else
		fail "built-in profile $p not listed with caps (log $LIST)"
	fi
done

# ---- hotplug: insmod adds, simulated unplug removes ----
unload || fail "rmmod negcam before the hotplug check"
FOLLOW=$OUT/follow.txt
stdbuf -oL gst-device-monitor-1.0 -f Video/Source > "$FOLLOW" 2>&1 &
MON_PID=$!
# In follow mode the tool prints "Monitoring devices" first, then the
# initial devices, then one "Device found:" record per device added and
# "Device removed:" with the name per device removed. Wait for the initial
# listing (vivid's node through negcamsrc) before plugging.
for i in $(seq 600); do grep -q "negcamsrc device=$VIVID " "$FOLLOW" && break; sleep 0.1; done
grep -q "negcamsrc device=$VIVID " "$FOLLOW" || fail "gst-device-monitor-1.0 -f: no initial listing within 60 s (log $FOLLOW)"
awk 'BEGIN { RS = "\nDevice " } /v4l2.device.driver = negcam\n/ && /device.path = / { n++ } END { exit !n }' "$FOLLOW" &&
	fail "a negcam.ko node is listed before insmod (log $FOLLOW)"

load || { fail "insmod $KO for hotplug"; finish; }
NEGCAM=$(node_of negcam) || { fail "no negcam.ko node after insmod"; finish; }
for i in $(seq 300); do grep -q "gst-launch-1.0 negcamsrc device=$NEGCAM " "$FOLLOW" && break; sleep 0.1; done
added=$(record_with "$FOLLOW" "negcamsrc device=$NEGCAM ")
if [ -n "$added" ] && [ "$(caps_of <<< "$added" | grep -c .)" -gt 0 ]; then
	pass "hotplug: insmod negcam.ko -> device added ($NEGCAM) with caps"
else
	fail "hotplug: no 'Device added' for $NEGCAM within 30 s (log $FOLLOW)"
fi

idx=$(v4l2-ctl -d "$NEGCAM" -D | sed -n 's/.*Bus info *: platform:negcam-\([0-9]*\)$/\1/p')

# configfs profile swap: the listing follows V4L2_EVENT_SOURCE_CHANGE.
CFS=/sys/kernel/config/negcam/negcam-$idx
vga=$(awk 'BEGIN { RS = "\nDevice " } /negcam.profile = vga\n/ && /device.api = negcam/ { print }' "$LIST")
if [ ! -e "$CFS/builtin" ]; then
	fail "no configfs attribute $CFS/builtin (docs/kmod.md)"
elif ! echo vga > "$CFS/builtin"; then
	fail "configfs swap to vga refused: $(cat "$CFS/status" 2>/dev/null)"
else
	modified() { awk -v want="negcamsrc device=$NEGCAM " 'BEGIN { RS = "\nDevice " } /^modified:/ && index($0, want) { r = $0 } END { printf "%s", r }' "$FOLLOW"; }
	for i in $(seq 300); do [ -n "$(modified)" ] && break; sleep 0.1; done
	m=$(modified)
	if [ -z "$m" ]; then
		fail "configfs swap: no 'Device modified' for $NEGCAM within 30 s (log $FOLLOW)"
	elif [ -n "$vga" ] && [ "$(caps_of <<< "$m")" = "$(caps_of <<< "$vga")" ]; then
		pass "configfs swap to vga: $NEGCAM modified, now with vga's caps ($(caps_of <<< "$m" | wc -l) lines)"
	else
		caps_of <<< "$m" > "$OUT/caps-swapped.txt"
		caps_of <<< "$vga" > "$OUT/caps-vga.txt"
		fail "configfs swap: the modified listing's caps are not vga's (see $OUT/caps-swapped.txt, caps-vga.txt)"
	fi
fi

UNPLUG=/sys/devices/platform/negcam.$idx/unplug
if [ -e "$UNPLUG" ]; then
	echo 1 > "$UNPLUG"
	removed() { awk -v want="($NEGCAM)" 'BEGIN { RS = "\nDevice " } /^removed:/ && index($0, want) { n++ } END { exit !n }' "$FOLLOW"; }
	for i in $(seq 300); do removed && break; sleep 0.1; done
	if removed; then
		pass "hotplug: simulated unplug -> device removed ($NEGCAM)"
	else
		fail "hotplug: no 'Device removed' for $NEGCAM within 30 s of the unplug (log $FOLLOW)"
	fi
else
	fail "no unplug attribute $UNPLUG"
fi
kill "$MON_PID" 2>/dev/null
wait "$MON_PID" 2>/dev/null
MON_PID=
unload
finish
}
