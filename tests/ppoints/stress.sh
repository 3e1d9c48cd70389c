#!/bin/sh
# SPDX-License-Identifier: MIT
# stress.sh - Lin's selective preemption points under stress mode: each workload runs at small
# size with [context] points = selective and CTAs switched out every PERIOD cycles; its output
# must verify, warps must have stopped at points (ctx_pp_stops > 0) with the points decoded by
# pp_decode (pp_decodes > 0), no wait may hit the bound, and a second run must give the same
# cycles and counters (determinism). With LIMIT (pp_wait_limit) given, the bound must be hit
# instead (ctx_pp_timeouts > 0) and the output still verify.
#   tests/ppoints/stress.sh HEDDLE PERIOD FRACTION WORKLOAD [LIMIT]
set -eu
heddle=$1 period=$2 frac=$3 w=$4 limit=${5:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-ppstress-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
sum() { grep -o "\"$1\": [0-9]*" "$2" | awk '{s += $2} END {print s + 0}'; }
digest() {
    sed -n -e 's/.*"totals": {"cycles": \([0-9]*\).*/cycles \1/p' -e '/"ctx_/p' -e '/"pp_/p' "$1"
}
for i in 1 2; do
    "$heddle" run "$w" --size small --set context.points=selective \
        --set context.stress_period="$period" --set context.stress_fraction="$frac" \
        ${limit:+--set context.pp_wait_limit=$limit} --stats "$tmp/$i.json" > "$tmp/$i.out" 2>&1 || {
        echo "stress.sh: $w run $i failed:"; cat "$tmp/$i.out"; exit 1; }
    grep -q "VERIFIED" "$tmp/$i.out" || { echo "stress.sh: $w not verified:"; cat "$tmp/$i.out"; exit 1; }
    digest "$tmp/$i.json" > "$tmp/$i.dig"
done
stops=$(sum ctx_pp_stops "$tmp/1.json") dec=$(sum pp_decodes "$tmp/1.json")
tmo=$(sum ctx_pp_timeouts "$tmp/1.json") sus=$(sum ctx_suspends "$tmp/1.json")
echo "stress.sh: $w: VERIFIED, $sus suspends, $stops warps stopped at points, $dec words decoded, $tmo waits bounded"
if ! cmp -s "$tmp/1.dig" "$tmp/2.dig" || [ ! -s "$tmp/1.dig" ]; then
    echo "stress.sh: $w: two runs differ:"; diff "$tmp/1.dig" "$tmp/2.dig" | head; exit 1
fi
if [ -n "$limit" ]; then
    [ "$tmo" -gt 0 ] || { echo "stress.sh: $w: pp_wait_limit=$limit was never reached"; exit 1; }
else
    [ "$stops" -gt 0 ] && [ "$dec" -gt 0 ] || { echo "stress.sh: $w: no warp stopped at a decoded point"; exit 1; }
    [ "$tmo" -eq 0 ] || { echo "stress.sh: $w: $tmo waits hit pp_wait_limit"; exit 1; }
fi
echo "stress.sh: $w: deterministic"
