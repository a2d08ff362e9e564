#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""tests/bench/pw-report.py RES: the table of tests/bench/pw.sh's results
(RES/pw-KIND-ROUND.kv, KIND a = negcam-pw, b = pipewiresink mode=provide,
c = negcampwconvertsink; RES/pw-run.kv), as markdown on stdout: the
median over the rounds of each measure, side by side, and the ratios
negcam-pw / pipewiresink and negcampwconvertsink / pipewiresink. report.py
puts it in docs/benchmarks.md."""
import glob
import os
import statistics
import sys

RES = sys.argv[1] if len(sys.argv) > 1 else 'tests/bench/out/results'


def kv(path):
    d = {}
    with open(path) as f:
        for line in f:
            k, sep, v = line.rstrip('\n').partition('=')
            if sep:
                d[k] = v
    return d


def num(d, k):
    try:
        return float(d[k])
    except (KeyError, ValueError):
        return None


run = kv(os.path.join(RES, 'pw-run.kv')) if os.path.exists(os.path.join(RES, 'pw-run.kv')) else {}
tick_ms = 1000.0 / float(run.get('clk_tck', '100'))
rounds = {'a': [], 'b': [], 'c': []}
copies = {}
for p in sorted(glob.glob(os.path.join(RES, 'pw-[abc]-*.kv'))):
    d = kv(p)
    if d.get('round') == 'copies':
        copies[d['kind']] = d
    else:
        rounds[d['kind']].append(d)


def per_frame(d, key, scale):
    v, f = num(d, key), num(d, 'frames')
    return v * scale / f if v is not None and f else None


MEASURES = [  # label, function of one round, digits
    ('frames delivered a second (consumer)', lambda d: num(d, 'frames') / num(d, 'wall_ms') * 1000 if num(d, 'frames') and num(d, 'wall_ms') else None, 1),
    ('producer CPU a frame, ms (utime+stime ticks)', lambda d: per_frame(d, 'busy_ticks', tick_ms), 2),
    ('producer CPU a frame, ms (run time, schedstat)', lambda d: per_frame(d, 'busy_ns', 1e-6), 3),
    ('consumer CPU a frame, ms (schedstat)', lambda d: per_frame(d, 'consumer_ns', 1e-6), 3),
    ('pipewire daemon CPU a frame, ms (schedstat)', lambda d: per_frame(d, 'daemon_ns', 1e-6), 3),
    ('idle, no consumer: producer ticks in {idle} s', lambda d: num(d, 'idle_ticks'), 0),
    ('idle, no consumer: producer run time in {idle} s, ms', lambda d: num(d, 'idle_ns') / 1e6 if num(d, 'idle_ns') is not None else None, 2),
]


def med(vals, nd):
    vals = [v for v in vals if v is not None]
    if not vals:
        return None, 'not measured'
    m = statistics.median(vals)
    return m, f'{m:.{nd}f}'


def ratio(a, b):
    if a is None or b is None:
        return ''
    if b == 0:
        return 'both 0' if a == 0 else ''
    return f'{a / b:.2f}'


def copy_row(d, key):
    """Bytes copied in the busy window / frames / frame size."""
    if not d:
        return None
    try:
        moved = float(d[f'end_{key}']) - float(d[f'start_{key}'])
        return moved / float(d['frames']) / float(d['frame_bytes'])
    except (KeyError, ValueError, ZeroDivisionError):
        return None


def calls_row(d, key):
    if not d:
        return None
    try:
        return (float(d[f'end_{key}']) - float(d[f'start_{key}'])) / float(d['frames'])
    except (KeyError, ValueError, ZeroDivisionError):
        return None


idle = rounds['a'][0].get('idle_s', '?') if rounds['a'] else '?'
n = min(len(rounds['a']), len(rounds['b']))
out = [f"| median of {n} rounds, YUY2 1280x720 30 fps | negcam-pw | negcampwconvertsink | "
       "pipewiresink mode=provide | negcam-pw / pipewiresink | negcampwconvertsink / pipewiresink |",
       '|---|---|---|---|---|---|']
for label, fn, nd in MEASURES:
    ma, sa = med([fn(d) for d in rounds['a']], nd)
    mb, sb = med([fn(d) for d in rounds['b']], nd)
    mc, sc = med([fn(d) for d in rounds['c']], nd)
    out.append(f"| {label.format(idle=idle)} | {sa} | {sc} | {sb} | {ratio(ma, mb)} | {ratio(mc, mb)} |")
for label, fn, key, nd in [
        ('bytes copied a frame in calls of a row (2560 B) or more, in frames', copy_row, 'big_bytes', 2),
        ('bytes copied a frame in all calls, in frames', copy_row, 'bytes', 3),
        ('memcpy/memmove calls a frame (all sizes)', calls_row, 'calls', 0),
        ('... of them a row (2560 B) or more', calls_row, 'big_calls', 0)]:
    va, vb, vc = (fn(copies.get(k), key) for k in 'abc')
    sa, sb, sc = (f'{v:.{nd}f}' if v is not None else 'not measured' for v in (va, vb, vc))
    out.append(f"| {label} | {sa} | {sc} | {sb} | {ratio(va, vb)} | {ratio(vc, vb)} |")
out.append('')
for k, name in (('a', 'negcam-pw'), ('b', 'pipewiresink mode=provide'), ('c', 'negcampwconvertsink')):
    d = copies.get(k)
    if not d:
        continue
    mods = []
    for key in sorted(d):
        if key.startswith('end_big_bytes@'):
            mod = key[len('end_big_bytes@'):]
            moved = float(d[key]) - float(d.get('start_big_bytes@' + mod, 0))
            if moved > 0 and float(d.get('frames', 0)) > 0:
                mods.append(f"{mod} {moved / float(d['frames']) / float(d['frame_bytes']):.2f}")
    out.append(f"- {name}: calls of a row or more, by the module that made them (in frames a frame): "
               + ('; '.join(mods) if mods else 'none'))
for k, name in (('a', 'negcam-pw'), ('b', 'pipewiresink'), ('c', 'negcampwconvertsink')):
    vals = ', '.join(f"{per_frame(d, 'busy_ns', 1e-6):.3f}" if per_frame(d, 'busy_ns', 1e-6) is not None else '-'
                     for d in rounds[k])
    ticks = ', '.join(d.get('idle_ticks', '-') for d in rounds[k])
    out.append(f"- {name}: run time a frame by round (ms) {vals}; idle ticks by round {ticks}")
out.append(f"- window: {rounds['a'][0].get('busy_s', '?') if rounds['a'] else '?'} s with one consumer "
           f"after 2 s of warm-up, {idle} s idle before it; load average at start "
           f"{run.get('load_start', '?')}, at end {run.get('load_end', '?')}; "
           f"{run.get('date', '?')}, commit {run.get('commit', '?')}, PipeWire {run.get('pipewire', '?')}")
sys.stdout.write('\n'.join(out) + '\n')
