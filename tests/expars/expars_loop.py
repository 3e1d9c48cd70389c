#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# expars_loop.py - EXPARS's blocks in the timing loop (issue 33 item 5; docs/blocks/expars.md
# "In the loop"; model/mech/expars/expars_loop.h).
#   expars_loop.py HEDDLE ci                  vecadd at small size on an SM of 16,384 registers
#                                             (mix CTAs, operands through the operand cache):
#                                             `heddle cosim --blocks expars --in-loop --drive rtl`
#                                             verifies with 0 mismatches, steps against the RTL,
#                                             and its cycles equal plain `heddle run`'s; then a
#                                             wrong expectation on the model's side ([expars]
#                                             blocks_fault) stops the RTL run, located
#                                             (and the same under ltlws_gto, whose LTLWS counters
#                                             expars_ltlws join the loop, with a fault on them)
#   expars_loop.py HEDDLE loop SIZE [sched=S] W...  each W on the Fermi GTX480 with [sm] allocator
#                                             = expars (and [sm] scheduler = S; several sched=
#                                             run each): plain run, in the loop against the RTL
#                                             and with --drive rtl give the same cycles, 0
#                                             mismatches
#   expars_loop.py HEDDLE grid SIZE W...      the experiment's EXPARS runs of W (experiments/
#                                             expars.toml: lrr, gto, ltlws_lrr, ltlws_gto,
#                                             two_level with 6 active warps) with the blocks' C
#                                             references in the loop: verified, cycles unchanged
#   expars_loop.py HEDDLE experiment SIZE [sched=S] W...  the experiment's EXPARS runs as
#                                             experiments/expars.toml makes them (configs/
#                                             fermi-gtx480.ini, 32,768 registers, 6 active warps,
#                                             [sm] scheduler = S; several sched= run each): the
#                                             plain run and `--drive rtl` give the same cycles, 0
#                                             mismatches, and where experiments/results/expars/
#                                             points.csv has the point, its committed cycles too
#   expars_loop.py HEDDLE fault               [expars] blocks_fault on the calculator's, the RAT's,
#                                             the tag array's, the arbitrator's and the
#                                             prefetcher's comparisons stops the run with a
#                                             located error (C references; no cosim)
# Prints "expars loop ok" / "expars fault ok" or fails with the first difference.
import csv
import os
import re
import subprocess
import sys
import tempfile

heddle, mode = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="hd-exloop-")
EX = ["--set", "sm.allocator=expars"]
RB = ["--set", "sm.registers=16384"]  # register-bound: mix CTAs in the base workloads
LOCATED = re.compile(r"sm\d+\.(?:sched\d+\.)?expars_(rat|oc_tags|cta_calc|arb|ltlws|pref) at cycle \d+: ")


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from inloop import cosim as _cosim, fail, run_timing  # noqa: E402 (tests/inloop.py)


def run(w, size, extra):
    return run_timing(heddle, w, size, EX + extra, os.path.join(tmp, "s.json"))["totals"]["cycles"]


def cosim(w, size, extra):
    return _cosim(heddle, "expars", w, size, EX + extra)


def faulted(cmd, what):
    out = subprocess.run(cmd, capture_output=True, text=True)
    text = out.stdout + out.stderr
    m = LOCATED.search(text)
    if out.returncode == 0 or not m or "FAILED" not in text:
        fail("%s: expected a located mismatch (exit != 0, /%s/), got exit %d\n%s"
             % (" ".join(cmd), LOCATED.pattern, out.returncode, text[-2000:]))
    line = [x for x in text.splitlines() if LOCATED.search(x)][0]
    print("%s: %s" % (what, line.strip()[:300]))
    return m.group(1)


if mode == "ci":
    w, size = "vecadd", "small"
    plain = run(w, size, RB)
    rtl, inst, steps = cosim(w, size, RB + ["--drive", "rtl"])
    if plain != rtl:
        fail("%s: cycles differ: heddle run %d, --drive rtl %d" % (w, plain, rtl))
    print("%s (%s, 16384 registers): %d cycles with the blocks off and with --drive rtl; %d "
          "instances, %d block steps against the RTL, 0 mismatches" % (w, size, plain, inst,
                                                                       steps))
    faulted([heddle, "cosim", "--blocks", "expars", "--in-loop", w, "--size", size, "--drive",
             "rtl"] + EX + RB + ["--set", "expars.blocks_fault=2000"], "blocks_fault=2000 (RTL)")
    # the LTLWS counters (one expars_ltlws per warp scheduler) join under an LTLWS scheduler
    LT = RB + ["--set", "sm.scheduler=ltlws_gto"]
    plain = run(w, size, LT)
    rtl, inst, steps = cosim(w, size, LT + ["--drive", "rtl"])
    if plain != rtl:
        fail("%s ltlws_gto: cycles differ: heddle run %d, --drive rtl %d" % (w, plain, rtl))
    print("%s (%s, ltlws_gto): %d cycles with the blocks off and with --drive rtl; %d instances, "
          "%d block steps against the RTL, 0 mismatches" % (w, size, plain, inst, steps))
    if faulted([heddle, "cosim", "--blocks", "expars", "--in-loop", w, "--size", size,
                "--drive", "rtl"] + EX + LT + ["--set", "expars.blocks_fault=50"],
               "blocks_fault=50 (RTL, ltlws_gto)") != "ltlws":
        fail("blocks_fault=50 under ltlws_gto did not land on expars_ltlws")
    print("expars loop ok")
elif mode == "loop":
    size = sys.argv[3]
    scheds = [a[6:] for a in sys.argv[4:] if a.startswith("sched=")] or [None]
    names = [a for a in sys.argv[4:] if not a.startswith("sched=")]
    for w, sched in [(w, s) for s in scheds for w in names]:
        extra = RB if w in ("vecadd", "reduction", "stencil2d") else []
        if sched:
            extra = extra + ["--set", "sm.scheduler=" + sched]
        plain = run(w, size, extra)
        ref, inst, steps = cosim(w, size, extra)
        rtl, _, _ = cosim(w, size, extra + ["--drive", "rtl"])
        if not plain == ref == rtl:
            fail("%s: cycles differ: heddle run %d, in the loop %d, --drive rtl %d"
                 % (w, plain, ref, rtl))
        print("%s (%s%s): %d cycles with the blocks off, in the loop and with --drive rtl; %d "
              "instances, %d block steps against the RTL, 0 mismatches"
              % (w, size, ", " + sched if sched else "", plain, inst, steps))
    print("expars loop ok")
elif mode == "experiment":
    size = sys.argv[3]
    scheds = [a[6:] for a in sys.argv[4:] if a.startswith("sched=")] or ["gto"]
    names = [a for a in sys.argv[4:] if not a.startswith("sched=")]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    committed = {}
    points = os.path.join(root, "experiments", "results", "expars", "points.csv")
    if os.path.exists(points):
        with open(points) as f:
            for r in csv.DictReader(f):
                if (r["set.sm.allocator"] == "expars" and not r["set.expars.ideal"]
                        and r["set.sm.registers"] == "32768" and r["status"] == "ok"
                        and r["set.sm.sched_active_warps"] == "6" and r["size"] == size):
                    committed[(r["workload"], r["set.sm.scheduler"])] = int(r["cycles"])
    for w, sched in [(w, s) for s in scheds for w in names]:
        extra = ["--config", os.path.join(root, "configs", "fermi-gtx480.ini"), "--set",
                 "sm.registers=32768", "--set", "sm.sched_active_warps=6", "--set",
                 "sm.scheduler=" + sched]
        t0 = os.times()
        plain = run(w, size, extra)
        rtl, inst, steps = cosim(w, size, extra + ["--drive", "rtl"])
        t1 = os.times()
        cpu = (t1.children_user + t1.children_system) - (t0.children_user + t0.children_system)
        if plain != rtl:
            fail("%s %s: cycles differ: heddle run %d, --drive rtl %d" % (w, sched, plain, rtl))
        want = committed.get((w, sched))
        if want is not None and want != plain:
            fail("%s %s: %d cycles, but experiments/results/expars/points.csv has %d (the "
                 "committed experiment is stale, or the model moved)" % (w, sched, plain, want))
        print("%s (%s, %s): %d cycles plain and with --drive rtl%s; %d instances, %d block steps "
              "against the RTL, 0 mismatches; %.1f CPU-s"
              % (w, size, sched, plain, " = the committed experiment's" if want else "", inst,
                 steps, cpu), flush=True)
    print("expars loop ok")
elif mode == "grid":
    size, names = sys.argv[3], sys.argv[4:]
    for w in names:
        for sched in ("lrr", "gto", "ltlws_lrr", "ltlws_gto", "two_level"):
            if sched == "two_level" and w == "hotspot_r36":
                continue  # (not in the experiment's two-level grid)
            v = ["--set", "sm.scheduler=" + sched, "--set", "sm.sched_active_warps=6"]
            plain = run(w, size, v)
            on = run(w, size, v + ["--set", "expars.blocks=true"])
            if on != plain:
                fail("%s %s: the blocks in the loop changed the cycles: %d vs %d"
                     % (w, sched, on, plain))
        print("%s (%s): lrr, gto, ltlws_lrr, ltlws_gto, two_level: 0 mismatches, cycles "
              "unchanged" % (w, size))
    print("expars loop ok")
elif mode == "fault":
    w, size = "vecadd", "small"
    plain = run(w, size, RB)
    on = run(w, size, RB + ["--set", "expars.blocks=true"])
    if on != plain:
        fail("the blocks in the loop (C references) changed the cycles: %d vs %d" % (on, plain))
    seen = set()
    for n in (1, 7, 40, 500, 3000, 3001):
        seen.add(faulted([heddle, "run", w, "--size", size, "--quiet"] + EX + RB +
                         ["--set", "expars.blocks=true", "--set", "expars.blocks_fault=%d" % n],
                         "blocks_fault=%d" % n))
    if seen != {"rat", "oc_tags", "cta_calc", "arb", "pref"}:
        fail("the faults hit %s, not the five blocks" % sorted(seen))
    print("expars fault ok")
else:
    fail("unknown mode " + mode)
