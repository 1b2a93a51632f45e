#!/usr/bin/env bash
# Boot times, QEMU start included, the median of N boots (default 5) of each
# variant: to the end of ktest (`--append ktest`), and to the shell and out
# again (`--run '/bin/sh -c exit'`).
set -u
cd "$(dirname "$0")/.."
n=${1:-5}

# median WHAT VARIANT-FLAG RUN-QEMU-ARGS...: time n boots, print the median.
median() {
  local what=$1 flag=$2 times=() t0 t1 m
  shift 2
  for _ in $(seq "$n"); do
    t0=$(date +%s.%N)
    ./run-qemu.sh $flag "$@" --timeout 120 </dev/null >/dev/null 2>&1 || { echo "boot failed" >&2; exit 1; }
    t1=$(date +%s.%N)
    times+=("$(awk "BEGIN { print $t1 - $t0 }")")
  done
  m=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (n + 1) / 2 ))p")
  printf '%s: %s, median of %d: %.3f s (all: %s)\n' "${flag:-(page-mapcount)}" "$what" "$n" "$m" \
    "$(printf '%.3f ' "${times[@]}")"
}

make -s NO_PAGE_MAPCOUNT=0 all && make -s NO_PAGE_MAPCOUNT=1 all || exit 2
for flag in "" --no-page-mapcount; do
  median "boot to end of ktest" "$flag" --append ktest
  median "boot to the shell and power-off" "$flag" --run '/bin/sh -c exit'
done
