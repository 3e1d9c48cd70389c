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
and items 1 and 2 (session 14):
  timebase            L_CS / L_c of a pathfinder CTA (18,432 B) at the first L_c, 2 us, is
                      0.78 +- 0.02 (the thesis's 2182 / 2800);
  equal_sms           the median SMs the preempter ran on are equal for Chimera and the
                      proposed scheme at every L_c;
  chimera_falls       Chimera's violation rate falls strictly from each L_c to the next;
  chimera_turnaround  every Chimera run whose SMs were all freed within L_c ends by
                      turnaround / T_p <= 1 + L_c / T_p + 0.05 (and there is such a run).
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
NAMES = ("statistics", "full_occupancy", "drain_share_rises", "overhead_not_rising",
         "timebase", "equal_sms", "chimera_falls", "chimera_turnaround")


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
    def median(xs):
        xs = sorted(xs)
        n = len(xs)
        return None if not n else xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2

    def chim(b):
        return [r for r in runs if r["policy"] == "chimera" and r["bound"] == b]
    cv = [100.0 * sum(r["violation"] for r in chim(b)) / len(chim(b)) if chim(b) else None
          for b in bounds]
    sms = {p: [median([r["sms_used"] for r in runs if r["policy"] == p and r["bound"] == b])
               for b in bounds] for p in ("chimera", "shieh")}
    ok = [r for b in bounds for r in chim(b) if r["freed_in_bound"]]
    over = [r for r in ok if r["turnaround"] / r["t_p"] > 1 + r["bound"] / r["t_p"] + 0.05]
    lcs = d.get("lcs_over_lc_pathfinder_cta")
    if not all(close(x, y) for x, y in zip(cv, acc.get("chimera_violation_pct", []))):
        fail(f"chimera_violation_pct: the report says {acc.get('chimera_violation_pct')}, "
             f"the runs give {cv}")
    got.update({
        "timebase": lcs is not None and lc[0] == 2 and abs(lcs - 0.78) <= 0.02,
        "equal_sms": all(x is not None and x == y for x, y in zip(sms["chimera"], sms["shieh"])),
        "chimera_falls": len(cv) >= 2 and None not in cv
        and all(y < x for x, y in zip(cv, cv[1:])),
        "chimera_turnaround": bool(ok) and not over})
    for k in NAMES:
        if k not in acc["pass"]:
            fail(f"{k}: not in the report's acceptance block (an older shieh.json)")
        if got[k] != acc["pass"][k]:
            fail(f"{k}: the report says met={acc['pass'][k]}, the numbers say {got[k]}")
    f = lambda v: "-" if v is None else f"{v:.1f}"  # noqa: E731
    print(f"asked with statistics {f(mine['asked_with_statistics_pct'])} % of {asked} (>= 80); "
          f"requests at full occupancy {f(mine['requests_full_occupancy_pct'])} % of {q} (>= 90); "
          f"proposed drains {f(mine['shieh_drain_pct_2us'])} -> {f(mine['shieh_drain_pct_5us'])} % "
          f"(2 -> 5 us); proposed overhead {' / '.join(f(x) for x in ov)} % over {lc} us")
    print(f"L_CS / L_c {'-' if lcs is None else f'{lcs:.3f}'} (0.78 +- 0.02); SMs used "
          f"Chimera {sms['chimera']} / proposed {sms['shieh']}; Chimera violations "
          f"{' -> '.join(f(x) for x in cv)} %; Chimera runs freed within L_c over the "
          f"turnaround limit {len(over)} of {len(ok)}")
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
