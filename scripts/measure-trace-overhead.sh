#!/usr/bin/env bash
# Cost of the rmap observation hook (mm/rmap_observe.h: the mapcount trace
# and the shadow counter) while both are off: guest cycles (--icount) of
# bench_fork (fork+exit+wait of 1/16/64 MiB of 4 KiB pages) and of
# bench_thp's fork and munmap of 64 MiB, on the kernel with the hook
# compiled in (default) and without it (make RMAP_TRACE=0).
set -euo pipefail
cd "$(dirname "$0")/.."
run() {  # run FLAGS... : "name cycles" lines
  ./run-qemu.sh "$@" --icount --run /bin/bench_fork </dev/null 2>/dev/null | tr -d '\r' |
    sed -n 's/^bench fork+exit+wait *\([0-9]*\) MiB: \([0-9]*\) cycles.*/fork+exit+wait-\1MiB \2/p'
  ./run-qemu.sh "$@" --icount --run "/bin/bench_thp 64" </dev/null 2>/dev/null | tr -d '\r' |
    awk '$1 == "bench_thp" && ($3 == "fork" || $3 == "munmap") {print $3 "-" $2, $4}'
}
on=$(run) off=$(run --no-rmap-trace)
echo "| benchmark | trace compiled in, off | not compiled in | overhead |"
echo "|---|---:|---:|---:|"
join <(echo "$on" | sort) <(echo "$off" | sort) |
  awk '{printf "| %s | %d | %d | %+.2f %% |\n", $1, $2, $3, ($2 - $3) * 100.0 / $3}'
