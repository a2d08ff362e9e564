#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""tests/bench/report.py RES OUT.md: turns the key=value results of
tests/bench/host.sh and vm.sh (RES/*.kv, RES/*.strace) into
docs/benchmarks.md: one table per topic, the command of every row, the
machine and the date, and where negcam stands against the targets of
issue 6. Prints the same text."""
import glob
import os
import re
import statistics
import sys

RES, OUT = sys.argv[1], sys.argv[2]


def kv(name):
    path = os.path.join(RES, name + '.kv')
    d = {}
    if not os.path.exists(path):
        return d
    with open(path, errors='replace') as f:
        for line in f:
            k, sep, v = line.rstrip('\n').partition('=')
            if sep and k not in d:
                d[k] = v
    return d


def num(d, k):
    try:
        return float(d[k])
    except (KeyError, ValueError):
        return None


def ok(d):
    return d.get('rc') == '0'


def fmt(x, nd=0):
    if x is None:
        return '-'
    if nd == 0:
        return f'{x:,.0f}'
    return f'{x:,.{nd}f}'


def ratio(a, b, nd=2):
    if a is None or b is None or b == 0:
        return '-'
    return f'{a / b:.{nd}f}'


def strace_counts(name):
    """ioctl counts by request up to the first VIDIOC_STREAMON."""
    path = os.path.join(RES, name + '.strace')
    counts = {}
    if not os.path.exists(path):
        return None
    pat = re.compile(r'ioctl\(\d+, (VIDIOC_\w+)')
    streamon = False
    with open(path, errors='replace') as f:
        for line in f:
            m = pat.search(line)
            if not m:
                continue
            req = m.group(1)
            if req == 'VIDIOC_STREAMON':
                streamon = True
                break
            counts[req] = counts.get(req, 0) + 1
    return counts, streamon


def short_caps(c):
    """'video/x-raw, format=(string)YUY2, width=(int)640, ...' -> 'YUY2 640x360 30/1'"""
    f = dict(re.findall(r'(\w+)=\([^)]*\)([^,]+)', c))
    kind = 'MJPG' if c.startswith('image/jpeg') else f.get('format', c.split(',')[0])
    return f"{kind} {f.get('width', '?')}x{f.get('height', '?')} {f.get('framerate', '')}".strip()


def interval_ms(c):
    m = re.search(r'framerate=\(fraction\)(\d+)/(\d+)', c)
    return 1000.0 * int(m.group(2)) / int(m.group(1)) if m and int(m.group(1)) else None


cmds = []   # (ref, command) listed under each table


def cmd_ref(d):
    c = d.get('cmd')
    if not c:
        return ''
    for i, (_, prev) in enumerate(cmds):
        if prev == c:
            return f'[{i + 1}]'
    cmds.append((len(cmds) + 1, c))
    return f'[{len(cmds)}]'


def flush_cmds(out):
    if cmds:
        out.append('')
        out.append('Commands (in `tests/bench/`; `$B` = `tests/bench/out/bin`, '
                   '`$MALLOC` = `env G_SLICE=always-malloc LD_PRELOAD=$B/bench-malloc.so`):')
        out.append('')
        for i, c in cmds:
            c = c.replace('tests/bench/out/bin/bench-malloc.so', '$B/bench-malloc.so')
            c = c.replace('env G_SLICE=always-malloc LD_PRELOAD=$B/bench-malloc.so', '$MALLOC')
            c = c.replace('tests/bench/out/bin/', '$B/')
            c = re.sub(r'-o \S*/([^/ ]+\.strace)', r'-o \1', c)
            out.append(f'{i}. `{c}`')
        cmds.clear()


def median_of(prefix, key, n=3):
    vals = [num(kv(f'{prefix}-{i}'), key) for i in range(1, n + 1)]
    vals = [v for v in vals if v is not None]
    return (statistics.median(vals) if vals else None), len(vals)


out = []
targets = []  # (target, where we stand, met?)

# ---------------------------------------------------------------- header
m = kv('machine')
vm = kv('vm-machine')
out += ['<!-- SPDX-License-Identifier: GPL-2.0-only OR MIT -->',
        '# Benchmarks', '',
        'Written by `make bench` (`tests/bench/run.sh BUILD`): every table below comes',
        'from one run, host and VM parts together, on a shared and noisy machine; compare',
        'within a table (ratios and counts), not across runs. Nothing here is asserted by',
        '`make test`.', '',
        f"- date: {m.get('date', '?')} (run took {m.get('duration', '?')})",
        f"- host: {m.get('cpu', '?')}, {m.get('cpus', '?')} cores, {m.get('mem', '?')}, "
        f"Linux {m.get('kernel', '?')}, load average at start {m.get('load_start', '?')}, "
        f"at end {m.get('load_end', '?')}",
        f"- GStreamer {m.get('gstreamer', '?')}, negcam at {m.get('commit', '?')}, build dir `{m.get('build', '?')}`",
        f"- VM: qemu TCG (emulated CPU, no KVM), {vm.get('cpus', '?')} vCPUs, Linux "
        f"{vm.get('kernel', '?')}; VM times are emulated: only ratios mean something",
        '']
if m.get('vm_status') not in (None, '0'):
    out += [f"**The VM part failed (status {m.get('vm_status')}): its tables are missing "
            "or partial.**", '']

# ---------------------------------------------------------------- 1
out += ['## 1. Negotiation cost', '',
        'ioctls before `VIDIOC_STREAMON`, counted by `strace -f -e trace=ioctl`; the',
        "element's own count (negcamsrc's `negcam-negotiated` message, `requests`: the",
        'format vocabulary, without the REQBUFS/QUERYBUF/QBUF of buffer setup) next to it',
        'as a cross-check; time from the NULL→PLAYING request to the first buffer pushed',
        '(median of 3 fresh processes, without strace). Filters: small = `YUY2 640x360`, large =',
        '`YUY2 1280x720`, MJPG = `image/jpeg 1280x720`; the rate is left to each element',
        '(the "negotiated" column). In the VM; embedded negcamsrc on the host at the end.', '',
        '| device | filter | element | ioctls | of which ENUM_FRAMEINTERVALS | element count | vs v4l2src | first buffer ms | vs v4l2src | negotiated | cmd |',
        '|---|---|---|---|---|---|---|---|---|---|---|']
FILTERS = [('none', 'none'), ('small', 'raw small'), ('large', 'raw large'), ('mjpg', 'MJPG')]
neg = {}
bytype = []
for dev, devname in (('negcam', 'negcam.ko `webcam`'), ('vivid', 'vivid')):
    for f, fname in FILTERS:
        for el in ('v4l2src', 'negcamsrc'):
            base = f'neg-{dev}-{el}-{f}'
            st = kv(base + '-strace')
            sc = strace_counts(base + '-strace')
            tm = kv(base + '-1')
            first, _ = median_of(base, 'first_buffer_ms')
            if not st:
                continue
            total = sum(sc[0].values()) if sc else None
            fi = sc[0].get('VIDIOC_ENUM_FRAMEINTERVALS', 0) if sc else None
            own = num(st, 'negotiated.requests')
            neg[(dev, f, el)] = (total, first, ok(st), own)
            vs_i = vs_t = ''
            if el == 'negcamsrc':
                v = neg.get((dev, f, 'v4l2src'))
                if v:
                    vs_i = ratio(total, v[0], 3) if ok(st) and v[2] else '-'
                    vs_t = ratio(first, v[1]) if first and v[1] else '-'
            result = st.get('caps', '').split(',')
            if ok(st):
                result = short_caps(st.get('caps', ''))
            else:
                err = open(os.path.join(RES, base + '-strace.err'), errors='replace').read()
                result = 'not negotiated' if ('not-negotiated' in err or 'cannot produce' in err) else 'failed'
            if ok(st) and sc and not sc[1]:
                result += ' (no STREAMON seen)'
            iv = interval_ms(tm.get('caps', ''))
            adj = first - iv if first is not None and iv is not None else None
            out.append(f'| {devname} | {fname} | {el} | {fmt(total)} | {fmt(fi)} | {fmt(own)} | {vs_i} | '
                       f'{fmt(first, 1)} | {vs_t} | {result} | {cmd_ref(st)} {cmd_ref(tm)} |')
            if sc:
                bytype.append((f'{devname}, {fname}, {el}',
                               ', '.join(f'{k[7:]} {v}' for k, v in sorted(sc[0].items(), key=lambda x: -x[1]))))

emb = []
for f, fname in FILTERS:
    d = kv(f'neg-emb-{f}-1')
    if not d:
        continue
    first, _ = median_of(f'neg-emb-{f}', 'first_buffer_ms')
    caps = short_caps(d.get('caps', ''))
    iv = interval_ms(d.get('caps', ''))
    out.append(f"| embedded `webcam` (host) | {fname} | negcamsrc | (no ioctl) | "
               f"{d.get('negotiated.enum-frameintervals', '-')} | {d.get('negotiated.requests', '-')} | | "
               f"{fmt(first, 1)} | | "
               f"{caps if ok(d) else 'failed'} | {cmd_ref(d)} |")
out += ['', 'By request type (strace, before STREAMON):', '']
for what, s in bytype:
    out.append(f'- {what}: {s}')
# cross-check: strace vs the element's counter, negcamsrc on negcam.ko
cc = []
for dev in ('negcam', 'vivid'):
    for f, _ in FILTERS:
        st = kv(f'neg-{dev}-negcamsrc-{f}-strace')
        sc = strace_counts(f'neg-{dev}-negcamsrc-{f}-strace')
        if not st or not sc or not ok(st):
            continue
        setup = sum(v for k, v in sc[0].items() if k in (
            'VIDIOC_REQBUFS', 'VIDIOC_QUERYBUF', 'VIDIOC_QBUF', 'VIDIOC_EXPBUF', 'VIDIOC_CREATE_BUFS'))
        cc.append(f"{dev}/{f}: strace {sum(sc[0].values())} = {sum(sc[0].values()) - setup} "
                  f"+ {setup} buffer setup; element {st.get('negotiated.requests', '?')} "
                  f"(requests-total at the end {st.get('stats.requests', '?')})")
if cc:
    out += ['', 'Cross-check, negcamsrc through the kernel backend, strace against the '
            "element's counter: " + '; '.join(cc) + '.']
flush_cmds(out)
out.append('')

# targets for 1: ioctls, the aim, and time to the first buffer, apart
for dev, lim, aim in (('vivid', 10, 50), ('negcam', 4, None)):
    name = 'vivid' if dev == 'vivid' else 'negcam.ko `webcam`'
    io, tm, none = [], [], []
    io_met = tm_met = aim_met = True
    have = False
    for f, fname in FILTERS[1:]:
        n = neg.get((dev, f, 'negcamsrc'))
        v = neg.get((dev, f, 'v4l2src'))
        if not n or not v or n[0] is None or v[0] is None:
            continue
        if not n[2] or not v[2]:
            none.append(f'{fname}: neither negotiates ({fmt(n[0])} vs {fmt(v[0])} ioctls to find out)'
                        if not n[2] and not v[2] else f'{fname}: one fails')
            continue
        have = True
        io_met = io_met and n[0] * lim <= v[0]
        if aim:
            aim_met = aim_met and n[0] * aim <= v[0]
        io.append(f'{fname} {n[0]:.0f} vs {v[0]:.0f} (1/{v[0] / max(n[0], 1):.0f})')
        faster = n[1] is not None and v[1] is not None and n[1] < v[1]
        tm_met = tm_met and faster
        tm.append(f'{fname} {fmt(n[1], 1)} vs {fmt(v[1], 1)} ms')
    targets.append((f'Negotiation with a filter on {name}: ≤ 1/{lim} of v4l2src\'s ioctls before STREAMON',
                    '; '.join(io + none) or 'not measured', io_met if have else None))
    if aim:
        targets.append((f'... aim on {name}: 1/{aim}', '; '.join(io) or 'not measured',
                        aim_met if have else None))
    targets.append((f'... and faster to the first buffer on {name} (median of 3)',
                    '; '.join(tm) or 'not measured', tm_met if have else None))

# ---------------------------------------------------------------- 2
out += ['## 2. Throughput', '',
        '`is-live=false` into `fakesink`, frames per second over the window (after a',
        'warm-up); the memcpy ceiling is one thread copying frames of the same size (best',
        'of 3 one-second runs); the frame generator alone (`engine/framegen.c`, what',
        'negcamsrc and negcam.ko call per frame) drawing whole frames and drawing the',
        'delta from the frame the buffer held. On the host.', '',
        '| format | negcamsrc | videotestsrc smpte | videotestsrc black | memcpy ceiling | framegen full / delta | negcamsrc / smpte | negcamsrc / memcpy | cmd |',
        '|---|---|---|---|---|---|---|---|---|']
for size in ('1920x1080', '3840x2160'):
    for f in ('YUY2', 'NV12'):
        i = f'{f}-{size}'
        n = kv(f'tp-negcam-{i}')
        s = kv(f'tp-vts-smpte-{i}')
        b = kv(f'tp-vts-black-{i}')
        g = kv(f'tp-framegen-{i}')
        mc = [num(kv(f'tp-memcpy-{i}-{k}'), 'fps') for k in (1, 2, 3)]
        mc = max([x for x in mc if x is not None], default=None)
        if not n:
            continue
        nf, sf, bf = num(n, 'fps'), num(s, 'fps'), num(b, 'fps')
        refs = ' '.join(filter(None, (cmd_ref(n), cmd_ref(s), cmd_ref(b), cmd_ref(g),
                                      cmd_ref(kv(f'tp-memcpy-{i}-1')))))
        out.append(f'| {f} {size} | {fmt(nf)} | {fmt(sf)} | {fmt(bf)} | {fmt(mc)} | '
                   f"{fmt(num(g, 'full_fps'))} / {fmt(num(g, 'delta_fps'))} | {ratio(nf, sf, 0)}x | "
                   f'{ratio(nf, mc, 1)}x | {refs} |')
        if size == '1920x1080':
            targets.append((f'Throughput {f} 1080p: ≥ 5x videotestsrc smpte and ≥ the one-core memcpy ceiling',
                            f'{ratio(nf, sf, 0)}x smpte, {ratio(nf, mc, 1)}x the memcpy ceiling '
                            f'({fmt(nf)} fps against {fmt(sf)} and {fmt(mc)})',
                            None if nf is None or sf is None or mc is None else (nf >= 5 * sf and nf >= mc)))
        else:
            targets.append((f'Throughput {f} 4K (same targets, not required)',
                            f'{ratio(nf, sf, 0)}x smpte, {ratio(nf, mc, 1)}x memcpy',
                            None if nf is None or sf is None or mc is None else (nf >= 5 * sf and nf >= mc)))
flush_cmds(out)
out.append('')

# ---------------------------------------------------------------- 3
out += ['## 3. Kernel frame generation', '',
        "Each driver's frame thread (negcam.ko `negcam-0`, vivid `vivid-000-vid-cap`)",
        'streaming YUYV with MMAP at the fastest interval the driver allows for the size,',
        '4 buffers, the application requeuing at once. CPU time of the thread per frame',
        'from `/proc/PID/schedstat` (ns) and `/proc/PID/stat` (utime+stime, clock ticks,',
        'coarse) before and after N frames. In the VM (emulated CPU): read the ratio.', '',
        '| size | driver | interval | frames | fps | thread µs/frame (schedstat) | (stat ticks) | negcam / vivid | cmd |',
        '|---|---|---|---|---|---|---|---|---|']
for size in ('640x480', '1280x720'):
    n = kv(f'kgen-negcam-{size}')
    v = kv(f'kgen-vivid-{size}')
    for name, d in (('negcam.ko', n), ('vivid', v)):
        if not d:
            continue
        r = ratio(num(n, 'thread_us_per_frame'), num(v, 'thread_us_per_frame')) if name == 'negcam.ko' else ''
        out.append(f"| YUYV {size} | {name} | {d.get('interval', '-')} | {d.get('frames', '-')} | "
                   f"{d.get('fps', '-')} | {d.get('thread_us_per_frame', '-')} | "
                   f"{d.get('thread_tick_us_per_frame', '-')} | {r} | {cmd_ref(d)} |")
    if n and v:
        a, b = num(n, 'thread_us_per_frame'), num(v, 'thread_us_per_frame')
        targets.append((f'negcam.ko ≤ 1/3 of vivid\'s CPU time per frame (YUYV {size})',
                        f'{ratio(a, b)} ({fmt(a)} µs against {fmt(b)} µs, emulated)',
                        None if a is None or b is None else a <= b / 3))
flush_cmds(out)
out.append('')

# ---------------------------------------------------------------- 4
out += ['## 4. Latency and copies', '',
        '`YUY2 640x360 30/1` from the same device; "fast" = straight into `fakesink`,',
        '"slow" = `queue max-size-buffers=12 ! identity sleep-time=66666` (15 frames/s',
        'taken, 30 produced, up to 12 held in the queue). Reported latency = LATENCY query on',
        'the source; delay = pipeline clock at the push minus the buffer PTS (v4l2src',
        "maps the driver's timestamp to its PTS; negcamsrc's kernel backend stamps the",
        'arrival time, so its PTS delay is not the driver delay: the reference-timestamp',
        'delay is, when the element attaches `GstReferenceTimestampMeta`). Copies =',
        'buffers whose memory is not in a mapping of the device (`/proc/self/maps`);',
        "negcamsrc's own `stats.copies` beside it. Lost = frames missing in the buffer",
        'offsets (sequence) or counted as drops. 100 frames after 20. In the VM.', '',
        '| device | element | consumer | latency min / max ms | delay PTS min / mean / max ms | delay driver ts ms | copies | stats.copies | drops / lost / offset gaps | cmd |',
        '|---|---|---|---|---|---|---|---|---|---|']
lat = {}


def ms(d, k):
    v = num(d, k)
    return None if v is None else v / 1000


for dev, devname in (('negcam', 'negcam.ko'), ('vivid', 'vivid')):
    for el in ('negcamsrc', 'v4l2src'):
        for c in ('fast', 'slow'):
            d = kv(f'lat-{dev}-{el}-{c}')
            if not d:
                continue
            lat[(dev, el, c)] = d
            if not ok(d):
                err = open(os.path.join(RES, f'lat-{dev}-{el}-{c}.err'), errors='replace').read().strip().split('\n')[0]
                out.append(f'| {devname} | {el} | {c} | failed: {err[:120]} | | | | | | {cmd_ref(d)} |')
                continue
            ref = '-'
            if 'delay_ref_us_mean' in d:
                ref = f"{fmt(ms(d, 'delay_ref_us_min'), 1)} / {fmt(ms(d, 'delay_ref_us_mean'), 1)} / {fmt(ms(d, 'delay_ref_us_max'), 1)}"
            out.append(f"| {devname} | {el} | {c} | {fmt(ms(d, 'latency_min_us'), 1)} / "
                       f"{fmt(ms(d, 'latency_max_us'), 1) if d.get('latency_max_us') != 'none' else 'none'} | "
                       f"{fmt(ms(d, 'delay_pts_us_min'), 1)} / {fmt(ms(d, 'delay_pts_us_mean'), 1)} / "
                       f"{fmt(ms(d, 'delay_pts_us_max'), 1)} | {ref} | {d.get('nondevice_buffers', '-')} | "
                       f"{d.get('stats.copies', '-')} | {d.get('stats.drops', '-')} / {d.get('stats.lost', '-')} / {d.get('offset_gaps', '-')} | "
                       f'{cmd_ref(d)} |')
flush_cmds(out)
out.append('')

# ---------------------------------------------------------------- 5
out += ['## 5. CPU per frame, 30 fps live', '',
        '`YUY2 30/1` into `fakesink`, 300 frames after 30: user+sys of the process',
        '(`getrusage`) per frame; for a kernel device also the driver thread',
        '(`negcam-0`, schedstat) and the sum. Host rows and VM rows are not comparable',
        'with each other (the VM is emulated); compare within each.', '',
        '| where | source | size | fps | process µs/frame (user + sys) | driver thread µs/frame | total µs/frame | vs videotestsrc | cmd |',
        '|---|---|---|---|---|---|---|---|---|']
cpu_rows = [('host', 'negcamsrc (embedded)', 'cpu-host-negcam-640x480', 'cpu-host-vts-640x480', '640x480'),
            ('host', 'videotestsrc', 'cpu-host-vts-640x480', None, '640x480'),
            ('host', 'negcamsrc (embedded)', 'cpu-host-negcam-1920x1080', 'cpu-host-vts-1920x1080', '1920x1080'),
            ('host', 'videotestsrc', 'cpu-host-vts-1920x1080', None, '1920x1080'),
            ('VM', 'negcamsrc on negcam.ko', 'cpu-vm-negcamsrc', 'cpu-vm-vts', '640x480'),
            ('VM', 'v4l2src on negcam.ko', 'cpu-vm-v4l2src', 'cpu-vm-vts', '640x480'),
            ('VM', 'videotestsrc', 'cpu-vm-vts', None, '640x480')]
for where, name, key, ref, size in cpu_rows:
    d = kv(key)
    if not d:
        continue
    p = num(d, 'cpu_us_per_frame')
    t = num(d, 'thread_us_per_frame')
    tot = None if p is None else p + (t or 0)
    r = kv(ref) if ref else None
    vs = ratio(tot, num(r, 'cpu_us_per_frame')) if r else ''
    out.append(f"| {where} | {name} | {size} | {d.get('fps', '-')} | {fmt(p, 1)} ({d.get('user_us_per_frame', '-')} + "
               f"{d.get('sys_us_per_frame', '-')}) | {fmt(t, 1) if t is not None else '-'} | {fmt(tot, 1)} | {vs} | {cmd_ref(d)} |")
flush_cmds(out)
out.append('')

# ---------------------------------------------------------------- 6
out += ['## 6. Memory', '',
        'Heap allocations per frame in steady state, counted by `bench-malloc.so`',
        '(LD_PRELOAD: malloc, calloc, realloc and the aligned variants; `G_SLICE=always-malloc`',
        'so GLib slices count too), and the peak RSS of the process at the end.', '',
        '| source | mode | frames | allocations / frame | peak RSS MiB | cmd |',
        '|---|---|---|---|---|---|']
mem_rows = [('negcamsrc (embedded)', 'non-live 640x480', 'mem-negcam'),
            ('videotestsrc', 'non-live 640x480', 'mem-vts'),
            ('negcamsrc (embedded)', 'live 30 fps 640x480', 'cpu-host-negcam-640x480'),
            ('negcamsrc (embedded)', 'live 30 fps 1080p', 'cpu-host-negcam-1920x1080'),
            ('videotestsrc', 'live 30 fps 640x480', 'cpu-host-vts-640x480'),
            ('negcamsrc on negcam.ko (VM)', 'live 30 fps 640x480', 'cpu-vm-negcamsrc'),
            ('v4l2src on negcam.ko (VM)', 'live 30 fps 640x480', 'cpu-vm-v4l2src'),
            ('videotestsrc (VM)', 'live 30 fps 640x480', 'cpu-vm-vts')]
allocs = {}
for name, mode, key in mem_rows:
    d = kv(key)
    if not d:
        continue
    a = num(d, 'allocs_per_frame')
    allocs[key] = a
    rss = num(d, 'maxrss_kb')
    out.append(f"| {name} | {mode} | {d.get('frames', '-')} | {fmt(a, 3)} | {fmt(None if rss is None else rss / 1024, 1)} | {cmd_ref(d)} |")
flush_cmds(out)

# where the element allocates: the traced run (backtraces from bench-malloc.so)
def alloc_sites(name):
    import subprocess
    path = os.path.join(RES, name + '.err')
    d = kv(name)
    if not os.path.exists(path) or not d:
        return None
    sites = {}
    own = 0
    total = 0
    cache = {}

    def where(frame):
        if frame not in cache:
            lib, _, off = frame.rpartition('+')
            try:
                r = subprocess.run(['addr2line', '-f', '-e', lib, off], capture_output=True,
                                   text=True, timeout=20).stdout.split('\n')
                fn, loc = r[0], r[1] if len(r) > 1 else '??'
            except Exception:
                fn, loc = '??', '??'
            tree = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            loc = re.sub(r'^.*?/(gst|engine|tests)/', r'\1/', loc) if tree in os.path.abspath(loc) or '/../' in loc else loc
            cache[frame] = (os.path.basename(lib), fn, loc)
        return cache[frame]

    with open(path, errors='replace') as f:
        for line in f:
            if not line.startswith('malloc-bt '):
                continue
            frames = line.split()[2:]
            total += 1
            if any('/bench-gst+' in fr for fr in frames):
                own += 1   # the harness's probe (first-use registrations)
                continue
            site = None
            for fr in frames[1:]:
                lib, fn, loc = where(fr)
                if lib.startswith('libgstnegcam'):
                    site = f'`{fn}` ({loc})'
                    break
            if site is None:
                names = [where(fr)[1] for fr in frames[1:6]]
                site = 'outside negcamsrc: ' + ' < '.join(f'`{n}`' for n in names)
            sites[site] = sites.get(site, 0) + 1
    return total, own, sites, d


for key, what in (('mem-negcam-live-trace', 'embedded negcamsrc, live 30 fps 640x480 (host)'),
                  ('mem-vm-negcamsrc-trace', 'negcamsrc on negcam.ko, live 30 fps 640x480 (VM)')):
    r = alloc_sites(key)
    if not r:
        continue
    total, own, sites, d = r
    frames = int(d.get('frames', '0'))
    out += ['', f'Where they come from: backtraces of the allocations of {frames} frames of',
            f'{what}, `{key}`; the first frame inside `libgstnegcam.so`, resolved with',
            'addr2line against the build:', '']
    for site, c in sorted(sites.items(), key=lambda x: -x[1]):
        out.append(f'- {c} ({c / max(frames, 1):.2f} per frame): {site}')
    if own:
        out.append(f'- {own}: the measuring probe itself, not counted here')
    if not sites:
        out.append('- none')
    out.append('- command: `' + d.get('cmd', '').replace('tests/bench/out/bin/', '$B/').replace(
        'env G_SLICE=always-malloc LD_PRELOAD=$B/bench-malloc.so', '$MALLOC') + '`')
out.append('')

# ---------------------------------------------------------------- 7
out += ['## 7. Loopback: negcam loop against v4l2loopback', '',
        '`tests/bench/bench-loop.c` (issue 12): a producer thread writes YUYV at 30 frames/s',
        'into the output node by MMAP QBUF, each frame carrying its frame number and the',
        'CLOCK_MONOTONIC time of its QBUF; a consumer with no format of its own (G_FMT of the',
        'capture node) DQBUFs. Latency = consumer DQBUF minus producer QBUF; lost = gaps in',
        'the frame numbers; repeated = a frame number dequeued again (or an earlier one);',
        'placeholders = buffers without the producer\'s stamp; wrong-sized =',
        'bytesused different from the consumer\'s sizeimage. CPU per frame over the 300',
        'measured frames: producer and consumer threads (getrusage), and the whole machine',
        '(busy jiffies of /proc/stat: kernel threads and interrupts included, 10 ms ticks:',
        'coarse). v4l2loopback is Debian\'s v4l2loopback-dkms built for the VM kernel, one',
        'node for both directions; the negcam loop follows its producer (`loop_profile=follow`).',
        'In the VM (emulated CPU): compare the two peers, not absolute numbers.', '',
        'Both modules are loaded at once and the runs alternate, v4l2loopback then negcam,',
        'for several rounds (`LOOP_ROUNDS`, default 5): a row is the median of each column',
        'over the rounds (their values in the last column), and the target is judged on',
        'these medians.', '',
        'Copies = kernel copies per producer frame (the negcam loop\'s Frame Copies control);',
        'shared = producer frames handed to the consumer in memory both share, with no copy',
        '(its Shared Frames control). v4l2loopback shares one set of buffers between both',
        'sides and has neither count.', '',
        'Where the time goes: wake = the producer\'s QBUF to the consumer\'s poll() returning',
        '(median, ms: the part of the latency before the consumer\'s DQBUF); calls = the',
        'median time of the producer\'s DQBUF and QBUF and of the consumer\'s DQBUF (the call',
        'that succeeded, after poll) and QBUF, in µs.', '',
        '| size | loop | consumer format | frames | lost | repeated | placeholders | wrong-sized | latency median / p99 ms | wake ms | producer µs/frame | consumer µs/frame | machine µs/frame | copies | shared | calls: producer DQBUF / QBUF, consumer DQBUF / QBUF µs | rounds: median latency ms | cmd |',
        '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|']
LOOP_KEYS = ('lat_median_us', 'lat_p99_us', 'producer_us_per_frame', 'consumer_us_per_frame',
             'machine_us_per_frame', 'copies_per_frame', 'shared_per_frame',
             'producer_qbuf_us', 'consumer_dqbuf_us', 'consumer_qbuf_us',
             'producer_dqbuf_us', 'wake_us')


def loop_rounds(peer, size):
    """The rounds of one peer and size (loop-PEER-SIZE-rN.kv, or the older
    single loop-PEER-SIZE.kv): the first round's other fields, the median of
    each measured key over the rounds that ran, and the rounds."""
    names = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(RES, f'loop-{peer}-{size}-r*.kv')))
    rounds = [kv(n) for n in names] or ([kv(f'loop-{peer}-{size}')] if kv(f'loop-{peer}-{size}') else [])
    if not rounds:
        return None, []
    good = [d for d in rounds if 'frames' in d]
    if not good:
        return rounds[0], rounds
    d = dict(good[0])
    for k in LOOP_KEYS:
        vals = [num(r, k) for r in good if num(r, k) is not None]
        if vals:
            d[k] = str(statistics.median(vals))
    for k in ('lost', 'backwards', 'placeholders', 'wrong_size'):
        d[k] = str(sum(int(r.get(k, 0) or 0) for r in good))
    d['frames'] = str(sum(int(r.get('frames', 0) or 0) for r in good))
    return d, rounds


loop = {}
for size in ('640x480', '1280x720'):
    for peer, pname in (('v4l2loopback', 'v4l2loopback'), ('negcam', 'negcam loop')):
        d, rounds = loop_rounds(peer, size)
        if not d:
            continue
        loop[(peer, size)] = d
        if 'frames' not in d:
            name = f'loop-{peer}-{size}-r1' if len(rounds) and kv(f'loop-{peer}-{size}-r1') else f'loop-{peer}-{size}'
            err = open(os.path.join(RES, name + '.err'), errors='replace').read().strip().split('\n')[0]
            out.append(f'| YUYV {size} | {pname} | failed: {err[:100]} | | | | | | | | | | | | | | | {cmd_ref(d)} |')
            continue
        per = ', '.join(fmt(ms(r, 'lat_median_us'), 2) if 'frames' in r else 'failed' for r in rounds)
        out.append(f"| YUYV {size} | {pname} | {d.get('consumer_format', '-')} | {d.get('frames', '-')} | "
                   f"{d.get('lost', '-')} | {d.get('backwards', '-')} | {d.get('placeholders', '-')} | {d.get('wrong_size', '-')} | "
                   f"{fmt(ms(d, 'lat_median_us'), 2)} / {fmt(ms(d, 'lat_p99_us'), 2)} | "
                   f"{fmt(ms(d, 'wake_us'), 2)} | "
                   f"{fmt(num(d, 'producer_us_per_frame'), 1)} | {fmt(num(d, 'consumer_us_per_frame'), 1)} | "
                   f"{fmt(num(d, 'machine_us_per_frame'), 1)} | {fmt(num(d, 'copies_per_frame'), 2)} | "
                   f"{fmt(num(d, 'shared_per_frame'), 2)} | "
                   f"{fmt(num(d, 'producer_dqbuf_us'), 1)} / {fmt(num(d, 'producer_qbuf_us'), 1)}, "
                   f"{fmt(num(d, 'consumer_dqbuf_us'), 1)} / "
                   f"{fmt(num(d, 'consumer_qbuf_us'), 1)} | {per} | {cmd_ref(d)} |")
    n, v = loop.get(('negcam', size)), loop.get(('v4l2loopback', size))
    if n and v and 'frames' in n and 'frames' in v:
        out.append(f"| YUYV {size} | negcam / v4l2loopback | | | | | | | "
                   f"{ratio(num(n, 'lat_median_us'), num(v, 'lat_median_us'))} / "
                   f"{ratio(num(n, 'lat_p99_us'), num(v, 'lat_p99_us'))} | "
                   f"{ratio(num(n, 'wake_us'), num(v, 'wake_us'))} | "
                   f"{ratio(num(n, 'producer_us_per_frame'), num(v, 'producer_us_per_frame'))} | "
                   f"{ratio(num(n, 'consumer_us_per_frame'), num(v, 'consumer_us_per_frame'))} | "
                   f"{ratio(num(n, 'machine_us_per_frame'), num(v, 'machine_us_per_frame'))} | | | "
                   f"{ratio(num(n, 'producer_dqbuf_us'), num(v, 'producer_dqbuf_us'))} / "
                   f"{ratio(num(n, 'producer_qbuf_us'), num(v, 'producer_qbuf_us'))}, "
                   f"{ratio(num(n, 'consumer_dqbuf_us'), num(v, 'consumer_dqbuf_us'))} / "
                   f"{ratio(num(n, 'consumer_qbuf_us'), num(v, 'consumer_qbuf_us'))} | | |")
        worse = [k for k in ('lat_median_us', 'lat_p99_us', 'producer_us_per_frame', 'machine_us_per_frame')
                 if None not in (num(n, k), num(v, k)) and num(n, k) > num(v, k)]
        targets.append((f'Loop YUYV {size}: latency and CPU per frame no worse than v4l2loopback\'s (medians of the rounds)',
                        'worse on: ' + ', '.join(worse) if worse else 'none worse', not worse))
    if n and 'frames' in n:
        targets.append((f'Loop YUYV {size}: zero wrong-sized buffers', f"{n.get('wrong_size', '-')} of {n.get('frames', '-')}",
                        n.get('wrong_size') == '0'))
lio = []
for peer, pname in (('v4l2loopback', 'v4l2loopback'), ('negcam', 'negcam loop')):
    sc = strace_counts(f'loop-{peer}-v4l2src')
    d = kv(f'loop-{peer}-v4l2src')
    if not sc or not d:
        continue
    total = sum(sc[0].values())
    lio.append(f"- {pname}: {total} ioctls before STREAMON{'' if sc[1] else ' (no STREAMON seen)'}"
               f"{'' if ok(d) else ' (the pipeline failed)'}: "
               + ', '.join(f'{k[7:]} {c}' for k, c in sorted(sc[0].items(), key=lambda x: -x[1]))
               + f' {cmd_ref(d)}')
if lio:
    out += ['', 'A `v4l2src` consumer with no caps of its own, while `bench-loop produce` writes',
            '640x480 (strace -f -e trace=ioctl, up to the first VIDIOC_STREAMON):', ''] + lio
flush_cmds(out)
out.append('')

# copies target
copies = []
cmet = True
have = False
for (dev, el, c), d in lat.items():
    if el != 'negcamsrc' or not ok(d):
        continue
    have = True
    n = int(num(d, 'nondevice_buffers') or 0) + int(num(d, 'stats.copies') or 0)
    cmet = cmet and n == 0
    copies.append(f'{dev} {c}: {n}')
e = kv('mem-negcam')
if e:
    have = True
    c = int(num(e, 'stats.copies') or 0)
    cmet = cmet and c == 0
    copies.append(f'embedded: {c}')
targets.append(('Zero copies per frame (negcamsrc)', ', '.join(copies) or 'not measured', cmet if have else None))
al = []
amet = True
ahave = False
for key in ('mem-negcam', 'cpu-host-negcam-640x480', 'cpu-host-negcam-1920x1080', 'cpu-vm-negcamsrc'):
    if allocs.get(key) is not None:
        ahave = True
        amet = amet and allocs[key] < 0.01
        al.append(f'{key}: {allocs[key]:.3f}')
targets.append(('Zero heap allocations per frame in steady state (negcamsrc)', ', '.join(al) or 'not measured',
                amet if ahave else None))

# ---------------------------------------------------------------- uvcvideo
# tests/bench/uvc.sh's results, tabled by uvc-report.py (issue 33)
if glob.glob(os.path.join(RES, 'uvc-*-strace.kv')):
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    table = subprocess.run([sys.executable, os.path.join(here, 'uvc-report.py'), RES],
                           capture_output=True, text=True, check=False).stdout
    out += ['## 9. uvcvideo: negcamsrc against v4l2src, negcam-uvc the camera', '',
            'negcam-uvc `--profile webcam` on vhci-hcd, served by uvcvideo, in the VM '
            '(`tests/bench/uvc.sh`): ioctls before STREAMON (strace), the PROBE and '
            'COMMIT requests the camera received (its SIGUSR1 counts; uvcvideo makes '
            'each TRY_FMT, S_FMT and S_PARM a PROBE SET_CUR, GET_MIN, GET_MAX, SET_CUR, '
            'GET_CUR), first buffer median of 5 fresh processes; the camera reset to '
            'YUYV 640x480 at 30 fps before each process.', '', table.rstrip('\n'), '']

# ---------------------------------------------------------------- PipeWire
# tests/bench/pw.sh's results, tabled by pw-report.py (issue 39)
if glob.glob(os.path.join(RES, 'pw-[ab]-*.kv')):
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    table = subprocess.run([sys.executable, os.path.join(here, 'pw-report.py'), RES],
                           capture_output=True, text=True, check=False).stdout
    out += ['## 10. negcam-pw against pipewiresink mode=provide', '',
            'On the host, in one private PipeWire session (`tests/bench/pw.sh`): each '
            'producer at YUY2 1280x720 30 fps, started fresh for each run, a and b '
            'alternated in each round; one consumer `pipewiresrc ! fpsdisplaysink '
            'video-sink=fakesink` counts the frames delivered. CPU from the producer\'s '
            '/proc/PID/stat (10 ms ticks) and its threads\' schedstat (ns); copies from '
            'a run with `bench-memcount.so` preloaded into the producer (memcpy, memmove, '
            'mempcpy calls through the dynamic linker), each call of a row or more '
            'charged to the module that made it: a copy into PipeWire\'s buffer would '
            'be one made by another module than the generator. negcampwconvertsink '
            'is not built yet. Nothing here is asserted.', '', table.rstrip('\n'), '']

# ---------------------------------------------------------------- targets
tout = ['## Targets (issue 6)', '', '| target | where we stand | |', '|---|---|---|']
for t, s, met in targets:
    tout.append(f"| {t} | {s} | {'met' if met else 'missed' if met is False else 'n/a'} |")
tout.append('')
notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'notes.md')
if os.path.exists(notes):
    with open(notes) as f:
        tout += [line.rstrip('\n') for line in f if not line.startswith('<!--')]
    tout.append('')
# targets go right after the header
hdr_end = out.index('## 1. Negotiation cost')
out = out[:hdr_end] + tout + out[hdr_end:]

text = '\n'.join(out).rstrip('\n') + '\n'
with open(OUT, 'w') as f:
    f.write(text)
sys.stdout.write(text)
