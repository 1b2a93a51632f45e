#!/usr/bin/env python3
"""The table and the plot of make mapcount-report (scripts/mapcount-report.sh).

mapcount-report.py SHADOW_TXT BENCH_MD OUTDIR COMMIT

SHADOW_TXT: "VARIANT<TAB>WORKLOAD<TAB>line of /proc/mapcount_report";
BENCH_MD: scripts/bench-mapcount.sh's table, taken as it is.  Writes
OUTDIR/mapcount-report.md and OUTDIR/pictures/mapcount-report.png (gnuplot).
"""
import re
import subprocess
import sys

VARIANTS = ["page-mapcount", "no-page-mapcount", "mapcount-pages"]


def parse_shadow(path):
    """{(variant, workload): {key: value}} from the report lines."""
    res = {}
    for line in open(path):
        variant, workload, text = line.rstrip("\n").split("\t", 2)
        d = res.setdefault((variant, workload), {})
        key, rest = text.split(":", 1)
        if key in ("variant", "shadow"):
            d[key] = rest.strip()
        elif key == "changes":
            d["changes"] = int(rest)
        else:
            for name, num in re.findall(r"(\w+) (\d+)", rest):
                d[key + "." + name] = int(num)
    return res


def pct(part, whole):
    return "%.1f %%" % (100.0 * part / whole) if whole else "—"


def shadow_tables(shadow, workloads):
    rows = ["| workload | variant | rmap changes | false \"maybe shared\" | "
            "false \"exclusive\" | partial, not queued | kpagecount/Pss wrong | "
            "USS wrong |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for w in workloads:
        for v in VARIANTS:
            d = shadow.get((v, w))
            if not d or d.get("shadow") != "on":
                rows.append("| %s | %s | (no run) | | | | | |" % (w, v))
                continue
            rows.append("| %s | %s | %d | %d of %d (%s) | %d | %d of %d (%s) | %d of %d pages (%s) | %d (%s) |" % (
                w, v, d["changes"], d["maybe_shared.false_shared"],
                d["maybe_shared.answers"],
                pct(d["maybe_shared.false_shared"], d["maybe_shared.answers"]),
                d["maybe_shared.false_exclusive"], d["partially_mapped.missed"],
                d["partially_mapped.removals"],
                pct(d["partially_mapped.missed"], d["partially_mapped.removals"]),
                d["kpagecount.wrong"], d["kpagecount.pages"],
                pct(d["kpagecount.wrong"], d["kpagecount.pages"]), d["uss.wrong"],
                pct(d["uss.wrong"], d["uss.pages"])))
    return rows


def plot(shadow, workloads, outdir):
    """Two panels of bars, a group per workload, a bar per variant: the share
    of wrong folio-level answers, and of pages whose kpagecount/Pss is wrong."""
    dat = outdir + "/pictures/mapcount-report.dat"
    with open(dat, "w") as f:
        f.write("workload " + " ".join(['"%s"' % v for v in VARIANTS] * 2) + "\n")
        for w in workloads:
            folio, page = [], []
            for v in VARIANTS:
                d = shadow.get((v, w), {})
                wrong = d.get("maybe_shared.false_shared", 0) + d.get("partially_mapped.missed", 0)
                total = d.get("maybe_shared.answers", 0) + d.get("partially_mapped.removals", 0)
                folio.append("%.2f" % (100.0 * wrong / total if total else 0))
                pages = d.get("kpagecount.pages", 0)
                page.append("%.2f" % (100.0 * d.get("kpagecount.wrong", 0) / pages if pages else 0))
            f.write('"%s" %s %s\n' % (w, " ".join(folio), " ".join(page)))
    script = """set terminal png size 1200,460
set output '%s/pictures/mapcount-report.png'
set multiplot layout 1,2
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside below horizontal
set xtics rotate by -25
set ylabel '%% of the answers'
set title "folios: false 'maybe shared' + partially mapped, not queued"
plot '%s' using 2:xtic(1) title columnheader, '' using 3 title columnheader, '' using 4 title columnheader
set ylabel '%% of the mapped pages checked'
set title "pages: kpagecount / Pss mapcount not the exact one"
plot '%s' using 5:xtic(1) title columnheader, '' using 6 title columnheader, '' using 7 title columnheader
unset multiplot
""" % (outdir, dat, dat)
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def main():
    shadow_path, bench_path, outdir, commit = sys.argv[1:5]
    shadow = parse_shadow(shadow_path)
    workloads = []
    for (_, w) in shadow:
        if w not in workloads:
            workloads.append(w)
    lines = ["# The three mapcount schemes side by side", "",
             "Written by `make mapcount-report` (`scripts/mapcount-report.sh`) on " + commit + ". Each workload "
             "runs on each variant booted with the shadow exact counter "
             "(`mapcount_shadow`, `mm/mapcount_shadow.c`), on one CPU, 1 GiB. After every "
             "rmap change of a large anon folio, the shadow compares the scheme's answers "
             "with the truth:",
             "",
             "- **false \"maybe shared\"**: `folio_maybe_mapped_shared()` says shared "
             "while one mm maps the folio (COW copies a page it could reuse). A false "
             "\"exclusive\" would be a bug (a reuse of a shared page), so it must be 0.",
             "- **partial, not queued**: an unmap leaves some pages of the folio mapped "
             "and some not, and the folio is not on the deferred split queue (its unmapped "
             "pages stay allocated).",
             "- **kpagecount/Pss wrong**: a mapped page's mapcount as /proc shows it "
             "(`proc_page_mapcount()`) differs from the exact one.",
             "- **USS wrong**: pagemap's PM_MMAP_EXCLUSIVE and smaps' private/shared split "
             "(`page_mapped_exclusively()`) differ from \"the page is mapped once\".",
             "",
             "The counts are per rmap change: a folio that stays in a wrong state is counted "
             "at each change of it.",
             ""] + shadow_tables(shadow, workloads) + [
             "", "![wrong answers per workload](pictures/mapcount-report.png)", "",
             "## The cost", "",
             "`scripts/bench-mapcount.sh` (`user/bench/bench_mapcount.c`) on the kernels "
             "without lockdep; remap = mprotect of one page of each PMD (the PMD→PTE "
             "remap); 4M-pmd exists only in mapcount-pages.", ""
             ] + open(bench_path).read().rstrip("\n").split("\n") + [""]
    with open(outdir + "/mapcount-report.md", "w") as f:
        f.write("\n".join(lines))
    plot(shadow, workloads, outdir)


if __name__ == "__main__":
    main()
