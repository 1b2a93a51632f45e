#!/usr/bin/env python3
"""Do the docs name what exists?  Checks README.md and docs/*.md.

    scripts/check-doc-refs.py [FILE.md ...]

Three kinds of reference, each must hold in the tree as it is:

  `path/file.c`, `fs/proc/`, `kernel/{fork,exit}.c`, `linux/rmap.h`
      a file or folder of the repository, when the path starts with one of
      its folders or names a header (linux/, asm/, uapi/, vdso/: under
      include/, include/uapi/ or arch/x86_64/include/); {a,b} alternatives
      and * globs are expanded; a name without extension is any file of
      that stem (a program's .c); build/ is made by the build, not checked.
  `function()`
      a function or function-like macro defined in the C sources, a GDB
      command of scripts/gdb, a program of user/ or a system call — unless
      the text just before it says it is Linux's (the docs name Linux's
      functions and files too).
  file.c:N followed by a line "N<tab>text" (GDB's listing)
      line N of that file holds that text.

Prints "ok N - ..." / "not ok N - ..." lines and exits 1 on a failure.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC_DIRS = ["arch", "boot", "include", "kernel", "fs", "mm", "lib", "user", "tests", "drivers", "block"]
TOP = set(SRC_DIRS) | {"scripts", "docs", "bench"}
HEADER_DIRS = {"linux", "asm", "uapi", "vdso"}
PATH = re.compile(r"`([A-Za-z0-9_.{},*-]+(?:/[A-Za-z0-9_.{},*-]*)+)`")
FUNC = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)\(\)`")
LINE_REF = re.compile(r"\bat ([\w/.-]+\.(?:c|h|asm|S)):(\d+)\s*$")
LISTING = re.compile(r"^(\d+)\t(.*)$")
# Words right before a function that say it is not foliOS's own.
FOREIGN = re.compile(r"(Linux|glibc|musl|BusyBox|Lua|SQLite|libc|POSIX)[^`]{0,40}$")


def expand(path):
    """{a,b} alternatives, one level deep, as the docs write them."""
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    return [p for alt in m.group(1).split(",")
            for p in expand(path[:m.start()] + alt + path[m.end():])]


def path_exists(path):
    bases = [""] if path.split("/")[0] in TOP else ["include/", "include/uapi/", "arch/x86_64/include/"]
    path = path.rstrip("/") or path
    stem = "" if "." in os.path.basename(path) or "*" in path else ".*"
    return any(glob.glob(os.path.join(ROOT, base + path)) or
               (stem and glob.glob(os.path.join(ROOT, base + path + stem))) for base in bases)


def defined_names():
    """Functions and function-like macros of the C sources; GDB commands; programs."""
    names = set()
    define = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)\(", re.M)
    func = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*?\)\s*(?:__\w+(?:\([^)]*\))?\s*)*\{",
                      re.M | re.S)
    gen = re.compile(r"\b(?:FOLIO_FLAG(?:_1)?|PAGEFLAG|TESTPAGEFLAG)\((\w+)")
    for d in SRC_DIRS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, d)):
            for f in files:
                if not f.endswith((".c", ".h")):
                    continue
                text = open(os.path.join(dirpath, f), errors="replace").read()
                names.update(define.findall(text))
                names.update(func.findall(text))
                for flag in gen.findall(text):
                    names.update({"folio_test_" + flag, "folio_set_" + flag, "folio_clear_" + flag})
                if dirpath.startswith(os.path.join(ROOT, "user")) and "int main(" in text:
                    names.add(os.path.splitext(f)[0])
    for f in glob.glob(os.path.join(ROOT, "scripts/gdb/**/*.py"), recursive=True):
        names.update(re.findall(r'super\(\)\.__init__\(\s*"([\w-]+)"', open(f).read()))
    unistd = os.path.join(ROOT, "include/uapi/asm/unistd_64.h")
    names.update(re.findall(r"#define __NR_(\w+)", open(unistd).read()))
    return names


def check(md, names, results):
    rel = os.path.relpath(md, ROOT)
    lines = open(md).read().split("\n")
    for i, line in enumerate(lines, 1):
        before = (lines[i - 2] + " ") if i > 1 else ""
        for m in PATH.finditer(line):
            p = m.group(1)
            first = p.split("/")[0]
            if (first not in TOP and first not in HEADER_DIRS) or first == "build" or \
               FOREIGN.search(before + line[:m.start()]):
                continue
            missing = [x for x in expand(p) if not path_exists(x)]
            if missing:
                results.append((False, f"{rel}:{i} names `{p}`: no {', '.join(missing)}"))
        for m in FUNC.finditer(line):
            name = m.group(1)
            if name in names or FOREIGN.search(before + line[:m.start()]):
                continue
            results.append((False, f"{rel}:{i} names `{name}()`: defined nowhere in the sources"))
        m = LINE_REF.search(line)
        if m and i < len(lines):
            listing = LISTING.match(lines[i])
            src = os.path.join(ROOT, m.group(1))
            if listing and listing.group(1) == m.group(2) and os.path.exists(src):
                have = open(src).read().split("\n")
                n = int(m.group(2))
                got = have[n - 1].strip() if n <= len(have) else None
                if got != listing.group(2).strip():
                    results.append((False, f"{rel}:{i} shows {m.group(1)}:{n} as "
                                           f"'{listing.group(2).strip()}', the file has '{got}'"))


def main():
    docs = sys.argv[1:] or [os.path.join(ROOT, "README.md")] + sorted(
        glob.glob(os.path.join(ROOT, "docs/*.md")))
    names = defined_names()
    results = []
    for md in docs:
        check(md, names, results)
    for n, (_, why) in enumerate(results, 1):
        print(f"not ok {n} - {why}")
    print(f"# {len(docs)} documents, {len(results)} references that do not hold")
    return 1 if results else 0


if __name__ == "__main__":
    sys.exit(main())
