#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analyze.py STORE LOGDIR - session 30 (docs/blocks/ccbp.md "Session 30: Warped-Slicer online"):
the 8 ws_online points of a sweep store of ccbp-wsonline.toml, measured as experiments/ccbp.py's
report measures every point (_point: per-kernel IPC over the budget, HS), beside the committed
session-26 report's WS (standalone curves) and CCBP points (experiments/results/ccbp/ccbp.json),
the choices from the by-hand runs' [ccbp] logs in LOGDIR (TAG.log; sum_TAG.log and
sum_TAG.json: the same points with ws_rule = sum)."""
import json
import os
import sqlite3
import sys
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
STORE, LOGS = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "experiments"))
import ccbp  # noqa: E402
from heddle_sweep.heddle import parse_stats  # noqa: E402

prof = json.load(open(os.path.join(ccbp.RES, "profile.json")))
com = json.load(open(os.path.join(ccbp.RES, "ccbp.json")))
db = sqlite3.connect(STORE)
db.row_factory = sqlite3.Row
got = {}
for r in db.execute("select * from points where sweep = 'ccbp-wsonline'"):
    ax = json.loads(r["axes"])
    d = parse_stats(r["stats"])
    got[ax["mix"]] = (ccbp._point(d, ax["mix"].split("+"), prof, prof["budget"]),
                      d["timing"]["totals"]["cycles"], float(r["cpu_s"]))


def tag_of(pair):
    return "lav_srt" if pair.startswith("lavamd") else pair.replace("+", "_")


def sum_hs(pair):
    """The by-hand ws_rule = sum run of the pair (logs/sum_TAG.json), HS as _point gives it."""
    p = os.path.join(LOGS, f"sum_{tag_of(pair)}.json")
    if not os.path.exists(p):
        return None
    return ccbp._point(json.load(open(p)), pair.split("+"), prof, prof["budget"])


def choices(pair, pre=""):
    p = os.path.join(LOGS, f"{pre}{tag_of(pair)}.log")
    if not os.path.exists(p):
        return None
    out = {"phases": [], "curves": {}}
    for line in open(p):
        w = line.split()
        if w and w[0] == "ws_phase":
            out["phases"].append(f"{w[3]}-{w[5]}: ({','.join(w[7:])})")
        if w and w[0] == "ws_app":
            out["curves"][w[1]] = " ".join(w[w.index("points") + 1:]) + f" (nmax {w[3]})"
    return out


g_ws, g_on = [], []
rows = []
for pair in ccbp.PAIRS:
    if pair not in got:
        continue
    r, cyc, cpu = got[pair]
    ws = com["runs"][f"{pair}/ws"]
    cc = com["runs"][f"{pair}/ccbp"]
    gw = 100 * (cc["hs"] / ws["hs"] - 1)
    go = 100 * (cc["hs"] / r["hs"] - 1) if r["hs"] > 0 else None
    g_ws.append(gw)
    if go is not None and not r["starved"]:
        g_on.append(go)
    ch = choices(pair)
    rows.append((pair, ws["ctas"], ws["hs"], r["hs"], cc["hs"], gw, go, r["verified"], cyc, cpu,
                 r["slowdown"], ch))
for x in rows:
    pair, wc, wh, oh, ch_, gw, go, ver, cyc, cpu, sl, ch = x
    print(f"{pair}: WS ({wc}) HS {wh:.3f} | WS-online HS {oh:.3f} (slowdowns {sl[0]:.2f}/{sl[1]:.2f},"
          f" verified {ver}, {cyc} cycles, {cpu:.0f} CPU-s) | CCBP {ch_:.3f} | gain vs WS "
          f"{gw:+.1f} %, vs WS-online " + (f"{go:+.1f} %" if go is not None else "n/a"))
    if ch:
        print("   phases", "; ".join(ch["phases"]))
        for a, c in ch["curves"].items():
            print(f"   app {a} points {c}")
    sr = sum_hs(pair)
    if sr:
        sc = choices(pair, "sum_")
        print(f"   ws_rule=sum: HS {sr['hs']:.3f} (verified {sr['verified']}), CCBP gain "
              f"{100 * (ch_ / sr['hs'] - 1):+.1f} %; phases " + "; ".join(sc["phases"] if sc else []))
if g_on:
    print(f"CCBP HS gain vs WS: mean {sum(g_ws)/len(g_ws):+.1f} % (max {max(g_ws):+.1f}); vs WS-online: "
          f"mean {sum(g_on)/len(g_on):+.1f} % (max {max(g_on):+.1f}) over {len(g_on)} pairs")
    print(f"WS-online HS mean {sum(x[3] for x in rows)/len(rows):.3f}, WS {sum(x[2] for x in rows)/len(rows):.3f}")
