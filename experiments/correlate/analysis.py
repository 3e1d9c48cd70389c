# SPDX-License-Identifier: MIT
"""correlate: the report of a correlation sweep (written by experiments/correlate/correlate,
run by experiments/sweep.py). Reads the reference it was given (reference.json beside the sweep
file), matches every reference launch with the launch of the same index in the run of its
workload and size under each configuration (timing.launches[i].cycles of the statistics JSON;
the kernel name too when the reference gives one), and computes per configuration: Pearson r
of the per-launch cycles, mean absolute percentage error, geometric mean of Heddle/reference,
the same per workload, and the pointer-chase latency per level (per hop = launch-cycle
difference between sizes medium and large / hop difference, hop counts read from the driver's
log, as experiments/memory-baselines.py measures them). Writes report.md, correlate.json,
correlate.png (log-log scatter per configuration, a colour per workload, the y = x line) and
points.csv, and prints the per-configuration table."""

import json
import math
import os
import re

from heddle_sweep import SweepError, figures
from heddle_sweep.outfile import save_figure
from heddle_sweep.report import md_table


def pearson(xs, ys):
    n = len(xs)
    if n < 2:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def metrics(pairs):
    """pairs: [(ref, heddle)] -> r, MAPE %, geomean ratio, n."""
    refs = [p[0] for p in pairs]
    ours = [p[1] for p in pairs]
    return {"n": len(pairs), "pearson_r": round(pearson(refs, ours), 4),
            "mape_pct": round(100.0 * sum(abs(h - g) / g for g, h in pairs) / len(pairs), 2),
            "geomean_ratio": round(figures.geomean([h / g for g, h in pairs]), 4)}


def _hops(rec, what):
    found = re.findall(r"^chase: .* (\d+) hops ", rec["stdout"], re.M)
    if len(found) != 1:
        raise SweepError(f"correlate: no hop count in the log of {what}")
    return int(found[0])


def measure(ctx, cfg, ref, chase):
    rows, pairs = [], []
    runs = {}
    for r in ref:
        key = (r["workload"], r["size"])
        if key not in runs:
            runs[key] = ctx.record(config=cfg, workload=r["workload"], size=r["size"])
        launches = runs[key]["data"]["timing"]["launches"]
        i = int(r["launch"])
        if i >= len(launches):
            raise SweepError(f"correlate: {cfg}: {r['workload']} ({r['size']}) has "
                             f"{len(launches)} launches; the reference names launch {i}")
        L = launches[i]
        if r.get("kernel") and r["kernel"] != L["kernel"]:
            raise SweepError(f"correlate: {cfg}: {r['workload']} launch {i} is kernel "
                             f"{L['kernel']} in Heddle, {r['kernel']} in the reference")
        g, h = float(r["cycles"]), float(L["cycles"])
        pairs.append((g, h))
        rows.append({"workload": r["workload"], "size": r["size"], "launch": i,
                     "kernel": L["kernel"], "ref": g, "heddle": h, "ratio": round(h / g, 4)})
    per_wl = {}
    for row in rows:
        per_wl.setdefault(row["workload"], []).append((row["ref"], row["heddle"]))
    res = {"all": metrics(pairs), "launches": rows,
           "workloads": {w: metrics(p) for w, p in per_wl.items()}}
    levels = []
    for c in chase:
        w = c["workload"]
        rm = ctx.record(config=cfg, workload=w, size="medium")
        rl = ctx.record(config=cfg, workload=w, size="large")
        lm, ll = rm["data"]["timing"]["launches"], rl["data"]["timing"]["launches"]
        if len(lm) != 1 or len(ll) != 1:
            raise SweepError(f"correlate: {w} on {cfg}: expected one launch")
        hm, hl = _hops(rm, f"{w} medium {cfg}"), _hops(rl, f"{w} large {cfg}")
        per_hop = (ll[0]["cycles"] - lm[0]["cycles"]) / (hl - hm)
        refv = float(c["cycles_per_hop"])
        levels.append({"level": c["level"], "workload": w, "heddle": round(per_hop, 1),
                       "ref": refv, "error_pct": round(100.0 * (per_hop - refv) / refv, 1)})
    res["chase"] = levels
    return res


def draw(path, res, name):
    plt = figures._plt()
    cfgs = list(res)
    fig, axes = plt.subplots(1, len(cfgs), figsize=(5.2 * len(cfgs), 4.8), squeeze=False)
    wls = []
    for c in cfgs:
        for row in res[c]["launches"]:
            if row["workload"] not in wls:
                wls.append(row["workload"])
    tab10 = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
             "#7f7f7f", "#bcbd22", "#17becf"]
    colour = {w: tab10[i % len(tab10)] for i, w in enumerate(wls)}
    allv = [v for c in cfgs for row in res[c]["launches"] for v in (row["ref"], row["heddle"])]
    lo, hi = min(allv) / 1.3, max(allv) * 1.3
    for ax, c in zip(axes[0], cfgs):
        for w in wls:
            pts = [(r["ref"], r["heddle"]) for r in res[c]["launches"] if r["workload"] == w]
            if pts:
                ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=22, color=colour[w],
                           label=w, edgecolor="black", linewidth=0.4, zorder=3)
        ax.plot([lo, hi], [lo, hi], color="black", linewidth=0.8, label="y = x", zorder=2)
        for f in (0.9, 1.1):
            ax.plot([lo, hi], [lo * f, hi * f], color="0.6", linewidth=0.6, linestyle="--",
                    zorder=1)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_aspect("equal")
        ax.grid(True, which="both", linewidth=0.3, color="0.85")
        m = res[c]["all"]
        ax.set_title(f"{c}\nr = {m['pearson_r']:.3f}, MAPE = {m['mape_pct']:.1f} %, "
                     f"geomean = {m['geomean_ratio']:.3f} ({m['n']} launches)")
        ax.set_xlabel(f"{name} cycles per launch")
        ax.set_ylabel("Heddle cycles per launch")
        ax.legend(loc="upper left", frameon=True)
    fig.suptitle("Per-launch cycles: Heddle against the reference (dashed: +-10 %)")
    fig.tight_layout()
    save_figure(fig, path, dpi=110, metadata=figures.META)
    plt.close(fig)


def table(res):
    """The per-configuration summary and per-workload rows, as text lines."""
    out = []
    for c, r in res.items():
        m = r["all"]
        out.append(f"{c}: {m['n']} launches, Pearson r {m['pearson_r']:.3f}, MAPE "
                   f"{m['mape_pct']:.1f} %, geomean Heddle/ref {m['geomean_ratio']:.3f}")
        for w, wm in r["workloads"].items():
            out.append(f"  {w:12s} {wm['n']:3d} launches  r {wm['pearson_r']:7.3f}  MAPE "
                       f"{wm['mape_pct']:5.1f} %  geomean {wm['geomean_ratio']:.3f}")
        for lv in r["chase"]:
            out.append(f"  chase {lv['level']:5s} {lv['heddle']:7.1f} cycles/hop vs "
                       f"{lv['ref']:.1f} ({lv['error_pct']:+.1f} %)")
    return out


def report(ctx):
    base = os.path.dirname(ctx.sweep.path)
    with open(os.path.join(base, "reference.json")) as f:
        ref = json.load(f)
    name = os.path.splitext(os.path.basename(ref["ref"]))[0]
    res = {}
    for c in ref["configs"]:
        res[c] = measure(ctx, c, ref["rows"], ref["chase"])
    ctx.write_json("correlate.json", {"experiment": "correlate", "reference": ref["ref"],
                                      "configs": res})
    ctx.write_csv("points.csv")
    draw(ctx.path("correlate.png"), res, name)
    lines = table(res)
    print("\n".join(lines))
    md = ["# correlate: Heddle's per-launch cycles against " + name, "",
          f"Generated by `experiments/correlate/correlate` from its results store ({ctx.identity});"
          " do not edit. Reference: `" + ref["ref"] + "`.", "",
          "![per-launch scatter](correlate.png)", ""]
    for c, r in res.items():
        m = r["all"]
        md += [f"## {c}", "", f"{m['n']} launches: Pearson r **{m['pearson_r']:.3f}**, MAPE "
               f"**{m['mape_pct']:.1f} %**, geometric mean Heddle/reference "
               f"**{m['geomean_ratio']:.3f}**.", ""]
        md.append(md_table(["workload", "launch", "kernel", "reference", "Heddle",
                            "Heddle/ref"],
                           [[x["workload"], x["launch"], x["kernel"], int(x["ref"]),
                             int(x["heddle"]), f"{x['ratio']:.3f}"] for x in r["launches"]]))
        md.append(md_table(["workload", "launches", "r", "MAPE %", "geomean"],
                           [[w, wm["n"], wm["pearson_r"], wm["mape_pct"], wm["geomean_ratio"]]
                            for w, wm in r["workloads"].items()]))
        if r["chase"]:
            md.append(md_table(["level", "chase variant", "Heddle cycles/hop",
                                "reference cycles/hop", "error %"],
                               [[x["level"], x["workload"], x["heddle"], x["ref"],
                                 x["error_pct"]] for x in r["chase"]]))
    ctx.write_text("report.md", "\n".join(md))
