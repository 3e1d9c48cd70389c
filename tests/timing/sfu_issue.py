#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""sfu_issue.py - [pipeline] unit_* (GPGPU-Sim 3.x's SFU_OP and ALU_SFU_OP issue, sm_issue.c):
runs a workload several ways through `heddle run --stats` and checks the SMs' issue counters.

- default (every class on its own unit): no SFU issue (the workloads have no transcendental);
- unit_int_mul = sfu: the integer mul/mad move to the SFU collectors: issued_sfu > 0, and
  issued_sp drops by exactly that many; no fallback is counted;
- unit_fp_mul = sp_or_sfu: an FP32 mul takes an SFU collector only when no SP one is free at
  issue: with one SP pipeline and one SP collector some do (sfu_fallbacks > 0), every SFU issue
  is such a fallback, and with 256 SP collectors none does;
- every run verifies its output against the CPU reference (heddle exits non-zero otherwise).

    sfu_issue.py HEDDLE
"""
import json
import os
import subprocess
import sys
import tempfile


def run(heddle, workload, sets):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.json")
        args = [heddle, "run", workload, "--quiet", "--stats", path]
        for s in sets:
            args += ["--set", s]
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0 or "VERIFIED" not in r.stdout:
            sys.exit(f"FAIL: {' '.join(args)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
        with open(path) as f:
            sms = json.load(f)["timing"]["sms"]
    keys = ("issued_sp", "issued_sfu", "sfu_fallbacks", "warp_instrs")
    return {k: sum(sm[k] for sm in sms) for k in keys}


def check(cond, msg, fails):
    print(("ok   " if cond else "FAIL ") + msg)
    if not cond:
        fails.append(msg)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    heddle, fails = argv[1], []
    base = run(heddle, "vecadd", [])
    mul = run(heddle, "vecadd", ["pipeline.unit_int_mul=sfu"])
    print(f"vecadd: default {base}; unit_int_mul=sfu {mul}")
    check(base["issued_sfu"] == 0 and base["sfu_fallbacks"] == 0, "default: no SFU issue", fails)
    check(mul["issued_sfu"] > 0, "unit_int_mul = sfu: integer mul/mad issue to the SFU", fails)
    check(mul["issued_sp"] == base["issued_sp"] - mul["issued_sfu"],
          "unit_int_mul = sfu: SP issue drops by the SFU issue", fails)
    check(mul["sfu_fallbacks"] == 0, "unit_int_mul = sfu: no fallback counted", fails)
    fp = ["pipeline.unit_fp_mul=sp_or_sfu"]
    tight = run(heddle, "backprop", fp + ["pipeline.sp_units=1", "pipeline.cu_sp=1"])
    wide = run(heddle, "backprop", fp + ["pipeline.cu_sp=256"])
    bdef = run(heddle, "backprop", [])
    print(f"backprop: default {bdef}; sp_or_sfu, 1 SP collector {tight}; 256 {wide}")
    check(bdef["issued_sfu"] == 0, "backprop default: no SFU issue", fails)
    check(tight["sfu_fallbacks"] > 0, "sp_or_sfu, SP collector taken: FP32 mul falls back", fails)
    check(tight["issued_sfu"] == tight["sfu_fallbacks"],
          "sp_or_sfu: every SFU issue is a fallback (SP first)", fails)
    check(wide["issued_sfu"] == 0, "sp_or_sfu, 256 SP collectors: never the SFU", fails)
    check(tight["warp_instrs"] == bdef["warp_instrs"] == wide["warp_instrs"],
          "the same instructions issue every way", fails)
    print("sfu_issue: " + ("FAIL" if fails else "all checks passed"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
