#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""predict.py - the on-chip mover's and the swap engine's bytes and cycles for one CTA,
computed by hand from the configuration and the kernel's register allocation, against a run's
statistics (issue 25 items 3, 4; docs/mover.md "Worked example"). Within 2 %, with the
pipeline's contention counted.

    tests/mover/predict.py HEDDLE move|swap

sgemm (small) under move or swap stress with vstress_piece = regs: each operation takes one
warp's share of its CTA's register allocation, regs_per_thread x 4 B x 32 lanes (the launch's
regs_per_thread, ptxas: 40 -> 5,120 B), away and back.
  move  each direction is one mover job of B bytes: ceil(B / mover_bytes_per_cycle) move
        cycles (40 at 128 B) plus the cycles it waited for the pipeline on the register file or
        the L1D (counted) and behind other moves (counted). Two runs: one CTA per SM
        (sm.max_ctas = 1: the pipeline is idle while its only CTA is held: no waits), and the
        kernel's own occupancy (3 CTAs per SM: the others run and contend).
  swap  each direction is ceil(B / segment_bytes) requests (40 of 128 B), requests_per_cycle
        (1) per cycle, plus the cycles the memory interface refused one (counted); the SWAP
        class of the memory statistics carries exactly those bytes both ways.
"""
import json
import math
import os
import subprocess
import sys
import tempfile


def run(heddle, sets, tmp, name):
    out = os.path.join(tmp, name + ".json")
    args = [heddle, "run", "sgemm", "--size", "small", "--quiet", "--stats", out]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0 or "VERIFIED" not in p.stdout + p.stderr:
        print(f"predict.py: {name}: the run failed:\n{p.stdout}{p.stderr}")
        sys.exit(1)
    return json.load(open(out))["timing"]


def total(t, key):
    return sum(s[key] for s in t["sms"])


def near(name, want, got, bad):
    err = abs(got - want) / want if want else float(got != 0)
    ok = err <= 0.02
    print(f"  {name}: predicted {want}, measured {got} ({100 * err:.2f} %){'' if ok else '  FAIL'}")
    return bad or not ok


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("move", "swap"):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    heddle, kind = sys.argv[1], sys.argv[2]
    width, seg, rpc = 128, 128, 1
    base = [f"context.{kind}_stress_period=1000", "context.vstress_piece=regs",
            "context.vstress_away=100", "context.mover_l1d_ways=2",
            f"context.mover_bytes_per_cycle={width}", f"context.segment_bytes={seg}",
            f"context.requests_per_cycle={rpc}"]
    bad = False
    with tempfile.TemporaryDirectory() as tmp:
        for label, extra in (("one CTA per SM", ["sm.max_ctas=1", "context.vstress_fraction=1"]),
                             ("3 CTAs per SM", ["context.vstress_fraction=0.3"])):
            t = run(heddle, base + extra, tmp, label.replace(" ", "_"))
            regs = t["launches"][0]["regs_per_thread"]
            b = regs * 4 * 32                           # one warp's share, by hand
            print(f"{kind}, {label}: {regs} registers per thread -> {b} B per piece")
            if kind == "move":
                jobs = total(t, "mover_jobs")
                ops = total(t, "vstress_moves")
                beats = math.ceil(b / width)
                wait, queue = total(t, "mover_wait_cycles"), total(t, "mover_queue_cycles")
                print(f"  {ops} pieces moved away and back: {jobs} moves of {beats} cycles; "
                      f"contention: {wait} cycles waited for the pipeline (register file "
                      f"{total(t, 'mover_wait_rf')}, shared memory {total(t, 'mover_wait_smem')}"
                      f", L1D {total(t, 'mover_wait_l1d')}), {queue} queued")
                bad |= jobs != 2 * ops or ops == 0
                bad = near("bytes", jobs * b, total(t, "mover_bytes"), bad)
                bad = near("move cycles", jobs * beats, total(t, "mover_move_cycles"), bad)
                bad = near("cycles (move + contention)", jobs * beats + wait + queue,
                           total(t, "mover_latency"), bad)
                if extra[0] == "sm.max_ctas=1":
                    bad = near("cycles with one CTA (no contention)", jobs * beats,
                               total(t, "mover_latency"), bad)
                else:
                    bad |= wait == 0
            else:
                ops = total(t, "vstress_swaps")
                reqs = math.ceil(b / seg)
                stalls = total(t, "swap_send_stalls")
                print(f"  {ops} pieces swapped out and back: {reqs} requests each way; "
                      f"contention: {stalls} cycles the memory interface refused a request; "
                      f"acknowledged after {total(t, 'swap_out_cycles') / max(ops, 1):.0f} "
                      f"cycles out, {total(t, 'swap_in_cycles') / max(ops, 1):.0f} in (mean)")
                bad |= ops == 0 or total(t, "swap_outs") != ops
                bad = near("bytes out", ops * b, total(t, "swap_out_bytes"), bad)
                bad = near("bytes in", ops * b, total(t, "swap_in_bytes"), bad)
                bad = near("requests", 2 * ops * reqs,
                           total(t, "swap_out_reqs") + total(t, "swap_in_reqs"), bad)
                bad = near("send cycles (requests / per cycle + refused)",
                           math.ceil(2 * ops * reqs / rpc) + stalls,
                           total(t, "swap_busy_cycles"), bad)
                sw = t["memory"]["per_class"]["swap"]
                bad = near("SWAP-class bytes in the memory statistics", 2 * ops * b,
                           sw["mq_bytes"], bad)
                bad |= sw["l2_writes"] == 0 or sw["l2_reads"] == 0
                print(f"  SWAP class: {sw['l2_writes']} L2 writes, {sw['l2_reads']} L2 reads, "
                      f"{sw['dram_write_bytes']} DRAM bytes written")
    print("predict.py:", "FAIL" if bad else "PASS")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
