#!/bin/sh
# SPDX-License-Identifier: MIT
# counter.sh - run one workload with the given settings, require it to verify and an SM counter
# (summed over the SMs of its --stats JSON) to be at least MIN; print the warp counters.
#   tests/warp/counter.sh HEDDLE WORKLOAD COUNTER MIN [heddle run options...]
set -eu
heddle=$1 w=$2 counter=$3 min=$4
shift 4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-warpctr-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! "$heddle" run "$w" --size small "$@" --stats "$tmp/s.json" > "$tmp/out" 2>&1; then
    echo "counter.sh: $w failed:"; cat "$tmp/out"; exit 1
fi
grep -q VERIFIED "$tmp/out" || { echo "counter.sh: $w did not verify:"; cat "$tmp/out"; exit 1; }
sum() { grep -o "\"$1\": [0-9]*" "$tmp/s.json" | awk '{s += $2} END {print s + 0}'; }
n=$(sum "$counter")
echo "$w: VERIFIED; $counter = $n (want >= $min); switch-outs $(sum warp_switch_outs)," \
     "switch-ins $(sum warp_switch_ins), absent loads $(sum warp_absent_loads)," \
     "placed absent $(sum warp_placed_absent), barrier releases with a warp absent" \
     "$(sum warp_absent_bar_releases), TB inactivations $(sum warp_cta_switch_outs)"
[ "$n" -ge "$min" ] || { echo "counter.sh: $w: $counter = $n < $min"; exit 1; }
# every warp that left (or was placed absent) came back or started (a waiting warp that never
# ran starts fresh with [sm] allocator = warpman): nothing is left absent at the end
out=$(( $(sum warp_switch_outs) + $(sum warp_placed_absent) ))
back=$(( $(sum warp_switch_ins) + $(sum warp_fresh_starts) ))
if [ "$out" -ne "$back" ]; then
    echo "counter.sh: $w: $out warps left or were placed absent, $back came back or started"
    exit 1
fi
