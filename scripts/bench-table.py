#!/usr/bin/env python3
"""Turn bench_folio's lines (prefixed with the kernel) into the bench table.

The floor of fork and munmap (the bare page-table work, measured in the
kernel: bench_folio's "fork-floor" and "munmap-floor") gets its own columns.

    bench-table.py RAW OUTDIR

RAW lines: "KERNEL SIZE BENCH CYCLES REPS PAGES" or "KERNEL SIZE BENCH unbacked|nomem",
KERNEL one of page-mapcount, no-page-mapcount, linux.  Writes OUTDIR/bench.csv,
OUTDIR/bench.md and OUTDIR/bench.png (gnuplot: cycles per 4 KiB page by folio
size, one panel per benchmark, one line per kernel).  Exits 1 if a foliOS
number is missing (the harness is broken), not for Linux's unbacked sizes nor
for "nomem" (the machine is too small for that benchmark: said on stderr).
"""
import os
import subprocess
import sys

SIZES = ["4K", "16K", "64K", "256K", "2M-pte", "2M-pmd"]
BENCHES = ["fault", "fork", "munmap", "cow-byte", "reuse-byte", "child-reuse-byte"]
KERNELS = ["page-mapcount", "no-page-mapcount", "linux"]


def parse(path):
    """{(kernel, size, bench): (cycles or "unbacked"/"nomem", pages)}"""
    res = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 4 and w[0] in KERNELS:
                cycles = int(w[3]) if w[3].isdigit() else w[3]
                pages = int(w[5]) if len(w) > 5 else 0
                res[(w[0], w[1], w[2])] = (cycles, pages)
    return res


def ratio(a, b):
    return "%.2f" % (a / b) if type(a) is int and type(b) is int and a and b else ""


MISSING = (False, 0)     # no line at all (no Linux peer): an empty cell


def rows(res):
    """Table rows; a cell is cycles, "unbacked"/"nomem", or False (not run)."""
    for bench in BENCHES:
        for size in SIZES:
            pm, npm, lx = (res.get((k, size, bench), MISSING)[0] for k in KERNELS)
            pages = max(res.get((k, size, bench), MISSING)[1] for k in KERNELS)
            floor = res.get(("no-page-mapcount", size, bench + "-floor"), MISSING)[0]
            yield [bench, size, pm, npm, ratio(npm, pm), lx, ratio(npm, lx), floor,
                   ratio(npm, floor), pages]


def write_tables(res, out):
    head = ["benchmark", "folio", "page-mapcount", "no-page-mapcount", "npm/pm",
            "Linux", "foliOS(npm)/Linux", "floor", "npm/floor", "pages"]
    table = list(rows(res))
    with open(os.path.join(out, "bench.csv"), "w") as f:
        f.write(",".join(head) + "\n")
        for r in table:
            f.write(",".join("" if v is False else str(v) for v in r) + "\n")
    with open(os.path.join(out, "bench.md"), "w") as f:
        f.write("| " + " | ".join(head[:-1]) + " |\n|" + "---|" * (len(head) - 1) + "\n")
        for r in table:
            cells = ["" if v is False else
                     "{:,}".format(v).replace(",", " ") if type(v) is int else str(v)
                     for v in r[:-1]]
            f.write("| " + " | ".join(cells) + " |\n")
    return table


def plot(table, out):
    dat = os.path.join(out, "bench.dat")
    with open(dat, "w") as f:
        for bench in BENCHES:
            f.write("# %s\n" % bench)
            for i, size in enumerate(SIZES):
                r = next(r for r in table if r[0] == bench and r[1] == size)
                per = ["%.1f" % (v / r[9]) if type(v) is int and v and r[9] else "NaN"
                       for v in (r[2], r[3], r[5])]
                f.write("%d %s %s\n" % (i, size, " ".join(per)))
            f.write("\n\n")
    script = ['set terminal pngcairo size 1500,900 font "DejaVu Sans,10" noenhanced',
              'set output "%s"' % os.path.join(out, "bench.png"),
              'set multiplot layout 2,3 title "bench_folio: guest cycles per 4 KiB page '
              '(--icount; lower is better)"',
              'set logscale y', 'set grid', 'set key top right', 'set xrange [-0.5:5.5]']
    for i, bench in enumerate(BENCHES):
        script += ['set title "%s"' % bench,
                   'plot "%s" index %d using 1:3:xtic(2) with linespoints title "page-mapcount", '
                   '"" index %d using 1:4 with linespoints title "no-page-mapcount", '
                   '"" index %d using 1:5 with linespoints title "Linux"' % (dat, i, i, i)]
    script.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(script), text=True, check=True)


def main():
    raw, out = sys.argv[1], sys.argv[2]
    res = parse(raw)
    table = write_tables(res, out)
    plot(table, out)
    cells = {(k, s, b): res.get((k, s, b), MISSING)[0]
             for k in KERNELS[:2] for s in SIZES for b in BENCHES}
    nomem = [key for key, v in cells.items() if v == "nomem"]
    if nomem:
        print("bench-table: %d cases had no memory for them (nomem), e.g. %s" % (
            len(nomem), nomem[0]), file=sys.stderr)
    missing = [key for key, v in cells.items() if type(v) is not int and v != "nomem"]
    if missing:
        print("bench-table: no foliOS number for %d cases, e.g. %s" % (len(missing), missing[0]),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
