#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/pw/ci-recipe.sh: the CI recipe of docs/ci.md run as a hosted runner
# would run it, on a pristine Debian 12 root (root only, for debootstrap and
# chroot; 15 to 30 minutes and about 700 MB of downloads: not in `make
# test`, run by `make test-ci-recipe`).
# debootstrap --variant=minbase bookworm into a temporary directory (this
# machine's apt sources), a clean clone of this checkout's HEAD in it as
# the workflow's `negcam` checkout, then every step of
# examples/ci/github-actions.yml in order (tests/pw/ci-steps.py reads the
# file: the steps are the file's, not a copy), each job's matrix expanded:
#   run                  in the root, `bash -e`, in the workspace /ws; a
#                        step the same as one already run is not repeated
#                        (a runner starts pristine: here the root is shared)
#   actions/checkout     done already (the clone)
#   actions/upload-artifact, actions/download-artifact
#                        the JUnit files stay in /tmp; download copies them
#                        into the workspace
# Checks: every step exits 0 (negcam-run's shard steps: 0, or 1 when a
# camera failed the program, which its JUnit file records); the browser
# step ran its test as the unprivileged user and Chromium got each size it
# asked; the merged junit.xml holds one case per shelf camera, each once.
# NEGCAM_KEEP=1 keeps the root. Prints "ci-recipe: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
NAME=ci-recipe checks=0 fails=0
. "$root/tests/check.sh"
[ "$(id -u)" = 0 ] || { echo "ci-recipe: needs root (debootstrap, chroot)" >&2; exit 2; }
has debootstrap || { echo "ci-recipe: no debootstrap (make deps-test)" >&2; exit 2; }
python3 -c 'import yaml' 2>/dev/null || { echo "ci-recipe: no python3-yaml (make deps-test)" >&2; exit 2; }
workflow=$root/examples/ci/github-actions.yml
tmp=$(mktemp -d /var/tmp/negcam-ci-recipe.XXXXXX) || exit 2
rt=$tmp/root
unmount() { umount -l "$rt/dev/shm" "$rt/proc" "$rt/sys" "$rt/dev" 2>/dev/null; }
cleanup() {
	unmount
	if [ -n "${NEGCAM_KEEP:-}" ]; then echo "ci-recipe: kept $tmp"; else rm -rf --one-file-system "$tmp"; fi
}
trap cleanup EXIT

echo "== debootstrap --variant=minbase bookworm (this machine's apt sources)"
check "debootstrap minbase bookworm" sh -c "debootstrap --variant=minbase bookworm '$rt' \
	http://deb.debian.org/debian >'$tmp/debootstrap.log' 2>&1" || { tail -n 20 "$tmp/debootstrap.log"; }
[ "$fails" = 0 ] || { echo "ci-recipe: $((checks - fails)) passed, $fails failed"; exit 1; }
rm -f "$rt/etc/apt/sources.list"
cp -a /etc/apt/sources.list.d/debian.sources "$rt/etc/apt/sources.list.d/" 2>/dev/null ||
	cp /etc/apt/sources.list "$rt/etc/apt/sources.list"
mount -t proc proc "$rt/proc" && mount --bind /sys "$rt/sys" && mount --bind /dev "$rt/dev" &&
	mount -t tmpfs -o mode=1777 tmpfs "$rt/dev/shm" || { echo "ci-recipe: cannot mount in $rt" >&2; exit 2; }
mkdir -p "$rt/ws"
git clone -q "$root" "$rt/ws/negcam" || exit 2
echo "   negcam at $(git -C "$root" rev-parse --short HEAD), workflow $workflow"

# in_root SCRIPT LOG: SCRIPT as a runner's `run` step, in the workspace.
in_root() {
	chroot "$rt" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive CI=true \
		bash -e -c "cd /ws && $1" >"$2" 2>&1
}

# step JOB KIND TEXT N: one step of the workflow.
step() {
	local job=$1 kind=$2 text=$3 log=$tmp/step-$4.log rc t0=$SECONDS first
	first=$(printf '%s' "$text" | head -n 1 | cut -c1-100)
	if [ "$kind" = uses ]; then
		case $text in
		actions/download-artifact@*) cp "$rt"/tmp/junit-*.xml "$rt/ws/" 2>/dev/null ;;
		esac
		return 0
	fi
	if [ -n "${ran[$text]:-}" ]; then
		echo "   $job: (again, skipped) $first"
		return 0
	fi
	in_root "$text" "$log"
	rc=$?
	ran[$text]=1
	echo "   $job: status $rc, $((SECONDS - t0)) s: $first (log $log)"
	case $text in
	*"negcam-run --each-profile"*)
		check "$job: $first: negcam-run ran its shard (status 0 or 1, got $rc)" test "$rc" -le 1 ;;
	*) check "$job: $first: status 0 (got $rc)" test "$rc" = 0 ;;
	esac
	[ "$rc" = 0 ] || tail -n 25 "$log"
	case $text in
	*with-camera.sh*)
		check "$job: the browser test ran as the unprivileged user" grep -q 'as user negcam-test' "$log"
		for size in $(sed -n 's/.*browser\.sh "[^"]*" \([0-9x,]*\).*/\1/p' <<<"$text" | tr , ' '); do
			check "$job: Chromium got $size through the portal" grep -q "^step $size settings $size@" "$log"
		done ;;
	esac
}

echo "== the steps of examples/ci/github-actions.yml"
declare -A ran	# the steps run, by their text
n=0
while IFS=$'\t' read -r -d '' job kind text; do
	n=$((n + 1))
	step "$job" "$kind" "$text" "$n"
done < <(python3 "$root/tests/pw/ci-steps.py" "$workflow")
check "the workflow has steps" test "$n" -gt 0

# The merged file: every shelf camera once.
want=$(chroot "$rt" env -i PATH=/usr/local/bin:/usr/bin:/bin /ws/negcam/examples/ci/shelf-shard.sh 0 1 | tr , '\n' | sort)
got=$(python3 -c 'import sys, xml.etree.ElementTree as ET
print("\n".join(sorted(c.get("name") for c in ET.parse(sys.argv[1]).iter("testcase"))))' "$rt/ws/junit.xml" 2>&1)
echo "   junit.xml: $(grep -c . <<<"$got") cases, the shelf $(grep -c . <<<"$want") cameras;" \
	"$(grep -o 'failures="[0-9]*"' "$rt/ws/junit.xml" 2>/dev/null | head -n 1)"
check "junit.xml has each shelf camera once" test "$got" = "$want"
check "the shelf is not empty" test -n "$want"

echo "ci-recipe: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
