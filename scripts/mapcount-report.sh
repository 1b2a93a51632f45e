#!/usr/bin/env bash
# make mapcount-report: the three mapcount schemes side by side.  The same
# workloads run on each variant booted with the shadow exact counter
# (mapcount_shadow, mm/mapcount_shadow.c), which counts every wrong answer
# of the scheme (/proc/mapcount_report); then scripts/bench-mapcount.sh
# times the operations they differ on.  Writes docs/mapcount-report.md and
# docs/pictures/mapcount-report.png.
#
#   scripts/mapcount-report.sh [--quick] [-o DIR]   (--quick: one workload,
#                                                    a small bench; into build/)
set -u
cd "$(dirname "$0")/.."
quick=0 out=docs
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 out=build/mapcount-report-quick; shift ;;
    -o) out=$2; shift 2 ;;
    *) echo "usage: scripts/mapcount-report.sh [--quick] [-o DIR]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out/pictures"
raw=build/mapcount-report-raw
rm -rf "$raw" && mkdir -p "$raw"
# name|command (its output is dropped; the counts are what matters)
workloads='random multi-process|/bin/test_smp_random
random THP sharing|/bin/test_thp_random
fork/exec stories|/bin/test_thp_cow
partial unmaps|/bin/test_thp
4 MiB folios|/bin/test_thp_4m
shell session|/bin/ls -l /bin; /bin/ps; /usr/bin/free; /bin/cat /proc/meminfo'
[ $quick = 1 ] && workloads='fork/exec stories|/bin/test_thp_cow'
variants="page-mapcount no-page-mapcount mapcount-pages"
for v in $variants; do
  flag=; [ $v = page-mapcount ] || flag=--$v
  while IFS='|' read -r name cmd; do
    ./run-qemu.sh $flag --append "mapcount_shadow" --mem 1024M --timeout 900 \
      --run "/bin/sh -c \"echo reset > /proc/mapcount_report; $cmd > /dev/null; /bin/cat /proc/mapcount_report\"" \
      </dev/null 2>/dev/null | tr -d '\r' | grep -E '^(variant|shadow|changes|maybe_shared|partially_mapped|kpagecount|uss):' |
      sed "s|^|$v\t$name\t|" >>"$raw/shadow.txt"
  done <<<"$workloads"
done
bench_args="-m 64 -r 5"; [ $quick = 1 ] && bench_args="-m 8 -r 1"
scripts/bench-mapcount.sh $bench_args >"$raw/bench.md"
commit=$(git log -1 --format=%h)$(git diff --quiet HEAD -- . 2>/dev/null || echo "+changes")
python3 scripts/mapcount-report.py "$raw/shadow.txt" "$raw/bench.md" "$out" "$commit"
