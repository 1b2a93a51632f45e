#!/usr/bin/env bash
# Run host test binaries (cmocka, TAP output); print "N passed, N failed".
set -u
pass=0 fail=0
for t in "$@"; do
  out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1)
  rc=$?
  printf '%s\n' "$out" | sed "s|^|  $(basename "$t"): |"
  p=$(printf '%s\n' "$out" | grep -c '^ok ')
  f=$(printf '%s\n' "$out" | grep -c '^not ok ')
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "  $(basename "$t"): exited $rc"; fi
  pass=$((pass + p)) fail=$((fail + f))
done
echo "host: $pass passed, $fail failed"
[ $fail -eq 0 ]
