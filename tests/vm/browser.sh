#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# A browser as a camera's user, inside the test VM: Debian's Chromium (or
# Firefox ESR with NEGCAM_BROWSER=firefox), headless, opens
# tests/vm/browser-cam.html, which asks for a camera with getUserMedia as a
# video-call page does and reads the frames it shows.
#
#   tests/vm/browser.sh LABEL [SIZES] [FRAMES] [UNTIL]
#
# LABEL: the camera whose label (its card name) starts with it; SIZES:
# WxH,WxH... asked one after the other, each exactly and with resizeMode
# "none" (the browser must set it on the device, not scale); FRAMES: per
# size (default 10); UNTIL=red: a size's step ends at the first frame
# (checked every 5th) that is red at every sample, or after FRAMES. Prints what the page found, one line each:
#   cameras "LABEL" ...                  the cameras the browser lists
#   first open NAME                      the first getUserMedia failed
#   step WxH settings WxH@FPS MODE shown WxH frames N rgb R,G,B x5
#   result ok | result nodevice | result error NAME CONSTRAINT MESSAGE
# The rgb samples are the middle and the middles of the four quarters of
# the last frame shown. Exit status 0 on "result ok", 1 on any other
# result, 124 when the page did not finish in NEGCAM_BROWSER_TIMEOUT
# seconds (default 240, times NEGCAM_VM_SLOW: 4 on the debug kernel), 77
# when the browser is not installed.
#
# The two find a camera differently. Chromium lists the nodes that
# capture, by path. Firefox lists them too, but opens a camera by its
# bus_info: the first /dev/videoN (counting up) whose bus_info starts
# with the listed camera's, capture node or not.
#
# NEGCAM_BROWSER_CAMERAS=pipewire: the browser takes its cameras from the
# XDG Camera portal (PipeWire) instead of /dev/video*, which also runs on
# the host, in the session of tests/pw/portal-session.sh (Chromium with
# WebRtcPipeWireCamera, Firefox with media.webrtc.camera.allow-pipewire).
# NEGCAM_BROWSER_LOG=FILE: all the browser's output is added to FILE.
# NEGCAM_BROWSER_PAGE: another page (an absolute path) that prints its
# lines the same way (tests/apps/faults-cam.html).
# NEGCAM_BROWSER_QUERY adds to the page's query (tests/vm/browser-cam.html:
# wait=, first=0, ask=ideal, stepwait=, bars=1).
set -u
PW=${NEGCAM_BROWSER_CAMERAS:-v4l2}
case $PW in
pipewire) ;;
v4l2) [ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "browser.sh runs inside the VM (tests/vm/run.sh), or with NEGCAM_BROWSER_CAMERAS=pipewire" >&2; exit 2; } ;;
*) echo "browser.sh: NEGCAM_BROWSER_CAMERAS is v4l2 or pipewire, not '$PW'" >&2; exit 2 ;;
esac
[ $# -ge 1 ] || { echo "usage: browser.sh LABEL [SIZES] [FRAMES] [UNTIL]" >&2; exit 2; }
BROWSER=${NEGCAM_BROWSER:-chromium}
case $BROWSER in
chromium) BIN=$(command -v chromium) ;;
firefox) BIN=$(command -v firefox-esr) ;;
*) echo "browser.sh: NEGCAM_BROWSER is chromium or firefox, not '$BROWSER'" >&2; exit 2 ;;
esac || { echo "browser.sh: $BROWSER is not installed (make deps)"; exit 77; }
PAGE=${NEGCAM_BROWSER_PAGE:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/browser-cam.html}
TIMEOUT=${NEGCAM_BROWSER_TIMEOUT:-$((240 * ${NEGCAM_VM_SLOW:-1}))}

# Chromium needs shared memory and a home; the VM has neither by default.
mountpoint -q /dev/shm || { mkdir -p /dev/shm && mount -t tmpfs -o mode=1777 tmpfs /dev/shm; } || exit 2
PROFILE=$(mktemp -d /tmp/browser.XXXXXX) || exit 2
trap 'rm -rf "$PROFILE"' EXIT

urlenc() { local s=$1 c o='' i; for ((i = 0; i < ${#s}; i++)); do c=${s:i:1}
	case $c in [A-Za-z0-9._~-]) o+=$c ;; *) o+=$(printf '%%%02X' "'$c") ;; esac; done; echo "$o"; }
URL="file://$PAGE?label=$(urlenc "$1")&sizes=$(urlenc "${2:-}")&frames=${3:-10}&until=${4:-}${NEGCAM_BROWSER_QUERY:+&$NEGCAM_BROWSER_QUERY}"

# Firefox's profile: the page may use the camera without asking, plays
# without a gesture, and its console.log lines come out on stdout.
firefox_prefs() {
	mkdir -p "$PROFILE/data" && cat > "$PROFILE/data/user.js" <<'PREFS'
user_pref("media.navigator.permission.disabled", true);
user_pref("media.navigator.streams.fake", false);
user_pref("media.autoplay.default", 0);
user_pref("devtools.console.stdout.content", true);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("browser.aboutwelcome.enabled", false);
user_pref("app.update.enabled", false);
PREFS
	[ "$PW" = pipewire ] && echo 'user_pref("media.webrtc.camera.allow-pipewire", true);' >> "$PROFILE/data/user.js"
	return 0
}

# Console lines come out as [...:INFO:CONSOLE(N)] "NEGCAM ...", source: ...
# (Chromium, on stderr) or console.log: "NEGCAM ..." (Firefox, with \"
# inside). The page cannot close a headless browser: it is ended once it
# has a result.
FEATURES=
[ "$PW" = pipewire ] && FEATURES=--enable-features=WebRtcPipeWireCamera
if [ "$BROWSER" = firefox ]; then
	firefox_prefs || exit 2
	coproc CHR { HOME=$PROFILE exec "$BIN" --headless --no-remote \
		--profile "$PROFILE/data" "$URL" 2>&1; }
else
	coproc CHR { HOME=$PROFILE exec "$BIN" --headless=new --no-sandbox --disable-gpu \
		--use-fake-ui-for-media-stream --autoplay-policy=no-user-gesture-required \
		--no-first-run --user-data-dir="$PROFILE/data" --enable-logging=stderr --v=0 $FEATURES \
		"$URL" 2>&1; }
fi
pid=$CHR_PID	# bash unsets CHR_PID and CHR once the coprocess ends
exec {out}<&"${CHR[0]}"
rc=124
end=$((SECONDS + TIMEOUT))
while [ $SECONDS -lt $end ] && IFS= read -r -t $((end - SECONDS)) line <&"$out"; do
	[ -n "${NEGCAM_BROWSER_LOG:-}" ] && printf '%s\n' "$line" >>"$NEGCAM_BROWSER_LOG"
	case $line in *'"NEGCAM '*) ;; *) continue ;; esac
	line=${line#*\"NEGCAM }
	line=${line%\", source:*}
	[ "$BROWSER" = firefox ] && { line=${line%\"}; line=${line//\\\"/\"}; }
	echo "$line"
	case $line in
	"result ok") rc=0; break ;;
	result*) rc=1; break ;;
	esac
done
# The output ended before a result and before the timeout: the browser quit.
if [ $rc = 124 ] && [ $SECONDS -lt $end ]; then
	echo "result exited: the browser ended before the page had a result"
	rc=1
fi
kill "$pid" 2>/dev/null
pkill -KILL -f -- "$PROFILE/data" 2>/dev/null
wait "$pid" 2>/dev/null
[ $rc = 124 ] && echo "result timeout: no result in ${TIMEOUT}s"
exit $rc
