#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""
tests/check-layers.py [--root DIR] [FOLDER...]: no include or call cycle
between the files of a folder (default: engine, ctl, user, gst, run,
kmod and uvc), and no include or call from one top-level folder into another that
the folder table (FOLDERS below, docs/architecture.md "Which folder may use
which") does not allow.
tests/check-layers.py --self-test: proves the folder check fails on an
upward include or call (engine/ using user/, in a copy of the tree in a
temporary directory) and passes on the real tree; prints
"layers-selftest: N passed, N failed".

The nodes are the folder's files. A file depends on each header of the
folder it includes, and a .c file on each .c file that defines a function
it calls (definitions found with Universal Ctags, only functions that a
header of the folder declares; calls as `name(` outside comments and
strings). A header depends on no .c file, so a public header holding
constants (framegen.h's patterns) may be included by the code below it.
Any strongly connected group of two or more files is a cycle: it is
printed with the includes and calls that make it, and the check fails.

Between folders: an `#include "x"` is resolved as the compiler does, first
beside the including file ("../engine/x.h" too), then in the folders'
include directories (each production folder is one: a bare "vbuf.h" is
user/'s); an include found in no folder (system or generated headers) is
not counted. A call is a name defined, not static, in another folder's .c
file and declared in one of that folder's headers. Each must go to a
folder the table allows.
Prints "layers: N passed, N failed": per folder one check for cycles and
one for the table.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Which top-level folder may include and call which (docs/architecture.md).
# None: anything. A folder may always use itself.
FOLDERS = {
    'engine': set(),
    'user': {'engine'},
    'ctl': {'user', 'engine'},
    'run': {'user', 'engine'},
    'gst': {'user', 'engine', 'uvc', 'pw'},
    'kmod': {'engine'},
    'uvc': {'user', 'engine'},
    'pw': {'user', 'engine'},
    'tests': None,
    'examples': None,
}
PRODUCTION = [f for f, may in FOLDERS.items() if may is not None]
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Debian's universal-ctags installs ctags-universal (ctags is an alternative).
CTAGS = shutil.which('ctags-universal') or 'ctags'


def module_of(path):
    return os.path.basename(path)


def strip_c(text):
    """Source text without comments, string and character literals."""
    pat = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pat.sub(lambda m: ' ' if m.group(0)[0] in '/' else '""', text)


def ctags_functions(files):
    """{name: file} of functions defined (not static) in the .c files."""
    out = subprocess.run([CTAGS, '-x', '--c-kinds=f', '--fields=+S', '--language-force=C'] + files,
                         capture_output=True, text=True, check=True).stdout
    defs = {}
    for line in out.splitlines():
        parts = line.split(None, 4)
        if len(parts) < 5:
            continue
        name, _kind, _line, path, src = parts
        if src.lstrip().startswith('static'):
            continue
        defs.setdefault(name, path)
    return defs


def declared_in_headers(headers):
    names = set()
    for h in headers:
        text = strip_c(open(h, encoding='utf-8', errors='replace').read())
        names.update(re.findall(r'\b([A-Za-z_]\w*)\s*\(', text))
    return names


def graph(folder):
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(('.c', '.h')))
    headers = {os.path.basename(f): f for f in files if f.endswith('.h')}
    sources = [f for f in files if f.endswith('.c')]
    defs = {n: f for n, f in ctags_functions(sources).items() if n in declared_in_headers(headers.values())}
    edges = {}  # (a, b) -> [why]
    for f in files:
        a = module_of(f)
        raw = open(f, encoding='utf-8', errors='replace').read()
        for inc in INCLUDE_RE.findall(raw):
            b = module_of(inc)
            if b in headers and b != a:
                edges.setdefault((a, b), []).append('%s includes %s' % (os.path.basename(f), inc))
        if not f.endswith('.c'):
            continue
        for name in set(re.findall(r'\b([A-Za-z_]\w*)\s*\(', strip_c(raw))):
            target = defs.get(name)
            if target and module_of(target) != a:
                edges.setdefault((a, module_of(target)), []).append(
                    '%s calls %s()' % (os.path.basename(f), name))
    return sorted({module_of(f) for f in files}), edges


def cycles(nodes, edges):
    """Strongly connected components of two or more nodes (Tarjan)."""
    succ = {n: sorted(b for (a, b) in edges if a == n) for n in nodes}
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for n in nodes:
        if n not in index:
            visit(n)
    return out


def sources(root, folder):
    out = []
    for d, _dirs, names in os.walk(os.path.join(root, folder)):
        out += sorted(os.path.join(d, n) for n in names if n.endswith(('.c', '.h')))
    return out


def folder_of(root, path):
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
    return None if rel.startswith('..') else rel.split(os.sep)[0]


def resolve(root, including, inc):
    """The project file an #include "inc" of `including` reads, or None."""
    here = os.path.join(os.path.dirname(including), inc)
    if os.path.isfile(here):
        return here
    found = [os.path.join(root, f, inc) for f in PRODUCTION if os.path.isfile(os.path.join(root, f, inc))]
    return found[0] if found else None


def folder_uses(root):
    """[(from folder, to folder, why)] of every include and call between folders."""
    files = {f: sources(root, f) for f in PRODUCTION}
    defs = {}
    for f in PRODUCTION:
        cs = [x for x in files[f] if x.endswith('.c')]
        declared = declared_in_headers([x for x in files[f] if x.endswith('.h')])
        for name, path in (ctags_functions(cs) if cs else {}).items():
            if name in declared:
                defs.setdefault(name, f)
    uses = []
    for f in PRODUCTION:
        for path in files[f]:
            rel = os.path.relpath(path, root)
            raw = open(path, encoding='utf-8', errors='replace').read()
            for inc in INCLUDE_RE.findall(raw):
                target = resolve(root, path, inc)
                to = target and folder_of(root, target)
                if to and to != f:
                    uses.append((f, to, '%s includes %s ("%s")' % (rel, os.path.relpath(target, root), inc)))
            if path.endswith('.c'):
                for name in sorted(set(re.findall(r'\b([A-Za-z_]\w*)\s*\(', strip_c(raw)))):
                    to = defs.get(name)
                    if to and to != f:
                        uses.append((f, to, '%s calls %s() of %s/' % (rel, name, to)))
    return uses


def check_folders(root, folders):
    """(passed, failed, lines): one check per folder against FOLDERS."""
    uses = folder_uses(root)
    passed = failed = 0
    lines = []
    for f in folders:
        if FOLDERS.get(f) is None or not os.path.isdir(os.path.join(root, f)):
            continue
        may = FOLDERS[f]
        mine = [u for u in uses if u[0] == f]
        bad = [u for u in mine if u[1] not in may]
        allowed = ', '.join(sorted(may)) or 'nothing'
        if not bad:
            passed += 1
            used = ', '.join(sorted({u[1] for u in mine})) or 'nothing'
            lines.append('%s/ may use %s: uses %s (%d includes and calls), none upward'
                         % (f, allowed, used, len(mine)))
            continue
        failed += 1
        lines.append('%s/ may use %s: FORBIDDEN %d:' % (f, allowed, len(bad)))
        lines += ['  %s' % why for _f, _to, why in bad]
    return passed, failed, lines


def check_cycles(root, folders):
    """(passed, failed, lines): one check per folder, no cycle between its files."""
    passed = failed = 0
    lines = []
    for folder in folders:
        path = os.path.join(root, folder)
        if not os.path.isdir(path):
            continue
        nodes, edges = graph(path)
        found = cycles(nodes, edges)
        if not found:
            lines.append('%s/: %d files, %d dependencies, no cycle' % (folder, len(nodes), len(edges)))
            passed += 1
            continue
        failed += 1
        for comp in found:
            lines.append('%s/: CYCLE between %s' % (folder, ', '.join(comp)))
            for (a, b), why in sorted(edges.items()):
                if a in comp and b in comp:
                    lines.append('  %s -> %s: %s' % (a, b, '; '.join(sorted(set(why))[:4])))
    return passed, failed, lines


def check(root, folders):
    p1, f1, l1 = check_cycles(root, folders)
    p2, f2, l2 = check_folders(root, folders)
    return p1 + p2, f1 + f2, l1 + l2


# The self-test's upward uses, each added to a copy of the tree: engine/
# including user/'s vbuf.h bare and by a relative path, and calling into it.
BREAKS = [
    ('engine/fract.c', '#include "vbuf.h"\n'),
    ('engine/fract.c', '#include "../user/vbuf.h"\n'),
    ('engine/fract.c', 'void nc_selftest_upward(void);\nvoid nc_selftest_upward(void) { (void)nc_vb_memfd(0); }\n'),
]


def self_test():
    checks = fails = 0

    def expect(what, ok):
        nonlocal checks, fails
        checks += 1
        fails += 0 if ok else 1
        print('%s: %s' % ('ok' if ok else 'FAIL', what))

    _p, f, _l = check(ROOT, PRODUCTION)
    expect('the real tree passes (%d failed)' % f, f == 0)
    for target, text in BREAKS:
        with tempfile.TemporaryDirectory(prefix='negcam-layers.') as tmp:
            for folder in PRODUCTION:
                shutil.copytree(os.path.join(ROOT, folder), os.path.join(tmp, folder),
                                ignore=lambda d, names: [n for n in names if os.path.isfile(os.path.join(d, n))
                                                         and not n.endswith(('.c', '.h'))])
            with open(os.path.join(tmp, target), 'a', encoding='utf-8') as out:
                out.write(text)
            _p, f, lines = check_folders(tmp, PRODUCTION)
            print('--- %s + %s' % (target, text.strip().splitlines()[-1]))
            # In lower case: a log reader looking for FAIL or FORBIDDEN
            # finds real failures only.
            print('\n'.join('   the copy: ' + l.replace('FORBIDDEN', 'forbidden')
                            for l in lines if 'FORBIDDEN' in l or l.startswith('  ')))
            expect('%s with %s fails the folder check' % (target, text.strip().splitlines()[-1]), f == 1)
    print('layers-selftest: %d passed, %d failed' % (checks - fails, fails))
    return 1 if fails else 0


def main():
    args = sys.argv[1:]
    if args[:1] == ['--self-test']:
        return self_test()
    root = ROOT
    if args[:1] == ['--root']:
        root, args = os.path.abspath(args[1]), args[2:]
    passed, failed, lines = check(root, args or PRODUCTION)
    print('\n'.join(lines))
    print('layers: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
