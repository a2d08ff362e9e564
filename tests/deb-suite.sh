#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/deb-suite.sh: the Debian packages. `make deb` (dpkg-buildpackage
# -us -uc -b in a clean copy, then lintian) into a temporary DEB_DIR; then
# each package's contents: the plugin in GStreamer's plugin directory, the
# tools, the preload library and their man pages, the udev rule, the
# example modprobe.d and modules-load.d files, the DKMS tree with every
# file of engine/sources.mk and dkms.conf at meson.build's version, dkms in
# negcam-dkms's Depends and its postinst; lintian without an error; the
# packaged plugin and tools run from the unpacked packages, and the
# packaged DKMS tree builds negcam.ko (tests/dkms-suite.sh on it).
# Nothing is installed on this machine. About 5 minutes on two cores.
# Prints "deb: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
NAME=deb checks=0 fails=0
. "$root/tests/check.sh"

tmp=$(mktemp -d /tmp/negcam-deb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$root/meson.build")
arch=$(dpkg --print-architecture)
pluginsdir=$(pkg-config --variable=pluginsdir gstreamer-1.0)
out=$tmp/deb

echo "== make deb DEB_DIR=$out (log $tmp/make-deb.log)"
make -s --no-print-directory -C "$root" deb DEB_DIR="$out" >"$tmp/make-deb.log" 2>&1
rc=$?
check "make deb exits 0 (lintian found no error)" test "$rc" = 0
[ "$rc" = 0 ] || tail -n 40 "$tmp/make-deb.log"
grep -E '^[EWI]: ' "$tmp/make-deb.log" | sed 's/^/   lintian /'
check "lintian: no error" sh -c "! grep -q '^E: ' '$tmp/make-deb.log'"

dkms_deb=$out/negcam-dkms_${version}_all.deb
gst_deb=$out/gstreamer1.0-negcam_${version}_$arch.deb
tools_deb=$out/negcam-tools_${version}_$arch.deb
for d in "$dkms_deb" "$gst_deb" "$tools_deb"; do
	check "built ${d##*/}" test -f "$d"
	[ -f "$d" ] && dpkg-deb -x "$d" "$tmp/root"
done
has_file() { check "${2##*/} ships $1" test -e "$tmp/root$1"; }

src=/usr/src/negcam-$version
has_file "$src/dkms.conf" "$dkms_deb"
check "the packaged dkms.conf is at version $version" \
	contains "$tmp/root$src/dkms.conf" "PACKAGE_VERSION=\"$version\""
for f in $(make -s --no-print-directory -C "$root/kmod" print-engine-sources); do
	has_file "$src/engine/$f" "$dkms_deb"
done
# negcamconvertsink's chain: videorate, videoconvert, videoscale (base) and jpegenc (good).
check "gstreamer1.0-negcam recommends the base and good plugins" sh -c \
	"dpkg-deb -f '$gst_deb' Recommends | grep -w gstreamer1.0-plugins-base | grep -qw gstreamer1.0-plugins-good"
# negcampwsink and negcampwconvertsink are in the plugin, which links libpipewire.
check "gstreamer1.0-negcam's plugin has negcampwsink and negcampwconvertsink" sh -c \
	"for e in negcampwsink negcampwconvertsink; do grep -qa \"\$e\" $tmp/root/usr/lib/*/gstreamer-1.0/libgstnegcam.so || exit 1; done"
check "gstreamer1.0-negcam depends on libpipewire (the PipeWire camera sinks)" sh -c \
	"dpkg-deb -f '$gst_deb' Depends | grep -qw 'libpipewire-0.3-0'"
check "negcam-dkms depends on dkms" sh -c "dpkg-deb -f '$dkms_deb' Depends | grep -qw dkms"
ex=/usr/share/doc/negcam-dkms/examples
has_file "$ex/modprobe-negcam.conf" "$dkms_deb"
has_file "$ex/modules-load-negcam.conf" "$dkms_deb"
# Every parameter the example modprobe.d file sets is one negcam.ko has.
params=$(sed -n 's/^options negcam //p' "$tmp/root$ex/modprobe-negcam.conf" 2>/dev/null |
	grep -o '[a-z_]*=' | sort -u | tr -d =)
for p in $params; do
	check "modprobe-negcam.conf's $p= is a negcam.ko parameter" \
		grep -Eq "module_param(_array)?\($p," "$root"/kmod/*.c
done
check "modprobe-negcam.conf sets parameters" test -n "$params"
check "modules-load-negcam.conf names negcam" grep -qx negcam "$tmp/root$ex/modules-load-negcam.conf"
has_file /lib/udev/rules.d/60-negcam.rules "$tools_deb"
check "the packaged udev rule runs the installed negcam-ctl" \
	contains "$tmp/root/lib/udev/rules.d/60-negcam.rules" 'IMPORT{program}="/usr/bin/negcam-ctl loop udev %k"'
dpkg-deb -e "$dkms_deb" "$tmp/dkms-control"
check "negcam-dkms's postinst runs dkms (dh_dkms)" grep -q dkms "$tmp/dkms-control/postinst"

for d in "$gst_deb" "$tools_deb"; do
	check "${d##*/} ships nothing in /usr/src" sh -c "! dpkg-deb -c '$d' | grep -q ' ./usr/src/'"
done
has_file "$pluginsdir/libgstnegcam.so" "$gst_deb"
for f in /usr/bin/negcam-ctl /usr/bin/negcam-run /usr/lib/$(gcc -print-multiarch)/negcam/libnegcam-preload.so \
	/usr/share/man/man1/negcam-ctl.1.gz /usr/share/man/man1/negcam-run.1.gz \
	/usr/bin/negcam-pw /usr/share/man/man1/negcam-pw.1.gz \
	/usr/share/doc/negcam-tools/examples/negcam-pw@.service; do
	has_file "$f" "$tools_deb"
done
check "the packaged negcam-pw --version is $version" \
	test "$("$tmp/root/usr/bin/negcam-pw" --version 2>&1)" = "negcam-pw $version"
check "man -l negcam-pw.1.gz formats" sh -c "man -l '$tmp/root/usr/share/man/man1/negcam-pw.1.gz' >/dev/null 2>&1"

check "the packaged negcam-ctl --version is $version" \
	test "$("$tmp/root/usr/bin/negcam-ctl" --version 2>&1)" = "negcam-ctl $version"
check "gst-inspect-1.0 negcamsrc from the packaged plugin" \
	sh -c 'GST_REGISTRY="$1/registry.bin" GST_PLUGIN_PATH="$1/root$2" gst-inspect-1.0 negcamsrc >/dev/null' - \
	"$tmp" "$pluginsdir"
check "man -l negcam-ctl.1.gz formats" sh -c "man -l '$tmp/root/usr/share/man/man1/negcam-ctl.1.gz' >/dev/null 2>&1"

echo "== the packaged DKMS tree builds (tests/dkms-suite.sh $src)"
"$root/tests/dkms-suite.sh" "$tmp/root$src" | sed 's/^/   /'
check "the packaged DKMS tree builds negcam.ko (tests/dkms-suite.sh)" test "${PIPESTATUS[0]}" = 0

echo "deb: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
