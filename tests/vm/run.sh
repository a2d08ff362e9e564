#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# negcam VM test harness (host side). Boots the installed Debian kernel in
# qemu (TCG, no KVM) with a busybox initramfs that mounts the host root
# read-only over 9p, this checkout read-write at the same path, and runs one
# command inside; exits with that command's status.
#
# Usage:
#   tests/vm/run.sh [--timeout S] SCRIPT [ARGS...]  run SCRIPT (bash) in the VM
#   tests/vm/run.sh [--timeout S] -c 'CMD'          run a bash command line
#   tests/vm/run.sh quick|full|vivid|negcam|kmod|loop|sink|shelf|shelf-sweep|peer|storm|pipewire|uvc|gadget  run a suite (see docs/testing-vm.md)
#   tests/vm/run.sh peer [v4l2loopback|negcam|akvcam...]  the loopback peers, or some of them
#   tests/vm/run.sh shell                           interactive shell (needs a tty)
#   tests/vm/run.sh --kernel debug ...              any of these on the debug kernel
#   tests/vm/run.sh --kernel debug detect           prove the harness sees its detectors
#   tests/vm/run.sh --root DIR ...                  any of these with DIR as the guest's root
# SCRIPT paths are relative to the checkout (or absolute under it); the
# command runs as root in the checkout's top directory, with a writable /tmp.
# Exit status: the command's; 124 on timeout; 125 harness error; if the
# command passed but dmesg shows WARNING:/BUG:/Oops/general protection or a
# detector's report (tests/vm/klog.sh), or kmemleak reports a leak, 70.
#
# --kernel debug (or NEGCAM_VM_KERNEL=debug): boot the debug kernel built by
# tests/vm/debug-kernel.sh (KASAN, lockdep, kmemleak, UBSAN, KFENCE...), with
# its own modules, negcam.ko built against it (tests/vm/out/kmod-RELEASE/, the
# suites get it as NEGCAM_KO), the suites' default timeouts times
# NEGCAM_VM_SLOW (default 4 there) and 2048 MiB. --kernel default: Debian's.
#
# --root DIR (or NEGCAM_VM_ROOT=DIR): the guest's root is DIR, a Debian
# root such as tests/deb-install.sh installs, not the host's, read-only
# all the same, and the kernel is DIR's own: the newest V with
# DIR/boot/vmlinuz-V and DIR/lib/modules/V/kernel (NEGCAM_VM_KVER to
# choose), its modules DIR's. The checkout is mounted at its own path in
# DIR (run.sh makes that directory in DIR); no v4l2loopback is built; the
# GStreamer registry is a fresh one in the guest's /tmp. Not with --kernel
# debug.
#
# Environment: NEGCAM_BUILD (meson build dir, default build), NEGCAM_VM_MEM
# (MiB, default 1536), NEGCAM_VM_SMP (default 2), NEGCAM_VM_KVER (kernel
# version, default: newest with /boot/vmlinuz-V and /lib/modules/V/build).
# Caches (tests/vm/out/, git-ignored): the unpacked kernel, the initramfs,
# the guest GStreamer registry, helper binaries, and out/runs/<id>/ with the
# console log, dmesg and status of each run.

# Braces: bash reads the whole script before running it, so editing this
# file while a run is under way cannot break that run.
{
set -u
set -o pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
TREE=$(cd "$VM_DIR/../.." && pwd -P)
OUT="$VM_DIR/out"
MEM=${NEGCAM_VM_MEM:-}
SMP=${NEGCAM_VM_SMP:-2}
TIMEOUT=
INTERACTIVE=0

die() { echo "run.sh: $*" >&2; exit 125; }

# Newest kernel version that has both an image and a build tree (never uname -r:
# the host runs another kernel).
pick_kver() {
	local v best=
	for v in $(ls /boot/ 2>/dev/null | sed -n 's/^vmlinuz-//p' | sort -V); do
		[ -d "/lib/modules/$v/build" ] && [ -d "/lib/modules/$v/kernel" ] && best=$v
	done
	echo "$best"
}

# pick_root_kver DIR: the newest V with DIR/boot/vmlinuz-V and its modules.
pick_root_kver() {
	local v best=
	for v in $(ls "$1/boot/" 2>/dev/null | sed -n 's/^vmlinuz-//p' | sort -V); do
		[ -d "$1/lib/modules/$v/kernel" ] && best=$v
	done
	echo "$best"
}

# select_kernel default|debug|root: sets KVER, MODDIR, KDIR, VMLINUZ, KERNEL
# (the debug kernel's bzImage; empty: unpack VMLINUZ, see kernel_image),
# KCACHE (where kernel_image unpacks it) and INITRD_NAME.
select_kernel() {
	KCACHE= INITRD_NAME=
	case "$1" in
	root)
		KVER=${NEGCAM_VM_KVER:-$(pick_root_kver "$VM_ROOT")}
		[ -n "$KVER" ] || die "no kernel in $VM_ROOT: no boot/vmlinuz-V with lib/modules/V/kernel (install linux-image-amd64 there)"
		MODDIR=$VM_ROOT/lib/modules/$KVER KDIR= KERNEL= VMLINUZ=$VM_ROOT/boot/vmlinuz-$KVER
		[ -f "$VMLINUZ" ] || die "no $VMLINUZ"
		# Named by content: another root's kernel of the same release may differ.
		KCACHE=$OUT/kernel-$KVER-$(sha256sum "$VMLINUZ" | cut -c1-12)
		INITRD_NAME=initramfs-$KVER-root-$(printf '%s' "$VM_ROOT" | sha256sum | cut -c1-12)
		return ;;
	default)
		KVER=${NEGCAM_VM_KVER:-$(pick_kver)}
		[ -n "$KVER" ] || die "no kernel with both /boot/vmlinuz-V and /lib/modules/V/build"
		MODDIR=/lib/modules/$KVER KDIR=$MODDIR/build KERNEL= ;;
	debug)
		local paths
		paths=$(bash "$VM_DIR/debug-kernel.sh" --paths) || exit 125
		KERNEL=$(sed -n 's/^KERNEL=//p' <<< "$paths")
		MODDIR=$(sed -n 's/^MODDIR=//p' <<< "$paths")
		KDIR=$(sed -n 's/^KDIR=//p' <<< "$paths")
		KVER=$(sed -n 's/^RELEASE=//p' <<< "$paths") ;;
	*) die "--kernel: '$1' is neither default nor debug" ;;
	esac
	VMLINUZ=/boot/vmlinuz-$KVER
}

# Unpack the compressed payload of the bzImage once into an ELF vmlinux;
# qemu boots it through its PVH entry point, skipping the in-guest
# decompression that costs ~6 s under TCG.
kernel_image() {
	local kcache=${KCACHE:-$OUT/kernel-$KVER}
	local vmlinux="$kcache/vmlinux"
	if [ ! -s "$vmlinux" ] || [ "$VMLINUZ" -nt "$vmlinux" ]; then
		mkdir -p "$kcache"
		python3 - "$VMLINUZ" "$vmlinux.tmp" <<'EOF' || { rm -f "$vmlinux.tmp"; return 1; }
import lzma, gzip, sys, zlib
data = open(sys.argv[1], 'rb').read()
for magic, kind in ((b'\xfd7zXZ\x00', 'xz'), (b'\x1f\x8b\x08', 'gz'), (b'\x28\xb5\x2f\xfd', 'zstd')):
    off = data.find(magic)
    while off >= 0:
        try:
            if kind == 'xz':
                out = lzma.LZMADecompressor(lzma.FORMAT_XZ).decompress(data[off:])
            elif kind == 'gz':
                out = zlib.decompressobj(31).decompress(data[off:])
            else:
                break
            if out[:4] == b'\x7fELF':
                open(sys.argv[2], 'wb').write(out)
                sys.exit(0)
        except Exception:
            pass
        off = data.find(magic, off + 1)
sys.exit("cannot find an ELF payload in " + sys.argv[1])
EOF
		mv "$vmlinux.tmp" "$vmlinux"
	fi
	echo "$vmlinux"
}

# Modules the initramfs needs to mount 9p, in load order (deps first).
INITRD_MODULES="virtio_pci 9pnet_virtio 9p"
module_order() {
	local seen=" " m
	resolve() {
		local path=$1 d deps
		case "$seen" in *" $path "*) return;; esac
		deps=$(grep "^$path:" "$MODDIR/modules.dep" | cut -d: -f2)
		for d in $deps; do resolve "$d"; done
		seen="$seen$path "
		echo "$path"
	}
	for m in $INITRD_MODULES; do
		local p
		# Built in (the debug kernel): nothing to load.
		grep -qE "(^|/)${m}\.ko$" "$MODDIR/modules.builtin" 2>/dev/null && continue
		p=$(grep -E "^([^:]*/)?${m}\.ko(\.[a-z]+)?:" "$MODDIR/modules.dep" | cut -d: -f1 | head -n1)
		[ -n "$p" ] || { echo "missing module $m in $MODDIR" >&2; return 1; }
		resolve "$p"
	done
}

initramfs() {
	local img="$OUT/${INITRD_NAME:-initramfs-$KVER}.cpio.gz" stamp key mods
	mods=$(module_order) || return 1
	key=$( { cat "$VM_DIR/init"; ls -l --time-style=+%s "$(command -v busybox)";
		echo "$mods"; echo "$KVER"; } | sha256sum | cut -d' ' -f1)
	stamp="$img.key"
	if [ -s "$img" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$key" ]; then
		echo "$img"; return 0
	fi
	local root m
	root=$(mktemp -d "$OUT/initramfs.XXXXXX")
	mkdir -p "$root"/{bin,dev,proc,sys,newroot,mods}
	: > "$root/mods/order"
	cp "$(command -v busybox)" "$root/bin/busybox"
	cp "$VM_DIR/init" "$root/init"
	chmod 755 "$root/init"
	for m in $mods; do
		case "$m" in
		*.ko) cp "$MODDIR/$m" "$root/mods/" ;;
		*.ko.xz) xz -dc "$MODDIR/$m" > "$root/mods/$(basename "$m" .xz)" ;;
		*.ko.gz) gzip -dc "$MODDIR/$m" > "$root/mods/$(basename "$m" .gz)" ;;
		*.ko.zst) zstd -qdc "$MODDIR/$m" > "$root/mods/$(basename "$m" .zst)" ;;
		esac
		basename "$m" | sed -E 's/\.(xz|gz|zst)$//' >> "$root/mods/order"
	done
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 > "$img.tmp" \
		|| { rm -rf "$root"; return 1; }
	rm -rf "$root"
	mv "$img.tmp" "$img"
	echo "$key" > "$stamp"
	echo "$img"
}

usage() { sed -n '2,/^$/s/^# \{0,1\}//p' "$0" | sed -n '/^Usage/,/^Caches/p' | sed '$d' >&2; exit "${1:-125}"; }

# --- arguments -----------------------------------------------------------
while [ $# -gt 0 ]; do
	case "$1" in
	--timeout) TIMEOUT=$2; shift 2 ;;
	--timeout=*) TIMEOUT=${1#*=}; shift ;;
	--kernel) VM_KERNEL=$2; shift 2 ;;
	--kernel=*) VM_KERNEL=${1#*=}; shift ;;
	--root) NEGCAM_VM_ROOT=$2; shift 2 ;;
	--root=*) NEGCAM_VM_ROOT=${1#*=}; shift ;;
	-h|--help) usage 0 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || usage
VM_KERNEL=${VM_KERNEL:-${NEGCAM_VM_KERNEL:-default}}
VM_ROOT=/
if [ -n "${NEGCAM_VM_ROOT:-}" ]; then
	[ "$VM_KERNEL" = default ] || die "--root: only with the root's own kernel, not --kernel $VM_KERNEL"
	[ -d "$NEGCAM_VM_ROOT/usr/bin" ] || die "--root: '$NEGCAM_VM_ROOT' is no root directory (no usr/bin)"
	VM_ROOT=$(cd "$NEGCAM_VM_ROOT" && pwd -P)
	# The checkout's mount point, which init cannot make in a read-only root.
	mkdir -p "$VM_ROOT$TREE" || die "--root: cannot make $VM_ROOT$TREE"
	select_kernel root
else
	select_kernel "$VM_KERNEL"
fi
if [ "$VM_KERNEL" = debug ]; then
	SLOW=${NEGCAM_VM_SLOW:-4}
	: "${MEM:=2048}"
else
	SLOW=${NEGCAM_VM_SLOW:-1}
fi
: "${MEM:=1536}"

CMDLINE=
case "$1" in
quick|full|vivid|negcam|kmod|loop|provider|profiles|shelf|shelf-sweep|gst|sink|mplane|peer|storm|pipewire|uvc|gadget)
	suite=$1; shift
	CMDLINE="bash tests/vm/suites.sh $suite $*"
	# Settings the suites read, forwarded into the VM.
	for v in NEGCAM_KO NEGCAM_VM_F_TIMEOUT NEGCAM_VM_PROFILES NEGCAM_STORM_SECONDS \
		NEGCAM_STORM_SEED NEGCAM_STORM_VIVID NEGCAM_STORM_VIVID_SECONDS NEGCAM_STORM_HANG NEGCAM_STORM_FAULTS \
		NEGCAM_VM_MODE; do
		[ -n "${!v:-}" ] && CMDLINE="$v=$(printf '%q' "${!v}") $CMDLINE"
	done
	# How much slower this kernel runs (tests/vm/browser.sh scales by it).
	CMDLINE="NEGCAM_VM_SLOW=$SLOW $CMDLINE"
	case "$suite" in
	quick) : "${TIMEOUT:=$((2700 * SLOW))}" ;;
	full) : "${TIMEOUT:=$((14400 * SLOW))}" ;;
	vivid) : "${TIMEOUT:=$((900 * SLOW))}" ;;
	negcam) : "${TIMEOUT:=$((1500 * SLOW))}" ;;
	kmod) : "${TIMEOUT:=$((900 * SLOW))}" ;;
	sink) : "${TIMEOUT:=$((1200 * SLOW))}" ;;
	mplane) : "${TIMEOUT:=$((1200 * SLOW))}" ;;
	gst) : "${TIMEOUT:=$((1500 * SLOW))}" ;;
	shelf) : "${TIMEOUT:=$((6000 * SLOW))}" ;;
	shelf-sweep) : "${TIMEOUT:=$((3600 * SLOW))}" ;;
	loop) : "${TIMEOUT:=$((1500 * SLOW))}" ;;
	peer) : "${TIMEOUT:=$((2400 * SLOW))}" ;;
	pipewire) : "${TIMEOUT:=$((900 * SLOW))}" ;;
	uvc) : "${TIMEOUT:=$((1500 * SLOW))}" ;;
	gadget) : "${TIMEOUT:=$((600 * SLOW))}" ;;
	storm) : "${TIMEOUT:=$(((${NEGCAM_STORM_SECONDS:-60} * 3 + 600) * SLOW))}" ;;
	esac ;;
detect)
	# The detector proof (tests/vm/detect-suite.sh); needs --kernel debug.
	shift
	CMDLINE="bash tests/vm/detect-suite.sh"
	: "${TIMEOUT:=$((300 * SLOW))}" ;;
shell)
	[ -t 0 ] || die "shell needs a terminal"
	INTERACTIVE=1
	CMDLINE="exec bash -i" ;;
-c)
	[ $# -ge 2 ] || usage
	CMDLINE=$2 ;;
*)
	script=$1; shift
	case "$script" in
	/*) abs=$script ;;
	*) abs="$PWD/$script"; [ -e "$abs" ] || abs="$TREE/$script" ;;
	esac
	[ -f "$abs" ] || die "no such script: $script"
	abs=$(cd "$(dirname "$abs")" && pwd -P)/$(basename "$abs")
	case "$abs" in "$TREE"/*) ;; *) die "$script is not under $TREE (the VM only sees the checkout read-write; the rest of / is read-only but visible)";; esac
	CMDLINE="bash $(printf '%q' "$abs")"
	for a in "$@"; do CMDLINE="$CMDLINE $(printf '%q' "$a")"; done ;;
esac
: "${TIMEOUT:=$((600 * SLOW))}"

command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
command -v busybox >/dev/null || die "busybox missing (apt-get install busybox-static)"
mkdir -p "$OUT/runs" || die "cannot create $OUT"

[ -n "$KERNEL" ] || KERNEL=$(kernel_image) || die "cannot unpack $VMLINUZ"
INITRD=$(initramfs) || die "cannot build the initramfs"

# Helper programs (tests/vm/*.c) are built on the host; the guest only runs.
if [ -x "$VM_DIR/build-helpers.sh" ] || [ -f "$VM_DIR/build-helpers.sh" ]; then
	bash "$VM_DIR/build-helpers.sh" "$OUT/bin" || die "building the helpers in tests/vm failed"
fi
# The loopback peer (Debian's v4l2loopback, built for $KVER into out/): the
# peer suite compares against it and reports SKIP when it is missing.
if [ -n "$KDIR" ]; then
	NEGCAM_VM_KDIR=$KDIR bash "$VM_DIR/v4l2loopback.sh" "$KVER" > /dev/null ||
		echo "run.sh: v4l2loopback.ko not built; the peer comparison will be skipped" >&2
fi

RUN_ID=$(date +%Y%m%d-%H%M%S)-$$
RUN="$OUT/runs/$RUN_ID"
mkdir -p "$RUN"
printf '%s\n' "$CMDLINE" > "$RUN/cmd"
: > "$RUN/env"
if [ "$VM_KERNEL" = debug ]; then
	# negcam.ko and the detector-test module built against the debug kernel,
	# outside kmod/ (the production negcam.ko stays as it is).
	nice -n 10 make -s -C "$TREE/kmod" KDIR="$KDIR" OUT="$OUT/kmod-$KVER" > "$RUN/kmod-build.log" 2>&1 ||
		{ tail -n 20 "$RUN/kmod-build.log" >&2; die "building negcam.ko for $KVER failed (log $RUN/kmod-build.log)"; }
	nice -n 10 make -s -C "$KDIR" M="$VM_DIR/detect" modules > "$RUN/detect-build.log" 2>&1 ||
		{ tail -n 20 "$RUN/detect-build.log" >&2; die "building tests/vm/detect for $KVER failed"; }
	echo ": \"\${NEGCAM_KO:=$OUT/kmod-$KVER/kmod/negcam.ko}\"; export NEGCAM_KO" >> "$RUN/env"
fi
# Keep the last 20 runs.
ls -1d "$OUT/runs/"*/ 2>/dev/null | head -n -20 | xargs -r rm -rf

# log_buf_len: a long storm overflows the default 128 KiB, and a report
# pushed out of the buffer would escape the kernel-log check.
APPEND="console=ttyS0 loglevel=5 panic=-1 tsc=reliable log_buf_len=16M"
APPEND="$APPEND negcam_tree=$TREE negcam_run=$RUN negcam_build=${NEGCAM_BUILD:-build} negcam_timeout=$TIMEOUT"
[ "$INTERACTIVE" = 1 ] && APPEND="$APPEND negcam_interactive=1"
[ "$VM_ROOT" = / ] || APPEND="$APPEND negcam_vmroot=$VM_ROOT"
# Every KASAN report, not only the first; the modules' directory for init.
[ "$VM_KERNEL" = debug ] && APPEND="$APPEND kasan_multi_shot negcam_moddir=$MODDIR"
# -cpu max offers 5-level paging; the KASAN kernel under TCG then floods
# its console with wild-memory-access reports from early boot (before any
# module), so the debug kernel gets 4 levels, as most machines have.
CPU=max
[ "$VM_KERNEL" = debug ] && CPU=max,la57=off

QEMU=(qemu-system-x86_64 -accel tcg -cpu "$CPU" -m "$MEM" -smp "$SMP"
	-nographic -no-reboot -nodefaults -serial mon:stdio
	-kernel "$KERNEL" -initrd "$INITRD" -append "$APPEND"
	-virtfs "local,path=$VM_ROOT,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$TREE,mount_tag=tree,security_model=none,multidevs=remap")

# The guest's init says "NEGCAM-VM: booted kernel ..." once it runs.
# Under TCG the debug kernel has been seen to stop for good at early boot
# (after "tsc: Unable to calibrate against PIT", qemu idle): a VM that does
# not get there within BOOT_LIMIT seconds is stopped and started once
# more. Nothing of the command has run by then, so a second boot is safe.
BOOT_LIMIT=${NEGCAM_VM_BOOT_LIMIT:-300}
[ "$VM_KERNEL" = debug ] && BOOT_LIMIT=${NEGCAM_VM_BOOT_LIMIT:-480}

# boot_watch: in the background while qemu runs; stops a VM that has not
# booted within BOOT_LIMIT seconds (its kernel command line names $RUN).
boot_watch() {
	local t=0
	while [ "$t" -lt "$BOOT_LIMIT" ]; do
		grep -q '^NEGCAM-VM: booted' "$RUN/console.log" 2>/dev/null && return 0
		sleep 2
		t=$((t + 2))
	done
	touch "$RUN/boot-hang"
	pkill -TERM -f -- "negcam_run=$RUN "
}

# boot_qemu: one VM run, console to the terminal and console.log; qrc is
# qemu's exit status, or "hang" when it never booted.
boot_qemu() {
	local w
	rm -f "$RUN/boot-hang" "$RUN/console.log"
	boot_watch &
	w=$!
	timeout -k 10 "$TIMEOUT" "${QEMU[@]}" < /dev/null 2>&1 | tee "$RUN/console.log"
	qrc=${PIPESTATUS[0]}
	kill "$w" 2>/dev/null
	wait "$w" 2>/dev/null
	[ -e "$RUN/boot-hang" ] && qrc=hang
	return 0
}

run_qemu() {
	boot_qemu
	[ "$qrc" = hang ] || return 0
	echo "run.sh: the VM did not boot within ${BOOT_LIMIT}s (an early-boot hang; console: $RUN/console.boot-hang.log): starting it once more" >&2
	mv "$RUN/console.log" "$RUN/console.boot-hang.log"
	boot_qemu
	if [ "$qrc" = hang ]; then
		echo "run.sh: FAIL: the VM did not boot within ${BOOT_LIMIT}s, twice; console log: $RUN/console.log" >&2
		exit 125
	fi
}

ROOT_NOTE=
[ "$VM_ROOT" = / ] || ROOT_NOTE=", root $VM_ROOT"
echo "run.sh: kernel $KVER ($VM_KERNEL$ROOT_NOTE), ${MEM} MiB, $SMP CPUs, timeout ${TIMEOUT}s, run $RUN" >&2
start=$(date +%s.%N)
if [ "$INTERACTIVE" = 1 ]; then
	"${QEMU[@]}"
	qrc=$?
else
	run_qemu
fi
end=$(date +%s.%N)
elapsed=$(echo "$end - $start" | bc 2>/dev/null || echo "?")

if [ "$(cat "$RUN/status" 2>/dev/null)" = 124 ]; then
	echo "run.sh: FAIL: the command did not finish within ${TIMEOUT}s (guest watchdog); console log: $RUN/console.log" >&2
	[ -s "$RUN/dmesg" ] && { echo "---- guest dmesg since the command started ----" >&2; sed -n '/negcam-vm: command starts/,$p' "$RUN/dmesg" >&2; }
	exit 124
fi
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	echo "run.sh: FAIL: VM timed out after ${TIMEOUT}s (qemu killed); console log: $RUN/console.log" >&2
	[ -s "$RUN/dmesg" ] && { echo "---- guest dmesg ----" >&2; cat "$RUN/dmesg" >&2; }
	exit 124
fi
status=$(cat "$RUN/status" 2>/dev/null)
if [ -z "$status" ]; then
	status=$(tr -d '\r' < "$RUN/console.log" 2>/dev/null | sed -n 's/^NEGCAM-VM-EXIT: \([0-9]*\)$/\1/p' | tail -n1)
fi
if [ -z "$status" ]; then
	echo "run.sh: FAIL: the VM stopped without reporting a status (qemu exit $qrc; kernel panic?); see $RUN/console.log" >&2
	exit 125
fi
if [ "$status" != 0 ] && [ -s "$RUN/dmesg" ]; then
	# The kernel log from the start of the command (the boot part is in the file).
	echo "---- guest dmesg since the command started (whole log: $RUN/dmesg) ----" >&2
	sed -n '/negcam-vm: command starts/,$p' "$RUN/dmesg" >&2
	echo "---- end of guest dmesg ----" >&2
fi
echo "run.sh: exit status $status, VM wall time ${elapsed%.*}s" >&2
exit "$status"
exit
}
