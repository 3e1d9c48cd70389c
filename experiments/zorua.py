# SPDX-License-Identifier: MIT
"""zorua: the report of experiments/zorua.toml (the whole specification grid) and of
experiments/zorua-sample.toml (its quick 19-point sample).

Zorua's Sec. 6 measures (Vijaykumar et al., ISCA 2016; digest Sec. 5.4 and 6.2) for Baseline
(TB-granular), WLM and Zorua on Fermi, Kepler and Maxwell (Table 2), every number from the
store:
  - Fig 14 (fig14.png): each specification's performance (1 / kernel cycles) normalised to the
    slowest Baseline specification of its application, box plots per application and scheme
    (Fermi); performance range = (best - worst) / worst over an application's specifications,
    per scheme on its own points, averaged over applications (paper 96.6 / 88.3 / 48.2 %, L385;
    SSSP the exception: Baseline 23.8 %, Zorua slightly larger);
  - best-point improvement: Zorua's best spec against Baseline's best (paper +12.8 %, DCT
    +27.8 %, L407); over all specs: the mean of Baseline cycles / Zorua cycles - 1 (+25.2 %, L409);
  - Fig 15 (fig15.png): execution time per specification normalised to the best Baseline time,
    against threads per CTA, a line per register (or scratchpad) specification, a row per
    application and a column per scheme (Fermi);
  - Fig 16 (fig16.png): porting loss: per scheme, for every ordered pair (S, T) of generations and
    every spec within 5 % of S's best (footnote 10), the loss 1 - perf_T(spec) / best_T, over the
    specs both generations run; the maximum over the points and the 6 pairs, averaged over
    applications (paper 52.7 / 51.0 / 23.9 %, L415; Zorua DCT 28.1 %, MST 36.1 %, L420);
  - Fig 19 (fig19.png): warps in warp slots per active cycle (resident_warps / active_cycles;
    barrier waiters included, which the paper's schedulable warps exclude: no per-cycle
    barrier-waiter count exists) against Baseline (paper WLM +8.1 %, Zorua +32.8 %, L437), and the
    allocator's warps holding every resource (zorua_sched_warp_cycles / zorua_ticks);
  - Fig 20 (fig20.png): register-operand words served on chip / all looked up in the RMT (paper
    RF 98.9 %, L442), and scratchpad sets served on chip / all looked up in the SMT (each
    distinct set an ld/st.shared touches; paper 99.6 %; session 16: scratchpad is
    oversubscribed in the loop, docs/zorua.md "Scratchpad in the loop");
  - Fig 21 (fig21.png): energy of WLM and Zorua / Baseline's per spec, mean (paper Zorua -7.6 %,
    DCT -20.5 %, NQU +3 %, L447).
Writes report.md, zorua.json, points.csv and the six PNGs.

experiments/zorua-paper.toml (session 21) runs BH, MST and SSSP alone at their paper-size
inputs (--size waves3); its report is this script's over those three. The whole study with
those three applications' points taken from it:

  python3 experiments/zorua.py --merge GRID_DIR PAPER_DIR --out DIR

reads GRID_DIR/zorua.json and points.csv (experiments/results/zorua: the whole grid) and
PAPER_DIR's (experiments/results/zorua-paper), replaces every application PAPER_DIR holds, and
writes the same report into DIR; the report names the input each application ran."""

import argparse
import csv
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heddle_sweep import SweepError, figures  # noqa: E402
from heddle_sweep.report import md_table  # noqa: E402

GENS = ["zorua-fermi", "zorua-kepler", "zorua-maxwell"]
GEN = {g: g.replace("zorua-", "").capitalize() for g in GENS}
FERMI = "zorua-fermi"
SCHEMES = ["partitioned", "wlm", "zorua"]
NAME = {"partitioned": "Baseline", "wlm": "WLM", "zorua": "Zorua"}
COLOR = {"partitioned": "#4c72b0", "wlm": "#dd8452", "zorua": "#55a868"}
ABBR = {"barneshut": "BH", "dct8x8": "DCT", "mst": "MST", "reduction": "RD", "nqueens": "NQU",
        "scan": "SLA", "scalarprod": "SP", "sssp": "SSSP"}
# The input of each application at each size the sweeps run (the drivers' constants;
# workloads/README.md "Occupancy-length inputs"), named in the report.
INPUTS = {
    ("barneshut", "waves"): "24,000 bodies, theta 2.0",
    ("barneshut", "waves3"): "96,000 bodies, theta 2.0",
    ("dct8x8", "waves"): "392 x 256 image",
    ("mst", "waves"): "120 x 120 grid graph",
    ("mst", "waves3"): "304 x 304 grid graph",
    ("nqueens", "waves"): "n = 11 split after 6 rows",
    ("reduction", "waves"): "262,139 elements, as small",
    ("scan", "waves"): "131,000 elements",
    ("scalarprod", "waves"): "400 pairs of 1,500",
    ("sssp", "waves"): "60 x 60 grid graph with shortcuts, as small",
    ("sssp", "waves3"): "random graph, 100,000 vertices x 4 out-edges",
}
PAPER = {  # Zorua digest Sec. 6.2 (line numbers of the seed text)
    "range": {"partitioned": 96.6, "wlm": 88.3, "zorua": 48.2},  # L385
    "range_sssp_base": 23.8,  # L385
    "best": 12.8, "best_dct": 27.8, "all": 25.2,  # L407, L409
    "port": {"partitioned": 52.7, "wlm": 51.0, "zorua": 23.9},  # L415
    "port_zorua": {"DCT": 28.1, "MST": 36.1},  # L420
    "sched": {"wlm": 8.1, "zorua": 32.8},  # L437
    "hit_rf": 98.9, "hit_smem": 99.6,  # L442
    "energy": -7.6, "energy_app": {"DCT": -20.5, "NQU": 3.0},  # L447
}


def _sum(sms, key):
    return sum(s.get(key, 0) for s in sms)


def spec_key(spec):
    """(kind, size, threads) of 'r20_tb64' (registers) or 'sp10496_tb64' (scratchpad bytes)."""
    m = re.fullmatch(r"(r|sp)(\d+)_tb(\d+)", spec)
    if not m:
        raise ValueError(f"zorua.py: '{spec}' is not a grid specification (rR_tbT or spS_tbT)")
    return (m.group(1), int(m.group(2)), int(m.group(3)))


def collect(ctx):
    """({app: {spec: {gen: {scheme: measures}}}}, sweep CPU and wall seconds, the points with no
    result in the store, {app: the --size it ran}). `sweep.py --report-only` reports a sweep that
    is still running (or was stopped) over the points stored so far; the report says how many
    are missing."""
    out, cpu, wall, missing, sizes = {}, 0.0, 0.0, [], {}
    for p in ctx.sweep.points:
        w, g, sch = p.axes["workload"], p.axes["config"], p.axes["set.sm.allocator"]
        app, spec = w.split("_z_")
        sizes.setdefault(app, set()).add(str(p.axes.get("size", "small")))
        try:
            rec = ctx.record(workload=w, config=g, set__sm__allocator=sch)
        except SweepError:
            missing.append(f"{w} {g} {sch}")
            continue
        if rec.get("status") != "ok":
            missing.append(f"{w} {g} {sch} ({rec.get('status')})")
            continue
        cpu += rec.get("cpu_s") or 0.0
        wall += rec.get("wall_s") or 0.0
        d = rec["data"]
        t = d["timing"]
        sms = t["sms"]
        ticks = _sum(sms, "zorua_ticks")
        waves = max((ln["ctas"] / (len(sms) * ln["ctas_per_sm"]) for ln in t["launches"]
                     if ln.get("ctas_per_sm")), default=None)
        m = {"cycles": t["totals"]["cycles"],
             "energy": (d.get("power") or {}).get("energy_j"),
             "rf_reads": _sum(sms, "zorua_rf_reads"),
             "rf_swap": _sum(sms, "zorua_rf_swap_reads"),
             "smem_accesses": _sum(sms, "zorua_smem_accesses"),
             "smem_lookups": _sum(sms, "zorua_smem_lookups"),
             "smem_swap": _sum(sms, "zorua_smem_swap_lookups"),
             "smem_swap_bytes": _sum(sms, "smem_swap_bytes"),
             "smem_swapped_sets": _sum(sms, "zorua_smem_sets_swapped"),
             "swapped_sets": _sum(sms, "zorua_reg_sets_swapped"),
             "sched": _sum(sms, "zorua_sched_warp_cycles") / ticks if ticks else None,
             "warps": _sum(sms, "resident_warps") / max(1, _sum(sms, "active_cycles")),
             "waves": waves, "launches": len(t["launches"]), "cpu_s": rec.get("cpu_s")}
        out.setdefault(app, {}).setdefault(spec, {}).setdefault(g, {})[sch] = m
    for app in out:
        out[app] = dict(sorted(out[app].items(), key=lambda kv: spec_key(kv[0])))
    return (dict(sorted(out.items(), key=lambda kv: ABBR.get(kv[0], kv[0]))), cpu, wall, missing,
            {a: "/".join(sorted(s)) for a, s in sizes.items()})


def perf(m):
    return 1.0 / m["cycles"]


def on(specs, gen, sch):
    """{spec: measures} of the specifications that ran on `gen` under `sch`."""
    return {s: g[gen][sch] for s, g in specs.items() if gen in g and sch in g[gen]}


def rng(ms):
    ps = [perf(m) for m in ms.values()]
    return 100 * (max(ps) - min(ps)) / min(ps) if ps else None


def porting(specs, sch):
    """Per ordered pair 'S>T': (max loss %, points within 5 % of S's best that T runs)."""
    pairs = {}
    for S in GENS:
        for T in GENS:
            if S == T:
                continue
            ms, mt = on(specs, S, sch), on(specs, T, sch)
            common = [s for s in ms if s in mt]
            if not common:
                continue
            bs = max(perf(ms[s]) for s in ms)
            bt = max(perf(mt[s]) for s in mt)
            near = [s for s in common if perf(ms[s]) >= 0.95 * bs]
            loss = max((100 * (1 - perf(mt[s]) / bt) for s in near), default=None)
            pairs[f"{GEN[S]}>{GEN[T]}"] = {"loss": loss, "points": len(near)}
    return pairs


def mean(vals):
    v = [x for x in vals if x is not None]
    return sum(v) / len(v) if v else None


def measures(res):
    r = {"apps": {}, "mean": {}}
    for app, specs in res.items():
        a = {"specs": {GEN[g]: len(on(specs, g, "partitioned")) for g in GENS}}
        f = {sch: on(specs, FERMI, sch) for sch in SCHEMES}
        a["range"] = {sch: rng(f[sch]) for sch in SCHEMES}
        a["range_gen"] = {GEN[g]: {sch: rng(on(specs, g, sch)) for sch in SCHEMES} for g in GENS}
        a["port_pairs"] = {sch: porting(specs, sch) for sch in SCHEMES}
        a["port"] = {sch: max((v["loss"] for v in a["port_pairs"][sch].values()
                               if v["loss"] is not None), default=None) for sch in SCHEMES}
        both = [s for s in f["partitioned"] if s in f["zorua"]]
        if both:
            a["best"] = 100 * (max(perf(f["zorua"][s]) for s in both) /
                               max(perf(f["partitioned"][s]) for s in both) - 1)
            a["all"] = 100 * (mean([f["partitioned"][s]["cycles"] / f["zorua"][s]["cycles"]
                                    for s in both]) - 1)
            a["all_wlm"] = 100 * (mean([f["partitioned"][s]["cycles"] / f["wlm"][s]["cycles"]
                                        for s in both if s in f["wlm"]]) - 1)
        rd = sum(m["rf_reads"] for m in f["zorua"].values())
        rs = sum(m["rf_swap"] for m in f["zorua"].values())
        a["hit_rf"] = 100 * (1 - rs / rd) if rd else None
        a["rf_reads"], a["rf_swap"] = rd, rs
        a["smem_accesses"] = sum(m["smem_accesses"] for m in f["zorua"].values())
        sl = sum(m.get("smem_lookups", 0) for m in f["zorua"].values())
        ss = sum(m.get("smem_swap", 0) for m in f["zorua"].values())
        a["hit_smem"] = 100 * (1 - ss / sl) if sl else None
        a["smem_lookups"], a["smem_swap"] = sl, ss
        a["smem_swap_bytes"] = sum(m.get("smem_swap_bytes", 0) for m in f["zorua"].values())
        a["smem_swapped_sets"] = sum(m.get("smem_swapped_sets", 0) for m in f["zorua"].values())
        a["swapped_sets"] = sum(m["swapped_sets"] for m in f["zorua"].values())
        a["energy"] = {}
        for sch in ("wlm", "zorua"):
            es = [f[sch][s]["energy"] / f["partitioned"][s]["energy"] for s in f[sch]
                  if s in f["partitioned"] and f[sch][s]["energy"]
                  and f["partitioned"][s]["energy"]]
            a["energy"][sch] = 100 * (mean(es) - 1) if es else None
        a["warps"] = {sch: mean([m["warps"] for m in f[sch].values()]) for sch in SCHEMES}
        a["warps_vs_base"] = {sch: 100 * (a["warps"][sch] / a["warps"]["partitioned"] - 1)
                              for sch in SCHEMES
                              if a["warps"]["partitioned"] and a["warps"][sch] is not None}
        a["sched"] = {sch: mean([m["sched"] for m in f[sch].values()]) for sch in ("wlm", "zorua")}
        # CTA waves of the longest-waved launch (CTAs / (SMs x Baseline CTAs per SM)): at most
        # one wave, every CTA is resident at once and occupancy cannot make a cliff
        a["waves"] = {}
        for g in GENS:
            wv = sorted(m["waves"] for m in on(specs, g, "partitioned").values()
                        if m.get("waves") is not None)
            a["waves"][GEN[g]] = {"median": wv[len(wv) // 2] if wv else None,
                                  "one_wave": sum(1 for v in wv if v <= 1.0), "specs": len(wv)}
        r["apps"][ABBR.get(app, app)] = a
    apps = list(r["apps"].values())

    def am(fn):
        return mean([fn(a) for a in apps])
    r["mean"] = {"range": {s: am(lambda a, s=s: a["range"][s]) for s in SCHEMES},
                 "port": {s: am(lambda a, s=s: a["port"][s]) for s in SCHEMES},
                 "best": am(lambda a: a.get("best")), "all": am(lambda a: a.get("all")),
                 "all_wlm": am(lambda a: a.get("all_wlm")),
                 "hit_rf": am(lambda a: a["hit_rf"]),
                 "hit_smem": am(lambda a: a["hit_smem"]),
                 "energy": {s: am(lambda a, s=s: a["energy"][s]) for s in ("wlm", "zorua")},
                 "warps": {s: am(lambda a, s=s: a["warps"][s]) for s in SCHEMES},
                 "warps_vs_base": {s: am(lambda a, s=s: a["warps_vs_base"].get(s))
                                   for s in SCHEMES},
                 "sched": {s: am(lambda a, s=s: a["sched"][s]) for s in ("wlm", "zorua")}}
    ws, zs = r["mean"]["sched"]["wlm"], r["mean"]["sched"]["zorua"]
    r["mean"]["sched_zorua_vs_wlm"] = 100 * (zs / ws - 1) if ws and zs else None
    return r


def _panel_grid(plt, n, ncols, w, h):
    nrows = (n + ncols - 1) // ncols
    fig, axs = plt.subplots(nrows, ncols, figsize=(w * ncols, h * nrows), squeeze=False)
    flat = [ax for row in axs for ax in row]
    for ax in flat[n:]:
        ax.axis("off")
    return fig, flat


def fig14(ctx, res, r):
    plt = figures._plt()
    fig, axs = _panel_grid(plt, len(res), 4, 2.6, 2.6)
    for ax, (app, specs) in zip(axs, res.items()):
        ab = ABBR.get(app, app)
        f = {sch: on(specs, FERMI, sch) for sch in SCHEMES}
        slow = min(perf(m) for m in f["partitioned"].values())
        data = [[perf(m) / slow for m in f[sch].values()] or [float("nan")] for sch in SCHEMES]
        bp = ax.boxplot(data, positions=range(3), widths=0.5, patch_artist=True,
                        medianprops={"color": "black"}, flierprops={"markersize": 2},
                        showmeans=True, meanprops={"marker": "x", "markeredgecolor": "black",
                                                   "markersize": 4})
        for patch, sch in zip(bp["boxes"], SCHEMES):
            patch.set_facecolor(COLOR[sch])
            patch.set_alpha(0.7)
        ax.set_xticks(range(3))
        ax.set_xticklabels([NAME[s] for s in SCHEMES])
        rg = r["apps"][ab]["range"]
        ax.set_title(f"{ab} ({len(f['partitioned'])} specs)\nrange B/W/Z "
                     f"{_f(rg['partitioned'], '{:.0f}')}/{_f(rg['wlm'], '{:.0f}')}/"
                     f"{_f(rg['zorua'], '{:.0f}')} %", fontsize=7)
        ax.set_ylabel("perf / slowest Baseline", fontsize=7)
        ax.grid(axis="y", color="0.85", linewidth=0.3)
    m = r["mean"]["range"]
    fig.suptitle("Fig 14 (Fermi): performance over every specification, normalised to the slowest "
                 "Baseline spec (box Q1-Q3, line median, x mean)\nmean range ours B/W/Z "
                 f"{_f(m['partitioned'])}/{_f(m['wlm'])}/{_f(m['zorua'])} %; "
                 "paper 96.6/88.3/48.2 %",
                 fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    figures._save(fig, ctx.path("fig14.png"))
    plt.close(fig)


def fig15(ctx, res):
    plt = figures._plt()
    cmap = plt.get_cmap("viridis")
    fig, axs = plt.subplots(len(res), 3, figsize=(10.5, 2.2 * len(res)), squeeze=False)
    for row, (app, specs) in zip(axs, res.items()):
        ab = ABBR.get(app, app)
        f = {sch: on(specs, FERMI, sch) for sch in SCHEMES}
        best = min(m["cycles"] for m in f["partitioned"].values())
        sizes = sorted({spec_key(s)[:2] for s in specs})
        one_curve = len(sizes) == len(specs)   # NQU: the scratchpad grows with the threads
        top = max(m["cycles"] / best for sch in SCHEMES for m in f[sch].values())
        for ax, sch in zip(row, SCHEMES):
            for i, sz in enumerate([None] if one_curve else sizes):
                pts = sorted((spec_key(s)[2], m["cycles"] / best) for s, m in f[sch].items()
                             if sz is None or spec_key(s)[:2] == sz)
                if not pts:
                    continue
                lab = (None if sz is None else f"{sz[1]} regs" if sz[0] == "r" else
                       f"{sz[1]} B")
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=2,
                        linewidth=0.9, color=cmap(i / max(1, len(sizes) - 1) * 0.9),
                        label=lab)
            ax.set_ylim(0.9, max(1.1, top * 1.05))
            ax.set_title(f"{ab} {NAME[sch]}", fontsize=7)
            ax.grid(color="0.85", linewidth=0.3)
            ax.tick_params(labelsize=6)
            if sch == "partitioned":
                ax.set_ylabel("time / best Baseline", fontsize=6)
        if not one_curve and len(sizes) > 1:
            row[2].legend(frameon=False, fontsize=5, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        row[0].set_xlabel("threads per CTA", fontsize=6)
    fig.suptitle("Fig 15 (Fermi): execution time per specification / best Baseline time "
                 "(paper: Zorua flattens DCT's, MST's and NQU's cliffs, WLM does not NQU's)",
                 fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.985))
    figures._save(fig, ctx.path("fig15.png"))
    plt.close(fig)


def _bars(ax, cats, series, ylabel, paper=None, fmt="{:.1f}"):
    n = len(series)
    w = 0.8 / n
    for i, (name, (vals, color)) in enumerate(series.items()):
        xs = [c + (i - (n - 1) / 2) * w for c in range(len(cats))]
        ax.bar([x for x, v in zip(xs, vals) if v is not None], [v for v in vals if v is not None],
               w * 0.95, color=color, label=name)
    for name, (vals, xoff, color) in (paper or {}).items():
        pts = [(c + xoff, v) for c, v in enumerate(vals) if v is not None]
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker="D", s=16, color=color,
                   edgecolors="black", linewidths=0.8, zorder=5, label=name)
        for x, v in pts:
            ax.annotate(fmt.format(v), (x, v), textcoords="offset points", xytext=(3, 3),
                        fontsize=5)
    ax.set_xticks(range(len(cats)))
    ax.set_xticklabels(cats, fontsize=7)
    ax.set_ylabel(ylabel, fontsize=7)
    ax.axhline(0, color="black", linewidth=0.5)
    ax.grid(axis="y", color="0.85", linewidth=0.3)
    ax.legend(frameon=False, fontsize=6)


def fig16(ctx, r):
    plt = figures._plt()
    cats = list(r["apps"]) + ["mean"]
    fig, axs = plt.subplots(1, 2, figsize=(11, 3.2), gridspec_kw={"width_ratios": [3, 2]})
    series = {NAME[s]: ([r["apps"][a]["port"][s] for a in r["apps"]] + [r["mean"]["port"][s]],
                        COLOR[s]) for s in SCHEMES}
    pz = [PAPER["port_zorua"].get(a) for a in r["apps"]] + [PAPER["port"]["zorua"]]
    pb = [None] * len(r["apps"]) + [PAPER["port"]["partitioned"]]
    pw = [None] * len(r["apps"]) + [PAPER["port"]["wlm"]]
    _bars(axs[0], cats, series, "max porting loss %",
          paper={"paper Baseline": (pb, -0.27, COLOR["partitioned"]),
                 "paper WLM": (pw, 0.0, COLOR["wlm"]), "paper Zorua": (pz, 0.27, COLOR["zorua"])})
    axs[0].set_title("Fig 16: max porting loss over the 6 ordered generation pairs "
                     "(specs within 5 % of the source's best)", fontsize=8)
    pairs = [f"{GEN[S]}>{GEN[T]}" for S in GENS for T in GENS if S != T]
    pser = {NAME[s]: ([mean([r["apps"][a]["port_pairs"][s].get(p, {}).get("loss")
                             for a in r["apps"]]) for p in pairs], COLOR[s]) for s in SCHEMES}
    _bars(axs[1], [p.replace(">", ">\n") for p in pairs], pser, "mean over applications %")
    axs[1].set_title("per ordered pair (source > target)", fontsize=8)
    fig.tight_layout()
    figures._save(fig, ctx.path("fig16.png"))
    plt.close(fig)


def fig19(ctx, r):
    plt = figures._plt()
    cats = list(r["apps"]) + ["mean"]
    fig, axs = plt.subplots(1, 2, figsize=(11, 3.0))
    series = {NAME[s]: ([r["apps"][a]["warps_vs_base"].get(s) for a in r["apps"]] +
                        [r["mean"]["warps_vs_base"][s]], COLOR[s]) for s in ("wlm", "zorua")}
    n = len(r["apps"])
    _bars(axs[0], cats, series, "warps in slots per active cycle\nvs Baseline %",
          paper={"paper WLM (schedulable)": ([None] * n + [PAPER["sched"]["wlm"]], -0.2,
                                             COLOR["wlm"]),
                 "paper Zorua (schedulable)": ([None] * n + [PAPER["sched"]["zorua"]], 0.2,
                                               COLOR["zorua"])})
    axs[0].set_title("Fig 19 (Fermi): warps resident in warp slots per active cycle, vs Baseline "
                     "(barrier waiters included)", fontsize=8)
    series = {NAME[s]: ([r["apps"][a]["sched"][s] for a in r["apps"]] + [r["mean"]["sched"][s]],
                        COLOR[s]) for s in ("wlm", "zorua")}
    _bars(axs[1], cats, series, "warps", fmt="{:.1f}")
    axs[1].set_title("warps holding every resource (the allocator's count per tick)", fontsize=8)
    fig.tight_layout()
    figures._save(fig, ctx.path("fig19.png"))
    plt.close(fig)


def fig20(ctx, r):
    plt = figures._plt()
    apps = [a for a in r["apps"] if r["apps"][a]["hit_rf"] is not None]
    if not apps or r["mean"]["hit_rf"] is None:   # a partial store: no Zorua point yet
        return
    cats = apps + ["mean"]
    fig, ax = plt.subplots(figsize=(7, 3.0))
    vals = [r["apps"][a]["hit_rf"] for a in apps] + [r["mean"]["hit_rf"]]
    ax.bar([x - 0.18 for x in range(len(cats))], vals, 0.36, color=COLOR["zorua"],
           label="Zorua RF (ours)")
    for x, v in enumerate(vals):
        ax.annotate(f"{v:.2f}", (x - 0.18, v), textcoords="offset points", xytext=(0, 2),
                    ha="center", fontsize=5)
    svals = [r["apps"][a].get("hit_smem") for a in apps] + [r["mean"].get("hit_smem")]
    sx = [x + 0.18 for x, v in enumerate(svals) if v is not None]
    sv = [v for v in svals if v is not None]
    if sv:   # (applications without ld/st.shared have no scratchpad lookups)
        ax.bar(sx, sv, 0.36, color="0.6", label="Zorua scratchpad (ours)")
        for x, v in zip(sx, sv):
            ax.annotate(f"{v:.2f}", (x, v), textcoords="offset points", xytext=(0, 2),
                        ha="center", fontsize=5)
        vals = vals + sv
    ax.axhline(PAPER["hit_rf"], color="black", linestyle="--", linewidth=0.8,
               label=f"paper RF {PAPER['hit_rf']} %")
    ax.axhline(PAPER["hit_smem"], color="0.4", linestyle=":", linewidth=0.8,
               label=f"paper scratchpad {PAPER['hit_smem']} %")
    lo = min(vals + [PAPER["hit_rf"]])
    ax.set_ylim(max(0, lo - (100 - lo) * 0.5 - 0.5), 100.2)
    ax.set_xticks(range(len(cats)))
    ax.set_xticklabels(cats, fontsize=7)
    ax.set_ylabel("on-chip hit rate %", fontsize=7)
    ax.set_title("Fig 20 (Fermi): on chip / all lookups (RF: operand words; scratchpad: sets)",
                 fontsize=8)
    ax.grid(axis="y", color="0.85", linewidth=0.3)
    ax.legend(frameon=False, fontsize=6, loc="lower left")
    fig.tight_layout()
    figures._save(fig, ctx.path("fig20.png"))
    plt.close(fig)


def fig21(ctx, r):
    plt = figures._plt()
    cats = list(r["apps"]) + ["mean"]
    fig, ax = plt.subplots(figsize=(8, 3.0))
    series = {NAME[s]: ([r["apps"][a]["energy"][s] for a in r["apps"]] +
                        [r["mean"]["energy"][s]], COLOR[s]) for s in ("wlm", "zorua")}
    pz = [PAPER["energy_app"].get(a) for a in r["apps"]] + [PAPER["energy"]]
    _bars(ax, cats, series, "energy vs Baseline %",
          paper={"paper Zorua": (pz, 0.2, COLOR["zorua"])})
    ax.set_title("Fig 21 (Fermi): total energy vs Baseline, mean of the per-spec ratios",
                 fontsize=8)
    fig.tight_layout()
    figures._save(fig, ctx.path("fig21.png"))
    plt.close(fig)


def _f(v, fmt="{:.1f}"):
    return "-" if v is None else fmt.format(v)


def _s(v, fmt="{:+.1f}"):
    return _f(v, fmt)


def report(ctx):
    res, cpu, wall, missing, sizes = collect(ctx)
    ctx.write_csv("points.csv")
    source = (f"Generated by `experiments/sweep.py {os.path.relpath(ctx.sweep.path, ctx.root)}` "
              "from the store (docs/zorua.md, \"Experiment\").")
    write_report(ctx, ctx.sweep.name, source, res, cpu, wall, missing, sizes,
                 len(ctx.sweep.points))


def _inputs_text(sizes):
    """'BH: --size waves3 (96,000 bodies, theta 2.0); ...' per application."""
    return "; ".join(f"{ABBR.get(a, a)}: --size {s}" +
                     (f" ({INPUTS[(a, s)]})" if (a, s) in INPUTS else "")
                     for a, s in sorted(sizes.items(), key=lambda kv: ABBR.get(kv[0], kv[0])))


def cpu_table(res):
    """Rows of the mean CPU-seconds per run, per application, generation and scheme."""
    rows = []
    for app, specs in res.items():
        for g in GENS:
            cells = []
            for sch in SCHEMES:
                v = [m["cpu_s"] for m in on(specs, g, sch).values() if m.get("cpu_s")]
                cells.append(f"{sum(v) / len(v):.1f} ({len(v)})" if v else "-")
            if any(c != "-" for c in cells):
                rows.append([ABBR.get(app, app), GEN[g], *cells])
    return rows


def write_report(ctx, name, source, res, cpu, wall, missing, sizes, npoints):
    """report.md, zorua.json and the figures of the points `res` into ctx's directory."""
    r = measures(res)
    nspec = sum(len(s) for s in res.values())
    runs = npoints - len(missing)
    ctx.write_json("zorua.json", {"experiment": name, "points": res, "measures": r,
                                  "cpu_s": round(cpu, 1), "wall_s": round(wall, 1),
                                  "missing": missing, "inputs": sizes})
    fig14(ctx, res, r)
    fig15(ctx, res)
    fig16(ctx, r)
    fig19(ctx, r)
    fig20(ctx, r)
    fig21(ctx, r)
    m = r["mean"]
    size_text = (f"Inputs (workloads/README.md, \"Occupancy-length inputs\"): "
                 f"{_inputs_text(sizes)}")
    cnt = ", ".join(f"{GEN[g]} {sum(1 for s in res.values() for v in s.values() if g in v)}"
                    for g in GENS)
    md = [f"# {name}: Zorua, WLM and Baseline over the specification grid", "",
          f"{source} {size_text}. {len(res)} applications, "
          f"{nspec} specifications ({cnt} of them run per generation: a spec whose CTA does not "
          f"fit the SM once cannot launch there), three schemes: {runs} runs, "
          f"{cpu / 60:.1f} CPU-minutes, {wall / 60:.1f} minutes of run wall time in all." +
          (f" **Partial: {len(missing)} of the sweep's {npoints} runs have no "
           "result in the store yet** (`--report-only` on an unfinished sweep; listed at the "
           "end); the measures below are over the points stored." if missing else ""), "",
          "![fig14](fig14.png)", "", "![fig15](fig15.png)", "", "![fig16](fig16.png)", "",
          "![fig19](fig19.png)", "", "![fig20](fig20.png)", "", "![fig21](fig21.png)", "",
          "## Beside the paper (means over the applications; Fermi unless said)", "",
          md_table(["measure", "Baseline", "WLM", "Zorua", "paper (B / W / Z)"], [
              ["performance range % (Fig 14)", *(_f(m["range"][s]) for s in SCHEMES),
               "96.6 / 88.3 / 48.2"],
              ["max porting loss % (Fig 16; 6 ordered pairs, 5 % rule)",
               *(_f(m["port"][s]) for s in SCHEMES), "52.7 / 51.0 / 23.9"],
              ["best-point improvement %", "", "", _s(m["best"]), "+12.8 (DCT +27.8)"],
              ["improvement over all specs %", "", _s(m["all_wlm"]), _s(m["all"]), "+25.2 (Zorua)"],
              ["warps in slots per active cycle (Fig 19)",
               *(_f(m["warps"][s], "{:.2f}") for s in SCHEMES), ""],
              ["... vs Baseline %", "", _s(m["warps_vs_base"]["wlm"]),
               _s(m["warps_vs_base"]["zorua"]), "WLM +8.1, Zorua +32.8 (schedulable)"],
              ["warps holding every resource (allocator)", "", _f(m["sched"]["wlm"], "{:.2f}"),
               _f(m["sched"]["zorua"], "{:.2f}"),
               f"Zorua vs WLM {_s(m['sched_zorua_vs_wlm'])} %"],
              ["register hit rate % (Fig 20)", "", "", _f(m["hit_rf"], "{:.2f}"), "98.9"],
              ["scratchpad hit rate % (Fig 20)", "", "", _f(m["hit_smem"], "{:.2f}"), "99.6"],
              ["energy vs Baseline % (Fig 21)", "", _s(m["energy"]["wlm"]),
               _s(m["energy"]["zorua"]), "Zorua -7.6 (DCT -20.5, NQU +3)"],
          ]), "", "## Per application (Fermi; porting loss over the three generations)", ""]
    rows = []
    for ab, a in r["apps"].items():
        rows.append([ab, "/".join(str(a["specs"][GEN[g]]) for g in GENS),
                     *(_f(a["range"][s]) for s in SCHEMES),
                     *(_f(a["port"][s]) for s in SCHEMES), _s(a.get("best")), _s(a.get("all")),
                     _f(a["hit_rf"], "{:.2f}"), _f(a["hit_smem"], "{:.2f}"),
                     _s(a["energy"]["wlm"]),
                     _s(a["energy"]["zorua"]), _s(a["warps_vs_base"].get("wlm")),
                     _s(a["warps_vs_base"].get("zorua"))])
    md += [md_table(["app", "specs F/K/M", "range B", "range W", "range Z", "port B", "port W",
                     "port Z", "best Z %", "all Z %", "RF hit %", "spad hit %", "energy W %",
                     "energy Z %",
                     "warps W %", "warps Z %"], rows), "",
           "Paper per application: SSSP range Baseline 23.8 % (Zorua slightly larger); best "
           "point DCT +27.8 %, none for SP, SLA, NQU; porting loss Zorua DCT 28.1 %, MST 36.1 %; "
           "energy DCT -20.5 %, NQU +3 %.", "",
           "## CTA waves (Baseline: CTAs of the longest-waved launch / (15 SMs x CTAs per SM))",
           "", "At most one wave, every CTA is resident at once, so the specification's occupancy "
           "cannot limit it; the three generations differ only in occupancy.", ""]
    rows = [[ab, *(f"{_f(a['waves'][GEN[g]]['median'], '{:.2f}')} "
                   f"({a['waves'][GEN[g]]['one_wave']} of {a['waves'][GEN[g]]['specs']})"
                   for g in GENS)] for ab, a in r["apps"].items()]
    md += [md_table(["app", *(f"{GEN[g]}: median waves (specs <= 1 wave)" for g in GENS)],
                    rows), "", "## Performance range per generation (B / W / Z %)", ""]
    rows = [[ab, *("/".join(_f(a["range_gen"][GEN[g]][s], "{:.0f}") for s in SCHEMES)
                   for g in GENS)] for ab, a in r["apps"].items()]
    md += [md_table(["app", *(GEN[g] for g in GENS)], rows), "",
           "## Porting loss per ordered pair (max %, points within 5 % of the source's best)",
           ""]
    pairs = [f"{GEN[S]}>{GEN[T]}" for S in GENS for T in GENS if S != T]
    rows = []
    for ab, a in r["apps"].items():
        for s in SCHEMES:
            rows.append([ab, NAME[s], *(f"{_f(a['port_pairs'][s].get(p, {}).get('loss'))} "
                                        f"({a['port_pairs'][s].get(p, {}).get('points', 0)})"
                                        for p in pairs)])
    md += [md_table(["app", "scheme", *pairs], rows), "", "## Cycles per point", ""]
    rows = []
    for app, specs in res.items():
        for s, gens in specs.items():
            for g in GENS:
                if g not in gens:
                    continue
                rows.append([ABBR.get(app, app), s, GEN[g],
                             *(str(gens[g][sch]["cycles"]) if sch in gens[g] else "-"
                               for sch in SCHEMES),
                             str(gens[g]["zorua"]["swapped_sets"]) if "zorua" in gens[g]
                             else "-"])
    md += [md_table(["app", "spec", "gen", "Baseline", "WLM", "Zorua", "Zorua sets in swap"],
                    rows), ""]
    rows = cpu_table(res)
    if rows:
        md += ["## CPU per run (mean CPU-seconds, number of runs)", "",
               md_table(["app", "gen", *(NAME[s] for s in SCHEMES)], rows), ""]
    if missing:
        md += ["## Runs with no result yet", "", *(f"- {x}" for x in missing), ""]
    ctx.write_text("report.md", "\n".join(md))


class _Dir:
    """The report directory of a merged report (what report() gets from the sweep's Context)."""

    def __init__(self, out):
        self.out = out
        os.makedirs(out, exist_ok=True)

    def path(self, name):
        return os.path.join(self.out, name)

    def write_text(self, name, text):
        tmp = self.path(name) + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, self.path(name))

    def write_json(self, name, obj):
        self.write_text(name, json.dumps(obj, indent=1, sort_keys=True) + "\n")


def _load(d):
    path = os.path.join(d, "zorua.json")
    try:
        with open(path, encoding="utf-8") as f:
            j = json.load(f)
    except OSError as e:
        raise SystemExit(f"zorua.py: {path}: {e.strerror} (run the sweep, or its --report-only)")
    except json.JSONDecodeError as e:
        raise SystemExit(f"zorua.py: {path}: line {e.lineno}: {e.msg}")
    if not isinstance(j.get("points"), dict):
        raise SystemExit(f"zorua.py: {path}: no 'points' (not a zorua.py report)")
    # reports before session 21 name no inputs: every point of the grid ran --size waves
    j.setdefault("inputs", {a: "waves" for a in j["points"]})
    return j


def merge(grid_dir, paper_dir, out):
    """The whole study with every application of paper_dir's report replacing the grid's."""
    g, p = _load(grid_dir), _load(paper_dir)
    res = dict(g["points"])
    sizes = dict(g["inputs"])
    for app, specs in p["points"].items():
        res[app] = specs
        sizes[app] = p["inputs"].get(app, "?")
    res = dict(sorted(res.items(), key=lambda kv: ABBR.get(kv[0], kv[0])))
    missing = [m for m in g.get("missing", []) if m.split("_z_")[0] not in p["points"]]
    missing += p.get("missing", [])

    def runs(points):
        return sum(1 for specs in points.values() for gens in specs.values()
                   for schs in gens.values() for _ in schs)
    ctx = _Dir(out)
    # points.csv: the grid's rows of the kept applications, then the paper-size sweep's; the
    # CPU and wall seconds of the grid's replaced rows leave its totals
    rows, head, drop_cpu, drop_wall = [], None, 0.0, 0.0
    for d, keep in ((grid_dir, lambda a: a not in p["points"]), (paper_dir, lambda a: True)):
        path = os.path.join(d, "points.csv")
        if not os.path.exists(path):
            continue
        with open(path, newline="", encoding="utf-8") as f:
            rd = csv.DictReader(f)
            head = head or rd.fieldnames
            for r in rd:
                if keep(r["workload"].split("_z_")[0]):
                    rows.append(r)
                elif r.get("status") == "ok":
                    drop_cpu += float(r.get("cpu_s") or 0.0)
                    drop_wall += float(r.get("wall_s") or 0.0)
    cpu = (g.get("cpu_s") or 0.0) - drop_cpu + (p.get("cpu_s") or 0.0)
    wall = (g.get("wall_s") or 0.0) - drop_wall + (p.get("wall_s") or 0.0)
    if head:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=head, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        ctx.write_text("points.csv", buf.getvalue())
    source = (f"Merged by `experiments/zorua.py --merge {grid_dir} {paper_dir}`: the whole grid's "
              f"report with {', '.join(ABBR.get(a, a) for a in p['points'])} taken from the "
              "paper-size sweep (experiments/zorua-paper.toml; docs/zorua.md, \"Session 21\").")
    npoints = runs(res) + len(missing)
    write_report(ctx, "zorua (merged)", source, res, cpu, wall, missing, sizes, npoints)
    print(f"zorua.py: written {out}/report.md ({runs(res)} runs)")


def main(argv=None):
    ap = argparse.ArgumentParser(description="Zorua's whole study with the paper-size sweep's "
                                 "applications (experiments/zorua-paper.toml) replacing the "
                                 "grid's (the sweep's own report: experiments/sweep.py)")
    ap.add_argument("--merge", nargs=2, metavar=("GRID_DIR", "PAPER_DIR"), required=True,
                    help="report directories holding zorua.json (and points.csv)")
    ap.add_argument("--out", required=True, help="directory of the merged report")
    a = ap.parse_args(argv)
    merge(a.merge[0], a.merge[1], a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
