#!/bin/sh
# SPDX-License-Identifier: MIT
# callgrind-compare.sh - host instructions per simulated run of two heddle binaries (valgrind
# --tool=callgrind counts instructions: repeatable whatever else the machine does, unlike
# seconds). For speed targets stated as ratios ("within 5 % of the previous commit").
#
#   bench/callgrind-compare.sh OLD_HEDDLE NEW_HEDDLE [WORKLOAD...]   (default: sgemm bfs stencil2d)
#
# SIZE (default small) chooses the input size; extra heddle arguments for the NEW binary only
# go in NEW_ARGS (e.g. NEW_ARGS="--set context.stress_period=5000").
set -eu
old=${1:?usage: callgrind-compare.sh OLD NEW [WORKLOAD...]}
new=${2:?usage: callgrind-compare.sh OLD NEW [WORKLOAD...]}
shift 2
[ $# -gt 0 ] || set -- sgemm bfs stencil2d
size=${SIZE:-small}
count() { # BIN ARGS... -> instructions
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" > /dev/null 2> "$tmp/cg" ||
        { cat "$tmp/cg" >&2; exit 1; }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/cg"
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/heddle-cg-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
printf '%-10s %16s %16s %8s\n' workload "old instrs" "new instrs" new/old
for w in "$@"; do
    o=$(count "$old" run "$w" --size "$size" --quiet)
    # shellcheck disable=SC2086
    n=$(count "$new" run "$w" --size "$size" --quiet ${NEW_ARGS:-})
    awk -v w="$w" -v o="$o" -v n="$n" 'BEGIN {printf "%-10s %16.0f %16.0f %8.4f\n", w, o, n, n / o}'
done
