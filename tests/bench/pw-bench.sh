#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/bench/pw-bench.sh OUTDIR BUILD: the measuring half of
# tests/bench/pw.sh, inside one private PipeWire session
# (tests/pw/session.sh; as root it re-runs itself as the user
# negcam-test, so OUTDIR must be writable by that user).
#
# Producers, at YUY2 1280x720 30 fps:
#   a  negcam-pw --profile tests/bench/pw.profile
#   b  gst-launch-1.0 videotestsrc is-live=true ! CAPS ! pipewiresink
#      mode=provide (PipeWire's recipe for a camera node)
#   c  gst-launch-1.0 videotestsrc is-live=true ! CAPS ! negcampwconvertsink
#      profile=tests/bench/pw.profile (the same source as b; the format
#      needs no conversion, so the bin passes it on and the sink copies
#      each frame once into the PipeWire buffer)
# Each run starts a fresh producer (pipewiresink serves one capture
# only), then measures:
#   idle  IDLE s with no consumer: the producer's utime+stime ticks
#         (/proc/PID/stat) and its threads' run time (schedstat, ns)
#   busy  BUSY s with one consumer `pipewiresrc ! CAPS ! fpsdisplaysink
#         video-sink=fakesink`, after WARM s: the producer's ticks and run
#         time, the frames the consumer rendered (its last-message), and
#         the consumer's and the pipewire daemon's run time
# ROUNDS rounds (NEGCAM_BENCH_PW_ROUNDS, default 3), a, b and c
# alternated (a b c, c b a, ...), into OUTDIR/pw-KIND-ROUND.kv; then one more run of
# each with bench-memcount.so preloaded into the producer (not used for
# CPU), into OUTDIR/pw-KIND-copies.kv: its memcpy/memmove calls and bytes
# over the busy window, all of them and those of a row (2560 bytes) or
# more (big_*): frame data. Nothing here asserts a time.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/pw/session.sh"
pw_session_as_user "$0" "$@"

OUT=${1:?usage: pw-bench.sh OUTDIR BUILD}
BUILD=${2:?usage: pw-bench.sh OUTDIR BUILD}
ROUNDS=${NEGCAM_BENCH_PW_ROUNDS:-3}
IDLE=${NEGCAM_BENCH_PW_IDLE:-6}
WARM=2
BUSY=${NEGCAM_BENCH_PW_BUSY:-8}
PW=$BUILD/pw/negcam-pw
MEMCOUNT=$root/tests/bench/out/bin/bench-memcount.so
CAPS=video/x-raw,format=YUY2,width=1280,height=720,framerate=30/1
FRAME_BYTES=$((1280 * 720 * 2))

die() { echo "pw-bench: $*" >&2; exit 1; }
[ -x "$PW" ] || die "$PW not built"
[ -w "$OUT" ] || die "$OUT not writable by $(id -un)"

# utime+stime of PID in clock ticks (fields 14 and 15 after the comm).
ticks() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'; }
# Run time of all of PID's threads in ns (schedstat's first field).
run_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s }'; }
# Frames the consumer rendered so far: fpsdisplaysink's last line.
rendered() { grep -o 'rendered: [0-9]*' "$1" 2>/dev/null | tail -1 | awk '{ print $2 + 0 }'; }
node_up() { pw-cli ls Node 2>/dev/null | grep -q "node.name = \"$1\""; }

start_producer() { # KIND PRELOAD -> PROD, NODE
	local wrap=()
	[ "$2" = 1 ] && wrap=(env LD_PRELOAD="$MEMCOUNT" BENCH_MEMCOUNT_MIN=2560 \
		BENCH_MEMCOUNT_OUT="$OUT/memcount-$1.txt")
	rm -f "$OUT/memcount-$1.txt"
	if [ "$1" = a ]; then
		NODE=negcam.pwbench
		"${wrap[@]}" "$PW" --profile "$root/tests/bench/pw.profile" --label pwbench \
			>"$OUT/producer-a.log" 2>&1 &
	elif [ "$1" = c ]; then
		NODE=negcam.pwsink
		GST_PLUGIN_PATH=$BUILD/gst "${wrap[@]}" gst-launch-1.0 -q videotestsrc is-live=true \
			! "$CAPS" ! negcampwconvertsink profile="$root/tests/bench/pw.profile" label=pwsink \
			>"$OUT/producer-c.log" 2>&1 &
	else
		NODE=gst-provide
		"${wrap[@]}" gst-launch-1.0 -q videotestsrc is-live=true ! "$CAPS" \
			! pipewiresink mode=provide \
			stream-properties="props,media.class=Video/Source,media.role=Camera,node.name=$NODE" \
			>"$OUT/producer-b.log" 2>&1 &
	fi
	PROD=$!
	pw_session_wait "node_up $NODE" 100 || die "node $NODE did not appear ($OUT/producer-$1.log)"
}

stop_pid() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }

# Appends the memcount line of the producer (SIGUSR2) as copies_KEY=.
memcount_mark() { # KIND WHEN
	local f=$OUT/memcount-$1.txt n
	n=$(cat "$f" 2>/dev/null | wc -l)
	kill -USR2 "$PROD"
	pw_session_wait "[ \$(wc -l < $f 2>/dev/null || echo 0) -gt $n ]" 20
	tail -1 "$f" | tr ' ' '\n' | sed "s/^/$2_/"
}

# One run: KIND ID PRELOAD; writes OUT/pw-KIND-ID.kv.
run_one() {
	local kind=$1 id=$2 pre=$3 w0 w1 t0 n0 c0 f0 d0 t1 n1 c1 f1 d1 cons log=$OUT/consumer-$1.log
	start_producer "$kind" "$pre"
	sleep 1
	{
		echo "kind=$kind"
		echo "round=$id"
		echo "preload=$pre"
		echo "frame_bytes=$FRAME_BYTES"
		t0=$(ticks "$PROD") n0=$(run_ns "$PROD")
		sleep "$IDLE"
		t1=$(ticks "$PROD") n1=$(run_ns "$PROD")
		echo "idle_s=$IDLE"
		echo "idle_ticks=$((t1 - t0))"
		echo "idle_ns=$((n1 - n0))"
		gst-launch-1.0 -v pipewiresrc target-object="$NODE" ! "$CAPS" \
			! fpsdisplaysink video-sink=fakesink text-overlay=false sync=false \
			fps-update-interval=100 >"$log" 2>&1 &
		cons=$!
		pw_session_wait "[ \"\$(rendered $log)\" -gt 0 ]" 150 || echo "error=no frame in 15 s"
		sleep "$WARM"
		[ "$pre" = 1 ] && memcount_mark "$kind" start
		w0=$(date +%s%N) f0=$(rendered "$log") t0=$(ticks "$PROD") n0=$(run_ns "$PROD")
		c0=$(run_ns "$cons") d0=$(run_ns "$PWD_PID")
		sleep "$BUSY"
		w1=$(date +%s%N) f1=$(rendered "$log") t1=$(ticks "$PROD") n1=$(run_ns "$PROD")
		c1=$(run_ns "$cons") d1=$(run_ns "$PWD_PID")
		[ "$pre" = 1 ] && memcount_mark "$kind" end
		echo "busy_s=$BUSY"
		echo "wall_ms=$(((w1 - w0) / 1000000))"
		echo "frames=$((f1 - f0))"
		echo "busy_ticks=$((t1 - t0))"
		echo "busy_ns=$((n1 - n0))"
		echo "consumer_ns=$((c1 - c0))"
		echo "daemon_ns=$((d1 - d0))"
		echo "load=$(cut -d' ' -f1 /proc/loadavg)"
	} >"$OUT/pw-$kind-$id.kv"
	stop_pid "$cons"
	stop_pid "$PROD"
	printf '.'
}

pw_session_start || die "no PipeWire session"
set -- $PW_SESSION_PIDS   # wireplumber, pipewire, dbus-daemon
PWD_PID=$2
echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)" >"$OUT/pw-machine.kv"
for ((r = 1; r <= ROUNDS; r++)); do
	if ((r % 2)); then order="a b c"; else order="c b a"; fi
	for k in $order; do run_one "$k" "$r" 0; done
done
IDLE=2 BUSY=5
for k in a b c; do run_one "$k" copies 1; done
{
	echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "rounds=$ROUNDS"
	echo "idle_s=${NEGCAM_BENCH_PW_IDLE:-6}"
	echo "busy_s=${NEGCAM_BENCH_PW_BUSY:-8}"
	echo "pipewire=$(pipewire --version 2>/dev/null | sed -n "s/.*libpipewire \([0-9.]*\).*/\1/p" | head -1)"
} >>"$OUT/pw-machine.kv"
echo
