#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# examples/ci/shelf-shard.sh INDEX COUNT: the cameras of shard INDEX (0 to
# COUNT-1) of the shelf, comma-separated for negcam-run --each-profile
# --profiles (docs/matrix.md). The shelf is what `--profiles shelf` runs,
# in its order: the built-ins whose text cites a "# Source:" (the real
# cameras), then the *.profile files of the shelf directory by name
# (NEGCAM_SHELF_DIR, else the installed one). Shard i takes the cameras
# i, i+COUNT, i+2*COUNT...: the COUNT shards together are the shelf, each
# camera in one of them. negcam-ctl is taken from PATH.
set -u
[ $# = 2 ] && [ "$1" -ge 0 ] 2>/dev/null && [ "$2" -gt "$1" ] 2>/dev/null ||
	{ echo "usage: shelf-shard.sh INDEX COUNT (0 <= INDEX < COUNT)" >&2; exit 2; }
command -v negcam-ctl >/dev/null || { echo "shelf-shard.sh: no negcam-ctl on PATH" >&2; exit 2; }
dir=${NEGCAM_SHELF_DIR:-}
if [ -z "$dir" ]; then
	for d in /usr/local/share/negcam/cameras /usr/share/negcam/cameras; do
		[ -d "$d" ] && { dir=$d; break; }
	done
fi
[ -d "$dir" ] || { echo "shelf-shard.sh: no shelf directory (set NEGCAM_SHELF_DIR)" >&2; exit 2; }
{
	for b in $(negcam-ctl --list-profiles | awk 'NF == 0 { exit } { print $1 }'); do
		negcam-ctl --show-profile "$b" | grep -q '^# Source:' && echo "$b"
	done
	(cd "$dir" && LC_ALL=C ls -- *.profile) | sed 's/\.profile$//'
} | awk -v i="$1" -v n="$2" '(NR - 1) % n == i' | paste -sd, -
