#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/bench/pw.sh [BUILD] [RES]: negcam-pw and negcampwconvertsink against `pipewiresink
# mode=provide` at YUY2 1280x720 30 fps (issue 39, "Performance"), in one
# private PipeWire session on the host: CPU per delivered frame, copies of
# frame data in the producer, CPU with no consumer. The `pw` part of
# tests/bench/run.sh; also runs alone. tests/bench/pw-bench.sh measures
# (as the user negcam-test when root), into RES (default
# tests/bench/out/results) as pw-*.kv; tests/bench/pw-report.py prints
# the table of medians. Nothing here asserts a time. About 3 minutes
# (NEGCAM_BENCH_PW_ROUNDS, default 3).
set -u
TREE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
BUILD=${1:-build}
RES=${2:-$TREE/tests/bench/out/results}
case $BUILD in /*) ;; *) BUILD=$TREE/$BUILD ;; esac
cd "$TREE" || exit 1

[ -x "$BUILD/pw/negcam-pw" ] || { echo "bench pw: $BUILD/pw/negcam-pw not built (libpipewire-0.3-dev)" >&2; exit 1; }
"$TREE/tests/bench/build.sh" || { echo "bench pw: helpers do not build" >&2; exit 1; }
mkdir -p "$RES"
OUT=$(mktemp -d "${TMPDIR:-/tmp}/negcam-pwbench.XXXXXX") || exit 1
trap 'rm -rf "$OUT"' EXIT
# As root, pw-bench.sh runs as an unprivileged user, who writes here.
[ "$(id -u)" = 0 ] && chmod 0777 "$OUT"
rm -f "$RES"/pw-*.kv
{
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit=$(git rev-parse --short HEAD 2>/dev/null)"
	echo "cpus=$(nproc)"
	echo "clk_tck=$(getconf CLK_TCK)"
} >"$RES/pw-run.kv"
echo "bench: pw part (negcam-pw against pipewiresink mode=provide, a PipeWire session)"
bash "$TREE/tests/bench/pw-bench.sh" "$OUT" "$BUILD" || { echo "bench pw: the session part failed" >&2; exit 1; }
cp "$OUT"/pw-*.kv "$RES"/
cat "$RES/pw-machine.kv" >>"$RES/pw-run.kv" && rm -f "$RES/pw-machine.kv"
python3 "$TREE/tests/bench/pw-report.py" "$RES"
