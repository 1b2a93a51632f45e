#!/usr/bin/env python3
"""Check that the outputs shown in a Markdown document are what foliOS
prints, so the document never drifts.

    scripts/check-doc.py DOC.md [run-qemu.sh options...]

A checked block is a fenced block right after a comment line
    <!-- check: --run "/bin/tour" -->
The words after "check:" are run-qemu.sh's options.  Its output (kernel log
lines and the final "foliOS:" line left out) must equal the block, line by
line, once hex numbers (PFNs, addresses) are replaced by 0x_: they depend
on what else was allocated before.  Prints one TAP line per block.
"""
import re
import shlex
import subprocess
import sys

HEX = re.compile(r"0x[0-9a-f]+")
CHECK = re.compile(r"<!-- check: (.*) -->")


def blocks(path):
    lines = open(path).read().splitlines()
    i = 0
    while i < len(lines):
        m = CHECK.match(lines[i].strip())
        if m and i + 1 < len(lines) and lines[i + 1].startswith("```"):
            j = i + 2
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            yield i + 1, shlex.split(m.group(1)), lines[i + 2:j]
            i = j
        i += 1


def run(args, extra):
    out = subprocess.run(["./run-qemu.sh"] + extra + args, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=300).stdout
    keep = [l.rstrip("\r") for l in out.splitlines()]
    return [l for l in keep if not re.match(r"^\[ *\d+\.\d+\]", l) and not l.startswith("foliOS:")]


def main():
    path, extra = sys.argv[1], sys.argv[2:]
    n = failed = 0
    for line_no, args, expected in blocks(path):
        n += 1
        got = run(args, extra)
        norm = lambda ls: [HEX.sub("0x_", l) for l in ls]
        if norm(got) == norm(expected):
            print("ok %d - %s:%d %s" % (n, path, line_no, " ".join(args)))
            continue
        failed += 1
        print("not ok %d - %s:%d %s" % (n, path, line_no, " ".join(args)))
        for want, have in zip(norm(expected) + [""] * len(got), norm(got) + [""] * len(expected)):
            if want != have:
                print("#   doc: %s\n#   got: %s" % (want, have))
                break
    if not n:
        print("not ok 1 - %s has no checked blocks" % path)
        failed = 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
