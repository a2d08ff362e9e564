#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Runs inside the test VM, chrooted into the read-only host root (started by
# tests/vm/init). Sets up the environment, runs the command that
# tests/vm/run.sh wrote to $negcam_run/cmd, checks dmesg, writes the exit
# status to $negcam_run/status and prints it as "NEGCAM-VM-EXIT: N".

# Braces: bash reads the whole script before running it, so editing this
# file while a run is under way cannot break that run.
{
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C.UTF-8 TERM=${TERM:-linux}
export NEGCAM_TREE=$negcam_tree NEGCAM_RUN=$negcam_run NEGCAM_IN_VM=1
export NEGCAM_BUILD=$negcam_build
case "$NEGCAM_BUILD" in /*) ;; *) NEGCAM_BUILD=$NEGCAM_TREE/$NEGCAM_BUILD ;; esac
# The registry lives in the rw tree so later runs skip the (slow) plugin scan;
# another root (run.sh --root) has other plugins: a fresh one in /tmp.
export GST_REGISTRY=$NEGCAM_TREE/tests/vm/out/gst-registry-guest.bin
if [ -n "${negcam_vmroot:-}" ]; then
	export NEGCAM_VM_ROOT=$negcam_vmroot GST_REGISTRY=/tmp/gst-registry.bin
fi
export XDG_RUNTIME_DIR=/run/user0
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

# devtmpfs has no /dev/fd: bash process substitution needs it.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
for i in 0:stdin 1:stdout 2:stderr; do [ -e /dev/${i#*:} ] || ln -s /proc/self/fd/${i%%:*} /dev/${i#*:}; done
modprobe configfs 2>/dev/null && mount -t configfs configfs /sys/kernel/config 2>/dev/null

read -r up _ < /proc/uptime
echo "NEGCAM-VM: booted kernel $(uname -r) in ${up}s; running: $(cat "$NEGCAM_RUN/cmd")"

cd "$NEGCAM_TREE" || exit 125

# Guest-side watchdog, 20 s before the host kills qemu: save dmesg, show what
# hangs, report 124 and power off, so a hang still leaves its kernel log.
if [ -n "${negcam_timeout:-}" ] && [ "$negcam_timeout" -gt 40 ] && [ "$negcam_interactive" != 1 ]; then
	(
		sleep $((negcam_timeout - 20))
		echo "NEGCAM-VM: FAIL: guest watchdog: the command is still running after $((negcam_timeout - 20))s"
		dmesg > "$NEGCAM_RUN/dmesg" 2>&1
		echo "--- processes:"; ps -eo pid,stat,etime,wchan:32,args | grep -v ' \[' | tail -n 30
		echo "--- last kernel log lines:"; tail -n 40 "$NEGCAM_RUN/dmesg"
		echo 124 > "$NEGCAM_RUN/status"
		sync
		echo "NEGCAM-VM-EXIT: 124"
		echo o > /proc/sysrq-trigger
	) &
fi
# The kernel-log check (klog_check) and, on the debug kernel, kmemleak:
# boot-time suspects are cleared so only the command's leaks are reported.
. "$NEGCAM_TREE/tests/vm/klog.sh"
kmemleak_clear
# Settings run.sh passes to every command (NEGCAM_KO for the debug kernel).
[ -f "$NEGCAM_RUN/env" ] && . "$NEGCAM_RUN/env"
echo "negcam-vm: command starts" > /dev/kmsg
if [ "$negcam_interactive" = 1 ]; then
	bash -i
	status=$?
else
	bash -c "$(cat "$NEGCAM_RUN/cmd")"
	status=$?
fi

# kmemleak (debug kernel): what the command leaked, after its rmmod.
leaks=$(kmemleak_scan)
dmesg > "$NEGCAM_RUN/dmesg" 2>&1
if [ -n "$leaks" ]; then
	printf '%s\n' "$leaks" > "$NEGCAM_RUN/kmemleak"
	printf 'negcam-vm: kmemleak report:\n%s\n' "$leaks" >> "$NEGCAM_RUN/dmesg"
fi
# The peers' findings a suite reported as information (lib.sh's dmesg_peer)
# are left out; everything else fails the run.
if ! bad=$(klog_exclude "$NEGCAM_RUN/klog-peer" < "$NEGCAM_RUN/dmesg" | klog_check); then
	echo "NEGCAM-VM: FAIL: the kernel log has warnings, oopses or detector reports:"
	printf '%s\n' "$bad"
	[ -n "$leaks" ] && printf 'kmemleak:\n%s\n' "$leaks" | head -n 60
	[ "$status" = 0 ] && status=70
fi
read -r up _ < /proc/uptime
echo "NEGCAM-VM: command finished with status $status at uptime ${up}s"
echo "$status" > "$NEGCAM_RUN/status"
sync
echo "NEGCAM-VM-EXIT: $status"
exit 0
exit
}
