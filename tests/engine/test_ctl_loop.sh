#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# negcam-ctl loop on the host, against a fake configfs and sysfs
# (NEGCAM_CONFIGFS, NEGCAM_SYSFS_DEVICES, NEGCAM_SYSFS_CLASS): bad command
# lines give one line and exit 1 or 2 and touch nothing; the module missing
# is said in words; list, remove's refusals and the udev names read the
# module's sysfs files. The real module is tested in the VM (loop suite).
#
#   test_ctl_loop.sh SOURCE_ROOT BUILD_ROOT
set -u
SRC=$1 BUILD=$2
CTL=$BUILD/ctl/negcam-ctl
fails=0 checks=0
NAME=test_ctl_loop
# check, has, contains
. "$SRC/tests/check.sh"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export NEGCAM_CONFIGFS=$T/cfs NEGCAM_SYSFS_DEVICES=$T/devices NEGCAM_SYSFS_CLASS=$T/class
export NEGCAM_SYSFS_MODULE=$T/module
mkdir -p "$T/devices" "$T/class"

# One line on stderr, exit status $1, nothing made under configfs.
refused() {	# STATUS ARGS...
	want=$1; shift
	"$CTL" loop "$@" >"$T/out" 2>"$T/err"; rc=$?
	[ "$rc" = "$want" ] && [ "$(wc -l <"$T/err")" -ge 1 ] && [ ! -s "$T/out" ] &&
		[ -z "$(ls "$T/cfs/loops" 2>/dev/null)" ]
}
first_line() { head -n 1 "$T/err"; }

check "loop add without the module says so" refused 1 add
check "  ... in words: $(first_line)" grep -q "module is not loaded.*modprobe negcam" "$T/err"
mkdir -p "$T/module"
check "loop add without configfs says so" refused 1 add
check "  ... how to mount it: $(first_line)" grep -q "mount -t configfs" "$T/err"
mkdir -p "$T/cfs/loops"
long=$(printf '%0200d' 0)
check "a 200-character label is refused" refused 1 add --label "$long"
check "  ... with its length: $(first_line)" grep -q "200 bytes long.*at most 22" "$T/err"
check "--captures 9 is refused" refused 1 add --captures 9
check "  ... with the range: $(first_line)" grep -q "1 to 4 capture nodes" "$T/err"
check "an unknown profile is refused" refused 1 add --profile no-such
check "  ... naming it: $(first_line)" grep -q "'no-such': no built-in profile" "$T/err"
check "a control character in a label is refused" refused 1 add --label "$(printf 'a\tb')"
check "an unknown verb is a usage error" refused 2 frob
check "--captures x is a usage error" refused 2 add --captures x
check "remove of a loop that does not exist" refused 1 remove Nowhere
check "  ... names it: $(first_line)" grep -q "no loop 'Nowhere'" "$T/err"

# Two loops as the module shows them: 0 labelled, busy; 1 without a label.
L0=$T/devices/negcam-loop.0 L1=$T/devices/negcam-loop.1
mkdir -p "$L0" "$L1"
echo Meeting >"$L0/label"; echo webcam >"$L0/profile"; echo "output video3 capture video4" >"$L0/nodes"
echo live >"$L0/producer"; echo 1 >"$L0/consumers"
: >"$L1/label"; echo follow >"$L1/profile"; echo "output video5 capture video6 capture video7" >"$L1/nodes"
echo none >"$L1/producer"; echo 0 >"$L1/consumers"
"$CTL" loop list >"$T/list" 2>&1; rc=$?
check "loop list exits 0 ($rc)" [ "$rc" = 0 ]
check "loop list: loop 0 labelled, live, one consumer" \
	grep -q '^loop 0 "Meeting": profile webcam, producer live, 1 consumer streaming' "$T/list"
check "loop list: its stable capture name" \
	grep -Eq 'capture0 +/dev/video4 +/dev/v4l/by-id/negcam-Meeting-capture0$' "$T/list"
check "loop list: loop 1's second capture node" \
	grep -Eq 'capture1 +/dev/video7 +/dev/v4l/by-id/negcam-loop1-capture1$' "$T/list"
mkdir -p "$T/cfs/loops/ctl-0"; echo "output video3 capture video4" >"$T/cfs/loops/ctl-0/nodes"
"$CTL" loop remove Meeting >/dev/null 2>"$T/err"; rc=$?
check "remove of a busy loop exits 1 ($rc)" [ "$rc" = 1 ]
check "  ... saying why: $(first_line)" grep -q 'is busy: producer live, 1 consumer streaming' "$T/err"
check "  ... and leaving it" [ -d "$T/cfs/loops/ctl-0" ]
"$CTL" loop remove 1 >/dev/null 2>"$T/err"; rc=$?
check "remove of a loops= loop exits 1 ($rc): $(first_line)" \
	sh -c '[ "$1" = 1 ] && grep -q "loops= parameter" "$2"' - "$rc" "$T/err"

# udev names from the card name and the loop's label.
node() {	# NODE CARD LOOP
	mkdir -p "$T/class/$1"; echo "$2" >"$T/class/$1/name"
	ln -s "../../devices/negcam-loop.$3" "$T/class/$1/device"
}
node video3 "Meeting (output)" 0; node video4 Meeting 0
node video6 "negcam loop 1 capture 0" 1; node video7 "negcam loop 1 capture 1" 1
node video9 "vivid" 0
check "udev: output node" [ "$("$CTL" loop udev video3)" = NEGCAM_LINK=negcam-Meeting-output ]
check "udev: capture 0" [ "$("$CTL" loop udev video4)" = NEGCAM_LINK=negcam-Meeting-capture0 ]
check "udev: unlabelled capture 1" [ "$("$CTL" loop udev video7)" = NEGCAM_LINK=negcam-loop1-capture1 ]
check "udev: a node of another name gets nothing" sh -c '! "$1" loop udev video9' - "$CTL"

echo "$NAME: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
