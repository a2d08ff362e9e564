#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""The steps of a GitHub Actions workflow as a runner would run them, for
tests/pw/ci-recipe.sh: the file examples/ci/github-actions.yml is what is
tested, not a copy of its commands.

    ci-steps.py WORKFLOW.yml

Prints one step per record, NUL-terminated, as `JOB<TAB>KIND<TAB>TEXT`:
KIND `run` (TEXT: the shell script, `${{ matrix.X }}` replaced), or `uses`
(TEXT: the action, e.g. actions/download-artifact@v4), for every job in
the file's order, once per combination of its matrix (one axis). Job
`needs` are checked to point backwards, so running the records in order
honours them. Exit status 2 with one line for what it cannot handle.
"""
import re
import sys

import yaml


def combos(job):
    """The matrix values of a job: [{}] without a matrix, one axis at most."""
    m = (job.get("strategy") or {}).get("matrix") or {}
    if not m:
        return [{}]
    if len(m) != 1:
        sys.exit("ci-steps.py: a matrix of more than one axis")
    (axis, values), = m.items()
    return [{axis: v} for v in values]


def expand(text, values):
    def one(mo):
        key = mo.group(1)
        if key not in values:
            sys.exit(f"ci-steps.py: unknown expression matrix.{key}")
        return str(values[key])
    return re.sub(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", one, text)


def main(path):
    with open(path) as f:
        wf = yaml.safe_load(f)
    seen = []
    for name, job in wf["jobs"].items():
        needs = job.get("needs") or []
        for n in [needs] if isinstance(needs, str) else needs:
            if n not in seen:
                sys.exit(f"ci-steps.py: job {name} needs {n}, which is not before it")
        seen.append(name)
        for values in combos(job):
            for step in job["steps"]:
                kind = "run" if "run" in step else "uses"
                text = expand(step[kind], values)
                sys.stdout.write(f"{name}\t{kind}\t{text}\0")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: ci-steps.py WORKFLOW.yml")
    main(sys.argv[1])
