#!/usr/bin/env bash
# `make bench`: user/bench/bench_folio on both foliOS variants under --icount,
# and on Linux through ../shared/peer/linux-peer.sh --icount when it is there;
# one table (benchmark x folio size: page-mapcount, no-page-mapcount, their
# ratio, Linux, foliOS/Linux), written as CSV and Markdown under
# bench/results/, and a plot of cycles per 4 KiB page by folio size.
#
#   scripts/bench.sh [--quick] [-m MiB] [-r REPS]
#
# The kernels are built without the lock validator (LOCKDEP=0, build/*-nolockdep/).
# Defaults: 256 MiB, median of 5.  --quick (8 MiB, 1 repetition) only checks
# that the harness works, in well under 2 minutes; make test runs it.
# Then the scaling table: fork and munmap of PTE-mapped 2M folios as the
# region grows 16 MiB -> 1 GiB (--quick: 8 and 16 MiB), with the slope per MiB.
set -u
cd "$(dirname "$0")/.."
scripts/install-deps.sh || exit 2
mib=256 reps=5 quick=0 out=bench/results
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 mib=8 reps=1 out=build/bench-quick; shift ;;
    -m) mib=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    *) echo "usage: scripts/bench.sh [--quick] [-m MiB] [-r REPS]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
mem=$(( mib * 2 + 512 ))M              # the region, its COW copies, the rest
raw=$out/raw.txt; : >"$raw"
for v in 0 1; do
  name=$([ $v = 1 ] && echo no-page-mapcount || echo page-mapcount)
  flag=$([ $v = 1 ] && echo --no-page-mapcount)
  make -s NO_PAGE_MAPCOUNT=$v LOCKDEP=0 all >/dev/null || { echo "bench: build $name failed" >&2; exit 1; }
  echo "# running bench_folio on foliOS $name ($mib MiB, median of $reps)" >&2
  ./run-qemu.sh $flag --no-lockdep --icount --mem "$mem" --timeout 1800 --run "/bin/bench_folio -m $mib -r $reps" \
    </dev/null 2>/dev/null | tr -d '\r' | grep '^bench_folio ' | sed "s/^bench_folio /$name /" >>"$raw"
done
peer=../shared/peer/linux-peer.sh
if [ -x "$peer" ]; then
  echo "# running bench_folio on Linux (linux-peer.sh)" >&2
  timeout 1800 "$peer" --icount --mem "$mem" build/user/bin/bench_folio -m "$mib" -r "$reps" \
    </dev/null 2>/dev/null | tr -d '\r' | grep -ao 'bench_folio .*' | sed 's/^bench_folio /linux /' >>"$raw"
else
  echo "# no ../shared/peer/linux-peer.sh: Linux columns left empty" >&2
fi
python3 scripts/bench-table.py "$raw" "$out" || exit 1
cat "$out/bench.md"

sizes=$([ $quick = 1 ] && echo "8 16" || echo "16 64 256 1024")
scale=$out/scaling-raw.txt; : >"$scale"
for m in $sizes; do
  smem=$(( m * 2 + 512 ))M
  for v in 0 1; do
    name=$([ $v = 1 ] && echo no-page-mapcount || echo page-mapcount)
    flag=$([ $v = 1 ] && echo --no-page-mapcount)
    echo "# scaling: foliOS $name, $m MiB" >&2
    ./run-qemu.sh $flag --no-lockdep --icount --mem "$smem" --timeout 1800 \
      --run "/bin/bench_folio -m $m -r 3 -b fork,munmap 2M-pte" </dev/null 2>/dev/null |
      tr -d '\r' | grep '^bench_folio ' | sed "s/^bench_folio /$name $m /" >>"$scale"
  done
  if [ -x "$peer" ] && [ $quick = 0 ]; then
    echo "# scaling: Linux, $m MiB" >&2
    timeout 1800 "$peer" --icount --mem "$smem" build/user/bin/bench_folio -m "$m" -r 3 \
      -b fork,munmap 2M-pte </dev/null 2>/dev/null | tr -d '\r' | grep -ao 'bench_folio .*' |
      sed "s/^bench_folio /linux $m /" >>"$scale"
  fi
done
python3 scripts/bench-scaling.py "$scale" "$out" || exit 1
cat "$out/scaling.md"
