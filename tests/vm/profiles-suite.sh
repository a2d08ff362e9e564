# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# Profiles from real devices (issue 7), sourced by suites.sh; runs in the VM.
#   1. negcam-ctl --dump of vivid (a real V4L2 driver, 83 capture formats);
#   2. the dump loaded into negcam.ko at run time through configfs
#      (profile_large: the text is larger than one configfs write);
#   3. v4l2-ctl --list-formats-ext on the negcam node against vivid's node,
#      byte for byte, and against negcam-ctl on the same profile;
#   4. every built-in camera of the shelf (docs/cameras.md) through the
#      configfs 'builtin' file and one through the profile= module parameter:
#      the node lists as negcam-ctl --profile NAME does.
#
# Nothing is normalised: the header lines ("ioctl: VIDIOC_ENUM_FMT",
# "Type: Video Capture") are equal on both nodes and nothing else in this
# listing is device-specific. Every vivid fourcc is in negcam's table (the
# dump runs without --drop-unknown, so a new one fails here) and the CSC
# flags vivid reports are the profile's 'flags' lines.

PROF_CTL=$NEGCAM_BUILD/ctl/negcam-ctl
PROF_KO=${NEGCAM_KO:-$NEGCAM_TREE/kmod/negcam.ko}
PROF_CFS=/sys/kernel/config/negcam

prof_cfs_dir() {
	local d
	for d in "$PROF_CFS"/negcam-0 "$PROF_CFS"/0; do
		[ -d "$d" ] && { echo "$d"; return 0; }
	done
	return 1
}

suite_profiles() {
	local vivid node cfs err raw ours ctl n_csc n_flags t0 name log bad n i size fcc allow
	suite_begin profiles
	if [ ! -x "$PROF_CTL" ]; then
		fail "no $PROF_CTL (meson build dir NEGCAM_BUILD=$NEGCAM_BUILD)"
		suite_end; return
	fi
	if [ ! -f "$PROF_KO" ]; then
		skip "no $PROF_KO: build it with make -C kmod"
		suite_end; return
	fi
	[ -d /sys/module/negcam ] && rmmod negcam 2>/dev/null
	# --dump records the device's current format as the profile's default;
	# earlier suites changed vivid's (negcam-suite sets 3840x2160 XR24 for
	# DMABUF export), so load it afresh: the dump then describes vivid as
	# an application finds it after boot.
	[ -d /sys/module/vivid ] && rmmod vivid 2>/dev/null
	vivid=
	modprobe vivid n_devs=1 node_types=0x1 && vivid=$(wait_node vivid)
	VIVID=$vivid
	if [ -z "$vivid" ]; then
		fail "vivid: no capture node to dump"
		suite_end; return
	fi
	note "vivid node: $vivid ($(v4l2-ctl -d "$vivid" -V | sed -n 's/.*Width\/Height *: //p') $(v4l2-ctl -d "$vivid" -V | sed -n "s/.*Pixel Format *: //p"))"

	# 1. --dump
	err=/tmp/prof-dump.err
	check "negcam-ctl --dump $vivid --name vivid (every fourcc known)" 300 \
		bash -c "'$PROF_CTL' --dump '$vivid' --name vivid > /tmp/vivid.profile 2> $err; rc=\$?; cat $err; exit \$rc"
	n_csc=$(v4l2-ctl -d "$vivid" --list-formats | grep -c 'csc-')
	n_flags=$(grep -c '^  flags ' /tmp/vivid.profile)
	note "vivid: $(v4l2-ctl -d "$vivid" --list-formats | grep -c "^\s*\[") formats, $n_csc with csc-* flags;" \
		"the dump has $n_flags 'flags' lines"
	check "every format with CSC flags got a 'flags' line ($n_csc = $n_flags)" 10 test "$n_csc" = "$n_flags"
	check "the dump warns about no flag" 10 bash -c "! grep -q 'cannot set' $err"
	note "dumped profile: $(wc -c < /tmp/vivid.profile) bytes, $(grep -c '^format ' /tmp/vivid.profile) formats," \
		"$(grep -c '^  size ' /tmp/vivid.profile) size lines (pools: $(grep -o 'NC_MAX_[A-Z]* [0-9]*' "$NEGCAM_TREE/engine/profile.h" | head -3 | tr '\n' ' '))"
	check "the dumped profile validates" 60 "$PROF_CTL" --validate /tmp/vivid.profile

	# 2. into negcam.ko at run time
	if ! check "insmod negcam.ko" 60 bash -c "negcam_load"; then
		suite_end; return
	fi
	node=$(wait_node negcam)
	cfs=$(prof_cfs_dir)
	if [ -z "$node" ] || [ -z "$cfs" ]; then
		fail "negcam: node '$node' / configfs '$cfs' missing"
		rmmod negcam; suite_end; return
	fi
	if [ "$(wc -c < /tmp/vivid.profile)" -lt 4096 ]; then
		check "vivid profile into configfs profile" 60 bash -c "cat /tmp/vivid.profile > $cfs/profile"
	else
		note "the dump is $(wc -c < /tmp/vivid.profile) bytes: above one configfs write (4095), written to profile_large"
		check "vivid profile into configfs profile_large" 60 bash -c "cat /tmp/vivid.profile > $cfs/profile_large"
	fi
	check "configfs status: ok: profile vivid" 10 bash -c "cat $cfs/status; grep -q '^ok: profile vivid' $cfs/status"

	# 3. the listings
	raw=/tmp/prof-vivid.raw ours=/tmp/prof-negcam.txt ctl=/tmp/prof-ctl.txt
	v4l2-ctl -d "$vivid" --list-formats-ext > "$raw"
	v4l2-ctl -d "$node" --list-formats-ext > "$ours"
	"$PROF_CTL" --profile /tmp/vivid.profile --list-formats-ext > "$ctl"
	note "listing lines: vivid $(wc -l < "$raw"), negcam $(wc -l < "$ours")"
	# exact: a failure shows the unified diff (vivid first) in the log
	check "v4l2-ctl --list-formats-ext: negcam node = vivid node, byte for byte" 30 \
		diff -u --label "vivid $vivid" --label "negcam $node" "$raw" "$ours"
	check "v4l2-ctl --list-formats-ext: negcam node = negcam-ctl --profile vivid.profile" 30 \
		diff -u "$ctl" "$ours"
	# the CSC flags are promises: SET_CSC on TRY/S_FMT is honoured (docs/engine.md)
	log=$LOGDIR/profiles-vivid-compliance.log
	t0=$(date +%s)
	compliance_retry "negcam.ko, dumped vivid profile: v4l2-compliance -s" "$log" 900 -d "$node" -s
	note "v4l2-compliance -s on negcam.ko with the dumped vivid profile: $(( $(date +%s) - t0 )) s"
	compliance_check "negcam.ko, dumped vivid profile: v4l2-compliance -s" "$log" 0

	# vivid's formats stream on negcam.ko, 2 frames of the full size each
	# (-EINVAL from the frame generator would give empty buffers): in full
	# mode all of them; in quick mode those the generator gained for vivid
	# (about 4 s a format under TCG on a loaded host)
	bad= n=0
	t0=$(date +%s)
	while read -r i fcc; do
		if [ "${MODE:-}" != full ]; then
			case $fcc in
			YUVA|YUVX|XR12|AR12|RX12|RA12|XB12|AB12|BX12|GA12|RX15|RA15|XB15|AB15|BX15|BA15|XR15-BE|AR15-BE|BGRH|HSV3|HSV4) ;;
			*) continue ;;
			esac
		fi
		n=$((n + 1))
		if ! v4l2-ctl -d "$node" --set-fmt-video pixelformat="$i" > /dev/null 2>&1; then
			bad="$bad $fcc(S_FMT)"; continue
		fi
		size=$(v4l2-ctl -d "$node" --get-fmt-video | sed -n 's/.*Size Image *: *//p')
		rm -f /tmp/prof-frames
		if ! timeout 60 v4l2-ctl -d "$node" --stream-mmap --stream-count=2 \
			--stream-to=/tmp/prof-frames > /dev/null 2>&1; then
			bad="$bad $fcc(stream)"; continue
		fi
		[ "$(stat -c %s /tmp/prof-frames 2>/dev/null)" = "$((2 * size))" ] || bad="$bad $fcc(size)"
	done < <(sed -n "s/^\t\[\([0-9]*\)\]: '\([^']*\)'.*/\1 \2/p" "$ours")
	note "streamed 2 frames of each of $n formats in $(( $(date +%s) - t0 )) s"
	check "$n of vivid's formats stream 2 full frames on negcam.ko${bad:+ (failed:$bad)}" 10 test -z "$bad"
	check "card name: vivid's" 10 bash -c "v4l2-ctl -d $node -D | grep 'Card type' | sed 's/.*: //' > /tmp/c1;
		v4l2-ctl -d $vivid -D | grep 'Card type' | sed 's/.*: //' | cut -c1-31 > /tmp/c2; cat /tmp/c1 /tmp/c2; cmp /tmp/c1 /tmp/c2"

	# 4. the camera shelf, through configfs 'builtin'
	for name in $("$PROF_CTL" --list-profiles | awk 'NF == 0 { exit } { print $1 }'); do
		case $name in webcam|vga|stepwise|tv-tuner) continue ;; esac
		"$PROF_CTL" --profile "$name" --list-formats-ext > "$ctl"
		check "shelf $name: configfs builtin, v4l2-ctl lists as negcam-ctl" 60 \
			bash -c "echo $name > $cfs/builtin && grep -q '^ok: profile $name' $cfs/status &&
				v4l2-ctl -d $node --list-formats-ext | diff -u $ctl -"
	done
	rmmod negcam 2>/dev/null || negcam_unload
	t0=$(now)
	name=logitech-c920
	if check "insmod negcam.ko profile=$name" 60 bash -c "negcam_load profile=$name"; then
		node=$(wait_node negcam)
		"$PROF_CTL" --profile "$name" --list-formats-ext > "$ctl"
		check "profile=$name: v4l2-ctl lists as negcam-ctl, card" 60 \
			bash -c "v4l2-ctl -d $node --list-formats-ext | diff -u $ctl - &&
				v4l2-ctl -d $node -D | grep -q 'Card type *: HD Pro Webcam C920'"
		negcam_unload
	fi
	dmesg_clean "profiles"
	suite_end
}
