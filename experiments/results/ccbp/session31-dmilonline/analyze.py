#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analyze.py STORE LOGDIR [STORE2] - session 31 (docs/blocks/ccbp.md "Session 31: Dai18's limit on
Warped-Slicer online"): the 8 dmil_online points of a sweep store of ccbp-dmilonline.toml,
measured as experiments/ccbp.py's report measures every point (_point: per-kernel IPC over the
budget, HS), beside the committed session-26 report's CCBP, WS, Dai18 (the best static limit)
and DMIL (offline WS) points (experiments/results/ccbp/ccbp.json) and session 30's WS online
(../session30-wsonline/report.txt); each phase's choice and the limit's counts from the by-hand
runs' [ccbp] logs in LOGDIR (TAG.log). STORE2: the same 8 points run by a binary whose limit
holds no warp during a sampling phase (the sensitivity in the docs section; the binary is not
committed: ccbp_base_hold returns false while the phase's limits hold)."""
import json
import os
import re
import sqlite3
import sys
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
STORE, LOGS = sys.argv[1], sys.argv[2]
STORE2 = sys.argv[3] if len(sys.argv) > 3 else None
sys.path.insert(0, os.path.join(ROOT, "experiments"))
import ccbp  # noqa: E402
from heddle_sweep.heddle import parse_stats  # noqa: E402

prof = json.load(open(os.path.join(ccbp.RES, "profile.json")))
com = json.load(open(os.path.join(ccbp.RES, "ccbp.json")))
# session 30's ws_online HS per pair (its committed report: "PAIR: WS (..) HS x | WS-online HS y")
wso = {}
for line in open(os.path.join(ccbp.RES, "session30-wsonline", "report.txt")):
    m = re.match(r"(\S+): WS \(.*?\) HS [\d.]+ \| WS-online HS ([\d.]+)", line)
    if m:
        wso[m.group(1)] = float(m.group(2))


def load(store):
    db = sqlite3.connect(store)
    db.row_factory = sqlite3.Row
    out = {}
    for r in db.execute("select * from points where sweep = 'ccbp-dmilonline'"):
        ax = json.loads(r["axes"])
        d = parse_stats(r["stats"])
        out[ax["mix"]] = (ccbp._point(d, ax["mix"].split("+"), prof, prof["budget"]),
                          d["timing"]["totals"]["cycles"], float(r["cpu_s"]), ax["set.ccbp.mil"])
    return out


got = load(STORE)


def tag_of(pair):
    return "lav_srt" if pair.startswith("lavamd") else pair.replace("+", "_")


def from_log(pair):
    """Each phase's choice and the limited application's counts (the by-hand run's log)."""
    p = os.path.join(LOGS, f"{tag_of(pair)}.log")
    if not os.path.exists(p):
        return None
    out = {"phases": [], "base": {}, "ctas": {}}
    for line in open(p):
        w = line.split()
        if w and w[0] == "ws_phase":
            out["phases"].append(f"({','.join(w[7:])})" if w[7:] != ["0", "0"] else "kept")
        if w and w[0] == "base":
            out["base"][int(w[1])] = {w[i]: int(w[i + 1]) for i in range(2, len(w) - 1, 2)}
        if w and w[0] == "baselines":
            out["resets"] = int(w[w.index("mil_resets") + 1])
    return out


def gain(a, b):
    return 100 * (a / b - 1) if b > 0 else None


def mean(xs):
    xs = [x for x in xs if x is not None]
    return (sum(xs) / len(xs), max(xs), len(xs)) if xs else (None, None, 0)


cols = {"dmil_online": [], "dmil": [], "dai18": [], "ws_online": [], "ws": [],
        "limit_online": [], "limit_offline": []}
hs = {k: [] for k in ("dmil_online", "dmil", "dai18", "ws_online", "ws", "ccbp")}
print("pair | dmil_online: phases, HS (slowdowns), limited app's holds / halvings / lowest | "
      "CCBP HS | vs dmil_online | vs dmil | vs dai18 | vs ws_online | dmil_online vs ws_online "
      "| dmil vs ws")
for pair in ccbp.PAIRS:
    if pair not in got:
        continue
    r, cyc, cpu, mil = got[pair]
    run = {s: com["runs"][f"{pair}/{s}"] for s in ("ccbp", "dmil", "dai18", "ws")}
    cc = run["ccbp"]["hs"]
    on = wso.get(pair)
    g = {"dmil_online": gain(cc, r["hs"]), "dmil": gain(cc, run["dmil"]["hs"]),
         "dai18": gain(cc, run["dai18"]["hs"]), "ws_online": gain(cc, on) if on else None,
         "ws": gain(cc, run["ws"]["hs"]), "limit_online": gain(r["hs"], on) if on else None,
         "limit_offline": gain(run["dmil"]["hs"], run["ws"]["hs"])}
    for k, v in g.items():
        cols[k].append(v)
    for k, v in (("dmil_online", r["hs"]), ("dmil", run["dmil"]["hs"]),
                 ("dai18", run["dai18"]["hs"]), ("ws_online", on), ("ws", run["ws"]["hs"]),
                 ("ccbp", cc)):
        hs[k].append(v)
    lg = from_log(pair)
    t = 1 if mil.split()[0] != "0" else 2  # (the limited application)
    extra = ""
    if lg:
        b = lg["base"].get(t, {})
        extra = (f"phases {', '.join(lg['phases'])}; app {t} held {b.get('mil_held')}, "
                 f"halvings {b.get('dmil_down')}, raises {b.get('dmil_up')}, lowest "
                 f"{b.get('dmil_min')}, most in flight {b.get('mil_max_inflight')}, resets "
                 f"{lg.get('resets')}")
    f = lambda x: "n/a" if x is None else f"{x:+.1f} %"  # noqa: E731
    print(f"{ccbp.lin_pair(pair)} ({pair}, mil {mil}): dmil_online HS {r['hs']:.3f} (slowdowns "
          f"{r['slowdown'][0]:.2f}/{r['slowdown'][1]:.2f}, verified {r['verified']}, {cyc} "
          f"cycles, {cpu:.0f} CPU-s) | CCBP {cc:.3f} | dmil {run['dmil']['hs']:.3f} | dai18 "
          f"{run['dai18']['hs']:.3f} (mil {run['dai18']['mil'] or 'none'}) | ws_online "
          f"{on if on is None else f'{on:.3f}'} | ws {run['ws']['hs']:.3f} || CCBP vs dmil_online "
          f"{f(g['dmil_online'])}, vs dmil {f(g['dmil'])}, vs dai18 {f(g['dai18'])}, vs ws_online "
          f"{f(g['ws_online'])}; the limit on ws_online {f(g['limit_online'])}, on ws "
          f"{f(g['limit_offline'])}")
    if extra:
        print("   " + extra)
for k, v in cols.items():
    m, x, n = mean(v)
    if m is not None:
        what = {"limit_online": "dmil_online HS vs ws_online", "limit_offline": "dmil HS vs ws"
                }.get(k, f"CCBP HS gain vs {k}")
        print(f"{what}: mean {m:+.1f} % (max {x:+.1f}) over {n} pairs")
v = sorted(x for x in cols["dmil_online"] if x is not None)
if len(v) > 1:
    med = (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2
    print(f"CCBP HS gain vs dmil_online: median {med:+.1f} %, mean without the largest "
          f"{sum(v[:-1]) / (len(v) - 1):+.1f} %, ahead on {sum(1 for x in v if x > 0)} of {len(v)}")
print("mean HS: " + ", ".join(f"{k} {sum(v) / len(v):.3f}" for k, v in hs.items()
                                if v and None not in v))
if STORE2:
    alt = load(STORE2)
    g2 = []
    for pair in ccbp.PAIRS:
        if pair in alt and pair in got:
            r2 = alt[pair][0]
            cc = com["runs"][f"{pair}/ccbp"]["hs"]
            g2.append(gain(cc, r2["hs"]))
            print(f"no hold during a phase: {ccbp.lin_pair(pair)} HS {r2['hs']:.3f} (from cycle 0: "
                  f"{got[pair][0]['hs']:.3f}), verified {r2['verified']}, {alt[pair][1]} cycles; "
                  f"CCBP vs it {g2[-1]:+.1f} %")
    m, x, n = mean(g2)
    if m is not None:
        print(f"no hold during a phase: CCBP HS gain mean {m:+.1f} % (max {x:+.1f}) over {n} pairs")
