# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# negcam.ko's faults read from outside (docs/faults.md), sourced by
# tests/vm/kmod-suite.sh, which calls each test_kfaults_* in order (or
# by name: tests/vm/run.sh tests/vm/kmod-suite.sh test_kfaults_switch):
#   - a source change: SOURCE_CHANGE event, G_FMT's new size, no frames
#     until the restart, the new size's frames after it (vm-faults);
#   - timestamps that jump back: DQBUF's stamps go backwards;
#   - faults switched through configfs 'faults' while streaming: seed 7's
#     drops after the switch, none before; a bad line refused with
#     faults:LINE:COL; the same seed gives the same ERROR frames twice;
#   - a loop's unplug: its capture node's handle gets POLLERR and ENODEV,
#     its capture and output nodes vanish; the loop is removed and the
#     module reloads.
# Uses the suite's $CFS, $SYS, $DEV, load, unload, stream, pass, fail.

VF=$NEGCAM_TREE/tests/vm/out/bin/vm-faults

# The kernel log since line $1 has no WARNING, BUG or lockdep report.
kfaults_dmesg_clean() { # kfaults_dmesg_clean FROM WHAT
	local bad
	bad=$(dmesg | tail -n +$(($1 + 1)) | grep -E 'WARNING|BUG|circular locking|INFO: task|Oops' | head -n 3)
	if [ -z "$bad" ]; then pass "$2: kernel log clean"; else fail "$2: kernel log: $bad"; fi
}

# Sequence numbers of the buffers v4l2-ctl --verbose flagged ERROR, in $1.
kfaults_error_seqs() {
	awk '/cap dqbuf:/ && /error/ { for (i = 1; i <= NF; i++) if ($i == "seq:") printf "%s ", $(i + 1) }' "$1"
}

test_kfaults_source_change() {
	local d0 out
	d0=$(dmesg | wc -l)
	printf 'name capcard\nformat YUYV\n  size 320x240 fps 30\n  size 640x480 fps 30\nfault source-change 1s 640x480\n' > /tmp/kf-sc.profile
	cat /tmp/kf-sc.profile > $CFS/profile || { fail "source change: profile refused: $(cat $CFS/status)"; return; }
	v4l2-ctl -d $DEV --set-fmt-video=width=320,height=240,pixelformat=YUYV
	out=$(timeout -k 5 60 "$VF" source-change $DEV 640 480 2>&1)
	if [ $? = 0 ]; then pass "source change 1s 640x480: event, G_FMT 640x480, no frames until the restart, 640x480 frames after"
	else fail "source change: $(echo "$out" | grep FAIL | tr '\n' ' ')"; fi
	note "$(echo "$out" | tr '\n' ' ' | cut -c1-400)"
	# the stream now at 640x480 runs past 1 s: the source is that size, no event
	out=$(v4l2-ctl -d $DEV --stream-mmap=4 --stream-count=45 2>&1 | tr -dc '<' | wc -c)
	expect "source change: a stream at the new size goes on past T (45 frames)" "$out" 45
	kfaults_dmesg_clean "$d0" "source change"
}

# -300ms every 1s at 15 fps: at each second the stamps go back 233 ms.
test_kfaults_ts_back() {
	local back
	# one write(2), as configfs wants (printf writes line by line)
	printf 'name jumpy\nformat YUYV\n  size 320x240 fps 15\nfault timestamp-jump -300ms every 1s\n' > /tmp/kf-ts.profile
	cat /tmp/kf-ts.profile > $CFS/profile || fail "timestamp jump: profile refused: $(cat $CFS/status)"
	stream $DEV 40 > /tmp/kf-ts.txt
	back=$(awk 'NR > 1 && $2 < t { printf "%d ", $2 - t } { t = $2 }' /tmp/kf-ts.txt)
	note "timestamp-jump -300ms every 1s: backward steps (us): $back"
	if [ "$(echo $back | wc -w)" -ge 2 ] && echo "$back" | awk '{ for (i = 1; i <= NF; i++) if ($i >= 0 || $i < -300000) exit 1 }'
	then pass "timestamps go back (up to 300 ms less a frame) at each second in DQBUF"
	else fail "timestamps going back: '$back'"; fi
	if echo 'timestamp-jump -2s every 1s' > $CFS/faults 2>/dev/null; then fail "a jump longer than its period accepted"
	else pass "faults: 'timestamp-jump -2s every 1s' refused: $(cat $CFS/status)"; fi
}

test_kfaults_switch() {
	local missing f run1 run2 pid
	printf 'name plain\nformat YUYV\n  size 320x240 fps 15\n' > /tmp/kf-plain.profile
	cat /tmp/kf-plain.profile > $CFS/profile || fail "switch: profile refused: $(cat $CFS/status)"
	v4l2-ctl -d $DEV --stream-mmap=4 --stream-count=70 --verbose > /tmp/kf-sw.out 2>&1 &
	pid=$!
	sleep 1.5
	echo 'seed 7; drop 10%' > $CFS/faults || fail "faults: write refused: $(cat $CFS/status)"
	wait $pid
	missing=$(grep -o 'seq: *[0-9]*' /tmp/kf-sw.out | awk '{ print $2 }' |
		awk 'NR == 1 { p = $1; next } { for (s = p + 1; s < $1 && s < 60; s++) printf "%s ", s; p = $1 }')
	note "switched mid-stream to seed 7 drop 10%: sequence numbers below 60 missing: $missing"
	f=ok
	for s in 47 58 59; do case " $missing" in *" $s "*) ;; *) f="frame $s not lost" ;; esac; done
	for s in 4 6; do case " $missing" in *" $s "*) f="frame $s lost before the switch" ;; esac; done
	if [ "$f" = ok ]; then pass "faults switched while streaming: seed 7 loses 47 58 59 after it, not 4 6 before it"
	else fail "faults switched while streaming: $f"; fi
	expect "faults reads back the list in force" "$(cat $CFS/faults | tr '\n' ';')" "fault seed 7;fault drop 10%;"
	if echo 'drop 120%' > $CFS/faults 2>/dev/null; then fail "faults: 'drop 120%' accepted"; fi
	expect "faults: a bad line's status" "$(cat $CFS/status)" "error -22: faults:1:6: '120%' is over 100%, as in 'fault drop 5%'"
	if dmesg | tail -n 5 | grep -q "faults:1:6: '120%' is over 100%"; then pass "faults: the bad line in the kernel log"; else fail "faults: the bad line not in the kernel log"; fi
	echo 'seed 3; error 10%' > $CFS/faults
	v4l2-ctl -d $DEV --stream-mmap=4 --stream-count=40 --verbose > /tmp/kf-e1.out 2>&1
	v4l2-ctl -d $DEV --stream-mmap=4 --stream-count=40 --verbose > /tmp/kf-e2.out 2>&1
	run1=$(kfaults_error_seqs /tmp/kf-e1.out) run2=$(kfaults_error_seqs /tmp/kf-e2.out)
	note "seed 3 error 10%: ERROR buffers' sequence numbers: run 1: $run1; run 2: $run2"
	if [ -n "$run1" ] && [ "$run1" = "$run2" ]; then pass "faults: the same seed flags the same frames ERROR on two runs"
	else fail "faults: ERROR frames differ or none: '$run1' / '$run2'"; fi
	echo > $CFS/faults
	expect "faults: an empty write gives back the profile's (none)" "$(cat $CFS/faults)" ""
}

# The unplug comes while a producer feeds the consumer too: both lose their node.
kfaults_loop_unplug_fed() {
	local d=/sys/kernel/config/negcam/loops/kf2 n o c out pid rc
	mkdir $d && echo 1 > $d/enable || { fail "loop with a producer: cannot make one"; return; }
	n=$(cat $d/nodes)
	o=/dev/$(echo "$n" | awk '{ print $2 }') c=/dev/$(echo "$n" | awk '{ print $4 }')
	"$NEGCAM_TREE/tests/vm/out/bin/vm-v4l2" produce "$o" 0 515af05a > /tmp/kf-produce.out 2>&1 &
	pid=$!
	sleep 1
	echo 'unplug 2s' > $d/faults || fail "loop faults: write refused"
	out=$(timeout -k 5 60 "$VF" unplug "$c" 2>&1)
	if [ $? = 0 ]; then pass "loop unplug 2s while a producer streams into the loop: the consumer's handle POLLERR | POLLHUP, ENODEV, the node gone"
	else fail "loop unplug with a producer: $(echo "$out" | grep FAIL | tr '\n' ' ')"; fi
	timeout 20 tail --pid=$pid -f /dev/null; kill $pid 2>/dev/null; wait $pid; rc=$?
	if [ -e "$o" ] || [ -e "$c" ]; then fail "loop unplug with a producer: $o or $c remains"
	else pass "loop unplug with a producer: both nodes are gone, the producer ended (status $rc: $(tail -n 1 /tmp/kf-produce.out))"; fi
	echo 0 > $d/enable && rmdir $d || fail "loop unplug with a producer: enable=0 or rmdir after it"
}

test_kfaults_loop_unplug() {
	local d=/sys/kernel/config/negcam/loops/kf n o c out d0
	d0=$(dmesg | wc -l)
	mkdir $d && echo 1 > $d/enable || { fail "loop: cannot make one"; return; }
	n=$(cat $d/nodes)
	o=/dev/$(echo "$n" | awk '{ print $2 }') c=/dev/$(echo "$n" | awk '{ print $4 }')
	echo 'unplug 1s' > $d/faults || fail "loop faults: write refused"
	out=$(timeout -k 5 60 "$VF" unplug "$c" 2>&1)
	if [ $? = 0 ]; then pass "loop unplug 1s: the capture node's handle: POLLERR | POLLHUP, DQBUF and QUERYCAP ENODEV, the node gone"
	else fail "loop unplug: $(echo "$out" | grep FAIL | tr '\n' ' ')"; fi
	note "$(echo "$out" | tr '\n' ' ' | cut -c1-300)"
	sleep 0.5
	if [ -e "$o" ] || [ -e "$c" ]; then fail "loop unplug: $o or $c remains"; else pass "loop unplug: its output node $o and capture node $c are gone"; fi
	echo 0 > $d/enable && rmdir $d || fail "loop unplug: enable=0 or rmdir after it"
	kfaults_loop_unplug_fed
	kfaults_dmesg_clean "$d0" "loop unplug"
	if unload && load profile=vga; then pass "loop unplug: rmmod and reload"; else fail "loop unplug: rmmod or reload"; fi
	DEV=/dev/$(cat $SYS/video_node)
}
