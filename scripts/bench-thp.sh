#!/usr/bin/env bash
# Large-folio micro-benchmark (user/bench/bench_thp.c) on both kernel variants
# under --icount: prints a Markdown table of guest cycles for fork,
# cow-byte, reuse-byte and munmap of 64 MiB (or $1 MiB) backed by 4K, 64K,
# PTE-mapped 2M and PMD-mapped 2M folios, with the
# no-page-mapcount / page-mapcount ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
mib=${1:-64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in page-mapcount no-page-mapcount; do
  flag=; [ $v = no-page-mapcount ] && flag=--no-page-mapcount
  ./run-qemu.sh $flag --icount --timeout 900 --run "/bin/bench_thp $mib" </dev/null 2>"$tmp/$v.err" \
    | tr -d '\r' | grep '^bench_thp ' >"$tmp/$v" || { cat "$tmp/$v.err" >&2; exit 1; }
done
echo "| folios | operation | page-mapcount | no-page-mapcount | ratio |"
echo "|---|---|---:|---:|---:|"
for kind in 4K 64K 2M-pte 2M-pmd; do
  for op in fork munmap cow-byte reuse-byte; do
    a=$(awk -v k=$kind -v o=$op '$2 == k && $3 == o {print $4}' "$tmp/page-mapcount")
    b=$(awk -v k=$kind -v o=$op '$2 == k && $3 == o {print $4}' "$tmp/no-page-mapcount")
    awk -v k=$kind -v o=$op -v a="$a" -v b="$b" 'BEGIN {
      r = (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ && a > 0) ? sprintf("%.2f", b / a) : "-";
      printf "| %s | %s | %s | %s | %s |\n", k, o, a, b, r }'
  done
done
