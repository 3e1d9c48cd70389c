#!/bin/sh
# SPDX-License-Identifier: MIT
# limit_rise.sh - GPUDuet's extra TBs are placed as soon as the ME controller allows them
# (Lin thesis §2.10, digest §2.10: MC + ME TBs per SM; docs/gpuduet.md "Session 19: HG
# traced"). histo1024_r10 (TB level, ME bound 8) at small size on 2 SMs (49 TBs, MC = 8 per
# SM: TBs wait for the limit), the controller with 1,000-cycle warm-up and window (the first
# window classifies it underutilised, its L1D idle: §2.10 hands it the L1D, bound 10, and ME =
# 10 at cycle 2,000; session 24, before: ME 8). The output must verify, and the
# samples (--sample 500) must show more than MC x SMs = 16 TBs resident while no TB of the
# kernel has finished yet (they last tens of thousands of cycles). Before session 19 the CTA
# scheduler looked only when a TB finished or an allocation answered, so the ME update alone
# placed nothing and the first sample above 16 came after the first TB finished.
#   tests/gpuduet/limit_rise.sh HEDDLE [heddle run options...]
set -eu
heddle=$1
shift 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-gdlim-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! "$heddle" run histo1024_r10 --size small --config configs/maxwell-gpuduet.ini \
        --set gpu.num_sms=2 --set sm.allocator=gpuduet --set sm.logical_warps=128 \
        --set gpuduet.warmup=1000 --set gpuduet.window=1000 --set gpuduet.log="$tmp/g.log" \
        "$@" --stats "$tmp/s.json" --sample 500 > "$tmp/out" 2>&1; then
    echo "limit_rise.sh: failed:"; cat "$tmp/out"; exit 1
fi
grep -q VERIFIED "$tmp/out" || { echo "limit_rise.sh: did not verify:"; cat "$tmp/out"; exit 1; }
grep -E '^(plan 0|me 0)' "$tmp/g.log"
grep -Eq '^me 0 [0-9]+ under 10$' "$tmp/g.log" ||
    { echo "limit_rise.sh: the controller did not set ME 10"; exit 1; }
python3 - "$tmp/s.json" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))["timing"]
cols = t["samples"]["columns"]
ci, cc, cp = cols.index("cycle"), cols.index("active_ctas"), cols.index("progress")
over = [r for r in t["samples"]["rows"] if r[cc] > 16 and r[cp].get("0") is not None]
if not over:
    print("limit_rise.sh: never more than 16 TBs resident"); sys.exit(1)
r = over[0]
print("first sample above 16 TBs: cycle %d, %d resident, %d of the kernel's TBs done"
      % (r[ci], r[cc], r[cp]["0"]))
if r[cp]["0"] != 0:
    print("limit_rise.sh: the extra TBs waited for a TB to finish"); sys.exit(1)
print("limit_rise.sh: OK")
EOF
