#!/usr/bin/env bash
# The mapcount trace's ready examples: run each story of user/tools/story.c in
# QEMU with the trace on, save the trace as docs/pictures/trace-STORY-VARIANT.txt
# and draw it as docs/pictures/trace-STORY-VARIANT.png (scripts/trace-plot.py).
#   scripts/mapcount-trace.sh [--no-page-mapcount] [STORY...]   (default: fork-exec three swap)
set -euo pipefail
cd "$(dirname "$0")/.."
flag= variant=page-mapcount
if [ "${1:-}" = --no-page-mapcount ]; then flag=$1 variant=no-page-mapcount; shift; fi
stories=("$@"); [ ${#stories[@]} -gt 0 ] || stories=(fork-exec three swap)
mkdir -p docs/pictures
for story in "${stories[@]}"; do
  out=docs/pictures/trace-$story-$variant
  ./run-qemu.sh $flag --swap 64M --run "/bin/story $story" </dev/null 2>/dev/null | tr -d '\r' | grep '^#[0-9]' >"$out.txt"
  python3 scripts/trace-plot.py "$out.txt" "$out.png" "story $story ($variant)"
  echo "$out.txt ($(wc -l <"$out.txt") records) -> $out.png"
done
