# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# tests/pw/portal-session.sh: the private PipeWire session of
# tests/pw/session.sh plus what a browser needs to find a camera through
# the XDG Camera portal, sourced by tests/pw/portal-suite.sh and by the CI
# recipe (examples/ci/). On top of dbus, pipewire and wireplumber it starts:
#   - Xvfb (DISPLAY), since xdg-desktop-portal-gtk is a GTK program;
#   - xdg-desktop-portal-gtk, the Access backend: xdg-desktop-portal 1.16
#     offers org.freedesktop.portal.Camera only when a backend implements
#     org.freedesktop.impl.portal.Access, and it picks the gtk one for
#     XDG_CURRENT_DESKTOP=GNOME (its gtk.portal says UseIn=gnome);
#   - xdg-desktop-portal itself;
# then it grants the camera as the user's "allow" would, in the permission
# store: table devices, id camera, app '' (a program not in a sandbox),
# permission yes. With that, the portal asks no one: a headless browser
# gets the camera as a user who said yes once does.
#
#   . tests/pw/portal-session.sh
#   pw_session_as_user "$0" "$@"     # root: re-run as the test user
#   portal_session_start || exit 2   # also exports DISPLAY, XDG_CURRENT_DESKTOP
#   ...
#   pw_session_stop                  # stops all of it (the EXIT trap)
#
# Logs: $PW_SESSION_DIR/{xvfb,portal-gtk,portal}.log besides session.sh's.

. "$(dirname "${BASH_SOURCE[0]}")/session.sh"

PORTAL_LIBEXEC=${PORTAL_LIBEXEC:-/usr/libexec}

# portal_session_bin NAME: the path of a portal program, or a line saying
# which package is missing.
portal_session_bin() {
	[ -x "$PORTAL_LIBEXEC/$1" ] && { echo "$PORTAL_LIBEXEC/$1"; return 0; }
	echo "portal-session.sh: no $PORTAL_LIBEXEC/$1 (Debian package $2; make deps)" >&2
	return 1
}

# portal_session_store METHOD ARGS...: a call to the permission store.
portal_session_store() {
	gdbus call --session --dest org.freedesktop.impl.portal.PermissionStore \
		--object-path /org/freedesktop/impl/portal/PermissionStore \
		--method "org.freedesktop.impl.portal.PermissionStore.$1" "${@:2}"
}

# portal_session_start: 0 once the Camera portal is on the bus and the
# camera granted; else 1 with the reason on stderr.
portal_session_start() {
	local gtk xdp d
	gtk=$(portal_session_bin xdg-desktop-portal-gtk xdg-desktop-portal-gtk) || return 1
	xdp=$(portal_session_bin xdg-desktop-portal xdg-desktop-portal) || return 1
	command -v Xvfb >/dev/null || { echo "portal-session.sh: no Xvfb (Debian package xvfb)" >&2; return 1; }
	command -v gdbus >/dev/null || { echo "portal-session.sh: no gdbus (Debian package libglib2.0-bin)" >&2; return 1; }
	pw_session_start || return 1
	d=$PW_SESSION_DIR
	# Xvfb writes the display number it took to fd 3 once it listens.
	Xvfb -displayfd 3 -nolisten tcp -screen 0 1280x800x24 3>"$d/display" >"$d/xvfb.log" 2>&1 &
	PW_SESSION_PIDS="$! $PW_SESSION_PIDS"
	pw_session_wait "[ -s $d/display ]" 100 ||
		{ echo "portal-session.sh: Xvfb did not start ($d/xvfb.log)" >&2; return 1; }
	export DISPLAY=:$(head -n 1 "$d/display") XDG_CURRENT_DESKTOP=GNOME GTK_USE_PORTAL=0
	# Programs the bus starts on demand (the permission store) get this
	# environment too.
	dbus-update-activation-environment DISPLAY XDG_CURRENT_DESKTOP >/dev/null 2>&1
	"$gtk" --replace >"$d/portal-gtk.log" 2>&1 &
	PW_SESSION_PIDS="$! $PW_SESSION_PIDS"
	pw_session_wait "gdbus introspect --session --dest org.freedesktop.impl.portal.desktop.gtk \
		--object-path /org/freedesktop/portal/desktop | grep -q impl.portal.Access" 150 ||
		{ echo "portal-session.sh: xdg-desktop-portal-gtk offers no Access backend ($d/portal-gtk.log)" >&2; return 1; }
	"$xdp" --replace >"$d/portal.log" 2>&1 &
	PW_SESSION_PIDS="$! $PW_SESSION_PIDS"
	pw_session_wait "gdbus introspect --session --dest org.freedesktop.portal.Desktop \
		--object-path /org/freedesktop/portal/desktop | grep -q org.freedesktop.portal.Camera" 150 ||
		{ echo "portal-session.sh: xdg-desktop-portal offers no Camera portal ($d/portal.log)" >&2; return 1; }
	portal_session_store SetPermission devices true camera '' "['yes']" >/dev/null ||
		{ echo "portal-session.sh: the permission store refused the camera grant" >&2; return 1; }
}
