#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# check_sweep.py - the energy model's columns reach the sweep store (docs/power.md, experiments/
# README.md), the CTest power_sweep_columns:  check_sweep.py HEDDLE OUTDIR
#
# Runs experiments/energy.toml (sgemm and stream, small, GTX480) into a fresh store without the
# report, then reads the tidy table (--csv) and checks that every [collect] column of the power
# member is a number on every point, that dynamic + static = energy, and that stream, the
# memory-bound point, has the larger DRAM energy. Exit 0 when all hold.
import csv
import io
import os
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_sweep.py HEDDLE OUTDIR")
    heddle, out = sys.argv[1], sys.argv[2]
    shutil.rmtree(out, ignore_errors=True)
    base = [sys.executable, "experiments/sweep.py", "experiments/energy.toml", "--heddle", heddle,
            "--out", out]
    r = subprocess.run(base + ["--no-report", "-j", "2"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit(f"check_sweep: the sweep failed ({r.returncode}):\n{r.stdout}")
    r = subprocess.run(base + ["--csv"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"check_sweep: --csv failed ({r.returncode}): {r.stderr}")
    rows = {row["workload"]: row for row in csv.DictReader(io.StringIO(r.stdout))}
    cols = ["energy_j", "avg_power_w", "dynamic_j", "static_j", "rf_j", "sm_static_j", "l2_j",
            "dram_j", "dram_io_j", "blocks_j", "kernel0_j"]
    bad = []
    for w in ("sgemm", "stream"):
        row = rows.get(w)
        if row is None or row["status"] != "ok":
            bad.append(f"{w}: no ok point in the store")
            continue
        for c in cols:
            try:
                float(row[c])
            except (KeyError, ValueError):
                bad.append(f"{w}: column {c} = {row.get(c)!r}, not a number")
        if not bad:
            e, d, s = (float(row[c]) for c in ("energy_j", "dynamic_j", "static_j"))
            if abs(d + s - e) > 1e-6 * e:
                bad.append(f"{w}: dynamic + static {d + s} != energy {e}")
    if not bad and float(rows["stream"]["dram_j"]) <= float(rows["sgemm"]["dram_j"]):
        bad.append("stream's DRAM energy is not above sgemm's")
    for b in bad:
        print("FAIL " + b)
    print(f"{len(bad)} failed" if bad else f"all sweep columns present ({len(cols)} x 2 points)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
