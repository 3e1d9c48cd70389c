#!/bin/sh
# SPDX-License-Identifier: MIT
# determinism.sh - stress mode is deterministic: run each workload twice with the same
# [context] stress seed, and a third time without idle-cycle skipping, and require identical
# cycles, memory statistics and context counters; a fourth run with another seed must still
# verify (its cycles may differ). The loop: tests/lib/determinism_lib.sh.
#   tests/context/determinism.sh HEDDLE PERIOD WORKLOAD...
set -eu
. "$(dirname "$0")/../lib/determinism_lib.sh"
det_heddle=$1
period=$2
shift 2
det_tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-ctxdet-XXXXXX")
trap 'rm -rf "$det_tmp"' EXIT INT TERM
det_seed=context.stress_seed
det_counters='/"ctx_saves"/'
fail=0
for w in "$@"; do
    det_four "$w" "$w" --size small --set context.stress_period="$period" \
        --set context.stress_fraction=0.05 --quiet
    saves=$(det_sum "$det_tmp/$w.1.json" ctx_saves)
    if [ "$saves" -eq 0 ]; then
        echo "determinism.sh: $w: stress mode saved no context"; fail=1
    fi
    if det_compare "$w"; then
        echo "$w: $(det_cycles "$w" 1), $saves contexts saved, in three runs;" \
             "seed 8: $(det_cycles "$w" 4)"
    else
        fail=1
    fi
done
exit $fail
