#!/usr/bin/env bash
# Drive real GDB against QEMU in batch mode (docs/testing.md): connect
# through the repo's .gdbinit, stop at kmain in long mode, stop in the
# page-fault handler on the deliberate fault of ktest paging_map_pte (the
# lockdep ktests fault on a user address before it) and run
# the helpers there, then stop at ktest rmap's checkpoint and show the
# folio that two mms map; a tmpfs file's VMA and page-cache folio; a
# split: its PTEs are migration entries; last, on the mapcount-pages
# kernel, a 4 MiB folio two PMDs map.
# Prints "ok N - ..." / "not ok N - ..." lines.
set -u
cd "$(dirname "$0")/.."
export FOLIOS_GDB_PORT=$((24000 + $$ % 8000))
export FOLIOS_VARIANT=page-mapcount
out=$(mktemp); qlog=$(mktemp)
trap 'kill $qpid 2>/dev/null; rm -f "$out" "$qlog"' EXIT
start_qemu() {  # start_qemu RUN-QEMU-OPTIONS...: a guest waiting for GDB, $qpid
  ./run-qemu.sh --gdb "$@" --timeout 120 </dev/null >"$qlog" 2>&1 &
  qpid=$!
  for _ in $(seq 50); do   # wait for the stub
    (exec 3<>/dev/tcp/127.0.0.1/$FOLIOS_GDB_PORT) 2>/dev/null && break
    sleep 0.2
  done
}
start_qemu --append "ktest"
timeout 120 gdb -q -batch -iex "set auto-load safe-path $PWD" \
  -ex "hbreak kmain" -ex "continue" -ex "info registers rip" \
  -ex "next" -ex "next" -ex "info line *\$pc" \
  -ex "delete" -ex "break paging_map_pte" -ex "continue" \
  -ex "delete" -ex "pfbreak" -ex "continue" -ex "bt 6" \
  -ex "pgwalk \$pf_addr" -ex "pgwalk &jiffies" \
  -ex "pgwalk 0xffff888000200000" \
  -ex "virt2phys &jiffies" -ex "pfn 0x200" -ex "page mem_map + 0x101" -ex "buddyinfo" -ex "klog 200" \
  -ex "delete" -ex "break ktest_folio_checkpoint" -ex "continue" \
  -ex "folio -p &folio->page" -ex "folio -p &folio->page + 7" \
  -ex "help pgwalk" -ex "kill" >"$out" 2>&1
# A second session with user space: stop in fork's rmap call, look at the
# tasks, a VMA list with its folios, a task's page tables, user symbols,
# the linker symbols; then stop on a user page fault.
kill $qpid 2>/dev/null; wait $qpid 2>/dev/null
start_qemu --run "/bin/test_thp_cow"
timeout 120 gdb -q -batch -iex "set auto-load safe-path $PWD" \
  -ex "break folio_try_dup_anon_rmap_ptes" -ex "continue" -ex "tasks" -ex "vmas 1" \
  -ex "pgwalk -p 1 0x400000" -ex "usersyms init" -ex "info symbol main" -ex "linkersyms" \
  -ex "delete" -ex "break copy_huge_pmd" -ex "continue" -ex "vmas" \
  -ex "delete" -ex "pfbreak" -ex "continue" -ex "help vmas" -ex "kill" >>"$out" 2>&1
# A third with a tmpfs file mapped shared: the VMA's file, a page-cache folio
# (the first shmem one: the program's own text is a page-cache folio too).
kill $qpid 2>/dev/null; wait $qpid 2>/dev/null
start_qemu --run "/bin/test_filemap_proc"
timeout 120 gdb -q -batch -iex "set auto-load safe-path $PWD" \
  -ex "break folio_add_file_rmap_ptes if (folio->flags >> PG_swapbacked) & 1" -ex "continue" \
  -ex "vmas" -ex "folio -p &folio->page" \
  -ex "kill" >>"$out" 2>&1
# A fourth in a split: the folio frozen, its PTEs migration entries.
kill $qpid 2>/dev/null; wait $qpid 2>/dev/null
start_qemu --run "/bin/test_smp_split"
timeout 120 gdb -q -batch -iex "set auto-load safe-path $PWD" \
  -ex "break __split_unmapped_folio" -ex "continue" -ex "pgwalk folio->index*4096" \
  -ex "folio -p &folio->page" -ex "kill" >>"$out" 2>&1
# A fifth on the third variant: the 4 MiB folio of test_thp_4m, just mapped.
kill $qpid 2>/dev/null; wait $qpid 2>/dev/null
FOLIOS_VARIANT=mapcount-pages start_qemu --mapcount-pages --run "/bin/test_thp_4m"
FOLIOS_VARIANT=mapcount-pages timeout 120 gdb -q -batch -iex "set auto-load safe-path $PWD" \
  -ex "break do_huge_anonymous_multi_pmd" -ex "continue" -ex "finish" \
  -ex "pgwalk (vmf->address&~0x3fffff)+0x200000" -ex "folio (vmf->pmd->pmd>>12)&0xffffffffff" \
  -ex "kill" >>"$out" 2>&1
cat "$out"
n=0 failed=0
check() {  # check DESCRIPTION REGEX
  n=$((n + 1))
  if grep -qE -- "$2" "$out"; then echo "ok $n - gdb: $1"
  else echo "not ok $n - gdb: $1 (no /$2/)"; failed=1; fi
}
check "connects through .gdbinit" 'connected to QEMU on port'
check "hbreak kmain stops in long mode" 'kmain \(magic=|in kmain'
check "source-level next works" 'Line [0-9]+ of "kernel/main.c"'
check "stops in the page-fault handler" 'do_page_fault \(regs='
check "bt unwinds through the trap frame" 'paging_map_pte \(t=0x[0-9a-f]+\) at mm/ktest_pgtable.c'
check "prints CR2 and the decoded error code" 'page fault: CR2=0xffffc90000000000 error_code=0x0 \[not-present read kernel\]'
check "walks the faulting address to the missing level" 'PML4 \(PGD\) @ 0x[0-9a-f]+ \[402\] = 0x0+  not present'
check "walks a kernel-image address to a 4 KiB leaf" '=> 4 KiB page at 0x[0-9a-f]+: phys'
check "shows a PS leaf in the direct map" 'PD   \(PMD\) @ .* P W A D PS G NX'
check "translates virt2phys" '-> phys 0x[0-9a-f]+ \(pfn'
check "shows a page frame" 'pfn 0x200: phys 0x200000, direct map 0xffff888000200000'
check "page shows the frame of a struct page pointer" 'pfn 0x101: phys 0x101000'
check "shows a page frame's state" 'flags 0x[0-9a-f]+ \(reserved\) refcount 0 mapcount 0'
check "buddyinfo lists agree with counts" 'free pages: [0-9]+ \(zone says [0-9]+\)'
check "buddyinfo has no mismatch" '^ *10 +[0-9]+ +[0-9]+'
if grep -q MISMATCH "$out"; then echo "not ok $((n + 1)) - gdb: buddy list mismatch"; failed=1; fi
check "klog shows the kernel log" 'tsc: [0-9.]+ MHz'
check "helpers have help text" 'Walk the 4-level page tables'
check "folio shows the order and large mapcount" 'order: 4'
check "folio shows the large mapcount of two mms" 'large_mapcount: 32'
check "folio shows both MM ID slots" 'mm_id0: 1$'
check "folio shows slot 1's mapcount" 'mm_id1_mapcount: 16'
check "folio shows the shared bit" 'maybe_mapped_shared: 1'
check "folio shows the page mapcount (page-mapcount kernel)" 'page_mapcount: 2'
check "tasks lists init and marks the running task" '^ +1 +0 [RS] .* init\*?$'
check "vmas lists a VMA with its flags" '^0x0+400000-0x[0-9a-f]+ r'
check "vmas lists the folios in a VMA" 'pages  pfn 0x[0-9a-f]+ in folio 0x[0-9a-f]+ order 0'
check "pgwalk -p walks another task's tables" 'pgwalk 0x400000: PML4\[0\]'
check "usersyms loads a user program's symbols" 'main in section .text'
check "linkersyms gives typed linker/NASM symbols" '^\$boot_stack_top +='
check "vmas shows a PMD-mapped THP" 'order 9  \(PMD leaf\)|512 pages  pfn'
check "a user page fault names the task and its VMA" 'task [0-9]+ \(test_thp_cow\), VMA 0x'
check "vmas has help text" 'folios mapped there'
check "vmas names a file VMA's file, inode and offset" 'file /tmp/test_filemap_proc  inode [0-9]+  offset 0x0$'
check "folio shows a shmem folio's file" 'mapping: 0x[0-9a-f]+ \(shmem: address_space of inode [0-9]+\)'
check "pgwalk decodes a migration entry during a split" 'PT +\(PTE\).* migration (read|read-exclusive|write) pfn 0x[0-9a-f]+'
check "folio shows a 4 MiB folio's two PMD mappings (mapcount-pages)" '^total_mapped_pages: 1024 \(PMD mappings: 2\)'
check "pgwalk shows the 4 MiB folio's second PMD leaf, a user PS leaf" 'PD +\(PMD\).* U .*PS'
n=$((n + 1))
head=$(grep -m1 '^head_pfn:' "$out" | awk '{print $2}')
if [ -n "$head" ] && [ "$(grep -c "^head_pfn: $head\$" "$out")" = 2 ] &&
   grep -q "^pfn: $(printf '%#x' $((head + 7)))\$" "$out"; then
  echo "ok $n - gdb: folio resolves a tail pfn to its head"
else
  echo "not ok $n - gdb: folio resolves a tail pfn to its head"; failed=1
fi
exit $failed
