#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""expars_tail.py - a run's cycles split into the SMs' work and the launch tails (issue 33, EXPARS;
docs/expars.md "Why EXPARS beats the bound on MQ and MC (session 18)").

For each run (a `heddle run --stats FILE.json` report, or every ok point of a sweep store whose
label matches a SQL LIKE pattern) it prints:
  cycles      the run's cycles;
  busy        the SMs' mean busy cycles (`active_cycles` over the 15 SMs): the run's work per SM;
  tail        cycles / busy - 1: the time some SMs sit idle while others finish their last CTAs
              (the lumps the round-robin CTA scheduler hands out at each launch's end);
  CTAs/SM     the fewest and most CTAs an SM ran;
  per-CTA     SM busy cycles per CTA (the work of a CTA at the run's occupancy);
  ipc@full    with `--sample N`: the mean IPC of the sampled intervals at the run's full CTA
              occupancy (steady-state throughput, no tail);
and, given an [expars] log (FILE.json:LOG), the mean CTA lifetime of RF and mix slots and the
prefetcher's holds and head-of-line conflict cycles summed over the SMs.
  experiments/expars_tail.py RUN.json[:EXPARS.log]...
  experiments/expars_tail.py --store STORE.sqlite [LIKE-PATTERN]
"""
import json
import sqlite3
import sys


def log_totals(path):
    tot = {}
    for line in open(path):
        f = line.split()
        i = 2
        while i + 1 < len(f):
            k = f[i]
            if k in ("life_rf", "life_mix"):
                tot[k + "_n"] = tot.get(k + "_n", 0) + int(f[i + 1])
                tot[k + "_c"] = tot.get(k + "_c", 0) + int(f[i + 2])
                i += 4
            else:
                tot[k] = tot.get(k, 0) + int(f[i + 1])
                i += 2
    return tot


def line(name, rep, log=None):
    t = rep["timing"]
    sms = t["sms"]
    busy = [s["active_cycles"] for s in sms]
    done = [s["ctas_done"] for s in sms]
    cyc = t["totals"]["cycles"]
    mean = sum(busy) / len(busy)
    out = "%-58s %10d busy %10.0f tail %5.1f %% CTAs/SM %d-%d per-CTA %8.0f" % (
        name, cyc, mean, 100.0 * (cyc / mean - 1.0), min(done), max(done),
        sum(busy) / max(1, sum(done)))
    rows = t.get("samples", {}).get("rows", [])
    if rows:
        full = max(r[4] for r in rows)
        sel = [r for r in rows if r[4] == full]
        out += " ipc@full %.2f (%d CTAs, %.0f %% of samples)" % (
            sum(r[2] for r in sel) / len(sel), full, 100.0 * len(sel) / len(rows))
    if log:
        g = log_totals(log)
        for k in ("rf", "mix"):
            if g.get("life_%s_n" % k):
                out += " life_%s %.0f" % (k, g["life_%s_c" % k] / g["life_%s_n" % k])
        out += " holds %d conflict_cycles %d" % (g.get("holds", 0), g.get("rp_conflict_cycles", 0))
    if not rep["run"].get("verified"):
        out += " NOT VERIFIED"
    print(out)


def main():
    a = sys.argv[1:]
    if not a:
        sys.exit(__doc__)
    if a[0] == "--store":
        if len(a) < 2:
            sys.exit(__doc__)
        c = sqlite3.connect("file:%s?mode=ro" % a[1], uri=True)
        pat = a[2] if len(a) > 2 else "%"
        for label, stats in c.execute("SELECT label, stats FROM points WHERE status = 'ok' AND "
                                      "label LIKE ? ORDER BY label", (pat,)):
            line(label, json.loads(stats))
        return
    for arg in a:
        js, _, log = arg.partition(":")
        line(js, json.load(open(js)), log or None)


if __name__ == "__main__":
    main()
