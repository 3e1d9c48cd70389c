#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""generalise.py - does a parity change carry over to the workloads the reference CSV leaves out?

    experiments/correlate/generalise.py --before SECTION.KEY=V [--before ...] [--after S.K=V]...
                                        [--config NAME] [--heddle PATH] [--size S] [-j N]
                                        [--only W,W,...]

Runs every built-in workload (the base names of `heddle list`, not the variants) that the
reference CSV (experiments/correlate/gpgpusim-4.2-gtx480.csv) does not list, under the parity
configuration twice: with the --before values ("before": e.g. a cause reverted to Heddle's
baseline) and with the --after values (default: none, the configuration as shipped). Prints, per workload, whether both runs
verified and the total cycles of its launches before and after with their ratio, then the
geometric mean of the ratios. The reference numbers of these workloads are not in the repository
(../shared/reference: "those decide whether a change generalises"); this table says what a change
does to them, so that a cause found on the seven is checked not to break the others (exit 1 if a
run fails to verify).
"""
import argparse
import concurrent.futures as cf
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def base_workloads(heddle):
    out = subprocess.run([heddle, "list"], capture_output=True, text=True, check=True).stdout
    names = []
    for ln in out.splitlines()[1:]:
        f = ln.split()
        if len(f) > 3 and f[2] in ("yes", "no"):  # a workload row (not the notes after them)
            names.append(f[0])
    return [n for n in names if not any(n.startswith(b + "_") for b in names if b != n)]


def run(heddle, cfg, w, size, sets):
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "s.json")
        cmd = [heddle, "run", w, "--size", size, "--config", cfg, "--quiet", "--stats", js]
        for s in sets:
            cmd += ["--set", s]
        p = subprocess.run(cmd, capture_output=True, text=True)
        cyc = None
        if os.path.exists(js):
            with open(js) as f:
                cyc = sum(l["cycles"] for l in json.load(f)["timing"]["launches"])
        return p.returncode == 0, cyc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", action="append", default=[], required=True)
    ap.add_argument("--after", action="append", default=[])
    ap.add_argument("--config", default="gpgpusim-4.2-sm2-gtx480")
    ap.add_argument("--heddle", default=os.path.join(ROOT, "build", "heddle"))
    ap.add_argument("--size", default="small")
    ap.add_argument("--ref", default=os.path.join(HERE, "gpgpusim-4.2-gtx480.csv"))
    ap.add_argument("--only", default="")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    cfg = os.path.join(ROOT, "configs", a.config + ".ini")
    with open(a.ref, newline="") as f:
        seven = {r["workload"] for r in csv.DictReader(ln for ln in f if not ln.startswith("#"))}
    names = a.only.split(",") if a.only else [w for w in base_workloads(a.heddle)
                                               if w not in seven and not w.startswith("chase")]
    before, after = a.before, a.after
    jobs = {}
    with cf.ThreadPoolExecutor(a.j) as ex:
        for w in names:
            jobs[(w, 0)] = ex.submit(run, a.heddle, cfg, w, a.size, before)
            jobs[(w, 1)] = ex.submit(run, a.heddle, cfg, w, a.size, after)
    print(f"# {a.config}, size {a.size}: before {' '.join(before)} / after "
          f"{' '.join(after) or '(as configured)'}")
    print("| workload | verified | cycles before | cycles after | after/before |")
    print("|---|---|---|---|---|")
    bad, logs = 0, []
    for w in names:
        (ok0, c0), (ok1, c1) = jobs[(w, 0)].result(), jobs[(w, 1)].result()
        bad += not (ok0 and ok1)
        r = c1 / c0 if c0 and c1 else float("nan")
        if r == r:
            logs.append(math.log(r))
        print(f"| {w} | {'yes' if ok0 and ok1 else 'NO'} | {c0} | {c1} | {r:.3f} |")
    if logs:
        print(f"geometric mean after/before over {len(logs)} workloads: "
              f"{math.exp(sum(logs) / len(logs)):.3f} (min {math.exp(min(logs)):.3f}, "
              f"max {math.exp(max(logs)):.3f})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
