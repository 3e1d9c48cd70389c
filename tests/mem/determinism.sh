#!/bin/sh
# SPDX-License-Identifier: MIT
# determinism.sh - run workloads twice with the full memory system ([mem] model = full), and a
# third time without skipping idle cycles ([timing] skip_idle = false), and require identical
# cycle counts and identical memory-system statistics.
#   tests/mem/determinism.sh HEDDLE WORKLOAD...
set -eu
heddle=$1
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-memdet-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# the run's cycles and the whole memory section, from a --stats JSON report
digest() {
    sed -n -e 's/.*"totals": {"cycles": \([0-9]*\).*/cycles \1/p' \
        -e '/"memory": {/,/"samples": {/p' "$1"
}
fail=0
for w in "$@"; do
    for i in 1 2 3; do
        skip=true
        [ "$i" = 3 ] && skip=false
        "$heddle" run "$w" --size small --set mem.model=full --set timing.skip_idle=$skip --quiet \
            --stats "$tmp/$w.$i.json" > "$tmp/$w.$i.out" 2>&1 || {
            echo "determinism.sh: $w run $i failed:"; cat "$tmp/$w.$i.out"; exit 1; }
        digest "$tmp/$w.$i.json" > "$tmp/$w.$i.dig"
    done
    if [ ! -s "$tmp/$w.1.dig" ] || ! cmp -s "$tmp/$w.1.dig" "$tmp/$w.2.dig" ||
        ! cmp -s "$tmp/$w.1.dig" "$tmp/$w.3.dig"; then
        echo "determinism.sh: $w differs between runs (1, 2: the same; 3: no idle skipping):"
        diff "$tmp/$w.1.dig" "$tmp/$w.2.dig" || true
        diff "$tmp/$w.1.dig" "$tmp/$w.3.dig" || true
        fail=1
    else
        echo "$w: $(head -1 "$tmp/$w.1.dig") in all three runs"
    fi
done
exit $fail
