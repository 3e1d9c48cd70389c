#!/bin/sh
# SPDX-License-Identifier: MIT
# forward.sh - a warp suspended with a load in flight receives its data after it resumes on
# another SM: the pointer chase (one thread, one dependent load after another, so a load is
# always in flight) is context-switched out every PERIOD cycles (stress mode, every CTA) and
# resumed elsewhere; the loads' responses reach the old SM after the warp has moved and must be
# forwarded to the new one; the final pointer must still verify. Registers are counted as
# Heddle's allocator counts them (8 for the chase): with ptxas's 21 the save takes longer than
# a load, so every response finds the warp still saved (applied to the saved context, the
# other path) and none is forwarded.
#   tests/context/forward.sh HEDDLE WORKLOAD PERIOD
set -eu
heddle=$1 w=$2 period=$3
here=$(dirname "$0")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-ctxfwd-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
"$heddle" run "$w" --size small --set context.stress_period="$period" \
    --set context.stress_fraction=1 --set sm.regs_source=regalloc --stats "$tmp/s.json" > "$tmp/out" 2>&1 || {
    cat "$tmp/out"; echo "forward.sh: $w did not verify under stress"; exit 1; }
grep -q VERIFIED "$tmp/out" || { cat "$tmp/out"; exit 1; }
python3 "$here/ctxsum.py" "$tmp/s.json" > "$tmp/sum"
get() { sed -n "s/^$1 //p" "$tmp/sum"; }
saves=$(get ctx_saves) restores=$(get ctx_restores) fwd=$(get ctx_forwarded)
echo "$w: $saves saves, $restores restores, $fwd responses forwarded to the warp's new SM," \
     "$(get ctx_to_saved) applied to a saved context"
[ "$saves" -ge 1 ] && [ "$restores" -ge 1 ] && [ "$fwd" -ge 1 ] || {
    echo "forward.sh: expected at least one save, one restore and one forwarded response"; exit 1; }
