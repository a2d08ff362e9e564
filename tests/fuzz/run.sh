#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/fuzz/run.sh [quick|long]
#   quick: each fuzzer for 12 s (make test)
#   long:  fuzz_parser, fuzz_ioctl, fuzz_roundtrip (the profile writer
#          read back by the parser) and fuzz_uvc (negcam-uvc's device core
#          on a USB/IP stream) for 10 million executions each,
#          fuzz_import (negcam-ctl --import, slower) for 1 million
#          (make fuzz); override with NEGCAM_FUZZ_RUNS=N and
#          NEGCAM_FUZZ_IMPORT_RUNS=N; NEGCAM_FUZZ_ONLY="uvc ioctl" runs
#          only those
# Builds the libFuzzer harnesses with clang in build-fuzz (NEGCAM_FUZZ_BUILD
# to change), seeds the corpora from the built-in profiles and runs the
# fuzzers one after the other. A finding leaves its reproducer in
# build-fuzz/fuzz-artifacts/ and makes this script fail; replay it with
#   build-fuzz/tests/fuzz/fuzz_parser build-fuzz/fuzz-artifacts/crash-...
set -eu

mode=${1:-quick}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${NEGCAM_FUZZ_BUILD:-$root/build-fuzz}

# A unit's time limit is wall-clock: a long run niced on a loaded host
# (the 10M run of fuzz_uvc at load 13) stopped on a 0.33 s unit that took
# 13 s of wall time, so long runs allow 60 s (NEGCAM_FUZZ_TIMEOUT).
unit_timeout=${NEGCAM_FUZZ_TIMEOUT:-10}
case $mode in
quick) limit="-max_total_time=${NEGCAM_FUZZ_SECONDS:-12}"; import_limit=$limit ;;
long) limit="-runs=${NEGCAM_FUZZ_RUNS:-10000000}"
	unit_timeout=${NEGCAM_FUZZ_TIMEOUT:-60}
	import_limit="-runs=${NEGCAM_FUZZ_IMPORT_RUNS:-1000000}" ;;
*) echo "usage: $0 [quick|long]" >&2; exit 2 ;;
esac

if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz: clang is missing (make deps installs it)" >&2
	exit 1
fi

if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" "$root" -Dfuzz=true -Dgst=disabled \
		--buildtype=debugoptimized >"$build.setup.log" 2>&1 ||
		{ cat "$build.setup.log" >&2; exit 1; }
	rm -f "$build.setup.log"
fi
# ninja prints its errors on stdout: kept in a log, shown if the build fails.
ninja -C "$build" tests/fuzz/fuzz_parser tests/fuzz/fuzz_ioctl tests/fuzz/fuzz_import tests/fuzz/fuzz_roundtrip tests/fuzz/fuzz_uvc \
	ctl/negcam-ctl >"$build/ninja.log" 2>&1 ||
	{ tail -n 30 "$build/ninja.log" >&2; echo "fuzz: building the fuzzers failed" >&2; exit 1; }

corpus=$build/fuzz-corpus
artifacts=$build/fuzz-artifacts
logs=$build/fuzz-logs
mkdir -p "$corpus/parser" "$corpus/ioctl" "$corpus/import" "$corpus/roundtrip" "$corpus/uvc" "$artifacts" "$logs"

# Parser seeds: every built-in profile's text.
# Import seeds: their listings, both layouts of v4l2-ctl.
"$build/ctl/negcam-ctl" --list-profiles | awk 'NF == 0 { exit } { print $1 }' | while read -r name; do
	"$build/ctl/negcam-ctl" --show-profile "$name" >"$corpus/parser/builtin-$name"
	"$build/ctl/negcam-ctl" --profile "$name" --list-formats-ext \
		>"$corpus/import/builtin-$name"
done
# The camera shelf's real listings and the bad ones --import must refuse.
for f in "$root"/tests/engine/profiles/cameras/*.txt "$root"/tests/fuzz/import-bad/*.txt; do
	cp "$f" "$corpus/import/shelf-$(basename "$f")"
done
if [ -f "$root/tests/engine/profiles/example.profile" ]; then
	"$build/ctl/negcam-ctl" --profile "$root/tests/engine/profiles/example.profile" \
		--list-formats-ext --list-formats-out-ext >"$corpus/import/example" || true
fi
printf '%s\n' 'ioctl: VIDIOC_ENUM_FMT' '	Index       : 0' '	Type        : Video Capture' \
	"	Pixel Format: 'MJPG' (compressed)" '	Name        : Motion-JPEG' \
	'		Size: Discrete 1280x720' '			Interval: Discrete 0.033s (29.970 fps)' \
	'			Interval: Stepwise 0.017s - 1.000s with step 0.017s (1.000-60.000 fps)' \
	'		Size: Stepwise 16x16 - 1920x1080 with step 16/8' >"$corpus/import/old-layout"
# The parser tests' malformed profiles and full example are good seeds too,
# and every past finding (tests/fuzz/findings) stays in the corpus.
for f in "$root"/tests/engine/profiles/*.profile "$root"/tests/engine/profiles/bad/* \
	"$root"/tests/fuzz/findings/*.profile; do
	if [ -f "$f" ]; then cp "$f" "$corpus/parser/seed-$(basename "$f")"; fi
done

# ioctl seeds: byte 0 picks the profile, then opcode/operand programs
# (see fuzz_ioctl.c): S_FMT + G_FMT, TRY oversize, S_PARM, busy S_FMT,
# the enumeration sweep, set_profile.
n=$("$build/ctl/negcam-ctl" --list-profiles | awk 'NF == 0 { exit } { n++ } END { print n + 0 }')
i=0
while [ "$i" -lt "$n" ]; do
	p=$(printf '\\%03o' "$i")
	printf "${p}\002\000\001\000\000\000\002\000\000\006\000\002\000" >"$corpus/ioctl/p$i-sfmt"
	printf "${p}\000\000\000\377\377\377\377\377\377\377\377\000\000" >"$corpus/ioctl/p$i-try-huge"
	printf "${p}\005\000\000\001\000\036\000\004\000" >"$corpus/ioctl/p$i-parm"
	printf "${p}\011\200\003\000\001\000\000\000\000\000\011\000\003\000" >"$corpus/ioctl/p$i-busy"
	printf "${p}\373\012\001\373" >"$corpus/ioctl/p$i-sweep"
	printf "${p}\012\001\006\000\026\000\000" >"$corpus/ioctl/p$i-profile"
	i=$((i + 1))
done

# uvc seeds (see fuzz_uvc.c): the webcam's PROBE SET_CUR, SET_INTERFACE alt 8,
# an isochronous URB, time passing, an UNLINK.
printf '\000\001\041\001\000\001\001\000\042\000\000\000\001\006\025\026\005\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\001\001\013\010\000\001\000\000\000\002\037\277\001\004\200\004\377\003\000' >"$corpus/uvc/webcam-stream"
# The round trip starts from what the parser accepts: the same seeds.
cp "$corpus"/parser/builtin-* "$corpus"/parser/seed-* "$corpus/roundtrip/" 2>/dev/null

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

passed=0
failed=0
for f in ${NEGCAM_FUZZ_ONLY:-parser ioctl import roundtrip uvc}; do
	bin=$build/tests/fuzz/fuzz_$f
	log=$logs/fuzz_$f-$mode.log
	dict=
	[ -f "$root/tests/fuzz/$f.dict" ] && dict="-dict=$root/tests/fuzz/$f.dict"
	[ "$f" = roundtrip ] && dict="-dict=$root/tests/fuzz/parser.dict"
	case $f in parser | import | roundtrip) maxlen=16384 ;; *) maxlen=2048 ;; esac
	lim=$limit
	[ "$f" = import ] && lim=$import_limit
	start=$(date +%s)
	# shellcheck disable=SC2086
	if "$bin" "$corpus/$f" $lim $dict -max_len=$maxlen -timeout=$unit_timeout \
		-print_final_stats=1 -artifact_prefix="$artifacts/fuzz_$f-" >"$log" 2>&1; then
		status=ok
		passed=$((passed + 1))
	else
		status="FINDING (see $log and $artifacts)"
		failed=$((failed + 1))
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	echo "fuzz_$f: ${runs:-?} executions in $(( $(date +%s) - start )) s: $status"
	[ "$status" = ok ] || tail -n 30 "$log" >&2
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
