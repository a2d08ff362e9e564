# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The kernel-log check of the VM harness, sourced by tests/vm/guest.sh (at the
# end of every run), tests/vm/lib.sh (dmesg_clean) and tests/vm/detect-suite.sh
# (which proves it catches the debug kernel's detectors).

# What a kernel says when something is wrong: oopses, WARN()s and BUG()s
# ("kernel BUG at" has no colon), and the reports of the debug kernel's
# detectors (tests/vm/debug-kernel.sh): KASAN, KFENCE and UBSAN, lockdep (its
# splats start with "WARNING:" too; the titles are matched as well), sleeping
# in atomic context ("BUG: sleeping function called from invalid context"),
# list corruption, hung tasks, soft and hard lockups, and kmemleak's
# "unreferenced object" (from guest.sh's kmemleak_scan). debugobjects report
# through WARN(). RCU stalls are left out: a loaded host stalls a TCG guest.
KLOG_BAD='WARNING:|BUG:|kernel BUG at|Oops|general protection|KASAN:|KFENCE:|UBSAN:'
KLOG_BAD="$KLOG_BAD|possible circular locking|inconsistent lock state|possible recursive locking"
KLOG_BAD="$KLOG_BAD|suspicious RCU usage|list_add corruption|list_del corruption"
KLOG_BAD="$KLOG_BAD|blocked for more than [0-9]+ seconds|soft lockup|hard LOCKUP"
KLOG_BAD="$KLOG_BAD|unreferenced object 0x"
# A driver registering a device under a name still in use (sysfs's dump).
KLOG_BAD="$KLOG_BAD|cannot create duplicate filename|kobject_add_internal failed"

# klog_new STATE: the kernel log lines logged since the last klog_new with
# the same STATE file (all of it the first time), judged by their printk
# timestamps; lines without one go with the line before. Each check then
# judges only its own window, so one report, already failed or noted, does
# not fail every check after it. A kernel without printk timestamps is
# judged whole every time. Reads dmesg, or stdin with NEGCAM_KLOG_STDIN=1
# (the host test).
klog_new() {
	local state=$1 seen=-1
	[ -s "$state" ] && read -r seen < "$state"
	{ if [ "${NEGCAM_KLOG_STDIN:-0}" = 1 ]; then cat; else dmesg; fi; } |
		awk -v seen="$seen" -v state="$state" '
		match($0, /^\[ *[0-9]+\.[0-9]+\]/) {
			ts = substr($0, 2, RLENGTH - 2) + 0
			if (ts > last) last = ts
			stamped = 1
		}
		ts > seen || seen < 0 { print }
		END { if (stamped && last > seen) printf "%.6f\n", last > state }'
}

# klog_exclude FILE: stdin without the lines listed in FILE (exact lines;
# the peers' findings a suite already reported as information).
klog_exclude() {
	if [ -s "$1" ]; then grep -vxF -f "$1"; else cat; fi
}

# klog_check [FILE]: prints the lines of the kernel log FILE (default: stdin)
# that report a problem; exit status 1 when there is one, 0 when clean.
klog_check() {
	local bad
	bad=$(grep -E "$KLOG_BAD" "${1:--}")
	[ -z "$bad" ] && return 0
	printf '%s\n' "$bad"
	return 1
}

# klog_names_negcam: true when the report lines on stdin name negcam.ko (a
# function, the module, a device). The debug kernel's own name
# (6.1.192-negcam-debug) and its source path (~/.cache/negcam/debug-kernel/
# linux-source-6.1/...), which every UBSAN report and stack header of that
# kernel carry, do not count: a finding in vivid is not negcam's.
klog_names_negcam() {
	sed -E 's#[^ ]*/negcam/debug-kernel/[^ ]*##g; s/-negcam-debug//g' | grep -qi negcam
}

# kmemleak_clear: forget the leaks suspected so far (boot-time objects, a
# detector test's deliberate leak); no-op without kmemleak.
kmemleak_clear() {
	local f=/sys/kernel/debug/kmemleak
	[ -w "$f" ] || return 0
	echo scan > "$f" 2>/dev/null
	echo clear > "$f" 2>/dev/null
	return 0
}

# kmemleak_scan: scans twice (an object must be older than 5 s and unseen in
# two scans to be reported) and prints kmemleak's report, "" when none or
# without kmemleak (production kernel).
kmemleak_scan() {
	local f=/sys/kernel/debug/kmemleak
	[ -w "$f" ] || return 0
	echo scan > "$f" 2>/dev/null || return 0
	sleep 6
	echo scan > "$f" 2>/dev/null
	cat "$f" 2>/dev/null
}
