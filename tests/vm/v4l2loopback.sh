#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/vm/v4l2loopback.sh [KVER]: builds v4l2loopback.ko, the peer the
# loopback cases compare against (tests/vm/peer-suite.sh), for the VM kernel
# from the source Debian's v4l2loopback-dkms installs in /usr/src, into
# tests/vm/out/v4l2loopback-KVER/ (git-ignored); prints the .ko path.
# No v4l2loopback source is kept in this tree. Rebuilt only when the
# source or the kernel's build tree is newer than the cached module.
# KVER: as tests/vm/run.sh picks it (newest kernel with an image and a build
# tree; never uname -r, the host may run another kernel). NEGCAM_VM_KDIR: its
# build tree when not /lib/modules/KVER/build (run.sh --kernel debug).
set -u
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
die() { echo "v4l2loopback.sh: $*" >&2; exit 1; }

KVER=${1:-${NEGCAM_VM_KVER:-}}
if [ -z "$KVER" ]; then
	for v in $(ls /boot/ 2>/dev/null | sed -n 's/^vmlinuz-//p' | sort -V); do
		[ -d "/lib/modules/$v/build" ] && [ -d "/lib/modules/$v/kernel" ] && KVER=$v
	done
fi
[ -n "$KVER" ] || die "no kernel with both /boot/vmlinuz-V and /lib/modules/V/build"
SRC=$(ls -d /usr/src/v4l2loopback-* 2>/dev/null | sort -V | tail -n1)
[ -n "$SRC" ] && [ -f "$SRC/v4l2loopback.c" ] ||
	die "no /usr/src/v4l2loopback-*/v4l2loopback.c: install Debian's v4l2loopback-dkms (make deps)"
KDIR=${NEGCAM_VM_KDIR:-/lib/modules/$KVER/build}
OUT=$VM_DIR/out/v4l2loopback-$KVER
KO=$OUT/v4l2loopback.ko

stale=0
[ -s "$KO" ] || stale=1
for f in "$SRC"/* "$KDIR/Makefile"; do
	[ "$f" -nt "$KO" ] && stale=1
done
if [ $stale = 1 ]; then
	rm -rf "$OUT"
	mkdir -p "$OUT" || die "cannot create $OUT"
	cp "$SRC"/*.c "$SRC"/*.h "$OUT"/ || die "cannot copy $SRC"
	echo "obj-m := v4l2loopback.o" > "$OUT/Kbuild"
	make -s -C "$KDIR" M="$OUT" modules > "$OUT/build.log" 2>&1 ||
		{ tail -n 20 "$OUT/build.log" >&2; die "building $SRC for $KVER failed (log $OUT/build.log)"; }
	basename "$SRC" > "$OUT/version"
fi
echo "$KO"
