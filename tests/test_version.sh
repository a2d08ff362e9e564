#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# One version number, meson.build's project version: negcam-ctl --version,
# negcam-run --version, negcam-pw --version (when built), the GStreamer plugin (gst-inspect-1.0 negcam),
# negcam.ko's MODULE_VERSION as kmod/Makefile passes it (and modinfo of a
# built kmod/negcam.ko; tests/dkms-suite.sh checks the DKMS tree's), the
# DKMS template (no number of its own) and debian/changelog.
#
#   test_version.sh SOURCE_ROOT BUILD_ROOT
set -u
SRC=$1 BUILD=$2
NAME=test_version checks=0 fails=0
. "$SRC/tests/check.sh"

v=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$SRC/meson.build")
echo "meson.build: version $v"
same() {	# WHAT GOT
	echo "$1: $2"
	check "$1 is $v (got '$2')" [ "$2" = "$v" ]
}
check "meson.build has a version" [ -n "$v" ]
same "negcam-ctl --version" "$("$BUILD/ctl/negcam-ctl" --version | sed -n 's/^negcam-ctl //p')"
same "negcam-run --version" "$("$BUILD/run/negcam-run" --version | sed -n 's/^negcam-run //p')"
if [ -x "$BUILD/pw/negcam-pw" ]; then
	same "negcam-pw --version" "$("$BUILD/pw/negcam-pw" --version | sed -n 's/^negcam-pw //p')"
fi
if has gst-inspect-1.0 && [ -e "$BUILD/gst/libgstnegcam.so" ]; then
	reg=$(mktemp /tmp/negcam-version-registry.XXXXXX)
	same "gst-inspect-1.0 negcam" "$(GST_REGISTRY=$reg GST_PLUGIN_PATH=$BUILD/gst \
		gst-inspect-1.0 negcam | sed -n 's/^ *Version *//p')"
	rm -f "$reg"
fi
same "kmod/Makefile's MODULE_VERSION" "$(make -s --no-print-directory -C "$SRC/kmod" print-version)"
check "kmod/dkms.conf takes its version when the tree is made" \
	contains "$SRC/kmod/dkms.conf" 'PACKAGE_VERSION="#MODULE_VERSION#"'
[ -e "$SRC/kmod/negcam.ko" ] && has modinfo &&
	same "modinfo kmod/negcam.ko" "$(modinfo -F version "$SRC/kmod/negcam.ko")"
[ -e "$SRC/debian/changelog" ] && has dpkg-parsechangelog &&
	same "debian/changelog" "$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version)"
echo "$NAME: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
