#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tail.py - why EXPARS beats its own costless bound under LRR (docs/expars.md "Why EXPARS beats
the bound on MQ and MC (session 18)"): the launch's tail, not throughput.

montecarlo_w4 (300 CTAs of 256 threads; 5 per SM at Baseline = 4 whole waves on 15 SMs, 6 per SM
with EXPARS's plan = 3.33 waves) under LRR on the experiment's Fermi setup, three runs: Baseline
(partitioned), the bound ([expars] ideal) and EXPARS. Under LRR an SM's CTAs advance in lockstep
and finish together, so the round-robin CTA scheduler hands the last CTAs to the first SMs that
empty, a whole SM's slots at a time: the bound ends with 24 CTAs on some SMs and 18 on others.
EXPARS's mix CTA runs at another speed than its RF CTAs, its SMs free slots one at a time, and
every SM takes 20 CTAs. Asserted:
  - the three runs verify and issue the same warp instructions (no work skipped);
  - Baseline and EXPARS place the same number of CTAs on every SM (+-1); the bound does not (>= 3);
  - the tail (cycles / the SMs' mean busy cycles - 1) is over 10 % for the bound, under 3 % for
    Baseline and EXPARS;
  - the SM-cycles per CTA (the work) of the three agree within 3 %: EXPARS is not faster per CTA;
  - EXPARS takes fewer cycles than the bound (the effect).
About 20 CPU-s (full tier).
  tests/expars/tail.py HEDDLE OUTDIR
"""
import json
import os
import subprocess
import sys

FLAGS = ["--config", "configs/fermi-gtx480.ini", "--set", "sm.registers=32768",
         "--set", "sm.sched_active_warps=6", "--set", "sm.scheduler=lrr", "--quiet"]
RUNS = {"baseline": ["--set", "sm.allocator=partitioned"],
        "bound": ["--set", "sm.allocator=expars", "--set", "expars.ideal=true"],
        "expars": ["--set", "sm.allocator=expars"]}


def fail(msg):
    print("tail: " + msg)
    sys.exit(1)


def run(heddle, out, name):
    js = os.path.join(out, name + ".json")
    p = subprocess.run([heddle, "run", "montecarlo_w4"] + FLAGS + RUNS[name] + ["--stats", js],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0 or "VERIFIED" not in p.stdout:
        fail("%s: run failed or not verified:\n%s" % (name, p.stdout))
    t = json.load(open(js))["timing"]
    busy = [s["active_cycles"] for s in t["sms"]]
    done = [s["ctas_done"] for s in t["sms"]]
    cycles = t["totals"]["cycles"]
    mean = sum(busy) / len(busy)
    r = {"cycles": cycles, "instrs": sum(s["warp_instrs"] for s in t["sms"]),
         "busy_mean": mean, "tail": cycles / mean - 1.0, "ctas": (min(done), max(done)),
         "per_cta": sum(busy) / sum(done)}
    print("tail: %-8s cycles %d, mean SM busy %.0f, tail %.1f %%, CTAs per SM %d-%d, "
          "SM-cycles per CTA %.0f" % (name, cycles, mean, 100 * r["tail"], r["ctas"][0],
                                      r["ctas"][1], r["per_cta"]))
    return r


def main():
    if len(sys.argv) != 3:
        fail("usage: tail.py HEDDLE OUTDIR")
    heddle, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    r = {n: run(heddle, out, n) for n in RUNS}
    b, i, e = r["baseline"], r["bound"], r["expars"]
    if not b["instrs"] == i["instrs"] == e["instrs"]:
        fail("the runs issued different warp instructions")
    for n in ("baseline", "expars"):
        lo, hi = r[n]["ctas"]
        if hi - lo > 1:
            fail("%s: uneven CTAs per SM %d-%d" % (n, lo, hi))
        if r[n]["tail"] >= 0.03:
            fail("%s: tail %.1f %% (expected < 3 %%)" % (n, 100 * r[n]["tail"]))
    if i["ctas"][1] - i["ctas"][0] < 3:
        fail("bound: CTAs per SM %d-%d, expected the lockstep tail's lumps" % i["ctas"])
    if i["tail"] <= 0.10:
        fail("bound: tail %.1f %% (expected > 10 %%)" % (100 * i["tail"]))
    lo = min(x["per_cta"] for x in r.values())
    hi = max(x["per_cta"] for x in r.values())
    if hi > 1.03 * lo:
        fail("SM-cycles per CTA differ by more than 3 %% (%.0f-%.0f)" % (lo, hi))
    if e["cycles"] >= i["cycles"]:
        fail("EXPARS (%d) is not faster than the bound (%d)" % (e["cycles"], i["cycles"]))
    print("tail: ok")


if __name__ == "__main__":
    main()
