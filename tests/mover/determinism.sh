#!/bin/sh
# SPDX-License-Identifier: MIT
# determinism.sh - the swap and move stress modes are deterministic: each workload runs under
# each mode twice with the same seed and a third time without idle-cycle skipping, and the
# cycles, the SMs' mover, swap and stress counters and the memory statistics must be identical;
# a fourth run with another seed must still verify. The loop: tests/lib/determinism_lib.sh.
#   tests/mover/determinism.sh HEDDLE WORKLOAD...
set -eu
. "$(dirname "$0")/../lib/determinism_lib.sh"
det_heddle=$1
shift
det_tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-mvdet-XXXXXX")
trap 'rm -rf "$det_tmp"' EXIT INT TERM
det_seed=context.stress_seed
det_counters='/"\(mover\|swap\|vstress\|l1d_reserve\)[a-z_]*"/'
fail=0
for w in "$@"; do
    for mode in swap move; do
        det_four "$w.$mode" "$w" --size small --set context.${mode}_stress_period=500 \
            --set context.vstress_fraction=0.2 --set context.mover_l1d_ways=2 --quiet
        ops=$(grep -o "\"vstress_${mode}[a-z]*\": [0-9]*" "$det_tmp/$w.$mode.1.json" |
              awk '{s += $2} END {print s + 0}')
        if [ "$ops" -eq 0 ]; then
            echo "determinism.sh: $w: $mode stress did nothing"; fail=1
        elif det_compare "$w.$mode"; then
            echo "$w $mode: $(det_cycles "$w.$mode" 1), $ops pieces away and back, in three runs;" \
                 "seed 8: $(det_cycles "$w.$mode" 4)"
        else
            fail=1
        fi
    done
done
exit $fail
