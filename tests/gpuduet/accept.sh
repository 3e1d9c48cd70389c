#!/bin/sh
# SPDX-License-Identifier: MIT
# accept.sh - issue 28's acceptance run of GPUDuet's warp-level switching (Lin thesis §2.8-2.12;
# docs/gpuduet.md): one workload on configs/maxwell-gpuduet.ini with [sm] allocator = gpuduet,
# 128 logical warps and a fixed ME; the output must verify, and the counts of GPUDuet's log
# ([gpuduet] log) and of the statistics JSON must show
#   - warps switched out at the first use of a register whose load missed the L1D
#     (outs - outs_bar > 0, stalls_miss > 0),
#   - loads that landed while their warp was absent (absent_loads > 0, and the SMs'
#     warp_absent_loads > 0: the response was applied to the saved state),
#   - swaps of a stalled warp with a ready one (swaps > 0), each pairing ONE stalled warp
#     with ONE ready warp (§2.12): no switch-out names a ready warp that an earlier one named
#     and that has not come in yet (xswaps = 0; session 15's rule gave 39 here),
#   - the barrier rule of §2.9 (option 2): warps waiting at a barrier switched out
#     (outs_bar > 0) and barriers that completed with a warp absent
#     (warp_absent_bar_releases > 0),
#   - every warp switched out came back (ins = outs + warps placed absent), no TB left over,
#   - the allocation bitmap block answered the allocations, each busy for at least a cycle, and
#     every switch-out's spill space came from the block or from a swap's exchange with the
#     ready warp (allocations + exchanges >= switch-outs; exchanges > 0 and at most the swaps),
#   - the moves went through the SMs' data movers with the ports free (the csl line: jobs,
#     no waits, every beat moved, none left; session 21),
#   - the reduced register size (live registers compressed by their static pattern classes,
#     gpuduet_regpat.c) is never below what the regpat compressor's C reference finds in the
#     live registers of the warps switched out (no underestimated word, max <= static).
#   tests/gpuduet/accept.sh HEDDLE WORKLOAD ME [heddle run options...]
set -eu
heddle=$1 w=$2 me=$3
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-gduet-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! "$heddle" run "$w" --size small --config configs/maxwell-gpuduet.ini \
        --set sm.allocator=gpuduet --set sm.logical_warps=128 --set gpuduet.dynamic=false \
        --set gpuduet.me="$me" --set gpuduet.log="$tmp/g.log" "$@" --stats "$tmp/s.json" \
        > "$tmp/out" 2>&1; then
    echo "accept.sh: $w failed:"; cat "$tmp/out"; exit 1
fi
grep -q VERIFIED "$tmp/out" || { echo "accept.sh: $w did not verify:"; cat "$tmp/out"; exit 1; }
log() { sed -n "s/^total.* $1=\([0-9]*\).*/\1/p" "$tmp/g.log"; }
js() { grep -o "\"$1\": [0-9]*" "$tmp/s.json" | awk '{s += $2} END {print s + 0}'; }
grep '^plan\|^total' "$tmp/g.log"
miss_outs=$(( $(log outs) - $(log outs_bar) ))
echo "$w: VERIFIED; stalls_miss $(log stalls_miss), switched out at a missed load $miss_outs," \
     "at a barrier $(log outs_bar), swaps $(log swaps), loads landing while absent" \
     "$(log absent_loads) (SMs: $(js warp_absent_loads)), barriers released with a warp absent" \
     "$(js warp_absent_bar_releases), switch-ins $(js warp_switch_ins)"
fail() { echo "accept.sh: $w: $*"; exit 1; }
[ "$(log stalls_miss)" -gt 0 ] || fail "no stall at the first use of a missed load"
[ "$miss_outs" -gt 0 ] || fail "no warp switched out at a missed load"
[ "$(log absent_loads)" -gt 0 ] || fail "no load landed while its warp was absent"
[ "$(js warp_absent_loads)" -gt 0 ] || fail "the SMs applied no load to an absent warp"
[ "$(log swaps)" -gt 0 ] || fail "no swap of a stalled with a ready warp"
[ "$(log xswaps)" -eq 0 ] || fail "$(log xswaps) switch-outs for a ready warp another stalled warp had already left for (§2.12 pairs one with one)"
[ "$(log outs_bar)" -gt 0 ] || fail "no warp switched out at a barrier (§2.9 option 2)"
[ "$(js warp_absent_bar_releases)" -gt 0 ] || fail "no barrier completed with a warp absent"
out=$(( $(js warp_switch_outs) + $(js warp_placed_absent) ))
[ "$out" -eq "$(js warp_switch_ins)" ] || fail "$out warps left or were placed absent, $(js warp_switch_ins) came back"
[ "$(js warp_switch_outs)" -eq "$(log outs)" ] || fail "the SMs counted $(js warp_switch_outs) switch-outs, GPUDuet $(log outs)"
if grep -q '^out ' "$tmp/g.log"; then fail "warps still out at the end"; fi
# the unified storage's map is the allocation bitmap block's (gpuduet_bmap.h): its answers were
# the allocations (every TB placed, spill reserved, switch-in not served by a swap), taking the
# block's cycles; a swap exchanges the two warps' spaces with no allocation (session 15)
bm() { sed -n "s/^bitmap.* $1=\([0-9]*\).*/\1/p" "$tmp/g.log"; }
grep '^bitmap' "$tmp/g.log"
[ "$(bm swap_sp)" -gt 0 ] && [ "$(bm swap_sp)" -le "$(log swaps)" ] ||
    fail "swap exchanges $(bm swap_sp) not in 1..$(log swaps) (the swaps)"
[ $(( $(bm allocs) + $(bm swap_sp) )) -ge "$(log outs)" ] ||
    fail "bitmap allocations $(bm allocs) + swap exchanges $(bm swap_sp) below the switch-outs $(log outs)"
[ "$(bm frees)" -gt 0 ] && [ "$(bm busy_cycles)" -gt "$(bm allocs)" ] || fail "no bitmap frees or busy cycles"
# session 21: without [gpuduet] blocks the moves go through the SM's one data mover (the CSL
# block's C reference with the ports free, gpuduet_mover.h): its log line is there, no beat
# waited for the pipeline, every job moved its ceil(bytes / 128) beats and none is left
csl() { sed -n "s/^csl.* $1=\([0-9]*\).*/\1/p" "$tmp/g.log"; }
grep '^csl' "$tmp/g.log" || fail "no csl line: the moves did not go through the SMs' data movers"
[ "$(csl jobs)" -gt 0 ] && [ "$(csl waits)" -eq 0 ] && [ "$(csl left)" -eq 0 ] &&
    [ "$(csl beats)" -eq "$(csl beats_want)" ] ||
    fail "the data mover: jobs $(csl jobs), waits $(csl waits) (0 without the blocks), beats $(csl beats) of $(csl beats_want), left $(csl left)"
# the reduced register size: the static compressed estimate never below what the regpat
# compressor's reference finds in the switched-out warps' live registers
grep '^checked' "$tmp/g.log"
grep -q '^checked' "$tmp/g.log" || fail "no switch-out was checked against the compressor"
awk '/^checked/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                  if (v["underestimated"] != 0 || v["compressor_units_max"] > v["static_units"]) bad = 1 }
     END { exit bad }' "$tmp/g.log" || fail "the static compressed size underestimates a switched-out warp"
echo "accept.sh: OK"
