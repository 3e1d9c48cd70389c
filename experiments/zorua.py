# SPDX-License-Identifier: MIT
"""zorua: the report of experiments/zorua.toml (experiments/sweep.py experiments/zorua.toml).

Zorua's Sec. 6 measures (digest Sec. 5.4 and 6.2) on the sweep's sample of the specification
grid, for Baseline (TB-granular), WLM and Zorua on Fermi, Kepler and Maxwell (Table 2):
  - Fig 14: each specification's performance (1 / kernel cycles) normalised to the slowest
    Baseline specification of its application (on Fermi), as box plots per application and
    scheme (fig14.png);
  - performance range = (best - worst) / worst over an application's specifications, per scheme,
    averaged over applications (paper: 96.6 % / 88.3 % / 48.2 %, L385);
  - best-point improvement: Zorua's best spec against Baseline's best (paper +12.8 %, L407);
    over all specs: the mean of Baseline cycles / Zorua cycles - 1 per spec (paper +25.2 %, L409);
  - Fig 15: execution time per specification normalised to the best Baseline time (fig15.png);
  - Fig 16 porting loss: per scheme, for every ordered pair (S, T) of generations and every spec
    within 5 % of S's best, the loss 1 - perf_T(spec) / best_T; the maximum over those, averaged
    over applications (paper 52.7 % / 51.0 % / 23.9 %, L415);
  - Fig 19 schedulable warps: warps in warp slots per active cycle (resident_warps /
    active_cycles; barrier waiters included, which the paper excludes) for the three schemes
    against Baseline (paper: WLM +8.1 %, Zorua +32.8 %, L437), and the allocator's warps holding
    every resource (zorua_sched_warp_cycles / zorua_ticks) for WLM and Zorua;
  - Fig 20 hit rate: register-operand words served on chip / all looked up in the RMT (paper RF
    98.9 %, scratchpad 99.6 %, L442; our scratchpad is not oversubscribed: 100 %);
  - Fig 21 energy: Zorua's energy / Baseline's per spec, mean (paper -7.6 %, L447).
Writes report.md, zorua.json, fig14.png, fig15.png, points.csv. Every number comes from the
store."""

import os

from heddle_sweep import figures
from heddle_sweep.report import md_table

GENS = ["zorua-fermi", "zorua-kepler", "zorua-maxwell"]
SCHEMES = ["partitioned", "wlm", "zorua"]
NAME = {"partitioned": "Baseline", "wlm": "WLM", "zorua": "Zorua"}
PAPER = {  # Zorua digest Sec. 6.2 (line numbers of the seed text)
    "range": {"partitioned": 96.6, "wlm": 88.3, "zorua": 48.2},  # L385
    "best": 12.8, "all": 25.2,  # L407, L409
    "port": {"partitioned": 52.7, "wlm": 51.0, "zorua": 23.9},  # L415
    "sched": {"wlm": 8.1, "zorua": 32.8},  # L437
    "hit_rf": 98.9, "hit_smem": 99.6, "energy": -7.6,  # L442, L447
}


def _sum(sms, key):
    return sum(s.get(key, 0) for s in sms)


def collect(ctx):
    """{app: {spec: {gen: {scheme: measures}}}}"""
    out = {}
    for p in ctx.sweep.points:
        w, g, sch = p.axes["workload"], p.axes["config"], p.axes["set.sm.allocator"]
        app, spec = w.split("_z_")
        d = ctx.record(workload=w, config=g, set__sm__allocator=sch)["data"]
        t = d["timing"]
        sms = t["sms"]
        m = {"cycles": t["totals"]["cycles"],
             "energy": (d.get("power") or {}).get("energy_j"),
             "rf_reads": _sum(sms, "zorua_rf_reads"),
             "rf_swap": _sum(sms, "zorua_rf_swap_reads"),
             "swapped_sets": _sum(sms, "zorua_reg_sets_swapped"),
             "sched": (_sum(sms, "zorua_sched_warp_cycles") / _sum(sms, "zorua_ticks"))
             if _sum(sms, "zorua_ticks") else None,
             "warps": (_sum(sms, "resident_warps") / max(1, _sum(sms, "active_cycles")))}
        out.setdefault(app, {}).setdefault(spec, {}).setdefault(g, {})[sch] = m
    return out


def perf(m):
    return 1.0 / m["cycles"]


def measures(res):
    r = {"apps": {}, "mean": {}}
    for app, specs in res.items():
        a = {}
        for sch in SCHEMES:
            ps = [perf(specs[s]["zorua-fermi"][sch]) for s in specs]
            a.setdefault("range", {})[sch] = 100 * (max(ps) - min(ps)) / min(ps)
            port = 0.0
            for S in GENS:
                for T in GENS:
                    if S == T:
                        continue
                    bs = max(perf(specs[s][S][sch]) for s in specs)
                    bt = max(perf(specs[s][T][sch]) for s in specs)
                    for s in specs:
                        if perf(specs[s][S][sch]) >= 0.95 * bs:
                            port = max(port, 100 * (1 - perf(specs[s][T][sch]) / bt))
            a.setdefault("port", {})[sch] = port
        bb = max(perf(specs[s]["zorua-fermi"]["partitioned"]) for s in specs)
        bz = max(perf(specs[s]["zorua-fermi"]["zorua"]) for s in specs)
        a["best"] = 100 * (bz / bb - 1)
        a["all"] = 100 * (sum(specs[s]["zorua-fermi"]["partitioned"]["cycles"] /
                              specs[s]["zorua-fermi"]["zorua"]["cycles"] for s in specs) /
                          len(specs) - 1)
        rd = sum(specs[s]["zorua-fermi"]["zorua"]["rf_reads"] for s in specs)
        rs = sum(specs[s]["zorua-fermi"]["zorua"]["rf_swap"] for s in specs)
        a["hit_rf"] = 100 * (1 - rs / rd) if rd else None
        es = [specs[s]["zorua-fermi"]["zorua"]["energy"] /
              specs[s]["zorua-fermi"]["partitioned"]["energy"] for s in specs
              if specs[s]["zorua-fermi"]["partitioned"]["energy"]]
        a["energy"] = 100 * (sum(es) / len(es) - 1) if es else None
        a["warps"] = {sch: sum(specs[s]["zorua-fermi"][sch]["warps"] for s in specs) / len(specs)
                      for sch in SCHEMES}
        for sch in ("wlm", "zorua"):
            vals = [specs[s]["zorua-fermi"][sch]["sched"] for s in specs
                    if specs[s]["zorua-fermi"][sch]["sched"] is not None]
            a.setdefault("sched", {})[sch] = sum(vals) / len(vals) if vals else None
        r["apps"][app] = a
    apps = list(r["apps"].values())

    def mean(f):
        v = [f(a) for a in apps if f(a) is not None]
        return sum(v) / len(v) if v else None
    r["mean"] = {"range": {s: mean(lambda a, s=s: a["range"][s]) for s in SCHEMES},
                 "port": {s: mean(lambda a, s=s: a["port"][s]) for s in SCHEMES},
                 "best": mean(lambda a: a["best"]), "all": mean(lambda a: a["all"]),
                 "hit_rf": mean(lambda a: a["hit_rf"]), "energy": mean(lambda a: a["energy"])}
    ws, zs = mean(lambda a: a["sched"]["wlm"]), mean(lambda a: a["sched"]["zorua"])
    r["mean"]["sched_wlm"], r["mean"]["sched_zorua"] = ws, zs
    r["mean"]["sched_zorua_vs_wlm"] = 100 * (zs / ws - 1) if ws and zs else None
    wb = {s: mean(lambda a, s=s: a["warps"][s]) for s in SCHEMES}
    r["mean"]["warps"] = wb
    r["mean"]["warps_vs_base"] = {s: 100 * (wb[s] / wb["partitioned"] - 1) for s in SCHEMES}
    return r


def draw(ctx, res):
    data = {}
    for app, specs in res.items():
        slow = min(perf(specs[s]["zorua-fermi"]["partitioned"]) for s in specs)
        for sch in SCHEMES:
            data[f"{app} {NAME[sch]}"] = [perf(specs[s]["zorua-fermi"][sch]) / slow
                                          for s in specs]
    figures.boxes(ctx.path("fig14.png"), data, "performance / slowest Baseline spec",
                  title="Fig 14 (Fermi): performance over the specifications")
    plt = figures._plt()
    fig, axs = plt.subplots(1, len(res), figsize=(3.2 * len(res), 2.8))
    for ax, (app, specs) in zip(axs if len(res) > 1 else [axs], res.items()):
        names = list(specs)
        best = min(specs[s]["zorua-fermi"]["partitioned"]["cycles"] for s in names)
        for sch in SCHEMES:
            ax.plot(range(len(names)), [specs[s]["zorua-fermi"][sch]["cycles"] / best
                                        for s in names], marker="o", markersize=3,
                    label=NAME[sch])
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=45, ha="right", fontsize=6)
        ax.set_title(app, fontsize=8)
        ax.set_ylabel("time / best Baseline")
        ax.grid(color="0.85", linewidth=0.3)
    axs[0].legend(frameon=False, fontsize=6)
    fig.tight_layout()
    figures._save(fig, ctx.path("fig15.png"))
    plt.close(fig)


def _f(v, fmt="{:.1f}"):
    return "-" if v is None else fmt.format(v)


def report(ctx):
    res = collect(ctx)
    r = measures(res)
    ctx.write_json("zorua.json", {"experiment": "zorua", "points": res, "measures": r})
    ctx.write_csv("points.csv")
    draw(ctx, res)
    m = r["mean"]
    md = ["# zorua: Zorua, WLM and Baseline on a sample of the specification grid", "",
          f"Generated by `experiments/sweep.py {os.path.relpath(ctx.sweep.path, ctx.root)}` "
          "from the store (docs/zorua.md). Small inputs, " +
          f"{len(res)} applications, {sum(len(s) for s in res.values())} specifications, "
          "three generations, three schemes. ![fig14](fig14.png) ![fig15](fig15.png)", "",
          "## Beside the paper (means over the applications; Fermi unless said)", "",
          md_table(["measure", "Baseline", "WLM", "Zorua", "paper (B / W / Z)"], [
              ["performance range %", *(_f(m["range"][s]) for s in SCHEMES),
               "96.6 / 88.3 / 48.2"],
              ["max porting loss % (6 ordered pairs)", *(_f(m["port"][s]) for s in SCHEMES),
               "52.7 / 51.0 / 23.9"],
              ["best-point improvement %", "", "", _f(m["best"]), "+12.8"],
              ["improvement over all specs %", "", "", _f(m["all"]), "+25.2"],
              ["warps in slots per active cycle", *(_f(m["warps"][s], "{:.2f}") for s in SCHEMES),
               ""],
              ["... vs Baseline %", "", _f(m["warps_vs_base"]["wlm"]),
               _f(m["warps_vs_base"]["zorua"]), "WLM +8.1, Zorua +32.8 (schedulable)"],
              ["warps holding every resource (allocator)", "", _f(m["sched_wlm"], "{:.2f}"),
               _f(m["sched_zorua"], "{:.2f}"), ""],
              ["register hit rate %", "", "", _f(m["hit_rf"], "{:.2f}"), "98.9"],
              ["energy vs Baseline %", "", "", _f(m["energy"]), "-7.6"],
          ]), "", "## Per application", ""]
    rows = []
    for app, a in r["apps"].items():
        rows.append([app, *(_f(a["range"][s]) for s in SCHEMES),
                     *(_f(a["port"][s]) for s in SCHEMES), _f(a["best"]), _f(a["all"]),
                     _f(a["hit_rf"], "{:.2f}"), _f(a["energy"])])
    md += [md_table(["app", "range B", "range W", "range Z", "port B", "port W", "port Z",
                     "best Z %", "all Z %", "RF hit %", "energy Z %"], rows), "",
           "## Cycles per point", ""]
    rows = []
    for app, specs in res.items():
        for s, gens in specs.items():
            for g in GENS:
                rows.append([app, s, g.replace("zorua-", ""),
                             *(str(gens[g][sch]["cycles"]) for sch in SCHEMES),
                             str(gens[g]["zorua"]["swapped_sets"])])
    md += [md_table(["app", "spec", "gen", "Baseline", "WLM", "Zorua", "Zorua sets in swap"],
                    rows), ""]
    ctx.write_text("report.md", "\n".join(md))
