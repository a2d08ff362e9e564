# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# tests/pw/pw-faults-checks.sh: the fault checks of tests/pw/pw-suite.sh
# (docs/faults.md, "negcam-pw"), sourced by it (it defines PW, T, build,
# check and wait_for). Each fault is read from outside, by
# tests/pw/pw-fault-consumer (a pw_stream consumer that prints every
# buffer's header seq, pts, chunk flags and size, every Format, and the
# node leaving the registry) and by ffmpeg on the MJPEG it saved:
#   drop: gaps in spa_meta_header.seq, the same frames on two runs of
#     seed 7 and as negcam-run loses them (4 6 47 58 59), others for seed 8
#     (0 7 22 25 38 55: frame 0 too, which a V4L2 reader cannot see lost)
#   error: buffers with SPA_CHUNK_FLAG_CORRUPTED and the header's
#     CORRUPTED flag, the same on two runs (0 3 4 9 20 46), no frame lost
# A consumer on a loaded machine misses graph cycles (a seq missing that
# was sent): the checks allow a fifth of the other frames missing, never
# one of the seed's lost frames arriving or a flag on the wrong frame.
#   corrupt: ffmpeg's decoder complains of the saved MJPEG (not of a
#     clean run's); truncate: frames without EOI, shorter
#   stall: a pause of about a second in the arrivals, no seq gap
#   rate: about 10 buffers a second from a 30 fps format
#   timestamp-jump: pts jump by about 500 ms, the arrivals do not
#   source-change: a second Format, 640x480, then buffers of that size
#   unplug: the node leaves the registry about a second in; negcam-pw
#     serves on without it
#   --faults FILE: faults switched while streaming (drop, then unplug),
#     the node published again when FILE goes; a bad FILE refused with
#     FILE:LINE:COL, at start (exit 2) and while running (faults kept)
# The two runs of a seed are the "same seed, same faults" acceptance.

FC=$build/tests/pw/pw-fault-consumer
FNODE=negcam.faulty

# fault_profile FILE LINES...: a 30 fps YUYV and MJPG camera with LINES.
fault_profile() {
	local f=$1
	shift
	printf 'name faulty\nformat YUYV\n  size 320x240 fps 30\n  size 640x480 fps 30\n' >"$f"
	printf 'format MJPG\n  size 320x240 fps 30\n' >>"$f"
	printf '%s\n' "$@" >>"$f"
}

# fault_run NAME SECONDS raw|mjpg LINE...: the consumer's report of
# SECONDS of a node with the fault LINEs in $T/f-NAME.txt (negcam-pw's
# log in .pw.log, the payloads in .bin).
fault_run() {
	local secs=$2 kind=$3 out=$T/f-$1
	shift 3
	fault_profile "$out.profile" "$@"
	"$PW" --profile "$out.profile" >"$out.pw.log" 2>&1 &
	local pid=$!
	wait_for "grep -q ' ready, profile faulty' '$out.pw.log'" 100
	timeout $((secs + 10)) "$FC" "$FNODE" "$secs" "$kind" "$out.bin" >"$out.txt" 2>&1
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
}

# The seqs missing below $2 in report $1 (space-separated).
seq_gaps() {
	awk -v below="$2" '$2 == "buf" { seen[$3] = 1; if ($3 > max) max = $3 }
	     END { for (i = 0; i < below && i <= max; i++) if (!(i in seen)) s = s (s ? " " : "") i
	           print s }' "$1"
}

# The seqs below $2 whose chunk and header both say CORRUPTED
# (SPA_CHUNK_FLAG_CORRUPTED is 1, SPA_META_HEADER_FLAG_CORRUPTED 2).
seq_flagged() {
	awk -v below="$2" '$2 == "buf" && $3 < below && $6 % 2 == 1 && int($7 / 2) % 2 == 1 { s = s (s ? " " : "") $3 }
	     END { print s }' "$1"
}

# lost_as FILE BELOW "SEQS": each of SEQS is missing from report FILE and,
# of the other frames below BELOW, at most a fifth (a consumer on a loaded
# machine misses cycles: the seq is then missing too, the frame was sent).
# Says the difference when not.
lost_as() {
	awk -v below="$2" -v want="$3" '
	     BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) lost[w[i]] = 1 }
	     $2 == "buf" { seen[$3] = 1 }
	     END { for (i = 0; i < below; i++) {
	             if ((i in lost) && (i in seen)) { print "seq " i " arrived"; bad = 1 }
	             if (!(i in lost) && !(i in seen)) miss++ }
	           if (miss * 5 > below - n) { print miss " other frames missing"; bad = 1 }
	           exit bad }' "$1"
}

# flagged_as FILE BELOW "SEQS": of the frames below BELOW that arrived,
# those of SEQS and only those are flagged CORRUPTED; at most a fifth missing.
flagged_as() {
	awk -v below="$2" -v want="$3" '
	     BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) flag[w[i]] = 1 }
	     $2 == "buf" && $3 < below { got++; f = $6 % 2 == 1 && int($7 / 2) % 2 == 1
	                                 if (f != ($3 in flag)) { print "seq " $3 " flagged " f; bad = 1 } }
	     END { if (got * 5 < below * 4) { print "only " got " of " below " arrived"; bad = 1 }
	           exit bad }' "$1"
}

# Longest step between buffers of report $1, in ms: of arrival ($2 = 1) or of pts ($2 = 0).
longest_step() {
	awk -v arrival="$2" '$2 == "buf" { v = arrival ? $1 : $4 / 1000000
	     if (n && v - last > m) m = v - last; last = v; n++ } END { printf "%d\n", m }' "$1"
}

buffers() { grep -c ' buf ' "$1"; }

pw_check_fault_drop() {
	fault_run drop1 3 raw "fault seed 7" "fault drop 10%"
	fault_run drop2 3 raw "fault seed 7" "fault drop 10%"
	fault_run drop8 3 raw "fault seed 8" "fault drop 10%"
	echo "drop 10%: seed 7 gaps [$(seq_gaps "$T/f-drop1.txt" 60)], again [$(seq_gaps "$T/f-drop2.txt" 60)];" \
		"seed 8 [$(seq_gaps "$T/f-drop8.txt" 60)]"
	check "faults: drop 10% seed 7: seq 4 6 47 58 59 lost (as through negcam-run), the others arrive" \
		lost_as "$T/f-drop1.txt" 60 "4 6 47 58 59"
	check "faults: drop, the same seed again: the same seqs lost" lost_as "$T/f-drop2.txt" 60 "4 6 47 58 59"
	check "faults: drop 10% seed 8: other seqs lost (0 7 22 25 38 55; 4 6 arrive)" \
		lost_as "$T/f-drop8.txt" 60 "0 7 22 25 38 55"
}

pw_check_fault_error() {
	fault_run error1 3 raw "fault seed 7" "fault error 10%"
	fault_run error2 3 raw "fault seed 7" "fault error 10%"
	echo "error 10%: flagged [$(seq_flagged "$T/f-error1.txt" 60)], again [$(seq_flagged "$T/f-error2.txt" 60)]"
	check "faults: error 10% seed 7: seq 0 3 4 9 20 46 flagged CORRUPTED (chunk and header), no other" \
		flagged_as "$T/f-error1.txt" 60 "0 3 4 9 20 46"
	check "faults: error, the same seed again: the same buffers flagged" \
		flagged_as "$T/f-error2.txt" 60 "0 3 4 9 20 46"
	check "faults: error: no frame lost for it" lost_as "$T/f-error1.txt" 60 ""
}

pw_check_fault_mjpeg() {
	local clean bad noeoi
	fault_run mjpg 2 mjpg "fault seed 7"
	fault_run corrupt 2 mjpg "fault seed 7" "fault corrupt 20%"
	fault_run truncate 2 mjpg "fault seed 7" "fault truncate 20%"
	clean=$(ffmpeg -nostdin -v error -f mjpeg -i "$T/f-mjpg.bin" -f null - 2>&1 | wc -l)
	bad=$(ffmpeg -nostdin -v error -f mjpeg -i "$T/f-corrupt.bin" -f null - 2>&1 | wc -l)
	noeoi=$(awk '$2 == "buf" && $8 == "0"' "$T/f-truncate.txt" | wc -l)
	echo "MJPEG: ffmpeg messages clean $clean, corrupt 20% $bad; truncate 20%: $noeoi of $(buffers "$T/f-truncate.txt") without EOI"
	check "faults: corrupt 20%: ffmpeg's decoder complains (a clean run: no message)" \
		test "$clean" = 0 -a "$bad" -gt 0
	check "faults: truncate 20%: frames without EOI (a clean run: none)" \
		test "$noeoi" -gt 0 -a "$(awk '$2 == "buf" && $8 == "0"' "$T/f-mjpg.txt" | wc -l)" = 0
}

pw_check_fault_timing() {
	local stall rate jump arr
	fault_run stall 3 raw "fault stall 1s every 1500ms"
	fault_run rate 3 raw "fault rate 10"
	fault_run jump 3 raw "fault timestamp-jump 500ms every 1s"
	stall=$(longest_step "$T/f-stall.txt" 1) rate=$(buffers "$T/f-rate.txt")
	jump=$(longest_step "$T/f-jump.txt" 0) arr=$(longest_step "$T/f-jump.txt" 1)
	echo "stall: longest pause ${stall} ms; rate 10: $rate buffers in 3 s; jump: pts step ${jump} ms, arrivals ${arr} ms"
	check "faults: stall 1s every 1500ms: a pause of 0.9 to 1.3 s" test "$stall" -ge 900 -a "$stall" -le 1300
	check "faults: stall: no frame lost for it" lost_as "$T/f-stall.txt" 40 ""
	check "faults: rate 10 on a 30 fps format: 20 to 34 buffers in 3 s" test "$rate" -ge 20 -a "$rate" -le 34
	check "faults: timestamp-jump 500ms: a pts step of 450 ms or more, arrivals under 400 ms apart" \
		test "$jump" -ge 450 -a "$arr" -lt 400
}

pw_check_fault_source_change() {
	local f=$T/f-change.txt
	fault_run change 3 raw "fault source-change 1s 640x480"
	grep -v ' buf ' "$f"
	check "faults: source-change 1s 640x480: a second Format, 640x480, about 1 s in" \
		test "$(awk '$2 == "format" { s = s $3 " " } END { print s }' "$f")" = "320x240 640x480 "
	check "faults: source-change: then buffers of 640x480 YUYV (614400 bytes)" \
		test "$(awk '$2 == "buf" { s = $5 } END { print s }' "$f")" = 614400
	check "faults: source-change: negcam-pw says it" grep -q "the source is now 640x480" "$T/f-change.pw.log"
}

pw_check_fault_unplug() {
	local f=$T/f-unplug
	fault_profile "$f.profile" "fault unplug 1s"
	"$PW" --profile "$f.profile" >"$f.pw.log" 2>&1 &
	local pid=$!
	wait_for "grep -q ' ready, profile faulty' '$f.pw.log'" 100
	timeout 15 "$FC" "$FNODE" 4 raw >"$f.txt" 2>&1
	grep -v ' buf ' "$f.txt"
	check "faults: unplug 1s: the node leaves the registry 0.8 to 2 s in, after 20 or more buffers" \
		test "$(awk '$2 == "node-removed" { t = $1 } END { print (t >= 800 && t <= 2000) }' "$f.txt")" = 1 \
		-a "$(buffers "$f.txt")" -ge 20
	check "faults: unplug: pw-dump has no such node, negcam-pw runs on" \
		test -z "$(node_summary "$FNODE")" -a -d "/proc/$pid"
	kill -TERM "$pid"
	wait "$pid"
	check "faults: unplug: negcam-pw ends on SIGTERM with exit 0, no memfd open" \
		grep -q "node removed, 0 memfds open" "$f.pw.log"
}

pw_check_fault_file() {
	local f=$T/f-file ctl=$T/f-file.faults out
	rm -f "$ctl"
	fault_profile "$f.profile" "fault seed 7"
	"$PW" --profile "$f.profile" --faults "$ctl" >"$f.pw.log" 2>&1 &
	local pid=$!
	wait_for "grep -q ' ready, profile faulty' '$f.pw.log'" 100
	timeout 20 "$FC" "$FNODE" 5 raw >"$f.txt" 2>&1 &
	local cpid=$!
	sleep 1.5
	echo "drop 50%" >"$ctl"
	sleep 1.5
	echo "drop 200%" >"$ctl" # refused: the drop goes on
	sleep 0.5
	echo "unplug 0s" >"$ctl"
	wait "$cpid"
	local first after
	first=$(awk '$2 == "buf" && $3 < 20' "$f.txt" | wc -l)
	after=$(awk '$2 == "buf" { if (n && $3 > last + 1) g += $3 - last - 1; last = $3; n++ } END { print g + 0 }' "$f.txt")
	echo "--faults FILE: $(buffers "$f.txt") buffers, of the first 20: $first; $after frames missing in all"
	check "faults: --faults FILE: the first 20 frames arrive (16 or more), then 15 or more lost once 'drop 50%' is written" \
		test "$first" -ge 16 -a "$after" -ge 15
	check "faults: --faults FILE: a list that does not parse is said with FILE:1:COL, faults unchanged" \
		grep -q "$ctl:1:.*(faults unchanged)" "$f.pw.log"
	check "faults: --faults FILE: 'unplug 0s' written: the node leaves" grep -q ' node-removed' "$f.txt"
	rm -f "$ctl"
	wait_for "test \$(grep -c ' ready, profile faulty' '$f.pw.log') = 2" 50
	check "faults: --faults FILE gone: the node is published again" \
		test -n "$(node_summary "$FNODE")"
	kill -TERM "$pid"
	wait "$pid"
	echo "drop 120%" >"$ctl"
	out=$("$PW" --profile "$f.profile" --faults "$ctl" 2>&1)
	check "faults: a bad --faults FILE at start: FILE:1:COL, exit 2" \
		test $? = 2 -a -n "$(grep -F "$ctl:1:" <<<"$out")"
}

pw_check_faults() {
	[ -x "$FC" ] || { check "faults: $FC built" false; return; }
	pw_check_fault_drop
	pw_check_fault_error
	pw_check_fault_mjpeg
	pw_check_fault_timing
	pw_check_fault_source_change
	pw_check_fault_unplug
	pw_check_fault_file
}
