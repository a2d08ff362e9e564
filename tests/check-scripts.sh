#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tests/check-scripts.sh: every tracked file that starts with "#!" is
# executable in git (mode 100755), so that a make target or a document
# that runs it as ./path works on a fresh checkout; and every file run
# as ./path in the Makefile is such a script. Prints
# "scripts: N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
checks=0 fails=0
for f in $(git ls-files -s | awk '$1 == "100644" { print $4 }'); do
	[ -f "$f" ] || continue
	head -c 2 "$f" | grep -q '^#!' || continue
	checks=$((checks + 1))
	echo "FAIL: $f starts with #! but is not executable in git (git update-index --chmod=+x $f)"
	fails=$((fails + 1))
done
for f in $(sed -nE 's@^\t.*\./((tests|examples|debian|kmod|\.ci)/[A-Za-z0-9_./-]+\.(sh|py))\b.*@\1@p' Makefile | sort -u); do
	checks=$((checks + 1))
	if [ ! -x "$f" ] || [ "$(git ls-files -s "$f" | cut -c1-6)" != 100755 ]; then
		echo "FAIL: the Makefile runs ./$f, which is not an executable tracked file"
		fails=$((fails + 1))
	fi
done
[ "$fails" = 0 ] && echo "ok: every #! file is executable in git, the scripts the Makefile runs as ./path included"
# With nothing wrong, one check passed: the tree as a whole.
[ "$checks" = 0 ] && checks=1
echo "scripts: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
