#!/usr/bin/env python3
"""The include graph between foliOS's top-level folders.

    scripts/include-graph.py [--files] [--dot]

Reads every #include of the kernel's C sources and headers, resolves it the
way the kernel build does (the including file's folder, then -iquote include,
then -I., then arch/x86_64/include for <asm/...>), and prints one line per
folder-to-folder edge with the number of includes behind it.  Then it lists
every circle between folders; arch/ may form one with the folders whose hooks
it implements (Linux's arch hooks), any other circle is a layering bug and
makes the script exit 1.  --files also names the includes behind each edge;
--dot prints the graph for graphviz instead.
"""
import os
import re
import sys

FOLDERS = ["arch", "include", "lib", "kernel", "fs", "mm"]
SEARCH = ["include", ".", "arch/x86_64/include"]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def top(path):
    return path.split("/", 1)[0]


def resolve(src, quote, name):
    dirs = ([os.path.dirname(src)] if quote == '"' else []) + SEARCH
    for d in dirs:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(p):
            return p
    return None


def sources():
    for folder in FOLDERS:
        for root, _, files in os.walk(folder):
            for f in files:
                if f.endswith((".c", ".h")):
                    yield os.path.join(root, f)


def edges():
    out = {}
    for src in sources():
        with open(src, errors="replace") as fh:
            text = fh.read()
        for quote, name in INCLUDE.findall(text):
            dst = resolve(src, quote, name)
            if not dst or top(dst) not in FOLDERS or top(dst) == top(src):
                continue
            out.setdefault((top(src), top(dst)), []).append(f"{src} -> {dst}")
    return out


def circles(graph):
    """Every elementary circle, as a tuple of folders, smallest first."""
    found = set()

    def walk(start, node, path):
        for (a, b) in graph:
            if a != node:
                continue
            if b == start:
                i = path.index(min(path))
                found.add(tuple(path[i:] + path[:i]))
            elif b not in path and FOLDERS.index(b) > FOLDERS.index(start):
                walk(start, b, path + [b])

    for f in FOLDERS:
        walk(f, f, [f])
    return sorted(found, key=len)


def main():
    graph = edges()
    if "--dot" in sys.argv:
        print("digraph folders {")
        for (a, b), why in sorted(graph.items()):
            print(f'  "{a}" -> "{b}" [label="{len(why)}"];')
        print("}")
        return 0
    for (a, b), why in sorted(graph.items(), key=lambda e: (FOLDERS.index(e[0][0]), FOLDERS.index(e[0][1]))):
        print(f"{a:8s} -> {b:8s} {len(why):4d}")
        if "--files" in sys.argv:
            for w in sorted(why):
                print(f"    {w}")
    bad = 0
    for c in circles(graph):
        arch = "arch" in c
        bad += not arch
        print("circle: " + " -> ".join(c + (c[0],)) + ("  (arch hooks)" if arch else "  (layering bug)"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
