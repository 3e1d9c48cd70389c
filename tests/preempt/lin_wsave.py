#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# lin_wsave.py - [context] save_order = warp, the per-warp save pipeline (Lin Fig 2.13 step 5;
# model/ctx/ctx_wsave.[ch]), on a real run at small size with Lin's setup (selective points,
# live+cp, drained warps, a signal every PERIOD cycles on one SM):
#   order   the same run with save_order = tb and = warp: both verify; tb queues no warp early
#           (ctx_wsave_warps = 0), warp does (> 0); Lin's accumulated per-warp spill latency
#           (each warp from its point to its last register request) is shorter per warp in warp
#           order; each switched record's Fig 2.14 time parts (cycles_regs, _smem, _stack) are
#           > 0 where the bytes are, and in tb order (one CTA at a time, its parts one after
#           another) their sum is at most the record's spill time (freed - quiet ... at most
#           freed - signal); the bytes still split exactly into the three parts.
#   modes   warp order under stress mode with every save mode (occupied, live, compressed) and
#           selective points: every run verifies, warps are queued early, contexts are saved
#           and restored.
# usage: lin_wsave.py HEDDLE CASE [WORKLOAD]
import json
import os
import subprocess
import sys
import tempfile

heddle, case = sys.argv[1], sys.argv[2]
workload = sys.argv[3] if len(sys.argv) > 3 else "hotspot"
GTX480 = ["--config", "configs/fermi-gtx480.ini"]
LIN = ["--set", "context.points=selective", "--set", "context.save=compressed",
       "--set", "context.quiesce=writeback"]


def run(args, tmp, name):
    stats = os.path.join(tmp, name + ".json")
    p = subprocess.run([heddle, "run", workload, "--size", "small", "--quiet", "--stats", stats]
                       + GTX480 + args, capture_output=True, text=True)
    if p.returncode != 0 or "VERIFIED" not in p.stdout:
        sys.stdout.write(p.stdout + p.stderr)
        sys.exit(f"lin_wsave.py: {workload} {' '.join(args)}: exit {p.returncode}, not VERIFIED")
    return json.load(open(stats))["timing"]


def sm_sum(t, key):
    return sum(s[key] for s in t["sms"])


def switched(t):
    return [r for r in t["preemptions"] if r["launch"] == "signal" and r["switched"]]


def per_warp(t):
    rs = switched(t)
    w = sum(r["warp_spill_warps"] for r in rs)
    return sum(r["warp_spill_cycles"] for r in rs) / w if w else 0.0, len(rs)


with tempfile.TemporaryDirectory() as tmp:
    if case == "order":
        sig = LIN + ["--set", "context.signal_period=3000", "--set", "context.signal_sms=1"]
        tb = run(sig + ["--set", "context.save_order=tb"], tmp, "tb")
        wp = run(sig + ["--set", "context.save_order=warp"], tmp, "warp")
        assert sm_sum(tb, "ctx_wsave_warps") == 0, "tb order queued warps early"
        early = sm_sum(wp, "ctx_wsave_warps")
        assert early > 0, "warp order: no warp queued before its CTA was quiet"
        (pw_tb, n_tb), (pw_wp, n_wp) = per_warp(tb), per_warp(wp)
        assert n_tb >= 3 and n_wp >= 3, f"too few switched signals: {n_tb}, {n_wp}"
        assert 0 < pw_wp < pw_tb, f"per-warp spill: warp order {pw_wp:.1f} vs tb {pw_tb:.1f}"
        for name, t in (("tb", tb), ("warp", wp)):
            for r in switched(t):
                assert r["bytes_regs"] + r["bytes_smem"] + r["bytes_stack"] == r["bytes"], r
                for part in ("regs", "smem", "stack"):
                    assert (r["cycles_" + part] > 0) == (r["bytes_" + part] > 0), (name, part, r)
                if name == "tb":
                    tsum = r["cycles_regs"] + r["cycles_smem"] + r["cycles_stack"]
                    assert tsum <= r["freed"] - r["signal"], (tsum, r)
        parts = {k: sum(r["cycles_" + k] for r in switched(wp)) for k in ("regs", "smem", "stack")}
        print(f"order: {workload} per-warp spill {pw_tb:.1f} cycles (tb, {n_tb} signals) -> "
              f"{pw_wp:.1f} (warp, {n_wp} signals, {early} warps queued early); warp-order "
              f"engine cycles regs/smem/stack {parts['regs']}/{parts['smem']}/{parts['stack']}")
    elif case == "modes":
        out = []
        for mode in ("occupied", "live", "compressed"):
            t = run(["--set", "context.points=selective", "--set", f"context.save={mode}",
                     "--set", "context.save_order=warp", "--set", "context.stress_period=2000",
                     "--set", "context.stress_fraction=0.25"], tmp, mode)
            saves, restores = sm_sum(t, "ctx_saves"), sm_sum(t, "ctx_restores")
            early = sm_sum(t, "ctx_wsave_warps")
            assert saves > 0 and restores > 0 and early > 0, (mode, saves, restores, early)
            out.append(f"{mode} {saves} saves {restores} restores {early} early")
        print(f"modes: {workload} " + "; ".join(out))
    else:
        sys.exit(f"lin_wsave.py: unknown case '{case}' (order, modes)")
