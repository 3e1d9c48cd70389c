#!/bin/sh
# SPDX-License-Identifier: MIT
# bt28.sh - btree_r28, Lin ch.3's BT footprint (issue 28, session 28; docs/gpuduet.md "Session
# 28: footprints against the thesis"): 256-thread TBs at 28 registers per thread, 8 TBs per SM
# by Table 3.1's 64 warp slots with the register file 87.5 % (the thesis's 88 %, L1813-L1816)
# occupied. At small size on configs/maxwell-gpuduet.ini:
#   - ptxas's summary (btree_r28.ptxas.txt) records fewer registers than 28 for both kernels
#     (so the pin, not ptxas, sets the footprint), and the run pins both to 28 ("given");
#   - with GPUDuet at ME 8 the run verifies and both kernels plan n=8 R=28 MC=8 limited by the
#     warp slots alone (lim=4), warp level, registers leaving for room, ME bound 8;
#   - with Virtual Thread both plan ME bound 1: the spare register file holds one more TB, the
#     thesis's "one more inactive TB using VT" (L1815-L1816).
#   tests/gpuduet/bt28.sh HEDDLE
set -eu
heddle=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-gdbt28-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "bt28.sh: $*"; exit 1; }
for k in btree_find_k btree_find_range; do
    r=$(sed -n "s/^kernel=$k registers=\([0-9]*\) .*/\1/p" workloads/btree/btree_r28.ptxas.txt)
    [ -n "$r" ] && [ "$r" -lt 28 ] || fail "ptxas summary of $k: '$r' registers, expected fewer than 28"
done
run() {
    a=$1; shift
    "$heddle" run btree_r28 --size small --config configs/maxwell-gpuduet.ini \
        --set sm.allocator="$a" --set sm.logical_warps=128 --set gpuduet.dynamic=false \
        --set gpuduet.log="$tmp/$a.log" "$@" > "$tmp/$a.out" 2>&1 ||
        { cat "$tmp/$a.out"; fail "the $a run failed"; }
    grep -q VERIFIED "$tmp/$a.out" || { cat "$tmp/$a.out"; fail "the $a run did not verify"; }
    grep -E '^plan ' "$tmp/$a.log"
}
run gpuduet --set gpuduet.me=8
for k in btree_find_k btree_find_range; do
    grep -Eq "^  $k +1 .* 8 \(threads\) +28 \(given\)$" "$tmp/gpuduet.out" ||
        { cat "$tmp/gpuduet.out"; fail "$k is not counted at 28 (given) registers"; }
done
[ "$(grep -Ec '^plan [01] [01] n=8 R=28 r=[0-9]+ points=[0-9]+ S=[01] mc=8 lim=4 level=warp me_ub=8 leave=regs-room$' "$tmp/gpuduet.log")" -eq 2 ] ||
    fail "GPUDuet: not two plans n=8 R=28 mc=8 lim=4 level=warp me_ub=8 leave=regs-room"
run vt --set gpuduet.me=32
[ "$(grep -Ec '^plan [01] [01] n=8 R=28 .* mc=8 lim=4 level=tb me_ub=1 leave=slots$' "$tmp/vt.log")" -eq 2 ] ||
    fail "VT: not two plans n=8 R=28 mc=8 lim=4 me_ub=1"
echo "bt28.sh: OK"
