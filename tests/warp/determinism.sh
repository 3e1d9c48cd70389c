#!/bin/sh
# SPDX-License-Identifier: MIT
# determinism.sh - the warp stress mode is deterministic: each workload twice with the same
# [sm] warp_stress_seed, a third time without idle-cycle skipping (identical cycles, memory
# statistics and warp counters), and a fourth time with another seed (must still verify).
#   tests/warp/determinism.sh HEDDLE PERIOD WORKLOAD...
set -eu
heddle=$1
period=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-warpdet-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
digest() {
    sed -n -e 's/.*"totals": {"cycles": \([0-9]*\).*/cycles \1/p' \
        -e '/"warp_switch_outs"\|"warp_switch_ins"\|"warp_absent_responses"/p' \
        -e '/"memory": {/,/"samples": {/p' "$1"
}
fail=0
for w in "$@"; do
    for i in 1 2 3 4; do
        skip=true seed=7
        [ "$i" = 3 ] && skip=false
        [ "$i" = 4 ] && seed=8
        "$heddle" run "$w" --size small --set sm.warp_stress_period="$period" \
            --set sm.warp_stress_seed=$seed --set timing.skip_idle=$skip \
            --stats "$tmp/$w.$i.json" > "$tmp/$w.$i.out" 2>&1 || {
            echo "determinism.sh: $w run $i failed:"; cat "$tmp/$w.$i.out"; exit 1; }
        grep -q VERIFIED "$tmp/$w.$i.out" || {
            echo "determinism.sh: $w run $i did not verify:"; cat "$tmp/$w.$i.out"; exit 1; }
        digest "$tmp/$w.$i.json" > "$tmp/$w.$i.dig"
    done
    outs=$(grep -o '"warp_switch_outs": [0-9]*' "$tmp/$w.1.json" | awk '{s += $2} END {print s + 0}')
    if [ "$outs" -eq 0 ]; then
        echo "determinism.sh: $w: the warp stress mode switched no warp out"; fail=1
    fi
    if [ ! -s "$tmp/$w.1.dig" ] || ! cmp -s "$tmp/$w.1.dig" "$tmp/$w.2.dig"; then
        echo "determinism.sh: $w differs between two runs with the same seed:"
        diff "$tmp/$w.1.dig" "$tmp/$w.2.dig" | head -20 || true
        fail=1
    elif ! cmp -s "$tmp/$w.1.dig" "$tmp/$w.3.dig"; then
        echo "determinism.sh: $w: skipping idle cycles changed the result:"
        diff "$tmp/$w.1.dig" "$tmp/$w.3.dig" | head -20 || true
        fail=1
    elif cmp -s "$tmp/$w.1.dig" "$tmp/$w.4.dig"; then
        echo "determinism.sh: $w: another seed gave the same switches and cycles"; fail=1
    else
        echo "$w: $(head -1 "$tmp/$w.1.dig"), $outs warps switched out, in three runs;" \
             "seed 8: $(head -1 "$tmp/$w.4.dig")"
    fi
done
exit $fail
