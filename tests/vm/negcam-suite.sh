# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# negcam.ko acceptance (issue 4), sourced by suites.sh; runs in the VM.
# Per built-in profile: load, listing equal to negcam-ctl's, v4l2-compliance
# -s (and -f: webcam and vga in quick, all in full), GStreamer caps filters,
# ffmpeg capture with frame numbers read back, rmmod after streaming. Then,
# once: two devices, 100 opens, S_FMT EBUSY from a second handle, profile
# swap (idle, streaming, malformed), simulated unplug, rmmod with a handle
# open. The run-time interfaces (configfs, unplug) are those of docs/kmod.md.

CTL=$NEGCAM_BUILD/ctl/negcam-ctl
CFS=/sys/kernel/config/negcam


# The index N of a node (bus_info platform:negcam-N).
node_index() { v4l2-ctl -d "$1" -D | sed -n 's/.*Bus info *: platform:negcam-\([0-9]*\)$/\1/p'; }

# The configfs directory of device $1 (a /dev/videoN), per docs/kmod.md.
cfs_dir() {
	local idx d
	idx=$(node_index "$1")
	for d in "$CFS/negcam-$idx" "$CFS/$idx" "$CFS/devices/negcam-$idx" "$CFS/devices/$idx"; do
		[ -d "$d" ] && { echo "$d"; return 0; }
	done
	return 1
}

# The simulated-unplug attribute of device $1, per docs/kmod.md.
unplug_attr() {
	local idx f
	idx=$(node_index "$1")
	for f in /sys/devices/platform/negcam.$idx/unplug /sys/devices/platform/negcam-$idx/unplug \
		 /sys/bus/platform/devices/negcam.$idx/unplug; do
		[ -e "$f" ] && { echo "$f"; return 0; }
	done
	f=$(cfs_dir "$1" 2>/dev/null)/unplug
	[ -e "$f" ] && { echo "$f"; return 0; }
	return 1
}

# The lines of `v4l2-ctl --list-formats-ext` as "FOURCC W H FPS" (first
# interval, fps as an integer or '-'), one per discrete size; for a
# stepwise range its minimum size and a size near 640x480.
formats_table() {
	awk '
	/\[[0-9]+\]: '"'"'/ {
		if (fcc != "" && !sized) print fcc, "-", "-", "-"
		match($0, /'"'"'[^'"'"']*'"'"'/); fcc = substr($0, RSTART + 1, RLENGTH - 2); sized = 0; next }
	/Size:/ { sized = 1 }
	/Size: Discrete/ { split($3, s, "x"); w = s[1]; h = s[2]; pending = 1; next }
	/Size: Stepwise|Size: Continuous/ {
		split($3, a, "x"); split($5, b, "x");
		print fcc, a[1], a[2], "-"
		mw = 640; mh = 480; if (mw > b[1]) mw = b[1]; if (mh > b[2]) mh = b[2];
		print fcc, mw - mw % 16, mh - mh % 8, "-"
		pending = 0; next }
	/Interval: Discrete/ && pending {
		f = $0; sub(/.*\(/, "", f); sub(/ fps\).*/, "", f)
		if (f ~ /\.000$/) { sub(/\.000$/, "", f) } else { f = "-" }
		print fcc, w, h, f; pending = 0; next }
	/Interval:/ && pending { print fcc, w, h, "-"; pending = 0 }
	END { if (pending) print fcc, w, h, "-"; if (fcc != "" && !sized) print fcc, "-", "-", "-" }'
}

# Per-profile checks on a freshly loaded device: profile_checks, whose
# steps are the profile_* functions before it. They read and set its
# locals (p, mode, dev, allow, tried, fcc w h fps...: bash scopes locals
# dynamically), so each step sees what the ones before it found.
# The profiles every quick run checks in full; the others (the camera
# shelf) get the listing and v4l2-compliance -s there.
CORE_PROFILES="webcam vga stepwise tv-tuner"

# insmod profile=$p; dev is its node.
profile_load() {
	if ! check "$p: insmod negcam.ko profile=$p" 60 negcam_load profile="$p"; then
		return 1
	fi
	if ! dev=$(wait_node negcam); then
		fail "$p: no negcam /dev/video node appeared"
		negcam_unload
		return 1
	fi
	note "negcam node: $dev"
}

# The card name and the listing are the embedded engine's (negcam-ctl).
profile_listing() {
	# The card name the profile gives.
	if [ "$(v4l2-ctl -d "$dev" -D | grep 'Card type')" = "$("$CTL" --profile "$p" -D | grep 'Card type')" ]; then
		pass "$p: card name as negcam-ctl -D: $(v4l2-ctl -d "$dev" -D | sed -n 's/.*Card type *: //p')"
	else
		fail "$p: card name differs: device '$(v4l2-ctl -d "$dev" -D | grep 'Card type')', negcam-ctl '$("$CTL" --profile "$p" -D | grep 'Card type')'"
	fi

	# The listing through the kernel equals the embedded engine's.
	v4l2-ctl -d "$dev" --list-formats-ext > /tmp/kernel.list 2>&1
	"$CTL" --profile "$p" --list-formats-ext > /tmp/engine.list 2>&1
	if cmp -s /tmp/kernel.list /tmp/engine.list && [ -s /tmp/kernel.list ]; then
		pass "$p: v4l2-ctl --list-formats-ext = negcam-ctl --profile $p --list-formats-ext ($(wc -l < /tmp/kernel.list) lines)"
	else
		diff -u /tmp/engine.list /tmp/kernel.list | head -n 30 | sed 's/^/  | /'
		fail "$p: v4l2-ctl --list-formats-ext differs from negcam-ctl's (- negcam-ctl, + device)"
	fi
}

# v4l2-compliance -s (with vivid's DMABUFs); a profile with quirks may warn.
profile_compliance_s() {
	# quick: the core profiles and one real camera; the rest of the shelf
	# gets -s in make test-shelf (every shelf camera) and the full suite.
	case " $CORE_PROFILES ${NEGCAM_VM_SHELF_S:-logitech-c920} " in
	*" $p "*) ;;
	*) if [ "$mode" != full ]; then
		skip "$p: v4l2-compliance -s of this shelf camera runs in make test-shelf and the full suite (quick: ${NEGCAM_VM_SHELF_S:-logitech-c920})"
		return
	fi ;;
	esac
	quirks=$("$CTL" --show-profile "$p" 2>/dev/null | sed -n 's/^quirks[[:space:]]*//p')
	[ -n "$quirks" ] && allow=1 && note "$p has the quirks '$quirks': v4l2-compliance warnings are expected and listed"

	log=$(logname "$p v4l2-compliance -s")
	t0=$(now)
	if [ "$allow" = 1 ]; then
		timeout -k 5 600 v4l2-compliance -d "$dev" -s ${VIVID:+-e "$VIVID"} > "$log" 2>&1
	else
		compliance_retry "negcam $p v4l2-compliance -s" "$log" 600 -d "$dev" -s ${VIVID:+-e "$VIVID"}
	fi
	note "v4l2-compliance -s took $(secs_since "$t0")s"
	compliance_check "negcam $p v4l2-compliance -s" "$log" $allow
}

# The camera shelf (docs/cameras.md) gets the listing and -s in quick
# mode; its streaming pipelines and -f run in full mode (time). True
# (and a SKIP) when the rest of profile_checks does not run.
profile_shelf_skipped() {
	case " $CORE_PROFILES " in
	*" $p "*) return 1 ;;
	esac
	[ "$mode" != full ] || return 1
	skip "$p: -f, v4l2src and ffmpeg checks of the camera shelf run in the full suite only"
}

# v4l2-compliance -f: vga in quick mode (2 s), every profile in full
# (webcam's alone takes 130 s under TCG: make test-full).
profile_compliance_f() {
	if [ "$mode" = full ] || [ "$p" = vga ]; then
		log=$(logname "$p v4l2-compliance -f")
		t0=$(now)
		if [ "$allow" = 1 ]; then
			timeout -k 5 "${NEGCAM_VM_F_TIMEOUT:-1200}" v4l2-compliance -d "$dev" -f > "$log" 2>&1
		else
			compliance_retry "negcam $p v4l2-compliance -f" "$log" "${NEGCAM_VM_F_TIMEOUT:-1200}" -d "$dev" -f
		fi
		note "v4l2-compliance -f took $(secs_since "$t0")s"
		SUMMARY+=("negcam $p v4l2-compliance -f: $(secs_since "$t0")s")
		compliance_check "negcam $p v4l2-compliance -f" "$log" $allow
	else
		skip "$p: v4l2-compliance -f runs in the full suite only (tests/vm/run.sh full)"
	fi
}

# GStreamer: no filter, each format at its smallest size, MJPG decoded.
profile_gst_formats() {
	v4l2-ctl -d "$dev" --list-formats-ext | formats_table > /tmp/formats.tab
	check "$p: gst v4l2src num-buffers=60 ! fakesink" 180 \
		gst-launch-1.0 -q v4l2src device="$dev" num-buffers=60 ! fakesink
	tried=" "
	while read -r fcc w h fps; do
		case "$tried" in *" $fcc "*) continue ;; esac
		caps=$(gst_caps_of "$fcc")
		[ -n "$caps" ] || { note "$p: no GStreamer caps for '$fcc', not tried"; tried="$tried$fcc "; continue; }
		tried="$tried$fcc "
		[ "$w" != - ] && caps="$caps,width=$w,height=$h"
		tried="$tried$fcc-${w}x$h "
		[ "$fps" != - ] && caps="$caps,framerate=$fps/1"
		if [ "${caps%%,*}" = image/jpeg ]; then
			check "$p: gst v4l2src ! $caps ! jpegdec ! fakesink" 240 \
				gst-launch-1.0 -q v4l2src device="$dev" num-buffers=60 ! "$caps" ! jpegdec ! fakesink
		elif [ "${caps%%,*}" = video/x-h264 ] && gst-inspect-1.0 h264parse > /dev/null 2>&1; then
			check "$p: gst v4l2src ! $caps ! h264parse ! fakesink" 240 \
				gst-launch-1.0 -q v4l2src device="$dev" num-buffers=30 ! "$caps" ! h264parse ! fakesink
		else
			check "$p: gst v4l2src ! $caps ! fakesink" 180 \
				gst-launch-1.0 -q v4l2src device="$dev" num-buffers=60 ! "$caps" ! fakesink
		fi
	done < /tmp/formats.tab
}

# H.264 (I_PCM, docs/frames.md): captured by v4l2src, decoded by
# ffmpeg, frame numbers read back from the decoded luma.
profile_h264_stamp() {
	read -r fcc w h fps < <(awk '$1 == "H264" && $2 != "-" { last = $0; if ($2 >= 640) { print; found = 1; exit } }
		END { if (!found && last != "") print last }' /tmp/formats.tab)
	if [ -n "${fcc:-}" ]; then
		rm -f /tmp/negcam.264 /tmp/negcam.gray
		if check "$p: gst v4l2src ! video/x-h264,width=$w,height=$h ! filesink (10 buffers)" 240 \
			gst-launch-1.0 -q v4l2src device="$dev" num-buffers=10 ! \
				"video/x-h264,stream-format=byte-stream,alignment=au,width=$w,height=$h" ! \
				filesink location=/tmp/negcam.264 &&
		   check "$p: ffmpeg decodes the H264 capture" 240 \
			ffmpeg -nostdin -hide_banner -loglevel error -f h264 -i /tmp/negcam.264 \
				-f rawvideo -pix_fmt gray -y /tmp/negcam.gray; then
			log=$(logname "$p vm-stamp h264")
			if [ ! -x "$BIN/vm-stamp" ]; then
				skip "$p: H264 frame numbers not read back: vm-stamp not built"
			elif "$BIN/vm-stamp" gray "$w" "$h" /tmp/negcam.gray > "$log" 2>&1 &&
			   grep -q '^vm-stamp: 10 frames' "$log"; then
				pass "$p: decoded H264 frames carry increasing frame numbers: $(sed -n 's/^frame 0: //p' "$log") .. $(grep '^frame' "$log" | tail -n1 | sed 's/^frame [0-9]*: //')"
			else
				tail -n 5 "$log" | sed 's/^/  | /'
				fail "$p: frame numbers from the decoded H264 capture: $(tail -n1 "$log")"
			fi
		fi
		rm -f /tmp/negcam.264 /tmp/negcam.gray
	fi
}

# One more: the last format at the size nearest above 640 wide (for MJPG
# this is a real JPEG encode and decode), else a second size of the first.
profile_gst_second_size() {
	read -r fcc w h fps < <(awk '{ fm[NR] = $1; row[NR] = $0 } END {
		last = fm[NR]
		for (i = 1; i <= NR; i++) if (fm[i] == last) { split(row[i], r, " "); if (r[2] != "-" && r[2] >= 640) { print row[i]; exit } }
		for (i = 2; i <= NR; i++) if (fm[i] == fm[1]) { print row[i]; exit } }' /tmp/formats.tab)
	case "$tried" in *" ${fcc:-}-${w:-}x${h:-} "*) fcc= ;; esac
	if [ -n "${fcc:-}" ] && [ "$w" != - ] && caps=$(gst_caps_of "$fcc") && [ -n "$caps" ]; then
		caps="$caps,width=$w,height=$h"
		if [ "${caps%%,*}" = image/jpeg ]; then
			check "$p: gst v4l2src ! $caps ! jpegdec ! fakesink" 240 \
				gst-launch-1.0 -q v4l2src device="$dev" num-buffers=60 ! "$caps" ! jpegdec ! fakesink
		else
			check "$p: gst v4l2src ! $caps ! fakesink" 180 \
				gst-launch-1.0 -q v4l2src device="$dev" num-buffers=60 ! "$caps" ! fakesink
		fi
	fi
}

# ffmpeg, YUYV, frame numbers read back from the pixels.
# (640 wide or more when offered: the stamp needs room for its blocks)
profile_ffmpeg_stamp() {
	read -r fcc w h fps < <(awk '$1 == "YUYV" && $2 != "-" { last = $0; if ($2 >= 640) { print; found = 1; exit } }
		END { if (!found && last != "") print last }' /tmp/formats.tab)
	if [ -z "${fcc:-}" ]; then
		note "$p: no YUYV format: the ffmpeg yuyv422 capture does not apply"
	elif check "$p: ffmpeg -f v4l2 -input_format yuyv422 -video_size ${w}x$h -frames:v 30" 240 \
		ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -input_format yuyv422 -video_size "${w}x$h" \
			-i "$dev" -frames:v 30 -fps_mode passthrough -f rawvideo -y /tmp/negcam.yuv; then
		if [ ! -x "$BIN/vm-stamp" ]; then
			skip "$p: frame numbers not read back: tests/vm/out/bin/vm-stamp not built (engine stamp reader missing?)"
		else
			log=$(logname "$p vm-stamp")
			if "$BIN/vm-stamp" yuyv422 "$w" "$h" /tmp/negcam.yuv > "$log" 2>&1 &&
			   grep -q '^vm-stamp: 30 frames' "$log"; then
				pass "$p: ffmpeg frames carry increasing frame numbers: $(sed -n 's/^frame 0: //p' "$log") .. $(grep '^frame' "$log" | tail -n1 | sed 's/^frame [0-9]*: //')"
			else
				tail -n 5 "$log" | sed 's/^/  | /'
				fail "$p: frame numbers from the ffmpeg capture: $(tail -n1 "$log")"
			fi
		fi
	fi
	rm -f /tmp/negcam.yuv
}

profile_checks() {
	local p=$1 mode=$2 dev log t0 quirks allow=0 fcc w h fps caps tried
	note "profile $p"
	profile_load || return
	profile_listing
	profile_compliance_s
	profile_shelf_skipped && return
	profile_compliance_f
	profile_gst_formats
	profile_h264_stamp
	profile_gst_second_size
	profile_ffmpeg_stamp

	if check "$p: rmmod negcam after streaming" 60 negcam_unload; then
		dmesg_clean "$p"
	fi
}

# --- run-time checks on one module load ----------------------------------
# runtime_checks, whose steps are the runtime_* functions before it (they
# read and set its locals, as the profile_* steps do).

# devices=2: two nodes, each its own platform:negcam-N; dev is the first.
runtime_two_devices() {
	check "insmod negcam.ko devices=2 (default profile)" 60 negcam_load devices=2 || return 1
	sleep 0.5
	devs=$(nodes_of_driver negcam)
	dev=$(echo "$devs" | sed -n 1p)
	dev2=$(echo "$devs" | sed -n 2p)
	if [ -n "$dev2" ] && [ "$(node_index "$dev")" != "$(node_index "$dev2")" ]; then
		pass "devices=2: two nodes, $dev (platform:negcam-$(node_index "$dev")) and $dev2 (platform:negcam-$(node_index "$dev2"))"
	else
		fail "devices=2: expected two negcam nodes, found: $(echo $devs)"
	fi
	[ -n "$dev" ] || { negcam_unload; return 1; }
}

# Many opens; the format belongs to the device, S_FMT EBUSY from a second handle.
runtime_handles() {
	if [ -x "$BIN/vm-v4l2" ]; then
		check "100 simultaneous opens of $dev" 120 "$BIN/vm-v4l2" opens "$dev" 100
		check "S_FMT from a 2nd handle while the 1st owns buffers: EBUSY; TRY_FMT still answers" 60 \
			"$BIN/vm-v4l2" sfmt-busy "$dev"
		check "the format belongs to the device: S_FMT on one handle, G_FMT on another" 60 \
			"$BIN/vm-v4l2" shared-fmt "$dev"
	else
		fail "tests/vm/out/bin/vm-v4l2 was not built (see tests/vm/out/bin/vm-v4l2.log)"
	fi
}

# Profile swap through configfs (docs/kmod.md): idle, streaming, malformed, by name.
runtime_profile_swap() {
	if ! cdir=$(cfs_dir "$dev"); then
		ls -R "$CFS" 2>&1 | head -n 20 | sed 's/^/  | /'
		fail "profile swap: no configfs directory for $dev under $CFS (see docs/kmod.md)"
	else
		note "configfs directory of $dev: $cdir"
		"$CTL" --show-profile vga > /tmp/vga.profile
		"$CTL" --show-profile webcam > /tmp/webcam.profile
		check "profile swap while idle sends V4L2_EVENT_SOURCE_CHANGE" 60 \
			"$BIN/vm-v4l2" event "$dev" "cat /tmp/vga.profile > $cdir/profile"
		v4l2-ctl -d "$dev" --list-formats-ext > /tmp/kernel.list
		"$CTL" --profile vga --list-formats-ext > /tmp/engine.list
		if cmp -s /tmp/kernel.list /tmp/engine.list; then
			pass "profile swap while idle: $dev now lists what negcam-ctl --profile vga lists"
		else
			diff -u /tmp/engine.list /tmp/kernel.list | head -n 20 | sed 's/^/  | /'
			fail "profile swap while idle: listing is not vga's"
		fi
		# While streaming: refused with EBUSY, vga stays.
		check "profile swap while streaming is refused with EBUSY" 60 \
			"$BIN/vm-v4l2" while-streaming "$dev" \
			"if cat /tmp/webcam.profile > $cdir/profile 2>/tmp/swap.err; then echo 'swap accepted while streaming'; exit 1; fi;
			 cat /tmp/swap.err; grep -qi 'busy' /tmp/swap.err"
		v4l2-ctl -d "$dev" --list-formats-ext > /tmp/kernel.list
		if cmp -s /tmp/kernel.list /tmp/engine.list; then
			pass "after the refused swap the old profile (vga) is still in force"
		else
			fail "after the refused swap the listing changed"
		fi
		# Malformed: rejected, a kernel log line with line and column, old profile kept.
		before=$(dmesg | wc -l)
		printf 'name broken\nformat YUVV\n  size 640x480 fps 30\n' > /tmp/bad.profile
		if cat /tmp/bad.profile > "$cdir/profile" 2>/tmp/swap.err; then
			fail "malformed profile accepted"
		else
			pass "malformed profile rejected: $(cat /tmp/swap.err)"
		fi
		after=$(dmesg | tail -n +"$((before + 1))")
		bad=$(printf '%s\n' "$after" | grep -iE 'line [0-9]+|:[0-9]+:[0-9]+' | head -n1)
		if [ -n "$bad" ]; then
			pass "kernel log names line and column: $bad"
		else
			printf '%s\n' "$after" | sed 's/^/  | /'
			fail "no kernel log line naming the line and column of the error"
		fi
		v4l2-ctl -d "$dev" --list-formats-ext > /tmp/kernel.list
		if cmp -s /tmp/kernel.list /tmp/engine.list; then
			pass "after the malformed profile the old profile (vga) is still in force"
		else
			fail "after the malformed profile the listing changed"
		fi
		if [ -e "$cdir/status" ]; then
			note "configfs status after the malformed profile: $(cat "$cdir/status")"
		fi
		# A built-in by name through the 'builtin' attribute.
		if [ -e "$cdir/builtin" ]; then
			if echo stepwise > "$cdir/builtin" 2>/tmp/swap.err &&
			   v4l2-ctl -d "$dev" --list-formats-ext > /tmp/kernel.list &&
			   "$CTL" --profile stepwise --list-formats-ext > /tmp/engine.list &&
			   cmp -s /tmp/kernel.list /tmp/engine.list; then
				pass "swap to a built-in by name (builtin attribute): $dev lists what negcam-ctl --profile stepwise lists"
			else
				cat /tmp/swap.err 2>/dev/null | sed 's/^/  | /'
				fail "swap to the built-in 'stepwise' through $cdir/builtin"
			fi
		fi
	fi
	dmesg_clean "profile swap"
}

# rmmod with a handle open: refused while open (or the handle is cut
# off), and works once it is closed; never an oops.
runtime_rmmod_open() {
	check "rmmod with $dev open: no oops; refused or handled" 60 \
		"$BIN/vm-v4l2" while-open "$dev" "rmmod negcam; echo \"rmmod while open: exit \$?\"; true"
	note "$(grep -h 'rmmod' "$(logname "rmmod with $dev open: no oops; refused or handled")" | tr '\n' ' ')"
	check "rmmod once the handle is closed" 60 negcam_unload
	dmesg_clean "rmmod with a handle open"
}

# Simulated unplug while streaming: ENODEV/POLLERR on the old handle,
# the node goes away, rmmod works once the handle is closed.
runtime_unplug() {
	check "insmod negcam.ko (for the unplug)" 60 negcam_load || return
	dev=$(wait_node negcam) || { fail "no node after insmod"; negcam_unload; return; }
	if ! attr=$(unplug_attr "$dev"); then
		fail "simulated unplug: no 'unplug' attribute found for $dev (see docs/kmod.md)"
	else
		note "unplug attribute: $attr"
		check "simulated unplug while streaming: handle gets ENODEV and POLLERR; rmmod with it open" 60 \
			"$BIN/vm-v4l2" gone "$dev" "echo 1 > $attr" "rmmod negcam 2>&1"
		note "$(grep -h -A1 'dead handle open' "$(logname "simulated unplug while streaming: handle gets ENODEV and POLLERR; rmmod with it open")" | tr '\n' ' ')"
		if [ -e "$dev" ] && v4l2-ctl -d "$dev" -D 2>/dev/null | grep -q 'Driver name *: negcam$'; then
			fail "after the unplug $dev still answers"
		else
			pass "after the unplug $dev is gone"
		fi
	fi
	check "rmmod after the simulated unplug" 60 negcam_unload
	dmesg_clean "unplug and rmmod"
}

runtime_checks() {
	local devs dev dev2 cdir attr before after bad

	runtime_two_devices || return
	runtime_handles
	runtime_profile_swap
	runtime_rmmod_open
	runtime_unplug
}

suite_negcam() {
	local mode=$1 profiles p
	suite_begin negcam
	if [ ! -f "$KO" ]; then
		skip "kmod/negcam.ko is not built yet (make -C kmod): the whole negcam suite is skipped"
		suite_end; return
	fi
	if [ ! -x "$CTL" ]; then
		fail "$CTL missing: build negcam first (meson setup ${NEGCAM_BUILD##*/} && ninja -C ${NEGCAM_BUILD##*/}), or set NEGCAM_BUILD"
		suite_end; return
	fi
	note "module: $KO ($(modinfo -F vermagic "$KO"))"
	profiles=${NEGCAM_VM_PROFILES:-$("$CTL" --list-profiles | awk 'NF == 0 { exit } { print $1 }')}
	note "built-in profiles: $(echo $profiles)"
	[ -d /sys/module/negcam ] && negcam_unload
	if [ -n "${VIVID:-}" ]; then
		# v4l2-compliance -e imports vivid's buffers into negcam: they must
		# be at least as large as negcam's, whatever the profile.
		v4l2-ctl -d "$VIVID" -v width=3840,height=2160,pixelformat=XR24 > /dev/null 2>&1
		note "vivid $VIVID exports the DMABUFs for v4l2-compliance -e: $(v4l2-ctl -d "$VIVID" -V | sed -n 's/.*Width\/Height *: //p') $(v4l2-ctl -d "$VIVID" -V | sed -n 's/.*Size Image *: //p') bytes"
	fi
	for p in $profiles; do
		profile_checks "$p" "$mode"
		[ -d /sys/module/negcam ] && negcam_unload
	done
	runtime_checks
	[ -d /sys/module/negcam ] && negcam_unload
	suite_end
}
