#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/pw/pw-suite.sh [BUILD]: negcam-pw in a private PipeWire session
# (tests/pw/session.sh: D-Bus, pipewire, wireplumber as an unprivileged
# user; as root it re-runs itself as the system user negcam-test). No VM,
# no module, no root inside. Checks, in order:
#   bad input: PipeWire not running, a 200-character label, a profile that
#     does not parse (file:line), a profile SPA cannot carry
#   (a) the node is listed (pw-dump) with media.class Video/Source,
#       media.role Camera, the profile's card as description, its formats
#       as EnumFormat; negcam-pw --list shows it; the same label is refused
#   (b) pipewiresrc at YUY2 320x240, 640x480, 1280x720 and MJPG 1280x720
#       gets that size, and the frames' stamps run in sequence; H.264
#       640x480 from a second node (the shelf's via-h264-only), decoded;
#       a stepwise profile's range: 400x304 at 15 fps, and its default
#   a consumer asking a size the profile lacks: the link fails with the
#       reason in negcam-pw's log, and the node serves on
#   (c) two consumers at once, both stamped in sequence
#   (d) the last consumer gone: the node is paused, its frame counter
#       (SIGUSR1) and its CPU time stand still
#   --exec PIPELINE: a producer on demand (tests/pw/pw-exec-checks.sh)
#   (e) pw-v4l2 (PipeWire's V4L2 layer): v4l2-ctl --list-formats-ext shows
#       the profile, v4l2-ctl streams stamped frames, v4l2-compliance runs
#       (its failures are the layer's own: docs/pipewire.md)
#   (f) negcam-pw ended by SIGTERM: the consumer ends with an error within
#       5 s, the node is gone, no memfd left open; then SIGKILL: the node
#       is gone too (the consumer waits: recorded)
#   negcampwconvertsink (tests/pw/pw-sink-checks.sh): a pipeline as the
#       camera: the same sizes with the producer's colour and the pipeline
#       renegotiated to each, two consumers, a refused size, producer on
#       demand (no consumer: no buffer made), late frames not burst
#   (g) pipewiresink mode=provide (YUY2 640x480) asked the same sizes
#       (recorded; only its own size is checked)
#   every shelf camera and built-in profile: published, or refused with
#       the reason when SPA can carry none of its formats
#   faults (tests/pw/pw-faults-checks.sh): each fault of docs/faults.md
#       read by a consumer (seq gaps, CORRUPTED flags, pts, a new Format,
#       the node gone), the same seed twice, the --faults control file
# Prints "pw: N passed, N failed", after the sizes table and
# v4l2-compliance's summary (run-all.sh keeps it in BUILD/test-logs/pw.log).
# NEGCAM_PW_KEEP=1 keeps the session directory (frames, logs).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/pw/session.sh"
pw_session_as_user "$0" "$@"

build=${1:-$root/build}
case $build in /*) ;; *) build=$root/$build ;; esac
PW=$build/pw/negcam-pw
STAMP=$build/tests/run/vm-stamp
FAKEDEV=$root/tests/pw/fake-dev.sh
pass=0 fail=0

check() { # WHAT COMMAND...
	local what=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
		echo "ok   $what"
	else
		fail=$((fail + 1))
		echo "FAIL $what"
	fi
}

finish() {
	echo "pw: $pass passed, $fail failed"
	exit $((fail > 0))
}

for f in "$PW" "$STAMP"; do
	[ -x "$f" ] || { echo "pw-suite: $f not built (meson setup with libpipewire-0.3-dev)"; fail=1; finish; }
done

# Wait up to $2 tenths of a second for $1 (a string) to succeed.
wait_for() { pw_session_wait "$1" "$2"; }

pw_session_start || { echo "pw-suite: no PipeWire session"; fail=$((fail + 1)); finish; }
T=$PW_SESSION_DIR
. "$root/tests/pw/pw-checks.sh"
. "$root/tests/pw/pw-exec-checks.sh"
. "$root/tests/pw/pw-faults-checks.sh"
. "$root/tests/pw/pw-sink-checks.sh"
pw_bad_input
pw_start_node webcam || finish
pw_check_listed
pw_check_sizes
pw_check_h264
pw_check_stepwise
pw_check_refused
pw_check_two
pw_check_idle
pw_check_exec
pw_check_v4l2
pw_check_stop
pw_sink_checks
pw_check_provide
pw_check_shelf
pw_check_faults
finish
