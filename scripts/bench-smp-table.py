#!/usr/bin/env python3
"""Turn usemem's and page_fault1's lines (prefixed "KERNEL N") into the SMP table.

    bench-smp-table.py RAW OUTDIR

RAW lines, as scripts/bench-smp.sh collects them:
  "KERNEL N usemem PATTERN FOLIO cpus=C children=.. mib=.. pages_per_s=P ..."
  "KERNEL N page_fault1 KIND FOLIO cpus=C tasks=.. mib=.. pages_per_s=P ..."
  "KERNEL N usemem ... unbacked" / "... unsupported" (no number)
  "KERNEL N lock_stat BENCHMARK | LINE" (/proc/lock_stat after one benchmark)
Per (benchmark, kernel, N): the median of pages_per_s over the repetitions,
the spread (min-max as a percentage of the median), the scaling efficiency
T(N) / (N * T(1)), and the mapcount bit lock's contentions and spins over
that benchmark's repetitions (/proc/lock_stat, cleared before them) when the
kernel shows it.  A run whose guest had fewer CPUs online than asked
(cpus=C < N: sysconf, i.e. sched_getaffinity) is shown as such, without a number.  Writes OUTDIR/smp.md and
OUTDIR/smp.csv.
"""
import collections
import os
import re
import statistics
import sys

KERNELS = ["page-mapcount", "no-page-mapcount", "linux"]
ORDER = ["usemem seq 4K", "usemem rand 4K", "usemem seq 2M-pte", "usemem rand 2M-pte",
         "page_fault1 process 4K", "page_fault1 thread 4K"]


def parse_lock_stat(text, acc):
    """Fold one /proc/lock_stat line into acc = [contentions, spins]: the
    mapcount bit lock's row gives its contentions, its per-CPU lines
    ("cpuN: ... spins S ...") the spins."""
    text = text.strip()
    m = re.match(r"cpu\d+:.*\bspins (\d+)", text)
    if m:
        acc[1] += int(m.group(1))
        return
    m = re.match(r"folio mapcount bit lock:\s+(\d+)", text)
    if m:
        acc[0] = int(m.group(1))


def parse(path):
    """runs {(bench, kernel, n): [pages_per_s...]}, notes {key: [why...]}, online, spins"""
    runs, notes = collections.defaultdict(list), collections.defaultdict(list)
    online, spins = {}, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 4:
                continue
            kernel, n, prog = w[0], int(w[1]), w[2]
            if prog == "lock_stat":
                bench, _, text = line.split(None, 3)[3].partition(" | ")
                parse_lock_stat(text, spins.setdefault((bench.strip(), kernel, n), [None, 0]))
                continue
            if len(w) < 6:
                continue
            key = (f"{prog} {w[3]} {w[4]}", kernel, n)
            fields = dict(x.split("=", 1) for x in w[5:] if "=" in x)
            online[key] = int(fields.get("cpus", n))
            if "pages_per_s" in fields:
                runs[key].append(float(fields["pages_per_s"]))
            else:
                notes[key].append(w[-1])
    return runs, notes, online, spins


def cell(runs, notes, online, key):
    """(median, spread %, note) of one (bench, kernel, n)."""
    if online.get(key, key[2]) < key[2]:
        return None, None, f"{online[key]} CPU seen"
    if key not in runs:
        return None, None, notes[key][0] if notes.get(key) else "-"
    v = runs[key]
    med = statistics.median(v)
    note = f" ({len(notes[key])} of {len(v) + len(notes[key])} {notes[key][0]})" if notes.get(key) else ""
    return med, 100.0 * (max(v) - min(v)) / med if med else 0.0, note


def main():
    raw, outdir = sys.argv[1], sys.argv[2]
    runs, notes, online, spins = parse(raw)
    keys = set(runs) | set(notes)
    benches = sorted({k[0] for k in keys}, key=lambda b: (ORDER + [b]).index(b))
    cpus = sorted({k[2] for k in keys})
    kernels = [k for k in KERNELS if any(key[1] == k for key in keys)]
    show_spins = bool(spins)
    head = "| benchmark | kernel | CPUs | pages/s (median) | spread (min-max) | efficiency |"
    head += " bit lock contentions / spins |" if show_spins else ""
    md = [head, "|---|---|---:|---:|---:|---:|" + ("---:|" if show_spins else "")]
    csv = ["benchmark,kernel,cpus,pages_per_s_median,spread_pct,efficiency,runs,bitlock_contentions_spins"]
    for b in benches:
        for k in kernels:
            base, _, _ = cell(runs, notes, online, (b, k, 1))
            for n in cpus:
                med, spread, note = cell(runs, notes, online, (b, k, n))
                eff = med / (n * base) if med and base else None
                st = spins.get((b, k, n))
                sp = None if st is None or st[0] is None else f"{st[0]} / {st[1]}"
                num = f"{med:,.0f}".replace(",", " ") + note if med else note
                md.append(f"| {b} | {k} | {n} | {num} | "
                          f"{f'{spread:.1f} %' if spread is not None else ''} | "
                          f"{f'{eff:.2f}' if eff else ''} |" +
                          (f" {sp if sp is not None else ''} |" if show_spins else ""))
                csv.append(f"{b},{k},{n},{med or ''},{'' if spread is None else f'{spread:.1f}'},"
                           f"{'' if eff is None else f'{eff:.3f}'},{len(runs.get((b, k, n), []))},"
                           f"{'' if sp is None else sp}")
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "smp.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(outdir, "smp.csv"), "w") as f:
        f.write("\n".join(csv) + "\n")


if __name__ == "__main__":
    main()
