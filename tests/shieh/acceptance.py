#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""acceptance.py - issue 24 item 3's acceptance on a shieh report (experiments/shieh.py's
shieh.json, the faithful setup's committed run by default).

Recomputes each number from the per-run records (`runs`) and checks that the report's
`acceptance` block says the same, then judges each criterion:
  statistics          >= 80 % of the CTAs asked to leave had finished-TB statistics (their
                      kernel had finished TBs: Shieh's predictor could estimate them);
  full_occupancy      >= 90 % of the SM requests found the victim at its full occupancy (per
                      run, each SM's first preemption record: what the arrival found there);
  drain_share_rises   the proposed scheme's share of drains at 5 us > at 2 us;
  overhead_not_rising the proposed scheme's overhead does not rise from one L_c to the next.
A criterion named in --finding is one the faithful setup does not meet (a finding reported with
its numbers in the report, not tuned away): the test requires it to fail still, so the list
cannot go stale; every other criterion must hold.

Usage: acceptance.py [SHIEH_JSON] [--finding NAME]...   prints 'acceptance ok' on success;
       acceptance.py SHIEH_JSON --numbers-only   only the numbers against the runs (the tiny run
                                                 of experiments_shieh_tiny, one request).
"""
import argparse
import json
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
NAMES = ("statistics", "full_occupancy", "drain_share_rises", "overhead_not_rising")


def fail(msg):
    print(f"acceptance.py: {msg}")
    sys.exit(1)


def close(a, b):
    return (a is None and b is None) or (a is not None and b is not None and abs(a - b) < 1e-6)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json", nargs="?",
                    default=os.path.join(ROOT, "experiments", "results", "shieh", "shieh.json"))
    ap.add_argument("--finding", action="append", default=[], choices=NAMES)
    ap.add_argument("--numbers-only", action="store_true",
                    help="check only that the report's numbers are the runs' (a tiny run)")
    a = ap.parse_args()
    try:
        with open(a.json) as fh:
            d = json.load(fh)
    except (OSError, ValueError) as e:
        fail(f"cannot read {a.json}: {e}")
    acc = d.get("acceptance")
    if not acc:
        fail(f"{a.json} has no acceptance block (experiments/shieh.py report)")
    runs = [r for r in d["runs"] if r["policy"] != "sm"]
    if not runs:
        fail("no bounded-scheme runs")
    asked = sum(r["asked"] for r in runs)
    est = sum(r["asked_est"] for r in runs)
    q = sum(r["sm_first"] for r in runs)       # each SM's first record per run
    qf = sum(r["sm_first_full"] for r in runs)
    lc = d["lc_us"]
    bounds = d["lc_cycles"]

    def tech(b):
        t = {"switch": 0, "drain": 0, "flush": 0}
        for r in runs:
            if r["policy"] == "shieh" and r["bound"] == b:
                for k in t:
                    t[k] += r["tech"][k]
        n = sum(t.values())
        return 100.0 * t["drain"] / n if n else None

    def ovh(b):
        xs = [r for r in runs if r["policy"] == "shieh" and r["bound"] == b]
        n = sum(r["victim_instrs"] for r in xs)
        return 100.0 * sum(r["wasted"] for r in xs) / n if n else None
    mine = {"asked_with_statistics_pct": 100.0 * est / asked if asked else None,
            "requests_full_occupancy_pct": 100.0 * qf / q if q else None,
            "shieh_drain_pct_2us": tech(bounds[lc.index(2)]) if 2 in lc else None,
            "shieh_drain_pct_5us": tech(bounds[lc.index(5)]) if 5 in lc else None}
    for k, v in mine.items():
        if not close(v, acc.get(k)):
            fail(f"{k}: the report says {acc.get(k)}, the runs give {v}")
    ov = [ovh(b) for b in bounds]
    if not all(close(x, y) for x, y in zip(ov, acc["shieh_overhead_pct"])):
        fail(f"shieh_overhead_pct: the report says {acc['shieh_overhead_pct']}, the runs give {ov}")
    ovs = [x for x in ov if x is not None]
    got = {"statistics": mine["asked_with_statistics_pct"] is not None
           and mine["asked_with_statistics_pct"] >= 80,
           "full_occupancy": mine["requests_full_occupancy_pct"] is not None
           and mine["requests_full_occupancy_pct"] >= 90,
           "drain_share_rises": None not in (mine["shieh_drain_pct_2us"],
                                             mine["shieh_drain_pct_5us"])
           and mine["shieh_drain_pct_5us"] > mine["shieh_drain_pct_2us"],
           "overhead_not_rising": len(ovs) >= 2 and all(y <= x for x, y in zip(ovs, ovs[1:]))}
    for k in NAMES:
        if got[k] != acc["pass"][k]:
            fail(f"{k}: the report says met={acc['pass'][k]}, the numbers say {got[k]}")
    f = lambda v: "-" if v is None else f"{v:.1f}"  # noqa: E731
    print(f"asked with statistics {f(mine['asked_with_statistics_pct'])} % of {asked} (>= 80); "
          f"requests at full occupancy {f(mine['requests_full_occupancy_pct'])} % of {q} (>= 90); "
          f"proposed drains {f(mine['shieh_drain_pct_2us'])} -> {f(mine['shieh_drain_pct_5us'])} % "
          f"(2 -> 5 us); proposed overhead {' / '.join(f(x) for x in ov)} % over {lc} us")
    if a.numbers_only:
        print("acceptance numbers ok")
        return
    bad = [k for k in NAMES if not got[k] and k not in a.finding]
    stale = [k for k in a.finding if got[k]]
    if bad:
        fail(f"not met: {', '.join(bad)}")
    if stale:
        fail(f"listed as a finding but met now (drop it from --finding): {', '.join(stale)}")
    print("acceptance ok" + (f" (findings, not met: {', '.join(a.finding)})" if a.finding else ""))


if __name__ == "__main__":
    main()
