#!/bin/sh
# SPDX-License-Identifier: MIT
# determinism.sh - the warp stress mode is deterministic: each workload twice with the same
# [sm] warp_stress_seed, a third time without idle-cycle skipping (identical cycles, memory
# statistics and warp counters), and a fourth time with another seed (must still verify, and
# differ). The loop: tests/lib/determinism_lib.sh.
#   tests/warp/determinism.sh HEDDLE PERIOD WORKLOAD...
set -eu
. "$(dirname "$0")/../lib/determinism_lib.sh"
det_heddle=$1
period=$2
shift 2
det_tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-warpdet-XXXXXX")
trap 'rm -rf "$det_tmp"' EXIT INT TERM
det_seed=sm.warp_stress_seed
det_counters='/"warp_switch_outs"\|"warp_switch_ins"\|"warp_absent_responses"/'
det_verify=1
fail=0
for w in "$@"; do
    det_four "$w" "$w" --size small --set sm.warp_stress_period="$period"
    outs=$(det_sum "$det_tmp/$w.1.json" warp_switch_outs)
    if [ "$outs" -eq 0 ]; then
        echo "determinism.sh: $w: the warp stress mode switched no warp out"; fail=1
    fi
    if det_compare "$w" 1; then
        echo "$w: $(det_cycles "$w" 1), $outs warps switched out, in three runs;" \
             "seed 8: $(det_cycles "$w" 4)"
    else
        fail=1
    fi
done
exit $fail
