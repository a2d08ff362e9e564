#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/vm/debug-kernel.sh [--paths]: builds the debug kernel the VM harness
# boots with `tests/vm/run.sh --kernel debug` (issue 15): Debian's
# linux-source-6.1 (the version of the installed linux-image-amd64) with
# KASAN, lockdep, kmemleak, UBSAN, KFENCE, DEBUG_LIST/OBJECTS and the
# hung-task and soft-lockup detectors, trimmed to what the qemu harness and
# the media drivers need. Once per machine: the result is cached outside the
# tree and rebuilt only when the configuration below changes.
#
# Cache: $NEGCAM_DEBUG_KERNEL_DIR, default ${XDG_CACHE_HOME:-$HOME/.cache}/negcam/debug-kernel:
#   linux-source-6.1/   the unpacked source (never written to)
#   build/              the object tree (O=); KDIR for out-of-tree modules;
#                       build/arch/x86/boot/bzImage is what qemu boots (the
#                       PVH entry of build/vmlinux does not boot with KASAN)
#   install/lib/modules/RELEASE/   the modules, with modules.dep
#   build.log, done     the last build's log; the configuration hash once built
# The build is incremental: an interrupted run picks up where it stopped.
# linux-source-6.1 (~140 MB) is installed here with apt-get, not by `make deps`.
#
# --paths: print KERNEL=, MODDIR=, KDIR= and RELEASE= lines for a finished
# build, or exit 1 when there is none (run.sh uses it; it never builds).
#
# Everything runs under nice -n 19 (the machine is shared); NEGCAM_DEBUG_KERNEL_JOBS
# sets make -j (default 2).

# Braces: bash reads the whole script before running it, so editing this
# file while a build is under way cannot break that build.
{
set -u
set -o pipefail

DIR=${NEGCAM_DEBUG_KERNEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/negcam/debug-kernel}
SRC=$DIR/linux-source-6.1
BUILD=$DIR/build
TARBALL=/usr/src/linux-source-6.1.tar.xz
JOBS=${NEGCAM_DEBUG_KERNEL_JOBS:-2}
NICE="nice -n 19"
LOCALVERSION=-negcam-debug

die() { echo "debug-kernel.sh: $*" >&2; exit 1; }

# The configuration: x86_64_defconfig + kvm_guest.config, then these lines
# (scripts/config: -e enable, -d disable, -m module, --set-val). Changing a
# line changes the hash and reconfigures the build (make rebuilds what changed).
CONFIG_LINES=(
	# The harness: serial console, initramfs, PVH (unused: see above),
	# virtio-pci + 9p built in (the initramfs then loads nothing), tmpfs, sysrq.
	"-e PVH" "-e SERIAL_8250_CONSOLE" "-e BLK_DEV_INITRD" "-e RD_GZIP"
	"-e VIRTIO_PCI" "-e NET_9P" "-e NET_9P_VIRTIO" "-e 9P_FS" "-e 9P_FS_POSIX_ACL"
	"-e DEVTMPFS" "-e TMPFS" "-e TMPFS_POSIX_ACL" "-e MAGIC_SYSRQ" "-e DEBUG_FS"
	"-e MODULES" "-e MODULE_UNLOAD" "-e MODULE_FORCE_UNLOAD" "-d MODULE_SIG"
	"-e IKCONFIG" "-e IKCONFIG_PROC"
	"--set-str LOCALVERSION $LOCALVERSION" "-d LOCALVERSION_AUTO"
	# Media, as modules: V4L2, videobuf2 (vmalloc, dma-contig), the media
	# controller and vivid (which needs FB), configfs for negcam's profiles.
	"-e FB" "-d FRAMEBUFFER_CONSOLE" "-m CONFIGFS_FS"
	"-m MEDIA_SUPPORT" "-e MEDIA_SUPPORT_FILTER" "-e MEDIA_CAMERA_SUPPORT"
	"-e MEDIA_TEST_SUPPORT" "-e MEDIA_CONTROLLER" "-e MEDIA_CONTROLLER_REQUEST_API"
	"-m VIDEO_DEV" "-e V4L_TEST_DRIVERS" "-m VIDEO_VIVID" "-e DMA_SHARED_BUFFER"
	"-e DMABUF_HEAPS" "-e DMABUF_HEAPS_SYSTEM" "-e UDMABUF"
	"-d MEDIA_USB_SUPPORT" "-d MEDIA_PCI_SUPPORT" "-d MEDIA_PLATFORM_SUPPORT"
	"-d MEDIA_RADIO_SUPPORT" "-d MEDIA_DIGITAL_TV_SUPPORT" "-d MEDIA_ANALOG_TV_SUPPORT"
	"-d MEDIA_SDR_SUPPORT" "-d VIDEO_CAMERA_SENSOR"
	# Trimmed: what qemu -nodefaults never shows the guest.
	"-d DRM" "-d AGP" "-d SOUND" "-d USB_SUPPORT" "-d HID" "-d INPUT_MOUSE"
	"-d INPUT_KEYBOARD" "-d WLAN" "-d WIRELESS" "-d CFG80211" "-d ETHERNET"
	"-d NETFILTER" "-d IPV6" "-d NET_SCHED" "-d ATA" "-d SCSI" "-d MD"
	"-d EXT4_FS" "-d NFS_FS" "-d ISO9660_FS" "-d VFAT_FS" "-d MSDOS_FS" "-d AUTOFS_FS"
	"-d QUOTA" "-d SECURITY_SELINUX" "-d AUDIT" "-d HIBERNATION" "-d SUSPEND"
	"-d CPU_FREQ" "-d EFI" "-d XEN" "-d PCCARD" "-d MICROCODE" "-d KPROBES"
	"-d FTRACE" "-d PROFILING" "-d DRM_VIRTIO_GPU" "-d VIRTIO_INPUT" "-d VIRTIO_NET"
	"-d NUMA" "-d X86_MCE" "-d IA32_EMULATION" "-d PERF_EVENTS_INTEL_UNCORE"
	"-d PERF_EVENTS_INTEL_RAPL" "-d PERF_EVENTS_INTEL_CSTATE" "-d PERF_EVENTS_AMD_POWER"
	"-d PERF_EVENTS_AMD_UNCORE" "-d AMD_IOMMU" "-d INTEL_IOMMU" "-d HWMON" "-d THERMAL"
	"-d WATCHDOG" "-d EDAC" "-d DMADEVICES" "-d INPUT_JOYSTICK" "-d INPUT_TABLET"
	"-d INPUT_TOUCHSCREEN" "-d INPUT_MISC" "-d XFRM_USER" "-d NET_KEY" "-d IP_MULTICAST"
	"-d IP_ADVANCED_ROUTER" "-d IP_PNP" "-d NETLABEL" "-d RFKILL" "-d SECURITY"
	"-d HW_RANDOM" "-d NVRAM" "-d I2C" "-d PTP_1588_CLOCK" "-d POWER_SUPPLY"
	"-d VIRT_DRIVERS" "-d BLK_DEV_LOOP" "-d CDROM" "-d FW_CFG_SYSFS" "-d HYPERV"
	"-d KEXEC" "-d CRASH_DUMP" "-d X86_CPU_RESCTRL" "-d BLK_CGROUP" "-d CGROUP_BPF"
	"-d LOGO" "-d DEBUG_INFO" "-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT" "-e DEBUG_INFO_NONE"
	# The detectors.
	"-e KASAN" "-e KASAN_GENERIC" "-e KASAN_INLINE" "-e KASAN_VMALLOC"
	"-e PROVE_LOCKING" "-e DEBUG_ATOMIC_SLEEP"
	"-e DEBUG_KMEMLEAK" "-d DEBUG_KMEMLEAK_AUTO_SCAN" "--set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 32000"
	"-e UBSAN" "-e UBSAN_BOUNDS" "-e UBSAN_SHIFT" "-e UBSAN_DIV_ZERO" "-e UBSAN_BOOL"
	"-e UBSAN_ENUM" "-e UBSAN_SANITIZE_ALL" "-d UBSAN_TRAP"
	"-e DEBUG_LIST" "-e DEBUG_SG" "-e DEBUG_NOTIFIERS" "-e BUG_ON_DATA_CORRUPTION"
	"-e DEBUG_OBJECTS" "-e DEBUG_OBJECTS_FREE" "-e DEBUG_OBJECTS_TIMERS"
	"-e DEBUG_OBJECTS_WORK" "-e DEBUG_OBJECTS_RCU_HEAD" "-e DEBUG_OBJECTS_PERCPU_COUNTER"
	"--set-val DEBUG_OBJECTS_ENABLE_DEFAULT 1"
	"-e KFENCE" "--set-val KFENCE_SAMPLE_INTERVAL 100"
	"-e DETECT_HUNG_TASK" "--set-val DEFAULT_HUNG_TASK_TIMEOUT 60"
	"-e SOFTLOCKUP_DETECTOR" "-e WQ_WATCHDOG" "-e DEBUG_VM" "-e FORTIFY_SOURCE"
	"-e KALLSYMS" "-e KALLSYMS_ALL" "-e STACKTRACE"
)
# Kconfig symbols that must come out of olddefconfig as set above (a
# dependency missing would otherwise silently drop a detector).
REQUIRED="PVH VIRTIO_PCI NET_9P_VIRTIO 9P_FS DEVTMPFS MODULE_UNLOAD DEBUG_FS
KASAN KASAN_GENERIC KASAN_INLINE PROVE_LOCKING DEBUG_ATOMIC_SLEEP DEBUG_KMEMLEAK
UBSAN DEBUG_LIST DEBUG_OBJECTS KFENCE DETECT_HUNG_TASK SOFTLOCKUP_DETECTOR"
REQUIRED_M="VIDEO_DEV VIDEO_VIVID VIDEOBUF2_CORE VIDEOBUF2_V4L2 VIDEOBUF2_MEMOPS
VIDEOBUF2_VMALLOC VIDEOBUF2_DMA_CONTIG CONFIGFS_FS"

# The configuration's hash: its lines and the source tarball's size and time
# (recomputed once the tarball is installed, which a first build does).
config_hash() {
	{ printf '%s\n' "${CONFIG_LINES[@]}"; echo "$REQUIRED $REQUIRED_M";
	  ls -l --time-style=+%s "$TARBALL" 2>/dev/null; } | sha256sum | cut -c1-16
}
hash=$(config_hash)

release() { cat "$BUILD/include/config/kernel.release" 2>/dev/null; }

print_paths() {
	local rel
	rel=$(release)
	[ -n "$rel" ] && [ "$(cat "$DIR/done" 2>/dev/null)" = "$hash" ] &&
		[ -s "$BUILD/arch/x86/boot/bzImage" ] && [ -f "$DIR/install/lib/modules/$rel/modules.dep" ] || return 1
	echo "KERNEL=$BUILD/arch/x86/boot/bzImage"
	echo "MODDIR=$DIR/install/lib/modules/$rel"
	echo "KDIR=$BUILD"
	echo "RELEASE=$rel"
}

if [ "${1:-}" = --paths ]; then
	print_paths || { echo "debug-kernel.sh: no finished debug kernel in $DIR for this configuration; run tests/vm/debug-kernel.sh (or make debug-kernel)" >&2; exit 1; }
	exit 0
fi
if print_paths > /dev/null; then
	echo "debug-kernel.sh: up to date in $DIR (configuration $hash)" >&2
	print_paths
	exit 0
fi

# One build at a time per cache directory (make debug-kernel while another
# build runs waits for it, then finds it done).
mkdir -p "$DIR" || die "cannot create $DIR"
exec 9> "$DIR/lock"
if ! flock -n 9; then
	echo "debug-kernel.sh: another build is running in $DIR; waiting for it" >&2
	flock 9
	hash=$(config_hash)	# that build may have installed the tarball
	print_paths > /dev/null && { print_paths; exit 0; }
fi

# --- the source --------------------------------------------------------------
if [ ! -f "$TARBALL" ]; then
	[ "$(id -u)" = 0 ] || die "$TARBALL missing: apt-get install linux-source-6.1 bison flex (as root)"
	echo "debug-kernel.sh: installing linux-source-6.1 (not part of make deps: ~140 MB)" >&2
	$NICE apt-get install -y --no-install-recommends linux-source-6.1 bison flex >&2 ||
		die "apt-get install linux-source-6.1 failed"
fi
hash=$(config_hash)
for t in bison flex bc gcc make; do
	command -v $t > /dev/null || die "$t missing (apt-get install $t)"
done
mkdir -p "$DIR" || die "cannot create $DIR"
if [ ! -f "$SRC/.negcam-unpacked" ] || [ "$TARBALL" -nt "$SRC/.negcam-unpacked" ]; then
	echo "debug-kernel.sh: unpacking $TARBALL into $DIR" >&2
	rm -rf "$SRC"
	(cd "$DIR" && $NICE tar -xaf "$TARBALL") || die "unpacking $TARBALL failed"
	touch "$SRC/.negcam-unpacked"
fi

# --- the configuration ---------------------------------------------------------
kmake() { $NICE make -C "$SRC" O="$BUILD" "$@"; }
if [ "$(cat "$BUILD/.negcam-config" 2>/dev/null)" != "$hash" ]; then
	echo "debug-kernel.sh: configuring $BUILD (configuration $hash)" >&2
	mkdir -p "$BUILD"
	kmake -s x86_64_defconfig kvm_guest.config >&2 || die "make defconfig failed"
	for line in "${CONFIG_LINES[@]}"; do
		# shellcheck disable=SC2086 # one line is an option and its arguments
		"$SRC/scripts/config" --file "$BUILD/.config" $line || die "scripts/config $line failed"
	done
	kmake -s olddefconfig >&2 || die "make olddefconfig failed"
	missing=
	for s in $REQUIRED; do grep -q "^CONFIG_$s=y" "$BUILD/.config" || missing="$missing $s"; done
	for s in $REQUIRED_M; do grep -q "^CONFIG_$s=[ym]" "$BUILD/.config" || missing="$missing $s"; done
	[ -z "$missing" ] || die "olddefconfig dropped:$missing (a dependency is missing; see $BUILD/.config)"
	echo "$hash" > "$BUILD/.negcam-config"
fi

# --- the build -------------------------------------------------------------------
echo "debug-kernel.sh: building in $BUILD with make -j$JOBS under nice 19; log $DIR/build.log" >&2
start=$(date +%s)
kmake -j"$JOBS" vmlinux bzImage modules > "$DIR/build.log" 2>&1 ||
	{ tail -n 30 "$DIR/build.log" >&2; die "the kernel build failed (log $DIR/build.log); run again to resume"; }
rm -rf "$DIR/install"
kmake -s INSTALL_MOD_PATH="$DIR/install" modules_install >> "$DIR/build.log" 2>&1 ||
	{ tail -n 30 "$DIR/build.log" >&2; die "modules_install failed (log $DIR/build.log)"; }
echo "$hash" > "$DIR/done"
echo "debug-kernel.sh: built $(release) in $(( $(date +%s) - start ))s (this run); $(grep -c '^CONFIG_.*=[ym]' "$BUILD/.config") options set" >&2
print_paths
exit
}
