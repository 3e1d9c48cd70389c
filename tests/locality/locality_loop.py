#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# locality_loop.py - Gong ch.6's blocks in the timing loop (issue 31 item 6; docs/blocks/
# locality.md "In the loop"; model/mech/locality/locality_loop.h).
#   locality_loop.py HEDDLE loop SIZE [order=O] W...
#                                           for each workload W on Table 6.3's Kepler GPU with
#                                           the locality distributor and group scheduler and
#                                           W's own Table 6.1 hint: `heddle cosim --blocks
#                                           locality --in-loop` verifies with 0 mismatches and
#                                           steps against the RTL, and its cycles, those of
#                                           the same with --drive rtl and those of plain
#                                           `heddle run` (blocks off) are identical; order=O
#                                           sets [timing] cta_dist_order (keep: each SM keeps
#                                           its range of CTAs across waves)
#   locality_loop.py HEDDLE grid SIZE W...  the experiment's locality runs of W (16 and 8 MSHR
#                                           entries; scheduler locality, and lrr with the
#                                           distributor alone) with the blocks' C references in
#                                           the loop: verified, 0 mismatches, cycles unchanged
#                                           (cta_dist_order linear and keep)
#   locality_loop.py HEDDLE fault           a wrong decision on the policies' side (the test
#                                           knobs [locality] fault_grant / fault_pick) stops
#                                           the run with a located error naming cycle, SM,
#                                           scheduler, block and signal; the blocks on with the
#                                           C references only (no cosim) change no cycle,
#                                           with cta_dist_order linear and keep
# Prints "locality loop ok" / "locality fault ok" or fails with the first difference.
import os
import re
import subprocess
import sys
import tempfile

heddle, mode = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
kepler = os.path.join(here, "..", "..", "configs", "kepler-gk110.ini")
tmp = tempfile.mkdtemp(prefix="hd-locloop-")
LOC = ["--config", kepler, "--set", "timing.cta_dist=locality", "--set", "sm.scheduler=locality",
       "--set", "timing.workload_hint=true"]


sys.path.insert(0, os.path.join(here, ".."))
from inloop import cosim as _cosim, fail, run_timing  # noqa: E402 (tests/inloop.py)


def run(w, size, extra):
    return run_timing(heddle, w, size, LOC + extra, os.path.join(tmp, "s.json"))["totals"]["cycles"]


def cosim(w, size, extra):
    return _cosim(heddle, "locality", w, size, LOC + extra)


if mode == "loop":
    size, names = sys.argv[3], sys.argv[4:]
    order = []
    if names and names[0].startswith("order="):
        order = ["--set", "timing.cta_dist_" + names.pop(0)]
    for w in names:
        plain = run(w, size, order)
        ref, inst, steps = cosim(w, size, order)
        rtl, _, _ = cosim(w, size, order + ["--drive", "rtl"])
        if not plain == ref == rtl:
            fail("%s: cycles differ: heddle run %d, in the loop %d, --drive rtl %d"
                 % (w, plain, ref, rtl))
        print("%s (%s%s): %d cycles with the blocks off, in the loop and with --drive rtl; %d "
              "instances, %d block steps against the RTL, 0 mismatches"
              % (w, size, ", " + order[1] if order else "", plain, inst, steps))
    print("locality loop ok")
elif mode == "grid":
    # the experiment's locality runs (experiments/locality.toml: 16 and 8 MSHR entries, the
    # distributor with the group scheduler and alone with lrr) with the blocks' C references
    size, names = sys.argv[3], sys.argv[4:]
    for w in names:
        for mshr in ("16", "8"):
            for sched, order in (("locality", "keep"), ("lrr", "keep"), ("locality", "linear"),
                                 ("lrr", "linear")):
                v = ["--set", "l1d.mshr_entries=" + mshr, "--set", "sm.scheduler=" + sched,
                     "--set", "timing.cta_dist_order=" + order]
                plain = run(w, size, v)
                on = run(w, size, v + ["--set", "locality.blocks=true"])
                if on != plain:
                    fail("%s %s: the blocks in the loop changed the cycles: %d vs %d"
                         % (w, " ".join(v), on, plain))
        print("%s (%s): 16 and 8 MSHR entries, scheduler locality and lrr, cta_dist_order keep "
              "and linear: 0 mismatches, cycles unchanged" % (w, size))
    print("locality loop ok")
elif mode == "fault":
    w, size = "transpose", "small"
    for order in ("linear", "keep"):
        o = ["--set", "timing.cta_dist_order=" + order]
        plain = run(w, size, o)
        on = run(w, size, o + ["--set", "locality.blocks=true"])
        if on != plain:
            fail("cta_dist_order = %s: the blocks in the loop (C references) changed the cycles: "
                 "%d vs %d" % (order, on, plain))
    cases = [("fault_grant=40", r"sm\d+\.sched\d+\.locality_group_sched at cycle \d+: "
              r"grant_v_o=1 grant_warp_o=\d+ \(warp slot \d+, group id \d+\), the policy "
              r"\(sm_sched_locality\) issues from warp slot \d+ first"),
             ("fault_pick=5", r"gpu\.locality_cta_dist at cycle \d+: pick_v_o=1 pick_sm_o=\d+ "
              r"pick_cta_o=0, the policy \(cta_dist_locality\) places CTA \d+ of launch \d+ "
              r"\(hint \d, chunk \d+\) on SM \d+")]
    for knob, pat in cases:
        cmd = [heddle, "run", w, "--size", size, "--quiet"] + LOC + \
            ["--set", "locality.blocks=true", "--set", "locality." + knob]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode == 0 or not re.search(pat, out.stderr + out.stdout):
            fail("%s: expected a located mismatch (exit != 0, /%s/), got exit %d\n%s%s"
                 % (" ".join(cmd), pat, out.returncode, out.stdout[-1500:], out.stderr[-1500:]))
        print("%s: %s" % (knob, (out.stderr + out.stdout).strip().splitlines()[-1][:300]))
    print("locality fault ok")
else:
    fail("unknown mode " + mode)
