#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/vm/tmp-checkout.sh: the VM harness run from a checkout under
# /var/tmp (issue 16 item 10b). tests/vm/init used to mount the checkout at
# its own path and then a tmpfs over /tmp and /var/tmp, which hid it
# ("guest.sh: No such file or directory", then no status). Copies what the
# harness needs (tests/vm and engine/, as git tracks them) to
# /var/tmp/negcam-XXXXXX, runs a command there through its run.sh and
# checks its marker and exit status. Runs on the host (it boots the VM).
# Prints "vm-tmp-checkout: N passed, N failed"; exits 1 on a failure.
set -u
TREE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
COPY=$(mktemp -d /var/tmp/negcam-XXXXXX) || exit 125
trap 'rm -rf "$COPY"' EXIT

(cd "$TREE" && git ls-files -z tests/vm engine | cpio -0pdm --quiet "$COPY") ||
	{ echo "tmp-checkout: cannot copy the harness to $COPY" >&2; exit 125; }
# The unpacked kernel takes seconds to make again: share it.
mkdir -p "$COPY/tests/vm/out"
for k in "$TREE"/tests/vm/out/kernel-*; do
	[ -d "$k" ] && cp -a "$k" "$COPY/tests/vm/out/"
done

marker="NEGCAM-TMP-CHECKOUT-OK"
out=$("$COPY/tests/vm/run.sh" --timeout "${NEGCAM_TMP_CHECKOUT_TIMEOUT:-300}" \
	-c "test -f tests/vm/guest.sh && echo $marker in \$PWD" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E "NEGCAM-VM|run.sh:|$marker" | grep -v "^NEGCAM-VM: booted"
if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q "^$marker in $COPY"; then
	echo "vm-tmp-checkout: 1 passed, 0 failed (harness run from $COPY)"
	exit 0
fi
echo "vm-tmp-checkout: FAIL: run.sh from $COPY exited $rc without the marker" >&2
printf '%s\n' "$out" | tail -n 15 >&2
echo "vm-tmp-checkout: 0 passed, 1 failed"
exit 1
