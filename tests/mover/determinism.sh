#!/bin/sh
# SPDX-License-Identifier: MIT
# determinism.sh - the swap and move stress modes are deterministic: each workload runs under
# each mode twice with the same seed and a third time without idle-cycle skipping, and the
# cycles, the SMs' mover, swap and stress counters and the memory statistics must be identical;
# a fourth run with another seed must still verify.
#   tests/mover/determinism.sh HEDDLE WORKLOAD...
set -eu
heddle=$1
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-mvdet-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
digest() {
    sed -n -e '/"preempt_policy"/d' -e 's/.*"totals": {"cycles": \([0-9]*\).*/cycles \1/p' \
        -e '/"\(mover\|swap\|vstress\|l1d_reserve\)[a-z_]*"/p' \
        -e '/"memory": {/,/"samples": {/p' "$1"
}
fail=0
for w in "$@"; do
    for mode in swap move; do
        for i in 1 2 3 4; do
            skip=true seed=7
            [ "$i" = 3 ] && skip=false
            [ "$i" = 4 ] && seed=8
            "$heddle" run "$w" --size small --set context.${mode}_stress_period=500 \
                --set context.vstress_fraction=0.2 --set context.mover_l1d_ways=2 \
                --set context.stress_seed=$seed --set timing.skip_idle=$skip --quiet \
                --stats "$tmp/$w.$mode.$i.json" > "$tmp/$w.$mode.$i.out" 2>&1 || {
                echo "determinism.sh: $w $mode run $i failed:"; cat "$tmp/$w.$mode.$i.out"; exit 1; }
            digest "$tmp/$w.$mode.$i.json" > "$tmp/$w.$mode.$i.dig"
        done
        ops=$(grep -o "\"vstress_${mode}[a-z]*\": [0-9]*" "$tmp/$w.$mode.1.json" |
              awk '{s += $2} END {print s + 0}')
        d="$tmp/$w.$mode"
        if [ "$ops" -eq 0 ]; then
            echo "determinism.sh: $w: $mode stress did nothing"; fail=1
        elif [ ! -s "$d.1.dig" ] || ! cmp -s "$d.1.dig" "$d.2.dig"; then
            echo "determinism.sh: $w $mode differs between two runs with the same seed:"
            diff "$d.1.dig" "$d.2.dig" | head -20 || true
            fail=1
        elif ! cmp -s "$d.1.dig" "$d.3.dig"; then
            echo "determinism.sh: $w $mode: skipping idle cycles changed the result:"
            diff "$d.1.dig" "$d.3.dig" | head -20 || true
            fail=1
        else
            echo "$w $mode: $(head -1 "$d.1.dig"), $ops pieces away and back, in three runs;" \
                 "seed 8: $(head -1 "$d.4.dig")"
        fi
    done
done
exit $fail
