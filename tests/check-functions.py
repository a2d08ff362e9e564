#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""
tests/check-functions.py: no function longer than the limit of its folder
(docs/architecture.md, "Function size"): 80 lines in the production folders
(engine, ctl, user, run, gst, kmod, uvc), 120 in tests/. A function's length is
from the line of its name to its closing brace, as Universal Ctags reports
them (--fields=+ne). Prints each function over its limit, then
"functions: N passed, N failed" (one check per folder).
"""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CTAGS = shutil.which('ctags-universal') or 'ctags'
LIMITS = [('engine', 80), ('ctl', 80), ('user', 80), ('run', 80), ('gst', 80), ('kmod', 80), ('uvc', 80), ('pw', 80),
          ('tests', 120), ('examples', 120)]


def c_files(folder):
    out = []
    for top, dirs, files in os.walk(os.path.join(ROOT, folder)):
        dirs[:] = [d for d in dirs if d not in ('out', 'profiles', 'corpus')]
        out += [os.path.join(top, f) for f in sorted(files) if f.endswith('.c')]
    return sorted(out)


def lengths(files):
    """[(path, name, first, last)] of every function defined in files."""
    if not files:
        return []
    out = subprocess.run([CTAGS, '--c-kinds=f', '--fields=+ne', '--language-force=C', '-f', '-'] + files,
                         capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split('\t')
        fields = dict(p.split(':', 1) for p in parts[3:] if ':' in p)
        if 'line' in fields and 'end' in fields:
            found.append((parts[1], parts[0], int(fields['line']), int(fields['end'])))
    return found


def main():
    folders = sys.argv[1:] or [f for f, _ in LIMITS]
    passed = failed = 0
    for folder, limit in LIMITS:
        if folder not in folders:
            continue
        over = [(last - first + 1, path, name, first)
                for path, name, first, last in lengths(c_files(folder)) if last - first + 1 > limit]
        for n, path, name, first in sorted(over, reverse=True):
            print('%s:%d: %s() is %d lines (at most %d in %s/)' % (os.path.relpath(path, ROOT), first, name, n, limit, folder))
        if over:
            failed += 1
        else:
            passed += 1
            print('%s/: no function over %d lines' % (folder, limit))
    print('functions: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
