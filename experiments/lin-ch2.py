# SPDX-License-Identifier: MIT
"""lin-ch2: Lin's thesis chapter 2 (lightweight context switching, SC'16) on our stand-ins for
its Table 2.2 kernels, GTX480 configuration, 15 preemption signals spread uniformly over each
kernel's own run, one run per preemption technique. Run it with experiments/lin-ch2.sh.

Two stages. Stage 1 (experiments/lin-ch2.toml) runs every workload alone and collects its
length in cycles. `python3 experiments/lin-ch2.py signals STAGE1.csv STAGE1.toml OUT.toml`
then writes stage 2: the stage-1 grid again (already in the store, so not rerun) plus, per
workload and technique of TECHNIQUES, a run with [context] signals = SIGNALS and signal_span =
that length. The analysis below (report) reads stage 2's points.

Per preemption (the statistics JSON's `preemptions`, records with launch "signal", one per SM
and signal; ctx_preempt.c): latency = freed - signal (the SM is empty), its drain part =
quiet - signal (victims quiet: at a selective point, or drained), its spill part = freed -
quiet; bytes saved, CTAs switched. Context per CTA = bytes / CTAs switched. Paper numbers: the
digest ../shared/reference/papers/lin-thesis-preemption-gpuduet-ccbp.md §6.1, each with its
source lines; nothing here is fitted to them.

Adding a technique is one line of TECHNIQUES: (name, label, {parameter: value}).
"""

import json
import math
import os

from heddle_sweep import stage

SIGNALS = 15     # Lin §5.4 / Fig 2.16: 15 preemption signals per kernel
SIGNAL_SMS = 1   # Lin L1052-L1057: on a signal one SM stops and spills, the others run on

# The techniques compared: name, Lin's label, the [context] settings that select it. A
# technique the binary does not know fails its points with heddle's message (a `failed` point),
# so a line may be added before the model has the mechanism.
TECHNIQUES = [
    ("occup", "Occup (switch every occupied byte)",
     {"context.preempt": "switch", "context.save": "occupied"}),
    ("live", "live (liveness)", {"context.preempt": "switch", "context.save": "live"}),
    ("live_cp", "live+cp (liveness + warp-level compression)",
     {"context.preempt": "switch", "context.save": "compressed"}),
    ("selective", "selective (live+cp at pp/bar.pp points)",
     {"context.preempt": "switch", "context.save": "compressed", "context.points": "selective"}),
    ("drain", "SM-draining", {"context.preempt": "drain"}),
    ("selective_tb", "selective + TB-level compression at barrier points (not adopted, §2.3.3)",
     {"context.preempt": "switch", "context.save": "compressed_tb", "context.points": "selective"}),
    # in-place switching needs an arriving launch: experiments/lin-inplace (its result is quoted)
]
BASELINE = "occup"

# Lin Table 2.2 label(s) of each stand-in (the thesis combines multi-kernel benchmarks).
LIN_LABEL = {"backprop": "BP", "bfs": "BFS", "btree": "BT", "cfd": "CFD", "hotspot": "HS",
             "kmeans": "KM", "leukocyte": "LK", "lud": "LUD", "srad": "SR", "pathfinder": "PF",
             "streamcluster": "SC", "histogram": "HG (hybridsort)", "dwt2d": "DWT",
             "heartwall": "HW"}

D = "Lin thesis digest §6.1"
PAPER = {
    "reg_live_reduction_pct": (34.3, D + ": liveness alone, L653-L655"),
    "reg_live_cp_reduction_pct": (91.5, D + ": liveness + warp-level compression, L41, L712"),
    "bp1_occupied_bytes_per_warp": (1664, D + ": BP_1 13 regs x 4 B x 32, L494"),
    "bp1_live_bytes_per_warp": (656, D + ": BP_1 39.6 % live, L636, L653"),
    "bp1_live_cp_bytes_per_warp": (64, D + ": BP_1 47.4 % uniform / 52.6 % strided, L708-L711"),
    "spill_occup_us": (9.9, D + ": average spill latency, Occup, L1100-L1105"),
    "spill_live_cp_us": (1.8, D + ": average spill latency, live+cp, L1100-L1105"),
    "spilled_state_pct_of_occup": (17.7, D + ": geomean total spilled state, L1100-L1105"),
    "preempt_occup_us": (9.9, D + ": preemption latency, Occup, L1134-L1138"),
    "preempt_selective_us": (4.0, D + ": preemption latency, selective, L1134-L1138"),
    "preempt_selective_reduction_pct": (59.7, D + ": selective vs Occup (to 40.3 %), L45, L335"),
    "drain_share_of_selective_pct": (55.8, D + ": draining part of selective latency, L1138"),
    "sm_draining_lk_us": (1431.1, D + ": SM-draining, LK average, L1145-L1147"),
    "worst_over_avg_occup": (0.4, D + ": worst/average difference, Occup, L1159-L1176"),
    "worst_over_avg_selective": (0.6, D + ": selective, L1159-L1176"),
    "worst_over_avg_drain": (2.4, D + ": SM-draining, L1159-L1176"),
    "inplace_further_reduction_pct": (21.5, D + ": in-place, 8 random pairs, L1180-L1200"),
    "tb_further_reduction_pct": (36.1, D + ": TB-level compression at barrier points, a further "
                                 "reduction, L808-L812"),
}
INPLACE_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "lin-inplace",
                            "lin-inplace.json")

# What the statistics do not give yet (said in the report, not guessed).
MISSING = [
    "the saved bytes of a preemption split into registers, shared memory and SIMT stack "
    "(Fig 2.14's components; `preemptions` records give only the total `bytes`): the register "
    "context per warp below is (bytes per CTA - the CTA's shared memory) / warps per CTA, so it "
    "still holds the SIMT-stack record of each warp (16 + 12 B per entry)",
    "the pattern of every saved register (dead / uniform / strided / random, Fig 2.6 and 2.8): "
    "no per-class counters of the compressor in the statistics JSON",
    "the live-register count per warp at the point where it stopped (Lin's measure of "
    "liveness, L630-L636): only the bytes written",
    "in-place switching under signals: a signal empties whole SMs with no launch asking, so "
    "[context] preempt_policy = inplace does not apply here; its row quotes "
    "experiments/results/lin-inplace (8 contended pairs, a launch arriving at priority 1)",
]


# ---- stage 2: the signal runs -------------------------------------------------------------

def _toml_value(v):
    return f'"{v}"' if isinstance(v, str) else str(v)


def write_stage2(stage1_csv, stage1_toml, out_toml):
    """Stage 2's sweep file from stage 1's tidy table (sweep.py STAGE1 --csv)."""
    rows = stage.read_stage1(stage1_csv, "lin-ch2.py")
    here = os.path.dirname(os.path.abspath(__file__))
    rel = os.path.relpath(os.path.join(here, "lin-ch2.py"),
                          os.path.dirname(os.path.abspath(out_toml)))
    lines = ["# SPDX-License-Identifier: MIT",
             f"# lin-ch2, stage 2: generated by experiments/lin-ch2.py from {stage1_toml};"
             " do not edit.",
             "# The standalone grid of stage 1 (stored already) and, per workload and"
             " technique, one run with",
             f"# {SIGNALS} preemption signals spread over the workload's standalone length"
             " (signal_span, cycles).", "",
             "[sweep]", 'name = "lin-ch2"',
             'description = "Lin ch.2 preemption techniques on the Table 2.2 stand-ins, '
             f'{SIGNALS} signals per run (GTX480)"',
             f'analysis = "{rel}"', "quiet = true", "timeout = 1800", ""]
    lines += stage.standalone_grid(rows)
    for r in rows:
        for name, _, sets in TECHNIQUES:
            lines += [f"[[grid]]   # {r['workload']}: {name}", f'workload = "{r["workload"]}"',
                      f'config = "{r["config"]}"', f'size = "{r["size"]}"',
                      f"set.context.signals = {SIGNALS}",
                      f"set.context.signal_sms = {SIGNAL_SMS}",
                      f"set.context.signal_span = {int(float(r['cycles']))}"]
            lines += [f"set.{k} = {_toml_value(v)}" for k, v in sets.items()]
            lines.append("")
    stage.write_sweep(out_toml, lines)


# ---- the report -----------------------------------------------------------------------------

def _technique_of(axes):
    """The technique whose settings are exactly the point's [context] settings (None: the
    standalone run)."""
    sets = {k[4:]: v for k, v in axes.items() if k.startswith("set.")
            and k not in ("set.context.signals", "set.context.signal_span",
                          "set.context.signal_sms")}
    if "set.context.signals" not in axes:
        return None
    for name, _, want in TECHNIQUES:
        if {k: str(v) for k, v in want.items()} == sets:
            return name
    return "?"


def _mean(xs):
    return sum(xs) / len(xs) if xs else None


def _gmean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def _r(v, nd=1):
    return None if v is None else round(v, nd)


def measure(rec, mhz):
    """The preemption figures of one signal run."""
    t = rec["data"]["timing"]
    launches = {l["id"]: l for l in t["launches"]}
    recs = [p for p in t["preemptions"] if p["launch"] == "signal" and p["met"]]
    sw = [p for p in recs if p["switched"]]
    lat = [p["freed"] - p["signal"] for p in recs]
    # quiet: victims quiet (at their points, or stopped); a drained SM has no save part
    quiet = [p["freed"] if p["primitive"] == "drain" or p["quiet"] < p["signal"] else
             min(p["quiet"], p["freed"]) for p in recs]
    drain = [q - p["signal"] for p, q in zip(recs, quiet)]
    spill = [p["freed"] - q for p, q in zip(recs, quiet)]
    ctas = sum(p["switched"] for p in sw)
    nbytes = sum(p["bytes"] for p in sw)
    # registers per warp: (bytes - shared memory) / warps, over the switched CTAs
    smem = sum(p["switched"] * launches[p["victim"]]["shared_bytes"] for p in sw
               if p["victim"] in launches)
    warps = sum(p["switched"] * -(-math.prod(launches[p["victim"]]["block"]) // 32) for p in sw
                if p["victim"] in launches)
    # occupied registers per warp of the same CTAs (their launches' registers per thread); for
    # SM-draining (nothing saved) the mean over the launches
    occ = sum(p["switched"] * -(-math.prod(launches[p["victim"]]["block"]) // 32) *
              launches[p["victim"]]["regs_per_thread"] * 128 for p in sw if p["victim"] in launches)
    occ_warp = occ / warps if warps else _mean([l["regs_per_thread"] * 128 for l in t["launches"]])
    return {
        "signals_with_ctas": len({p["signal"] for p in recs}),
        "sm_requests": len(recs),
        "unmet": sum(1 for p in t["preemptions"] if p["launch"] == "signal" and not p["met"]),
        "ctas_switched": ctas, "ctas_drained": sum(p["drained"] for p in recs),
        "bytes": nbytes,
        "bytes_per_cta": round(nbytes / ctas) if ctas else None,
        "reg_bytes_per_warp": round((nbytes - smem) / warps) if warps else None,
        "occupied_reg_bytes_per_warp": round(occ_warp) if occ_warp else None,
        "latency_us": _r(_mean(lat) / mhz, 3) if lat else None,
        "drain_us": _r(_mean(drain) / mhz, 3) if drain else None,
        "spill_us": _r(_mean(spill) / mhz, 3) if spill else None,
        "worst_us": _r(max(lat) / mhz, 3) if lat else None,
        "worst_over_avg": _r(max(lat) / _mean(lat) - 1, 2) if lat and _mean(lat) else None,
        "cycles": t["totals"]["cycles"],
    }


def report(ctx):
    from heddle_sweep import figures
    from heddle_sweep.report import md_table

    from heddle_sweep import SweepError
    from heddle_sweep.heddle import parse_stats

    runs, alone = {}, {}
    for p, key in zip(ctx.sweep.points, ctx.keys):
        row = ctx.store.rows([key]).get(key)
        if row is None:
            raise SweepError(f"lin-ch2: the point {p.label()} has no result in the store")
        data = parse_stats(row["stats"])
        tech = _technique_of(p.axes)
        if tech is None:
            alone[p.axes["workload"]] = data["timing"]["totals"]
        else:
            runs[(p.axes["workload"], tech)] = {"data": data}
    wls = sorted(alone, key=lambda w: list(LIN_LABEL).index(w) if w in LIN_LABEL else 99)
    techs = [t for t, _, _ in TECHNIQUES if any((w, t) in runs for w in wls)]
    res = {}
    for w in wls:
        mhz = alone[w]["core_mhz"]
        res[w] = {"lin": LIN_LABEL.get(w, w), "standalone_cycles": alone[w]["cycles"],
                  "techniques": {t: measure(runs[(w, t)], mhz) for t in techs
                                 if (w, t) in runs}}

    def col(t, k):
        return [res[w]["techniques"].get(t, {}).get(k) for w in wls]

    def ratio_to(t, k, base=BASELINE):
        out = []
        for w in wls:
            a = res[w]["techniques"].get(t, {}).get(k)
            b = res[w]["techniques"].get(base, {}).get(k)
            out.append(a / b if a is not None and b else None)
        return out

    def reg_share(t):
        """Saved register bytes per warp over the occupied ones of the same CTAs."""
        out = []
        for w in wls:
            m = res[w]["techniques"].get(t, {})
            a, b = m.get("reg_bytes_per_warp"), m.get("occupied_reg_bytes_per_warp")
            out.append(a / b if a is not None and b else None)
        return out

    summary = {}
    for t in techs:
        summary[t] = {
            "context_pct_of_occup_gmean": _r(100 * (_gmean(ratio_to(t, "bytes_per_cta")) or 0)),
            "reg_pct_of_occup_gmean": _r(100 * (_gmean(reg_share(t)) or 0)),
            "latency_us_mean": _r(_mean([v for v in col(t, "latency_us") if v is not None]), 3),
            "spill_us_mean": _r(_mean([v for v in col(t, "spill_us") if v is not None]), 3),
            "drain_us_mean": _r(_mean([v for v in col(t, "drain_us") if v is not None]), 3),
            "latency_pct_of_occup_gmean": _r(100 * (_gmean(ratio_to(t, "latency_us")) or 0)),
            "worst_over_avg_mean": _r(_mean([v for v in col(t, "worst_over_avg")
                                             if v is not None]), 2),
        }
    ctx.write_json("lin-ch2.json", {"experiment": "lin-ch2", "signals": SIGNALS,
                                    "techniques": {n: {"label": l, "settings": s}
                                                   for n, l, s in TECHNIQUES},
                                    "kernels": res, "summary": summary,
                                    "paper": {k: {"value": v, "source": s}
                                              for k, (v, s) in PAPER.items()},
                                    "missing_from_statistics": MISSING})
    ctx.write_csv("points.csv")

    labels = [res[w]["lin"] for w in wls]
    panels = [
        {"title": "Saved context per CTA, normalised to Occup", "ylabel": "x Occup",
         "categories": labels, "series": {t: ratio_to(t, "bytes_per_cta")
                                          for t in techs if t != "drain"},
         "geomean": True, "rotate": 60},
        {"title": "Preemption latency per SM (signal -> SM empty)", "ylabel": "us",
         "categories": labels, "series": {t: col(t, "latency_us") for t in techs},
         "log": True, "rotate": 60},
    ]
    figures.bar_panels(ctx.path("context.png"), panels[:1], width=10,
                       suptitle="Register + shared-memory context per CTA (Lin Fig 2.6/2.14)")
    figures.bar_panels(ctx.path("latency.png"), panels[1:], width=10,
                       suptitle="Preemption latency per technique (Lin Fig 2.15), "
                       f"{SIGNALS} signals per kernel")

    def pv(k):
        return PAPER[k][0]

    s = summary
    get = lambda t, k: s.get(t, {}).get(k)   # noqa: E731
    ip, ip_note = {}, "; Heddle: not run (experiments/lin-inplace.toml)"
    if os.path.exists(INPLACE_JSON):
        j = json.load(open(INPLACE_JSON))
        # the thesis averages its pairs' reductions: the mean of the per-pair reductions is the
        # comparable figure (issue 24); the pooled one is given beside it
        ip = {k: _r(v) for k, v in (j.get("mean_reduction_percent") or {}).items()}
        pooled = (j.get("pooled_reduction_percent") or {}).get("spill_us")
        ip_note = ("; Heddle: experiments/results/lin-inplace, the mean of its per-pair "
                   f"reductions (pooled over the pairs: {_r(pooled)})")
    comp = [
        ["register context, live (% of occupied registers, gmean)", get("live", "reg_pct_of_occup_gmean"),
         f"{100 - pv('reg_live_reduction_pct'):.1f}", PAPER["reg_live_reduction_pct"][1]],
        ["register context, live+cp (% of occupied registers, gmean)",
         get("live_cp", "reg_pct_of_occup_gmean"),
         f"{100 - pv('reg_live_cp_reduction_pct'):.1f}", PAPER["reg_live_cp_reduction_pct"][1]],
        ["total spilled state, live+cp (% of Occup, gmean)",
         get("live_cp", "context_pct_of_occup_gmean"), pv("spilled_state_pct_of_occup"),
         PAPER["spilled_state_pct_of_occup"][1]],
        ["spill latency, Occup (us, mean)", get("occup", "spill_us_mean"),
         pv("spill_occup_us"), PAPER["spill_occup_us"][1]],
        ["spill latency, live+cp (us, mean)", get("live_cp", "spill_us_mean"),
         pv("spill_live_cp_us"), PAPER["spill_live_cp_us"][1]],
        ["preemption latency, Occup (us, mean)", get("occup", "latency_us_mean"),
         pv("preempt_occup_us"), PAPER["preempt_occup_us"][1]],
        ["preemption latency, selective (us, mean)", get("selective", "latency_us_mean"),
         pv("preempt_selective_us"), PAPER["preempt_selective_us"][1]],
        ["preemption latency, selective (% of Occup, gmean)",
         get("selective", "latency_pct_of_occup_gmean"),
         f"{100 - pv('preempt_selective_reduction_pct'):.1f}",
         PAPER["preempt_selective_reduction_pct"][1]],
        ["draining share of selective latency (%)",
         _r(100 * get("selective", "drain_us_mean") / get("selective", "latency_us_mean"))
         if get("selective", "latency_us_mean") else None,
         pv("drain_share_of_selective_pct"), PAPER["drain_share_of_selective_pct"][1]],
        ["SM-draining latency, LK (us)",
         res.get("leukocyte", {}).get("techniques", {}).get("drain", {}).get("latency_us"),
         pv("sm_draining_lk_us"), PAPER["sm_draining_lk_us"][1]],
        ["worst/average - 1, Occup", get("occup", "worst_over_avg_mean"),
         pv("worst_over_avg_occup"), PAPER["worst_over_avg_occup"][1]],
        ["worst/average - 1, selective", get("selective", "worst_over_avg_mean"),
         pv("worst_over_avg_selective"), PAPER["worst_over_avg_selective"][1]],
        ["worst/average - 1, SM-draining", get("drain", "worst_over_avg_mean"),
         pv("worst_over_avg_drain"), PAPER["worst_over_avg_drain"][1]],
        ["in-place, further spill reduction (%, mean of pairs)", ip.get("spill_us"),
         pv("inplace_further_reduction_pct"),
         PAPER["inplace_further_reduction_pct"][1] + ip_note],
        ["TB-level, further register-context reduction vs selective live+cp (%)",
         _r(100 * (1 - get("selective_tb", "reg_pct_of_occup_gmean") /
                   get("selective", "reg_pct_of_occup_gmean")))
         if get("selective_tb", "reg_pct_of_occup_gmean") is not None and
         get("selective", "reg_pct_of_occup_gmean") else None,
         pv("tb_further_reduction_pct"), PAPER["tb_further_reduction_pct"][1] +
         " (ours: the same signals, save = compressed_tb, only CTAs stopped at a barrier point "
         "are TB-level)"],
    ]
    bp = res.get("backprop", {}).get("techniques", {})
    comp += [[f"backprop register bytes per warp, {t}",
              bp.get(t, {}).get("reg_bytes_per_warp"), pv(k), PAPER[k][1]]
             for t, k in (("occup", "bp1_occupied_bytes_per_warp"),
                          ("live", "bp1_live_bytes_per_warp"),
                          ("live_cp", "bp1_live_cp_bytes_per_warp"))]
    for row in comp:
        ours, lin = row[1], row[2]
        try:
            lv = float(lin)
            row.insert(3, f"{ours - lv:+.3g} ({100 * (ours - lv) / lv:+.0f} %)"
                       if ours is not None and lv else "")
        except (TypeError, ValueError):
            row.insert(3, "")
    per = []
    for w in wls:
        for t in techs:
            m = res[w]["techniques"].get(t)
            if m:
                per.append([w, res[w]["lin"], t, m["signals_with_ctas"], m["ctas_switched"],
                            m["ctas_drained"], m["bytes_per_cta"], m["reg_bytes_per_warp"],
                            m["occupied_reg_bytes_per_warp"], m["drain_us"], m["spill_us"],
                            m["latency_us"], m["worst_over_avg"], m["unmet"]])
    md = ["# lin-ch2: Lin's chapter 2 preemption techniques on our Table 2.2 stand-ins", "",
          f"Generated by `experiments/sweep.py {os.path.relpath(ctx.sweep.path, ctx.root)}` "
          "(stage 2 of `experiments/lin-ch2.sh`) from its results store; do not edit. "
          "Method: `experiments/lin-ch2.py`.", "",
          f"Configuration fermi-gtx480 (Lin Table 2.1: 15 SMs, 700 MHz). Per workload a "
          f"standalone run, then per technique a run with {SIGNALS} preemption signals at "
          f"span x i / {SIGNALS + 1} (span = the standalone cycles); each signal empties "
          f"{SIGNAL_SMS} SM with the technique (signal i: SM i) and its CTAs resume "
          "afterwards; every run verified its output.",
          "", "![context](context.png)", "", "![latency](latency.png)", "",
          "## Ours beside the thesis", "",
          md_table(["measure", "Heddle", "Lin", "Heddle - Lin", "source"], comp),
          "Ours are means over the preemptions (one per signal that found CTAs on its SM) and "
          "over kernels; the thesis's are averages over its benchmarks. `worst/average - 1` is "
          "our reading of Fig 2.16's 'difference'.", "",
          "Why ours differs (structural, nothing here is tuned to the thesis):", "",
          "- as in Lin (L1052-L1057) a signal empties one SM (`signal_sms = 1`, signal i on SM "
          "i) while the others run on; Lin's signals come every 10,000 cycles for up to 200 M "
          "cycles, ours are 15 spread over the kernel's standalone run;",
          "- register counts are ptxas's for sm_75 ([sm] regs_source = ptxas in "
          "configs/fermi-gtx480.ini) and liveness is computed on that PTX by our allocator, "
          "not GT200 code; some stand-ins use more registers than Lin's Table 2.2 (see "
          "workloads/*/README.md), which raises Occup and the share liveness removes;",
          "- the inputs are ours at the size of the sweep (small by default: runs of 10^4 to "
          "10^5 cycles), so a signal can come while the previous one is still being served on "
          "an SM (it is then not repeated there: `signals` counts those that found CTAs) and "
          "SM-draining waits for CTAs of our lengths, not Rodinia's;",
          "- the drain part of a switch is the time until the victims are quiet (at once with "
          "`points = any`, at their next pp/bar.pp point with `selective`); Lin's spill "
          "latency of live/live+cp accumulates per-warp latencies from each warp's point "
          "(L1079), ours is the SM's wall time from quiet to empty;",
          "- TB-level compression (`selective_tb`, save = compressed_tb) applies only to a "
          "CTA whose warps all stopped at the same barrier point; CTAs stopped at a `pp` point "
          "or elsewhere are saved warp-level, and kernels whose points are all `pp` (bfs) gain "
          "nothing; where it applies, only the global classes are stored once per TB (the "
          "local ones stay in the warp records, as the thesis's local classes are stored at "
          "warp level). The thesis's -36.1 % is over its barrier points of every TB, ours over "
          "the CTAs the signals actually switched.", "",
          "## Techniques", "",
          md_table(["name", "Lin's label", "settings"],
                   [[n, l, ", ".join(f"{k}={v}" for k, v in s.items())]
                    for n, l, s in TECHNIQUES]),
          "## Per kernel and technique", "",
          md_table(["workload", "Lin", "technique", "signals", "CTAs switched",
                    "CTAs drained", "B/CTA", "reg B/warp", "occupied reg B/warp",
                    "drain us", "spill us", "latency us", "worst/avg-1", "unmet"], per),
          "## Not in the statistics yet", ""] + [f"- {m}" for m in MISSING] + [
          "", "## Points", "", f"{len(ctx.sweep.points)} heddle runs of {ctx.identity}; "
          "every row in [points.csv](points.csv).", ""]
    ctx.write_text("report.md", "\n".join(md))


if __name__ == "__main__":
    stage.main("lin-ch2.py", [("signals", write_stage2, "STAGE1.csv STAGE1.toml OUT.toml", "")])
