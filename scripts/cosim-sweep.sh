#!/bin/sh
# SPDX-License-Identifier: MIT
# cosim-sweep.sh - `heddle cosim --blocks regpat W` (Verilated RTL in lockstep with the C
# references, every output port compared every cycle) on every workload; one markdown row per
# workload (samples, block cycles, cycles compared against the RTL, mismatches, wall time) and
# the total. Exit 1 if any workload fails or mismatches. CTest cosim_all_small runs it.
#   usage: scripts/cosim-sweep.sh [BUILD_DIR] [extra heddle cosim options, e.g. --size small]
# With --in-loop among the options (blocks stepped in the timing loop by the save/restore
# engine, e.g. --in-loop --stress 500) the row is: cycles, instances, block steps, steps
# against the RTL, mismatches. Default build dir: build. docs/blocks/regpat.md records the last run.
set -u
build=${1:-build}
[ $# -gt 0 ] && shift
heddle=$build/heddle
[ -x "$heddle" ] || { echo "cosim-sweep: no $heddle (build first)" >&2; exit 2; }
workloads=$("$heddle" list | awk 'NR > 1 && (!NF || /^\(/) { exit } NR > 1 { print $1 }')
inloop=0
for a in "$@"; do [ "$a" = --in-loop ] && inloop=1; done
if [ $inloop = 1 ]; then
    echo "| workload | cycles | instances | block steps | against RTL | mismatches | wall s |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
else
    echo "| workload | samples | warps | barrier points | block cycles | against RTL | mismatches | wall s |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|"
fi
fail=0
t0=$(date +%s.%N)
for w in $workloads; do
    s=$(date +%s.%N)
    out=$("$heddle" cosim --blocks regpat "$w" "$@" 2>&1)
    rc=$?
    e=$(date +%s.%N)
    if [ $inloop = 1 ]; then
        # "W: verified (small), C cycles, blocks in the timing loop: I instances (R against RTL,
        #  KIND), S block steps (T against RTL), 0 mismatches, T s"
        line=$(printf '%s\n' "$out" | grep "^$w: .*blocks in the timing loop" | tail -1)
        row=$(printf '%s\n' "$line" | sed -E 's/^[^,]*, ([0-9]+) cycles, blocks in the timing loop: ([0-9]+) instances .*\), ([0-9]+) block steps \(([0-9]+) against RTL\), (0 mismatches|MISMATCH), .*/\1 | \2 | \3 | \4 | \5/')
    else
        line=$(printf '%s\n' "$out" | grep "^$w: .*context samples" | tail -1)
        # "W: verified (small), S context samples (N warps), B barrier points, C block cycles
        #  (R against RTL on I instances, KIND), 0 mismatches, T s"
        row=$(printf '%s\n' "$line" | sed -E 's/^[^,]*, ([0-9]+) context samples \(([0-9]+) warps\), ([0-9]+) barrier points, ([0-9]+) block cycles \(([0-9]+) against RTL.*, (0 mismatches|MISMATCH), .*/\1 | \2 | \3 | \4 | \5 | \6/')
    fi
    mm=$(printf '%s' "$row" | grep -q "0 mismatches" && echo 0 || echo FAIL)
    row=$(printf '%s' "$row" | sed 's/0 mismatches/0/')
    [ "$rc" -eq 0 ] && [ "$mm" = 0 ] || { fail=1; row="${row:-(no summary)} (exit $rc)"; }
    printf '| %s | %s | %s |\n' "$w" "$row" "$(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.1f", b - a }')"
    [ "$rc" -eq 0 ] || printf '%s\n' "$out" | tail -5 | sed 's/^/    /' >&2
done
printf 'total wall time: %s s\n' "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
exit $fail
