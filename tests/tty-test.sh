#!/usr/bin/env bash
# The console as a user types into it: boot ./run-qemu.sh with the shell and
# drive its serial console (QEMU's stdio) from a coprocess, expect-style.
#   1. paste: 250 lines (over 4 KiB) of `echo L"="N abcdefghijklmn` written at once after
#      the first prompt; every output line L=N must arrive, then `exit 7`
#      must power off with status 7.  (The quotes keep the echoed input
#      from matching: only the command's output reads L=N; it may follow
#      the echo of later typeahead on a line, as on Linux.)
#   2. Ctrl-C: `cat` blocked reading the console dies of SIGINT (byte 0x03)
#      and the shell survives to run the next command and exit 3; ^U
#      (0x15) kills a typed line and DEL erases a byte; ^D (0x04) at a
#      line's start is end of file for cat.
#   3. job control: ^Z (0x1a) stops `sleep 30`, ash reports it Stopped,
#      `fg` puts it back in the foreground, where ^C kills it (status 130).
#   4. output processing: after `stty -opost` (raw output, as vi and less
#      set it) or `stty -onlcr` a "\n" goes out alone, without the "\r"
#      ONLCR adds by default.
# The shell is BusyBox ash (prompt "/ # "), with /dev/ttyS0 as its terminal.
# Usage: tests/tty-test.sh [--no-page-mapcount] [--smp N] (on N CPUs the
# UART's interrupt and the reading shell are on different CPUs now and
# then).  Prints "ok N - ..." / "not ok N - ..." lines; exits 1 if one failed.
set -u
cd "$(dirname "$0")/.."
flag= smp=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-page-mapcount) flag=$1; shift ;;
    --smp) smp=$2; shift 2 ;;
    *) sed -n '13,15p' "$0"; exit 2 ;;
  esac
done
tag=${flag:+-nopm}
[ "$smp" = 1 ] || tag="$tag-smp$smp"
lines=250
PROMPT='/ # '                           # BusyBox ash's, as root in /
log=build/test-logs
mkdir -p "$log"
fails=0 n=0
result() {  # result OK|FAIL DESCRIPTION
  n=$((n + 1))
  if [ "$1" = OK ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi
}

# expect PATTERN SECONDS: wait until the console output (in $out) matches.
expect() {
  local end=$((SECONDS + $2))
  while [ $SECONDS -lt $end ]; do
    tr -d '\r' <"$out" | grep -qE "$1" && return 0
    sleep 0.2
  done
  return 1
}

# prompts N SECONDS: wait until the shell has printed its Nth prompt, so
# that what is typed next is echoed after it (under load the prompt may
# otherwise follow the echo of a line typed ahead, as on Linux).
prompts() {
  local end=$((SECONDS + $2))
  while [ $SECONDS -lt $end ]; do
    [ "$(tr -d '\r' <"$out" | grep -cE "^$PROMPT")" -ge "$1" ] && return 0
    sleep 0.2
  done
  return 1
}

# boot NAME: start QEMU with the shell; its input is fd 7 ($in is a FIFO).
boot() {
  out="$log/tty-$1$tag.log" in=$(mktemp -u)
  mkfifo "$in"
  ./run-qemu.sh $flag --smp "$smp" --timeout 120 <"$in" >"$out" 2>&1 &
  qpid=$!
  exec 7>"$in"
  rm -f "$in"
}

# finish: close the input, wait for QEMU; sets rc.
finish() {
  exec 7>&-
  wait $qpid
  rc=$?
}

boot paste
expect "^$PROMPT" 60 || echo "# no prompt" >&2
for i in $(seq 1 $lines); do printf 'echo L"="%d abcdefghijklmn\n' "$i"; done >"$log/tty-paste${flag:+-nopm}.in"
printf 'exit 7\n' >>"$log/tty-paste${flag:+-nopm}.in"
cat "$log/tty-paste${flag:+-nopm}.in" >&7
expect 'foliOS: ' 90
finish
got=$(tr -d '\r' <"$out" | grep -oE 'L=[0-9]+ abcdefghijklmn' | sort -u | wc -l)
result $([ "$got" = $lines ] && [ $rc = 7 ] && echo OK || echo FAIL) \
  "pasting $(wc -c <"$log/tty-paste${flag:+-nopm}.in") bytes ($lines commands) into sh runs every one: $got of $lines, exit $rc"

boot ctrl-c
expect "^$PROMPT" 60
printf 'cat\n' >&7
sleep 2                                 # cat is reading the console
printf '\003' >&7
prompts 2 20
printf 'echo st=$?\n' >&7
expect '^st=130$' 20
prompts 3 20
printf 'echo bad\025echo al""ivX\177e\n' >&7
expect '^alive$' 20
prompts 4 20
printf 'cat\n' >&7
sleep 2
printf 'x"y\n\004' >&7
printf 'echo do""ne\n' >&7                # sh runs it once cat has ended
expect 'done$' 20
sleep 1
printf 'sleep 30\n' >&7
sleep 2
printf '\032' >&7                         # ^Z: the job stops, the shell says so
expect 'Stopped +sleep 30' 20
printf 'fg\n' >&7
sleep 2
printf '\003' >&7
sleep 1
printf 'echo jc=$?\n' >&7
expect '^jc=130$' 20
printf 'stty -opost; echo R""1; stty opost; stty -onlcr; echo R""2; stty onlcr; echo R""3\n' >&7
expect '^R3$' 20
printf 'exit 3\n' >&7
expect 'foliOS: ' 20
finish
ok=OK
tr -d '\r' <"$out" | grep -qx 'st=130' || ok=FAIL         # 128 + SIGINT
tr -d '\r' <"$out" | grep -qx 'alive' || ok=FAIL
[ $rc = 3 ] || ok=FAIL
result $ok "Ctrl-C kills the foreground cat with SIGINT, the shell survives (exit $rc)"
ok=OK
# the echo of x"y, and cat's copy of it: on a line of its own, or after the
# echo of the typeahead when cat writes later (on SMP), as on Linux
[ "$(tr -d '\r' <"$out" | grep -c 'x"y$')" = 2 ] && tr -d '\r' <"$out" | grep -qx 'x"y' &&
  tr -d '\r' <"$out" | grep -q 'done$' || ok=FAIL
result $ok "^D at a line's start ends cat's input, the line before it was read whole"
ok=OK
tr -d '\r' <"$out" | grep -qE '\[1\]\+ +Stopped +sleep 30' && tr -d '\r' <"$out" | grep -qx 'jc=130' || ok=FAIL
result $ok "^Z stops the foreground job (ash: Stopped), fg continues it in the foreground, ^C ends it"
ok=OK
grep -aqx 'R1' "$out" && grep -aqx 'R2' "$out" && grep -aqx $'R3\r' "$out" || ok=FAIL
result $ok "stty -opost and -onlcr: a newline goes out without the carriage return ONLCR adds"
[ $fails = 0 ]
