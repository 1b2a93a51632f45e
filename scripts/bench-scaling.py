#!/usr/bin/env python3
"""The scaling table of make bench: fork and munmap of PTE-mapped 2M folios
as the region grows, per kernel, with the least-squares slope per MiB and the
worst deviation from that line (a linear cost stays within a few percent).

    bench-scaling.py RAW OUTDIR

RAW lines: "KERNEL MIB SIZE BENCH CYCLES REPS PAGES" (or "... unbacked").
Writes OUTDIR/scaling.md and OUTDIR/scaling.csv.  A size Linux did not back
with THPs that time shows "unbacked" and the line is fitted through the
others (at least two).  Exits 1 if a foliOS number is missing.
"""
import os
import sys

KERNELS = ["page-mapcount", "no-page-mapcount", "linux"]


def fit(points):
    """Slope and intercept of the least-squares line through (x, y) points."""
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return slope, (sy - slope * sx) / n


def main():
    raw, out = sys.argv[1], sys.argv[2]
    data = {}
    for line in open(raw):
        w = line.split()
        if len(w) >= 5 and w[0] in KERNELS:
            data.setdefault((w[0], w[3]), {})[int(w[1])] = int(w[4]) if w[4].isdigit() else w[4]
    sizes = sorted({m for d in data.values() for m in d})
    md = ["| kernel | benchmark | " + " | ".join("%d MiB" % m for m in sizes) +
          " | cycles per MiB | worst deviation from the line |",
          "|---|---|" + "---|" * (len(sizes) + 2)]
    csv = ["kernel,benchmark," + ",".join(str(m) for m in sizes) + ",slope_per_mib,max_dev"]
    missing = 0
    for k in KERNELS:
        for b in ("fork", "munmap"):
            d = data.get((k, b), {})
            got = [m for m in sizes if type(d.get(m)) is int]
            if len(got) < len(sizes) and k != "linux" or len(got) < 2:
                missing += k != "linux"
                continue
            slope, icpt = fit([(m, d[m]) for m in got])
            dev = max(abs(d[m] - (slope * m + icpt)) / d[m] for m in got)
            cells = ["{:,}".format(d[m]).replace(",", " ") if m in got else str(d.get(m, ""))
                     for m in sizes]
            md.append("| %s | %s | %s | %s | %.1f %% |" % (
                k, b, " | ".join(cells), "{:,.0f}".format(slope).replace(",", " "), 100 * dev))
            csv.append("%s,%s,%s,%.0f,%.4f" % (k, b, ",".join(str(d.get(m, "")) for m in sizes),
                                               slope, dev))
    open(os.path.join(out, "scaling.md"), "w").write("\n".join(md) + "\n")
    open(os.path.join(out, "scaling.csv"), "w").write("\n".join(csv) + "\n")
    if missing:
        print("bench-scaling: %d foliOS rows incomplete" % missing, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
