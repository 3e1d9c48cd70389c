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
#           Each record's per-warp service time (warp_service_cycles: first to last register
#           request of each warp, summed) is at least a cycle per warp and at most its
#           accumulated spill latency plus a cycle per warp (the service starts after the stop).
#   modes   warp order under stress mode with every save mode (occupied, live, compressed) and
#           selective points: every run verifies, warps are queued early, contexts are saved
#           and restored.
#   loop    warp order with the context blocks in the timing loop (heddle cosim --blocks regpat
#           --in-loop: each SM's compressor, decompressor, packer, unpacker, preemption
#           controller and point decoder against their RTL): the same signalled run (or stress
#           evictions) as `heddle run` with the C references; the RTL driving the model
#           (--drive rtl) verifies with 0 mismatches and gives the run's cycles exactly; the run
#           queued warps early and switched CTAs with register records; with `ref` also
#           --drive ref, with the same cycles and block steps as --drive rtl.
# usage: lin_wsave.py HEDDLE CASE [WORKLOAD]
#        lin_wsave.py HEDDLE loop WORKLOAD SIZE signal|stress|faithful [ref]
import json
import os
import re
import subprocess
import sys
import tempfile

heddle, case = sys.argv[1], sys.argv[2]
workload = sys.argv[3] if len(sys.argv) > 3 else "hotspot"
GTX480 = ["--config", "configs/fermi-gtx480.ini"]
LIN = ["--set", "context.points=selective", "--set", "context.save=compressed",
       "--set", "context.quiesce=writeback"]


def run(args, tmp, name, size="small"):
    stats = os.path.join(tmp, name + ".json")
    p = subprocess.run([heddle, "run", workload, "--size", size, "--quiet", "--stats", stats]
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
                nw, sv = r["warp_spill_warps"], r["warp_service_cycles"]
                assert nw <= sv <= r["warp_spill_cycles"] + nw, (name, "service", r)
                assert r["bytes_regs"] + r["bytes_smem"] + r["bytes_stack"] == r["bytes"], r
                for part in ("regs", "smem", "stack"):
                    assert (r["cycles_" + part] > 0) == (r["bytes_" + part] > 0), (name, part, r)
                if name == "tb":
                    tsum = r["cycles_regs"] + r["cycles_smem"] + r["cycles_stack"]
                    assert tsum <= r["freed"] - r["signal"], (tsum, r)
        sv_wp = sum(r["warp_service_cycles"] for r in switched(wp))
        assert sv_wp > 0, "warp order: no register request timed"
        parts = {k: sum(r["cycles_" + k] for r in switched(wp)) for k in ("regs", "smem", "stack")}
        print(f"order: {workload} per-warp spill {pw_tb:.1f} cycles (tb, {n_tb} signals) -> "
              f"{pw_wp:.1f} (warp, {n_wp} signals, {early} warps queued early; service "
              f"{sv_wp / max(1, sum(r['warp_spill_warps'] for r in switched(wp))):.1f} per warp); warp-order "
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
    elif case == "loop":
        size, how = sys.argv[4], sys.argv[5]
        both = len(sys.argv) > 6 and sys.argv[6] == "ref"
        sets = ["--set", "context.save_order=warp"] + LIN
        if how == "signal":
            sets += ["--set", "context.signal_period=2000", "--set", "context.signal_sms=1"]
        elif how == "stress":
            sets += ["--set", "context.stress_period=500"]
        elif how == "faithful":  # experiments/lin-ch2-faithful.py's setup, every kernel signalled
            sets += ["--set", "sm.scheduler=lrr", "--set", "sm.num_schedulers=2",
                     "--set", "sm.regs_source=regalloc", "--set", "context.signal_period=10000",
                     "--set", "context.signal_sms=1"]
        else:
            sys.exit(f"lin_wsave.py: loop: '{how}' is not signal, stress or faithful")
        t = run(sets, tmp, "loop", size)
        cycles, early = t["totals"]["cycles"], sm_sum(t, "ctx_wsave_warps")
        sw = [r for r in t["preemptions"] if r["switched"]] if how != "stress" else []
        saves = sm_sum(t, "ctx_saves")
        assert early > 0, f"loop: {workload}: no warp queued before its CTA was quiet"
        assert saves > 0 and (how == "stress" or any(r["bytes_regs"] for r in sw)), \
            f"loop: {workload}: no context saved with register records"
        got = {}
        for drive in (["ref", "rtl"] if both else ["rtl"]):
            p = subprocess.run([heddle, "cosim", "--blocks", "regpat", workload, "--in-loop",
                                "--size", size, "--drive", drive] + GTX480 + sets,
                               capture_output=True, text=True)
            m = re.search(r"verified.* ([0-9]+) cycles, blocks in the timing loop: ([0-9]+) "
                          r"instances .* ([0-9]+) block steps \(([0-9]+) against RTL\), "
                          r"([0-9]+) mismatches", p.stdout)
            if p.returncode != 0 or not m:
                sys.stdout.write(p.stdout + p.stderr)
                sys.exit(f"lin_wsave.py: loop: {workload} --drive {drive}: exit {p.returncode}")
            c, inst, steps, vs_rtl, mism = (int(g) for g in m.groups())
            assert mism == 0 and vs_rtl > 0, (drive, p.stdout)
            assert c == cycles, f"loop: {workload} --drive {drive}: {c} cycles, the run {cycles}"
            got[drive] = (c, steps, inst)
        if both:
            assert got["ref"] == got["rtl"], got
        c, steps, inst = got["rtl"]
        print(f"loop: {workload} {size} {how}: {cycles} cycles with the C references and with "
              f"the RTL driving ({inst} instances, {steps} block steps, 0 mismatches"
              f"{', --drive ref the same' if both else ''}); {saves} saves, {early} warps "
              "queued early")
    else:
        sys.exit(f"lin_wsave.py: unknown case '{case}' (order, modes, loop)")
