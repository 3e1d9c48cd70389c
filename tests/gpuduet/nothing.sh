#!/bin/sh
# SPDX-License-Identifier: MIT
# nothing.sh - a scheme with nothing to switch keeps the baseline's warp-to-scheduler mapping
# (session 28, docs/gpuduet.md "Session 28: VT with nothing to switch"). hotspot_r31 at small
# size on configs/maxwell-gpuduet.ini with 2 SMs (7.5 waves of 8-warp TBs per launch, the TBs'
# warps finishing at different times): Virtual Thread's ME bound is 0 for it (MC 8 by registers
# and warp slots), so VT places no extra TB and switches nothing. Checked:
#   - VT's plan says me_ub=0 and its log no switch (outs=0, tb_outs=0, ins=0);
#   - VT, and GPUDuet at ME 0, issue the same warp instructions per scheduler index (summed over
#     the SMs) as the baseline: every TB's warp i on scheduler i % 4, as the baseline's slots
#     give it (until session 28 a finished warp's slot went back at once, the next TB's warps
#     took scattered slots, and VT issued 79,849 / 86,260 / 86,375 / 79,148 against the
#     baseline's 77,976 / 87,840 / 87,840 / 77,976; at medium size on 16 SMs 3.6 % fewer cycles);
#   - the partitioned allocator with 128 logical warps (the residency layer, nothing absent)
#     runs the baseline's cycles exactly.
#   tests/gpuduet/nothing.sh HEDDLE
set -eu
heddle=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-gdnothing-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "nothing.sh: $*"; exit 1; }
run() {
    n=$1; shift
    "$heddle" run hotspot_r31 --size small --config configs/maxwell-gpuduet.ini \
        --set gpu.num_sms=2 "$@" --stats "$tmp/$n.json" > "$tmp/$n.out" 2>&1 ||
        { cat "$tmp/$n.out"; fail "the $n run failed"; }
    grep -q VERIFIED "$tmp/$n.out" || { cat "$tmp/$n.out"; fail "the $n run did not verify"; }
}
# per scheduler index, the warp instructions issued over all SMs; then the cycles
split() {
    python3 - "$tmp/$1.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["timing"]
n = [0] * max(len(s["schedulers"]) for s in t["sms"])
for s in t["sms"]:
    for i, x in enumerate(s["schedulers"]):
        n[i] += x["issued"]
print(" ".join(map(str, n)), t["totals"]["cycles"])
PY
}
G="--set sm.logical_warps=128 --set gpuduet.dynamic=false"
run base
run vt --set sm.allocator=vt $G --set gpuduet.me=32 --set gpuduet.log="$tmp/vt.log"
run gd0 --set sm.allocator=gpuduet $G --set gpuduet.me=0
run part128 --set sm.logical_warps=128
grep -Eq '^plan 0 0 n=8 R=32 .* mc=8 .* level=tb me_ub=0 leave=slots$' "$tmp/vt.log" ||
    { grep '^plan' "$tmp/vt.log"; fail "VT's plan is not MC 8 with bound 0"; }
grep -Eq '^total .* outs=0 .* ins=0 .* tb_outs=0 ' "$tmp/vt.log" ||
    { grep '^total' "$tmp/vt.log"; fail "VT switched"; }
b=$(split base); v=$(split vt); g=$(split gd0); p=$(split part128)
echo "per scheduler, cycles: baseline $b; VT $v; GPUDuet ME 0 $g; partitioned, 128 logical $p"
[ "${v% *}" = "${b% *}" ] || fail "VT's per-scheduler issue (${v% *}) is not the baseline's (${b% *})"
[ "${g% *}" = "${b% *}" ] || fail "GPUDuet ME 0's per-scheduler issue (${g% *}) is not the baseline's (${b% *})"
[ "$p" = "$b" ] || fail "partitioned with 128 logical warps ($p) is not the baseline ($b)"
echo "nothing.sh: OK"
