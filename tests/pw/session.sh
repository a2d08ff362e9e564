# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# tests/pw/session.sh: a private PipeWire session for tests, sourced by a
# suite (tests/pw/pw-suite.sh; the portal suite adds xdg-desktop-portal
# and Xvfb on top). Nothing of the caller's desktop is touched: the D-Bus
# session bus, pipewire and wireplumber are new processes whose sockets
# live in a temporary XDG_RUNTIME_DIR, and wireplumber's bluetooth
# monitor is off.
#
#   . tests/pw/session.sh
#   pw_session_as_user "$0" "$@"   # when root: re-run the script as an
#                                  # unprivileged system user (see below)
#   pw_session_start || exit 2     # exports XDG_RUNTIME_DIR,
#                                  # DBUS_SESSION_BUS_ADDRESS, PW_SESSION_DIR
#   ...                            # pw-cli, pw-dump, pipewiresrc, ...
#   pw_session_stop                # also run by the EXIT trap it sets
#
# PipeWire refuses nothing to root, but a user's desktop is not root, and
# CI runs as root: so pw_session_as_user re-executes the calling script
# under PW_SESSION_USER (default negcam-test, created with `useradd -r`
# when missing) with runuser, after checking that the user can read the
# script and the build tree (PW_SESSION_TREE, default the checkout). The
# environment is cleared but for PATH and the NEGCAM_* and PW_SESSION_*
# variables. A caller not root goes on as itself.
#
# Logs: $PW_SESSION_DIR/{dbus,pipewire,wireplumber}.log.

PW_SESSION_USER=${PW_SESSION_USER:-negcam-test}
PW_SESSION_PIDS=

# pw_session_as_user SCRIPT ARGS...: when root, exec SCRIPT as the test
# user (never returns then); else return 0.
pw_session_as_user() {
	local script tree
	script=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	shift
	[ "$(id -u)" = 0 ] || return 0
	tree=${PW_SESSION_TREE:-$(cd "$(dirname "$script")/../.." && pwd)}
	if ! id -u "$PW_SESSION_USER" >/dev/null 2>&1; then
		useradd -r -M -d /nonexistent -s /usr/sbin/nologin "$PW_SESSION_USER" || {
			echo "session.sh: cannot create the test user $PW_SESSION_USER (useradd failed)" >&2
			exit 2
		}
	fi
	if ! runuser -u "$PW_SESSION_USER" -- test -r "$script" -a -x "$tree"; then
		echo "session.sh: user $PW_SESSION_USER cannot read $script or enter $tree;" \
			"make the tree world-readable (chmod -R o+rX) or set PW_SESSION_TREE" >&2
		exit 2
	fi
	local keep=()
	mapfile -t keep < <(env | grep -E '^(NEGCAM_[A-Z0-9_]*|PW_SESSION_[A-Z_]*)=')
	exec runuser -u "$PW_SESSION_USER" -- env -i PATH="$PATH" LANG=C.UTF-8 "${keep[@]}" \
		bash "$script" "$@"
}

# Wait up to $2 tenths of a second for command $1 (a string) to succeed.
pw_session_wait() {
	local i
	for ((i = 0; i < $2; i++)); do
		eval "$1" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

# wireplumber 0.4 reads *.lua.d fragments from every config dir, sorted
# by name: a late one turns the bluetooth monitor off (no system bus).
pw_session_config() {
	mkdir -p "$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d" "$HOME" "$XDG_STATE_HOME"
	echo 'bluez_monitor.enabled = false' \
		>"$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d/99-negcam-test-off.lua"
}

# Start dbus-daemon, pipewire and wireplumber; 0 once wireplumber has
# joined pipewire, else 1 with the reason on stderr.
pw_session_start() {
	local d
	d=$(mktemp -d "${TMPDIR:-/tmp}/negcam-pw.XXXXXX") || return 1
	chmod 700 "$d"
	export PW_SESSION_DIR=$d XDG_RUNTIME_DIR=$d/run HOME=$d/home
	export XDG_CONFIG_HOME=$d/config XDG_STATE_HOME=$d/state XDG_DATA_HOME=$d/data
	export DBUS_SESSION_BUS_ADDRESS=unix:path=$d/run/bus
	export PIPEWIRE_RUNTIME_DIR=$d/run DISABLE_RTKIT=1
	unset PIPEWIRE_REMOTE DISPLAY WAYLAND_DISPLAY
	mkdir -m 700 "$XDG_RUNTIME_DIR"
	pw_session_config
	# bash may run an EXIT trap in a subshell ($(...), a pipeline's part):
	# only the shell that started the session stops it.
	PW_SESSION_OWNER=$BASHPID
	trap pw_session_stop EXIT
	dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --nofork \
		--nopidfile >"$d/dbus.log" 2>&1 &
	PW_SESSION_PIDS="$!"
	pw_session_wait "[ -S $d/run/bus ]" 50 ||
		{ echo "session.sh: dbus-daemon did not start ($d/dbus.log)" >&2; return 1; }
	pipewire >"$d/pipewire.log" 2>&1 &
	PW_SESSION_PIDS="$! $PW_SESSION_PIDS"
	pw_session_wait "[ -S $d/run/pipewire-0 ]" 100 ||
		{ echo "session.sh: pipewire did not start ($d/pipewire.log)" >&2; return 1; }
	wireplumber >"$d/wireplumber.log" 2>&1 &
	PW_SESSION_PIDS="$! $PW_SESSION_PIDS"
	pw_session_wait "pw-cli ls Client | grep -q '\"WirePlumber\"'" 100 ||
		{ echo "session.sh: wireplumber did not join ($d/wireplumber.log)" >&2; return 1; }
}

# Stop what pw_session_start started (newest first), remove its directory
# unless NEGCAM_PW_KEEP is set (then say where it is).
pw_session_stop() {
	local p
	[ "$BASHPID" = "${PW_SESSION_OWNER:-}" ] || return 0
	for p in $PW_SESSION_PIDS; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	PW_SESSION_PIDS=
	[ -n "${PW_SESSION_DIR:-}" ] || return 0
	if [ -n "${NEGCAM_PW_KEEP:-}" ]; then
		echo "session.sh: kept $PW_SESSION_DIR" >&2
	else
		rm -rf "$PW_SESSION_DIR"
	fi
	PW_SESSION_DIR=
}
