#!/bin/sh
# SPDX-License-Identifier: MIT
# priority.sh - context traffic at low priority disturbs a co-running kernel less: sgemm and
# vecadd co-run in stress mode (every 2,000 cycles each CTA is switched out with probability
# 0.5: with the preemption controller saving and restoring one TB at a time per SM, fewer
# switches leave too little context traffic for the priority to show above the run-to-run
# spread), once with [context] priority = low (demand requests leave the miss queue first) and
# once = equal; vecadd's mean load latency (its own loads only) must be lower with low.
#   tests/context/priority.sh HEDDLE
set -eu
heddle=$1
lat() {
    "$heddle" run --mix sgemm+vecadd --size small --set context.stress_period=2000 \
        --set context.stress_fraction=0.5 --set context.priority="$1" --quiet 2>&1 |
        sed -n 's/.*traffic classes: .*its own loads:.* 1: \([0-9.]*\).*/\1/p'
}
low=$(lat low) equal=$(lat equal)
[ -n "$low" ] && [ -n "$equal" ] || { echo "priority.sh: no per-launch latency in the output"; exit 1; }
echo "vecadd mean load latency beside stressed sgemm: context priority low $low, equal $equal cycles"
awk -v a="$low" -v b="$equal" 'BEGIN { exit !(a < b) }'
