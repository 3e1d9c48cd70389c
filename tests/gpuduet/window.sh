#!/bin/sh
# SPDX-License-Identifier: MIT
# window.sh - `heddle run --window W` (issue 28, session 21; docs/gpuduet.md "Session 21"): Lin's
# measurement, the first W cycles of a run (§3.7: "4 million cycles unless it finishes within 4
# million cycles"). sgemm at small on configs/maxwell-gpuduet.ini with GPUDuet's controller
# (warm-up and windows of 2,000 cycles, so ME changes inside the window), sampled every 500 cycles:
#   - uncapped: verified, C cycles;
#   - --window W (W = C / 2 rounded down to the sample step, plus 1): exit 0, statistics
#     written, the JSON says measured = window, verified false, window_cycles W; exactly W
#     cycles (0 .. W - 1); and its warp instructions equal the uncapped run's cumulative count at
#     its sample of cycle W - 1 (a sample at cycle t counts cycles 0 .. t; a window run is the
#     same run, stopped), so its IPC is the uncapped run's over those cycles; the summary says
#     WINDOW MEASURED (not verified);
#   - --window 2C: the run ends within it: measured = whole, verified, the same cycles as uncapped;
#   - --window with --max-cycles or 0: a usage error (exit 2).
#   tests/gpuduet/window.sh HEDDLE
set -eu
heddle=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-gdwin-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
run() {
    "$heddle" run sgemm --size small --config configs/maxwell-gpuduet.ini \
        --set sm.allocator=gpuduet --set sm.logical_warps=128 --set gpuduet.dynamic=true \
        --set gpuduet.warmup=2000 --set gpuduet.window=2000 --sample 500 --quiet "$@"
}
run --stats "$tmp/full.json" > "$tmp/full.out" 2>&1 ||
    { echo "window.sh: the uncapped run failed:"; cat "$tmp/full.out"; exit 1; }
c=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["timing"]["totals"]["cycles"])' \
    "$tmp/full.json")
w=$((c / 2 / 500 * 500 + 1))
st=0
run --window "$w" --stats "$tmp/win.json" > "$tmp/win.out" 2>&1 || st=$?
[ "$st" -eq 0 ] || { echo "window.sh: --window $w exited $st:"; cat "$tmp/win.out"; exit 1; }
grep -q "WINDOW MEASURED (not verified)" "$tmp/win.out" ||
    { echo "window.sh: the summary does not label the window:"; cat "$tmp/win.out"; exit 1; }
st=0
run --window $((2 * c)) --stats "$tmp/whole.json" > "$tmp/whole.out" 2>&1 || st=$?
[ "$st" -eq 0 ] || { echo "window.sh: --window $((2 * c)) exited $st"; cat "$tmp/whole.out"; exit 1; }
for bad in "--window 0" "--window $w --max-cycles $w"; do
    st=0
    # shellcheck disable=SC2086
    run $bad > "$tmp/bad.out" 2>&1 || st=$?
    [ "$st" -eq 2 ] || { echo "window.sh: '$bad' exited $st, not 2"; cat "$tmp/bad.out"; exit 1; }
done
python3 - "$tmp/full.json" "$tmp/win.json" "$tmp/whole.json" "$w" <<'PY'
import json, sys
full, win, whole = (json.load(open(p)) for p in sys.argv[1:4])
w = int(sys.argv[4])
def fail(msg):
    sys.exit("window.sh: " + msg)
r = win["run"]
if r.get("measured") != "window" or r["verified"] or r.get("window_cycles") != w:
    fail("window run labelled %r" % r)
t = win["timing"]["totals"]
if t["cycles"] != w:
    fail("window run: %d cycles, not %d" % (t["cycles"], w))
ft = full["timing"]
cols = ft["samples"]["columns"]
ci, wi = cols.index("cycle"), cols.index("warp_instrs")
at = {row[ci]: row[wi] for row in ft["samples"]["rows"]}
if w - 1 not in at:
    fail("the uncapped run has no sample at cycle %d" % (w - 1))
if t["warp_instrs"] != at[w - 1]:
    fail("window run: %d warp instructions in %d cycles, the uncapped run %d by then"
         % (t["warp_instrs"], w, at[w - 1]))
if t["warp_instrs"] == ft["totals"]["warp_instrs"] or t["warp_instrs"] == 0:
    fail("the window holds all or none of the run's instructions")
wr = whole["run"]
if wr.get("measured") != "whole" or not wr["verified"] or \
        whole["timing"]["totals"]["cycles"] != ft["totals"]["cycles"]:
    fail("--window above the run's length: %r, %d cycles" % (wr, whole["timing"]["totals"]["cycles"]))
print("window.sh: IPC %.4f over the first %d of %d cycles (uncapped run: %.4f whole)"
      % (t["warp_instrs"] / w, w, ft["totals"]["cycles"],
         ft["totals"]["warp_instrs"] / ft["totals"]["cycles"]))
PY
echo "window.sh: OK"
