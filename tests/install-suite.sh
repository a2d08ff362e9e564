#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/install-suite.sh [BUILD]: what `meson install` puts where.
#   - BUILD (the default prefix, /usr/local) installed with --destdir into a
#     temporary directory: negcam-ctl, negcam-run, the preload library and
#     the plugin in <prefix>/<libdir>/gstreamer-1.0, and the setup log
#     says how to set GST_PLUGIN_PATH; the installed plugin and tools run.
#   - a second build dir with --prefix=/usr (only the installed targets
#     built): the plugin goes to GStreamer's plugin directory
#     (pkg-config gstreamer-1.0 pluginsdir), no GST_PLUGIN_PATH needed.
# Prints "install: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
NAME=install checks=0 fails=0
. "$root/tests/check.sh"

tmp=$(mktemp -d /tmp/negcam-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
multiarch=$(gcc -print-multiarch)
pluginsdir=$(pkg-config --variable=pluginsdir gstreamer-1.0)
version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$root/meson.build")

# installed DESTDIR PREFIX PLUGINDIR: the installed files are where they belong.
installed() {
	local d=$1 p=$2 plugins=$3 f
	for f in "$p/bin/negcam-ctl" "$p/bin/negcam-run" "$p/lib/$multiarch/negcam/libnegcam-preload.so" \
		"$plugins/libgstnegcam.so" "$p/share/man/man1/negcam-ctl.1" "$p/share/man/man1/negcam-run.1" \
		"$p/bin/negcam-pw" "$p/share/man/man1/negcam-pw.1"; do
		check "installed $f" test -f "$d$f"
	done
	(cd "$d" && find . -type f | sort | sed 's/^\./   /')
}

read -r prefix libdir < <(meson introspect "$build" --buildoptions | python3 -c '
import json, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(o["prefix"], o["libdir"])')
echo "== meson install --destdir of $build (prefix $prefix)"
check "meson install --destdir" meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/local"
if [ "$prefix" = "$(pkg-config --variable=prefix gstreamer-1.0)" ]; then
	installed "$tmp/local" "$prefix" "$pluginsdir"
else
	plugins=$prefix/$libdir/gstreamer-1.0
	installed "$tmp/local" "$prefix" "$plugins"
	check "meson setup said how to set GST_PLUGIN_PATH" \
		grep -q "export GST_PLUGIN_PATH=$plugins" "$build/meson-logs/meson-log.txt"
	grep -o "Message: the plugin installs.*" "$build/meson-logs/meson-log.txt" | tail -n 1
	check "gst-inspect-1.0 negcamsrc from the installed plugin (GST_PLUGIN_PATH)" \
		sh -c 'GST_REGISTRY="$1" GST_PLUGIN_PATH="$2" gst-inspect-1.0 negcamsrc >/dev/null' - \
		"$tmp/registry.bin" "$tmp/local$plugins"
	check "installed negcam-run --version" \
		test "$("$tmp/local$prefix/bin/negcam-run" --version)" = "negcam-run $version"
fi

echo "== meson setup --prefix=/usr, meson install --destdir"
usr=$tmp/build-usr
if ! meson setup "$usr" "$root" --prefix=/usr >"$tmp/setup.log" 2>&1; then
	tail -n 20 "$tmp/setup.log"
	check "meson setup --prefix=/usr" false
else
	check "no GST_PLUGIN_PATH advice with --prefix=/usr" sh -c "! grep -q GST_PLUGIN_PATH '$tmp/setup.log'"
	targets=$(meson introspect "$usr" --targets | python3 -c '
import json, sys, os
for t in json.load(sys.stdin):
    if t["installed"]:
        print(os.path.relpath(t["filename"][0], sys.argv[1]))' "$usr")
	nice ninja -C "$usr" $targets >"$tmp/ninja.log" 2>&1 || tail -n 20 "$tmp/ninja.log"
	check "meson install --destdir (prefix /usr)" meson install -C "$usr" --no-rebuild --quiet --destdir "$tmp/usr"
	installed "$tmp/usr" /usr "$pluginsdir"
	check "the plugin is in GStreamer's pluginsdir $pluginsdir" test -f "$tmp/usr$pluginsdir/libgstnegcam.so"
fi
echo "install: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
