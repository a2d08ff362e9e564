#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# What Chromium does under each fault (docs/faults.md, "Chromium through
# the Camera portal"), measured: headless Chromium (WebRtcPipeWireCamera)
# finds negcam-pw's node through the XDG Camera portal, in the session of
# tests/pw/portal-session.sh (as tests/pw/portal-suite.sh drives it), and
# tests/apps/faults-cam.html watches 5 s of it from the first frame: the
# frames shown (requestVideoFrameCallback) per second, the longest gap, the
# track's ended/mute/unmute events, the video's resize. One negcam-pw per
# fault (320x240 YUYV, or MJPG for corrupt and truncate; `fault seed 7`
# and the fault, the cases of tests/apps/faults-apps.sh).
#
#   tests/apps/faults-chromium.sh BUILD [--write docs/faults.md]
#
# Prints a line per fault, then the table; --write replaces the table
# between the faults-chromium markers of the doc (make
# test-faults-chromium). As root the measuring runs as the test user
# (tests/pw/session.sh) and the doc is written by root. Exit 77 when
# Chromium or the portal is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ "${2:-}" = --write ]; then
	tmp=$(mktemp)
	"$0" "$1" | tee "$tmp"
	rc=${PIPESTATUS[0]}
	[ "$rc" = 0 ] || { rm -f "$tmp"; exit "$rc"; }
	{
		sed '/<!-- faults-chromium:begin -->/q' "$3"
		sed -n '/^Measured /,$p' "$tmp"
		sed -n '/<!-- faults-chromium:end -->/,$p' "$3"
	} >"$tmp.doc" && cp "$tmp.doc" "$3"
	rm -f "$tmp" "$tmp.doc"
	exit 0
fi
. "$root/tests/pw/portal-session.sh"
pw_session_as_user "$0" "$@"
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
PW=$build/pw/negcam-pw
LABEL="negcam faulty camera"
SECS=5
command -v chromium >/dev/null || { echo "faults-chromium: no chromium (make deps)"; exit 77; }
[ -x "$PW" ] || { echo "faults-chromium: $PW not built"; exit 2; }
portal_session_start || { echo "faults-chromium: the portal session did not start"; exit 77; }
T=$PW_SESSION_DIR

# The faults both application tables run, one per line: fault line | format
# (tests/apps/fault-cases.txt, shared with tests/apps/faults-apps.sh).
cases=$(cat "$root/tests/apps/fault-cases.txt")
# NEGCAM_FAULTS_CASES: other cases, ';' between them (a quicker look at one fault).
[ -n "${NEGCAM_FAULTS_CASES:-}" ] && cases=$(tr ';' '\n' <<<"$NEGCAM_FAULTS_CASES")

# cell OUT: what the page printed (and negcam-pw's log, OUT.pw, said of
# the link), in words: one table cell.
cell() {
	local o=$1 res sum per ev n gap last state
	res=$(sed -n 's/^result //p' "$o" | head -1)
	sum=$(sed -n 's/^summary //p' "$o")
	per=$(sed -n 's/^second //p' "$o" | tr ' ' /)
	ev=$(awk '$1 == "event" { printf "%s%s at %.1f s%s", s, $2, $3 / 1000, ($4 ? " to " $4 : ""); s = "; " }' "$o")
	read -r _ n _ gap _ last _ _ _ state _ <<<"$sum"
	case $res in
	ok) ;;
	exited*) echo "**crash**: the browser ended; ${ev:-no event}"; return ;;
	timeout*) echo "**frozen** page, no result; ${ev:-no event}"; return ;;
	*) echo "getUserMedia failed: \`$res\`"; return ;;
	esac
	if [ "${n:-0}" = 0 ]; then
		echo "no frame shown; track ${state:-?}${ev:+; $ev}"
		return
	fi
	local what="frames keep coming"
	if [ "$state" = ended ]; then
		what="stops: track ended"
	elif [ "$last" -lt $((SECS * 1000 - 1000)) ]; then
		what="**freezes** after $(awk -v l="$last" 'BEGIN { printf "%.1f", l / 1000 }') s, track $state"
	elif [ "$gap" -ge 500 ]; then
		what="pauses ${gap} ms, then recovers"
	fi
	local link
	link=$(grep -m1 -o "link failed: [^(]*" "$o.pw" | sed 's/ *$//')
	echo "$what; $n frames in ${SECS} s ($per a second)${ev:+; $ev}${link:+; negcam-pw: its $link}"
}

# run FAULT FMT: one negcam-pw with the fault, Chromium on it; the cell.
run() {
	local fault=$1 fmt=$2 p=$T/p.profile o pid rc
	o=$T/${fault%% *}.out
	printf 'name faulty\ncard "%s"\nformat %s\n  size 320x240 fps 30\n  size 640x480 fps 30\nfault seed 7\n' \
		"$LABEL" "$fmt" >"$p"
	[ "$fault" != none ] && echo "fault $fault" >>"$p"
	"$PW" --profile "$p" --label "$LABEL" >"$o.pw" 2>&1 &
	pid=$!
	pw_session_wait "grep -q ' ready, profile faulty' '$o.pw'" 100
	NEGCAM_BROWSER=chromium NEGCAM_BROWSER_CAMERAS=pipewire NEGCAM_BROWSER_TIMEOUT=60 \
		NEGCAM_BROWSER_PAGE=$here/faults-cam.html NEGCAM_BROWSER_LOG=$o.log \
		NEGCAM_BROWSER_QUERY="wait=20&secs=$SECS&size=320x240" \
		"$root/tests/vm/browser.sh" "$LABEL" >"$o" 2>&1
	rc=$?
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
	sed "s/^/   $fault: /" "$o" >&2
	[ "$rc" = 77 ] && { echo "faults-chromium: chromium not installed"; exit 77; }
	cell "$o"
}

table() {
	echo "| fault | Chromium $(chromium --version 2>/dev/null | awk '{ print $2 }') (negcam-pw, Camera portal) |"
	echo "|---|---|"
	echo "$cases" | while IFS='|' read -r fault fmt; do
		echo "| \`$fault\` ($fmt) | $(run "$fault" "$fmt" </dev/null) |"
	done
}

t0=$SECONDS
table >"$T/table"
echo "Measured $(date -u +%Y-%m-%d) on $(uname -sr), $(chromium --version 2>/dev/null | cut -d' ' -f1-2)," \
	"PipeWire $(pw-cli --version 2>/dev/null | sed -n 's/.*libpipewire \([0-9.]*\).*/\1/p' | head -1), $((SECONDS - t0)) s" \
	"(\`make test-faults-chromium\`):"
echo
cat "$T/table"
