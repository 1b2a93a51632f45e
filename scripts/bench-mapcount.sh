#!/usr/bin/env bash
# The three mapcount schemes side by side on the operations where they
# differ (user/bench/bench_mapcount.c): PMD->PTE remap, fork, reuse and
# munmap of 2M-pmd, 2M-pte and 4M-pmd folios, under --icount on the
# kernels without lockdep (as make bench), and on Linux when the peer is
# here.  Writes a Markdown table to stdout.
#
#   scripts/bench-mapcount.sh [-m MiB] [-r REPS]
set -u
cd "$(dirname "$0")/.."
args="-m 64 -r 5"
[ $# -gt 0 ] && args="$*"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kernels="page-mapcount no-page-mapcount mapcount-pages"
for k in $kernels; do
  flag=; [ $k = no-page-mapcount ] && flag=--no-page-mapcount
  [ $k = mapcount-pages ] && flag=--mapcount-pages
  ./run-qemu.sh $flag --no-lockdep --icount --mem 1024M --run "/bin/bench_mapcount $args" \
    --timeout 1800 </dev/null 2>/dev/null | tr -d '\r' | grep -o 'bench_mapcount .*' >"$tmp/$k"
done
peer=../shared/peer/linux-peer.sh
if [ -x "$peer" ] && ls /boot/vmlinuz-* >/dev/null 2>&1; then
  kernels="$kernels linux"
  timeout 1800 "$peer" --icount --mem 1G build/user/bin/bench_mapcount $args </dev/null 2>/dev/null |
    tr -d '\r' | grep -o 'bench_mapcount .*' >"$tmp/linux"
fi
echo "bench_mapcount $args, median guest cycles (--icount: 1 per instruction)"
echo
printf '| folios | operation |'
for k in $kernels; do printf ' %s |' "$k"; done
echo ' mapcount-pages / page-mapcount |'
printf '|---|---|'
for k in $kernels; do printf -- '---:|'; done
printf -- '---:|\n'
awk '{print $2, $3}' "$tmp/page-mapcount" | while read -r size op; do
  printf '| %s | %s |' "$size" "$op"
  for k in $kernels; do
    v=$(awk -v s="$size" -v o="$op" '$2 == s && $3 == o {print $4}' "$tmp/$k")
    printf ' %s |' "${v:-—}"
  done
  pm=$(awk -v s="$size" -v o="$op" '$2 == s && $3 == o {print $4}' "$tmp/page-mapcount")
  mp=$(awk -v s="$size" -v o="$op" '$2 == s && $3 == o {print $4}' "$tmp/mapcount-pages")
  if [[ $pm =~ ^[0-9]+$ && $mp =~ ^[0-9]+$ ]]; then
    awk -v a="$mp" -v b="$pm" 'BEGIN { printf " %.3f |\n", a / b }'
  else
    echo ' — |'
  fi
done
