#!/usr/bin/env bash
# Run Linux's mm selftests, built by scripts/build-mm-selftests.sh, on the
# three foliOS variants (MM_VARIANTS to choose), one boot per program, and print each program's ksft
# "Totals" line (khugepaged prints none: its OK/Fail counts instead; a
# program that dies before its plan, as the kselftest_harness.h ones do
# without MAP_SHARED, shows "no Totals" and how the guest ended).
#
#   scripts/run-mm-selftests.sh BIN_DIR [PROGRAM ...]
#
# Each program runs in /tmp (a tmpfs), as Linux's run_vmtests.sh runs them
# in a writable directory: some create files in ".".
# Logs go to build/mm-selftests/<variant>/<program>.log.  The arguments are
# those of Linux's run_vmtests.sh where it passes any; khugepaged runs its
# MADV_COLLAPSE cases on anonymous memory only (foliOS has no khugepaged
# thread and no page cache yet).
set -u
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: scripts/run-mm-selftests.sh BIN_DIR [PROGRAM ...]" >&2; exit 2; }
bin=$(cd "$1" && pwd); shift
progs=${*:-cow madv_populate soft-dirty mkdirty map_fixed_noreplace transhuge-stress split_huge_page_test mremap_test mremap_dontunmap khugepaged gup_test gup_longterm merge guard-regions rmap mlock2-tests mlock-random-test}
args_of() {
  case $1 in
    transhuge-stress) echo "-d 20" ;;
    khugepaged) echo "madvise:anon" ;;
    gup_test) echo "-a" ;;
    *) echo "" ;;
  esac
}
for v in ${MM_VARIANTS:-page-mapcount no-page-mapcount mapcount-pages}; do
  flag=$([ $v = page-mapcount ] || echo --$v)
  mkdir -p "build/mm-selftests/$v"
  for p in $progs; do
    log=build/mm-selftests/$v/$p.log
    ./run-qemu.sh $flag --mem 2G --swap 1G --add "$bin/$p" --run "/bin/sh -c \"cd /tmp; /bin/$p $(args_of "$p")\"" --timeout 900 \
      </dev/null >"$log" 2>&1
    st=$(tail -1 "$log")
    tot=$(tr -d '\r' <"$log" | grep -a '# Totals' | tail -1)
    if [ -z "$tot" ] && [ "$p" = khugepaged ]; then
      tot="OK $(grep -ao 'mOK' "$log" | wc -l) Fail $(grep -ao 'mFail' "$log" | wc -l)"
    fi
    [ -n "$tot" ] || tot="no Totals"
    printf '%-18s %-18s %s  (%s)\n' "$v" "$p" "$tot" "$st"
  done
done
