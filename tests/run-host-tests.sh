#!/usr/bin/env bash
# Run host test binaries (cmocka, TAP output); print "N passed, N failed"
# (cmocka writes a skipped test as "not ok N # SKIP": counted apart).
set -u
pass=0 fail=0 skip=0
for t in "$@"; do
  out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1)
  rc=$?
  printf '%s\n' "$out" | sed "s|^|  $(basename "$t"): |"
  p=$(printf '%s\n' "$out" | grep -c '^ok ')
  s=$(printf '%s\n' "$out" | grep -c '^not ok [0-9]* # SKIP')
  f=$(( $(printf '%s\n' "$out" | grep -c '^not ok ') - s ))
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "  $(basename "$t"): exited $rc"; fi
  pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
line="host: $pass passed, $fail failed"
[ $skip -gt 0 ] && line="$line ($skip skipped)"
echo "$line"
[ $fail -eq 0 ]
