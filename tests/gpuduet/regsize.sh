#!/bin/sh
# SPDX-License-Identifier: MIT
# regsize.sh - GPUDuet's register allocation size in the run's statistics (issue 28 item 5,
# session 27; Lin thesis §3.6.6, L2207-L2224: the maximum over a kernel's switch-out points of
# its live, compressed registers, "44 % of the original size on average"; docs/gpuduet.md
# "Session 27"). backprop at small on configs/maxwell-gpuduet.ini with GPUDuet at ME 2 and its
# log, and the same run with the baseline allocator:
#   - every launch of the GPUDuet run has the four launch counters (launch_stats.def
#     gpuduet_reg_units, _live, _reduced, gpuduet_switch_points) equal to its log's plan line
#     (R, r, points) and launch line (live_units), with 0 < r <= R, one plan line per launch;
#   - the two kernels' plans as known (R / live / r / points): bp_layer_forward 12 / 8 / 3 / 8,
#     bp_adjust_weights 16 / 8 / 5 / 4 (r / R = 25 % and 31 %);
#   - the baseline run has the same keys, 0 (not planned).
# (That no cycle moved with the new counters is scripts/carve-check.sh's part, not this test's.)
#   tests/gpuduet/regsize.sh HEDDLE
set -eu
heddle=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-gdreg-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
run() {
    "$heddle" run backprop --size small --config configs/maxwell-gpuduet.ini --quiet "$@"
}
run --set sm.allocator=gpuduet --set sm.logical_warps=128 --set gpuduet.dynamic=false \
    --set gpuduet.me=2 --set gpuduet.log="$tmp/g.log" --stats "$tmp/g.json" > "$tmp/g.out" 2>&1 ||
    { echo "regsize.sh: the GPUDuet run failed:"; cat "$tmp/g.out"; exit 1; }
run --stats "$tmp/b.json" > "$tmp/b.out" 2>&1 ||
    { echo "regsize.sh: the baseline run failed:"; cat "$tmp/b.out"; exit 1; }
python3 - "$tmp/g.json" "$tmp/g.log" "$tmp/b.json" <<'PY'
import json, re, sys
g, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[3]))
KEYS = ("gpuduet_reg_units", "gpuduet_reg_units_live", "gpuduet_reg_units_reduced",
        "gpuduet_switch_points")
def fail(msg):
    sys.exit("regsize.sh: " + msg)
plan, live = {}, {}
for line in open(sys.argv[2]):
    m = re.match(r"plan (\d+) \d+ n=\d+ R=(\d+) r=(\d+) points=(\d+) ", line)
    if m:
        plan[int(m.group(1))] = tuple(int(x) for x in m.group(2, 3, 4))
    m = re.match(r"launch (\d+) \d+ \S+ live_units=(\d+) ", line)
    if m:
        live[int(m.group(1))] = int(m.group(2))
ls = g["timing"]["launches"]
if len(plan) != len(ls) or not ls:
    fail("%d plan lines in the log for %d launches" % (len(plan), len(ls)))
got = {}
for l in ls:
    for k in KEYS:
        if k not in l:
            fail("launch %d (%s) has no %s" % (l["id"], l["kernel"], k))
    R, r, pts = plan[l["id"]]
    st = tuple(l[k] for k in KEYS)
    if st != (R, live[l["id"]], r, pts):
        fail("launch %d (%s): statistics R/live/r/points %s, log %s" %
             (l["id"], l["kernel"], st, (R, live[l["id"]], r, pts)))
    if not 0 < r <= R:
        fail("launch %d (%s): r = %d, R = %d" % (l["id"], l["kernel"], r, R))
    got[l["kernel"]] = st
want = {"bp_layer_forward": (12, 8, 3, 8), "bp_adjust_weights": (16, 8, 5, 4)}
if got != want:
    fail("plans %s, expected %s" % (got, want))
for l in b["timing"]["launches"]:
    if any(l.get(k, -1) != 0 for k in KEYS):
        fail("baseline launch %d: %s" % (l["id"], {k: l.get(k) for k in KEYS}))
print("regsize.sh: OK " + ", ".join("%s r/R = %d/%d" % (k, v[2], v[0]) for k, v in got.items()))
PY
