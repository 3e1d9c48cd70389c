# SPDX-License-Identifier: MIT
"""save_tb.py - TB-level compression as a save mode ([context] save = compressed_tb; Lin thesis
§2.3.3, model/ctx/ctx_tb.c) under stress mode: every CTA evicted at random times, warps
running on to their next preemption point (points = selective, so barrier points are met), each
saved context restored on any SM. The output must verify (and every TB-level restore rebuilds its
global registers bit for bit, or the run stops). Prints the saves, how many were TB-level, and the
bytes of their TB parts against the bytes the same registers take in warp-level records.

  save_tb.py HEDDLE WORKLOAD [--expect-tb] [--set SEC.KEY=V ...]

--expect-tb: at least one save must be TB-level and its TB parts smaller than the warp-level
records they replace (kernels with barrier points and TB-wide registers).
"""

import json
import os
import subprocess
import sys
import tempfile


def main(argv):
    heddle, wl, rest = argv[1], argv[2], argv[3:]
    expect = "--expect-tb" in rest
    sets = [a for a in rest if a != "--expect-tb"]
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "s.json")
        cmd = [heddle, "run", wl, "--size", "small", "--set", "context.save=compressed_tb",
               "--set", "context.points=selective", "--set", "context.stress_period=2000",
               "--set", "context.stress_fraction=0.25", "--set", "context.stress_seed=11",
               "--stats", js] + sets
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 or "VERIFIED" not in r.stdout:
            sys.stdout.write(r.stdout + r.stderr)
            print(f"save_tb.py: {wl}: did not verify (exit {r.returncode})")
            return 1
        sms = json.load(open(js))["timing"]["sms"]
    tot = {k: sum(s.get(k, 0) for s in sms) for k in
           ("ctx_saves", "ctx_restores", "ctx_save_bytes", "ctx_tb_saves", "ctx_tb_part_bytes",
            "ctx_tb_warp_bytes")}
    saves, tb = tot["ctx_saves"], tot["ctx_tb_saves"]
    part, warp = tot["ctx_tb_part_bytes"], tot["ctx_tb_warp_bytes"]
    red = 100.0 * (1 - part / warp) if warp else 0.0
    per = tot["ctx_save_bytes"] // saves if saves else 0
    print(f"{wl}: VERIFIED, {saves} saves ({tot['ctx_restores']} restored), {tb} TB-level; "
          f"TB parts {part} bytes for {warp} bytes of warp-level records ({-red:+.1f} %), "
          f"{per} bytes per save")
    if saves == 0:
        print(f"save_tb.py: {wl}: nothing was saved")
        return 1
    if expect and (tb == 0 or part >= warp):
        print(f"save_tb.py: {wl}: expected TB-level saves smaller than warp level")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
