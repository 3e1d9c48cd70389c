#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# lin_inplace_metric.py - the in-place study's comparison as the thesis defines it (issue 24 item
# 8; experiments/lin-inplace.py matched(), Lin L1182-L1196: kernel1's switching-out latency when
# kernel2 preempts it, 'complete' against in-place, on the same preemption).
#   unit   on synthetic preemption records: only the arriving kernel's first launch that asked is
#          compared, per SM asked by both runs at the same signal cycle (a later launch's
#          requests, an SM one run alone asked and an SM signalled at another cycle are left
#          out); spill latency = registers + shared memory + SIMT stacks (the save engine's
#          cycles per part), and with the register part accumulated per warp; the reduction is
#          1 - in-place / complete over the matched SMs.
#   e2e    histogram+backprop on the lin-inplace setup (small): whole-SM switching against
#          in-place with the thesis's stop in place ([context] inplace_stop): both verify, the
#          two runs' first preemption matches on every SM it asked, in-place writes no shared
#          memory there, stops CTAs in place (regs_kept > 0) and writes fewer register bytes,
#          and its matched spill latency is lower under both readings.
# usage: lin_inplace_metric.py unit | lin_inplace_metric.py e2e HEDDLE
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("lin_inplace",
                                              os.path.join(ROOT, "experiments", "lin-inplace.py"))
li = importlib.util.module_from_spec(spec)
sys.path.insert(0, os.path.join(ROOT, "experiments"))
spec.loader.exec_module(li)


def check(cond, what):
    if not cond:
        sys.exit(f"lin_inplace_metric.py: {what}")


def rec(launch, sm, signal, regs, smem, stack, wsp, switched=6, nbytes=1000):
    return {"launch": launch, "sm": sm, "signal": signal, "met": True, "switched": switched,
            "victim": 0, "quiet": signal + 100, "freed": signal + 300, "bytes": nbytes,
            "cycles_regs": regs, "cycles_smem": smem, "cycles_stack": stack,
            "warp_spill_cycles": wsp, "warp_spill_warps": 48, "ctas_at_signal": 6,
            "smem_kept": 0, "regs_kept": 0}


def stats(recs):
    return {"timing": {"preemptions": recs, "config": {"sm": {"registers": 32768}},
                       "launches": [{"id": 0, "kernel": "a", "regs_per_thread": 10,
                                     "block": [256, 1, 1], "ctas_per_sm": 6, "limiter": "threads"},
                                    {"id": 1, "kernel": "b", "regs_per_thread": 18,
                                     "block": [256, 1, 1], "ctas_per_sm": 6}]}}


def unit():
    complete = stats([rec(1, 0, 1303, 300, 280, 100, 4700), rec(1, 1, 1303, 300, 280, 100, 4700),
                      rec(1, 2, 1303, 300, 280, 100, 4700),   # asked by complete only
                      rec(2, 0, 15842, 10, 10, 10, 50),       # a later launch: left out
                      {"launch": "signal", "sm": 3, "signal": 5, "met": True, "switched": 1}])
    inplace = stats([rec(1, 0, 1303, 300, 0, 20, 4700), rec(1, 1, 1303, 100, 0, 20, 1000),
                     rec(1, 4, 1303, 1, 0, 1, 1),             # asked by in-place only
                     rec(2, 1, 20000, 5000, 5000, 5000, 90000)])
    m = li.matched(complete, inplace)
    check(m and m["launch"] == 1 and m["sms"] == 2, f"matched SMs: {m}")
    check(m["sm"]["eng"] == 2 * (300 + 280 + 100), f"complete's engine time {m['sm']['eng']}")
    check(m["inplace"]["eng"] == 320 + 120, f"in-place's engine time {m['inplace']['eng']}")
    check(m["sm"]["acc"] == 2 * (4700 + 280 + 100), f"complete accumulated {m['sm']['acc']}")
    check(m["inplace"]["acc"] == 4720 + 1020, f"in-place accumulated {m['inplace']['acc']}")
    r = li.matched_reduction(m, "eng")
    check(abs(r - 100.0 * (1 - 440 / 1360)) < 1e-9, f"reduction {r}")
    check(m["rf_a"] == 480 and m["rf_b"] == 864 and m["rf_cap"] == 1024, f"register file {m}")
    # another signal cycle on an SM: not the same preemption
    other = stats([rec(1, 0, 1400, 1, 1, 1, 1)])
    check(li.matched(complete, other) == {}, "an SM signalled at another cycle was matched")
    # different first launches: nothing to compare
    check(li.matched(complete, stats([rec(2, 0, 1303, 1, 1, 1, 1)])) == {},
          "first rounds of different launches were matched")
    # with the pipeline's busy time in the records, the engine reading takes it (each cycle once)
    busy = stats([dict(rec(1, 0, 1303, 300, 280, 100, 4700), cycles_engine=600)])
    check(li.spill_of(busy["timing"]["preemptions"][0]) == {"eng": 600, "acc": 5080},
          "cycles_engine not taken as the engine time")
    print("unit: matched 2 of 3/3 SMs, later launches and unmatched SMs left out, "
          f"engine reduction {r:.1f} %")


SETUP = ["--set", "sm.concurrent_kernels=true", "--set", "sm.scheduler=lrr",
         "--set", "sm.num_schedulers=2", "--set", "sm.regs_source=regalloc",
         "--set", "sm.allocator=lin_tables", "--set", "context.quiesce=writeback",
         "--set", "context.points=selective", "--set", "context.inplace_split=true",
         "--set", "context.save_order=warp", "--set", "context.save=compressed",
         "--set", "context.inplace_stop=true"]


def run(heddle, policy, tmp):
    f = os.path.join(tmp, policy + ".json")
    p = subprocess.run([heddle, "run", "--mix", "histogram+backprop", "--size", "small",
                        "--config", "configs/fermi-gtx480.ini", "--quiet", "--arrive",
                        "backprop@7929:1", "--stats", f, "--set",
                        f"context.preempt_policy={policy}"] + SETUP,
                       capture_output=True, text=True, cwd=ROOT)
    d = json.load(open(f)) if os.path.exists(f) else {}
    check(p.returncode == 0 and d.get("mix", {}).get("verified"),
          f"{policy}: exit {p.returncode}, not verified\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return d


def e2e(heddle):
    with tempfile.TemporaryDirectory() as tmp:
        sm, ip = run(heddle, "sm", tmp), run(heddle, "inplace", tmp)
    m = li.matched(sm, ip)
    check(m and m["sms"] == m["sms_sm"] == m["sms_inplace"] > 0, f"matched SMs: {m}")
    _, first = li.first_round(ip)
    check(all(p["bytes_smem"] == 0 for p in first.values()), "in-place wrote shared memory")
    check(m["inplace"]["regs_kept"] > 0, "no CTA stopped in place")
    check(sum(p["bytes_regs"] for p in first.values()) <
          sum(p["bytes_regs"] for p in li.first_round(sm)[1].values()),
          "in-place wrote as many register bytes")
    e, a = li.matched_reduction(m, "eng"), li.matched_reduction(m, "acc")
    check(e > 0 and a > 0, f"in-place not faster: engine {e}, accumulated {a}")
    print(f"e2e: histogram+backprop, {m['sms']} SMs matched, {m['inplace']['regs_kept']} CTAs "
          f"stopped in place, spill latency -{e:.1f} % (engine) / -{a:.1f} % (accumulated)")


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "unit":
        unit()
    elif len(sys.argv) == 3 and sys.argv[1] == "e2e":
        e2e(sys.argv[2])
    else:
        sys.stderr.write("usage: lin_inplace_metric.py unit | lin_inplace_metric.py e2e HEDDLE\n")
        sys.exit(2)
