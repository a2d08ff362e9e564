#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The storm in the VM (docs/kmod.md, "Storm"): tests/vm/storm.c against
# negcam.ko with 4 devices and a loop of 2 capture nodes, while profiles
# are swapped through configfs, devices unbound and bound again (unplug and
# replug) and loops created and removed; then rmmod negcam, which must
# succeed, and a kernel log free of WARNING, BUG, Oops, KASAN, UBSAN,
# KFENCE, lockdep and hung-task reports; before it, the focused check of
# the storm's first finding (a 2 GiB CREATE_BUFS). With vivid
# (NEGCAM_STORM_VIVID=1, or `tests/vm/run.sh storm vivid`) the same storm
# runs on vivid's nodes alone, for calibration: what it finds there is
# reported, not failed.
#   tests/vm/run.sh storm [vivid|negcam|all]     (make test, make storm)
# Environment: NEGCAM_STORM_SECONDS (default 60), NEGCAM_STORM_SEED (default
# random; printed, replay with it), NEGCAM_STORM_PROCS, NEGCAM_STORM_THREADS
# (3 x 3), NEGCAM_STORM_VIVID_SECONDS (default: as long as negcam's),
# NEGCAM_STORM_HANG (seconds in one call that count as hung, default 8;
# more on a slow debug kernel), NEGCAM_STORM_FAULTS (a list of faults,
# docs/faults.md: written to every device's and configfs loop's `faults`
# and taken away again, each second in turn, while the storm runs).
# Prints PASS/FAIL lines and "storm: N passed, N failed".

# Braces: bash reads the whole script before running it, so editing this
# file while a run is under way cannot break that run.
{
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "run it in the VM: tests/vm/run.sh storm" >&2; exit 2; }
cd "$NEGCAM_TREE" || exit 2
VM_DIR=$NEGCAM_TREE/tests/vm
# shellcheck source=tests/vm/lib.sh
. "$VM_DIR/lib.sh"
# negcam_load, negcam_unload (and KO)
# shellcheck source=tests/vm/negcam-suite.sh
. "$VM_DIR/negcam-suite.sh"
STORM=$BIN/storm
OUT=${NEGCAM_RUN:-/tmp}/storm
mkdir -p "$OUT"
WHAT=${1:-negcam}
[ "${NEGCAM_STORM_VIVID:-0}" = 1 ] && [ "$WHAT" = negcam ] && WHAT=all
SECS=${NEGCAM_STORM_SECONDS:-60}
ARGS=(--procs "${NEGCAM_STORM_PROCS:-3}" --threads "${NEGCAM_STORM_THREADS:-3}"
	--hang "${NEGCAM_STORM_HANG:-8}")

# What the kernel must never say (the debug kernel's detectors included).
BAD='WARNING:|BUG:|Oops|general protection|KASAN|UBSAN|KFENCE|kfence|circular locking|possible recursive locking|inconsistent lock state|lock held when returning|hung task|blocked for more than|kmemleak|refcount_t|list_add corruption|list_del corruption|stack-protector|exceeds total pages|wrong timeout value|duplicate filename|kobject_add_internal failed|segfault at .* in storm'

# CREATE_BUFS with a sizeimage of 2 GiB on node $1: EINVAL, and no vmalloc
# stack dump; twice the frame size is still accepted (v4l2-compliance asks
# it). The storm's first finding (docs/kmod.md, "Storm").
createbufs_huge() {
	python3 - "$1" <<'EOF'
import errno, fcntl, os, struct, sys
VIDIOC_G_FMT, VIDIOC_CREATE_BUFS = 0xc0d05604, 0xc100565c
fd = os.open(sys.argv[1], os.O_RDWR)
fmt = bytearray(208)
struct.pack_into('I', fmt, 0, 1)
fcntl.ioctl(fd, VIDIOC_G_FMT, fmt)
size = struct.unpack_from('I', fmt, 28)[0]
def create(sizeimage):
    cb = bytearray(256)
    struct.pack_into('III', cb, 0, 0, 1, 1)
    cb[16:16 + 208] = fmt
    struct.pack_into('I', cb, 16 + 28, sizeimage)
    try:
        fcntl.ioctl(fd, VIDIOC_CREATE_BUFS, cb)
        return 0
    except OSError as e:
        return e.errno
huge, double = create(0x80000000), create(2 * size)
print("sizeimage %d: 2 GiB -> %s, twice -> %s" % (size, errno.errorcode.get(huge, huge), errno.errorcode.get(double, double)))
sys.exit(0 if huge == errno.EINVAL and double == 0 else 1)
EOF
}

mark() { echo "storm-suite: $*" > /dev/kmsg; }

# The kernel log is followed into a file for the whole suite: the ring
# buffer (128 KiB) does not hold a long storm's log (the module logs every
# refused profile), and a report scrolled out of it would go unseen.
KMSG=$OUT/kmsg.log
dmesg -w > "$KMSG" 2>&1 &
KMSG_PID=$!
trap 'kill $KMSG_PID 2>/dev/null' EXIT

# The kernel log since the marker $1, filtered for $BAD.
dmesg_since() { sleep 1; sed -n "/storm-suite: $1/,\$p" "$KMSG" | grep -E "$BAD"; }

# run_storm NAME LOG STORM-ARGS...: the storm, its summary shown.
run_storm() {
	local name=$1 log=$2 rc; shift 2
	timeout -k 10 $((SECS + 120)) "$STORM" "$@" > "$log" 2>&1
	rc=$?
	grep -E '^storm: (seed|total|[0-9]+ invariant)|VIOLATION|HANG|died|did not die' "$log" | head -n 40 | sed 's/^/  /'
	[ $rc = 124 ] && echo "  the storm itself did not end within $((SECS + 120)) s"
	return $rc
}

# While the storm runs: NEGCAM_STORM_FAULTS on every node, then off, each second.
storm_faults_flip() {
	local f on=1
	while :; do
		for f in /sys/kernel/config/negcam/negcam-*/faults /sys/kernel/config/negcam/loops/*/faults; do
			if [ $on = 1 ]; then echo "$NEGCAM_STORM_FAULTS" > "$f"; else echo > "$f"; fi
		done 2>/dev/null
		on=$((1 - on))
		sleep 1
	done
}

negcam_storm() {
	local log=$OUT/negcam.log seed_args=() bad dev out flip=
	[ -n "${NEGCAM_STORM_SEED:-}" ] && seed_args=(--seed "$NEGCAM_STORM_SEED")
	if ! negcam_load devices=4 loops=1 loop_captures=2; then
		fail "insmod negcam.ko devices=4 loops=1 loop_captures=2"
		return
	fi
	mark "negcam storm"
	dev=$(wait_node negcam)
	if out=$(createbufs_huge "$dev" 2>&1) && [ -z "$(dmesg_since "negcam storm")" ]; then
		pass "CREATE_BUFS of 2 GiB on $dev refused, no vmalloc dump ($out)"
	else
		fail "CREATE_BUFS of 2 GiB on $dev: $out; $(dmesg_since "negcam storm" | head -n 1)"
	fi
	if [ -n "${NEGCAM_STORM_FAULTS:-}" ]; then
		note "faults on and off each second: $NEGCAM_STORM_FAULTS"
		storm_faults_flip & flip=$!
	fi
	run_storm negcam "$log" --seconds "$SECS" --chaos "${ARGS[@]}" "${seed_args[@]}"
	out=$?
	if [ -n "$flip" ]; then
		{ kill "$flip"; wait "$flip"; } 2>/dev/null
		note "faults: $(dmesg_since "negcam storm" 2>/dev/null | wc -l) bad lines; $(sed -n '/storm-suite: negcam storm/,$p' "$KMSG" | grep -c 'by a fault') source changes and unplugs done by a fault"
	fi
	if [ $out = 0 ]; then
		pass "negcam.ko storm, ${SECS} s: $(grep -m1 '^storm: total' "$log" | sed 's/^storm: //'), no invariant broken, nothing hung"
	else
		fail "negcam.ko storm: $(grep -m1 '^storm: seed' "$log" | sed 's/^storm: //') broke an invariant or hung (log $log)"
	fi
	sed -n '/^storm: operations/,/^storm: total/p' "$log"
	if negcam_unload; then
		pass "rmmod negcam after the storm"
	else
		fail "rmmod negcam after the storm: $(lsmod | grep '^negcam')"
		ps -eo pid,stat,wchan:32,args | grep -E 'storm|v4l2' | grep -v grep | sed 's/^/  /'
	fi
	bad=$(dmesg_since "negcam storm")
	if [ -n "$bad" ]; then
		printf '%s\n' "$bad" | head -n 40 | sed 's/^/  | /'
		fail "negcam.ko storm: the kernel log has reports (whole log $KMSG)"
	else
		pass "negcam.ko storm: no WARNING/BUG/Oops/KASAN/UBSAN/KFENCE/lockdep/hung task in dmesg"
	fi
}

# vivid, for calibration: findings are printed as NOTE lines, never failed.
vivid_storm() {
	local log=$OUT/vivid.log bad secs=${NEGCAM_STORM_VIVID_SECONDS:-$SECS} rc
	if ! modprobe vivid n_devs=2 node_types=0x101; then
		echo "NOTE: vivid storm not run: modprobe vivid failed"
		return
	fi
	wait_node vivid > /dev/null
	mark "vivid storm"
	SECS=$secs run_storm vivid "$log" --seconds "$secs" --driver vivid "${ARGS[@]}" \
		${NEGCAM_STORM_SEED:+--seed "$NEGCAM_STORM_SEED"}
	rc=$?
	sed -n '/^storm: operations/,/^storm: total/p' "$log"
	echo "NOTE: vivid storm (calibration, not judged): exit $rc, $(grep -m1 '^storm: total' "$log" | sed 's/^storm: //'); $(grep -m1 'invariant violation' "$log" | sed 's/^storm: //')"
	grep -E 'VIOLATION|HANG' "$log" | sed 's/storm: /NOTE: vivid: /' | sort | uniq -c | sort -rn | head -n 20
	if modprobe -r vivid; then
		echo "NOTE: vivid: rmmod after the storm succeeded"
	else
		echo "NOTE: vivid: rmmod after the storm failed"
	fi
	bad=$(dmesg_since "vivid storm")
	if [ -n "$bad" ]; then
		echo "NOTE: vivid: the kernel log has $(printf '%s\n' "$bad" | wc -l) report line(s), by kind:"
		printf '%s\n' "$bad" | sed -E 's/^\[ *[0-9.]+\] //; s/[0-9a-f]{8,}/X/g' | sort | uniq -c |
			sort -rn | head -n 20 | sed 's/^ */NOTE: vivid:   /'
		# information, not judged: the harness's final check leaves them out
		# (lib.sh's KLOG_PEER) unless negcam.ko is named or still loaded
		grep -q '^negcam ' /proc/modules || klog_names_negcam <<< "$bad" ||
			sed -n "/storm-suite: vivid storm/,\$p" "$KMSG" | klog_check >> "$KLOG_PEER"
	else
		echo "NOTE: vivid: no WARNING/BUG/Oops/KASAN/UBSAN/KFENCE/lockdep/hung task in dmesg"
	fi
}

if [ ! -x "$STORM" ]; then
	fail "no $STORM (tests/vm/build-helpers.sh builds it on the host)"
else
	case $WHAT in
	negcam) negcam_storm ;;
	vivid) vivid_storm ;;
	all) negcam_storm; vivid_storm ;;
	*) echo "storm-suite.sh: unknown '$WHAT' (negcam, vivid, all)" >&2; exit 2 ;;
	esac
fi
echo "storm: $S_PASS passed, $S_FAIL failed"
[ "$S_FAIL" = 0 ]
exit
}
