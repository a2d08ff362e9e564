#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/vm/run.sh --kernel debug detect: proves that the debug kernel's
# detectors fire and that the harness's kernel-log check (klog_check in
# tests/vm/klog.sh, the one guest.sh applies to every run) turns their reports
# into failures. tests/vm/detect/negcam_detect.ko (built by run.sh against
# the debug kernel) carries the deliberate bugs: an AB-BA mutex inversion
# (lockdep), a use-after-free read (KASAN) and a leak (kmemleak).
# Each check: the kernel log of a clean stretch passes klog_check; the log
# after the trigger fails it, with the detector's own report in it.
# The expected reports are cleared at the end (dmesg -C, kmemleak clear) so
# the run itself passes; the console log keeps them.
{
set -u
[ "${NEGCAM_IN_VM:-}" = 1 ] || { echo "detect-suite.sh runs inside the VM: use tests/vm/run.sh --kernel debug detect" >&2; exit 2; }
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=tests/vm/lib.sh
. "$VM_DIR/lib.sh"
KO=$VM_DIR/detect/negcam_detect.ko
D=/sys/kernel/debug/negcam_detect

suite_begin detect
note "kernel $(uname -r)"

# since_mark: the kernel log after the last mark (dmesg -C would also lose
# what came before, which the final check must still see on a real failure).
MARK=0
mark() { MARK=$(dmesg | wc -l); }
since_mark() { dmesg | tail -n +$((MARK + 1)); }

# expect_report NAME TRIGGER PATTERN: the log after writing to $D/TRIGGER
# fails klog_check and shows PATTERN (the detector's title).
expect_report() {
	local name=$1 trigger=$2 pattern=$3 out
	mark
	echo 1 > "$D/$trigger"
	sleep 1
	if out=$(since_mark | klog_check); then
		fail "$name: klog_check passed a log with a deliberate $trigger bug in it"
		since_mark | tail -n 20 | sed 's/^/  | /'
		return
	fi
	printf '%s\n' "$out" | head -n 5 | sed 's/^/  | /'
	if printf '%s\n' "$out" | grep -qE "$pattern"; then
		pass "$name: detected and failed ($(printf '%s\n' "$out" | grep -m1 -oE "$pattern"))"
	else
		fail "$name: the log failed, but without '$pattern'"
	fi
}

if [ ! -f /sys/kernel/debug/kmemleak ] || ! grep -q '^CONFIG_KASAN=y' <(zcat /proc/config.gz 2>/dev/null); then
	fail "not the debug kernel (no KASAN or kmemleak): run tests/vm/run.sh --kernel debug detect"
elif [ ! -f "$KO" ]; then
	fail "$KO missing (run.sh --kernel debug builds it)"
else
	mark
	check "insmod negcam_detect.ko" 60 insmod "$KO"
	# The clean run: loading the module (and the kernel so far) is clean.
	if out=$(since_mark | klog_check); then
		pass "clean: klog_check passes the log of a clean insmod"
	else
		fail "clean: klog_check failed a clean stretch:"; printf '%s\n' "$out" | sed 's/^/  | /'
	fi
	# lockdep first: a KASAN report taints the kernel and switches lockdep off.
	expect_report "lockdep AB-BA" abba 'possible circular locking dependency'
	expect_report "KASAN use-after-free" uaf 'KASAN: [a-z-]*use-after-free'
	mark
	echo 1 > "$D/leak"
	check "rmmod negcam_detect" 60 rmmod negcam_detect
	leaks=$(kmemleak_scan)
	if out=$(printf '%s\n' "$leaks" | klog_check); then
		fail "kmemleak: no report after a deliberate leak and rmmod"
	elif printf '%s\n' "$leaks" | grep -q 'negcam_detect\|detect_leak\|size 256'; then
		printf '%s\n' "$leaks" | head -n 8 | sed 's/^/  | /'
		pass "kmemleak: the leak is reported and fails the check ($(printf '%s\n' "$out" | head -n1))"
	else
		printf '%s\n' "$leaks" | head -n 20 | sed 's/^/  | /'
		fail "kmemleak: reports, but not the deliberate 256-byte leak"
	fi
	# The expected reports have been checked: clear them so the run passes.
	dmesg -C
	kmemleak_clear
fi
suite_end
echo "vm detect: $T_PASS passed, $T_FAIL failed"
[ "$T_FAIL" = 0 ]
exit
}
