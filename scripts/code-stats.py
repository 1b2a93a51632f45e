#!/usr/bin/env python3
"""Size measures of the kernel's code, as the architecture issue counts them.

    scripts/code-stats.py [-v]

Prints the files over 500 lines, the functions over 40 lines (a function is
counted from its opening '{' in column 0 to the matching '}' in column 0),
the number of errno values defined more than once, and the number of switches
or comparisons on a file's type (f->type).  -v names each one.
"""
import os
import re
import sys

FOLDERS = ["boot", "arch", "include", "lib", "kernel", "fs", "mm"]
FUNC_NAME = re.compile(r"(\w+)\s*\([^;]*$")


def sources():
    for folder in FOLDERS:
        for root, _, files in os.walk(folder):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(root, f)


def long_functions(path, lines):
    out, start, name = [], None, None
    for i, line in enumerate(lines):
        if line.startswith("{") and i:
            start = i
            for back in range(i - 1, max(i - 4, -1), -1):
                m = FUNC_NAME.search(lines[back])
                if m:
                    name = m.group(1)
                    break
        elif line.startswith("}") and start is not None:
            n = i - start + 1
            if n > 40:
                out.append((path, name, n))
            start = None
    return out


def main():
    verbose = "-v" in sys.argv
    big, funcs, errnos, switches = [], [], {}, []
    for path in sources():
        with open(path, errors="replace") as fh:
            lines = fh.read().split("\n")
        if len(lines) - 1 > 500:
            big.append((path, len(lines) - 1))
        funcs += long_functions(path, lines)
        for i, line in enumerate(lines):
            m = re.match(r"\s*#\s*define\s+(E[A-Z0-9]+)\s+\d+", line)
            if m:
                errnos.setdefault(m.group(1), []).append(f"{path}:{i + 1}")
            if re.search(r"\bf(ile)?->type\b", line):
                switches.append(f"{path}:{i + 1}: {line.strip()}")
    dup = {k: v for k, v in errnos.items() if len(v) > 1}
    print(f"files over 500 lines: {len(big)}")
    if verbose:
        for p, n in big:
            print(f"    {p}: {n}")
    print(f"functions over 40 lines: {len(funcs)}")
    if verbose:
        for p, name, n in funcs:
            print(f"    {p}: {name} ({n})")
    print(f"errno values defined: {len(errnos)}, in files: "
          f"{len({d.split(':')[0] for v in errnos.values() for d in v})}, more than once: {len(dup)}")
    if verbose:
        for k, v in sorted(dup.items()):
            print(f"    {k}: {', '.join(v)}")
    print(f"uses of a file's type (f->type): {len(switches)}")
    if verbose:
        for s in switches:
            print(f"    {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
