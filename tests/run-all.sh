#!/usr/bin/env bash
# `make test`: every test of foliOS, closing with "N passed, N failed".
#   1. host tests (mm/ built for the host, ASan + UBSan), all three variants
#   2. ktest (in-kernel self-tests, KTAP) booted in QEMU, all three; ktest=smp
#      again with --smp 4
#   3. guest tests (user/tests/test_*.c via /bin/runtests, TAP, leak checks), all
#      three, with a --swap 64M disk; the --run/--add contract, both of the seeds' variants
#   4. panic paths (crash=...), both of the seeds' variants: exit code and report
#   5. difftest: generated programs on every variant against Linux's records
#   6. GDB against QEMU in batch mode (tests/gdb-test.sh)
#   7. the console as a user types into it (tests/tty-test.sh), both variants,
#      and page-mapcount on 4 CPUs
set -u
cd "$(dirname "$0")/.."
scripts/install-deps.sh || exit 2
pass=0 fail=0
log=build/test-logs
mkdir -p "$log"
took() {  # took PHASE: the running time so far, so a slow phase shows in CI logs
  echo "# $1: done at ${SECONDS}s"
}
result() {  # result NAME OK|FAIL [detail]
  if [ "$2" = OK ]; then pass=$((pass + 1)); echo "ok - $1"
  else fail=$((fail + 1)); echo "not ok - $1 ${3:+# $3}"; fi
}
count_host() {  # adds the host runner's counts
  local line p f
  line=$(tail -n 1 "$1")
  p=$(echo "$line" | sed -n 's/.* \([0-9]*\) passed, \([0-9]*\) failed/\1/p')
  f=$(echo "$line" | sed -n 's/.* \([0-9]*\) passed, \([0-9]*\) failed/\2/p')
  if [ -z "$p" ]; then result "$2" FAIL "no result line"; return; fi
  pass=$((pass + p)) fail=$((fail + f))
  echo "$2: $p passed, $f failed"
  grep -E '^  .*(not ok|# model|# rmap model)' "$1" || true
}

# guest_suite LOG LABEL NR-PROGRAMS RUN-QEMU-ARGS...: boot /bin/runtests,
# count its TAP (each program's checks, then the program with its leak
# check), and check it ran NR-PROGRAMS programs, exited 0 and the kernel
# reported no leak or warning.
guest_suite() {
  local out=$1 label=$2 nprog=$3 rc p f tp tf
  shift 3
  ./run-qemu.sh "$@" </dev/null >"$out" 2>&1
  rc=$?
  p=$(grep -cE '^    ok [0-9]+' "$out"); f=$(grep -cE '^    not ok [0-9]+' "$out")
  grep -E '^(    )?not ok' "$out" | sed "s/^/  /"
  pass=$((pass + p)) fail=$((fail + f))
  echo "guest tests ($label): $p passed, $f failed"
  tp=$(grep -cE '^ok [0-9]+ test_' "$out"); tf=$(grep -cE '^not ok [0-9]+ test_' "$out")
  pass=$((pass + tp)) fail=$((fail + tf))
  echo "guest test programs with no leak ($label): $tp passed, $tf failed"
  [ "$((tp + tf))" = "$nprog" ] || result "runtests ran every test program ($label)" FAIL "ran $((tp + tf))"
  [ $rc = 0 ] || result "runtests exits 0 ($label)" FAIL "exit $rc"
  if grep -qE '^\[.*(leak:|WARNING|BUG)' "$out"; then
    result "no kernel leak or warning after the guest tests ($label)" FAIL "$(grep -m1 -E 'leak:|WARNING|BUG' "$out")"
  fi
}

# disk_found LOG LABEL: test_blockdev and test_swapon ran on the --swap disk
# (without the driver there is no /dev/vda and they only skip: that must
# fail here).
disk_found() {
  local ok=OK
  grep -qE '^    ok [0-9]+ open /dev/vda read-write' "$1" && grep -qE '^    ok [0-9]+ swapon[[:space:]]*$' "$1" &&
    ! grep -q '# SKIP no /dev/vda' "$1" || ok=FAIL
  result "test_blockdev and test_swapon found the --swap disk as /dev/vda ($2)" $ok "see $1"
}

# The third variant (mapcount-pages, the RFC's scheme) runs everything that
# depends on how mapcounts are kept: host tests, fuzzing, ktest, the guest
# suite at 1 and 4 CPUs, tracing, bench_thp and the small machine.  What
# does not (the --run/--add contract, fault injection, panics) runs on the
# seeds' two, which keeps make test within its time budget.
for name in page-mapcount no-page-mapcount mapcount-pages; do
  case $name in
    page-mapcount) flag= mk=NO_PAGE_MAPCOUNT=0 variant_index=0 ;;
    no-page-mapcount) flag=--no-page-mapcount mk=NO_PAGE_MAPCOUNT=1 variant_index=1 ;;
    mapcount-pages) flag=--mapcount-pages mk=MAPCOUNT_PAGES=1 variant_index=2 ;;
  esac
  echo "# ---- $name ----"
  make -s $mk all >"$log/build-$name.log" 2>&1 || { result "build $name" FAIL; continue; }
  make -s -j2 $mk host-tests >"$log/host-$name.log" 2>&1
  count_host "$log/host-$name.log" "host tests ($name)"
  took "host tests ($name)"
  # libFuzzer on the rmap model, bounded (FUZZ_SECONDS, default 20 here)
  make -s $mk FUZZ_SECONDS=${FUZZ_SECONDS:-20} fuzz-rmap >"$log/fuzz-$name.log" 2>&1
  rc=$?
  runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 runs in \2 s/p' "$log/fuzz-$name.log")
  ok=OK; [ $rc = 0 ] && [ -n "$runs" ] || ok=FAIL
  result "libFuzzer rmap model: $runs without a finding ($name)" $ok "exit $rc, see $log/fuzz-$name.log"
  took "fuzz ($name)"

  ./run-qemu.sh $flag --append ktest --timeout 300 </dev/null >"$log/ktest-$name.log" 2>&1
  rc=$?
  p=$(grep -cE '^    ok [0-9]+ ' "$log/ktest-$name.log")
  f=$(grep -cE '^    not ok [0-9]+ ' "$log/ktest-$name.log")
  grep -E '^    not ok|^        # ' "$log/ktest-$name.log" | grep -v 'bench' || true
  grep -E 'buddy bench' "$log/ktest-$name.log" | sed 's/^ *# /# /'
  pass=$((pass + p)) fail=$((fail + f))
  echo "ktest ($name): $p passed, $f failed"
  if [ $rc != 0 ] || ! grep -q '^# ktest: ' "$log/ktest-$name.log"; then
    result "ktest run ($name) exits 0 with a summary" FAIL "exit $rc, see $log/ktest-$name.log"
  fi

  # the cross-CPU calls and RCU again on four CPUs (the run above has one)
  ./run-qemu.sh $flag --smp 4 --append ktest=smp,rcu --timeout 300 </dev/null >"$log/ktest-smp4-$name.log" 2>&1
  rc=$?
  p=$(grep -cE '^    ok [0-9]+ ' "$log/ktest-smp4-$name.log")
  f=$(grep -cE '^    not ok [0-9]+ ' "$log/ktest-smp4-$name.log")
  ok=OK; [ $rc = 0 ] && [ "$p" -gt 0 ] && [ "$f" = 0 ] || ok=FAIL
  result "ktest=smp,rcu on 4 CPUs: $p passed, $f failed ($name)" $ok "exit $rc, see $log/ktest-smp4-$name.log"
  took "ktest ($name)"

  # guest tests: /bin/runtests runs each user/tests/test_*.c in its own process
  # (its TAP indented as a subtest) and checks /proc/meminfo after each;
  # the kernel checks every page and byte once PID 1 is gone.  A 64 MiB
  # mkswap'd virtio disk is attached and swapped on (test_blockdev,
  # test_swapon, test_swap use it; MADV_PAGEOUT anywhere goes there), with
  # block I/O fault injection ready for the disk test_swap_error marks:
  # no extra boot.
  guest_suite "$log/runtests-$name.log" "$name" "$(ls build/user/bin/test_* | wc -l)" \
    $flag --swap 64M --append fail_make_request=1,100,0,-1 --run /bin/runtests --timeout 600
  disk_found "$log/runtests-$name.log" "$name"
  took "guest suite ($name)"

  # The whole suite again on four CPUs (multi-threaded TCG): the SMP tests
  # (concurrent COW, fork against threads, munmap and mprotect racing
  # faults and writes, stale TLBs) and every other test with other CPUs
  # running, lockdep on, leak check after each.
  guest_suite "$log/runtests-smp4-$name.log" "$name, 4 CPUs" "$(ls build/user/bin/test_* | wc -l)" \
    $flag --smp 4 --swap 64M --append fail_make_request=1,100,0,-1 --run /bin/runtests --timeout 900
  disk_found "$log/runtests-smp4-$name.log" "$name, 4 CPUs"
  # Every folio traced while four CPUs COW, fork and unmap the same folios:
  # the trace records one operation at a time, each with its own change.
  guest_suite "$log/trace-smp4-$name.log" "$name, 4 CPUs, every folio traced" 5 \
    $flag --smp 4 --append mapcount_trace=all \
    --run "/bin/runtests test_smp_cow test_smp_forkrace test_smp_random test_smp_split test_trace" --timeout 600
  took "guest suite on 4 CPUs ($name)"
  ./run-qemu.sh $flag --icount --run '/bin/bench_thp 8' </dev/null >"$log/bench-thp-$name.log" 2>&1
  ok=OK; [ "$(tr -d '\r' <"$log/bench-thp-$name.log" | grep -cE '^bench_thp [0-9KMptemd-]+ [a-z-]+ [0-9]+$')" = 16 ] || ok=FAIL
  result "bench_thp runs and every folio kind is backed as intended ($name)" $ok "see $log/bench-thp-$name.log"
  # Out of memory on a small machine: OOM kills, a fork storm, memory back;
  # and, with four times as much swap as RAM, a tmpfs file larger than RAM
  # and a working set of four times RAM that reclaim keeps alive
  # (test_reclaim; on four CPUs too, in one variant per run: the variants
  # take turns by the day of the month).
  out="$log/oom-$name.log"
  ./run-qemu.sh $flag --mem 64M --swap 256M --timeout 600 \
    --run "/bin/runtests test_oom test_mm test_fork test_shmem_swap test_reclaim test_oom_kill" </dev/null >"$out" 2>&1
  rc=$?
  ok=OK; [ $rc = 0 ] && grep -q 'fork storm: [0-9]* children' "$out" && ! grep -qE 'leak:|WARNING|BUG' "$out" &&
    grep -qE '^ +ok [0-9]+ a tmpfs file larger than RAM' "$out" &&
    grep -qE '^ +ok [0-9]+ a working set of 4x RAM' "$out" || ok=FAIL
  result "--mem 64M --swap 256M: OOM kills, fork storm, a tmpfs file larger than RAM, a 4x-RAM working set, nothing leaks ($name)" \
    $ok "exit $rc, see $out"
  grep -a '# [0-9]* MiB over 3 processes' "$out" | sed 's/^ *# /# test_reclaim ('"$name"'): /'
  if [ "$(( $(date +%-d) % 3 ))" = "$variant_index" ]; then
    out="$log/reclaim-smp4-$name.log"
    ./run-qemu.sh $flag --smp 4 --mem 64M --swap 256M --timeout 600 --run "/bin/runtests test_reclaim" </dev/null >"$out" 2>&1
    rc=$?
    ok=OK; [ $rc = 0 ] && ! grep -qE 'leak:|WARNING|BUG' "$out" && grep -qE '^ +ok [0-9]+ a working set of 4x RAM' "$out" || ok=FAIL
    result "--smp 4 --mem 64M --swap 256M: a 4x-RAM working set survives reclaim on four CPUs ($name)" $ok "exit $rc, see $out"
    grep -a '# [0-9]* MiB over 3 processes' "$out" | sed 's/^ *# /# test_reclaim ('"$name"', 4 CPUs): /'
  fi
  # Whom the OOM killer chooses: only without swap (test_oom_kill skips it
  # with swap, as every other run has), on 4 CPUs.
  out="$log/oom-kill-$name.log"
  ./run-qemu.sh $flag --mem 128M --smp 4 --timeout 300 --run "/bin/runtests test_oom_kill" </dev/null >"$out" 2>&1
  rc=$?
  ok=OK; [ $rc = 0 ] && grep -qE '^ +ok [0-9]+ the OOM killer chose' "$out" && ! grep -qE 'leak:|WARNING|BUG' "$out" || ok=FAIL
  result "--mem 128M, no swap, 4 CPUs: the OOM killer's choice, oom_score, process_mrelease ($name)" $ok "exit $rc, see $out"
  # The shadow exact counter (make mapcount-report) on the fork/exec stories:
  # never a false "exclusive"; per-page answers exact only where per-page
  # mapcounts are kept.
  out="$log/shadow-$name.log"
  ./run-qemu.sh $flag --append mapcount_shadow --timeout 300 \
    --run "/bin/sh -c \"/bin/test_thp_cow > /dev/null; /bin/cat /proc/mapcount_report\"" </dev/null >"$out" 2>&1
  ok=OK; sp='[[:space:]]*$'
  grep -q '^shadow: on' "$out" && grep -qE '^changes: [1-9]' "$out" && grep -qE "false_exclusive 0$sp" "$out" || ok=FAIL
  if [ $name = page-mapcount ]; then
    grep -qE 'kpagecount: pages [0-9]+ wrong 0 ' "$out" && grep -qE "uss: pages [0-9]+ wrong 0$sp" "$out" || ok=FAIL
  else
    grep -qE 'kpagecount: pages [0-9]+ wrong [1-9]' "$out" || ok=FAIL
  fi
  result "shadow exact counter: no false \"exclusive\", per-page answers exact only with per-page mapcounts ($name)" $ok "see $out"
  took "small runs, OOM and shadow ($name)"
  [ $name = mapcount-pages ] && continue

  # the --run / --add contract of run-qemu.sh (docs/contract.md)
  ./run-qemu.sh $flag --run '/bin/hello 7 "two words"' </dev/null >"$log/run-$name.log" 2>&1
  rc=$?
  ok=OK; [ $rc = 7 ] && tail -n 1 "$log/run-$name.log" | grep -qx 'foliOS: exit status 7' &&
    grep -q 'hello from /bin/hello: \[7\] \[two words\]' "$log/run-$name.log" &&
    grep -q '^env PATH=/bin' "$log/run-$name.log" || ok=FAIL
  result "--run passes argv (quotes group), env, and the exit status ($name)" $ok "exit $rc"
  ./run-qemu.sh $flag --run '/bin/hello-pie 9' </dev/null >"$log/pie-$name.log" 2>&1
  rc=$?
  ok=OK; [ $rc = 9 ] && grep -q 'hello from /bin/hello-pie: \[9\]' "$log/pie-$name.log" || ok=FAIL
  result "a static-PIE executable (ET_DYN) runs ($name)" $ok "exit $rc"
  for mode in w r p; do
    ./run-qemu.sh $flag --run "/bin/segv $mode" </dev/null >"$log/segv-$mode-$name.log" 2>&1
    rc=$?
    ok=OK; [ $rc = 139 ] && tail -n 1 "$log/segv-$mode-$name.log" | grep -qx 'foliOS: killed by signal 11' &&
      ! grep -q 'still alive' "$log/segv-$mode-$name.log" || ok=FAIL
    result "segv $mode: SIGSEGV kills the task, status 139 ($name)" $ok "exit $rc"
  done
  # THP policy from the kernel command line, Linux's syntax, read back through sysfs
  d=/sys/kernel/mm/transparent_hugepage
  ./run-qemu.sh $flag --append 'transparent_hugepage=madvise thp_anon=16K,32K:always;64K-256K:inherit;2M:never' \
    --run "/bin/cat $d/enabled $d/hugepages-16kB/enabled $d/hugepages-32kB/enabled $d/hugepages-64kB/enabled $d/hugepages-256kB/enabled $d/hugepages-512kB/enabled $d/hugepages-2048kB/enabled" \
    </dev/null >"$log/thp-cmdline-$name.log" 2>&1
  printf '%s\n' 'always [madvise] never' '[always] inherit madvise never' '[always] inherit madvise never' \
    'always [inherit] madvise never' 'always [inherit] madvise never' 'always inherit madvise [never]' \
    'always inherit madvise [never]' >"$log/thp-cmdline-expected"
  ok=OK; grep -vE '^\[ *[0-9]+\.[0-9]+\]|^foliOS' "$log/thp-cmdline-$name.log" | tr -d '\r' | cmp -s - "$log/thp-cmdline-expected" || ok=FAIL
  result "transparent_hugepage= and thp_anon= set the sysfs knobs ($name)" $ok "see $log/thp-cmdline-$name.log"
  ./run-qemu.sh $flag --append 'mapcount_trace=order:4' --run '/bin/cat /proc/mapcount_trace' \
    </dev/null >"$log/trace-cmdline-$name.log" 2>&1
  ok=OK; grep -q '^# mapcount_trace: order 4' "$log/trace-cmdline-$name.log" || ok=FAIL
  result "mapcount_trace= selects the traced folios ($name)" $ok "see $log/trace-cmdline-$name.log"
  # Allocation fault injection in the whole guest suite (runtests marks the
  # tests make-it-fail): failures must surface as errors or killed processes,
  # never a panic, a hang, a process that cannot be killed, or a leak.
  # Seeds 1-2 fail 1 % of allocations (tests die early, in exec and setup);
  # seeds 3-4 0.1 % (every 10th call with 1 %: tests get deep before one fails).
  # Each variant runs one seed of each rate, one of them on four CPUs
  # (page-mapcount: seed 1, seed 3 on 4 CPUs; the other: seed 2 on 4 CPUs,
  # seed 4); a test that hangs because a thread was never created is
  # killed after 15 s (the whole suite takes about a minute).
  for run in $([ $name = no-page-mapcount ] && echo 2:4 4:1 || echo 1:1 3:4); do
    seed=${run%:*} cpus=${run#*:}
    out="$log/fail-$seed-$name.log"
    rate=$([ $seed -le 2 ] && echo 1,1 || echo 10,1)
    ./run-qemu.sh $flag --smp $cpus --append "fail_page_alloc=$rate,0,-1 failslab=$rate,0,-1 fail_seed=$seed" \
      --run "/bin/runtests -t 15" --timeout 900 </dev/null >"$out" 2>&1
    rc=$?
    grep -a 'fault injection:' "$out" | sed 's/^\[[ 0-9.]*\] /# seed '"$seed, $cpus CPU(s)"': /'
    ok=OK; { [ $rc = 125 ] || [ $rc = 124 ] || grep -qE 'leak:|WARNING|BUG|did not die' "$out" ||
      ! grep -qE 'fault injection: ([1-9][0-9]* of [0-9]+ page allocations|.*and [1-9][0-9]* of)' "$out"; } && ok=FAIL
    result "fault injection (seed $seed, $cpus CPU(s)): no panic, no leak, failures injected ($name)" $ok "exit $rc, see $out"
  done
  took "fault injection ($name)"
  printf '#include <stdio.h>\nint main(void) { puts("added from the host"); return 42; }\n' >"$log/added.c"
  musl-gcc -static -o "$log/added" "$log/added.c" &&
    ./run-qemu.sh $flag --add "$log/added:/opt/added" --run /opt/added </dev/null >"$log/add-$name.log" 2>&1
  rc=$?
  ok=OK; [ $rc = 42 ] && grep -q 'added from the host' "$log/add-$name.log" || ok=FAIL
  result "--add runs a host-built musl static binary ($name)" $ok "exit $rc"
  # A process still blocked when the --run command ends: the kernel kills it
  # at power-off and the leak check after PID 1 counts its memory back.
  cat >"$log/leftover.c" <<'C'
#include <string.h>
#include <unistd.h>
int main(void)
{
	static char mem[8 << 20];
	int hold[2], ready[2];
	char c = 0;

	if (pipe(hold) || pipe(ready))
		return 1;
	if (fork() == 0) {      /* holds both ends of "hold": its read never ends */
		memset(mem, 1, sizeof(mem));
		write(ready[1], &c, 1);
		read(hold[0], &c, 1);
		_exit(0);
	}
	return read(ready[0], &c, 1) == 1 ? 7 : 1;
}
C
  musl-gcc -static -o "$log/leftover" "$log/leftover.c" &&
    ./run-qemu.sh $flag --add "$log/leftover:/opt/leftover" --run /opt/leftover </dev/null >"$log/leftover-$name.log" 2>&1
  rc=$?
  ok=OK; [ $rc = 7 ] && grep -q 'power-off: killed 1 leftover process' "$log/leftover-$name.log" &&
    ! grep -q 'leak:' "$log/leftover-$name.log" || ok=FAIL
  result "a process left running at power-off is killed, its memory counted back ($name)" $ok "exit $rc, see $log/leftover-$name.log"

  while IFS='|' read -r kind expect; do
    out="$log/crash-$kind-$name.log"
    ./run-qemu.sh $flag --append "crash=$kind" --timeout 60 </dev/null >"$out" 2>&1
    rc=$?
    ok=OK why=""
    [ $rc = 125 ] || { ok=FAIL why="exit $rc, not 125"; }
    tail -n 1 "$out" | grep -q '^foliOS: kernel panic$' || { ok=FAIL why="$why; no 'foliOS: kernel panic'"; }
    IFS=';' read -ra pats <<<"$expect"
    for pat in "${pats[@]}" 'Kernel panic - not syncing' 'RIP: 0008:' 'Call Trace:' 'kmain\+0x'; do
      grep -qE "$pat" "$out" || { ok=FAIL why="$why; missing /$pat/"; }
    done
    result "crash=$kind ($name) panics with report" $ok "$why"
    took "crash=$kind ($name)"
  done <<'KINDS'
page-fault|BUG: unable to handle page fault for address: 0xffffc90000dead00;#PF: error_code\(0x2\) - not-present write kernel;crash_page_fault\+0x;CR2: ffffc90000dead00
bug|Kernel panic - not syncing: kernel/crash.c:[0-9]+: crash=bug;crash_if_asked\+0x
double-fault|double fault \(vector 8;arch_crash_stack_overflow
divide|divide error \(vector 0;arch_crash_divide\+0x
KINDS
done

# Tests that run unchanged on Linux, when the peer is on this machine.
peer=../shared/peer/linux-peer.sh
if [ -x "$peer" ] && ls /boot/vmlinuz-* >/dev/null 2>&1; then
  for t in test_proc test_isolation test_hostile test_protnone test_vma test_fpu test_signal test_sighandler test_poll test_exec test_files test_tty test_time test_exec_script test_symlink test_jobctl test_fileattr test_procstat test_fifo test_locks test_random test_vdso test_procctl test_rseq test_nice test_timers test_sigwait test_faultcount test_mincore test_smp_mlock; do
    timeout 300 "$peer" build/user/bin/$t </dev/null >"$log/$t-linux.log" 2>&1
    p=$(grep -cE '^ok ' "$log/$t-linux.log"); f=$(grep -cE '^not ok ' "$log/$t-linux.log")
    ok=OK; [ "$p" -gt 0 ] && [ "$f" = 0 ] || ok=FAIL
    result "$t passes unchanged on Linux (linux-peer.sh): $p checks" $ok "see $log/$t-linux.log"
  done
  # test_blockdev, test_swapon and test_swap need the disk: the peer's --swap
  # (its init swaps the disk on; the first two swap it off first, as Linux
  # refuses writes; test_swap pages out to it);
  # test_shmem_swap a tmpfs too; test_mlock its MADV_PAGEOUT check, and THP (--mem 1G),
  # as test_reclaim and test_oom_kill (their 4x-RAM and no-swap checks skip there)
  for t in test_blockdev test_swapon test_swap test_smp_swap test_shmem_swap test_mlock test_reclaim test_oom_kill; do
    case $t in test_shmem_swap) mounts=--mounts ;; test_mlock|test_reclaim|test_oom_kill) mounts="--mounts --mem 1G" ;; *) mounts= ;; esac
    timeout 300 "$peer" $mounts --swap 64M build/user/bin/$t </dev/null >"$log/$t-linux.log" 2>&1
    p=$(grep -cE '^ok [0-9]+ [^#]*$' "$log/$t-linux.log"); f=$(grep -cE '^not ok ' "$log/$t-linux.log")
    ok=OK; [ "$p" -gt 1 ] && [ "$f" = 0 ] || ok=FAIL
    result "$t passes unchanged on Linux (linux-peer.sh --swap 64M): $p checks" $ok "see $log/$t-linux.log"
  done
else
  echo "# skip: the tests that also run on Linux (no ../shared/peer or no /boot/vmlinuz-*)"
fi

took "tests on Linux"
# make bench's harness (not its numbers): --quick, both variants (and Linux
# when the peer is here), every foliOS cell filled, CSV, Markdown and plot made.
scripts/bench.sh --quick >"$log/bench-quick.log" 2>&1
rc=$?
ok=OK; [ $rc = 0 ] && [ -s build/bench-quick/bench.csv ] && [ -s build/bench-quick/bench.png ] &&
  [ "$(grep -c '^| ' build/bench-quick/bench.md)" = 37 ] &&
  [ "$(grep -cE '^\| (no-)?page-mapcount \| (fork|munmap) ' build/bench-quick/scaling.md)" = 4 ] || ok=FAIL
result "make bench --quick: table, CSV, plot (6 benchmarks x 6 folio sizes) and scaling table" $ok "exit $rc, see $log/bench-quick.log"
scripts/bench-host.sh --quick >"$log/bench-host-quick.log" 2>&1
rc=$?
ok=OK; [ $rc = 0 ] && [ "$(grep -cE '^\| (fork|munmap) \| [0-9KMptemd-]+ \| hot \| [0-9 ]+ \| [0-9 ]+ \| ' build/bench-host-quick/host.md)" = 12 ] || ok=FAIL
result "make bench-host --quick: native fork/munmap table, both modes (2 benchmarks x 6 folio sizes)" $ok "exit $rc, see $log/bench-host-quick.log"

took "bench harness"
# docs/tour.md shows real output: check it against a run (default variant).
python3 scripts/check-doc.py docs/tour.md >"$log/check-doc.log" 2>&1
while IFS= read -r line; do
  case "$line" in
    "ok "*) result "doc output: ${line#ok * - }" OK "" ;;
    "not ok "*) result "doc output: ${line#not ok * - }" FAIL "see $log/check-doc.log" ;;
  esac
done <"$log/check-doc.log"
# The index from feature to guest test lists every test as its header says.
python3 scripts/test-index.py --check >"$log/test-index.log" 2>&1
rc=$?
ok=OK; [ $rc = 0 ] || ok=FAIL
result "docs/test-index.md: $(cat "$log/test-index.log")" $ok ""
# Every file, function and source line the README and docs/ name exists.
python3 scripts/check-doc-refs.py >"$log/check-doc-refs.log" 2>&1
rc=$?
ok=OK; [ $rc = 0 ] || ok=FAIL
result "the docs name only files, functions and lines that exist ($(tail -n 1 "$log/check-doc-refs.log" | sed 's/^# //'))" $ok \
  "$(grep -m 3 '^not ok' "$log/check-doc-refs.log" | tr '\n' ' ')"

# difftest (docs/difftest.md): the fixed generated programs of
# tests/difftest/seeds.txt on every variant against Linux's records committed
# in tests/difftest/linux/; with the peer here, the records checked against
# Linux too.  One result per seed and variant.
difftest_results() {  # difftest_results LOG
  while IFS= read -r line; do
    case "$line" in
      "ok - "*) result "${line#ok - }" OK ;;
      "not ok - "*) l=${line#not ok - }; result "${l%% # *}" FAIL "${l#* # }" ;;
    esac
  done <"$1"
}
scripts/difftest.sh check --log "$log/difftest-%s.log" </dev/null >"$log/difftest.log" 2>&1
difftest_results "$log/difftest.log"
grep -q '^ok - \|^not ok - ' "$log/difftest.log" || result "difftest ran" FAIL "see $log/difftest.log"
if [ -x "$peer" ] && ls /boot/vmlinuz-* >/dev/null 2>&1; then
  scripts/difftest.sh record --check </dev/null >"$log/difftest-record.log" 2>&1
  difftest_results "$log/difftest-record.log"
fi

took "doc and difftest"
echo "# ---- gdb ----"
tests/gdb-test.sh </dev/null >"$log/gdb.log" 2>&1
rc=$?
sed 's/^/  gdb: /' "$log/gdb.log" | grep -E '^  gdb: (not )?ok|FAIL'
p=$(grep -cE '^ok ' "$log/gdb.log"); f=$(grep -cE '^not ok ' "$log/gdb.log")
pass=$((pass + p)) fail=$((fail + f))
[ $rc = 0 ] || [ "$f" -gt 0 ] || result "gdb test" FAIL "exit $rc"

took "gdb"
echo "# ---- tty ----"
for flags in "" --no-page-mapcount "--smp 4"; do
  tlog="$log/tty$(echo "$flags" | tr -d ' ' | sed 's/--no-page-mapcount/-nopm/; s/--smp/-smp/').log"
  tests/tty-test.sh $flags </dev/null >"$tlog" 2>&1
  rc=$?
  sed "s/^/  tty${flags:+ $flags}: /" "$tlog" | grep -E '^  tty.*: (not )?ok'
  p=$(grep -cE '^ok ' "$tlog"); f=$(grep -cE '^not ok ' "$tlog")
  pass=$((pass + p)) fail=$((fail + f))
  [ $rc = 0 ] || [ "$f" -gt 0 ] || result "tty test ${flags:-(page-mapcount)}" FAIL "exit $rc"
done

took "tty"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
