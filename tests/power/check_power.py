#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# check_power.py - whole-run checks of the energy model (docs/power.md), the CTest
# power_run_checks:  check_power.py HEDDLE OUTDIR
#
# Runs heddle on the GTX480 configuration with --stats FILE.json and checks the "power" member:
# its components add up to its total, its kernels plus "other" to the run; the compute-bound
# sgemm and the memory-bound stream average inside GPUWattch's GTX480 range (GTX480_RANGE_W,
# docs/power.md "Calibration"); stream moves more DRAM bytes than sgemm and has more DRAM
# dynamic energy; chase (one CTA) leaves 14 of the 15 SMs with static energy only, at
# [power] sm_idle_w; a mix (bfs+sgemm) carries the member in its JSON report too; with [power]
# enabled = false the member is null. Exit 0 when all hold.
import json
import os
import subprocess
import sys

GTX480_RANGE_W = (70.0, 250.0)  # docs/power.md "Calibration"
SM_IDLE_W = 1.59                # [power] sm_idle_w of configs/fermi-gtx480.ini

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(heddle, out, workload, *extra, tag=""):
    path = os.path.join(out, f"{workload.replace('+', '_')}{tag}.json")
    what = ["--mix", workload] if "+" in workload else [workload]
    cmd = [heddle, "run", *what, "--quiet", "--config", "configs/fermi-gtx480.ini",
           "--stats", path, *extra]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"check_power: {' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()}")
    with open(path) as f:
        return json.load(f)


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-30)


def sums(name, p):
    comps = p["components"]
    total = sum(c["energy_j"] for c in comps.values())
    check(close(total, p["energy_j"]), f"{name}: components sum {total:.6g} J = total "
          f"{p['energy_j']:.6g} J")
    check(close(p["dynamic_j"] + p["static_j"], p["energy_j"]), f"{name}: dynamic + static = total")
    k = sum(x["energy_j"] for x in p["kernels"]) + p["other"]["energy_j"]
    check(close(k, p["energy_j"]), f"{name}: kernels + other {k:.6g} J = run")
    for x in p["kernels"]:
        s = sum(x["components_j"].values())
        check(close(s, x["energy_j"]), f"{name}: kernel {x['launch']} components add up")
    check(all(v >= -1e-12 * p["energy_j"] for v in p["other"]["components_j"].values()),
          f"{name}: no component of 'other' is negative")


def dram_dynamic(p):
    c = p["components"]
    return sum(c[k]["energy_j"] - c[k]["static_j"] for k in ("dram", "dram_io"))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_power.py HEDDLE OUTDIR")
    heddle, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    lo, hi = GTX480_RANGE_W
    res = {}
    for w in ("sgemm", "stream"):
        p = run(heddle, out, w)["power"]
        res[w] = p
        sums(w, p)
        watts = p["avg_power_w"]
        check(lo <= watts <= hi, f"{w}: average {watts:.1f} W within GPUWattch's GTX480 "
              f"range {lo:.0f}-{hi:.0f} W")
    s, m = res["sgemm"], res["stream"]
    check(m["events"]["dram_bits"] > s["events"]["dram_bits"],
          "stream moves more DRAM bytes than sgemm")
    check(dram_dynamic(m) > dram_dynamic(s), "stream: more DRAM dynamic energy than sgemm")
    check(m["components"]["dram"]["power_w"] > s["components"]["dram"]["power_w"],
          "stream: more DRAM power than sgemm")

    p = run(heddle, out, "chase")["power"]
    sums("chase", p)
    idle = [x for x in p["sms"] if x["dynamic_j"] == 0]
    check(len(idle) == 14, f"chase: {len(idle)} of 15 SMs with static energy only (want 14)")
    want = SM_IDLE_W * p["seconds"]
    check(all(close(x["energy_j"], want, 1e-6) and close(x["static_j"], want, 1e-6)
              for x in idle), f"chase: each idle SM's energy = sm_idle_w x time = {want:.4g} J")
    busy = [x for x in p["sms"] if x["dynamic_j"] > 0]
    check(len(busy) == 1 and busy[0]["energy_j"] > want, "chase: the busy SM costs more")

    mix = run(heddle, out, "bfs+sgemm")["power"]
    sums("mix bfs+sgemm", mix)
    check(any(k["kernel"].startswith("sgemm") for k in mix["kernels"]) and
          any(k["kernel"].startswith("bfs") for k in mix["kernels"]),
          "mix bfs+sgemm: both programs' kernels have energy rows")

    off = run(heddle, out, "chase", "--set", "power.enabled=false", tag="-off")
    check(off["power"] is None, "[power] enabled = false: \"power\" is null")
    print(f"{len(failures)} failed" if failures else "all power checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
