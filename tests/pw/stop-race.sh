#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/pw/stop-race.sh [BUILD [RUNS]]: Firefox ESR's crash when a capture
# stops (docs/pipewire.md, "The cause"), shown without a browser:
# tests/pw/stop-race.c stops its capture as Firefox does, against
# negcam-pw and against `pipewiresink mode=provide`, RUNS times each
# (default 5), with the thread loop's lock held 0, 5 and 200 ms before
# the destroy. Prints "stop-race: PRODUCER, HOLD ms: N of RUNS crashed"
# (SIGSEGV, and the address of the first crash from gdb when installed).
# Not in make test: it demonstrates a bug of Debian 12's libpipewire
# 0.3.65 (fixed in PipeWire 0.3.73 and 1.6), whatever the producer.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/pw/session.sh"
pw_session_as_user "$0" "$@"
build=${1:-$root/build}
case $build in /*) ;; *) build=$root/$build ;; esac
runs=${2:-5}
pw_session_start || { echo "stop-race: no PipeWire session"; exit 2; }
T=$PW_SESSION_DIR
race=$T/stop-race
# shellcheck disable=SC2046
cc -O1 -o "$race" "$root/tests/pw/stop-race.c" $(pkg-config --cflags --libs libpipewire-0.3) ||
	{ echo "stop-race: cannot build (libpipewire-0.3-dev)"; exit 2; }

# The producer for one run: negcam-pw serves on; pipewiresink mode=provide
# serves one capture only (docs/pipewire.md), so it is started per run.
provide_start() {
	gst-launch-1.0 -q videotestsrc is-live=true \
		! video/x-raw,format=YUY2,width=1280,height=720,framerate=30/1 \
		! pipewiresink mode=provide \
		stream-properties="props,media.class=Video/Source,media.role=Camera,node.name=gst-provide" \
		>"$T/provide.log" 2>&1 &
	g=$!
	pw_session_wait "pw-dump | grep -q '\"node.name\": \"gst-provide\"'" 100
}
provide_stop() { kill "$g"; wait "$g"; }

# NAME TARGET [START STOP]: RUNS races per hold against one producer.
races() {
	local hold i n
	for hold in 0 5 200; do
		n=0
		for ((i = 0; i < runs; i++)); do
			${3:-:}
			"$race" "$2" "$hold" >"$T/race.log" 2>&1
			[ $? = 139 ] && n=$((n + 1))
			${4:-:}
		done
		echo "stop-race: $1, lock held $hold ms: $n of $runs crashed (last: $(head -1 "$T/race.log"))"
	done
	command -v gdb >/dev/null || return 0
	${3:-:}
	gdb -q -batch -ex run -ex 'info sharedlibrary libpipewire-0.3' --args "$race" "$2" 200 >"$T/gdb.log" 2>&1
	${4:-:}
	lib=/usr/lib/x86_64-linux-gnu/libpipewire-0.3.so.0
	text=$(readelf -SW "$(readlink -f "$lib")" | awk '$2 == ".text" { print "0x" $4 }')
	pc=$(grep -o '^0x[0-9a-f]* in ?? () from [^ ]*libpipewire-0.3.so.0' "$T/gdb.log" | head -1 | cut -d' ' -f1)
	from=$(awk '/libpipewire-0.3.so.0$/ { print $1 }' "$T/gdb.log" | head -1)
	if [ -n "$pc" ] && [ -n "$from" ]; then
		printf 'stop-race: %s: SIGSEGV at libpipewire-0.3.so.0+0x%x\n' "$1" $((pc - from + text))
	else
		echo "stop-race: $1: no crash under gdb"
	fi
}

"$build/pw/negcam-pw" --profile webcam >"$T/pw.log" 2>&1 &
p=$!
pw_session_wait "grep -q ' ready, ' '$T/pw.log'" 100
races negcam-pw negcam.webcam
kill "$p"
wait "$p"
races "pipewiresink mode=provide" gst-provide provide_start provide_stop
