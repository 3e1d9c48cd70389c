# SPDX-License-Identifier: MIT
"""lin-ch2-faithful: Lin's thesis chapter 2 (lightweight context switching) on the setup the
thesis gives (issue 24, items 5-7), beside the earlier lin-ch2 setup (experiments/lin-ch2.py):

- Table 2.1: fermi-gtx480 with 2 warp schedulers per SM, round robin (`sm.scheduler = lrr`);
- L1052-L1057: a preemption signal every 10,000 cycles until the run ends (cap 200 M cycles),
  each stopping one SM while the others run on (`context.signal_period`, `signal_until`,
  `signal_sms = 1`);
- Table 2.2: each kernel measured on its own: signals take only SMs whose CTAs are all of the
  workload's Table 2.2 kernels (`context.signal_kernel`), records grouped per kernel (LK =
  lk_gicov only, KM = km_invert_mapping only, SC = sc_gain only, CFD = its step-factor and
  flux kernels);
- L930-L938: a warp is drained when nothing of it is in the pipeline and no register-file
  update is pending, loads included (`context.quiesce = writeback`);
- Fig 2.13 step 5: a warp's registers go to the save pipeline as soon as that warp is drained
  at its point (`context.save_order = warp`); the TB's shared memory, SIMT stacks and CCB
  entry follow its last warp;
- L630-L636: liveness is counted each time a warp reaches a preemption point in normal
  execution (the selective run's `pp_arrivals` / `pp_live_words` / `pp_occupied_words` per
  launch), live and occupied from the same allocation (`sm.regs_source = regalloc`: occupancy,
  Occup's bytes and the live words all from Heddle's register allocator), arithmetic mean over
  the kernels as the thesis averages.

`python3 experiments/lin-ch2-faithful.py write OUT.toml [tiny]` writes the sweep (committed as
experiments/lin-ch2-faithful.toml); `experiments/sweep.py experiments/lin-ch2-faithful.toml -j 2`
runs it and this file's report() writes results/lin-ch2-faithful/. Paper numbers come from
lin-ch2.py's PAPER table (the digest §6.1 with source lines); nothing here is fitted to them.
"""

import importlib.util
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("lin_ch2", os.path.join(HERE, "lin-ch2.py"))
lin_ch2 = importlib.util.module_from_spec(_spec)
sys.path.insert(0, HERE)
_spec.loader.exec_module(lin_ch2)
PAPER = lin_ch2.PAPER

PERIOD = 10000            # Lin L1052: a preemption signal every 10,000 cycles
UNTIL = 200000000         # ... each benchmark runs for at most 200 M cycles
WORST_MIN_SIGNALS = 15    # Fig 2.16: kernels long enough for 15 signals
# Fig 2.13 step 5: each warp's registers are saved as soon as that warp is drained
# (`context.save_order = warp`, model/ctx/ctx_wsave.c), not once its whole TB is
COMMON = {"sm.scheduler": "lrr", "sm.num_schedulers": 2, "sm.regs_source": "regalloc",
          "context.quiesce": "writeback", "context.signal_period": PERIOD,
          "context.signal_until": UNTIL, "context.signal_sms": 1,
          "context.save_order": "warp"}
TECHNIQUES = [
    ("occup", "Occup", {"context.preempt": "switch", "context.save": "occupied"}),
    ("live", "live", {"context.preempt": "switch", "context.save": "live"}),
    ("live_cp", "live+cp", {"context.preempt": "switch", "context.save": "compressed"}),
    ("selective", "selective (live+cp at pp points)",
     {"context.preempt": "switch", "context.save": "compressed", "context.points": "selective"}),
    ("drain", "SM-draining", {"context.preempt": "drain"}),
    # Lin L842-L844: K (one point per K instructions outside loops) from 100 to 1000 matters
    # little; selective above is K = 1000 (the default, as the results section uses)
    ("selective_k100", "selective, K = 100",
     {"context.preempt": "switch", "context.save": "compressed", "context.points": "selective",
      "context.pp_k": 100}),
    ("selective_k500", "selective, K = 500",
     {"context.preempt": "switch", "context.save": "compressed", "context.points": "selective",
      "context.pp_k": 500}),
    # issue 24 item 9: the K sweep over Lin's whole range (100 to 1000), two more points
    ("selective_k250", "selective, K = 250",
     {"context.preempt": "switch", "context.save": "compressed", "context.points": "selective",
      "context.pp_k": 250}),
    ("selective_k750", "selective, K = 750",
     {"context.preempt": "switch", "context.save": "compressed", "context.points": "selective",
      "context.pp_k": 750}),
]
# the K sweep (Lin L842-L844): K -> the technique that ran it (K = 1000 is `selective`)
K_SWEEP = [(1000, "selective"), (750, "selective_k750"), (500, "selective_k500"),
           (250, "selective_k250"), (100, "selective_k100")]
# Lin's Fig 2.3 gives one kernel's occupancy in the text (L514-L517): BP_1's register file and
# shared memory, % (the figure's other bars are not in the surviving text)
LIN_FIG23 = {"BP_1": (60.9, 13.7)}
# workload: (size, {our kernel: Lin's Table 2.2 label}); the signals' kernel filter is the keys
KERNELS = {
    "backprop": ("medium", {"bp_layer_forward": "BP_1", "bp_adjust_weights": "BP_2"}),
    "bfs": ("medium", {"bfs_level": "BFS_1+2"}),
    "btree": ("medium", {"btree_find_range": "BT_1", "btree_find_k": "BT_2"}),
    "cfd": ("medium", {"cfd_step_factor": "CFD_2", "cfd_flux": "CFD_3"}),
    "dwt2d": ("medium", {"dwt_copy_components": "DWT_1", "dwt_fdwt53": "DWT_2"}),
    "heartwall": ("medium", {"hw_track": "HW_1"}),
    "hotspot": ("medium", {"hs_calculate_temp": "HS_1"}),
    "histogram": ("medium", {"histogram256": "HG_1"}),
    "kmeans": ("medium", {"km_invert_mapping": "KM_1"}),
    # Table 2.2's GICOV geometry: 192 threads, 8 TBs per SM, 18 registers (the variant pins
    # the count occupancy uses; workloads/leukocyte/ptx.flags)
    "leukocyte_tb192_r18": ("medium", {"lk_gicov": "LK_1"}),
    "lud": ("medium", {"lud_diagonal": "LUD_1", "lud_perimeter": "LUD_2",
                       "lud_internal": "LUD_3"}),
    "srad": ("medium", {"srad_coeff": "SR_2a", "srad_update": "SR_2b"}),
    "pathfinder": ("medium", {"pf_dynproc": "PF_1"}),
    "streamcluster": ("medium", {"sc_gain": "SC_1"}),
}
TINY = {"backprop": ("small", KERNELS["backprop"][1]),
        "leukocyte_tb192_r18": ("small", KERNELS["leukocyte_tb192_r18"][1])}
EARLIER_JSON = os.path.join(HERE, "results", "lin-ch2", "lin-ch2.json")
INPLACE_JSON = os.path.join(HERE, "results", "lin-inplace", "lin-inplace.json")
INPLACE_PREV_JSON = os.path.join(HERE, "results", "lin-inplace", "previous-tb-order.json")
# the faithful run before the per-warp save pipeline (save_order = tb: a TB's save started when
# all its warps were drained, an SM's TBs one after another), kept for the "previous" column
PREVIOUS_JSON = os.path.join(HERE, "results", "lin-ch2-faithful", "previous-tb-order.json")
# issue 24 (2): LK_1's SM-draining with Rodinia's per-thread work (150 points per circle, the
# variant leukocyte_tb192_r18_p150), the drain technique's settings; written by
# `lin-ch2-faithful.py lk150 HEDDLE` (one medium run), read by the report when present
LK150_WORKLOAD = "leukocyte_tb192_r18_p150"
LK150_JSON = os.path.join(HERE, "results", "lin-ch2-faithful", "lk150.json")


def lk150(heddle):
    """Run LK_1 with 150 points per circle under SM-draining on the faithful setup (medium) and
    write its SM-draining latency to results/lin-ch2-faithful/lk150.json."""
    import subprocess
    import tempfile
    root = os.path.dirname(HERE)
    sets = {**COMMON, "context.signal_kernel": "lk_gicov",
            **next(s for n, _, s in TECHNIQUES if n == "drain")}
    args = [a for k, v in sets.items() for a in ("--set", f"{k}={v}")]
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "lk150.json")
        p = subprocess.run([heddle, "run", LK150_WORKLOAD, "--size", "medium", "--config",
                            os.path.join(root, "configs", "fermi-gtx480.ini"), "--quiet",
                            "--stats", f] + args, capture_output=True, text=True, cwd=root)
        if p.returncode != 0 or not os.path.exists(f):
            sys.exit(f"lin-ch2-faithful.py lk150: {LK150_WORKLOAD} exit {p.returncode}\n"
                     f"{p.stdout[-2000:]}{p.stderr[-2000:]}")
        data = json.load(open(f))
    ver = subprocess.run([heddle, "--version"], capture_output=True, text=True).stdout.strip()
    m = per_kernel(data, {"lk_gicov": "LK_1"}, data["timing"]["totals"]["core_mhz"])["lk_gicov"]
    out = {"workload": LK150_WORKLOAD, "size": "medium", "settings": sets, "heddle": ver,
           "drain": m}
    with open(LK150_JSON, "w") as fo:
        json.dump(out, fo, indent=1, sort_keys=True)
        fo.write("\n")
    print(f"lk150: SM-draining latency {m['latency_us']} us over {m['signals']} signals "
          f"-> {os.path.relpath(LK150_JSON, root)}")


def _v(v):
    return f'"{v}"' if isinstance(v, str) else str(v)


def write(out_toml, tiny=None):
    kern = TINY if tiny else KERNELS
    techs = [t for t in TECHNIQUES if not tiny or t[0] in ("occup", "selective", "drain")]
    lines = ["# SPDX-License-Identifier: MIT",
             "# lin-ch2-faithful: Lin ch.2 on the thesis's setup (Table 2.1 RR schedulers, a "
             "signal every",
             "# 10,000 cycles, each Table 2.2 kernel on its own, drained warps, liveness at the "
             "points).",
             "# Generated by `python3 experiments/lin-ch2-faithful.py write "
             f"{os.path.basename(out_toml)}{' tiny' if tiny else ''}`; do not edit.",
             "", "[sweep]", 'name = "lin-ch2-faithful"',
             'description = "Lin ch.2 techniques, faithful setup (GTX480, RR, signals every '
             '10,000 cycles)"',
             f'analysis = "{os.path.relpath(os.path.join(HERE, "lin-ch2-faithful.py"), os.path.dirname(os.path.abspath(out_toml)))}"',
             "quiet = true", "timeout = 1800", ""]
    for w, (size, ks) in kern.items():
        for name, _, sets in techs:
            lines += [f"[[grid]]   # {w}: {name}", f'workload = "{w}"',
                      'config = "fermi-gtx480"', f'size = "{size}"']
            lines += [f"set.{k} = {_v(v)}" for k, v in COMMON.items()]
            lines.append(f'set.context.signal_kernel = "{",".join(ks)}"')
            lines += [f"set.{k} = {_v(v)}" for k, v in sets.items()]
            lines.append("")
    lines += ["[collect]", 'cycles = "timing.totals.cycles"', ""]
    with open(out_toml, "w") as f:
        f.write("\n".join(lines))


# ---- the report -----------------------------------------------------------------------------

def _busy(p):
    """Cycles the SM's save pipeline was busy with a preemption record's saves (0: none)."""
    if "cycles_engine" in p:
        return p["cycles_engine"]
    return sum(p.get(k, 0) for k in ("cycles_regs", "cycles_smem", "cycles_stack"))


def _mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def _gmean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def _r(v, nd=1):
    return None if v is None else round(v, nd)


def _technique(axes):
    sets = {k[4:]: str(v) for k, v in axes.items() if k.startswith("set.context.")
            and k[4:] not in COMMON and k != "set.context.signal_kernel"}
    for name, _, want in TECHNIQUES:
        if {k: str(v) for k, v in want.items()} == sets:
            return name
    return "?"


def per_kernel(data, kernels, mhz):
    """The signal records of one run grouped by the kernel of the CTAs they found."""
    t = data["timing"]
    smc = t.get("config", {}).get("sm")
    launches = {L["id"]: L for L in t["launches"]}
    out = {}
    for k in kernels:
        recs = [p for p in t["preemptions"] if p["launch"] == "signal" and p["met"]
                and launches.get(p["victim"], {}).get("kernel") == k]
        lat = [p["freed"] - p["signal"] for p in recs]
        quiet = [p["freed"] if p["primitive"] == "drain" or p["quiet"] < p["signal"]
                 else min(p["quiet"], p["freed"]) for p in recs]
        sw = [p for p in recs if p["switched"]]
        ctas = sum(p["switched"] for p in sw)
        mean = _mean(lat)
        ls = [L for L in t["launches"] if L["kernel"] == k]
        out[k] = {
            "signals": len(recs),
            "other_kernels": sum(1 for p in t["preemptions"] if p["launch"] == "signal"
                                 and launches.get(p["victim"], {}).get("kernel") not in kernels),
            "latency_us": _r(mean / mhz, 3) if lat else None,
            "drain_us": _r(_mean([q - p["signal"] for p, q in zip(recs, quiet)]) / mhz, 3)
            if recs else None,
            "spill_us": _r(_mean([p["freed"] - q for p, q in zip(recs, quiet)]) / mhz, 3)
            if recs else None,
            # Lin's drain (L1121-L1125: the spilling pipeline idle, waiting for warps to reach
            # their points): the latency less the cycles the SM's save pipeline was busy
            # (cycles_engine; older records: the parts' cycles, a cycle once per part and CTA)
            "pipe_drain_us": _r(_mean([max(0, p["freed"] - p["signal"] - _busy(p))
                                       for p in recs]) / mhz, 3) if recs else None,
            # Lin L1067-L1079: each warp's spill from its point to its registers out,
            # accumulated over the warps of a signal (per signal), and per warp
            "warp_spill_us": _r(_mean([p.get("warp_spill_cycles", 0) for p in sw]) / mhz, 3)
            if sw else None,
            "warp_spill_per_warp_us": _r(sum(p.get("warp_spill_cycles", 0) for p in sw)
                                         / sum(p.get("warp_spill_warps", 0) for p in sw) / mhz, 3)
            if sw and sum(p.get("warp_spill_warps", 0) for p in sw) else None,
            # the same as service time (issue 24): each warp from its first register request
            # to its last, without its wait behind other warps; per signal and per warp
            "warp_service_us": _r(_mean([p["warp_service_cycles"] for p in sw]) / mhz, 3)
            if sw and all("warp_service_cycles" in p for p in sw) else None,
            "warp_service_per_warp_us": _r(sum(p["warp_service_cycles"] for p in sw)
                                           / sum(p.get("warp_spill_warps", 0) for p in sw)
                                           / mhz, 4)
            if sw and all("warp_service_cycles" in p for p in sw)
            and sum(p.get("warp_spill_warps", 0) for p in sw) else None,
            "kernel_ipc": _r(_mean([L["ipc"] for L in t["launches"] if L["kernel"] == k]), 2),
            "worst_over_avg": _r(max(lat) / mean - 1, 2) if lat and mean else None,
            "bytes_per_cta": round(sum(p["bytes"] for p in sw) / ctas) if ctas else None,
            # Fig 2.14's parts of the spilled state (register records with pattern vectors,
            # shared memory, SIMT stacks with CCB entries), % of the bytes written
            "split_pct": [_r(100.0 * sum(p.get(k, 0) for p in sw) / sum(p["bytes"] for p in sw))
                          if sw and sum(p["bytes"] for p in sw) else None
                          for k in ("bytes_regs", "bytes_smem", "bytes_stack")],
            # Fig 2.14 as time: per signal, the context engine's cycles sending (or waiting to
            # send) each part of the switched CTAs' saves, registers (with the compressor's and
            # packer's waits) / shared memory / SIMT stacks with CCB entries, in us
            "time_split_us": [_r(_mean([p.get(k, 0) for p in sw]) / mhz, 3) if sw else None
                              for k in ("cycles_regs", "cycles_smem", "cycles_stack")],
            "pp_arrivals": sum(L.get("pp_arrivals", 0) for L in ls),
            "pp_live_words": sum(L.get("pp_live_words", 0) for L in ls),
            "pp_occupied_words": sum(L.get("pp_occupied_words", 0) for L in ls),
            "pp_live_over": sum(L.get("pp_live_over", 0) for L in ls),
            "regs": sorted({(L["regs_per_thread"], L["regs_source"], L["regs_regalloc"])
                            for L in ls}),
            "ctas_per_sm": sorted({L["ctas_per_sm"] for L in ls}),
            "rf_occupancy_pct": _occ(ls, smc, "rf"),
            "smem_occupancy_pct": _occ(ls, smc, "smem"),
        }
    return out


def _occ(ls, smc, what):
    """Fig 2.3: the share of the SM's register file (or shared memory) a full SM of the
    kernel's CTAs holds, on an empty SM (occupancy's CTAs per SM; registers per thread x
    threads, without the allocation granule); the mean over its launches."""
    if not ls or not smc:
        return None
    v = []
    for L in ls:
        threads = math.prod(L["block"])
        if what == "rf":
            v.append(100.0 * L["ctas_per_sm"] * L["regs_per_thread"] * threads / smc["registers"])
        else:
            v.append(100.0 * L["ctas_per_sm"] * L["shared_bytes"] / smc["shared_mem_bytes"])
    return _r(_mean(v))


def _hbar(path, title, xlabel, labels, series, paper=None, log=False):
    """Horizontal grouped bars, one group per kernel, legend outside the data, a paper value
    (dashed line, named in the legend) when given."""
    from heddle_sweep import figures
    plt = figures._plt()
    n, m = len(labels), max(1, len(series))
    fig, ax = plt.subplots(figsize=(8.5, max(0.3 * n, 0.13 * n * m) + 1.6))
    h = 0.8 / m
    for j, (name, vals) in enumerate(series.items()):
        ys = [i + (j - (m - 1) / 2) * h for i in range(n)]
        ax.barh(ys, [v if v is not None else 0 for v in vals], height=h, label=name)
    if paper is not None:
        ax.axvline(paper[0], color="black", linestyle="--", linewidth=1.2, label=paper[1])
    ax.set_yticks(range(n))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    if log:
        ax.set_xscale("log")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    figures._save(fig, path)
    plt.close(fig)


def report(ctx):
    from heddle_sweep import SweepError
    from heddle_sweep.heddle import parse_stats
    from heddle_sweep.report import md_table

    runs = {}
    for p, key in zip(ctx.sweep.points, ctx.keys):
        row = ctx.store.rows([key]).get(key)
        if row is None:
            raise SweepError(f"lin-ch2-faithful: the point {p.label()} has no result")
        runs[(p.axes["workload"], _technique(p.axes))] = (p.axes["size"],
                                                          parse_stats(row["stats"]))
    wls = [w for w in KERNELS if any(k[0] == w for k in runs)]
    techs = [t for t, _, _ in TECHNIQUES if any(k[1] == t for k in runs)]
    rows = []   # one per Table 2.2 kernel
    for w in wls:
        ks = KERNELS[w][1]
        meas = {}
        for t in techs:
            if (w, t) in runs:
                size, data = runs[(w, t)]
                meas[t] = per_kernel(data, ks, data["timing"]["totals"]["core_mhz"])
        for k, lab in ks.items():
            rows.append({"workload": w, "size": size, "kernel": k, "lin": lab,
                         "m": {t: meas[t][k] for t in meas}})

    def col(t, key):
        return [r["m"].get(t, {}).get(key) for r in rows]

    def ratio(t, key, base="occup"):
        return [(r["m"][t][key] / r["m"][base][key])
                if t in r["m"] and base in r["m"] and r["m"][t].get(key)
                and r["m"][base].get(key) else None for r in rows]

    # liveness at the points (selective run): per kernel, then the arithmetic mean
    live = []
    for r in rows:
        s = r["m"].get("selective", {})
        live.append(100.0 * s["pp_live_words"] / s["pp_occupied_words"]
                    if s.get("pp_occupied_words") else None)
    worst_rows = [i for i, r in enumerate(rows)
                  if all(r["m"].get(t, {}).get("signals", 0) >= WORST_MIN_SIGNALS
                         for t in ("occup", "selective", "drain") if t in techs)]
    summ = {t: {"latency_us_mean": _r(_mean(col(t, "latency_us")), 3),
                "spill_us_mean": _r(_mean(col(t, "spill_us")), 3),
                "warp_spill_us_mean": _r(_mean(col(t, "warp_spill_us")), 3),
                "warp_spill_per_warp_us_mean": _r(_mean(col(t, "warp_spill_per_warp_us")), 3),
                # Lin normalises live/live+cp's accumulated latency to Occup's interrupt-to-
                # spilled time (L1067-L1079): per kernel over Occup's signal-to-empty latency
                "warp_spill_pct_of_occup_gmean": _r(100 * (_gmean(
                    [(r["m"][t]["warp_spill_us"] / r["m"]["occup"]["latency_us"])
                     if t in r["m"] and "occup" in r["m"] and r["m"][t].get("warp_spill_us")
                     and r["m"]["occup"].get("latency_us") else None for r in rows]) or 0)),
                "warp_service_us_mean": _r(_mean(col(t, "warp_service_us")), 3),
                "warp_service_per_warp_us_mean": _r(_mean(col(t, "warp_service_per_warp_us")),
                                                    4),
                "warp_service_pct_of_occup_gmean": _r(100 * (_gmean(
                    [(r["m"][t]["warp_service_us"] / r["m"]["occup"]["latency_us"])
                     if t in r["m"] and "occup" in r["m"] and r["m"][t].get("warp_service_us")
                     and r["m"]["occup"].get("latency_us") else None for r in rows]) or 0)),
                "drain_us_mean": _r(_mean(col(t, "drain_us")), 3),
                "pipe_drain_us_mean": _r(_mean(col(t, "pipe_drain_us")), 3),
                "pipe_drain_share_mean": _r(_mean([
                    100 * r["m"][t]["pipe_drain_us"] / r["m"][t]["latency_us"]
                    if t in r["m"] and r["m"][t].get("pipe_drain_us") is not None
                    and r["m"][t].get("latency_us") else None for r in rows])),
                # Fig 2.15 read as drain + the Fig 2.14 spill latency stacked (4.0 = 2.2 + 1.8
                # us in the thesis): per kernel the drain plus the accumulated per-warp spill
                "stacked_us_mean": _r(_mean([r["m"][t]["drain_us"] + r["m"][t]["warp_spill_us"]
                                             if t in r["m"] and r["m"][t].get("warp_spill_us")
                                             is not None and r["m"][t].get("drain_us")
                                             is not None else None for r in rows]), 3),
                "stacked_drain_us_mean": _r(_mean([r["m"][t]["drain_us"]
                                                   if t in r["m"] and r["m"][t].get("warp_spill_us")
                                                   is not None and r["m"][t].get("drain_us")
                                                   is not None else None for r in rows]), 3),
                "time_split_us_mean": [_r(_mean([(r["m"].get(t, {}).get("time_split_us")
                                                  or [None] * 3)[i] for r in rows]), 3)
                                       for i in range(3)],
                "latency_pct_of_occup_gmean": _r(100 * (_gmean(ratio(t, "latency_us")) or 0)),
                "bytes_pct_of_occup_gmean": _r(100 * (_gmean(ratio(t, "bytes_per_cta")) or 0)),
                "worst_over_avg_mean": _r(_mean([rows[i]["m"].get(t, {}).get("worst_over_avg")
                                                 for i in worst_rows]), 2)}
            for t in techs}
    summ["live_pct_of_occupied_mean"] = _r(_mean(live))
    ej = json.load(open(EARLIER_JSON)) if os.path.exists(EARLIER_JSON) else {}
    earlier = ej.get("summary", {})
    earlier_lk = (ej.get("kernels", {}).get("leukocyte", {}).get("techniques", {})
                  .get("drain", {}).get("latency_us"))
    ip = json.load(open(INPLACE_JSON)) if os.path.exists(INPLACE_JSON) else {}
    pj = json.load(open(PREVIOUS_JSON)) if os.path.exists(PREVIOUS_JSON) else {}
    prev = pj.get("summary", {})
    prev_lk = next((k["techniques"].get("drain", {}).get("latency_us")
                    for k in pj.get("kernels", []) if k["kernel"] == "lk_gicov"), None)
    ctx.write_json("lin-ch2-faithful.json", {
        "experiment": "lin-ch2-faithful", "setup": COMMON, "period": PERIOD,
        "techniques": {n: s for n, _, s in TECHNIQUES},
        "kernels": [{**{k: v for k, v in r.items() if k != "m"}, "techniques": r["m"],
                     "live_pct_at_points": _r(lv)} for r, lv in zip(rows, live)],
        "summary": summ, "worst_case_kernels": [rows[i]["lin"] for i in worst_rows]})
    ctx.write_csv("points.csv")

    labels = [f"{r['lin']} ({r['kernel']})" for r in rows]
    _hbar(ctx.path("liveness.png"), "Live registers at the preemption points (Lin Fig 2.6, "
          "L630-L636)", "% of the allocation's registers", labels,
          {"Heddle (point arrivals)": live}, paper=(100 - PAPER["reg_live_reduction_pct"][0],
                                                    "Lin, mean over kernels (65.7 %)"))
    _hbar(ctx.path("latency.png"), "Preemption latency per kernel (Lin Fig 2.15)",
          "us, signal to SM empty (log)", labels,
          {t: col(t, "latency_us") for t in techs if t in ("occup", "selective", "drain")},
          paper=(PAPER["preempt_selective_us"][0], "Lin, selective mean (4.0 us)"), log=True)
    _hbar(ctx.path("context.png"), "Saved context per CTA, % of Occup (Lin Fig 2.14)",
          "% of Occup's bytes", labels,
          {t: [None if v is None else 100 * v for v in ratio(t, "bytes_per_cta")]
           for t in techs if t in ("live", "live_cp", "selective")},
          paper=(PAPER["spilled_state_pct_of_occup"][0], "Lin, live+cp gmean (17.7 %)"))

    # issue 24 item 9: Fig 2.14's split, Fig 2.3's occupancy and the K sweep as figures
    import lin_ch2_figures as lfig
    klabs = [r["lin"] for r in rows]
    split = {}
    for r in rows:
        occ = r["m"].get("occup", {}).get("time_split_us")
        tot = sum(occ) if occ and None not in occ else 0
        for t in ("occup", "live", "live_cp", "selective"):
            ts = r["m"].get(t, {}).get("time_split_us")
            if tot and ts and None not in ts:
                split[(r["lin"], t)] = [100.0 * v / tot for v in ts]
    lin_ratio = 100.0 * PAPER["spill_live_cp_us"][0] / PAPER["spill_occup_us"][0]
    lfig.split_bars(ctx.path("spill_split.png"), "Spill time by part per kernel (Lin Fig 2.14): "
                    "the context engine's cycles per part, % of Occup's", klabs,
                    [(t, lab) for t, lab in (("occup", "Occup"), ("live", "live"),
                                             ("live_cp", "live+cp"), ("selective", "selective"))
                     if t in techs], split,
                    paper=(lin_ratio, f"Lin, live+cp: {lin_ratio:.1f} %\n("
                                      f"{PAPER['spill_live_cp_us'][0]:g} of {PAPER['spill_occup_us'][0]:g}"
                                      " us, means, L1100-L1105)"))
    lfig.occupancy(ctx.path("occupancy.png"), "Register-file and shared-memory occupancy of a "
                   "full SM (Lin Fig 2.3)", klabs,
                   [r["m"].get("occup", {}).get("rf_occupancy_pct") for r in rows],
                   [r["m"].get("occup", {}).get("smem_occupancy_pct") for r in rows], LIN_FIG23)
    kran_f = [(k, t) for k, t in K_SWEEP if t in techs]
    kdev = {}   # the largest |K's / K = 1000's - 1| per kernel, latency and bytes (%)
    if len(kran_f) > 1:
        def rel(t, key):
            return [100.0 * r["m"][t][key] / r["m"]["selective"][key]
                    if t in r["m"] and "selective" in r["m"] and r["m"][t].get(key) is not None
                    and r["m"]["selective"].get(key) else None for r in rows]
        lat_k = {k: rel(t, "latency_us") for k, t in kran_f}
        byt_k = {k: rel(t, "bytes_per_cta") for k, t in kran_f}
        for key, tab in (("latency", lat_k), ("bytes", byt_k)):
            kdev[key] = [max((abs(tab[k][i] - 100) for k, _ in kran_f if tab[k][i] is not None),
                             default=None) for i in range(len(rows))]
        lfig.k_sweep(ctx.path("k_sweep.png"), "K of the selective points (Lin L842-L844: K "
                     "from 100 to 1000 has little effect; no number given)", klabs,
                     [k for k, _ in kran_f], lat_k, byt_k,
                     "K: one preemption point per K instructions outside loops; K = 1000 is the "
                     "selective run of the other figures (the thesis's results section)")

    ksent = ""
    if kdev:
        def within(key):
            d = [x for x in kdev[key] if x is not None]
            return f"{sum(1 for x in d if x <= 5)} of {len(d)}"
        far = sorted((i for i, x in enumerate(kdev["latency"]) if x is not None and x > 5),
                     key=lambda i: -kdev["latency"][i])
        ksent = (f"Over K = {', '.join(str(k) for k, _ in kran_f)}: the preemption latency of "
                 f"{within('latency')} kernels stays within 5 % of K = 1000's, the saved bytes "
                 f"per CTA of {within('bytes')}" + ("; the others' largest latency change: "
                 + ", ".join(f"{rows[i]['lin']} {kdev['latency'][i]:.1f} %" for i in far)
                 if far else "") + ".")

    def pv(k):
        return PAPER[k][0]

    def e(t, k):
        return earlier.get(t, {}).get(k)

    def g(t, k):
        return summ.get(t, {}).get(k)

    acc, per_w = g("live_cp", "warp_spill_us_mean"), g("live_cp", "warp_spill_per_warp_us_mean")
    nwarps = round(acc / per_w) if acc and per_w else "-"
    lk = next((r for r in rows if r["kernel"] == "lk_gicov"), None)
    lk_geom = "CTAs per SM here: " + ", ".join(str(c) for c in (lk["m"].get("occup", {}).get(
        "ctas_per_sm") or [])) + ", 8 in Table 2.2" if lk else "not run"
    # lin-inplace's matched comparison (the same preemption; stop in place, Lin 2.5.5), else a
    # results file from before it (per-request means)
    ipmm = (ip.get("matched_mean_reduction_percent") or {}).get("stop")
    ipm = (ipmm or {}).get("eng") if ipmm else (ip.get("mean_reduction_percent") or {}).get("spill_us")
    ipw = (ipmm or {}).get("acc") if ipmm else (ip.get("mean_reduction_percent") or {}).get("warp_spill_us")
    def drain_share(S):
        d, L = S.get("selective", {}).get("drain_us_mean"), S.get("selective", {}).get("latency_us_mean")
        return _r(100 * d / L) if d is not None and L else None

    def q(t, k):
        return lambda S: S.get(t, {}).get(k)

    # (measure, value from a summary, earlier lin-ch2, Lin, note); this run and the previous
    # faithful run (save_order = tb) both from their summaries
    rows_c = [
        ("live registers, % of occupied (mean over kernels)",
         lambda S: S.get("live_pct_of_occupied_mean"), e("live", "reg_pct_of_occup_gmean"),
         f"{100 - pv('reg_live_reduction_pct'):.1f}",
         "point arrivals, one allocation (earlier: saved bytes at signals over ptxas, gmean)"),
        ("total spilled state, live+cp (% of Occup, gmean)", q("live_cp", "bytes_pct_of_occup_gmean"),
         e("live_cp", "context_pct_of_occup_gmean"), pv("spilled_state_pct_of_occup"), ""),
        ("spill latency, Occup (us, mean)", q("occup", "spill_us_mean"),
         e("occup", "spill_us_mean"), pv("spill_occup_us"), "SM wall time, quiet to empty"),
        ("spill latency, live+cp (us, mean)", q("live_cp", "spill_us_mean"),
         e("live_cp", "spill_us_mean"), pv("spill_live_cp_us"), "SM wall time, not per-warp sum"),
        ("spill latency as Lin defines it, Occup: signal to all spilled (us, mean)",
         q("occup", "latency_us_mean"), e("occup", "latency_us_mean"), pv("spill_occup_us"),
         "L1067-L1079"),
        ("spill latency as Lin defines it, live+cp: per-warp, accumulated (us, mean per signal)",
         q("live_cp", "warp_spill_us_mean"), None, pv("spill_live_cp_us"),
         "each warp from its point to its registers out, summed over the signal's warps"),
        ("... live+cp over Occup (%, gmean over kernels)",
         q("live_cp", "warp_spill_pct_of_occup_gmean"), None,
         _r(100 * pv("spill_live_cp_us") / pv("spill_occup_us")), "Lin: 1.8 / 9.9 us"),
        ("spill latency as service time, live+cp: per warp first to last request, accumulated "
         "(us, mean per signal)", q("live_cp", "warp_service_us_mean"), None,
         pv("spill_live_cp_us"), "each warp's own requests, without its wait behind other warps"),
        ("... live+cp service over Occup (%, gmean over kernels)",
         q("live_cp", "warp_service_pct_of_occup_gmean"), None,
         _r(100 * pv("spill_live_cp_us") / pv("spill_occup_us")), "Lin: 1.8 / 9.9 us"),
        ("spill service time per warp, live+cp (us, mean)",
         q("live_cp", "warp_service_per_warp_us_mean"), None, None,
         "first to last register request of one warp"),
        ("spill service time per warp, selective (us, mean)",
         q("selective", "warp_service_per_warp_us_mean"), None, None, ""),
        ("spill latency per warp, live+cp (us, mean)", q("live_cp", "warp_spill_per_warp_us_mean"),
         None, None, "the accumulated latency over the warps it sums"),
        ("spill latency per warp, selective (us, mean)",
         q("selective", "warp_spill_per_warp_us_mean"), None, None,
         "each warp from its stop at its point to its registers out"),
        ("preemption latency, Occup (us, mean)", q("occup", "latency_us_mean"),
         e("occup", "latency_us_mean"), pv("preempt_occup_us"), ""),
        ("preemption latency, selective (us, mean)", q("selective", "latency_us_mean"),
         e("selective", "latency_us_mean"), pv("preempt_selective_us"), ""),
        ("preemption latency, selective (% of Occup, gmean)",
         q("selective", "latency_pct_of_occup_gmean"),
         e("selective", "latency_pct_of_occup_gmean"),
         f"{100 - pv('preempt_selective_reduction_pct'):.1f}", ""),
        ("draining share of selective latency (%)", drain_share,
         _r(100 * e("selective", "drain_us_mean") / e("selective", "latency_us_mean"))
         if e("selective", "latency_us_mean") else None, pv("drain_share_of_selective_pct"),
         "drain = signal to the last warp quiet"),
        ("draining share, pipeline waiting for warps (%, mean drain / mean latency)",
         lambda S: _r(100 * S["selective"]["pipe_drain_us_mean"] / S["selective"]["latency_us_mean"])
         if S.get("selective", {}).get("pipe_drain_us_mean") is not None
         and S["selective"].get("latency_us_mean") else None, None,
         pv("drain_share_of_selective_pct"),
         "Lin L1121-L1125: drain = latency - the save pipeline's busy time"),
        ("... the same, mean of per-kernel shares (%)",
         q("selective", "pipe_drain_share_mean"), None, pv("drain_share_of_selective_pct"), ""),
        ("preemption latency, selective, as drain + accumulated per-warp spill (us, mean)",
         q("selective", "stacked_us_mean"), None, pv("preempt_selective_us"),
         "our reading of Fig 2.15: its bars stack drain and Fig 2.14's spill (2.2 + 1.8 us)"),
        ("... draining share of it (%)",
         lambda S: _r(100 * S["selective"]["stacked_drain_us_mean"] / S["selective"]["stacked_us_mean"])
         if S.get("selective", {}).get("stacked_us_mean") else None, None,
         pv("drain_share_of_selective_pct"), ""),
        ("SM-draining latency, LK (us)", lambda S: S.get("_lk"), earlier_lk,
         pv("sm_draining_lk_us"), "earlier: all leukocyte kernels, small"),
        ("SM-draining latency, LK with Rodinia's 150 points per circle (us)",
         lambda S: S.get("_lk150"), None, pv("sm_draining_lk_us"),
         f"{LK150_WORKLOAD} (results/lin-ch2-faithful/lk150.json)"),
        ("worst/average - 1, Occup", q("occup", "worst_over_avg_mean"),
         e("occup", "worst_over_avg_mean"), pv("worst_over_avg_occup"),
         f"kernels with >= {WORST_MIN_SIGNALS} signals: {len(worst_rows)}"),
        ("worst/average - 1, selective", q("selective", "worst_over_avg_mean"),
         e("selective", "worst_over_avg_mean"), pv("worst_over_avg_selective"), ""),
        ("worst/average - 1, SM-draining", q("drain", "worst_over_avg_mean"),
         e("drain", "worst_over_avg_mean"), pv("worst_over_avg_drain"), ""),
        ("in-place, further spill reduction, save pipeline busy (%, mean of per-pair reductions)",
         lambda S: S.get("_ipm"), None, pv("inplace_further_reduction_pct"),
         "experiments/results/lin-inplace: the same preemption, stop in place (previous: "
         "per-request SM wall time)"),
        ("in-place, further spill reduction, regs accumulated per warp + smem + stacks (%)",
         lambda S: S.get("_ipw"), None, pv("inplace_further_reduction_pct"),
         "(previous: registers only, per request)"),
    ]
    lk150j = json.load(open(LK150_JSON)) if os.path.exists(LK150_JSON) else {}
    lk150_us = (lk150j.get("drain") or {}).get("latency_us")
    cur = dict(summ, _lk=lk["m"].get("drain", {}).get("latency_us") if lk else None,
               _lk150=lk150_us,
               _ipm=_r(ipm), _ipw=_r(ipw))
    ipo = ip.get("pooled_reduction_percent") or {}
    ipp = ((json.load(open(INPLACE_PREV_JSON)) if os.path.exists(INPLACE_PREV_JSON) else {})
           .get("mean_reduction_percent") or {})
    old = dict(prev, _lk=prev_lk, _ipm=_r(ipp.get("spill_us")), _ipw=_r(ipp.get("warp_spill_us")))
    if prev and "stacked_us_mean" not in prev.get("selective", {}):  # (a run before the row)
        sel = [k["techniques"].get("selective", {}) for k in pj.get("kernels", [])]
        sel = [m for m in sel if m.get("drain_us") is not None and m.get("warp_spill_us") is not None]
        old["selective"] = dict(prev["selective"],
                                stacked_us_mean=_r(_mean([m["drain_us"] + m["warp_spill_us"]
                                                          for m in sel]), 3),
                                stacked_drain_us_mean=_r(_mean([m["drain_us"] for m in sel]), 3))
    comp = [[name, get(cur), get(old) if prev else None, ear, lin, note]
            for name, get, ear, lin, note in rows_c]
    per = []
    for r in rows:
        for t in techs:
            m = r["m"].get(t)
            if m:
                per.append([r["lin"], r["kernel"], r["size"], t, m["signals"], m["other_kernels"],
                            m["bytes_per_cta"], m["drain_us"], m["spill_us"],
                            m.get("warp_spill_us"), m.get("warp_service_us"), m["latency_us"],
                            # (issue 24 item 6: a worst case only over >= 15 signals; session 16)
                            m["worst_over_avg"] if m["signals"] >= WORST_MIN_SIGNALS
                            else f"({m['signals']} signals)"])
    livetab = [[r["lin"], r["kernel"], r["m"].get("selective", {}).get("pp_arrivals"),
                " ".join(f"{a}/{b}/{c}" for a, b, c in r["m"].get("selective", {}).get("regs", [])),
                r["m"].get("selective", {}).get("ctas_per_sm"), _r(lv),
                r["m"].get("selective", {}).get("pp_live_over")] for r, lv in zip(rows, live)]
    kran = [(k, t) for k, t in K_SWEEP if t in techs]
    ktab = [[r["lin"], r["kernel"]] + [r["m"].get(t, {}).get("latency_us") for _, t in kran]
            + [r["m"].get(t, {}).get("bytes_per_cta") for _, t in kran]
            for r in rows if any(t in r["m"] for _, t in kran if t != "selective")]
    timetab = []
    for r in rows:
        cells = [r["lin"], r["kernel"]]
        for t in ("occup", "live_cp", "selective"):
            m = r["m"].get(t, {})
            ts = m.get("time_split_us") or [None] * 3
            cells.append(" / ".join("-" if v is None else f"{v:g}" for v in ts))
        cells += [r["m"].get("live_cp", {}).get("warp_spill_us"),
                  r["m"].get("live_cp", {}).get("warp_service_us"),
                  r["m"].get("selective", {}).get("warp_spill_us")]
        timetab.append(cells)
    timesum = [[t] + [f"{v:g}" if v is not None else "-" for v in
                      (summ.get(t, {}).get("time_split_us_mean") or [None] * 3)] +
               [_r(100 * v / sum(summ[t]["time_split_us_mean"]))
                if v is not None and all(x is not None for x in summ[t]["time_split_us_mean"])
                and sum(summ[t]["time_split_us_mean"]) else None
                for v in (summ.get(t, {}).get("time_split_us_mean") or [None] * 3)]
               for t in ("occup", "live", "live_cp", "selective") if t in summ]
    splittab = [[r["lin"], r["kernel"]] +
                [" / ".join("-" if v is None else f"{v:g}" for v in
                            r["m"].get(t, {}).get("split_pct", [None] * 3))
                 for t in ("occup", "live_cp")] +
                [r["m"].get("occup", {}).get("spill_us"), r["m"].get("live_cp", {}).get("spill_us")]
                for r in rows]
    occtab = [[r["lin"], r["kernel"], r["m"].get("occup", {}).get("ctas_per_sm"),
               r["m"].get("occup", {}).get("rf_occupancy_pct"),
               r["m"].get("occup", {}).get("smem_occupancy_pct")] for r in rows]
    def pq(t, k):
        return prev.get(t, {}).get(k, "-") if prev else "-"

    regs_cp = (summ.get("live_cp", {}).get("time_split_us_mean") or [None])[0]
    wall_ratio = (_r(100 * g("live_cp", "spill_us_mean") / g("occup", "spill_us_mean"))
                  if g("live_cp", "spill_us_mean") and g("occup", "spill_us_mean") else None)
    sel_rows = [r for r in rows if r["m"].get("selective", {}).get("drain_us") is not None]
    far = [r for r in sel_rows if r["m"]["selective"]["drain_us"] > 10.0]
    far_txt = ", ".join(f"{r['lin']} ({r['m']['selective']['drain_us']} us)" for r in far) or "none"
    # issue 24 (2): what carries each remaining difference, computed from the rows
    both = [r for r in rows if r["m"].get("selective", {}).get("latency_us")
            and r["m"].get("occup", {}).get("latency_us")]
    slow = [r for r in both if r["m"]["selective"]["latency_us"] > r["m"]["occup"]["latency_us"]]
    slow_wo = _r(100 * (_gmean([r["m"]["selective"]["latency_us"] / r["m"]["occup"]["latency_us"]
                                for r in both if r not in slow]) or 0))
    pd = summ.get("selective", {})
    pdrain = (_r(100 * pd["pipe_drain_us_mean"] / pd["latency_us_mean"])
              if pd.get("pipe_drain_us_mean") is not None and pd.get("latency_us_mean") else None)
    pdrain_k = pd.get("pipe_drain_share_mean")
    wv = sorted(((rows[i]["m"].get("selective", {}).get("worst_over_avg"), i) for i in worst_rows
                 if rows[i]["m"].get("selective", {}).get("worst_over_avg") is not None),
                reverse=True)
    wtop = [i for v, i in wv[:2]]
    wmed = _r(sorted(v for v, _ in wv)[len(wv) // 2] if len(wv) % 2 else
              sum(sorted(v for v, _ in wv)[len(wv) // 2 - 1:len(wv) // 2 + 1]) / 2, 2) if wv else None
    wrest = _r(_mean([v for v, i in wv[2:]]), 2) if len(wv) > 2 else None
    lk_sd = lk["m"].get("drain", {}).get("latency_us") if lk else None
    near = [r for r in sel_rows if r not in far]
    # why the far ones are far: without points (live+cp) a warp stops at once and waits only
    # for its loads in flight; with them it runs on to its loop's point (docs/context.md, "KM_1")
    far_why = "".join(
        f"{r['lin']}: without points (live+cp) the same signals wait "
        f"{r['m'].get('live_cp', {}).get('drain_us')} us, only for the loads in flight; the "
        f"kernel runs at IPC {r['m']['selective'].get('kernel_ipc')} on the whole GPU. "
        for r in far)
    if any(r["kernel"] == "km_invert_mapping" for r in far):
        far_why += ("KM_1's warps run on to the point at the head of nvcc's 4x unrolled loop "
                    "(nvcc unrolls it by 4 with or without the stand-in's pragma): up to four "
                    "dependent load-store steps, each load 32 uncoalesced L1 misses (136-byte "
                    "stride) that the SM's 32 MSHRs serve for all 48 warps in turn; the access "
                    "pattern is Rodinia's invert_mapping and the L1 GPGPU-Sim's GTX480, so this is "
                    "the kernel's drain on this setup, not a setup defect (docs/context.md). ")
    drain_wo = _r(_mean([r["m"]["selective"]["drain_us"] for r in near]), 3)
    lat_wo = _r(_mean([r["m"]["selective"]["latency_us"] for r in near]), 3)
    md = ["# lin-ch2-faithful: Lin's chapter 2 on the thesis's own setup", "",
          f"Generated by `experiments/sweep.py {os.path.relpath(ctx.sweep.path, ctx.root)}` "
          "from its results store; do not edit. Method: `experiments/lin-ch2-faithful.py`.", "",
          "Setup (issue 24): fermi-gtx480 with Table 2.1's 2 round-robin warp schedulers per SM "
          "(`sm.scheduler = lrr`); a preemption signal every 10,000 cycles until the run ends "
          "(L1052-L1057), each stopping one SM while the others run on; each Table 2.2 kernel "
          "on its own (`context.signal_kernel`: signals take only SMs whose CTAs all belong to "
          "the listed kernels; the records are grouped per kernel); warps drained as L930-L938 "
          "define it (`context.quiesce = writeback`: loads included); registers from one "
          "allocation (`sm.regs_source = regalloc`: occupancy, Occup's bytes and the live "
          "words). Every run verified its output.", "",
          "![liveness](liveness.png)", "", "![latency](latency.png)", "",
          "![context](context.png)", "",
          "![spill split](spill_split.png)", "", "![occupancy](occupancy.png)", ""]
    md += (["![K sweep](k_sweep.png)", ""] if kdev else [])
    md += [
          "## Faithful setup beside the earlier one and the thesis", "",
          md_table(["measure", "this run", "previous faithful", "lin-ch2 (earlier)", "Lin",
                    "note"], comp),
          "This run: the faithful setup with the per-warp save pipeline (`context.save_order = "
          "warp`). Previous faithful = the same setup with a TB's save starting once all its "
          "warps were drained and an SM's TBs saved one after another (`save_order = tb`; "
          "results/lin-ch2-faithful/previous-tb-order.json). Earlier = "
          "experiments/results/lin-ch2 (GTO schedulers, 15 signals spread over a small run, "
          "whole workloads, loads landing after the save, ptxas registers).", "",
          "What still differs, and why (the setup is now the thesis's; these are what is left):",
          "",
          "- **Code, not setup.** Our kernels are stand-ins compiled by nvcc to sm_75 PTX and "
          "allocated by Heddle's register allocator, not Rodinia's kernels in GT200 code: their "
          "registers per thread differ from Table 2.2 (Fig 2.3 table below: BP_1 has 10 "
          "registers here, 13 in the thesis) and so do the live sets at the points. Liveness is "
          "now measured as the thesis measures it (point arrivals, one allocation, arithmetic "
          "mean), so the live share left is a property of the code.",
          "- **Spill latency, per warp.** With the per-warp pipeline a warp's registers leave "
          "as soon as it is drained (Fig 2.13 step 5): Lin's per-warp latency (L1067-L1079: from "
          "the warp's point to its last register request) falls from "
          f"{pq('live_cp', 'warp_spill_per_warp_us_mean')} to "
          f"{g('live_cp', 'warp_spill_per_warp_us_mean')} us for live+cp and from "
          f"{pq('selective', 'warp_spill_per_warp_us_mean')} to "
          f"{g('selective', 'warp_spill_per_warp_us_mean')} us for selective. What is left "
          f"of the accumulated figure ({acc} us per signal for live+cp against Lin's 1.8) is "
          "how it is counted: when every warp stops at once (live+cp has no points; about "
          f"{nwarps} warps per signal) our count includes each warp's wait behind the warps "
          "drained before it in the SM's one save engine, so it grows with the square of the "
          "warps; Lin's per-warp latencies add up to about the bytes over the bandwidth (his "
          "1.8 of 9.9 us, 18.2 %, is his bytes ratio, 17.7 %), the service time alone. Ours "
          "as service time (`warp_service_cycles`: each warp from its first register request "
          "to its last, summed over the signal's warps) is "
          f"{g('live_cp', 'warp_service_us_mean')} us per signal for live+cp "
          f"({g('live_cp', 'warp_service_pct_of_occup_gmean')} % of Occup's signal-to-spilled, "
          f"gmean; Lin 1.8 us, 18.2 %), {g('live_cp', 'warp_service_per_warp_us_mean')} us per "
          "warp (its live registers through the compressor one per cycle, then its segments "
          "and pattern vector): the like-for-like figure for Lin's (his sum tracks his bytes, "
          "18.2 against 17.7 %, as a service time would). Ours is below our bytes ratio "
          f"({g('live_cp', 'bytes_pct_of_occup_gmean')} %, which also counts shared memory and "
          "stacks, not in the register service). For Occup the same sum is "
          f"{g('occup', 'warp_service_us_mean')} us per signal (Lin's Occup figure is signal "
          f"to spilled, {g('occup', 'latency_us_mean')} us here, 9.9 us in the thesis). The "
          f"engine spent {regs_cp} us per signal on live+cp's registers "
          "(the Fig 2.14 table below), and live+cp's wall spill time (quiet to empty) is "
          f"{wall_ratio} % of Occup's where its bytes are "
          f"{g('live_cp', 'bytes_pct_of_occup_gmean')} % (Lin: 18.2 and 17.7 %).",
          "- **Draining share.** On the wall clock (signal to the last warp quiet, over signal "
          f"to empty) the drain is {drain_share(summ)} % of the selective latency "
          f"({drain_share(prev) if prev else '-'} % in tb order): the spill now runs while "
          "the other warps drain, so little is left after the last one. Lin's Fig 2.15 bars "
          "read as drain + the Fig 2.14 spill stacked (4.0 = 2.2 + 1.8 us); read so, ours is "
          "the row above, whose spill part carries the queueing counted above. The mean drain "
          f"({g('selective', 'drain_us_mean')} us) is raised by {far_txt}, whose warps take "
          "that long from the signal to their loop's point with nothing in flight whatever the "
          f"save order (about as long in tb order). {far_why}Without "
          f"{'it' if len(far) == 1 else 'them'} the mean drain is "
          f"{drain_wo} us (Lin 2.2 us) and the selective latency {lat_wo} us (Lin 4.0). "
          "Selective over Occup is "
          f"{g('selective', 'latency_pct_of_occup_gmean')} % (Lin 40.3 %): Occup became "
          f"faster with the per-warp order ({pq('occup', 'latency_us_mean')} -> "
          f"{g('occup', 'latency_us_mean')} us: the engine starts on the first drained "
          "warp and the SM's CTAs interleave) while selective is mostly drain. The gmean is "
          "carried by the kernels where selective is slower than Occup, "
          + ", ".join(f"{r['lin']} ({_r(100 * r['m']['selective']['latency_us'] / r['m']['occup']['latency_us'], 0)} %, "
                      f"Occup {r['m']['occup']['latency_us']} us)" for r in slow)
          + f": without them it is {slow_wo} %. There the wait for the points outweighs the "
          "spill it saves: Occup is short where an SM holds little state (lud_diagonal's "
          "16-thread and lud_perimeter's 32-thread CTAs) or the drain is long (KM_1's "
          "memory-bound loop, docs/context.md). BFS_1+2's drain was long (9.1 us, 199 % of "
          "Occup) until session 14 for a setup reason, now fixed: the point pass had put both "
          "of bfs_level's loop points in its `visited == -1` branches (the fewest live words), "
          "which later levels rarely take, so a signalled warp ran on through its whole edge "
          "list; a loop's point is now the fewest-live instruction every iteration runs "
          "(docs/context.md, Preemption points; bfs small: drain 3.47 -> 0.83 us). Read as the thesis "
          "defines the drain (L1121-L1125: the spilling pipeline "
          "idle, waiting for warps; the latency less the pipeline's busy time) the drain is "
          f"{pdrain} % of the selective latency (mean drain over mean latency; {pdrain_k} % as "
          "the mean of per-kernel shares; Lin 55.8 %): the wall-clock share above counts the "
          "spill that overlaps the drain as drain.",
          "- **SM-draining waits for CTAs of our inputs**: the LK figure is the time for "
          "lk_gicov CTAs of the medium input to finish; the thesis's 1431 us are Rodinia's GICOV "
          "TBs on its input (not given for ch.2), whose per-TB work is not known to us. LK runs "
          "as `leukocyte_tb192_r18`, Table 2.2's GICOV geometry (192 threads, 18 registers "
          f"counted; {lk_geom}). The geometry is the thesis's; the work per thread is not: "
          "our lk_gicov samples 32 points on each of its 7 circles (workloads/leukocyte), "
          "Rodinia's GICOV kernel 150 (NPOINTS in Rodinia's source: outside knowledge, not in "
          "the thesis), so a TB runs about 150 / 32 = 4.7 times longer there. "
          + (f"Run so (`{LK150_WORKLOAD}`, the same settings, `lin-ch2-faithful.py lk150`): "
             f"{lk150_us} us over {(lk150j.get('drain') or {}).get('signals')} signals, "
             f"{_r(lk150_us / lk_sd, 2)} times the 32-point figure, against the thesis's 1431 "
             "us." if lk150_us and lk_sd else
             (f"{_r(lk_sd)} us x 4.7 = {_r(lk_sd * 150 / 32, 0)} us against 1431 (a "
              "proportionality estimate: `lin-ch2-faithful.py lk150 HEDDLE` runs it)."
              if lk_sd else "not run.")),
          "- **Worst/average** is over the kernels whose three runs each had at least 15 "
          f"signals (Fig 2.16's rule: {len(worst_rows)} kernels here, 12 in the thesis), each "
          "signal one SM; our medium inputs give CTAs of more even length than Rodinia's, which "
          "lowers SM-draining's spread, and selective's spread follows how far a warp is from "
          "its next point (kernels with long loop bodies or points only every K instructions)."
          + ((f" Selective's mean {g('selective', 'worst_over_avg_mean')} is carried by "
              + ", ".join(f"{rows[i]['lin']} ({rows[i]['m']['selective']['worst_over_avg']})"
                          for i in wtop)
              + f"; the median is {wmed}, the mean without those {wrest} (Lin 0.6): a kernel "
              "whose average is short (a few warps far from their point) turns one long drain "
              "into a large ratio.") if len(wv) > 2 else ""),
          "- **In-place** is its own sweep on this setup (experiments/results/lin-inplace: 8 "
          "pairs, selective points, Lin's allocation tables, Fig 2.4's split, and the thesis's "
          "stop in place, `context.inplace_stop`: every TB of the preempted SM stops at its "
          "point and only the TBs the tables name spill); the rows quote its mean of per-pair "
          "reductions on the same preemption (B's first request per SM under both policies), "
          "as the thesis averages: "
          + (f"{_r(ipm)} % as the save pipeline's busy time, {_r(ipw)} % with the register "
             "part accumulated per warp (Lin 21.5 %). The earlier negative figures averaged "
             "per request over different request sets, left shared memory out and let the "
             "CTAs the tables did not name run on, so a thread-limited A lost every CTA's "
             "registers (results/lin-inplace/report.md)." if ipmm else
             f"{_r(ipm)} % (SM wall time per request) and {_r(ipw)} % (accumulated per warp), "
             f"pooled {_r(ipo.get('spill_us'))} / {_r(ipo.get('warp_spill_us'))} %."), "",
          "## Liveness samples at the preemption points (Lin L630-L636)", "",
          "Per kernel, from the selective run: warps reaching a point in normal execution, "
          "registers per thread / source / allocator's count, CTAs per SM, live words over "
          "the allocation's registers, samples with live > occupied (must be 0).", "",
          md_table(["Lin", "kernel", "point arrivals", "regs/source/regalloc", "CTAs/SM",
                    "live %", "live > occupied"], livetab),
          "## The spilled state by part (Lin Fig 2.14)", "",
          "Per kernel, the bytes the switches wrote split into register records (with their "
          "pattern vectors), shared memory and SIMT stacks (with the CCB entries), in % of "
          "the bytes, for Occup and live+cp, beside the spill latency (the SM's wall time "
          "from quiet to empty; the engine writes the parts in that order at one rate, so the "
          "time splits about as the bytes do). Lin: registers dominate Occup everywhere but HG; "
          "shared memory > 20 % of the spill for DWT, HW and HG; the SIMT stack visible only "
          "for BFS (L1080-L1094).", "",
          md_table(["Lin", "kernel", "Occup regs/smem/stack %", "live+cp regs/smem/stack %",
                    "spill us Occup", "spill us live+cp"], splittab),
          "## The spill latency by part, as time (Lin Fig 2.14)", "",
          "Lin splits each technique's spill latency into the register file, shared memory and "
          "SIMT stack (L1067-L1094). Here, per signal: the cycles in which the SM's context "
          "engine sent, or waited to send, requests of each part of the switched CTAs' saves "
          "(registers with their pattern vectors and the compressor's and packer's waits / "
          "shared memory / SIMT stacks with the CCB entries; `cycles_regs`, `cycles_smem`, "
          "`cycles_stack` of each preemption record; a cycle counts once per part and CTA, so "
          "with per-warp saves the parts of different CTAs overlap), in us; beside them Lin's "
          "accumulated per-warp register latency. Means over the kernels:", "",
          md_table(["technique", "regs us", "smem us", "stack us", "regs %", "smem %",
                    "stack %"], timesum),
          "Per kernel (regs / smem / stack, us per signal):", "",
          md_table(["Lin", "kernel", "Occup", "live+cp", "selective",
                    "live+cp accumulated per warp us", "live+cp service accumulated per warp us",
                    "selective accumulated per warp us"],
                   timetab),
          "## Register-file and shared-memory occupancy (Lin Fig 2.3)", "",
          "A full SM of the kernel's CTAs on an empty SM: CTAs per SM x registers per thread x "
          "threads over the register file, CTAs per SM x shared memory per CTA over 48 KB "
          "(without allocation granules). Lin's BP_1: 60.9 % and 13.7 % (L514-L517).", "",
          md_table(["Lin", "kernel", "CTAs/SM", "register file %", "shared memory %"], occtab),
          "## K of the selective points (Lin L842-L844: 100 to 1000 has little effect)", "",
          md_table(["Lin", "kernel"] + [f"latency us K={k}" for k, _ in kran]
                   + [f"B/CTA K={k}" for k, _ in kran], ktab)
          if ktab else "(not run)", "",
          ksent, "",
          "## Per kernel and technique", "",
          md_table(["Lin", "kernel", "size", "technique", "signals", "signals on other kernels",
                    "B/CTA", "drain us", "spill us", "spill us accumulated per warp",
                    "service us accumulated per warp", "latency us", "worst/avg-1 (>= 15 signals)"], per),
          "", f"{len(ctx.sweep.points)} heddle runs of {ctx.identity}; every row in "
          "[points.csv](points.csv).", ""]
    ctx.write_text("report.md", "\n".join(md))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif len(sys.argv) == 3 and sys.argv[1] == "lk150":
        lk150(sys.argv[2])
    else:
        sys.exit("usage: lin-ch2-faithful.py write OUT.toml [tiny]\n"
                 "       lin-ch2-faithful.py lk150 HEDDLE")
