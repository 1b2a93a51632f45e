#!/usr/bin/env bash
# Shared-memory and page-cache micro-benchmark (user/bench/bench_shmem.c) on both
# kernel variants and on Linux (../shared/peer/linux-peer.sh when present),
# all under --icount: prints a Markdown table of guest cycles for shmem
# fault-in of 64 MiB (or $1 MiB) with 4K/64K/2M folios, fork with the region
# shared vs private, read() of a tmpfs file and exec+exit.
set -euo pipefail
cd "$(dirname "$0")/.."
mib=${1:-64}
peer=${PEER:-../shared/peer/linux-peer.sh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cols=(page-mapcount no-page-mapcount)
for v in "${cols[@]}"; do
  flag=; [ $v = no-page-mapcount ] && flag=--no-page-mapcount
  ./run-qemu.sh $flag --icount --timeout 900 --run "/bin/bench_shmem $mib" </dev/null 2>"$tmp/$v.err" \
    | tr -d '\r' | grep '^bench_shmem ' >"$tmp/$v" || { cat "$tmp/$v.err" >&2; exit 1; }
done
if [ -x "$peer" ]; then
  "$peer" --icount --mounts --mem 1G build/user/bin/bench_shmem "$mib" 2>/dev/null | tr -d '\r' |
    grep -o 'bench_shmem .*' >"$tmp/linux" || true
  cols+=(linux)
fi
printf '| operation | kind |'; printf ' %s |' "${cols[@]}"; echo
printf '|---|---|'; printf -- '---:|%.0s' "${cols[@]}"; echo
awk '{print $2, $3}' "$tmp/page-mapcount" | while read -r op kind; do
  printf '| %s | %s |' "$op" "$kind"
  for c in "${cols[@]}"; do
    printf ' %s |' "$(awk -v o="$op" -v k="$kind" '$2 == o && $3 == k {print $4}' "$tmp/$c")"
  done
  echo
done
