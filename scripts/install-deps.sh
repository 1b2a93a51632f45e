#!/usr/bin/env bash
# Make sure every tool foliOS needs is installed (docs/contract.md).
# Nothing missing: no apt call at all.  Missing and root: apt-get update +
# install.  Missing and not root: print the command and exit 2.
set -u
# tool-or-file  package
need=(
  "make make" "gcc gcc" "ld binutils" "nasm nasm" "grub-mkrescue grub-common"
  "/usr/lib/grub/i386-pc/modinfo.sh grub-pc-bin" "xorriso xorriso" "mformat mtools"
  "qemu-system-x86_64 qemu-system-x86" "musl-gcc musl-tools" "cpio cpio" "gdb gdb"
  "python3 python3" "/usr/include/cmocka.h libcmocka-dev" "clang clang"
  "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev"
  "gnuplot gnuplot-nox" "dot graphviz" "/bin/busybox busybox-static" "/sbin/mkswap util-linux"
)
missing=()
for entry in "${need[@]}"; do
  what=${entry% *} pkg=${entry#* }
  if [[ $what == /* ]]; then
    ls $what >/dev/null 2>&1 || missing+=("$pkg")
  else
    command -v "$what" >/dev/null 2>&1 || missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "foliOS needs these packages; please run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 2
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 && apt-get install -y -qq "${missing[@]}" >&2
