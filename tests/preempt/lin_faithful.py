#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# lin_faithful.py - the settings Lin's chapter 2 experiment needs (issue 24, items 5-7), each
# checked on a real run at small size:
#   quiesce   [context] quiesce = writeback waits for every load of a stopped warp (Lin
#             L930-L938: a drained warp has no pending register-file update): no load response
#             reaches a warp after its CTA left its slots (ctx_loads_late = 0), where the default
#             (pipeline) lets some land after the save (> 0); both verify; the default is
#             pipeline (same cycles as the explicit key).
#   period    [context] signal_period = P: the signals that found CTAs are exactly P, 2P, ...
#             (consecutive ones P apart, none missing while CTAs were resident), none after
#             signal_until; each record's bytes split into registers, shared memory and
#             stacks (Fig 2.14) adds up to its bytes.
#   kernel    [context] signal_kernel = NAME: every signal's record names a victim launch of that
#             kernel (leukocyte: only lk_gicov CTAs), and at least one signal found one.
#   liveness  points = selective, regs_source = regalloc: warps reaching a point during normal
#             execution are sampled (Lin L630-L636): numerator (live words) and denominator
#             (registers per thread) from the same allocation, no sample with live > occupied,
#             samples > 0 for every kernel with a loop point (bfs: diverged warps, where the
#             PTX registers of the divergence-aware union outnumbered the allocation's).
# usage: lin_faithful.py HEDDLE CASE
import json
import os
import subprocess
import sys
import tempfile

heddle, case = sys.argv[1], sys.argv[2]
GTX480 = ["--config", "configs/fermi-gtx480.ini"]


def run(workload, args, tmp, name):
    stats = os.path.join(tmp, name + ".json")
    p = subprocess.run([heddle, "run", workload, "--size", "small", "--quiet", "--stats", stats]
                       + GTX480 + args, capture_output=True, text=True)
    if p.returncode != 0 or "VERIFIED" not in p.stdout:
        sys.stdout.write(p.stdout + p.stderr)
        sys.exit(f"lin_faithful.py: {workload} {' '.join(args)}: exit {p.returncode}, not VERIFIED")
    return json.load(open(stats))["timing"]


def sm_sum(t, key):
    return sum(s[key] for s in t["sms"])


def signals(t):
    return [r for r in t["preemptions"] if r["launch"] == "signal"]


with tempfile.TemporaryDirectory() as tmp:
    if case == "quiesce":
        sig = ["--set", "context.signal_period=2000", "--set", "context.signal_sms=1"]
        default = run("backprop", sig, tmp, "default")
        pipe = run("backprop", sig + ["--set", "context.quiesce=pipeline"], tmp, "pipe")
        wb = run("backprop", sig + ["--set", "context.quiesce=writeback"], tmp, "wb")
        assert default["totals"]["cycles"] == pipe["totals"]["cycles"], "default is not pipeline"
        late_p, late_w = sm_sum(pipe, "ctx_loads_late"), sm_sum(wb, "ctx_loads_late")
        assert sm_sum(wb, "ctx_saves") > 0 and sm_sum(pipe, "ctx_saves") > 0, "nothing saved"
        assert late_p > 0, "pipeline: no load landed after a save (the case does not test it)"
        assert late_w == 0, f"writeback: {late_w} loads landed after their warp's CTA left"
        print(f"quiesce: pipeline {late_p} late loads, writeback 0 "
              f"({sm_sum(wb, 'ctx_saves')} saves); quiet cycles "
              f"{sm_sum(pipe, 'ctx_quiesce_cycles')} vs {sm_sum(wb, 'ctx_quiesce_cycles')}")
    elif case == "period":
        period, until = 5000, 40000
        t = run("hotspot", ["--set", f"context.signal_period={period}",
                            "--set", f"context.signal_until={until}",
                            "--set", "context.signal_sms=1"], tmp, "period")
        cyc = sorted({r["signal"] for r in signals(t)})
        want = [period * i for i in range(1, until // period + 1)
                if period * i < t["totals"]["cycles"]]
        assert len(want) >= 4, f"run too short for the case: {t['totals']['cycles']} cycles"
        assert cyc == want, f"signals at {cyc}, expected {want}"
        gaps = {b - a for a, b in zip(cyc, cyc[1:])}
        assert gaps == {period}, gaps
        # Fig 2.14's parts add up to the bytes; hotspot's CTAs hold shared memory
        for r in signals(t):
            assert r["bytes_regs"] + r["bytes_smem"] + r["bytes_stack"] == r["bytes"], r
        sw = [r for r in signals(t) if r["switched"]]
        assert sw and all(r["bytes_smem"] > 0 and r["bytes_regs"] > 0 for r in sw), sw[:1]
        print(f"period: {len(cyc)} signals exactly {period} cycles apart, none after {until}")
    elif case == "kernel":
        t = run("leukocyte", ["--set", "context.signal_period=2000", "--set",
                              "context.signal_sms=1", "--set", "context.signal_kernel=lk_gicov"],
                tmp, "kernel")
        names = {L["id"]: L["kernel"] for L in t["launches"]}
        recs = signals(t)
        assert recs, "no signal found a CTA of lk_gicov"
        bad = [r for r in recs if "lk_gicov" not in names.get(r["victim"], "")]
        assert not bad, f"signals took SMs of other kernels: {bad[:2]}"
        print(f"kernel: {len(recs)} signals, every one on lk_gicov CTAs "
              f"({sum(r['switched'] for r in recs)} switched)")
    elif case == "liveness":
        for wl in ("backprop", "leukocyte", "bfs"):
            t = run(wl, ["--set", "context.points=selective", "--set", "sm.regs_source=regalloc"],
                    tmp, wl)
            for L in t["launches"]:
                assert L["regs_source"] == "regalloc" and \
                    L["regs_per_thread"] == L["regs_regalloc"], L
                assert L["pp_live_over"] == 0, f"{L['kernel']}: live > occupied at a point"
                assert L["pp_occupied_words"] == L["pp_arrivals"] * L["regs_regalloc"], L
            loop = {"backprop": "bp_layer_forward", "leukocyte": "lk_gicov",
                    "bfs": "bfs_level"}[wl]
            n = sum(L["pp_arrivals"] for L in t["launches"] if L["kernel"] == loop)
            live = sum(L["pp_live_words"] for L in t["launches"] if L["kernel"] == loop)
            occ = sum(L["pp_occupied_words"] for L in t["launches"] if L["kernel"] == loop)
            assert n > 0, f"{loop}: no warp reached a point"
            assert 0 < live < occ, (live, occ)
            print(f"liveness: {loop}: {n} point arrivals, live {100.0 * live / occ:.1f} % of "
                  f"the allocation's registers")
    else:
        sys.exit(f"lin_faithful.py: unknown case '{case}'")
