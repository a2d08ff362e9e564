#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/deb-install.sh [DEB_DIR]: the packages built and installed on
# pristine Debian 12 roots (root only; about 10 to 30 minutes and 500 MB of
# downloads: not in `make test`, run by `make test-deb-install` and CI).
# debootstrap --variant=minbase bookworm into a temporary directory, with
# this machine's apt sources. In a copy of it plus make, git and
# build-essential, `make deb` in a clean clone of this checkout's HEAD
# installs its own build dependencies and builds the .debs (unless DEB_DIR
# holds them already). In the other, apt installs the kernel image and
# headers (the "installed kernel") and the user's packages (udev,
# v4l-utils, GStreamer's tools and good plugins), then the three packages
# from their files, dependencies resolved by apt; then: DKMS built and
# installed negcam.ko for that kernel (modinfo version = meson.build's),
# gst-inspect-1.0 negcamsrc works with no environment variable, man
# negcam-ctl opens, negcam-ctl and negcam-run --version answer. Then that
# root is booted (tests/vm/run.sh --root, its own kernel) and
# tests/vm/installed-suite.sh checks the installed packages there: modprobe
# negcam, `negcam-ctl loop add --label Meeting`, udev's by-id links, a
# producer and a browser-style consumer through them, `loop list`, `loop
# remove`, the example modprobe.d and modules-load.d files; each of its
# checks counts here.
# NEGCAM_KEEP=1 keeps the root. tests/deb-install.sh --boot DIR runs only
# the booted stage on DIR, a directory that NEGCAM_KEEP=1 kept (its root/).
# Prints "deb-install: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
NAME=deb-install checks=0 fails=0
. "$root/tests/check.sh"

[ "$(id -u)" = 0 ] || { echo "deb-install: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "deb-install: no debootstrap (make deps-test installs it)" >&2; exit 2; }
version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$root/meson.build")
if [ "${1:-}" = --boot ]; then
	tmp=$(cd "${2:?--boot DIR: a directory NEGCAM_KEEP=1 kept}" && pwd) || exit 2
	[ -d "$tmp/root/usr/src" ] || { echo "deb-install: $tmp has no installed root/" >&2; exit 2; }
	NEGCAM_KEEP=1 BOOT_ONLY=1
else
	tmp=$(mktemp -d /var/tmp/negcam-deb-install.XXXXXX) BOOT_ONLY=
fi
# Lazy: a process killed mid-run may still hold /dev open for a moment.
unmount() { umount -l "$1/proc" "$1/sys" "$1/dev" 2>/dev/null; }
cleanup() {
	unmount "$tmp/build"
	unmount "$tmp/root"
	if [ -n "${NEGCAM_KEEP:-}" ]; then echo "deb-install: kept $tmp"; else rm -rf --one-file-system "$tmp"; fi
}
trap cleanup EXIT
log=$tmp/log
# step DESCRIPTION LOG COMMAND...: a check that shows LOG's tail when it fails.
step() {
	local what=$1 log=$2 before=$fails
	shift 2
	check "$what" "$@"
	[ "$fails" = "$before" ] || tail -n 30 "$log"
}
# in_dir DIR CMD: CMD as root in the root DIR, with a clean environment.
in_dir() { chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 sh -c "$2"; }
in_root() { in_dir "$tmp/root" "$1"; }
mount_root() { mount -t proc proc "$1/proc" && mount --bind /sys "$1/sys" && mount --bind /dev "$1/dev"; }

# boot_stage: the installed root booted in the VM (tests/vm/installed-suite.sh);
# each PASS:/FAIL: line of it a check here, and run.sh's status one more.
boot_stage() {
	local blog=$tmp/boot.log rc line
	unmount "$tmp/root"
	echo "== the installed root booted: tests/vm/run.sh --root $tmp/root tests/vm/installed-suite.sh (log $blog)"
	nice -n 10 "$root/tests/vm/run.sh" --root "$tmp/root" --timeout 900 \
		tests/vm/installed-suite.sh "$version" > "$blog" 2>&1
	rc=$?
	grep -E '^run.sh: kernel|^  (root|last frame)' "$blog" | tr -d '\r' | sed 's/^ */   /'
	while IFS= read -r line; do
		case $line in
		PASS:*) checks=$((checks + 1)); echo "   booted: ${line#PASS: }" | cut -c1-200 ;;
		FAIL:*) checks=$((checks + 1)) fails=$((fails + 1)); echo "$NAME: FAIL: booted: ${line#FAIL: }" >&2 ;;
		esac
	done < <(tr -d '\r' < "$blog")
	check "booted: installed-suite.sh reported its count" grep -q '^installed: [0-9]* passed' "$blog"
	check "booted: tests/vm/run.sh exits 0 (kernel log clean; status $rc)" test "$rc" = 0
	[ "$rc" = 0 ] || tail -n 30 "$blog"
}
if [ -n "$BOOT_ONLY" ]; then
	boot_stage
	echo "deb-install: $((checks - fails)) passed, $fails failed"
	[ "$fails" = 0 ]
	exit
fi

echo "== debootstrap --variant=minbase bookworm (this machine's apt sources)"
step "debootstrap minbase bookworm" "$log" sh -c "debootstrap --variant=minbase bookworm '$tmp/root' \
	http://deb.debian.org/debian >>'$log' 2>&1"
rm -f "$tmp/root/etc/apt/sources.list"
cp -a /etc/apt/sources.list.d/debian.sources "$tmp/root/etc/apt/sources.list.d/" 2>/dev/null ||
	cp /etc/apt/sources.list "$tmp/root/etc/apt/sources.list"

# The packages: built in a copy of the pristine root that has only make,
# git and a compiler added, from a clean clone (HEAD), by make deb, which
# installs its own build dependencies.
debs=${1:-$tmp/build/debs}
if [ -z "${1:-}" ]; then
	cp -a "$tmp/root" "$tmp/build"
	mount_root "$tmp/build"
	git clone -q "$root" "$tmp/build/src"
	echo "== make deb in a clean clone of $(git -C "$root" rev-parse --short HEAD) on that root plus make, git, build-essential"
	step "apt-get install make git build-essential" "$tmp/build/apt.log" in_dir "$tmp/build" \
		"apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends make git build-essential >/apt.log 2>&1"
	step "make deb (it installs the build dependencies)" "$tmp/build/deb.log" in_dir "$tmp/build" \
		"cd /src && make deb DEB_DIR=/debs >/deb.log 2>&1"
	grep -E "^make deb: installing|^make deb: all" "$tmp/build/deb.log" | cut -c1-160 | sed 's/^/   /'
	unmount "$tmp/build"
fi
if ! ls "$debs"/negcam-dkms_*.deb >/dev/null 2>&1; then
	echo "deb-install: no packages to install"
	echo "deb-install: $((checks - fails)) passed, $((fails + 1)) failed"
	exit 1
fi
mount_root "$tmp/root"
mkdir -p "$tmp/root/debs"
cp "$debs"/negcam-dkms_*.deb "$debs"/gstreamer1.0-negcam_*.deb "$debs"/negcam-tools_*.deb "$tmp/root/debs/"

echo "== apt install the kernel headers, then ./negcam-dkms ./gstreamer1.0-negcam ./negcam-tools"
step "apt-get install linux-image-amd64 linux-headers-amd64 and the user's packages" "$tmp/root/debs/apt.log" in_root \
	"apt-get update -q >/dev/null && apt-get install -y -q linux-image-amd64 linux-headers-amd64 \
	gstreamer1.0-tools gstreamer1.0-plugins-good man-db udev v4l-utils >>/debs/apt.log 2>&1"
step "apt install ./*.deb (dependencies by apt)" "$tmp/root/debs/apt.log" in_root \
	"cd /debs && apt-get install -y -q ./negcam-dkms_*.deb ./gstreamer1.0-negcam_*.deb ./negcam-tools_*.deb >>/debs/apt.log 2>&1"
grep -E "^(Building for|Building initial|Installing|negcam.ko)" "$tmp/root/debs/apt.log" | sed 's/^/   /'

kver=$(ls "$tmp/root/lib/modules" | sort -V | tail -n 1)
echo "   kernel in the root: $kver; dkms status: $(in_root 'dkms status negcam' 2>&1)"
check "dkms status: negcam $version installed for $kver" \
	sh -c "chroot '$tmp/root' dkms status negcam | grep -q '$version, $kver.*: installed'"
ko=$(find "$tmp/root/lib/modules/$kver" -name 'negcam.ko*' | head -n 1)
check "negcam.ko installed under /lib/modules/$kver" test -n "$ko"
[ -n "$ko" ] && check "modinfo version of the DKMS module is $version" \
	test "$(modinfo -F version "$ko")" = "$version"
check "gst-inspect-1.0 negcamsrc with no environment variable" in_root "gst-inspect-1.0 negcamsrc >/dev/null 2>&1"
man=$(in_root "man -P cat negcam-ctl 2>&1")
printf '%s\n' "$man" | head -n 4 | sed 's/^/   man: /'
check "man negcam-ctl opens" sh -c 'printf "%s\n" "$1" | grep -Eq "query +and +drive +the +negcam"' - "$man"
check "negcam-ctl --version" in_root "test \"\$(negcam-ctl --version)\" = 'negcam-ctl $version'"
check "negcam-run --version" in_root "test \"\$(negcam-run --version)\" = 'negcam-run $version'"
check "negcam-ctl --list-profiles (the installed engine)" in_root "negcam-ctl --list-profiles | grep -q '^webcam'"
boot_stage

echo "deb-install: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
