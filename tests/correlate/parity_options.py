#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""parity_options.py HEDDLE OUTDIR - the GPGPU-Sim parity options do what they say (issue 15):
- [mem] l2_preload_copies: vecadd's inputs, copied to the device before the launch, are L2
  hits (>= 99 % of L2 reads) with it and misses (< 5 %) without;
- [sm] shared_atomic_conflicts: histogram's same-bin shared atomics cost bank-conflict cycles
  when serialized and fewer when broadcast (GPGPU-Sim's rule), outputs verified both ways;
- [l1d] lookup_after_latency: an L2 hit of the pointer chase takes the L1 latency longer.
Each run verifies its output (heddle exits 0 only then)."""
import json
import os
import subprocess
import sys

heddle, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
fails = []


def run(name, wl, *sets, size="small"):
    path = os.path.join(out, name + ".json")
    cmd = [heddle, "run", wl, "--size", size, "--quiet", "--stats", path]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"parity_options: {' '.join(cmd)} failed:\n{r.stdout}{r.stderr}")
    with open(path) as f:
        return json.load(f)["timing"]


def check(ok, msg):
    print(("ok   " if ok else "FAIL ") + msg)
    if not ok:
        fails.append(msg)


for on in (True, False):
    t = run(f"vecadd_preload_{on}", "vecadd", f"mem.l2_preload_copies={str(on).lower()}")
    k = t["memory"]["per_kernel"][0]
    rate = k["l2_read_hits"] / k["l2_reads"]
    check(rate >= 0.99 if on else rate < 0.05,
          f"vecadd l2_preload_copies={on}: L2 read hit rate {rate:.3f}")

conf = {}
for mode in ("serialize", "broadcast"):
    t = run(f"histogram_{mode}", "histogram", f"sm.shared_atomic_conflicts={mode}")
    conf[mode] = sum(s["smem_conflict_cycles"] for s in t["sms"])
check(conf["broadcast"] < conf["serialize"],
      f"histogram bank-conflict cycles: broadcast {conf['broadcast']} < serialize "
      f"{conf['serialize']}")

lat = {}
for on in (False, True):
    t = run(f"chase_l2_{on}", "chase_l2", "l1d.latency=35",
            f"l1d.lookup_after_latency={str(on).lower()}")
    lat[on] = t["launches"][0]["cycles"]
check(lat[True] > lat[False], f"chase_l2 cycles: lookup after latency {lat[True]} > at "
      f"arrival {lat[False]}")
sys.exit(1 if fails else 0)
