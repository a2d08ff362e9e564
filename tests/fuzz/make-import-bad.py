#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Writes tests/fuzz/import-bad/cut-NAME.txt: each camera shelf listing
(tests/engine/profiles/cameras/NAME.txt, issue 35) cut at a line chosen by
a seeded random draw among its format, size and interval lines, that line
itself cut short (before its last ')' or after its last 'x'), as a listing
truncated in a download or a paste. EXPECT gets the line each must be
refused at. tests/engine/test_shelf.sh checks the refusals; tests/fuzz/run.sh
puts the files in fuzz_import's corpus. Rerun after adding a listing:

    python3 tests/fuzz/make-import-bad.py
"""
import glob, os, random

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out = os.path.join(root, 'tests', 'fuzz', 'import-bad')
shelf = sorted(glob.glob(os.path.join(root, 'data', 'cameras', '*.profile')))
expect = []


def cut_at(line):
    """Where to cut @line so that it no longer parses, or None."""
    line = line.rstrip(b'`\r')
    if b'Interval:' in line and line.endswith(b')'):
        return len(line) - 1                 # "(30.000 fps" without ')'
    if b"]: '" in line and line.endswith(b')'):
        return len(line) - 1                 # "[0]: 'YUYV' (YUYV 4:2:2"
    if b"Pixel Format: '" in line:
        return line.index(b"'") + 3          # "Pixel Format: 'YU"
    if b'Size:' in line and b'x' in line:
        return line.rindex(b'x') + 1         # "Size: Discrete 640x"
    return None


for prof in shelf:
    name = os.path.basename(prof)[:-len('.profile')]
    path = os.path.join(root, 'tests', 'engine', 'profiles', 'cameras', name + '.txt')
    lines = open(path, 'rb').read().split(b'\n')
    cands = [i for i, l in enumerate(lines) if cut_at(l) is not None]
    rnd = random.Random(name)  # the same cut every run
    i = rnd.choice(cands)
    line = lines[i].rstrip(b'`\r')
    cut = cut_at(line)
    data = b'\n'.join(lines[:i] + [line[:cut]])
    open(os.path.join(out, 'cut-%s.txt' % name), 'wb').write(data)
    expect.append('cut-%s.txt:%d:' % (name, i + 1))
with open(os.path.join(out, 'EXPECT.cut'), 'w') as f:
    f.write('\n'.join(expect) + '\n')
