#!/bin/sh
# SPDX-License-Identifier: MIT
# run-bench-context.sh - simulation speed of the context lifecycle (issue 11's benchmark): the
# same workloads with two heddle binaries in one run (OLD = the commit before the lifecycle,
# NEW = this tree), alternating so that both see the same machine load, and NEW in stress mode.
#
#   bench/run-bench-context.sh OLD_HEDDLE [NEW_HEDDLE]     (default NEW: build/heddle)
#
# sgemm, bfs, stencil2d at $SIZE (default medium), fermi-gtx480, timing mode. With REPEAT=N
# (default 3) the fastest of N runs is kept. KIPS = thousand warp instructions per second of
# process CPU time (user + system: the machine may be shared). Stress mode: every 5,000 cycles
# each resident CTA is switched out with probability 0.1. Prints a table and writes
# bench/results-context.json (or $OUT). Target: NEW within 5 % of OLD without preemption.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
old=${1:?usage: run-bench-context.sh OLD_HEDDLE [NEW_HEDDLE]}
new=${2:-$root/build/heddle}
size=${SIZE:-medium}
repeat=${REPEAT:-3}
out=${OUT:-$here/results-context.json}
cd "$root"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/heddle-bench-ctx-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# cpu BIN WORKLOAD [ARGS] -> "cpu_seconds warp_instrs"
cpu() {
    bin=$1 w=$2
    shift 2
    /usr/bin/time -f "%U %S" -o "$tmp/t" "$bin" run "$w" --size "$size" --quiet "$@" \
        --stats "$tmp/s.json" > "$tmp/o" 2>&1 || { cat "$tmp/o" >&2; exit 1; }
    instrs=$(sed -n 's/.*"totals": {"cycles": [0-9]*, "skipped_cycles": [0-9]*, "warp_instrs": \([0-9]*\).*/\1/p' "$tmp/s.json" | head -1)
    awk -v i="$instrs" '{printf "%.3f %s\n", $1 + $2, i}' "$tmp/t"
}
best() { # keep the smaller cpu time
    if [ -z "$1" ]; then echo "$2"; else echo "$1
$2" | sort -n | head -1; fi
}
printf '%-10s %12s %12s %8s %14s\n' workload "old KIPS" "new KIPS" new/old "stress KIPS"
echo "[" > "$out.tmp"
first=1
for w in sgemm bfs stencil2d; do
    o="" n="" s=""
    i=0
    while [ "$i" -lt "$repeat" ]; do
        o=$(best "$o" "$(cpu "$old" "$w")")
        n=$(best "$n" "$(cpu "$new" "$w")")
        s=$(best "$s" "$(cpu "$new" "$w" --set context.stress_period=5000 --set context.stress_fraction=0.1)")
        i=$((i + 1))
    done
    line=$(printf '%s\n%s\n%s\n' "$o" "$n" "$s" | awk -v w="$w" '
        NR == 1 {ok = $2 / $1 / 1000} NR == 2 {nk = $2 / $1 / 1000} NR == 3 {sk = $2 / $1 / 1000}
        END {printf "%s %.0f %.0f %.3f %.0f\n", w, ok, nk, nk / ok, sk}')
    set -- $line
    printf '%-10s %12s %12s %8s %14s\n' "$1" "$2" "$3" "$4" "$5"
    [ $first = 1 ] || echo "," >> "$out.tmp"
    first=0
    printf '  {"workload": "%s", "size": "%s", "old_kips": %s, "new_kips": %s, "new_over_old": %s, "stress_kips": %s}' \
        "$1" "$size" "$2" "$3" "$4" "$5" >> "$out.tmp"
done
printf '\n]\n' >> "$out.tmp"
mv "$out.tmp" "$out"
