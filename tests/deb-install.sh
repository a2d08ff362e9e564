#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/deb-install.sh [DEB_DIR]: the packages on a pristine Debian 12 root
# (root only; about 10 minutes and 500 MB of downloads: not in `make test`,
# run by `make test-deb-install`). `make deb` (unless DEB_DIR holds the
# .debs already); debootstrap --variant=minbase bookworm into a temporary
# directory, with this machine's apt sources; in it, apt installs the
# kernel headers (the "installed kernel"), then the three packages from
# their files, dependencies resolved by apt; then: DKMS built and
# installed negcam.ko for that kernel (modinfo version = meson.build's),
# gst-inspect-1.0 negcamsrc works with no environment variable, man
# negcam-ctl opens, negcam-ctl and negcam-run --version answer.
# NEGCAM_KEEP=1 keeps the root. Prints "deb-install: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
NAME=deb-install checks=0 fails=0
. "$root/tests/check.sh"

[ "$(id -u)" = 0 ] || { echo "deb-install: needs root (debootstrap, chroot)" >&2; exit 2; }
version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$root/meson.build")
tmp=$(mktemp -d /var/tmp/negcam-deb-install.XXXXXX)
cleanup() {
	umount "$tmp/root/proc" "$tmp/root/sys" "$tmp/root/dev" 2>/dev/null
	if [ -n "${NEGCAM_KEEP:-}" ]; then echo "deb-install: kept $tmp"; else rm -rf --one-file-system "$tmp"; fi
}
trap cleanup EXIT
debs=${1:-$tmp/deb}
log=$tmp/log
# step DESCRIPTION LOG COMMAND...: a check that shows LOG's tail when it fails.
step() {
	local what=$1 log=$2 before=$fails
	shift 2
	check "$what" "$@"
	[ "$fails" = "$before" ] || tail -n 30 "$log"
}
in_root() { chroot "$tmp/root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 sh -c "$1"; }

if [ -z "${1:-}" ]; then
	echo "== make deb DEB_DIR=$debs"
	step "make deb" "$log" sh -c "make -s --no-print-directory -C '$root' deb DEB_DIR='$debs' >'$log' 2>&1"
fi
command -v debootstrap >/dev/null || { echo "deb-install: no debootstrap (make deps-test installs it)" >&2; exit 2; }
echo "== debootstrap --variant=minbase bookworm $tmp/root"
step "debootstrap minbase bookworm" "$log" sh -c "debootstrap --variant=minbase bookworm '$tmp/root' \
	http://deb.debian.org/debian >>'$log' 2>&1"
rm -f "$tmp/root/etc/apt/sources.list"
cp -a /etc/apt/sources.list.d/debian.sources "$tmp/root/etc/apt/sources.list.d/" 2>/dev/null ||
	cp /etc/apt/sources.list "$tmp/root/etc/apt/sources.list"
mount -t proc proc "$tmp/root/proc" && mount --bind /sys "$tmp/root/sys" && mount --bind /dev "$tmp/root/dev"
mkdir -p "$tmp/root/debs"
cp "$debs"/negcam-dkms_*.deb "$debs"/gstreamer1.0-negcam_*.deb "$debs"/negcam-tools_*.deb "$tmp/root/debs/"

echo "== apt install the kernel headers, then ./negcam-dkms ./gstreamer1.0-negcam ./negcam-tools"
step "apt-get install linux-headers-amd64 gstreamer1.0-tools man-db" "$tmp/root/debs/apt.log" in_root \
	"apt-get update -q >/dev/null && apt-get install -y -q linux-headers-amd64 gstreamer1.0-tools man-db >>/debs/apt.log 2>&1"
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

echo "deb-install: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
