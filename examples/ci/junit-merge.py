#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Merge JUnit XML files into one, for a matrix split across CI runners.

    junit-merge.py OUT.xml IN.xml...

Each input is a `negcam-run --each-profile --junit` file (docs/matrix.md):
a <testsuites> holding <testsuite> elements, or a lone <testsuite>. The
output is one <testsuites> with every input's suites in the order given,
its tests, failures, errors and time the sums of theirs, so a CI's test
report shows the whole shelf as one run. Each suite's name gets its file's
name added (`negcam-run --each-profile [junit-2]`), so the report tells
the shards apart. Exit status 0, or
2 with one line naming a file that is missing or not JUnit XML.
"""
import os
import sys
import xml.etree.ElementTree as ET


def die(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)


def suites(path):
    """The <testsuite> elements of one JUnit file."""
    try:
        top = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        die(f"junit-merge.py: {path}: {e}")
    if top.tag == "testsuite":
        return [top]
    if top.tag != "testsuites":
        die(f"junit-merge.py: {path}: <{top.tag}> is not <testsuites> or <testsuite>")
    return top.findall("testsuite")


def main(argv):
    if len(argv) < 3:
        die("usage: junit-merge.py OUT.xml IN.xml...")
    out = ET.Element("testsuites")
    total = {"tests": 0, "failures": 0, "errors": 0}
    time = 0.0
    for path in argv[2:]:
        stem = os.path.splitext(os.path.basename(path))[0]
        for s in suites(path):
            s.set("name", f"{s.get('name', 'tests')} [{stem}]")
            for k in total:
                total[k] += int(s.get(k, "0"))
            time += float(s.get("time", "0"))
            out.append(s)
    for k, v in total.items():
        out.set(k, str(v))
    out.set("time", f"{time:.3f}")
    ET.indent(out)
    ET.ElementTree(out).write(argv[1], encoding="UTF-8", xml_declaration=True)
    print(f"junit-merge.py: {len(argv) - 2} files, {total['tests']} tests, "
          f"{total['failures']} failures, {total['errors']} errors -> {argv[1]}")


if __name__ == "__main__":
    main(sys.argv)
