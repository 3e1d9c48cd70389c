#!/bin/sh
# SPDX-License-Identifier: MIT
# determinism.sh - the operand-location stress mode (docs/oloc.md) is deterministic: run each
# workload twice with the same [oloc] stress seed and a third time without idle-cycle skipping,
# and require identical cycles, SM counters (the oloc_* fills and writes among them) and memory
# statistics; the runs must have filled operands from ports and from memory; a fourth run with
# another seed must still verify and fill (its cycles may differ).
#   tests/oloc/determinism.sh HEDDLE PERIOD RATE WORKLOAD...
set -eu
heddle=$1
period=$2
rate=$3
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-olocdet-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
digest() {
    sed -n -e 's/.*"totals": {"cycles": \([0-9]*\).*/cycles \1/p' \
        -e '/"oloc_/p' \
        -e '/"memory": {/,/"samples": {/p' "$1"
}
sum() { # FILE COUNTER: the counter summed over the SMs
    grep -o "\"$2\": [0-9]*" "$1" | awk '{s += $2} END {print s + 0}'
}
fail=0
for w in "$@"; do
    for i in 1 2 3 4; do
        skip=true seed=7
        [ "$i" = 3 ] && skip=false
        [ "$i" = 4 ] && seed=8
        "$heddle" run "$w" --size small --set oloc.stress_period="$period" \
            --set oloc.stress_rate="$rate" --set oloc.stress_seed=$seed \
            --set timing.skip_idle=$skip --stats "$tmp/$w.$i.json" > "$tmp/$w.$i.out" 2>&1 || {
            echo "determinism.sh: $w run $i failed:"; cat "$tmp/$w.$i.out"; exit 1; }
        grep -q VERIFIED "$tmp/$w.$i.out" || {
            echo "determinism.sh: $w run $i did not verify:"; cat "$tmp/$w.$i.out"; exit 1; }
        digest "$tmp/$w.$i.json" > "$tmp/$w.$i.dig"
    done
    for i in 1 4; do
        f=$(sum "$tmp/$w.$i.json" oloc_fills) m=$(sum "$tmp/$w.$i.json" oloc_fills_mem)
        if [ "$f" -eq 0 ] || [ "$m" -eq 0 ]; then
            echo "determinism.sh: $w run $i: $f fills from ports, $m from memory (want both)"
            fail=1
        fi
    done
    if [ ! -s "$tmp/$w.1.dig" ] || ! grep -q oloc_fills "$tmp/$w.1.dig" ||
       ! cmp -s "$tmp/$w.1.dig" "$tmp/$w.2.dig"; then
        echo "determinism.sh: $w differs between two runs with the same seed:"
        diff "$tmp/$w.1.dig" "$tmp/$w.2.dig" | head -20 || true
        fail=1
    elif ! cmp -s "$tmp/$w.1.dig" "$tmp/$w.3.dig"; then
        echo "determinism.sh: $w: skipping idle cycles changed the result:"
        diff "$tmp/$w.1.dig" "$tmp/$w.3.dig" | head -20 || true
        fail=1
    else
        echo "$w: $(head -1 "$tmp/$w.1.dig"), $(sum "$tmp/$w.1.json" oloc_fills) port fills," \
             "$(sum "$tmp/$w.1.json" oloc_fills_mem) memory fills, in three runs;" \
             "seed 8: $(head -1 "$tmp/$w.4.dig")"
    fi
done
exit $fail
