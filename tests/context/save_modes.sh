#!/bin/sh
# SPDX-License-Identifier: MIT
# save_modes.sh - Lin's save techniques ([context] save = occupied | live | compressed: Occup,
# live, live+cp) under stress mode: each verifies, live+cp (the blocks in the loop) gives the
# same cycles and context bytes twice with the same seed, and the bytes a save writes in Lin's layout shrink from Occup to live to
# live+cp on a kernel whose live registers compress (sgemm: thread-index and address registers).
#   tests/context/save_modes.sh HEDDLE WORKLOAD [ordered]
set -eu
heddle=$1 w=$2 order=${3:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-ctxsave-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
prev=
for mode in occupied live compressed; do
    runs="1 2"
    [ "$mode" = compressed ] || runs=1
    for i in $runs; do
        "$heddle" run "$w" --size small --set context.save=$mode \
            --set context.stress_period=2000 --set context.stress_fraction=0.25 \
            --set context.stress_seed=11 > "$tmp/$mode.$i" 2>&1 || {
            cat "$tmp/$mode.$i"; echo "save_modes.sh: $w $mode run $i failed"; exit 1; }
        grep -q VERIFIED "$tmp/$mode.$i" || { cat "$tmp/$mode.$i"; exit 1; }
    done
    key() { sed -n -e 's/^ *cycles *\([0-9]*\).*/cycles \1/p' \
                   -e 's/.* \([0-9]*\) saved (evicted).*; \([0-9]*\) bytes saved.*/saves \1 bytes \2/p' "$1"; }
    key "$tmp/$mode.1" > "$tmp/$mode.k1"
    key "$tmp/$mode.$(echo $runs | awk '{print $NF}')" > "$tmp/$mode.k2"
    if ! cmp -s "$tmp/$mode.k1" "$tmp/$mode.k2" || [ ! -s "$tmp/$mode.k1" ]; then
        echo "save_modes.sh: $w $mode differs between two runs with the same seed"
        diff "$tmp/$mode.k1" "$tmp/$mode.k2" || true
        exit 1
    fi
    saves=$(sed -n 's/^saves \([0-9]*\) .*/\1/p' "$tmp/$mode.k1")
    bytes=$(sed -n 's/.* bytes \([0-9]*\)/\1/p' "$tmp/$mode.k1")
    [ "$saves" -ge 1 ] || { echo "save_modes.sh: $w $mode saved nothing"; exit 1; }
    per=$((bytes / saves))
    echo "$w $mode: $(sed -n 's/^cycles //p' "$tmp/$mode.k1") cycles, $saves saves, $per bytes per save"
    if [ -n "$order" ] && [ -n "$prev" ] && [ "$per" -ge "$prev" ]; then
        echo "save_modes.sh: $w: $mode writes $per bytes per save, not fewer than $prev"; exit 1
    fi
    prev=$per
done
