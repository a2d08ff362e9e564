#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Host test of klog_check (tests/vm/klog.sh), the kernel-log check the VM
# harness applies to every run: each report below (first lines as Linux 6.1
# prints them) must fail the check, the clean boot lines of the debug kernel
# must pass it. The VM proof on real reports is tests/vm/detect-suite.sh.
# Usage: klog-test.sh [TREE]
TREE=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TREE/tests/vm/klog.sh"
fails=0 n=0

bad() {
	n=$((n + 1))
	if printf '%s\n' "[   12.345678] $1" | klog_check > /dev/null; then
		echo "FAIL: not detected: $1"; fails=$((fails + 1))
	fi
}
good() {
	n=$((n + 1))
	if ! printf '%s\n' "[    0.123456] $1" | klog_check > /dev/null; then
		echo "FAIL: a clean line detected: $1"; fails=$((fails + 1))
	fi
}

bad 'BUG: KASAN: slab-use-after-free in detect_uaf+0x9d/0xc0 [negcam_detect]'
bad 'BUG: KASAN: use-after-free in detect_uaf+0x9d/0xc0 [negcam_detect]'
bad 'BUG: KFENCE: out-of-bounds read in negcam_fill+0x42/0x80 [negcam]'
bad 'UBSAN: shift-out-of-bounds in drivers/media/test-drivers/vivid/vivid-core.c:12:5'
bad 'WARNING: possible circular locking dependency detected'
bad 'WARNING: inconsistent lock state'
bad 'WARNING: possible recursive locking detected'
bad 'WARNING: suspicious RCU usage'
bad 'BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580'
bad 'WARNING: CPU: 1 PID: 300 at lib/debugobjects.c:505 debug_print_object+0x8f/0xb0'
bad 'kernel BUG at lib/list_debug.c:53!'
bad 'list_del corruption, ffff888004c3e800->next is LIST_POISON1 (dead000000000100)'
bad 'INFO: task v4l2-ctl:312 blocked for more than 60 seconds.'
bad 'watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [negcam-thread:210]'
bad 'general protection fault, probably for non-canonical address 0xdffffc0000000001: 0000 [#1] PREEMPT SMP KASAN'
bad 'Oops: 0000 [#1] PREEMPT SMP'
bad 'unreferenced object 0xffff888004c3e800 (size 256):'
bad "sysfs: cannot create duplicate filename '/devices/platform/negcam-loop.1'"
bad 'kobject_add_internal failed for negcam-loop.1 with -EEXIST, don'"'"'t try to register things with the same name in the same directory.'

good 'kasan: KernelAddressSanitizer initialized (generic)'
good 'kfence: initialized - using 2097152 bytes for 255 objects at 0x(____ptrval____)-0x(____ptrval____)'
good 'kmemleak: Kernel memory leak detector initialized (mem pool available: 31698)'
good 'Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar'
good 'negcam: loaded, 1 device(s)'
good 'hung_task: watchdog enabled'

# klog_new: each check sees only the lines since the previous one (a report
# fails one window, not every later check); klog_exclude drops the peers'
# findings already noted.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
same() {
	n=$((n + 1))
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: got '$2', want '$3'"; fails=$((fails + 1))
	fi
}
window() { NEGCAM_KLOG_STDIN=1 klog_new "$T/state" < "$1" | tr '\n' '|'; }
printf '%s\n' '[    1.000000] boot' '[  147.801372] UBSAN: shift-out-of-bounds in v4l2-ctrls-api.c:1187:35' \
	'shift exponent 64 is too large' > "$T/log"
same "first window: the whole log" "$(window "$T/log")" \
	'[    1.000000] boot|[  147.801372] UBSAN: shift-out-of-bounds in v4l2-ctrls-api.c:1187:35|shift exponent 64 is too large|'
printf '%s\n' '[  147.801373] negcam: loaded' '[  150.000000] WARNING: CPU: 0 PID: 1 at x.c:1' >> "$T/log"
same "second window: only what came after (to the microsecond)" "$(window "$T/log")" \
	'[  147.801373] negcam: loaded|[  150.000000] WARNING: CPU: 0 PID: 1 at x.c:1|'
same "third window: empty" "$(window "$T/log")" ''
printf '%s\n' 'no stamp' 'UBSAN: x' > "$T/bare"
rm -f "$T/state"
window "$T/bare" > /dev/null
same "no timestamps: judged whole every time" "$(window "$T/bare")" 'no stamp|UBSAN: x|'
grep UBSAN "$T/log" > "$T/peer"
same "klog_exclude leaves the noted finding out" "$(klog_exclude "$T/peer" < "$T/log" | klog_check)" \
	'[  150.000000] WARNING: CPU: 0 PID: 1 at x.c:1'
same "klog_exclude with no peer file keeps everything" "$(klog_exclude "$T/none" < "$T/log" | klog_check | wc -l)" 2

# klog_names_negcam: the debug kernel's name and source path are not negcam.
names() { n=$((n + 1)); if printf '%s\n' "$2" | klog_names_negcam; then r=yes; else r=no; fi
	[ "$r" = "$1" ] || { echo "FAIL: klog_names_negcam '$2': $r, want $1"; fails=$((fails + 1)); }; }
names no '[  179.036540] UBSAN: shift-out-of-bounds in /root/.cache/negcam/debug-kernel/linux-source-6.1/drivers/media/v4l2-core/v4l2-ctrls-api.c:1187:35'
names no '[  179.040364] CPU: 0 PID: 134 Comm: v4l2-compliance Not tainted 6.1.192-negcam-debug #1'
names yes '[  124.280749] WARNING: CPU: 1 PID: 9 at negcam_loop_add+0x3c/0x90 [negcam]'
names yes '[  124.326966] negcam: loop 1: cannot create it: -17'
names yes '[  124.280749] sysfs: cannot create duplicate filename /devices/platform/negcam-loop.1'

echo "klog: $((n - fails)) passed, $fails failed"
[ "$fails" = 0 ]
