#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# A browser as a camera's user, inside the test VM: Debian's Chromium,
# headless, opens tests/vm/browser-cam.html, which asks for a camera with
# getUserMedia as a video-call page does and reads the frames it shows.
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
# when Chromium is not installed.
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "browser.sh runs inside the VM (tests/vm/run.sh)" >&2; exit 2; }
[ $# -ge 1 ] || { echo "usage: browser.sh LABEL [SIZES] [FRAMES] [UNTIL]" >&2; exit 2; }
CHROMIUM=$(command -v chromium) || { echo "browser.sh: chromium is not installed (make deps)"; exit 77; }
PAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/browser-cam.html
TIMEOUT=${NEGCAM_BROWSER_TIMEOUT:-$((240 * ${NEGCAM_VM_SLOW:-1}))}

# Chromium needs shared memory and a home; the VM has neither by default.
mountpoint -q /dev/shm || { mkdir -p /dev/shm && mount -t tmpfs -o mode=1777 tmpfs /dev/shm; } || exit 2
PROFILE=$(mktemp -d /tmp/browser.XXXXXX) || exit 2
trap 'rm -rf "$PROFILE"' EXIT

urlenc() { local s=$1 c o='' i; for ((i = 0; i < ${#s}; i++)); do c=${s:i:1}
	case $c in [A-Za-z0-9._~-]) o+=$c ;; *) o+=$(printf '%%%02X' "'$c") ;; esac; done; echo "$o"; }
URL="file://$PAGE?label=$(urlenc "$1")&sizes=$(urlenc "${2:-}")&frames=${3:-10}&until=${4:-}"

# Console lines come out on stderr as: [...:INFO:CONSOLE(N)] "NEGCAM ...", source: ...
# The page cannot close a headless browser: it is ended once it has a result.
coproc CHR { HOME=$PROFILE exec "$CHROMIUM" --headless=new --no-sandbox --disable-gpu \
	--use-fake-ui-for-media-stream --autoplay-policy=no-user-gesture-required \
	--no-first-run --user-data-dir="$PROFILE/data" --enable-logging=stderr --v=0 \
	"$URL" 2>&1; }
pid=$CHR_PID	# bash unsets CHR_PID once the coprocess ends
rc=124
end=$((SECONDS + TIMEOUT))
while [ $SECONDS -lt $end ] && IFS= read -r -t $((end - SECONDS)) line <&"${CHR[0]}"; do
	case $line in *'"NEGCAM '*) ;; *) continue ;; esac
	line=${line#*\"NEGCAM }
	line=${line%\", source:*}
	echo "$line"
	case $line in
	"result ok") rc=0; break ;;
	result*) rc=1; break ;;
	esac
done
kill "$pid" 2>/dev/null
pkill -KILL -f -- "--user-data-dir=$PROFILE/data" 2>/dev/null
wait "$pid" 2>/dev/null
[ $rc = 124 ] && echo "result timeout: no result in ${TIMEOUT}s"
exit $rc
