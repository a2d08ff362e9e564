# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# The whole camera shelf on negcam.ko (issue 35 item 4; sourced by
# suites.sh; runs in the VM; `make test-shelf`, not in `make test`):
# every real camera, the six built in and the data files of data/cameras
# (docs/cameras.md), is loaded into one negcam.ko device through configfs
# ('builtin' for a built-in, 'profile_large' for a file's text), then
#   1. the node's v4l2-ctl --list-formats-ext equals negcam-ctl --profile NAME's;
#   2. v4l2-compliance -s on the node is clean, the known NV12 description
#      skew aside (compliance_check); sequence-gap-only runs are repeated
#      (compliance_retry); a profile with quirks may warn, as in negcam-suite.sh.
# NEGCAM_VM_PROFILES="a b" narrows it to those cameras. Each camera's
# result and time go to the summary, which `make test-shelf` records in
# docs/cameras.md by hand.

SHELF_CTL=$NEGCAM_BUILD/ctl/negcam-ctl

# The shelf's cameras, one name a line: the built-ins that cite a source
# (the four synthetic ones do not), then the shelf directory's files.
shelf_cameras() {
	local name
	for name in $("$SHELF_CTL" --list-profiles | awk 'NF == 0 { exit } { print $1 }'); do
		"$SHELF_CTL" --show-profile "$name" | grep -q '^# Source:' && echo "$name"
	done
	"$SHELF_CTL" --list-profiles | awk '/^camera shelf/ { on = 1; next } on && /^  / { print $1 }' | sort
}

# shelf_load NAME CFS: NAME in force on the configfs device CFS.
shelf_load() {
	local name=$1 cfs=$2 file
	file=$NEGCAM_BUILD/data/cameras/$name.profile
	if [ -f "$file" ]; then
		cat "$file" > "$cfs/profile_large" || return 1
	else
		echo "$name" > "$cfs/builtin" || return 1
	fi
	grep -q "^ok: profile $name\$" "$cfs/status"
}

# One camera: load, listing, v4l2-compliance -s.
shelf_camera() {
	local name=$1 cfs=$2 node=$3 log t0 allow=0 quirks
	if ! check "$name: into negcam.ko through configfs" 60 shelf_load "$name" "$cfs"; then
		sed 's/^/  | /' "$cfs/status"
		return
	fi
	"$SHELF_CTL" --profile "$name" --list-formats-ext > /tmp/shelf-ctl.txt 2>&1
	check "$name: v4l2-ctl --list-formats-ext = negcam-ctl's" 60 \
		bash -c "v4l2-ctl -d $node --list-formats-ext | diff -u /tmp/shelf-ctl.txt -"
	quirks=$("$SHELF_CTL" --show-profile "$name" 2>/dev/null | sed -n 's/^quirks[[:space:]]*//p')
	[ -n "$quirks" ] && allow=1 && note "$name has the quirks '$quirks': v4l2-compliance warnings are expected and listed"
	log=$(logname "$name v4l2-compliance -s")
	t0=$(now)
	if [ "$allow" = 1 ]; then
		timeout -k 5 600 v4l2-compliance -d "$node" -s > "$log" 2>&1
	else
		compliance_retry "shelf $name v4l2-compliance -s" "$log" 600 -d "$node" -s
	fi
	note "$name: v4l2-compliance -s took $(secs_since "$t0")s"
	tr '\r' '\n' < "$log" > /tmp/shelf-compliance.txt
	if [ "$allow" = 0 ] && shelf_skew_first /tmp/shelf-compliance.txt "$node"; then
		allow=1
		note "$name: NV12 is format 0, where the NV12 description skew stops v4l2-compliance's ENUM_FMT walk: its S_PARM/ENUM_FRAMEINTERVALS warning is that skew's consequence, allowed"
	fi
	compliance_check "shelf $name v4l2-compliance -s" "$log" "$allow"
}

export -f shelf_load

# True when the run's one warning beyond timing is v4l2-compliance 1.22.1's
# "S_PARM is supported ..., but not for ENUM_FRAMEINTERVALS" and the NV12
# skew is there with NV12 as format 0: the skew stops its ENUM_FMT walk at
# index 0, so it saw no format and no interval (the Cam Link 4K, whose
# only formats are NV12 and YU12). A consequence of the skew, not a finding.
shelf_skew_first() {
	local clean=$1 node=$2
	grep -qE "$SKEW_LINE" "$clean" || return 1
	v4l2-ctl -d "$node" --list-formats | grep -q "^[[:space:]]*\[0\]: 'NV12'" || return 1
	[ "$(grep -E '^[[:space:]]*warn: ' "$clean" | grep -vE "$TIMING_WARN" |
		grep -vc 'S_PARM is supported for buftype 1, but not for ENUM_FRAMEINTERVALS')" = 0 ]
}

suite_shelf() {
	local node cfs name names t0 n=0
	suite_begin shelf
	if [ ! -x "$SHELF_CTL" ] || [ ! -d "$NEGCAM_BUILD/data/cameras" ]; then
		fail "no $SHELF_CTL or $NEGCAM_BUILD/data/cameras (meson build dir NEGCAM_BUILD=$NEGCAM_BUILD)"
		suite_end; return
	fi
	export NEGCAM_BUILD
	[ -d /sys/module/negcam ] && negcam_unload
	if ! check "insmod negcam.ko" 60 negcam_load; then
		suite_end; return
	fi
	node=$(wait_node negcam)
	cfs=$(prof_cfs_dir)
	if [ -z "$node" ] || [ -z "$cfs" ]; then
		fail "negcam: node '$node' / configfs '$cfs' missing"
		negcam_unload; suite_end; return
	fi
	names=${NEGCAM_VM_PROFILES:-$(shelf_cameras)}
	t0=$(now)
	for name in $names; do
		n=$((n + 1))
		shelf_camera "$name" "$cfs" "$node"
	done
	note "the shelf: $n cameras in $(secs_since "$t0")s"
	SUMMARY+=("shelf: $n cameras, v4l2-compliance -s and the listing in $(secs_since "$t0")s")
	check "rmmod negcam" 60 negcam_unload
	dmesg_clean shelf
	suite_end
}
