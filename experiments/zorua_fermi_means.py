#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""zorua_fermi_means.py - Zorua's Fermi means (Sec. 6: performance range, best point, all
specifications, register and scratchpad hit rates, energy; means over the 8 applications, as
experiments/zorua.py computes them) of a rerun of the Fermi Zorua points
(experiments/zorua-fermi-zorua.toml) beside the whole grid's Baseline and WLM points
(experiments/results/zorua/points.csv), and the same measures of the grid's own Zorua points.
Baseline and WLM do not read the [zorua] keys, so a change of those keys moves Zorua only
(session 19, docs/zorua.md "Session 19: the decisions").

  python3 experiments/zorua_fermi_means.py STORE.sqlite [--points points.csv]

Prints a Markdown table (before: the grid's Zorua, after: the store's) and the per-application
ranges. With `--km KM.sqlite` (the store of experiments/zorua-km-zorua.toml: the Kepler and
Maxwell Zorua points) also Zorua's porting loss over every ordered pair of generations
(experiments/zorua.py's rule: the points within 5 % of the source's best, the largest loss
against the target's best; max over pairs, mean over applications), before and after."""
import argparse
import csv
import json
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zorua as zr  # noqa: E402  (the whole grid's porting rule, one definition)

ABBR = {"barneshut": "BH", "dct8x8": "DCT", "mst": "MST", "reduction": "RD", "nqueens": "NQU",
        "scan": "SLA", "scalarprod": "SP", "sssp": "SSSP"}
FERMI = "zorua-fermi"


def mean(v):
    v = [x for x in v if x is not None]
    return sum(v) / len(v) if v else None


def grid_points(path, gen=FERMI):
    """{scheme: {workload: {cycles, energy}}} of one generation's points of the grid's points.csv."""
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["config"] != gen or r["status"] != "ok":
                continue
            out.setdefault(r["set.sm.allocator"], {})[r["workload"]] = {
                "cycles": int(r["cycles"]),
                "energy": float(r["energy_j"]) if r["energy_j"] else None}
    return out


def store_points(path, gen=FERMI):
    """{workload: measures} of the ok Zorua points of one generation in a sweep store."""
    out = {}
    con = sqlite3.connect(path)
    for axes, status, stats in con.execute("SELECT axes, status, stats FROM points"):
        a = json.loads(axes)
        if status != "ok" or a.get("config") != gen or a.get("set.sm.allocator") != "zorua":
            continue
        d = json.loads(stats)
        sms = d["timing"]["sms"]

        def s(k):
            return sum(x.get(k, 0) for x in sms)
        out[a["workload"]] = {"cycles": d["timing"]["totals"]["cycles"],
                              "energy": (d.get("power") or {}).get("energy_j"),
                              "rf_reads": s("zorua_rf_reads"), "rf_swap": s("zorua_rf_swap_reads"),
                              "smem_lookups": s("zorua_smem_lookups"),
                              "smem_swap": s("zorua_smem_swap_lookups")}
    return out


def app_of(w):
    return w.split("_z_")[0]


def rng(pts):
    ps = [1.0 / m["cycles"] for m in pts.values()]
    return 100 * (max(ps) - min(ps)) / min(ps) if ps else None


def measures(base, wlm, zor):
    """Per application and the means over applications."""
    apps = {}
    for app in sorted({app_of(w) for w in base}, key=lambda a: ABBR.get(a, a)):
        b = {w: m for w, m in base.items() if app_of(w) == app}
        z = {w: m for w, m in zor.items() if app_of(w) == app}
        wl = {w: m for w, m in wlm.items() if app_of(w) == app}
        both = [w for w in b if w in z]
        a = {"range_b": rng(b), "range_w": rng(wl), "range_z": rng(z), "n": len(z)}
        if both:
            a["best"] = 100 * (max(1 / z[w]["cycles"] for w in both) /
                               max(1 / b[w]["cycles"] for w in both) - 1)
            a["all"] = 100 * (mean([b[w]["cycles"] / z[w]["cycles"] for w in both]) - 1)
            es = [z[w]["energy"] / b[w]["energy"] for w in both
                  if z[w].get("energy") and b[w].get("energy")]
            a["energy"] = 100 * (mean(es) - 1) if es else None
        rd = sum(m.get("rf_reads", 0) for m in z.values())
        rs = sum(m.get("rf_swap", 0) for m in z.values())
        sl = sum(m.get("smem_lookups", 0) for m in z.values())
        ss = sum(m.get("smem_swap", 0) for m in z.values())
        a["hit_rf"] = 100 * (1 - rs / rd) if rd else None
        a["hit_smem"] = 100 * (1 - ss / sl) if sl else None
        apps[ABBR.get(app, app)] = a
    keys = ["range_b", "range_w", "range_z", "best", "all", "energy", "hit_rf", "hit_smem"]
    return apps, {k: mean([a.get(k) for a in apps.values()]) for k in keys}


def porting_means(per_gen):
    """Zorua's porting loss per application and its mean: per_gen = {gen: {workload: measures}}."""
    specs = {}
    for gen, pts in per_gen.items():
        for w, m in pts.items():
            app, spec = w.split("_z_")
            specs.setdefault(app, {}).setdefault(spec, {}).setdefault(gen, {})["zorua"] = m
    apps = {}
    for app, sp in specs.items():
        pairs = zr.porting(sp, "zorua")
        apps[ABBR.get(app, app)] = max((v["loss"] for v in pairs.values()
                                        if v["loss"] is not None), default=None)
    return apps, mean(list(apps.values()))


def f(v, fmt="{:.1f}"):
    return "-" if v is None else fmt.format(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("store", help="the sweep store of experiments/zorua-fermi-zorua.toml")
    ap.add_argument("--points", default="experiments/results/zorua/points.csv",
                    help="the whole grid's points (Baseline, WLM and its Zorua)")
    ap.add_argument("--km", help="the sweep store of experiments/zorua-km-zorua.toml (Kepler and "
                    "Maxwell Zorua points): adds Zorua's porting loss")
    args = ap.parse_args()
    g = grid_points(args.points)
    new = store_points(args.store)
    base, wlm = g.get("partitioned", {}), g.get("wlm", {})
    _, before = measures(base, wlm, g.get("zorua", {}))
    apps, after = measures(base, wlm, new)
    print(f"Zorua points: grid {len(g.get('zorua', {}))}, store {len(new)} (Fermi)\n")
    print("| Fermi mean over 8 applications | grid's Zorua | store's Zorua |")
    print("|---|---|---|")
    rows = [("performance range Baseline %", "range_b", "{:.1f}"),
            ("performance range WLM %", "range_w", "{:.1f}"),
            ("performance range Zorua %", "range_z", "{:.1f}"),
            ("Zorua best point vs Baseline %", "best", "{:+.1f}"),
            ("Zorua over all specifications %", "all", "{:+.1f}"),
            ("Zorua energy vs Baseline %", "energy", "{:+.1f}"),
            ("register hit rate %", "hit_rf", "{:.2f}"),
            ("scratchpad hit rate %", "hit_smem", "{:.2f}")]
    for name, k, fmt in rows:
        print(f"| {name} | {f(before[k], fmt)} | {f(after[k], fmt)} |")
    print("\n| application | points | range B / W / Z % | best % | all % | energy % | hit RF % |")
    print("|---|---|---|---|---|---|---|")
    for app, a in apps.items():
        print(f"| {app} | {a['n']} | {f(a['range_b'])} / {f(a['range_w'])} / {f(a['range_z'])} | "
              f"{f(a.get('best'), '{:+.1f}')} | {f(a.get('all'), '{:+.1f}')} | "
              f"{f(a.get('energy'), '{:+.1f}')} | {f(a['hit_rf'], '{:.2f}')} |")
    if args.km:
        old = {gen: grid_points(args.points, gen).get("zorua", {}) for gen in zr.GENS}
        new_all = {zr.GENS[0]: new, **{gen: store_points(args.km, gen) for gen in zr.GENS[1:]}}
        pb, mb = porting_means(old)
        pa, ma = porting_means(new_all)
        print(f"\nZorua points: Kepler {len(new_all[zr.GENS[1]])}, Maxwell {len(new_all[zr.GENS[2]])}"
              " (store)\n")
        print("| Zorua max porting loss % | grid's Zorua | stores' Zorua |")
        print("|---|---|---|")
        for app in sorted(set(pb) | set(pa)):
            print(f"| {app} | {f(pb.get(app))} | {f(pa.get(app))} |")
        print(f"| mean over applications | {f(mb)} | {f(ma)} |")


if __name__ == "__main__":
    main()
