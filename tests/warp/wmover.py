#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wmover.py - warps switched out through the on-chip context mover or the swap engine
([sm] warp_mover = onchip | swap; model/ctx/ctx_wmove.c; docs/mover.md "Warps switched out
through the mover"): bytes and cycles predicted by hand from the configuration, SWAP-class
bytes, determinism.

    tests/warp/wmover.py HEDDLE predict|swap|determinism [onchip|swap]

sgemm (small) under warp stress ([sm] warp_stress_period 500). A warp's move is its share of its
CTA's register allocation (the launch's regs_per_thread x 4 B x 32 lanes, ptxas: 40 -> 5,120 B)
plus one 128-byte unit of warp state: B = 5,248 B.
  predict      warp_mover = onchip, mover_l1d_ways = 3 (96 units of 128 B: one warp takes 41,
               two fit, a third spills to the swap engine): every mover job is a warp's move of
               B bytes, ceil(B / mover_bytes_per_cycle) beats (41 at 128 B), plus the cycles it
               waited for the pipeline's register-file or L1D accesses and queued behind
               another warp's move (counted by the mover); the warp's move cycles (start to
               completion) must be beats + waits + queueing within 2 %, and the waits > 0
               (the other warps run and contend).
  swap         warp_mover = swap: each move is ceil(B / segment_bytes) requests (41 of 128 B);
               the memory statistics' SWAP class carries exactly the moved bytes both ways.
  determinism  onchip and swap (or the one named): twice with one seed and once without
               idle-cycle skipping give the same cycles and counters; another seed gives other
               cycles. (CI: onchip; swap, 80 % of the CPU, in the full tier, tests/warp.cmake.)
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

WIDTH, SEG = 128, 128
BASE = ["sm.warp_stress_period=500", f"context.mover_bytes_per_cycle={WIDTH}",
        f"context.segment_bytes={SEG}", "context.mover_l1d_ways=3"]


def run(heddle, sets, tmp, name, wl="sgemm"):
    out = os.path.join(tmp, name + ".json")
    # not --quiet: the driver's messages are checked as warp_mover_<MOVER>_<NAME> checks them
    # (tests/warp.cmake), so that predict's and swap's sgemm runs cover warp_mover_*_sgemm
    args = [heddle, "run", wl, "--size", "small", "--stats", out]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True)
    text = p.stdout + p.stderr
    if p.returncode != 0 or "VERIFIED" not in text or re.search("FAILED|MISMATCH|internal:", text):
        print(f"wmover.py: {name}: the run failed:\n{p.stdout}{p.stderr}")
        sys.exit(1)
    return json.load(open(out))["timing"]


def total(t, key):
    return sum(s[key] for s in t["sms"])


def near(name, want, got, bad):
    err = abs(got - want) / want if want else float(got != 0)
    ok = err <= 0.02
    print(f"  {name}: predicted {want}, measured {got} ({100 * err:.2f} %){'' if ok else '  FAIL'}")
    return bad or not ok


def piece_bytes(t):
    regs = t["launches"][0]["regs_per_thread"]
    return regs, regs * 4 * 32 + 128


def predict(heddle, tmp):
    t = run(heddle, BASE + ["sm.warp_mover=onchip"], tmp, "onchip")
    regs, b = piece_bytes(t)
    beats = math.ceil(b / WIDTH)
    n = total(t, "warp_mover_onchip")
    jobs = total(t, "mover_jobs")
    wait, queue = total(t, "mover_wait_cycles"), total(t, "mover_queue_cycles")
    print(f"onchip: {regs} registers per thread -> {b} B per warp move, {beats} beats; "
          f"{total(t, 'warp_switch_outs')} switch-outs, {n} moves through the mover, "
          f"{total(t, 'warp_mover_spills')} spilled to the swap engine "
          f"({total(t, 'warp_mover_swaps')} swap moves), {total(t, 'warp_mover_fixed')} fixed; "
          f"contention: {wait} cycles waited (register file {total(t, 'mover_wait_rf')}, L1D "
          f"{total(t, 'mover_wait_l1d')}), {queue} queued")
    bad = n == 0 or jobs != n or total(t, "l1d_reserves") == 0
    bad = near("bytes", n * b, total(t, "warp_mover_onchip_bytes"), bad)
    bad = near("mover bytes", n * b, total(t, "mover_bytes"), bad)
    bad = near("move cycles", n * beats, total(t, "mover_move_cycles"), bad)
    bad = near("warp move cycles (beats + contention)", n * beats + wait + queue,
               total(t, "warp_mover_onchip_cycles"), bad)
    print(f"  mean warp move: {total(t, 'warp_mover_onchip_cycles') / max(n, 1):.1f} cycles "
          f"({beats} without contention)")
    bad |= wait == 0
    return bad


def swap(heddle, tmp):
    t = run(heddle, BASE + ["sm.warp_mover=swap"], tmp, "swap")
    regs, b = piece_bytes(t)
    n = total(t, "warp_mover_swaps")
    reqs = math.ceil(b / SEG)
    print(f"swap: {b} B per warp move, {reqs} requests; {total(t, 'warp_switch_outs')} "
          f"switch-outs, {n} moves through the swap engine, {total(t, 'warp_mover_fixed')} fixed; "
          f"mean {total(t, 'warp_mover_swap_cycles') / max(n, 1):.0f} cycles per move")
    bad = n == 0 or total(t, "mover_jobs") != 0
    bad = near("bytes", n * b, total(t, "warp_mover_swap_bytes"), bad)
    bad = near("swap bytes out + in", n * b,
               total(t, "swap_out_bytes") + total(t, "swap_in_bytes"), bad)
    bad = near("requests", n * reqs, total(t, "swap_out_reqs") + total(t, "swap_in_reqs"), bad)
    sw = t["memory"]["per_class"]["swap"]
    bad = near("SWAP-class bytes in the memory statistics", n * b, sw["mq_bytes"], bad)
    bad |= sw["l2_writes"] == 0 or sw["l2_reads"] == 0
    return bad


def determinism(heddle, tmp, movers=("onchip", "swap")):
    bad = False
    keys = ("warp_switch_outs", "warp_switch_ins", "warp_mover_onchip", "warp_mover_swaps",
            "warp_mover_onchip_cycles", "warp_mover_swap_cycles", "mover_wait_cycles",
            "swap_send_stalls")
    for mover in movers:
        digs = []
        for i, extra in enumerate((["sm.warp_stress_seed=7"], ["sm.warp_stress_seed=7"],
                                   ["sm.warp_stress_seed=7", "timing.skip_idle=false"],
                                   ["sm.warp_stress_seed=8"])):
            t = run(heddle, BASE + [f"sm.warp_mover={mover}"] + extra, tmp, f"{mover}{i}",
                    "reduction")
            digs.append((t["totals"]["cycles"],) + tuple(total(t, k) for k in keys) +
                        (json.dumps(t["memory"]["per_class"], sort_keys=True),))
        print(f"{mover}: reduction {digs[0][0]} cycles, {digs[0][1]} switch-outs, "
              f"{digs[0][3] + digs[0][4]} moves (seed 8: {digs[3][0]} cycles)")
        if digs[0] != digs[1] or digs[0] != digs[2]:
            print(f"  FAIL: runs with one seed differ: {digs[0][:-1]} {digs[1][:-1]} "
                  f"{digs[2][:-1]}")
            bad = True
        if digs[0] == digs[3] or digs[0][1] == 0:
            print("  FAIL: another seed gave the same run, or nothing switched out")
            bad = True
    return bad


def main():
    modes = {"predict": predict, "swap": swap, "determinism": determinism}
    movers = sys.argv[3:]
    if (len(sys.argv) not in (3, 4) or sys.argv[2] not in modes or
            (movers and (sys.argv[2] != "determinism" or movers[0] not in ("onchip", "swap")))):
        print("usage: wmover.py HEDDLE predict|swap|determinism [onchip|swap]", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        if movers:
            bad = determinism(sys.argv[1], tmp, tuple(movers))
        else:
            bad = modes[sys.argv[2]](sys.argv[1], tmp)
    print("wmover.py:", "FAIL" if bad else "PASS")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
