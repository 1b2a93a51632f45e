#!/usr/bin/env bash
# Boot-to-end-of-ktest wall time, QEMU start included: the median of N boots
# (default 5) of each variant, as `./run-qemu.sh --append ktest` runs it.
set -u
cd "$(dirname "$0")/.."
n=${1:-5}
for v in page-mapcount no-page-mapcount; do
  flag=$([ $v = no-page-mapcount ] && echo --no-page-mapcount)
  make -s NO_PAGE_MAPCOUNT=$([ $v = no-page-mapcount ] && echo 1 || echo 0) all || exit 2
  times=()
  for _ in $(seq "$n"); do
    t0=$(date +%s.%N)
    ./run-qemu.sh $flag --append ktest --timeout 120 </dev/null >/dev/null 2>&1 || { echo "boot failed" >&2; exit 1; }
    t1=$(date +%s.%N)
    times+=("$(awk "BEGIN { print $t1 - $t0 }")")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (n + 1) / 2 ))p")
  printf '%s: boot to end of ktest, median of %d: %.3f s (all: %s)\n' "$v" "$n" "$median" \
    "$(printf '%.3f ' "${times[@]}")"
done

# Boot to the shell and out again: `sh -c exit` as init's command, median of N.
for v in page-mapcount no-page-mapcount; do
  flag=$([ $v = no-page-mapcount ] && echo --no-page-mapcount)
  times=()
  for _ in $(seq "$n"); do
    t0=$(date +%s.%N)
    ./run-qemu.sh $flag --run '/bin/sh -c exit' --timeout 120 </dev/null >/dev/null 2>&1 || { echo "boot failed" >&2; exit 1; }
    t1=$(date +%s.%N)
    times+=("$(awk "BEGIN { print $t1 - $t0 }")")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (n + 1) / 2 ))p")
  printf '%s: boot to shell and power-off, median of %d: %.3f s (all: %s)\n' "$v" "$n" "$median" \
    "$(printf '%.3f ' "${times[@]}")"
done
