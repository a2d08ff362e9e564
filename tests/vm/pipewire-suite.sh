# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# The desktop's camera stack on negcam.ko (sourced by tests/vm/suites.sh,
# `tests/vm/run.sh pipewire`, and run by `quick`): systemd-udevd, a D-Bus
# session, pipewire and wireplumber as a desktop starts them (udevd and
# udevadm with SYSTEMD_IGNORE_CHROOT=1: the VM's 9p root looks like a
# chroot to systemd; WirePlumber's bluetooth monitor off: no logind; the
# build tree's udev rule, data/udev/60-negcam.rules running the build's
# negcam-ctl, in /run/udev/rules.d), then
#   pw_listed      negcam.ko's capture device and a loop's capture nodes are
#                  Video/Source nodes with media.role Camera before any
#                  producer runs, and the loop's output node is none;
#   pw_frames      pipewiresrc reads the loop's placeholder, then the
#                  producer's frames (negcamsrc pattern=solid through
#                  negcamconvertsink), told apart by vm-stamp --split;
#   pw_hotplug     a loop made by `negcam-ctl loop add` while PipeWire runs
#                  appears, and goes with `negcam-ctl loop remove`; udev's
#                  /dev/v4l/by-id/negcam-LABEL-* links too (and the insmod
#                  loop's, from `udevadm trigger`);
#   pw_loop_sizes  pipewiresrc asks the loop's capture node 320x240,
#                  640x480, 1280x720 and MJPG 1280x720 (negcamconvertsink
#                  producing): sizes asked against got (pipewire-sizes.sh);
#   pw_peer        v4l2loopback (Debian's, exclusive_caps=1, added before its
#                  producer) through the same steps: its outcomes are notes.
# NEGCAM_PW_CASES="pw_listed pw_loop_sizes" runs only those cases.
# docs/loopback.md ("PipeWire") has the recipe and the comparison.

# shellcheck source=tests/vm/pipewire-sizes.sh
. "$VM_DIR/pipewire-sizes.sh"

PW_HOME=/tmp/pw-home
PW_PIDS=()

# pw_start: udevd, D-Bus, pipewire, wireplumber; 1 when one did not start.
pw_start() {
	export SYSTEMD_IGNORE_CHROOT=1 XDG_RUNTIME_DIR=/tmp/pw-xdg HOME=$PW_HOME
	export XDG_CONFIG_HOME=$PW_HOME/.config
	mkdir -p -m 700 "$XDG_RUNTIME_DIR"
	mkdir -p /run/udev "$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d"
	# sorted before 90-enable-all.lua, which starts the monitor
	echo 'bluez_monitor.enabled = false' > "$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d/51-negcam-off.lua"
	mkdir -p /run/udev/rules.d
	sed "s|@NEGCAM_CTL@|$NEGCAM_BUILD/ctl/negcam-ctl|" "$NEGCAM_TREE/data/udev/60-negcam.rules" \
		> /run/udev/rules.d/60-negcam.rules || return 1
	/lib/systemd/systemd-udevd --daemon || return 1
	udevadm trigger --action=add && udevadm settle -t 30
	dbus-daemon --session --fork --print-address=3 3> /tmp/pw-dbus.addr || return 1
	DBUS_SESSION_BUS_ADDRESS=$(head -n1 /tmp/pw-dbus.addr)
	export DBUS_SESSION_BUS_ADDRESS
	pipewire > "$(logname pipewire)" 2>&1 &
	PW_PIDS+=($!)
	sleep 1
	wireplumber > "$(logname wireplumber)" 2>&1 &
	PW_PIDS+=($!)
	pw_wait_class "Video/Source" 1 60
}

pw_stop() {
	kill "${PW_PIDS[@]}" 2>/dev/null
	wait "${PW_PIDS[@]}" 2>/dev/null
	PW_PIDS=()
	udevadm control --exit 2>/dev/null
	pkill -f 'dbus-daemon --session' 2>/dev/null
}

# pw_nodes: "CLASS|ROLE|PATH|NAME" of every PipeWire node, one a line.
pw_nodes() {
	timeout 30 pw-dump 2>/dev/null | python3 -c '
import json, sys
for o in json.load(sys.stdin):
    p = (o.get("info") or {}).get("props") or {}
    if o.get("type") == "PipeWire:Interface:Node" and "media.class" in p:
        print("%s|%s|%s|%s" % (p.get("media.class"), p.get("media.role", ""),
                               p.get("api.v4l2.path", ""), p.get("node.name", "")))'
}

# pw_wait_class CLASS N SECONDS: until at least N nodes of CLASS are listed.
pw_wait_class() {
	local _
	for _ in $(seq "$3"); do
		[ "$(pw_nodes | grep -c "^$1|")" -ge "$2" ] && return 0
		sleep 1
	done
	return 1
}

# pw_source_of NODE: the node.name of the Video/Source reading /dev/NODE.
pw_source_of() { pw_nodes | awk -F'|' -v p="$1" '$1 == "Video/Source" && $3 == p { print $4 }'; }

# pw_wait_source NODE SECONDS [gone]: until /dev/NODE is (or is no longer) a source.
pw_wait_source() {
	local _
	for _ in $(seq "$2"); do
		if [ -n "$(pw_source_of "$1")" ]; then [ -z "${3:-}" ] && return 0
		else [ -n "${3:-}" ] && return 0; fi
		sleep 1
	done
	return 1
}

pw_listed() {
	local c920 out cap0 cap1 row
	c920=$(node_by_card "HD Pro Webcam C920") out=$(node_by_card "PWCam (output)")
	cap0=$(node_by_card "PWCam") cap1=$(node_by_card "PWCam (2)")
	for row in "C920 device:$c920" "loop capture 0:$cap0" "loop capture 1:$cap1"; do
		if [ -n "${row#*:}" ] && pw_wait_source "${row#*:}" 30 &&
			pw_nodes | grep -q "^Video/Source|Camera|${row#*:}|"; then
			pass "pipewire: ${row%%:*} ${row#*:} is a Video/Source node, media.role Camera, no producer running"
		else
			fail "pipewire: ${row%%:*} ${row#*:} not listed as a Camera source: $(pw_nodes | tr '\n' ' ')"
		fi
	done
	if [ -n "$out" ] && [ -z "$(pw_source_of "$out")" ]; then
		pass "pipewire: the loop's output node $out is no Video/Source node"
	else
		fail "pipewire: the loop's output node '$out' is listed as a source, or was not found"
	fi
}

# pw_consumer NAME FILE LOG: pipewiresrc on node NAME, 640x480 YUY2, the top
# SINK_TOP lines of each frame as GRAY8 appended to FILE; sets SINK_CONS.
pw_consumer() {
	gst-launch-1.0 -q -e pipewiresrc target-object="$1" \
		stream-properties="props,media.type=Video,media.category=Capture,media.role=Camera" ! \
		video/x-raw,format=YUY2,width=640,height=480 ! videocrop bottom=$((480 - SINK_TOP)) ! \
		videoconvert ! video/x-raw,format=GRAY8 ! filesink location="$2" > "$3" 2>&1 &
	SINK_CONS=$!
}

# pw_frames OUT CAP WHO: placeholder first, then the producer's frames.
pw_frames() {
	local out=$1 cap=$2 who=$3 name d=/tmp/pw-frames plog prod st n0 _
	mkdir -p "$d"; rm -f "$d/c.gray"
	name=$(pw_source_of "$cap")
	[ -n "$name" ] || { fail "$who: pipewiresrc: $cap is no PipeWire source"; return; }
	pw_consumer "$name" "$d/c.gray" "$(logname "$who pipewiresrc")"
	st=$SINK_CONS
	for _ in $(seq 300); do [ "$(sink_frames_in "$d/c.gray" 640)" -ge 15 ] && break; sleep 0.2; done
	note "$who: pipewiresrc has $(sink_frames_in "$d/c.gray" 640) frames before the producer starts"
	plog=$(logname "$who producer")
	GST_PLUGIN_PATH="$NEGCAM_BUILD/gst" gst-launch-1.0 -e negcamsrc pattern=solid is-live=true ! \
		negcamconvertsink device="$out" > "$plog" 2>&1 &
	prod=$!
	# 90 frames more than before the producer: the producer's pipeline
	# starts in 1 to 3 s under TCG, so at least 10 of its frames come.
	n0=$(sink_frames_in "$d/c.gray" 640)
	for _ in $(seq 450); do [ "$(sink_frames_in "$d/c.gray" 640)" -ge $((n0 + 90)) ] && break; sleep 0.2; done
	sink_stop "$SINK_CONS"; st=$?
	sink_stop "$prod"
	sink_judge "$who: pipewiresrc reads the placeholder, then the producer's frames" \
		"$st" "$d/c.gray" 640 '^g+.*P{10}'
}

# pw_hotplug: a loop added while PipeWire runs appears; removed, it goes.
pw_hotplug() {
	local log cap
	log=$(logname "negcam-ctl loop add")
	if ! "$NEGCAM_BUILD/ctl/negcam-ctl" loop add --label "PW Hot" --profile webcam > "$log" 2>&1; then
		fail "pipewire: negcam-ctl loop add --label 'PW Hot' failed: $(tr '\n' ' ' < "$log")"
		return
	fi
	cap=$(node_by_card "PW Hot")
	if [ -n "$cap" ] && pw_wait_source "$cap" 60; then
		pass "pipewire: a loop added while PipeWire runs appears ($cap)"
	else
		fail "pipewire: the added loop's capture node '$cap' never appeared: $(pw_nodes | tr '\n' ' ')"
	fi
	byid_links "udev: the added loop's /dev/v4l/by-id/negcam-PW_Hot-output and -capture0" present PW_Hot
	"$NEGCAM_BUILD/ctl/negcam-ctl" loop remove "PW Hot" >> "$log" 2>&1
	byid_links "udev: negcam-PW_Hot-* gone after loop remove" gone PW_Hot
	if [ -n "$cap" ] && pw_wait_source "$cap" 60 gone; then
		pass "pipewire: the removed loop's source node goes ($cap)"
	else
		fail "pipewire: $cap still listed after negcam-ctl loop remove"
	fi
}

# pw_peer: v4l2loopback exclusive_caps=1 through the same steps, as notes.
pw_peer() {
	local ko=$NEGCAM_TREE/tests/vm/out/v4l2loopback-$(uname -r)/v4l2loopback.ko dev listed prod
	[ -f "$ko" ] || { skip "pipewire: v4l2loopback not built ($ko)"; return; }
	modprobe videodev && insmod "$ko" devices=1 exclusive_caps=1 card_label=PWPeer ||
		{ skip "pipewire: v4l2loopback did not load"; return; }
	dev=$(wait_node "v4l2 loopback")
	udevadm settle -t 30
	pw_wait_source "$dev" 20 && listed=yes || listed=no
	note "pipewire, v4l2loopback exclusive_caps=1: listed as a source before its producer: $listed"
	gst-launch-1.0 -q videotestsrc is-live=true ! video/x-raw,format=YUY2,width=640,height=480 ! \
		v4l2sink device="$dev" > /dev/null 2>&1 &
	prod=$!
	pw_wait_source "$dev" 20 && listed=yes || listed=no
	note "pipewire, v4l2loopback exclusive_caps=1: listed once its producer streams: $listed"
	PW_PEER_RESULT=$listed
	kill "$prod" 2>/dev/null; wait "$prod" 2>/dev/null
	rmmod v4l2loopback 2>/dev/null
}

suite_pipewire() {
	local out cap0 c
	suite_begin pipewire
	if ! command -v pipewire > /dev/null || ! command -v wireplumber > /dev/null; then
		skip "pipewire: pipewire or wireplumber not installed (make deps)"
		suite_end; return
	fi
	negcam_unload 2>/dev/null
	if ! check "insmod negcam.ko devices=1 (logitech-c920) loops=1 loop_captures=2 label PWCam" 60 \
		negcam_load devices=1 profile=logitech-c920 loops=1 loop_captures=2 loop_labels=PWCam; then
		suite_end; return
	fi
	if pw_start; then
		pass "pipewire: udevd, D-Bus, pipewire and wireplumber up, a Video/Source listed"
		byid_links "udev: the insmod loop's /dev/v4l/by-id/negcam-PWCam-output, -capture0, -capture1" \
			present PWCam 2
		out=$(node_by_card "PWCam (output)") cap0=$(node_by_card "PWCam")
		for c in ${NEGCAM_PW_CASES:-pw_listed pw_frames pw_loop_sizes pw_hotplug pw_peer}; do
			case $c in
			pw_frames) pw_frames "$out" "$cap0" "pipewire negcam loop" ;;
			pw_loop_sizes) pw_loop_sizes "$out" "$cap0" ;;
			*) "$c" ;;
			esac
		done
	else
		fail "pipewire: the desktop stack did not start (logs $(logname pipewire), $(logname wireplumber))"
	fi
	pw_stop
	negcam_unload
	suite_end
}
