#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/dkms-suite.sh [TREE]: the DKMS tree builds. `make -C kmod dkms-tree` lays
# the tree out in a temporary directory (what dkms-install puts in
# /usr/src and the negcam-dkms package ships); dkms builds negcam.ko from
# it for the newest installed kernel (kmod/Makefile's KVER), with
# --sourcetree and --dkmstree in the temporary directory, so /usr/src and
# /var/lib/dkms are not touched. Without dkms (or root) a plain Kbuild
# build of the tree stands in. Then modinfo must show the module's fields,
# its version that of meson.build. TREE: build that tree (a copy of it)
# instead, e.g. the negcam-dkms package's /usr/src/negcam-VERSION
# (tests/deb-suite.sh). Prints "dkms: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
NAME=dkms checks=0 fails=0
. "$root/tests/check.sh"

version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$root/meson.build")
kver=$(make -s --no-print-directory -C "$root/kmod" print-kver)
tmp=$(mktemp -d /tmp/negcam-dkms.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src"
tree=$tmp/src/negcam-$version
log=$tmp/build.log

echo "dkms: negcam $version for kernel $kver in $tmp"
if [ -n "${1:-}" ]; then
	check "copy the DKMS tree $1" cp -a "$1" "$tree"
else
	check "make -C kmod dkms-tree" make -s -C "$root/kmod" DKMS_TREE="$tree" dkms-tree
fi
check "dkms.conf names version $version" contains "$tree/dkms.conf" "PACKAGE_VERSION=\"$version\""

if has dkms && [ "$(id -u)" = 0 ]; then
	how="dkms build"
	mkdir -p "$tmp/dkms"
	dk() { dkms "$@" -m negcam -v "$version" --sourcetree "$tmp/src" --dkmstree "$tmp/dkms"; }
	dk add >>"$log" 2>&1 && dk build -k "$kver" >>"$log" 2>&1
	rc=$?
else
	how="Kbuild (no dkms or not root)"
	make -C "$tree/kmod" KDIR="/lib/modules/$kver/build" NEGCAM_VERSION="$version" modules >>"$log" 2>&1
	rc=$?
fi
ko=$(find "$tmp" -name 'negcam.ko*' -not -path "$tree/*" -print -quit)
[ -n "$ko" ] || ko=$(find "$tree" -name negcam.ko -print -quit)
check "$how of the tree exits 0" test "$rc" = 0
check "$how made negcam.ko" test -n "$ko"
if [ "$rc" != 0 ] || [ -z "$ko" ]; then
	tail -n 25 "$log"
	find "$tmp/dkms" -name make.log -exec tail -n 15 {} \; 2>/dev/null
else
	echo "dkms: $how: ${ko#"$tmp"/}"
	modinfo "$ko" | grep -E '^(name|version|license|description|vermagic):'
	field() { modinfo -F "$1" "$ko"; }
	check "modinfo name is negcam" test "$(field name)" = negcam
	check "modinfo version is $version (meson.build)" test "$(field version)" = "$version"
	check "modinfo license is GPL" test "$(field license)" = GPL
	check "modinfo description is set" test -n "$(field description)"
	check "modinfo vermagic is for $kver" test "$(field vermagic | cut -d' ' -f1)" = "$kver"
fi
echo "dkms: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
