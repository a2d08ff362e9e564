#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# examples/ci/setup.sh: the root steps of negcam's CI recipe (docs/ci.md,
# examples/ci/github-actions.yml) on Debian 12, and running a command as
# the unprivileged test user.
#
#   setup.sh packages        apt-get install what building negcam and the
#                            camera session need (root)
#   setup.sh negcam SRC      build negcam from the source tree SRC and
#                            install it to /usr/local (root)
#   setup.sh as-user CMD...  CMD as the test user (negcam-test, created
#                            when missing; itself when not root)
set -u

# Building negcam (GStreamer plugin and negcam-pw included).
BUILD_PACKAGES="build-essential meson ninja-build pkg-config libgstreamer1.0-dev
	libgstreamer-plugins-base1.0-dev libv4l-dev libjpeg-dev libpipewire-0.3-dev"
# The session of tests/pw/portal-session.sh, a browser, and the matrix's
# example program. Firefox ESR works the same way (firefox-esr).
RUN_PACKAGES="dbus-daemon pipewire pipewire-bin wireplumber xvfb xdg-desktop-portal
	xdg-desktop-portal-gtk libglib2.0-bin chromium ffmpeg python3 ca-certificates"
USER_NAME=${PW_SESSION_USER:-negcam-test}

as_root() { [ "$(id -u)" = 0 ] || { echo "setup.sh $1: needs root (sudo)" >&2; exit 2; }; }

case ${1:-} in
packages)
	as_root packages
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	apt-get update -q && apt-get install -y -q --no-install-recommends $BUILD_PACKAGES $RUN_PACKAGES
	;;
negcam)
	as_root negcam
	src=${2:?setup.sh negcam SRC: the negcam source tree}
	{ [ -f "$src/build-ci/build.ninja" ] ||
		meson setup "$src/build-ci" "$src" --prefix=/usr/local --buildtype=release >/dev/null; } &&
		ninja -C "$src/build-ci" && meson install -C "$src/build-ci" --quiet && ldconfig &&
		# The test user reads the tree's scripts (tests/pw/, tests/vm/browser.sh).
		chmod -R o+rX "$src"
	;;
as-user)
	shift
	[ $# -gt 0 ] || { echo "usage: setup.sh as-user CMD..." >&2; exit 2; }
	[ "$(id -u)" = 0 ] || exec "$@"
	id -u "$USER_NAME" >/dev/null 2>&1 ||
		useradd -r -M -d /nonexistent -s /usr/sbin/nologin "$USER_NAME" || exit 2
	exec runuser -u "$USER_NAME" -- "$@"
	;;
*)
	echo "usage: setup.sh packages | negcam SRC | as-user CMD..." >&2
	exit 2
	;;
esac
