#!/usr/bin/env bash
# `make bench-host`: the native side of the benchmarks (docs/measuring.md).  mm/ is
# built for the host at -O2 in both mapcount modes; tests/host/bench_mm.c
# times fork (dup_mm) and munmap of the same regions bench_folio uses, in
# host nanoseconds, hot and with the caches flushed (cold), and
# tests/host/bench_rmap.c times the rmap calls alone.  One table, written as
# CSV and Markdown under bench/results/ (host.csv, host.md).
#
#   scripts/bench-host.sh [--quick] [-m MiB] [-r REPS]
#
# Defaults: 1024 MiB (a 16 MiB memmap, four times the L2), median of 9;
# about two minutes.  --quick (16 MiB, 1 repetition, hot only) checks the
# harness; make test runs it.
set -u
cd "$(dirname "$0")/.."
scripts/install-deps.sh || exit 2
args=() out=bench/results
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) args+=(-q); out=build/bench-host-quick; shift ;;
    -m|-r) args+=("$1" "$2"); shift 2 ;;
    *) echo "usage: scripts/bench-host.sh [--quick] [-m MiB] [-r REPS]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
raw=$out/host-raw.txt; : >"$raw"
for v in 0 1; do
  name=$([ $v = 1 ] && echo no-page-mapcount || echo page-mapcount)
  make -s NO_PAGE_MAPCOUNT=$v "build/$name/host/bench_mm" "build/$name/host/bench_rmap" ||
    { echo "bench-host: build $name failed" >&2; exit 1; }
  echo "# running bench_mm ($name)" >&2
  "build/$name/host/bench_mm" "${args[@]}" >>"$raw" || { echo "bench-host: bench_mm failed" >&2; exit 1; }
  "build/$name/host/bench_rmap" | sed "s/^/# /" >>"$raw"
done
python3 scripts/bench-host-table.py "$raw" "$out" || exit 1
cat "$out/host.md"
