#!/bin/sh
# SPDX-License-Identifier: MIT
# logcheck.sh - run one workload at small size (options may name another: the last --size holds)
# on configs/maxwell-gpuduet.ini with GPUDuet's log
# ([gpuduet] log) and the given settings; it must verify and its log must have a line matching
# the extended regular expression REGEX (docs/gpuduet.md "Log"). Prints the log's plan, me, l1d
# and total lines.
#   tests/gpuduet/logcheck.sh HEDDLE WORKLOAD REGEX [heddle run options...]
set -eu
heddle=$1 w=$2 re=$3
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-gduetl-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! "$heddle" run "$w" --size small --config configs/maxwell-gpuduet.ini \
        --set gpuduet.log="$tmp/g.log" "$@" > "$tmp/out" 2>&1; then
    echo "logcheck.sh: $w failed:"; cat "$tmp/out"; exit 1
fi
grep -q VERIFIED "$tmp/out" || { echo "logcheck.sh: $w did not verify:"; cat "$tmp/out"; exit 1; }
grep -E '^(plan|me|l1d|total) ' "$tmp/g.log" | head -20
grep -Eq "$re" "$tmp/g.log" || { echo "logcheck.sh: $w: no log line matches '$re'"; exit 1; }
echo "logcheck.sh: OK"
