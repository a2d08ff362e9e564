#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/pw/fake-dev.sh COMMAND...: run COMMAND where /dev/video0 exists,
# for pw-v4l2 on a host with no V4L2 device. pw-v4l2 (PipeWire's V4L2
# layer, an LD_PRELOAD library) interposes open() of /dev/videoN but not
# stat(), and v4l2-ctl and v4l2-compliance stat the path before opening
# it: with no /dev/video0 they stop at "Cannot open device". This gives
# COMMAND a private mount namespace (an unprivileged user namespace, no
# root) whose /dev is a tmpfs holding the usual character devices, bound
# from the real /dev, and an empty regular file video0, and whose
# /sys/dev/char says that file is a video node. Nothing outside the
# command sees them.
set -eu
[ "${NEGCAM_FAKE_DEV_INNER:-}" = 1 ] || exec env NEGCAM_FAKE_DEV_INNER=1 unshare -Urm --propagation private "$0" "$@"
d=$(mktemp -d)
mount -t tmpfs fake-dev "$d"
for n in null zero full random urandom tty; do
	[ -e "/dev/$n" ] || continue
	touch "$d/$n"
	mount --bind "/dev/$n" "$d/$n"
done
for n in shm pts; do
	[ -d "/dev/$n" ] || continue
	mkdir "$d/$n"
	mount --rbind "/dev/$n" "$d/$n"
done
touch "$d/video0"
# util-linux warns that it cannot update the mount table (no /run/mount
# for this user): the move is done all the same, as the test shows.
mount --move "$d" /dev 2>"$d.err" || true
[ -e /dev/video0 ] || { echo "fake-dev.sh: could not place /dev/video0" >&2; exit 2; }
rmdir "$d" 2>"$d.err" || true; rm -f "$d.err"
# v4l-utils then tell the node's kind from /sys/dev/char/MAJOR:MINOR/uevent's
# DEVNAME; a regular file's is 0:0.
s=$(mktemp -d)
mount -t tmpfs fake-sys "$s"
mkdir "$s/0:0"
echo DEVNAME=video0 >"$s/0:0/uevent"
mount --move "$s" /sys/dev/char 2>"$s.err" || true
[ -e /sys/dev/char/0:0/uevent ] || { echo "fake-dev.sh: could not place its uevent" >&2; exit 2; }
rmdir "$s" 2>"$s.err" || true; rm -f "$s.err"
unset NEGCAM_FAKE_DEV_INNER
exec "$@"
