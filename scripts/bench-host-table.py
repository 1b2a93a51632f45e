#!/usr/bin/env python3
"""Turn bench_mm's lines (and bench_rmap's, prefixed "# ") into the host table.

    bench-host-table.py RAW OUTDIR

RAW lines: "bench_mm MODE SIZE BENCH hot|cold NS REPS PAGES" (or "... unbacked").
Writes OUTDIR/host.csv and OUTDIR/host.md: rows benchmark x folio size x
cache state; columns page-mapcount ns, no-page-mapcount ns, their ratio, and
no-page-mapcount ns per 4 KiB page; then bench_rmap's output as it printed
it.  Exits 1 if a number is missing (the harness is broken).
"""
import os
import sys

SIZES = ["4K", "16K", "64K", "256K", "2M-pte", "2M-pmd"]
MODES = ["page-mapcount", "no-page-mapcount"]


def main():
    raw, out = sys.argv[1], sys.argv[2]
    res, rmap, order = {}, [], []
    with open(raw) as f:
        for line in f:
            w = line.split()
            if line.startswith("# "):
                rmap.append(line[2:].rstrip("\n"))
            elif len(w) >= 6 and w[0] == "bench_mm" and w[1] in MODES:
                key = (w[3], w[2], w[4])
                if key not in order:
                    order.append(key)
                res[(w[1],) + key] = (int(w[5]), int(w[7])) if w[5].isdigit() else (None, 0)
    rows, missing = [], 0
    for bench, size, temp in sorted(order, key=lambda k: (k[0] != "fork", SIZES.index(k[1]), k[2] != "hot")):
        pm, _ = res.get(("page-mapcount", bench, size, temp), (None, 0))
        npm, pages = res.get(("no-page-mapcount", bench, size, temp), (None, 0))
        missing += pm is None or npm is None
        rows.append([bench, size, temp, pm or "unbacked", npm or "unbacked",
                     "%.2f" % (npm / pm) if pm and npm else "",
                     "%.2f" % (npm / pages) if npm and pages else ""])
    head = ["benchmark", "folio", "caches", "page-mapcount ns", "no-page-mapcount ns", "npm/pm",
            "npm ns/page"]
    with open(os.path.join(out, "host.csv"), "w") as f:
        f.write(",".join(head) + "\n")
        for r in rows:
            f.write(",".join(str(c) for c in r) + "\n")
    fmt = lambda c: "{:,}".format(c).replace(",", " ") if isinstance(c, int) else c
    with open(os.path.join(out, "host.md"), "w") as f:
        f.write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
        for r in rows:
            f.write("| " + " | ".join(fmt(c) for c in r) + " |\n")
        if rmap:
            f.write("\nbench_rmap (the rmap calls alone, one folio, hot):\n\n```\n")
            f.write("\n".join(rmap) + "\n```\n")
    if not rows or missing:
        print("bench-host-table: %d numbers missing" % missing, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
