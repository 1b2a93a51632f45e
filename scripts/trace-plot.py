#!/usr/bin/env python3
"""Draw a saved mapcount trace (/proc/mapcount_trace) as a timeline (PNG).

    scripts/trace-plot.py TRACE.txt OUT.png [TITLE]

Top panel: after each rmap operation, the folio's large mapcount and how
many of those mappings each MM ID slot holds (one line per mm, named by
MM ID), plus the mappings no slot accounts for ("untracked").  Bottom
panel: the "maybe mapped shared" bit.  The x axis names each operation
and the PID that did it.  Needs gnuplot (Debian: gnuplot-nox).
"""
import re
import subprocess
import sys
import tempfile

LINE = re.compile(
    r"#(?P<seq>\d+) pid=(?P<pid>\d+) mm=(?P<mm>\d+) (?P<op>\w+) nr=(?P<nr>-?\d+) "
    r"folio=(?P<folio>\S+) by (?P<caller>\S+): lm (?P<lm0>-?\d+)->(?P<lm>-?\d+) "
    r"(?:em|tmp) \S+ npm \S+ slot0 (?P<a0>\d+):(?P<am0>-?\d+)->(?P<id0>\d+):(?P<mc0>-?\d+) "
    r"slot1 (?P<a1>\d+):(?P<am1>-?\d+)->(?P<id1>\d+):(?P<mc1>-?\d+) "
    r"shared (?P<sh0>\d)->(?P<sh>\d)")


def parse(path):
    recs = []
    with open(path) as f:
        for line in f:
            m = LINE.search(line)
            if m:
                recs.append({k: (v if k in ("op", "folio", "caller") else int(v))
                             for k, v in m.groupdict().items()})
    if not recs:
        sys.exit(f"trace-plot: no trace records in {path}")
    return recs


def series(recs):
    """Per point (the state before the first record, then after each): counts per mm."""
    mms = sorted({r[k] for r in recs for k in ("a0", "a1", "id0", "id1") if r[k]})
    first = recs[0]
    states = [(first["lm0"], {first["a0"]: first["am0"], first["a1"]: first["am1"]},
               first["sh0"])]
    states += [(r["lm"], {r["id0"]: r["mc0"], r["id1"]: r["mc1"]}, r["sh"]) for r in recs]
    rows = []
    for x, (lm, slots, shared) in enumerate(states):
        per_mm = [slots.get(mm, 0) for mm in mms]
        untracked = lm - sum(v for k, v in slots.items() if k)
        rows.append([x, lm] + per_mm + [untracked, shared])
    return mms, rows


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    recs = parse(sys.argv[1])
    title = sys.argv[3] if len(sys.argv) > 3 else "mapcount trace"
    mms, rows = series(recs)
    labels = ['"start" 0'] + ['"%s\\npid %d" %d' % (r["op"], r["pid"], i + 1)
                              for i, r in enumerate(recs)]
    with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as dat:
        for row in rows:
            dat.write(" ".join(map(str, row)) + "\n")
    n = len(rows)
    plots = ['"%s" using 1:2 with steps lw 3 lc rgb "black" title "large mapcount"' % dat.name]
    owner = {r["mm"]: r["pid"] for r in recs if not r["op"].startswith("dup")}
    for i, mm in enumerate(mms):
        who = " (pid %d)" % owner[mm] if mm in owner else ""
        plots.append('"%s" using 1:%d with steps lw 2 title "slot: mm %d%s"'
                     % (dat.name, 3 + i, mm, who))
    plots.append('"%s" using 1:%d with steps lw 2 dt 2 lc rgb "red" title "untracked (no slot)"'
                 % (dat.name, 3 + len(mms)))
    script = f"""
set terminal pngcairo size {max(900, 110 * n)},720 font "DejaVu Sans,10" noenhanced
set output "{sys.argv[2]}"
set multiplot title "{title}" font ",13"
set lmargin 10
set rmargin 30
set size 1,0.63
set origin 0,0.32
set xrange [-0.5:{n - 0.5}]
set xtics ({", ".join(labels)}) font ",8"
set ylabel "mappings"
set key outside right
set grid ytics
plot {", ".join(plots)}
set size 1,0.28
set origin 0,0.03
set yrange [-0.2:1.2]
set ytics ("0" 0, "1" 1)
set ylabel "maybe shared"
plot "{dat.name}" using 1:{4 + len(mms)} with steps lw 3 lc rgb "blue" title "shared bit"
unset multiplot
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


if __name__ == "__main__":
    main()
