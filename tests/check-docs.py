#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""
tests/check-docs.py [--root DIR]: docs/architecture.md against the tree.
tests/check-docs.py --self-test: proves it fails on a copy of the tree with
an unlisted file, a listed file removed and a folder rule changed, and
passes on the real tree; prints "docs-selftest: N passed, N failed".

Three things are checked, one line each:
 - the folder table ("Which folder may use which") is FOLDERS of
   tests/check-layers.py, read from that file, not copied: one row per
   folder with the same folders it may use ("nothing" for none, "anything"
   for a folder FOLDERS leaves free); a row marked "(data)" is a folder
   without code, so it must hold no .c or .h file and stands in no rule;
 - every .c and .h file of a production folder (FOLDERS with a rule) is
   named in the first column of a table in its folder's section
   ("## engine/ ...", "## kmod/ ..."); a file without its line fails
   with the table it belongs in;
 - every file named in a file table exists, and every .c or .h name the
   page quotes in backticks (`negcam-thread.c`, `engine/fract.h`) is a file
   of the tree, so the page never names a file that has gone.
The tree's files are git's (tracked, or untracked and not ignored) in a
git checkout, else every file under the folders: generated files such as
kmod/engine-*.c never count.
Prints "docs: N passed, N failed".
"""
import fnmatch
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = 'docs/architecture.md'
SOURCE_RE = re.compile(r'\.[ch]$')
# A file name the page quotes: lower case, a folder part allowed.
QUOTED_RE = re.compile(r'`([a-z0-9_./-]+\.[ch])`')


def load_folders(root):
    """FOLDERS of root's tests/check-layers.py, the one copy of the table."""
    spec = importlib.util.spec_from_file_location('check_layers', os.path.join(root, 'tests', 'check-layers.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.FOLDERS


def tree_files(root, folders):
    """Relative paths of the files under @folders: git's view in a checkout."""
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-co', '--exclude-standard', '--'] + folders,
                             capture_output=True, text=True, check=True).stdout
        top = subprocess.run(['git', '-C', root, 'rev-parse', '--show-toplevel'],
                             capture_output=True, text=True, check=True).stdout.strip()
        if os.path.realpath(top) == os.path.realpath(root):
            return sorted(set(out.split('\n')) - {''})
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for folder in folders:
        for d, _dirs, names in os.walk(os.path.join(root, folder)):
            found += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return sorted(f for f in found if not ignored(root, f))


def ignored(root, rel):
    """@rel matches a pattern of root's .gitignore (build products such as
    kmod/engine-*.c in a tree that is no git checkout)."""
    try:
        patterns = open(os.path.join(root, '.gitignore'), encoding='utf-8').read().split('\n')
    except OSError:
        return False
    for pat in (p.strip() for p in patterns):
        if not pat or pat.startswith(('#', '!')) or pat.endswith('/'):
            continue
        if fnmatch.fnmatch(rel, pat[1:]) if pat.startswith('/') else fnmatch.fnmatch(os.path.basename(rel), pat):
            return True
    return False


def sections(text):
    """[(heading, [lines])] of the page's "## " sections, code blocks blanked."""
    out, in_code = [('', [])], False
    for line in text.split('\n'):
        if line.startswith('```'):
            in_code = not in_code
            line = ''
        elif in_code:
            line = ''
        if line.startswith('## '):
            out.append((line[3:].strip(), []))
        else:
            out[-1][1].append(line)
    return out


def table_rows(lines):
    """Cells of each table row in @lines (not the header's rule line)."""
    rows = []
    for line in lines:
        if line.startswith('|') and not re.match(r'^\|[-| :]+\|$', line):
            rows.append([c.strip() for c in line.strip().strip('|').split('|')])
    return rows


def folder_table(secs):
    """{folder: set of folders | None | 'data'} from "Which folder may use which"."""
    table = {}
    for head, lines in secs:
        if head != 'Which folder may use which':
            continue
        for cells in table_rows(lines)[1:]:
            if len(cells) < 3:
                continue
            may = cells[2]
            if may.startswith('(data)'):
                rule = 'data'
            elif may.startswith('anything'):
                rule = None
            elif may.startswith('nothing'):
                rule = set()
            else:
                rule = set(re.findall(r'`([a-z0-9_-]+)/`', may))
            for folder in re.findall(r'`([a-z0-9_-]+)/`', cells[0]):
                table[folder] = rule
    return table


def file_tables(secs, production):
    """{folder: {name: line}} of the names in the first column of each
    folder section's tables."""
    listed = {f: {} for f in production}
    for head, lines in secs:
        m = re.match(r'`?([a-z0-9_-]+)/', head)
        if not m or m.group(1) not in listed:
            continue
        for cells in table_rows(lines):
            for name in re.findall(r'`([^`]+)`', cells[0]):
                if SOURCE_RE.search(name):
                    listed[m.group(1)][name] = head
    return listed


def check_folder_table(folders, table, files):
    """(passed, failed, lines): the page's folder table is FOLDERS."""
    passed = failed = 0
    lines = []
    def show(rule):
        return 'anything' if rule is None else ', '.join(sorted(rule)) or 'nothing'
    for folder, rule in folders.items():
        if folder not in table:
            failed += 1
            lines.append('FAIL: folder %s/ (check-layers.py: may use %s) has no row in the folder table of %s'
                         % (folder, show(rule), DOC))
        elif table[folder] != rule:
            failed += 1
            lines.append('FAIL: folder %s/ may use %s in check-layers.py, %s in the folder table of %s'
                         % (folder, show(rule), 'data' if table[folder] == 'data' else show(table[folder]), DOC))
        else:
            passed += 1
    for folder, rule in table.items():
        if folder in folders:
            continue
        code = [f for f in files if f.startswith(folder + '/') and SOURCE_RE.search(f)]
        if rule == 'data' and not code:
            passed += 1
        elif rule == 'data':
            failed += 1
            lines.append('FAIL: folder %s/ is "(data)" in %s but holds code (%s): give it a rule in '
                         'check-layers.py FOLDERS and the table' % (folder, DOC, code[0]))
        else:
            failed += 1
            lines.append('FAIL: folder %s/ is in the folder table of %s but not in check-layers.py FOLDERS'
                         % (folder, DOC))
    return passed, failed, lines


def check_files(root, production, listed, quoted, files):
    """(passed, failed, lines): each source listed, each named file there."""
    passed = failed = 0
    lines = []
    sources = [f for f in files if SOURCE_RE.search(f) and f.split('/')[0] in production]
    for path in sources:
        folder, name = path.split('/', 1)
        if name in listed[folder]:
            passed += 1
            continue
        failed += 1
        lines.append('FAIL: %s is not in %s: add a line for it to the %s/ file table (section "## %s/")'
                     % (path, DOC, folder, folder))
    have = set(files)
    for folder in production:
        for name, head in sorted(listed[folder].items()):
            if '%s/%s' % (folder, name) not in have:
                failed += 1
                lines.append('FAIL: %s/%s is in the %s/ file table of %s (section "## %s") but not in the tree'
                             % (folder, name, folder, DOC, head))
    basenames = {os.path.basename(f) for f in files}
    for lineno, name in quoted:
        # a path must be that file; a bare name, a file of that name
        if name in have or os.path.isfile(os.path.join(root, name)) or (
                '/' not in name and name in basenames):
            passed += 1
            continue
        failed += 1
        lines.append('FAIL: %s:%d names %s, which is no file of the tree' % (DOC, lineno, name))
    return passed, failed, lines


def check(root):
    folders = load_folders(root)
    production = [f for f, may in folders.items() if may is not None]
    text = open(os.path.join(root, DOC), encoding='utf-8').read()
    secs = sections(text)
    table = folder_table(secs)
    outside = sorted(set(folders) | {f for f in table if f not in folders})
    files = tree_files(root, [f for f in outside if os.path.isdir(os.path.join(root, f))])
    quoted = []
    in_code = False
    for lineno, line in enumerate(text.split('\n'), 1):
        if line.startswith('```'):
            in_code = not in_code
        elif not in_code:
            quoted += [(lineno, n) for n in QUOTED_RE.findall(line)]
    p1, f1, l1 = check_folder_table(folders, table, files)
    p2, f2, l2 = check_files(root, production, file_tables(secs, production), quoted, files)
    return p1 + p2, f1 + f2, l1 + l2


def copy_tree(root, tmp):
    """The files the check reads, copied into @tmp (not a git checkout)."""
    folders = load_folders(root)
    wanted = tree_files(root, [f for f in folders if os.path.isdir(os.path.join(root, f))] + ['data', 'docs'])
    for rel in wanted + ['tests/check-layers.py', DOC]:
        src = os.path.join(root, rel)
        if os.path.isfile(src) and (SOURCE_RE.search(rel) or rel in ('tests/check-layers.py', DOC)):
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            shutil.copyfile(src, os.path.join(tmp, rel))


# The self-test's breaks of a copy of the tree: each returns what every
# failure line must name.
def break_unlisted(tmp):
    with open(os.path.join(tmp, 'kmod', 'negcam-selftest-extra.c'), 'w', encoding='utf-8') as out:
        out.write('// SPDX-License-Identifier: GPL-2.0-only\n')
    return 'kmod/negcam-selftest-extra.c'


def break_removed(tmp):
    os.remove(os.path.join(tmp, 'kmod', 'negcam-loop-live.c'))
    return 'negcam-loop-live.c'


def break_rule(tmp):
    path = os.path.join(tmp, 'tests', 'check-layers.py')
    text = open(path, encoding='utf-8').read()
    open(path, 'w', encoding='utf-8').write(text.replace("'kmod': {'engine'}", "'kmod': {'engine', 'user'}"))
    return 'folder kmod/'


def quiet(lines):
    """The broken copy's report, as the self-test shows it: in lower case
    and indented, so that a log reader looking for FAIL finds real failures
    only."""
    return ['   the copy: ' + l.replace('FAIL:', 'fails:') for l in lines]


def self_test():
    checks = fails = 0

    def expect(what, ok):
        nonlocal checks, fails
        checks += 1
        fails += 0 if ok else 1
        print('%s: %s' % ('ok' if ok else 'FAIL', what))

    _p, f, _l = check(ROOT)
    expect('the real tree passes (%d failed)' % f, f == 0)
    with tempfile.TemporaryDirectory(prefix='negcam-docs.') as tmp:
        copy_tree(ROOT, tmp)
        _p, f, lines = check(tmp)
        expect('its copy passes (%d failed)' % f, f == 0)
        if lines:
            print('\n'.join(quiet(lines)))
    for what, brk in (('an unlisted file', break_unlisted), ('a listed file removed', break_removed),
                      ('a folder rule changed in check-layers.py', break_rule)):
        with tempfile.TemporaryDirectory(prefix='negcam-docs.') as tmp:
            copy_tree(ROOT, tmp)
            named = brk(tmp)
            _p, f, lines = check(tmp)
            print('--- %s: %s' % (what, named))
            print('\n'.join(quiet(lines)))
            expect('%s fails the check, naming %s' % (what, named),
                   f >= 1 and all(named in l for l in lines) and len(lines) == f)
    print('docs-selftest: %d passed, %d failed' % (checks - fails, fails))
    return 1 if fails else 0


def main():
    args = sys.argv[1:]
    if args[:1] == ['--self-test']:
        return self_test()
    root = ROOT
    if args[:1] == ['--root']:
        root = os.path.abspath(args[1])
    passed, failed, lines = check(root)
    if lines:
        print('\n'.join(lines))
    print('docs: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
