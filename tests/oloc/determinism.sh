#!/bin/sh
# SPDX-License-Identifier: MIT
# determinism.sh - the operand-location stress mode (docs/oloc.md) is deterministic: run each
# workload twice with the same [oloc] stress seed and a third time without idle-cycle skipping,
# and require identical cycles, SM counters (the oloc_* fills and writes among them) and memory
# statistics; the runs must have filled operands from ports and from memory; a fourth run with
# another seed must still verify and fill (its cycles may differ). The loop:
# tests/lib/determinism_lib.sh.
#   tests/oloc/determinism.sh HEDDLE PERIOD RATE WORKLOAD...
set -eu
. "$(dirname "$0")/../lib/determinism_lib.sh"
det_heddle=$1
period=$2
rate=$3
shift 3
det_tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-olocdet-XXXXXX")
trap 'rm -rf "$det_tmp"' EXIT INT TERM
det_seed=oloc.stress_seed
det_counters='/"oloc_/'
det_verify=1
fail=0
for w in "$@"; do
    det_four "$w" "$w" --size small --set oloc.stress_period="$period" \
        --set oloc.stress_rate="$rate"
    for i in 1 4; do
        f=$(det_sum "$det_tmp/$w.$i.json" oloc_fills) m=$(det_sum "$det_tmp/$w.$i.json" oloc_fills_mem)
        if [ "$f" -eq 0 ] || [ "$m" -eq 0 ]; then
            echo "determinism.sh: $w run $i: $f fills from ports, $m from memory (want both)"
            fail=1
        fi
    done
    if ! grep -q oloc_fills "$det_tmp/$w.1.dig"; then
        echo "determinism.sh: $w: no oloc counters in the statistics"; fail=1
    elif det_compare "$w"; then
        echo "$w: $(det_cycles "$w" 1), $(det_sum "$det_tmp/$w.1.json" oloc_fills) port fills," \
             "$(det_sum "$det_tmp/$w.1.json" oloc_fills_mem) memory fills, in three runs;" \
             "seed 8: $(det_cycles "$w" 4)"
    else
        fail=1
    fi
done
exit $fail
