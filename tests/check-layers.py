#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""
tests/check-layers.py [FOLDER...]: no include or call cycle between the
files of a folder (default: engine, ctl, user, gst, run, kmod and uvc), as
docs/architecture.md says.

The nodes are the folder's files. A file depends on each header of the
folder it includes, and a .c file on each .c file that defines a function
it calls (definitions found with Universal Ctags, only functions that a
header of the folder declares; calls as `name(` outside comments and
strings). A header depends on no .c file, so a public header holding
constants (framegen.h's patterns) may be included by the code below it.
Any strongly connected group of two or more files is a cycle: it is
printed with the includes and calls that make it, and the check fails.
Prints "layers: N passed, N failed", one check per folder.
"""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', raw, re.M):
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


def main():
    folders = sys.argv[1:] or ['engine', 'ctl', 'user', 'gst', 'run', 'kmod', 'uvc']
    passed = failed = 0
    for folder in folders:
        path = os.path.join(ROOT, folder)
        if not os.path.isdir(path):
            continue
        nodes, edges = graph(path)
        found = cycles(nodes, edges)
        if not found:
            print('%s/: %d files, %d dependencies, no cycle' % (folder, len(nodes), len(edges)))
            passed += 1
            continue
        failed += 1
        for comp in found:
            print('%s/: CYCLE between %s' % (folder, ', '.join(comp)))
            for (a, b), why in sorted(edges.items()):
                if a in comp and b in comp:
                    print('  %s -> %s: %s' % (a, b, '; '.join(sorted(set(why))[:4])))
    print('layers: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
