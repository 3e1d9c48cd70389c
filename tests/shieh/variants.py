#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""variants.py - the Shieh victims' input-size variants (issue 24 item 3, tests/shieh_faithful.cmake).

  variants.py HEDDLE [VICTIM...]

For every victim of experiments/shieh.py's FAITHFUL_VICTIMS (experiments/shieh_setup.py) that is
an input-size variant (token `_wN`, workloads/README.md), or the ones named:
  1. alone on fermi-gtx480 at its size: the output verifies; the dominant kernel (the most warp
     instructions) runs at one of Table 4.2's TBs per SM for that benchmark
     (shieh_setup.TABLE42_TBS) and every launch of it has >= 3 waves (CTAs / (15 SMs x TBs per SM));
  2. preempted by preempter_gpu with the proposed scheme (Shieh's policy, the faithful setup's
     sets, L_c = 2 us) arriving at the middle of its standalone run: both outputs verify (the
     victim's after its CTAs were drained, flushed or switched) and CTAs were asked to leave.
Prints 'variants ok' when all hold.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "experiments"))
import shieh_setup  # noqa: E402  (experiments/shieh_setup.py: victims, Table 4.2, L_c)

CONFIG = "fermi-gtx480"
NSMS = 15


def run(heddle, args, js):
    r = subprocess.run([heddle, "run"] + args + ["--stats", js, "--quiet"], cwd=ROOT,
                       capture_output=True, text=True)
    if r.returncode != 0 or "VERIFIED" not in r.stdout or "FAIL" in r.stdout:
        sys.exit(f"variants.py: heddle run {' '.join(args)} failed ({r.returncode}):\n"
                 f"{r.stdout}{r.stderr}")
    with open(js) as f:
        return json.load(f)["timing"]


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: variants.py HEDDLE [VICTIM...]")
    heddle = sys.argv[1]
    wanted = sys.argv[2:] or [w for w, _ in shieh_setup.FAITHFUL_VICTIMS.values()
                              if re.search(r"_w[0-9]+$", w)]
    if not wanted:
        sys.exit("variants.py: no input-size variant among the victims")
    os.environ["HD_EXP_SETUP"] = "faithful"
    cfg = os.path.join(ROOT, "configs", f"{CONFIG}.ini")
    pe = shieh_setup.SETUPS["faithful"]["preempter"]
    sizes = {w: s for w, s in shieh_setup.FAITHFUL_VICTIMS.values()}
    with tempfile.TemporaryDirectory() as tmp:
        for v in wanted:
            if v not in sizes:
                sys.exit(f"variants.py: '{v}' is not a victim of experiments/shieh.py")
            size = sizes[v]
            t = run(heddle, [v, "--size", size, "--config", cfg], os.path.join(tmp, "a.json"))
            instrs = {}
            for lc in t["launches"]:
                instrs[lc["kernel"]] = instrs.get(lc["kernel"], 0) + lc["warp_instrs"]
            dom = max(instrs, key=instrs.get)
            launches = [lc for lc in t["launches"] if lc["kernel"] == dom]
            tbs = {lc["ctas_per_sm"] for lc in launches}
            allowed = shieh_setup.TABLE42_TBS[shieh_setup.base(v)]
            if len(tbs) != 1 or tbs.pop() not in allowed:
                sys.exit(f"variants.py: {v}: {dom} runs at {sorted(tbs)} TBs per SM, Table 4.2 "
                         f"has {allowed}")
            waves = [lc["ctas"] / (NSMS * lc["ctas_per_sm"]) for lc in launches]
            if min(waves) < 3:
                sys.exit(f"variants.py: {v}: a launch of {dom} runs {min(waves):.2f} waves (< 3)")
            cycles = t["totals"]["cycles"]
            lc_2us = shieh_setup.lc_cycles(2, shieh_setup.core_mhz(CONFIG))
            p = run(heddle, ["--mix", f"{v}+{pe}", "--size", size, "--config", cfg,
                             "--arrive", f"{pe}@{cycles // 2}:1",
                             "--set", "context.preempt_policy=shieh",
                             "--set", "sm.allocator=aligned", "--set", "sm.concurrent_kernels=true",
                             "--set", f"context.latency_bound={lc_2us}",
                             "--set", "context.preempt_sms=standalone",
                             "--set", "context.flush_bit=idempotence",
                             "--set", "context.quiesce=writeback"], os.path.join(tmp, "p.json"))
            asked = sum(r.get("asked", 0) for r in p["preemptions"])
            if not p["preemptions"] or asked == 0:
                sys.exit(f"variants.py: {v}: the preempter arriving at {cycles // 2} asked no "
                         "victim CTA to leave")
            print(f"{v}: {dom} {min(waves):.2f} waves at {launches[0]['ctas_per_sm']} TBs/SM, "
                  f"{cycles} cycles alone; preempted at {cycles // 2}: {asked} CTAs asked, "
                  "both outputs verified")
    print("variants ok")


if __name__ == "__main__":
    main()
