#!/usr/bin/env bash
# make difftest / make difftest-record / make test's difftest section:
# builds the user programs, then runs scripts/difftest.py (docs/difftest.md).
#
#   difftest.sh hunt SEEDS [--steps N] [--minimise K] [--skip REGEX]...
#               foliOS (both variants) against live Linux; first divergences,
#               minimised; then the committed records checked against Linux
#   difftest.sh record [--check]
#               Linux's records of the fixed seeds into tests/difftest/linux/
#   difftest.sh check [--variant V] [--log FILE]
#               the fixed seeds on foliOS against the committed records (no peer needed)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" || exit 2
make -s -C "$root" user >&2 || { echo "difftest.sh: build failed" >&2; exit 2; }
exec python3 "$root/scripts/difftest.py" "$@"
