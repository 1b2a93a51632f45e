#!/usr/bin/env bash
# Boot foliOS in QEMU (TCG).  Builds what is missing first.
#
#   run-qemu.sh [--no-page-mapcount | --mapcount-pages] [--no-rmap-trace] [--no-lockdep] [--append "ARGS"]
#               [--mem SIZE] [--smp N (1-8)]
#               [--timeout SECONDS] [--icount] [--gdb]
#               [--run "CMD ARGS"] [--add HOSTFILE|HOSTDIR[:/guest/path]]...
#               [--add-dynamic HOSTPROGRAM]... [--swap SIZE|IMAGE]
#
# --swap attaches a raw disk by virtio-blk (/dev/vda in the guest), as
# QEMU's `-drive file=IMG,if=virtio,format=raw`: SIZE (64M, 1G) makes a
# fresh image in the run's temporary directory with util-linux's mkswap,
# so the format is Linux's (the peer's --swap takes the same image); an
# existing IMAGE file is attached as it is (and written to).
# --add-dynamic puts a host program (Debian's /usr/bin/ls, say) at its own
# path with its shared libraries and loader (its ldd closure) at theirs.
#
# Exit status: the guest's (power-off status), 125 for a kernel panic, 124
# for a timeout.  The last line on stderr always says which:
#   foliOS: exit status N | foliOS: killed by signal S | foliOS: kernel panic
#   foliOS: timeout after N s
# The serial console is on stdio; Ctrl-A X quits QEMU.
set -u
root=$(cd "$(dirname "$0")" && pwd)
variant=page-mapcount nopm=0 mcpages=0 notrace=0 nolockdep=0 append="" mem=512M smp=1 timeout_s="" icount=() gdb=0
run_cmd="" adds=() swap=""
usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
# add_dynamic PROGRAM: PROGRAM and its ldd closure, each at its own path, into adds.
add_dynamic() {
  local lib
  [ -x "$1" ] || { echo "run-qemu.sh: --add-dynamic: not a program: $1" >&2; exit 2; }
  adds+=("$(readlink -f "$1"):$1")
  for lib in $(ldd "$1" 2>/dev/null | awk '/=> \//{print $3} /^\t\//{print $1}'); do
    adds+=("$(readlink -f "$lib"):$lib")
  done
}
while [ $# -gt 0 ]; do
  case "$1" in
    --no-page-mapcount) variant=no-page-mapcount nopm=1; shift ;;
    --mapcount-pages) variant=mapcount-pages mcpages=1; shift ;;
    --no-rmap-trace) notrace=1; shift ;;
    --no-lockdep) nolockdep=1; shift ;;
    --append) append="$append $2"; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --smp) smp=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --icount) icount=(-icount shift=0,sleep=off); shift ;;
    --gdb) gdb=1; shift ;;
    --run) run_cmd=$2; shift 2 ;;
    --add) adds+=("$2"); shift 2 ;;
    --add-dynamic) add_dynamic "$2"; shift 2 ;;
    --swap) swap=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "run-qemu.sh: unknown option $1" >&2; usage ;;
  esac
done

case "$smp" in [1-8]) ;; *) echo "run-qemu.sh: --smp: 1 to 8 CPUs, not '$smp'" >&2; exit 2 ;; esac
# Several CPUs: one host thread each (multi-threaded TCG), unless --icount,
# which needs QEMU's single thread.
accel=tcg
[ "$smp" -gt 1 ] && [ ${#icount[@]} = 0 ] && accel=tcg,thread=multi

"$root/scripts/install-deps.sh" || exit 2
make -s -C "$root" NO_PAGE_MAPCOUNT=$nopm MAPCOUNT_PAGES=$mcpages RMAP_TRACE=$((1 - notrace)) LOCKDEP=$((1 - nolockdep)) all >&2 ||
  { echo "run-qemu.sh: build failed" >&2; exit 2; }
[ $notrace = 1 ] && variant=$variant-notrace
[ $nolockdep = 1 ] && variant=$variant-nolockdep
iso="$root/build/$variant/folios.iso"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The initrd: the bundled programs in /bin, the dynamic loader in /lib, root in /etc/passwd, plus
# --add files; then BusyBox (Debian's busybox-static) as /bin/busybox with a
# link to it at each applet's path where nothing else is.
mkdir -p "$tmp/root/bin" "$tmp/root/lib" "$tmp/root/proc" "$tmp/root/sys" "$tmp/root/dev/shm" "$tmp/root/tmp" \
  "$tmp/root/etc" "$tmp/root/root"
echo 'root:x:0:0:root:/root:/bin/sh' > "$tmp/root/etc/passwd"    # names for ls -l, ps, id
echo 'root:x:0:' > "$tmp/root/etc/group"
echo 'export PATH=/sbin:/usr/sbin:/bin:/usr/bin' > "$tmp/root/etc/profile"   # the login shell's
cp "$root"/build/user/bin/* "$tmp/root/bin/"
cp "$root"/build/user/lib/* "$tmp/root/lib/"
for a in "${adds[@]}"; do
  host=${a%%:*} guest=/bin/$(basename "${a%%:*}")
  [[ $a == *:* ]] && guest=${a#*:}
  [ -e "$host" ] || { echo "run-qemu.sh: --add: no such file or directory: $host" >&2; exit 2; }
  rm -rf "$tmp/root$guest"                # a file, not what a link there points to
  mkdir -p "$tmp/root$(dirname "$guest")" && cp -a "$host" "$tmp/root$guest"
done
[ -e "$tmp/root/bin/busybox" ] || cp /bin/busybox "$tmp/root/bin/busybox"
python3 - "$tmp/root" <<'EOF'
import os, subprocess, sys
root = sys.argv[1]
applets = subprocess.run([root + '/bin/busybox', '--list-full'], capture_output=True, text=True)
for path in applets.stdout.split():
    path = os.path.join(root, path)
    if not os.path.lexists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink('/bin/busybox', path)
EOF
(cd "$tmp/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$tmp/initrd.cpio"

# --run "CMD ARGS": words (double quotes group) after " -- " for init, each
# with %, space and " written as %XX; only warnings from the kernel.
cmdline=${append# }
if [ -n "$run_cmd" ]; then
  [ -z "$timeout_s" ] && timeout_s=600
  [[ " $cmdline " == *" loglevel="* ]] || cmdline="$cmdline loglevel=5"
  words=() word="" inq=0 have=0
  for ((i = 0; i < ${#run_cmd}; i++)); do
    c=${run_cmd:i:1}
    if [ "$c" = '"' ]; then inq=$((1 - inq)); have=1
    elif [ "$c" = ' ' ] && [ $inq = 0 ]; then
      [ $have = 1 ] && words+=("$word"); word="" have=0
    else word+=$c; have=1; fi
  done
  [ $have = 1 ] && words+=("$word")
  cmdline="${cmdline# } --"
  for w in "${words[@]}"; do
    w=${w//%/%25}; w=${w// /%20}; w=${w//\"/%22}
    cmdline="$cmdline $w"
  done
fi

# The per-run disk: the command line (GRUB script syntax) and the initrd.
printf 'set cmdline="%s"\n' "${cmdline//\"/\\\"}" > "$tmp/folios-run.cfg"
mib=$(( ($(stat -c %s "$tmp/initrd.cpio") >> 20) + 2 ))
truncate -s ${mib}M "$tmp/run.img"
mformat -i "$tmp/run.img" -h 2 -s 32 -t $((mib * 32)) :: || exit 2
mcopy -i "$tmp/run.img" "$tmp/folios-run.cfg" ::/folios-run.cfg || exit 2
mcopy -i "$tmp/run.img" "$tmp/initrd.cpio" ::/initrd.cpio || exit 2

# --swap: a size makes a fresh mkswap'd image here; a file is used as it is.
drive=()
if [ -n "$swap" ]; then
  if [ -f "$swap" ]; then
    img=$(readlink -f "$swap")
  elif [[ $swap =~ ^[0-9]+[KMGT]?$ ]]; then
    img=$tmp/swap.img
    mkswap=$(command -v mkswap || echo /sbin/mkswap)       # in /sbin: not on every user's PATH
    truncate -s "$swap" "$img" && "$mkswap" -q "$img" >/dev/null ||
      { echo "run-qemu.sh: --swap: cannot make a $swap swap image" >&2; exit 2; }
  else
    echo "run-qemu.sh: --swap: neither a size (64M) nor an image file: $swap" >&2; exit 2
  fi
  drive=(-drive "file=$img,if=virtio,format=raw")
fi

qemu=(qemu-system-x86_64 -accel "$accel" -cpu max -m "$mem" -smp "$smp" -display none -serial mon:stdio -no-reboot -net none
      -boot d -cdrom "$iso" -drive "file=$tmp/run.img,format=raw,if=ide,index=0"
      -device isa-debug-exit,iobase=0xf4,iosize=0x01 -debugcon "file:$tmp/debugcon"
      "${drive[@]}" "${icount[@]}")
if [ $gdb = 1 ]; then
  port=${FOLIOS_GDB_PORT:-$((1234 + $(id -u) % 20000))}
  qemu+=(-S -gdb "tcp::$port")
  echo "$variant" > "$root/build/gdb-variant"
  # GDB reads ./.gdbinit only from directories the user trusts: trust this one.
  gdbinit=${XDG_CONFIG_HOME:-$HOME/.config}/gdb/gdbinit
  line="add-auto-load-safe-path $root/.gdbinit"
  if ! grep -qxF "$line" "$gdbinit" 2>/dev/null; then
    mkdir -p "$(dirname "$gdbinit")" && echo "$line" >> "$gdbinit" &&
      echo "run-qemu.sh: added '$line' to $gdbinit" >&2
  fi
  echo "run-qemu.sh: halted, GDB stub on port $port: run 'gdb' in $root" >&2
fi
if [ -n "$timeout_s" ]; then
  timeout --foreground "$timeout_s" "${qemu[@]}"
else
  "${qemu[@]}"
fi
rc=$?
if [ $rc = 124 ] && [ -n "$timeout_s" ]; then
  echo "foliOS: timeout after $timeout_s s" >&2; exit 124
fi
last=$(tail -n 1 "$tmp/debugcon" 2>/dev/null)
case "$rc:$last" in
  "33:status "*) status=${last#status }
    if [ "$status" -gt 128 ]; then echo "foliOS: killed by signal $((status - 128))" >&2
    else echo "foliOS: exit status $status" >&2; fi
    exit "$status" ;;
  125:*) echo "foliOS: kernel panic" >&2; exit 125 ;;
  0:*) echo "foliOS: QEMU quit (no power-off)" >&2; exit 0 ;;
  *) echo "foliOS: QEMU failed (exit status $rc)" >&2; exit 2 ;;
esac
