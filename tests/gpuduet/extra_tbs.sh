#!/bin/sh
# SPDX-License-Identifier: MIT
# extra_tbs.sh - GPUDuet at TB level places every extra TB the ME controller allows in the first
# wave, and a TB swap exchanges the two TBs' context spaces (Lin thesis §3.6.4, §3.6.6: "the
# CSL swaps the context space of them"; Eq. 3.3: State(TB) = N x ST + SS; docs/gpuduet.md
# "Session 20"). histo1024_r10 (HG with Lin's 10 registers: TB level, MC = 8, ME bound 8, 10
# with the L1D) at medium size on Table 3.1's 16 SMs, the controller with Lin's warm-up and
# window (underutilised, L1D < 3 %: §2.10 hands it the L1D and ME = 10 at cycle 30,000, session
# 24; before, ME 8), stopped at cycle 45,000 (--max-cycles: exit 1 with the statistics and the log).
# Checks:
#   - more than (MC + 1) x 16 = 144 TBs resident in some sample (before session 20: 144, one
#     extra TB per SM: the TB placed absent was due for the SM's own return, which holds new TBs
#     back, and nothing woke the CTA scheduler when the CSL switched it in);
#   - the bitmap log line's swap_sp > 0 (swaps that took the ready TB's run; before: 0, every
#     switch-out asked the block for a fresh 99-unit run first) and the TB trace's
#     tb_wres_wait = 0 (no per-warp meta-data reservation at TB level: the run holds them;
#     before: thousands of head visits waited for them).
#   tests/gpuduet/extra_tbs.sh HEDDLE [heddle run options...]
set -eu
heddle=$1
shift 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-gdext-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
"$heddle" run histo1024_r10 --size medium --config configs/maxwell-gpuduet.ini \
    --set sm.allocator=gpuduet --set sm.logical_warps=128 --set gpuduet.log="$tmp/g.log" \
    "$@" --stats "$tmp/s.json" --sample 1000 --max-cycles 45000 --quiet > "$tmp/out" 2>&1 || true
[ -s "$tmp/s.json" ] && [ -s "$tmp/g.log" ] ||
    { echo "extra_tbs.sh: no statistics or log:"; cat "$tmp/out"; exit 1; }
grep -Eq '^me 0 [0-9]+ under 10$' "$tmp/g.log" ||
    { echo "extra_tbs.sh: the controller did not set ME 10"; grep '^me' "$tmp/g.log"; exit 1; }
python3 - "$tmp/s.json" "$tmp/g.log" <<'EOF'
import json, re, sys
t = json.load(open(sys.argv[1]))["timing"]
cols = t["samples"]["columns"]
ci, cc = cols.index("cycle"), cols.index("active_ctas")
most = max(t["samples"]["rows"], key=lambda r: r[cc])
print("most TBs resident: %d at cycle %d (MC x SMs = 128)" % (most[cc], most[ci]))
log = open(sys.argv[2]).read()
def field(line, key):
    m = re.search(r"^%s .*\b%s=(\d+)" % (line, key), log, re.M)
    if not m:
        print("extra_tbs.sh: no %s %s in the log" % (line, key)); sys.exit(1)
    return int(m.group(1))
sp, wres, swaps = field("bitmap", "swap_sp"), field("total", "tb_wres_wait"), field("total", "swaps")
print("TB swaps %d, of them exchanging with the ready TB's run %d; meta-data waits %d"
      % (swaps, sp, wres))
bad = []
if most[cc] <= 144:
    bad.append("at most one extra TB per SM resident")
if sp == 0 or swaps == 0:
    bad.append("no swap took the ready TB's context space")
if wres != 0:
    bad.append("TB switch-outs waited for per-warp meta-data reservations")
if bad:
    print("extra_tbs.sh: " + "; ".join(bad)); sys.exit(1)
print("extra_tbs.sh: OK")
EOF
