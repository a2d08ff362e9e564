#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# examples/ci/with-camera.sh: run a command beside a negcam camera that
# browsers find through the XDG Camera portal, on a CI runner with no
# kernel module, no VM and no desktop (docs/ci.md).
#
#   examples/ci/with-camera.sh [--profile NAME] [--label LABEL] -- CMD ARGS...
#
# Starts the private session of tests/pw/portal-session.sh (dbus,
# pipewire, wireplumber, Xvfb, xdg-desktop-portal with its gtk backend, the
# camera granted in the permission store), publishes the profile (default
# logitech-c920, a shelf camera: docs/cameras.md) as a PipeWire camera with
# negcam-pw under LABEL (default "negcam CI camera"), waits for its node,
# runs CMD, stops everything and exits with CMD's status (2 when the
# session or the camera did not start: the reason is on stderr).
# CMD sees DISPLAY, DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR and
# XDG_CURRENT_DESKTOP of that session, and NEGCAM_CAMERA_LABEL. A browser
# needs its PipeWire camera switched on: Chromium
# --enable-features=WebRtcPipeWireCamera, Firefox the pref
# media.webrtc.camera.allow-pipewire.
# As root (a CI container), it re-runs itself as an unprivileged user
# (negcam-test, created when missing), as a desktop user runs browsers:
# that user must be able to read this checkout and CMD's files.
# negcam-pw is taken from NEGCAM_PW, else from PATH.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tests/pw/portal-session.sh"
pw_session_as_user "$0" "$@"
profile=logitech-c920 label="negcam CI camera"
while [ $# -gt 0 ]; do
	case $1 in
	--profile) profile=${2:?--profile NAME}; shift 2 ;;
	--label) label=${2:?--label LABEL}; shift 2 ;;
	--) shift; break ;;
	*) echo "usage: with-camera.sh [--profile NAME] [--label LABEL] -- CMD ARGS..." >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "with-camera.sh: no command after --" >&2; exit 2; }
pw=${NEGCAM_PW:-$(command -v negcam-pw)} ||
	{ echo "with-camera.sh: no negcam-pw on PATH (install negcam, or set NEGCAM_PW)" >&2; exit 2; }
portal_session_start || exit 2
"$pw" --profile "$profile" --label "$label" >"$PW_SESSION_DIR/negcam-pw.log" 2>&1 &
PW_SESSION_PIDS="$! $PW_SESSION_PIDS"
if ! pw_session_wait "pw-dump | grep -qF '\"node.description\": \"$label\"'" 100; then
	echo "with-camera.sh: negcam-pw --profile $profile made no camera node:" >&2
	tail -n 5 "$PW_SESSION_DIR/negcam-pw.log" >&2
	exit 2
fi
echo "with-camera.sh: camera \"$label\" ($profile) is up; as user $(id -un), running $*"
NEGCAM_CAMERA_LABEL=$label "$@"
