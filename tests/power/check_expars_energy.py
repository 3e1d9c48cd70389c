#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# check_expars_energy.py - EXPARS's events in the energy model (docs/power.md "Added structures",
# docs/expars.md "Energy"), the CTest expars_energy_events:  check_expars_energy.py HEDDLE OUTDIR
#
# Runs Table 3's QUA (quasirandom_r32, small, configs/fermi-gtx480.ini) with [sm] allocator =
# expars and [expars] log = FILE, and with the baseline allocator, and checks:
#   - each SM's expars_fills / expars_writebacks / expars_oc_writes in the JSON statistics equal
#     the mechanism's own counters in the log (fills, evict_dirty, writes_oc + writes_alloc), and
#     some are not zero (mix CTAs filled the operand cache);
#   - the power events: expars_spad_passes = fills + write-backs, expars_oc_accesses = that +
#     OC writes, rf_writes = reg_writes - OC writes, expars_rat_lookups = every operand word +
#     fills + write-backs, summed over the SMs;
#   - the energies: the shared-memory component is (smem_passes + expars_spad_passes) x
#     e_smem_pass_pj, the added-RTL component has the access energy of the five EXPARS blocks
#     (expars_rat, expars_oc_tags, expars_arb, expars_cta_calc, expars_pref: GE x ge_activity x
#     e_ge_fj, plus the prefetcher's SRAM tables' read energy) plus their leakage; the kernels
#     plus "other" add up to the run;
#   - the baseline run has no EXPARS event and no added-RTL energy from EXPARS's blocks.
# Exit 0 when all hold.
import json
import os
import subprocess
import sys

E_SMEM_PASS = 30.7e-12          # [power] e_smem_pass_pj (configs/fermi-gtx480.ini)
E_GE = 0.15 * 1.5e-15           # ge_activity x e_ge_fj
LEAK_GE = 20e-9                 # ge_leak_nw
# model/power/power_blocks.c: the EXPARS blocks in the GPU with [sm] allocator = expars and
# [expars] prefetch (GE; SRAM read pJ per access; instances per SM; the event of one access)
BLOCKS = {"expars_rat": (8086, 0, 1, "expars_rat_lookups"),
          "expars_oc_tags": (15083, 0, 1, "expars_oc_accesses"),
          "expars_arb": (1592, 0, 1, "expars_rat_lookups"),
          "expars_cta_calc": (9476, 0, 1, "sm_launches"),
          "expars_pref": (18039, 5.22, 1, "expars_fills")}
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-30)


def run(heddle, out, tag, *extra):
    path = os.path.join(out, f"qua_{tag}.json")
    cmd = [heddle, "run", "quasirandom_r32", "--size", "small", "--quiet", "--config",
           "configs/fermi-gtx480.ini", "--stats", path, *extra]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"check_expars_energy: {' '.join(cmd)} exited {r.returncode}: "
                 f"{r.stderr.strip()}")
    with open(path) as f:
        return json.load(f)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_expars_energy.py HEDDLE OUTDIR")
    heddle, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, "qua_expars.log")
    d = run(heddle, out, "expars", "--set", "sm.allocator=expars", "--set", f"expars.log={log}")
    sms = d["timing"]["sms"]
    mine = {}
    with open(log) as f:
        for line in f:
            w = line.split()
            if len(w) > 2 and w[0] == "sm":
                mine[int(w[1])] = {w[i]: int(w[i + 1]) for i in range(2, len(w) - 1, 2)}
    same = all(sms[i]["expars_fills"] == m["fills"] and
               sms[i]["expars_writebacks"] == m["evict_dirty"] and
               sms[i]["expars_oc_writes"] == m["writes_oc"] + m["writes_alloc"]
               for i, m in mine.items())
    check(len(mine) == len(sms) and same,
          "per SM, the JSON's expars_fills/writebacks/oc_writes are the mechanism's log counters")
    tot = {k: sum(s[k] for s in sms) for k in ("expars_fills", "expars_writebacks",
                                                "expars_oc_writes", "reg_reads", "reg_writes",
                                                "smem_instrs", "smem_conflict_cycles")}
    check(tot["expars_fills"] > 0 and tot["expars_oc_writes"] > 0,
          f"mix CTAs filled ({tot['expars_fills']}) and wrote ({tot['expars_oc_writes']}) "
          "operand-cache lines")
    p = d["power"]
    ev = p["events"]
    passes = tot["expars_fills"] + tot["expars_writebacks"]
    check(ev["expars_spad_passes"] == passes, f"expars_spad_passes = fills + write-backs ({passes})")
    check(ev["expars_oc_accesses"] == passes + tot["expars_oc_writes"],
          "expars_oc_accesses = fills + write-backs + OC writes")
    check(ev["rf_writes"] == tot["reg_writes"] - tot["expars_oc_writes"],
          "rf_writes = register writes less those into the operand cache")
    check(ev["expars_rat_lookups"] == tot["reg_reads"] + tot["reg_writes"] + passes,
          "expars_rat_lookups = every operand word judged + every fill's and write-back's address")
    smem = (ev["smem_passes"] + ev["expars_spad_passes"]) * E_SMEM_PASS
    check(close(p["components"]["smem"]["energy_j"], smem),
          f"shared-memory energy = (ld/st passes + register passes) x 30.7 pJ ({smem:.3e} J)")
    check(ev["expars_fills"] == tot["expars_fills"] and ev["expars_fills"] > 0,
          "expars_fills (the prefetcher's event) = the SMs' fills")
    check(ev["sm_launches"] == len(sms) * len(d["timing"]["launches"]),
          "sm_launches = launches x SMs (the maximum-CTA calculator's event)")
    blocks_dyn = sum((ge * E_GE + pj * 1e-12) * ev[e] for ge, pj, _, e in BLOCKS.values())
    leak = sum(ge * n for ge, _, n, _ in BLOCKS.values()) * LEAK_GE * len(sms) * p["seconds"]
    got = p["components"]["blocks"]["energy_j"]
    ctx_ctl = 103 * LEAK_GE * len(sms) * p["seconds"]   # the always-present ctx_ctl's leakage
    check(close(got, blocks_dyn + leak + ctx_ctl, 1e-3),
          f"added-RTL energy = the five EXPARS blocks' accesses + leakage ({got:.3e} J)")
    ksum = sum(k["energy_j"] for k in p["kernels"]) + p["other"]["energy_j"]
    check(close(ksum, p["energy_j"], 1e-6) and p["other"]["energy_j"] >= -1e-15,
          "the kernels plus other add up to the run")

    b = run(heddle, out, "base")
    bev = b["power"]["events"]
    check(all(bev[k] == 0 for k in ("expars_spad_passes", "expars_oc_accesses",
                                     "expars_rat_lookups", "expars_fills")),
          "the baseline run has no EXPARS event")
    check(close(b["power"]["components"]["blocks"]["energy_j"],
                103 * LEAK_GE * len(sms) * b["power"]["seconds"], 1e-3),
          "the baseline's added-RTL energy is ctx_ctl's leakage alone")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
