#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""tests/bench/uvc-report.py RES: the table of tests/bench/uvc.sh's results
(RES/uvc-*.kv, RES/uvc-*.strace) as markdown: per caps filter and element,
ioctls before VIDIOC_STREAMON (strace), the PROBE and COMMIT requests
negcam-uvc received, the median of 5 first-buffer times, ratios against
v4l2src, and the two phases of that time: to the VIDIOC_STREAMON call (the
element's own work: negotiation, with its USB probes, and buffers) and from
it to the first DQBUF (uvcvideo's COMMIT and SET_INTERFACE, the camera's
first frame), each the median of the 5 runs."""
import collections
import os
import re
import statistics
import sys

RES = sys.argv[1]
FILTERS = [('yuy2-vga', 'video/x-raw,format=YUY2,width=640,height=480'),
           ('mjpg-720p', 'image/jpeg,width=1280,height=720'),
           ('raw-any', 'video/x-raw'),
           ('yuy2-10fps', 'video/x-raw,format=YUY2,framerate=10/1')]
ELEMENTS = ['v4l2src', 'negcamsrc-old', 'negcamsrc']
IOCTL = re.compile(r'ioctl\(\d+, (VIDIOC_\w+)')


def values(name):
    """key=value lines of RES/name.kv (first wins), {} when absent."""
    try:
        lines = open(os.path.join(RES, name + '.kv'), errors='replace').read().splitlines()
    except OSError:
        return {}
    pairs = [ln.split('=', 1) for ln in lines if '=' in ln]
    return dict(reversed(pairs))


def before_streamon(name):
    """Counter of ioctls up to the first STREAMON in RES/name.strace."""
    seen = collections.Counter()
    try:
        text = open(os.path.join(RES, name + '.strace'), errors='replace')
    except OSError:
        return None
    for req in (m.group(1) for m in map(IOCTL.search, text) if m):
        if req == 'VIDIOC_STREAMON':
            break
        seen[req] += 1
    return seen


def row(f, el):
    base = f'uvc-{el}-{f}'
    ioctls = before_streamon(base + '-strace')
    if ioctls is None:
        return None
    usb = {k: int(v) for k, v in values(base + '-usb').items()}
    runs = [values(f'{base}-{i}') for i in range(1, 6)]
    st = values(base + '-strace')
    return {'ioctls': sum(ioctls.values()), 'by': ioctls, 'usb': usb,
            'first': median(runs, 'first_buffer_ms'), 'streamon': median(runs, 'streamon_ms'),
            'first_min': median(runs, 'first_buffer_ms', pick=min),
            'camera': median(runs, 'dqbuf_ms', 'streamon_ms'),
            'caps': st.get('caps', '-'), 'requests': st.get('negotiated.requests', '-')}


def median(runs, key, minus=None, pick=statistics.median):
    """The median (or @pick) over @runs of key (less @minus), None when
    none has it."""
    def num(kv, k):
        try:
            return float(kv.get(k, 'nan'))
        except ValueError:
            return float('nan')
    vals = [num(kv, key) - (num(kv, minus) if minus else 0) for kv in runs]
    vals = [v for v in vals if v == v]
    return pick(vals) if vals else None


def ms(v):
    return f'{v:.1f}' if v is not None else '-'


def ratio(a, b):
    return f'{a / b:.2f}' if a is not None and b else '-'


print('| filter | element | ioctls before STREAMON | vs v4l2src | element count | PROBE SET_CUR | PROBE GET | COMMIT SET_CUR | vs v4l2src (PROBE SET_CUR) | first buffer ms (median of 5) | vs v4l2src | first buffer ms (min of 5) | vs v4l2src | to STREAMON ms (element) | vs v4l2src | STREAMON to first DQBUF ms (device) | negotiated |')
print('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
detail = []
for f, caps in FILTERS:
    rows = {el: row(f, el) for el in ELEMENTS}
    ref = rows.get('v4l2src')
    for el, r in rows.items():
        if r is None:
            continue
        u = r['usb']
        print(f"| `{caps}` | {el} | {r['ioctls']} | {ratio(r['ioctls'], ref and ref['ioctls'])} "
              f"| {r['requests']} | {u.get('probe_set', '-')} | {u.get('probe_get', '-')} "
              f"| {u.get('commit_set', '-')} | {ratio(u.get('probe_set'), ref and ref['usb'].get('probe_set'))} "
              f"| {r['first']:.1f} | {ratio(r['first'], ref and ref['first'])} "
              f"| {ms(r['first_min'])} | {ratio(r['first_min'], ref and ref['first_min'])} "
              f"| {ms(r['streamon'])} | {ratio(r['streamon'], ref and ref['streamon'])} | {ms(r['camera'])} "
              f"| {r['caps'][:60]} |"
              if r['first'] is not None else f"| `{caps}` | {el} | {r['ioctls']} | | | | | | | - | | | | | | | not negotiated |")
        top = ', '.join(f'{k[7:]} {n}' for k, n in r['by'].most_common())
        detail.append(f'- `{caps}`, {el}: {top}')
print('\nBy request type (strace, before STREAMON):\n')
print('\n'.join(detail))
