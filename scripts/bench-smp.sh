#!/usr/bin/env bash
# SMP scaling (docs/results.md, "SMP scaling"): user/bench/usemem.c (vm-scalability's
# anon-cow-seq/rand, 4K and PTE-mapped 2M folios, one child per CPU) and
# user/bench/page_fault1.c (will-it-scale's, one process or thread per CPU)
# at 1, 2 and 4 CPUs on both foliOS variants and on Linux 6.1 through
# ../shared/peer/linux-peer.sh, one after the other on this machine.  Wall
# time under QEMU's TCG (no --icount: it would serialise the CPUs); each
# benchmark runs REPS times in one boot and the table shows the median, the
# spread (min-max) and the scaling efficiency T(N) / (N * T(1)).  foliOS
# is built without the lock validator (LOCKDEP=0), as make bench builds it.
#
#   scripts/bench-smp.sh [-r REPS] [-m MiB] [-s SECONDS] [--cpus "1 2 4"]
#                        [--kernels "page-mapcount no-page-mapcount linux"] [--quick] [-o DIR]
#
# Writes DIR/smp.md, smp.csv and smp-raw.txt (default bench/results/).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=3 mib=64 secs=3 cpus="1 2 4" kernels="page-mapcount no-page-mapcount linux" out=bench/results
peer=${PEER:-../shared/peer/linux-peer.sh}
while [ $# -gt 0 ]; do
  case "$1" in
    -r) reps=$2; shift 2 ;;
    -m) mib=$2; shift 2 ;;
    -s) secs=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --kernels) kernels=$2; shift 2 ;;
    --quick) reps=1 mib=8 secs=1 cpus="1 2" out=build/bench-smp-quick; shift ;;
    -o) out=$2; shift 2 ;;
    *) sed -n '2,15p' "$0"; exit 2 ;;
  esac
done
make -s LOCKDEP=0 all user >/dev/null
if [[ " $kernels " == *" no-page-mapcount "* ]]; then make -s NO_PAGE_MAPCOUNT=1 LOCKDEP=0 all >/dev/null; fi
mkdir -p "$out"
raw=$out/smp-raw.txt
: >"$raw"

# run KERNEL N PROGRAM ARGS...: its result lines (and each benchmark's
# lock_stat lines), tagged "KERNEL N".
run() {
  local k=$1 n=$2; shift 2
  local log; log=$(mktemp)
  if [ "$k" = linux ]; then
    [ -x "$peer" ] || { rm -f "$log"; return 0; }
    timeout 1200 "$peer" --mounts --smp "$n" --mem 1G "build/user/bin/$1" "${@:2}" >"$log" 2>&1 || true
  else
    local flag=; [ "$k" = no-page-mapcount ] && flag=--no-page-mapcount
    ./run-qemu.sh $flag --no-lockdep --smp "$n" --mem 1G --timeout 1200 --run "/bin/$*" </dev/null >"$log" 2>&1 || true
  fi
  tr -d '\r' <"$log" | grep -aoE '(usemem|page_fault1|lock_stat) .*' |
    sed -e "s/^/$k $n /" >>"$raw" || true
  rm -f "$log"
}

for k in $kernels; do
  for n in $cpus; do
    echo "# $k, --smp $n" >&2
    run "$k" "$n" usemem -m "$mib" -r "$reps"
    run "$k" "$n" page_fault1 -s "$secs" -r "$reps"
  done
done
python3 scripts/bench-smp-table.py "$raw" "$out"
cat "$out/smp.md"
