#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/bench/loop-ab.sh [-r ROUNDS] [NAME=KO ...]: A/B of loop builds in
# one VM boot. Runs in the VM:
#   tests/vm/run.sh --timeout 1800 tests/bench/loop-ab.sh main=kmod/negcam.ko try=/tmp/x/negcam.ko
# (KO paths relative to the checkout or absolute; default main=kmod/negcam.ko).
# Debian's v4l2loopback (tests/vm/v4l2loopback.sh builds it) stays loaded;
# each round runs tests/bench/bench-loop.c at 640x480 and 1280x720 on it,
# then on each NAME's negcam.ko (loaded alone, one loop that follows its
# producer, unloaded after), the NAMEs taking turns to go first: round r
# starts with the r-th NAME, so no build always runs right after
# v4l2loopback (an effect of the order would pass for one of the build).
# Prints a markdown table of the medians over the rounds, with ratios to
# v4l2loopback; the raw key=value files stay in tests/bench/out/loop-ab/. For trying a change to the loop's frame path
# against the module on main before it lands (docs/benchmarks.md, section 7).
set -u
TREE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
RES=$TREE/tests/bench/out/loop-ab
. "$TREE/tests/bench/lib.sh"
OUT=$RES
ROUNDS=4
[ "${1:-}" = -r ] && { ROUNDS=$2; shift 2; }
[ $# -gt 0 ] || set -- main=kmod/negcam.ko
KEYS="lat_median_us lat_p99_us wake_us producer_us_per_frame producer_qbuf_us consumer_us_per_frame consumer_qbuf_us wrong_size"
die() { echo "loop-ab.sh: $*" >&2; exit 1; }

# median FILES... KEY: the median of KEY= over FILES, empty if none has it.
median() {
	local key=${!#}
	sed -n "s/^$key=//p" "${@:1:$#-1}" | sort -g |
		awk '{ a[NR] = $1 } END { if (NR) printf "%.1f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

[ -x "$BIN/bench-loop" ] || die "no $BIN/bench-loop: run tests/bench/build.sh on the host"
PEER=$TREE/tests/vm/out/v4l2loopback-$(uname -r)/v4l2loopback.ko
[ -f "$PEER" ] || die "no $PEER: run tests/vm/v4l2loopback.sh on the host"
for v in "$@"; do
	case $v in ?*=?*) ;; *) die "$v: not NAME=KO" ;; esac
	ko=${v#*=}
	case $ko in /*) ;; *) ko=$TREE/$ko ;; esac
	[ -f "$ko" ] || die "$v: no such module"
done
mkdir -p "$OUT" && rm -f "$OUT"/*.kv
modprobe -a videobuf2-vmalloc videobuf2-v4l2 videodev configfs || exit 1
rmmod negcam 2>/dev/null
insmod "$PEER" devices=1 exclusive_caps=0 card_label=loop-ab-peer || exit 1
sleep 0.5
LB=$(node_named loop-ab-peer) || die "v4l2loopback made no node"

for r in $(seq "$ROUNDS"); do
	for size in "640 480" "1280 720"; do
		s=${size/ /x}
		"$BIN/bench-loop" run "$LB" "$LB" $size 300 > "$OUT/v4l2loopback-$s-r$r.kv" 2>&1
		# rotated by one NAME a round: "${order[@]}" is round r's order
		order=("${@:(r - 1) % $# + 1}" "${@:1:(r - 1) % $#}")
		for v in "${order[@]}"; do
			ko=${v#*=}
			case $ko in /*) ;; *) ko=$TREE/$ko ;; esac
			insmod "$ko" loops=1 loop_captures=1 loop_profile=follow || die "$v: insmod failed"
			sleep 0.5
			"$BIN/bench-loop" run "$(node_named "negcam loop 0 output")" \
				"$(node_named "negcam loop 0 capture 0")" $size 300 \
				> "$OUT/${v%%=*}-$s-r$r.kv" 2>&1
			rmmod negcam
		done
	done
	echo "loop-ab.sh: round $r of $ROUNDS done" >&2
done
rmmod v4l2loopback

echo "| size | module | ${KEYS// / | } |"
echo "|---|---|$(for k in $KEYS; do printf -- '---|'; done)"
for s in 640x480 1280x720; do
	for n in v4l2loopback "${@%%=*}"; do
		row="| $s | $n |"
		for k in $KEYS; do
			m=$(median "$OUT/$n-$s"-r*.kv "$k")
			b=$(median "$OUT/v4l2loopback-$s"-r*.kv "$k")
			if [ "$n" != v4l2loopback ] && [ -n "$m" ] && [ -n "$b" ] && [ "$k" != wrong_size ]; then
				m="$m ($(awk -v a="$m" -v b="$b" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'))"
			fi
			row+=" ${m:--} |"
		done
		echo "$row"
	done
done
