# SPDX-License-Identifier: MIT
"""expars: the report of experiments/expars.toml (EXPARS, Yu et al. TACO 2018; docs/expars.md).

Per Table 3 stand-in (configs/fermi-gtx480.ini) and scheduler: cycles of Baseline, of the
iso-storage control (RF + 2 KB) and of EXPARS; performance = Baseline cycles / cycles - 1
(cycles, not IPC: digest §5.3); mean resident warps per SM over the run (resident warp-cycles /
(cycles x SMs used), summed over launches); energy = the energy model's run energy
(power.energy_j, docs/power.md, with EXPARS's scratchpad passes, operand-cache accesses and
blocks priced) / Baseline's on the same scheduler - 1, and the EXPARS structures'
share of it; the static metrics of §5.3 (CTAs, warps, RF / scratchpad / overall utilisation of
Baseline, Warpman and EXPARS) of each stand-in's Table 3 kernel at the footprint its Baseline
run launched (the calculator through `heddle ptx-info`); arithmetic and geometric means over
the stand-ins. Then the §4.6 Maxwell static study (Table 4, Fig. 16-17). Every number of ours
comes from the store or the calculator; the paper's are the published ones with their lines
(digest ../shared/reference/papers/expars.md). Table 3's own footprints reproduce the paper's
static averages exactly in tests/unit/test_expars_calc.c (Appendix A)."""

import math
import os
import re
import subprocess

from heddle_sweep import SweepError, figures
from heddle_sweep.heddle import sha256_file
from heddle_sweep.report import md_table

NAMES = {"lbm_r36": "LBM", "stencil3d_r28": "ST", "mriq_r28": "MQ", "sgemm_c2_r44": "SGE",
         "hotspot_r36": "HS", "leukocyte_tb192_r24": "LEUK", "montecarlo": "MC",
         "convsep_tb192_r24": "CONV", "estimatepi_r24": "EST", "mergesort_tb512_r24": "MERG",
         "quasirandom_r32": "QUA", "asianoption_r24": "SING1", "asianoption": "SING2"}
# each stand-in's Table 3 kernel (workloads/README.md "EXPARS Table 3")
TABLE3_KERNEL = {"lbm_r36": "lbm_stream_collide", "stencil3d_r28": "stencil7",
                 "mriq_r28": "compute_q", "sgemm_c2_r44": "sgemm_tiled",
                 "hotspot_r36": "hs_calculate_temp", "leukocyte_tb192_r24": "lk_gicov",
                 "montecarlo": "mc_price", "convsep_tb192_r24": "conv_rows",
                 "estimatepi_r24": "est_init_rng", "mergesort_tb512_r24": "msort_block",
                 "quasirandom_r32": "qrng_generate", "asianoption_r24": "asian_init_rng",
                 "asianoption": "asian_gen_paths"}
# The input-size variants (token wN, workloads/README.md "EXPARS Table 3 at >= 3 waves"): the
# same footprints on a small input whose Table 3 kernel runs N full waves at Baseline's CTAs per
# SM on 15 SMs, >= 3 at EXPARS's (expars.toml, the default experiment).
WAVES_OF = {"lbm_r36_w4": "lbm_r36", "stencil3d_r28_w5": "stencil3d_r28",
            "mriq_r28_w5": "mriq_r28", "sgemm_c2_r44_w5": "sgemm_c2_r44",
            "hotspot_r36_w4": "hotspot_r36", "leukocyte_tb192_r24_w4": "leukocyte_tb192_r24",
            "montecarlo_w4": "montecarlo", "convsep_tb192_r24_w4": "convsep_tb192_r24",
            "estimatepi_r24_w4": "estimatepi_r24", "mergesort_tb512_r24_w5": "mergesort_tb512_r24",
            "quasirandom_r32_w5": "quasirandom_r32", "asianoption_r24_w4": "asianoption_r24",
            "asianoption_w5": "asianoption"}
NAMES.update({w: NAMES[b] for w, b in WAVES_OF.items()})
TABLE3_KERNEL.update({w: TABLE3_KERNEL[b] for w, b in WAVES_OF.items()})
SCHEDS = ["lrr", "gto", "two_level"]
COLS = SCHEDS + ["ltlws_lrr", "ltlws_gto"]
BASE_OF = {"lrr": "lrr", "gto": "gto", "two_level": "two_level", "ltlws_lrr": "lrr",
           "ltlws_gto": "gto"}
PAPER = {"lrr": 12.01, "gto": 9.34, "two_level": 7.55, "ltlws_lrr": 12.53, "ltlws_gto": 20.01}
PAPER_SRC = "digest §6.4 (L307, L309)"
# §6.2-6.3 (L274-L298): static means over Table 3's 14 kernels on the Fermi SM
PAPER_STATIC = {"baseline": {"ctas": 4.29, "warps": 32.86, "rf": 88.21, "spm": 5.58,
                             "overall": 65.68},
                "warpman": {"ctas": 5.07, "warps": 36.64, "rf": 98.62, "spm": 7.59,
                            "overall": 73.80},
                "expars": {"ctas": 5.50, "warps": 43.43, "rf": 99.85, "spm": 53.78,
                           "overall": 87.28}}
# per-kernel figures the text gives (L302, L309; "about" for SGE): performance %
PAPER_KERNEL = {("MQ", "ltlws_lrr"): "+37.54", ("MQ", "ltlws_gto"): "+62.18",
                ("SGE", "gto"): "about +52", ("SGE", "lrr"): "about +40",
                ("SGE", "two_level"): "about +40"}
# §6.5 (L313, L327): energy with EXPARS against Baseline, LTLWS-LRR
PAPER_ENERGY = {"MQ": "-27", "ST": "about -10", "EST": "about -10", "SING1": "about -10"}
PAPER_ENERGY_RATIO = {"MQ": "0.73", "ST": "~0.90", "EST": "~0.90", "SING1": "~0.90"}
CONFIG_NAMES = {"baseline": "Baseline", "warpman": "Warpman", "expars": "EXPARS"}
METRICS = [("ctas", "CTAs per SM"), ("warps", "warps per SM"), ("rf", "RF utilisation %"),
           ("spm", "scratchpad utilisation %"), ("overall", "overall utilisation %")]


def _warps(data):
    t = data["timing"]
    rw = sum(l.get("resident_warp_cycles", 0) for l in t["launches"])
    den = sum(l["cycles"] * max(1, l.get("sms_used", 1)) for l in t["launches"])
    return rw / den if den else 0.0


MISSING = []  # (workload, allocator, registers, scheduler) of the sweep's points with no result


def _data(ctx, wl, alloc, regs, sched, ideal=False):
    """The point's statistics, or None when the sweep has no such point (a configuration the
    sweep does not run, as expars-medium.toml leaves out two-level). ideal: the bound's point
    ([expars] ideal = true), otherwise a point without that axis."""
    iv = "true" if ideal else None
    if not any(p.axes.get("workload") == wl and p.axes.get("set.sm.allocator") == alloc and
               p.axes.get("set.sm.scheduler") == sched and
               p.axes.get("set.expars.ideal") == iv and
               str(p.axes.get("set.sm.registers")) == str(regs) for p in ctx.sweep.points):
        return None
    try:
        return ctx.record(workload=wl, set__sm__allocator=alloc, set__sm__registers=regs,
                          set__sm__scheduler=sched, set__expars__ideal=iv)["data"]
    except SweepError as e:
        # a point of the sweep not run yet (a report written while the sweep runs, or of a
        # sweep stopped early): shown as "-" and counted in the report's first lines
        if "has no result in the store" not in str(e):
            raise
        MISSING.append((wl, alloc, regs, sched))
        return None


def _energy(d):
    """(run energy J, EXPARS structures' energy J, dynamic J) from the energy model's report:
    the structures are the register lines through the scratchpad (e_smem_pass_pj each), the
    operand-cache accesses, reads included (e_opc_word_pj), and the added-RTL component (EXPARS's
    blocks: expars_rat, expars_oc_tags, expars_arb, expars_cta_calc, expars_pref, and
    expars_ltlws under an LTLWS scheduler; docs/power.md "Added structures")."""
    pw = d.get("power")
    if not pw:
        raise SweepError("expars.py: a point has no \"power\" in its statistics ([power] "
                         "enabled = false?)")
    e, c = pw["events"], d["timing"]["config"]["power"]
    x = (e.get("expars_spad_passes", 0) * c["e_smem_pass_pj"] +
         (e.get("expars_oc_accesses", 0) + e["oloc_reads"]) * c["e_opc_word_pj"]) * 1e-12
    return pw["energy_j"], x + pw["components"]["blocks"]["energy_j"], pw["dynamic_j"]


def _paper_ratio(text):
    """A per-kernel performance % the text gives ("+37.54", "about +52") as a cycles ratio."""
    if not text:
        return None
    return round(1 + float(text.split()[-1]) / 100, 2)


def _ratio(a, b):
    return a / b if a and b else None


def _amean(xs):
    xs = [x for x in xs if x]
    return sum(xs) / len(xs) if xs else 0.0


def _gmean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def _pct(v, fmt="{:+.2f}"):
    return "-" if v is None else fmt.format(100 * (v - 1))


def _means(v):
    """Arithmetic and geometric mean % of ratios v (None: the point is not in the sweep)."""
    n = len([x for x in v if x])
    return {"amean_pct": 100 * (_amean(v) - 1), "gmean_pct": 100 * (_gmean(v) - 1), "n": n}


def _am(q):
    return f"{q['amean_pct']:+.2f} / {q['gmean_pct']:+.2f} %" if q["n"] else "not run"


def warpman(rows):
    """Warpman's run-time results (digest §2.10; Fig. 13, L307-L309, L327): its performance
    against Baseline per scheduler, the iso-storage Warpman (RF + 2 KB) against Warpman, its
    energy against Baseline's, EXPARS's energy and performance against Warpman's (LTLWS against
    its inner policy's Warpman), and mean resident warps per SM."""
    sp = {s: [_ratio(r["base_" + s], r["wm_" + s]) for r in rows] for s in SCHEDS}
    iso = {s: [_ratio(r["wm_" + s], r["wmiso_" + s]) for r in rows] for s in SCHEDS}
    en = {s: [_ratio(r["we_" + s], r["be_" + s]) for r in rows] for s in SCHEDS}
    ex_en = {c: [_ratio(r["ee_" + c], r["we_" + BASE_OF[c]]) for r in rows] for c in COLS}
    ex_sp = {c: [_ratio(r["wm_" + BASE_OF[c]], r["ex_" + c]) for r in rows] for c in COLS}
    warps = {k: _amean([r[k + "_" + s] for r in rows]) for k in ("bw", "ww", "ew")
             for s in ("gto",)}
    return {"speedup": sp, "iso": iso, "energy": en, "expars_energy": ex_en,
            "expars_speedup": ex_sp, "warps_gto": warps,
            "summary": {"speedup": {s: _means(v) for s, v in sp.items()},
                        "iso": {s: _means(v) for s, v in iso.items()},
                        "energy": {s: _means(v) for s, v in en.items()},
                        "expars_energy": {c: _means(v) for c, v in ex_en.items()},
                        "expars_speedup": {c: _means(v) for c, v in ex_sp.items()}}}


def measure(ctx):
    wls = [w for w in NAMES if any(p.axes.get("workload") == w for p in ctx.sweep.points)]
    rows = []
    for wl in wls:
        row = {"workload": wl, "name": NAMES[wl]}
        for s in SCHEDS:
            d = _data(ctx, wl, "partitioned", 32768, s)
            row["base_" + s], row["bw_" + s] = (d["timing"]["totals"]["cycles"], _warps(d)) \
                if d else (None, None)
            row["be_" + s], _, row["bd_" + s] = _energy(d) if d else (None, None, None)
            if s == "lrr" and d:
                ls = [l for l in d["timing"]["launches"] if l["kernel"] == TABLE3_KERNEL[wl]]
                if ls:
                    b, g = ls[0]["block"], ls[0]["grid"]
                    row["footprint"] = [b[0] * b[1] * b[2], ls[0]["shared_bytes"],
                                        ls[0]["regs_per_thread"]]
                    # CTAs per launch of the Table 3 kernel (the largest launch), for its waves
                    row["t3_ctas"] = max(x["grid"][0] * x["grid"][1] * x["grid"][2] for x in ls)
                    row["t3_launches"] = len(ls)
            d = _data(ctx, wl, "partitioned", 33280, s)
            row["iso_" + s] = d["timing"]["totals"]["cycles"] if d else None
            # the bound: EXPARS's CTAs and slots with every register in the register file
            # ([expars] ideal): the TLP EXPARS adds, without its costs
            d = _data(ctx, wl, "expars", 32768, s, ideal=True)
            row["bound_" + s] = d["timing"]["totals"]["cycles"] if d else None
            # Warpman ([sm] allocator = warpman), at the RF and at RF + 2 KB (L309)
            d = _data(ctx, wl, "warpman", 32768, s)
            row["wm_" + s], row["ww_" + s] = (d["timing"]["totals"]["cycles"], _warps(d)) \
                if d else (None, None)
            row["we_" + s] = _energy(d)[0] if d else None
            d = _data(ctx, wl, "warpman", 33280, s)
            row["wmiso_" + s] = d["timing"]["totals"]["cycles"] if d else None
        for s in COLS:
            d = _data(ctx, wl, "expars", 32768, s)
            row["ex_" + s], row["ew_" + s] = (d["timing"]["totals"]["cycles"], _warps(d)) \
                if d else (None, None)
            row["ee_" + s], row["xe_" + s], row["ed_" + s] = _energy(d) if d else \
                (None, None, None)
        rows.append(row)
    return rows


def static_fermi(ctx, heddle, rows):
    """§5.3's static metrics of each stand-in's Table 3 kernel at its Baseline run's footprint
    (threads, shared bytes, registers the timing model counted, pinned counts included) on the
    Fermi SM, and their means."""
    out = []
    for r in rows:
        if "footprint" not in r:
            continue
        t, sh, regs = r["footprint"]
        x = _calc(heddle, ctx.root, ARCH["Fermi"], r["workload"], TABLE3_KERNEL[r["workload"]],
                  t, sh, regs, pin=True)
        out.append(dict(x, name=r["name"], kernel=TABLE3_KERNEL[r["workload"]]))
    means = {c: {m: _mean([x[c][m] for x in out]) for m, _ in METRICS} for c in CONFIG_NAMES}
    return {"kernels": out, "means": means}


def _numbers_table(summary, iso, st, energy, rows, sp, en, mx, wm, bound):
    """The issue's list of numbers (issue 33 item 6), each beside ours."""
    b = []
    for c, cn in CONFIG_NAMES.items():
        for m, mn in METRICS:
            ours = st["means"][c][m]
            b.append([f"{mn}, {cn} (Table 3 kernels, Fermi SM)", _f(ours),
                      _f(PAPER_STATIC[c][m]), "L274-L298"])
    ratio = _ratio(st["means"]["expars"]["ctas"], st["means"]["baseline"]["ctas"])
    b.append(["CTAs per SM, EXPARS / Baseline (ratio of means)", _f(ratio), "1.28", "L7, L290"])
    for c in COLS:
        q = summary[c]
        b.append([f"performance vs Baseline, {c} (amean / gmean over {q['n']} stand-ins)",
                  f"{q['amean_pct']:+.2f} / {q['gmean_pct']:+.2f} %" if q["n"] else "-",
                  f"{PAPER[c]:+.2f} %", "L307, L309"])
    for c in SCHEDS:
        v = bound[c]
        b.append([f"the bound: EXPARS's CTAs, every register in the RF ([expars] ideal), vs "
                  f"Baseline, {c} (amean / gmean)",
                  f"{100 * (_amean(v) - 1):+.2f} / {100 * (_gmean(v) - 1):+.2f} %"
                  if any(v) else "not run in this sweep",
                  "- (not in the paper: what the extra TLP alone gives here)", "-"])
    mq = {c: sp[c][i] for i, r in enumerate(rows) if r["name"] == "MQ" for c in COLS}
    for c in ("ltlws_lrr", "ltlws_gto"):
        b.append([f"MQ performance, {c}", _pct(mq.get(c)) + " %" if mq.get(c) else "-",
                  PAPER_KERNEL[("MQ", c)] + " %", "L309"])
    b.append(["iso-storage control (RF + 2 KB), Baseline, vs Baseline (LRR / GTO / TL)",
              " / ".join(f"{100 * (_amean(v) - 1):+.2f}" if any(v) else "-"
                         for v in iso.values()) + " %"
              if any(any(v) for v in iso.values()) else "not run in this sweep",
              "no effect", "L309"])
    wq = wm["summary"]
    for s in SCHEDS:
        b.append([f"Warpman performance vs Baseline, {s} (amean / gmean)", _am(wq["speedup"][s]),
                  "Fig. 13 (EST, SING1 lose with LRR)", "L307"])
    b.append(["iso-storage control, Warpman (RF + 2 KB vs Warpman; LRR / GTO / TL amean)",
              " / ".join(f"{wq['iso'][s]['amean_pct']:+.2f}" if wq["iso"][s]["n"] else "-"
                         for s in SCHEDS) + " %", "< 1 %", "L309"])
    w = wm["warps_gto"]
    b.append(["mean resident warps per SM over the run, Baseline / Warpman / EXPARS (GTO)",
              " / ".join(_f(w[k]) for k in ("bw", "ww", "ew")),
              "32.86 / 36.64 / 43.43 (static)", "L298"])
    for c in COLS:
        q = energy[c]
        b.append([f"energy vs Baseline, {c} (amean / gmean)",
                  f"{q['amean_pct']:+.2f} / {q['gmean_pct']:+.2f} %" if q["n"] else "-",
                  "lower on average" if c == "ltlws_lrr" else "-", "L327"])
    for s in SCHEDS:
        b.append([f"Warpman energy vs Baseline, {s} (amean / gmean)", _am(wq["energy"][s]), "-",
                  "L327"])
    for c in COLS:
        b.append([f"EXPARS energy vs Warpman, {c} (amean / gmean)",
                  _am(wq["expars_energy"][c]), "lower on average", "L327"])
    mqe = [en["ltlws_lrr"][i] for i, r in enumerate(rows) if r["name"] == "MQ"]
    b.append(["MQ energy vs Baseline, LTLWS-LRR",
              _pct(mqe[0]) + " %" if mqe and mqe[0] else "-", "-27 %", "L327"])
    m = mx["means"]
    for s in SUITES:
        q = m[f"Maxwell/{s}/rs"]
        b.append([f"Maxwell, {s} register-sensitive: TLP EXPARS / Baseline (amean)",
                  _f(q["tlp_amean"]), f"{PAPER_F16[s]:.2f}", "L343"])
        b.append([f"Maxwell, {s} register-sensitive: overall utilisation Baseline -> EXPARS %",
                  f"{_f(q['baseline_overall'])} -> {_f(q['expars_overall'])}",
                  f"{PAPER_F17[s][0]:.2f} -> {PAPER_F17[s][1]:.2f}", "L343"])
    return md_table(["the issue's number", "ours", "paper", "source"], b)


def report(ctx):
    MISSING.clear()
    rows = measure(ctx)
    ctx.write_csv("points.csv")
    heddle = _heddle_of(ctx)
    sp = {c: [_ratio(r["base_" + BASE_OF[c]], r["ex_" + c]) for r in rows] for c in COLS}
    iso = {s: [_ratio(r["base_" + s], r["iso_" + s]) for r in rows] for s in SCHEDS}
    bound = {s: [_ratio(r["base_" + s], r["bound_" + s]) for r in rows] for s in SCHEDS}
    en = {c: [_ratio(r["ee_" + c], r["be_" + BASE_OF[c]]) for r in rows] for c in COLS}
    xs = {c: [_ratio(r["xe_" + c], r["ee_" + c]) for r in rows] for c in COLS}
    dyn = {c: [_ratio(r["ed_" + c], r["bd_" + BASE_OF[c]]) for r in rows] for c in COLS}
    summary = {c: {"amean_pct": 100 * (_amean(v) - 1), "gmean_pct": 100 * (_gmean(v) - 1),
                   "n": len([x for x in v if x]), "paper_pct": PAPER[c]} for c, v in sp.items()}
    energy = {c: {"amean_pct": 100 * (_amean(v) - 1), "gmean_pct": 100 * (_gmean(v) - 1),
                  "n": len([x for x in v if x]), "dynamic_pct": 100 * (_amean(dyn[c]) - 1),
                  "structures_pct": 100 * _amean(xs[c])} for c, v in en.items()}
    st = static_fermi(ctx, heddle, rows)
    mx = maxwell_study(heddle, ctx.root)
    wm = warpman(rows)
    ctx.write_json("expars.json", {"experiment": "expars", "rows": rows, "summary": summary,
                                   "iso": {s: 100 * (_amean(v) - 1) for s, v in iso.items()},
                                   "bound": {s: 100 * (_amean(v) - 1) if any(v) else None
                                             for s, v in bound.items()},
                                   "energy": energy, "static_fermi": st, "maxwell": mx,
                                   "warpman": wm["summary"]})
    cats = [r["name"] for r in rows]
    size = ctx.sweep.points[0].axes.get("size", "?") if ctx.sweep.points else "?"
    if any(r["workload"] in WAVES_OF for r in rows):
        size = "small-wN (>= 3 waves)"
    panels = [
        {"title": f"EXPARS speedup, {c}", "ylabel": "Baseline cycles / cycles",
         "categories": cats, "series": dict(
             [("EXPARS", sp[c])] +
             ([("iso-storage", iso[c])] if c in iso and any(iso[c]) else []) +
             ([("bound (ideal)", bound[c])] if c in bound and any(bound[c]) else []) +
             ([("Warpman", wm["speedup"][c])] if any(wm["speedup"].get(c, [])) else [])),
         "paper": {"paper (text; mean L307-L309)":
                   [_paper_ratio(PAPER_KERNEL.get((n, c))) for n in cats]
                   + [round(1 + PAPER[c] / 100, 3)]},
         "geomean": True, "hline": 1.0,
         "rotate": 60, "labels": False, "legend": "outside"}
        for c in COLS if any(sp[c])]
    if panels:  # (none while no EXPARS point has a result: an incomplete sweep)
        figures.bar_panels(ctx.path("speedup.png"), panels, ncols=2, width=16,
                           suptitle=f"EXPARS on the Fermi GTX480 ({size} size)")
    figures.bar_panels(ctx.path("warps.png"), [
        {"title": "mean resident warps per SM (GTO)", "ylabel": "warps", "categories": cats,
         "series": dict([("Baseline", [r["bw_gto"] for r in rows])] +
                        ([("Warpman", [r["ww_gto"] for r in rows])]
                         if any(r["ww_gto"] for r in rows) else []) +
                        [("EXPARS", [r["ew_gto"] for r in rows])]),
         "labels": False, "rotate": 60}])
    panels = [
        {"title": f"Fig. 15: energy / Baseline's, {c}", "ylabel": "EXPARS energy / Baseline",
         "categories": cats, "series": dict(
             [("EXPARS", en[c])] +
             ([("Warpman", wm["energy"][c])] if any(wm["energy"].get(c, [])) else [])),
         "geomean": True, "hline": 1.0,
         "rotate": 60, "labels": False,
         "paper": {"paper (LTLWS-LRR)": [PAPER_ENERGY_RATIO.get(n) for n in cats]}
         if c == "ltlws_lrr" else None}
        for c in COLS if any(en[c])]
    if panels:
        figures.bar_panels(ctx.path("energy.png"), panels, ncols=3, width=15,
                           suptitle=f"EXPARS energy on the Fermi GTX480 ({size} size; energy "
                                    "model, docs/power.md)")
    figures.bar_panels(ctx.path("static.png"), [
        {"title": f"{mn} (Table 3 kernels, Fermi)", "ylabel": mn,
         "categories": [x["name"] for x in st["kernels"]] + ["mean"],
         "series": {CONFIG_NAMES[c]: [x[c][m] for x in st["kernels"]] + [st["means"][c][m]]
                    for c in CONFIG_NAMES},
         "paper": {f"paper {CONFIG_NAMES[c]}": [None] * len(st["kernels"]) +
                   [PAPER_STATIC[c][m]] for c in CONFIG_NAMES},
         "labels": False, "rotate": 60}
        for m, mn in METRICS], ncols=2, width=14,
        suptitle="Fig. 10-12: static metrics, Baseline / Warpman / EXPARS")
    md = [f"# {ctx.sweep.name}: EXPARS on the Fermi GTX480, Table 3 stand-ins ({size} size)", "",
          f"Generated by `experiments/sweep.py experiments/{ctx.sweep.name}.toml` from the store "
          "and the calculator (docs/expars.md says what is modelled). Performance = Baseline "
          "cycles / EXPARS cycles - 1 on the same scheduler (LTLWS against its inner policy's "
          "Baseline); energy = EXPARS's run energy / Baseline's - 1 (the energy model, "
          "docs/power.md, EXPARS's structures priced: register lines through the scratchpad "
          "30.7 pJ per pass, operand-cache accesses 28.4 pJ (the 16 x 1024 array, CACTI-"
          "calibrated: synth/papers.ini 28.41 pJ), EXPARS's RTL blocks by their synthesized "
          "gate count); means over the stand-ins, arithmetic and geometric (§5.3).", "",
          "![speedup](speedup.png) ![warps](warps.png) ![energy](energy.png) "
          "![static](static.png)", ""]
    if MISSING:
        byconf = {}
        for wl, alloc, regs, sched in MISSING:
            byconf.setdefault(f"{alloc} {regs} {sched}", []).append(NAMES.get(wl, wl))
        md += [f"**Incomplete sweep:** {len(MISSING)} of its points had no result when this report "
               "was written (shown as \"-\"; means over the stand-ins that ran): " +
               "; ".join(f"{c} ({', '.join(v)})" for c, v in byconf.items()) + ".", ""]
    md += [
          "## The issue's numbers beside ours", "",
          _numbers_table(summary, iso, st, energy, rows, sp, en, mx, wm, bound), "",
          "Static metrics: each stand-in's Table 3 kernel at the footprint its Baseline run "
          f"launched ({len(st['kernels'])} of the paper's 14: BT has no stand-in); "
          "Table 3's own footprints give the paper's means exactly (tests/unit/"
          "test_expars_calc.c, Appendix A). Warpman's static metrics are the calculator's model "
          "(digest §2.10); its runs are `[sm] allocator = warpman` (model/mech/warpman).",
          "", "## Performance: averages beside the paper", ""]
    md.append(md_table(["configuration", "stand-ins", "ours: arithmetic mean %",
                        "ours: geometric mean %", f"paper % ({PAPER_SRC})"],
                       [[c, str(summary[c]["n"]),
                         f"{summary[c]['amean_pct']:+.2f}" if summary[c]["n"] else "-",
                         f"{summary[c]['gmean_pct']:+.2f}" if summary[c]["n"] else "-",
                         f"{PAPER[c]:+.2f}"] for c in COLS]))
    md += ["", "Iso-storage control (Baseline with RF + 2 KB = 33,280 registers), mean % "
           "against Baseline (paper: no effect, L309): " +
           (", ".join(f"{s} {100 * (_amean(v) - 1):+.2f}" for s, v in iso.items()
                      if any(v)) or "not run in this sweep"), ""]
    md += ["## Warpman (run time, §2.10)", "",
           "`[sm] allocator = warpman`: whole CTAs plus one partial CTA whose waiting warps "
           "start as a warp slot and their registers free (docs/expars.md \"Warpman at run "
           "time\"). Performance = Baseline cycles / Warpman cycles - 1; iso-storage = Warpman "
           "cycles / Warpman's at RF + 2 KB - 1; EXPARS vs Warpman = Warpman cycles / EXPARS "
           "cycles - 1 (LTLWS against its inner policy's Warpman).", ""]
    q = wm["summary"]
    md.append(md_table(["scheduler", "Warpman vs Baseline: amean / gmean %",
                        "iso-storage Warpman vs Warpman: amean %", "EXPARS vs Warpman: amean %",
                        "Warpman energy vs Baseline: amean %"],
                       [[s, _am(q["speedup"][s]),
                         f"{q['iso'][s]['amean_pct']:+.2f}" if q["iso"][s]["n"] else "-",
                         f"{q['expars_speedup'][s]['amean_pct']:+.2f}"
                         if q["expars_speedup"][s]["n"] else "-",
                         f"{q['energy'][s]['amean_pct']:+.2f}" if q["energy"][s]["n"] else "-"]
                        for s in SCHEDS]))
    md += ["", "Per stand-in, Warpman vs Baseline % (LRR / GTO / TL), mean resident warps per SM "
           "(GTO: Baseline / Warpman / EXPARS):", ""]
    md.append(md_table(["kernel", "lrr %", "gto %", "two_level %", "warps/SM B / W / E (GTO)"],
                       [[r["name"]] + [_pct(wm["speedup"][s][i], "{:+.1f}") for s in SCHEDS] +
                        [" / ".join(_f(r[k], "{:.1f}") for k in ("bw_gto", "ww_gto", "ew_gto"))]
                        for i, r in enumerate(rows)]))
    md += ["", "## Per stand-in", ""]
    sms = 15  # configs/fermi-gtx480.ini's SMs
    ctas = {x["name"]: (x["baseline"]["ctas"], x["expars"]["ctas"]) for x in st["kernels"]}

    def waves(r):
        c = ctas.get(r["name"])
        if not c or not r.get("t3_ctas") or not c[0] or not c[1]:
            return "-"
        return (f"{r['t3_ctas']} x {r['t3_launches']}: {r['t3_ctas'] / (sms * c[0]):.2f} / "
                f"{r['t3_ctas'] / (sms * c[1]):.2f}")
    hdr = ["kernel", "stand-in"] + [f"{c} %" for c in COLS] + [
        "warps/SM base (GTO)", "warps/SM EXPARS (GTO)",
        "Table 3 kernel: CTAs x launches: waves Baseline / EXPARS"]
    body = [[r["name"], f"`{r['workload']}`"] +
            [_pct(sp[c][i], "{:+.1f}") +
             (f" ({PAPER_KERNEL[(r['name'], c)]})"
              if (r["name"], c) in PAPER_KERNEL else "") for c in COLS] +
            [_f(r["bw_gto"], "{:.1f}"), _f(r["ew_gto"], "{:.1f}"), waves(r)]
            for i, r in enumerate(rows)]
    md.append(md_table(hdr, body))
    md += ["", "In parentheses: the paper's per-kernel figures (L302, L309). Paper: mean warps "
           "per SM 32.86 (Baseline) -> 43.43 (EXPARS) at full occupancy (L298); these are run "
           f"means at {size} size, where a stand-in that launches fewer CTAs than the SMs hold "
           "gives EXPARS nothing to add.", "",
           "## Energy (Fig. 15, §4.5)", ""]
    md.append(md_table(["configuration", "stand-ins", "energy vs Baseline: amean %", "gmean %",
                        "dynamic energy vs Baseline: amean %",
                        "EXPARS structures' share of the run's energy %"],
                       [[c, str(energy[c]["n"]),
                         f"{energy[c]['amean_pct']:+.2f}" if energy[c]["n"] else "-",
                         f"{energy[c]['gmean_pct']:+.2f}" if energy[c]["n"] else "-",
                         f"{energy[c]['dynamic_pct']:+.2f}" if energy[c]["n"] else "-",
                         f"{energy[c]['structures_pct']:.3f}" if energy[c]["n"] else "-"]
                        for c in COLS]))
    md += ["", "Per stand-in, energy vs Baseline % (in parentheses the paper's, LTLWS-LRR, "
           "L327):", ""]
    md.append(md_table(["kernel"] + [f"{c} %" for c in COLS] +
                       ["structures, ltlws_lrr (uJ)"],
                       [[r["name"]] + [_pct(en[c][i], "{:+.1f}") +
                                       (f" ({PAPER_ENERGY[r['name']]})"
                                        if c == "ltlws_lrr" and r["name"] in PAPER_ENERGY
                                        else "") for c in COLS] +
                        [f"{1e6 * r['xe_ltlws_lrr']:.3f}" if r["xe_ltlws_lrr"] else "-"]
                        for i, r in enumerate(rows)]))
    md += ["", "The paper's energy is GPUWattch's whole-GPU energy (L246); ours is the "
           "project's energy model (docs/power.md: bottom-up per-access energies, static and "
           "constant power about half of the total), so a run's energy follows its cycles "
           "closely and EXPARS's structures are a small share. EXPARS against Warpman: the "
           "table of the issue's numbers above (energy vs Warpman, per scheduler).", "",
           "## Static metrics per Table 3 kernel (Fermi SM, §5.3)", ""]
    md.append(md_table(["kernel", "stand-in kernel", "threads / shared B / regs",
                        "CTAs B / W / E", "warps B / W / E", "RF % B / W / E", "SPM % B / W / E",
                        "overall % B / W / E"],
                       [[x["name"], x["kernel"], " / ".join(str(v) for v in x["footprint"])] +
                        [" / ".join(_f(x[c][m], "{:.0f}" if m in ("ctas", "warps") else
                                       "{:.2f}") for c in CONFIG_NAMES) for m, _ in METRICS]
                        for x in st["kernels"]] +
                       [["mean (ours)", "", ""] +
                        [" / ".join(_f(st["means"][c][m]) for c in CONFIG_NAMES)
                         for m, _ in METRICS],
                        ["paper (14 kernels)", "", ""] +
                        [" / ".join(_f(PAPER_STATIC[c][m]) for c in CONFIG_NAMES)
                         for m, _ in METRICS]]))
    md += [""] + maxwell_report(mx, ctx=ctx)
    ctx.write_text("report.md", "\n".join(md))


# ---- §4.6: the Maxwell static study (Table 4, Fig. 16-17; digest §4.3, §6.6) ----------------
# Static only, as in the paper: per kernel of the Rodinia and Parboil stand-ins, its footprint
# (threads, shared memory, registers per thread the timing model counts: ptxas's, recorded with
# the PTX, NAME.ptxas.txt) from `heddle list --kernels`, and the calculator's answer
# (model/mech/expars/expars_calc.h, the same code the allocator runs) from `heddle ptx-info
# --set sm.allocator=expars`, whose `static:` line gives CTAs, warps and the RF, scratchpad
# and overall utilisation of Baseline, Warpman and EXPARS (digest §5.3).
# Which stand-in belongs to which suite is ours (workloads/README.md: each is written from the
# named suite's algorithm); bfs is Parboil's frontier BFS, bfs_k2_tb512 Rodinia's two-kernel form,
# histo1024 and bucketsort Rodinia's hybridsort. A kernel is register-sensitive on an
# architecture when the register file alone sets its baseline CTAs (floor(R / R_CTA) is below
# the CTA-slot and thread limits and not above the scratchpad's).
SUITES = {
    "Rodinia": ["backprop", "bfs_k2_tb512", "btree", "bucketsort", "cfd", "dwt2d", "gaussian",
                "heartwall", "histo1024", "hotspot", "kmeans", "lavamd", "leukocyte", "lud",
                "nw", "pathfinder", "srad", "sradv1", "streamcluster"],
    "Parboil": ["bfs", "cutcp", "lbm", "mriq", "sad", "sgemm", "spmv", "stencil3d"],
}
# Table 2 (L189-L198) and L113/L333 (registers per thread); tau = [expars] tau (0.8, L248).
ARCH = {
    "Fermi": {"config": "configs/fermi-gtx480.ini", "R": 32768, "S": 49152, "ctas": 8,
              "threads": 1536, "regs": 63},
    "Maxwell": {"config": "configs/zorua-maxwell.ini", "R": 65536, "S": 65536, "ctas": 32,
                "threads": 2048, "regs": 255},
}
# Table 4 (L318-L325): capacity needed to maximise TLP / capacity; Fig. 16-17 (L343).
PAPER_T4 = {("Rodinia", "all"): {"rf_Fermi": 1.60, "rf_Maxwell": 1.30, "spm_Fermi": 0.57,
                                 "spm_Maxwell": 0.57},
            ("Rodinia", "rs"): {"rf_Fermi": 1.86, "rf_Maxwell": 2.07, "spm_Fermi": 0.46,
                                "spm_Maxwell": 0.61},
            ("Parboil", "all"): {"rf_Fermi": 1.64, "rf_Maxwell": 1.27, "spm_Fermi": 0.37,
                                 "spm_Maxwell": 0.37},
            ("Parboil", "rs"): {"rf_Fermi": 1.82, "rf_Maxwell": 1.94, "spm_Fermi": 0.43,
                                "spm_Maxwell": 0.34}}
PAPER_F16 = {"Rodinia": 1.14, "Parboil": 1.21}
PAPER_F17 = {"Rodinia": (77.13, 95.48), "Parboil": (75.11, 95.61)}
MAXWELL_SRC = "digest §4.3, §6.6 (Table 4 L318-L325, Fig. 16-17 L343)"
STATIC_RE = re.compile(r"(baseline|warpman|expars) (\d+) CTAs (\d+) warps RF ([\d.]+)% "
                       r"SPM ([\d.]+)% overall ([\d.]+)%")


def _arch_sets(a):
    return ["--set", f"sm.registers={a['R']}", "--set", f"sm.shared_mem_bytes={a['S']}",
            "--set", f"sm.max_ctas={a['ctas']}", "--set", f"sm.max_threads={a['threads']}",
            "--set", f"sm.max_regs_per_thread={a['regs']}"]


def _call(heddle, root, args):
    p = subprocess.run([heddle] + args, cwd=root, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise SweepError(f"expars.py: {heddle} {' '.join(args)} exited {p.returncode}: "
                         f"{(p.stderr or p.stdout).strip()[-400:]}")
    return p.stdout


def _footprints(heddle, root, a):
    """{(workload, kernel): (threads, shared bytes, registers the model counts)} of every
    suite kernel that the workload's small run launches."""
    want = {w for ws in SUITES.values() for w in ws}
    out = {}
    for line in _call(heddle, root, ["list", "--kernels", "--config", a["config"]] +
                      _arch_sets(a)).splitlines()[1:]:
        f = line.split()
        if len(f) < 8 or f[0] not in want or not f[3].isdigit():
            continue
        out[(f[0], f[1])] = (int(f[3]), int(f[4]), int(f[-2]))
    missing = sorted(want - {w for w, _ in out})
    if missing:
        raise SweepError(f"expars.py: heddle list --kernels shows no kernel of {missing}")
    return out


def _calc(heddle, root, a, wl, kernel, threads, shared, regs, pin=False):
    """The calculator's static metrics for one kernel on architecture a (ptx-info); pin: count
    `regs` registers per thread ([sm] regs_source = regs: a run's count, pinned ones too)."""
    base = ["ptx-info", wl, "--kernel", kernel, "--threads", str(threads), "--config",
            a["config"], "--set", "sm.allocator=expars"] + _arch_sets(a) + \
        (["--set", f"sm.regs_source={regs}"] if pin else [])
    txt = _call(heddle, root, base)
    m = re.search(r"shared memory: (\d+) bytes static", txt)
    dyn = shared - int(m.group(1)) if m else shared
    if dyn > 0:
        txt = _call(heddle, root, base + ["--shared", str(dyn)])
    m = re.search(r"the timing model counts (\d+) registers", txt)
    if not m or int(m.group(1)) != regs:
        raise SweepError(f"expars.py: ptx-info {wl} {kernel} counts "
                         f"{m.group(1) if m else '?'} registers, heddle list {regs}")
    res = {}
    for name, ctas, warps, rf, spm, allu in STATIC_RE.findall(txt):
        res[name] = {"ctas": int(ctas), "warps": int(warps), "rf": float(rf),
                     "spm": float(spm), "overall": float(allu)}
    if set(res) != {"baseline", "warpman", "expars"}:
        raise SweepError(f"expars.py: ptx-info {wl} {kernel}: no static line (a heddle "
                         "older than the Maxwell study?)")
    t = (threads + 31) // 32 * 32
    r_cta = regs * t
    slots = min(a["ctas"], a["threads"] // t)
    by_rf = a["R"] // r_cta
    by_spm = a["S"] // shared if shared else slots
    res["rf_need"] = slots * r_cta / a["R"]          # Table 4: capacity to maximise TLP
    res["spm_need"] = slots * shared / a["S"]
    res["rs"] = by_rf < slots and by_rf <= by_spm    # the register file sets the baseline
    res["footprint"] = [threads, shared, regs]
    return res


def _mean(xs):
    return sum(xs) / len(xs) if xs else None


def maxwell_study(heddle, root):
    """{arch: {suite: [kernel rows]}} and the means of Table 4 and Fig. 16-17."""
    rows = {}
    for an, a in ARCH.items():
        fp = _footprints(heddle, root, a)
        rows[an] = {s: [] for s in SUITES}
        for s, wls in SUITES.items():
            for (wl, k), (t, sh, r) in sorted(fp.items()):
                if wl in wls:
                    rows[an][s].append(dict(_calc(heddle, root, a, wl, k, t, sh, r),
                                            workload=wl, kernel=k))
    means = {}
    for an in ARCH:
        for s in SUITES:
            for sub in ("all", "rs"):
                rs = [x for x in rows[an][s] if sub == "all" or x["rs"]]
                tlp = [x["expars"]["ctas"] / x["baseline"]["ctas"] for x in rs]
                wtlp = [x["warpman"]["warps"] / x["baseline"]["warps"] for x in rs]
                means[f"{an}/{s}/{sub}"] = {
                    "n": len(rs), "rf_need": _mean([x["rf_need"] for x in rs]),
                    "spm_need": _mean([x["spm_need"] for x in rs]),
                    "tlp_amean": _mean(tlp), "tlp_gmean": _gmean(tlp) if tlp else None,
                    "warpman_tlp_amean": _mean(wtlp),
                    **{f"{c}_{m}": _mean([x[c][m] for x in rs])
                       for c in ("baseline", "warpman", "expars")
                       for m in ("ctas", "warps", "rf", "spm", "overall")}}
    return {"rows": rows, "means": means}


def _f(v, fmt="{:.2f}"):
    return "-" if v is None else fmt.format(v)


def maxwell_report(st, figdir=None, ctx=None):
    """The report's Markdown section (and Fig. 16-17 PNGs through ctx)."""
    m = st["means"]
    md = ["## Maxwell static study (§4.6: Table 4, Fig. 16-17)", "",
          "Static, as in the paper: every kernel of the Rodinia and Parboil stand-ins "
          "(`heddle list --kernels`: threads, shared memory and the registers the timing model "
          "counts, ptxas sm_75's) through the calculator (`heddle ptx-info --set "
          "sm.allocator=expars`, the allocator's code) on Table 2's Fermi (32,768 registers, 48 "
          "KB, 8 CTAs, 1,536 threads, 63 registers per thread) and Maxwell (65,536, 64 KB, 32 "
          "CTAs, 2,048 threads, 255) SMs, tau 0.8. Means are arithmetic over kernels (§5.3), "
          "TLP also geometric. Register-sensitive (RS): the register file alone sets the "
          "baseline's CTAs. Paper: " + MAXWELL_SRC + ".", "",
          "![Fig. 16](maxwell_tlp.png) ![Fig. 17](maxwell_util.png)", "",
          "### Table 4: capacity needed to maximise TLP / capacity (mean over kernels)", ""]
    body = []
    for s in SUITES:
        for sub, lab in (("all", "all"), ("rs", "register-sensitive")):
            p = PAPER_T4[(s, sub)]
            body.append([s, lab, f"{m[f'Fermi/{s}/{sub}']['n']} / {m[f'Maxwell/{s}/{sub}']['n']}"] +
                        [f"{_f(m[f'{an}/{s}/{sub}'][q + '_need'])} ({p[q + '_' + an]:.2f})"
                         for q in ("rf", "spm") for an in ("Fermi", "Maxwell")])
    md.append(md_table(["suite", "kernels", "n Fermi / Maxwell", "RF Fermi: ours (paper)",
                        "RF Maxwell", "SPM Fermi", "SPM Maxwell"], body))
    md += ["", "### Fig. 16-17 on Maxwell: TLP and overall utilisation (mean over kernels)", ""]
    body = []
    for s in SUITES:
        for sub, lab in (("rs", "register-sensitive"), ("all", "all")):
            q = m[f"Maxwell/{s}/{sub}"]
            pb, pe = PAPER_F17[s]
            paper = sub == "rs"
            body.append([s, lab, str(q["n"]),
                         _f(q["tlp_amean"]) + (f" ({PAPER_F16[s]:.2f})" if paper else ""),
                         _f(q["tlp_gmean"]), _f(q["warpman_tlp_amean"]),
                         f"{_f(q['baseline_ctas'])} / {_f(q['warpman_ctas'])} / "
                         f"{_f(q['expars_ctas'])}",
                         f"{_f(q['baseline_warps'])} / {_f(q['warpman_warps'])} / "
                         f"{_f(q['expars_warps'])}",
                         f"{_f(q['baseline_rf'])} / {_f(q['warpman_rf'])} / {_f(q['expars_rf'])}",
                         f"{_f(q['baseline_spm'])} / {_f(q['warpman_spm'])} / "
                         f"{_f(q['expars_spm'])}",
                         f"{_f(q['baseline_overall'])} / {_f(q['warpman_overall'])} / "
                         f"{_f(q['expars_overall'])}" +
                         (f" ({pb:.2f} / - / {pe:.2f})" if paper else "")])
    md.append(md_table(["suite", "kernels", "n", "TLP EXPARS/Base: amean (paper)", "gmean",
                        "Warpman warps/Base", "CTAs Base / Warpman / EXPARS",
                        "warps", "RF %", "SPM %", "overall % (paper)"], body))
    md += ["", "### Per kernel on Maxwell", ""]
    body = []
    for s in SUITES:
        for x in st["rows"]["Maxwell"][s]:
            t, sh, r = x["footprint"]
            body.append([s, x["workload"], x["kernel"], f"{t} / {sh} / {r}",
                         "yes" if x["rs"] else "", f"{x['rf_need']:.2f} / {x['spm_need']:.2f}",
                         f"{x['baseline']['ctas']} / {x['warpman']['ctas']} / "
                         f"{x['expars']['ctas']}",
                         f"{x['baseline']['overall']:.2f} / {x['warpman']['overall']:.2f} / "
                         f"{x['expars']['overall']:.2f}"])
    md.append(md_table(["suite", "workload", "kernel", "threads / shared B / regs", "RS",
                        "RF / SPM need", "CTAs B / W / E", "overall % B / W / E"], body))
    md += ["", "Differences from the paper's setup: its kernels are the suites' own, compiled "
           "by a CUDA compiler for sm_13 and sm_52 (`-resource-usage`, L329-L341); ours are "
           "the project's stand-ins written from the suites' algorithms, and both columns count "
           "the one ptxas allocation recorded with the PTX (CUDA 13 has no sm_52 or sm_13 "
           "target), so the Fermi and Maxwell columns differ only in the SM's capacities, not "
           "in how the compiler spends registers (the paper's L341: Maxwell's compiler uses "
           "the extra registers). Means are over kernels, not benchmarks."]
    if ctx is not None:
        for fig, key, ylab, fname in (
                ("16", "tlp", "warps per SM / Baseline's", "maxwell_tlp.png"),
                ("17", "util", "overall utilisation %", "maxwell_util.png")):
            panels = []
            for s in SUITES:
                rs = [x for x in st["rows"]["Maxwell"][s] if x["rs"]]
                cats = [x["kernel"] for x in rs] + ["mean"]
                q = m[f"Maxwell/{s}/rs"]
                if key == "tlp":
                    series = {"EXPARS": [x["expars"]["ctas"] / x["baseline"]["ctas"]
                                         for x in rs] + [q["tlp_amean"]],
                              "Warpman": [x["warpman"]["warps"] / x["baseline"]["warps"]
                                          for x in rs] + [q["warpman_tlp_amean"]]}
                    paper = {"paper EXPARS": [None] * len(rs) + [PAPER_F16[s]]}
                else:
                    series = {c: [x[c.lower()]["overall"] for x in rs] +
                              [q[c.lower() + "_overall"]]
                              for c in ("Baseline", "Warpman", "EXPARS")}
                    paper = {"paper Baseline": [None] * len(rs) + [PAPER_F17[s][0]],
                             "paper EXPARS": [None] * len(rs) + [PAPER_F17[s][1]]}
                panels.append({"title": f"Fig. {fig}: {s}, register-sensitive (Maxwell)",
                               "ylabel": ylab, "categories": cats, "series": series,
                               "paper": paper, "rotate": 60, "labels": False,
                               "legend": "outside",
                               "hline": 1.0 if key == "tlp" else None})
            figures.bar_panels(ctx.path(fname), panels, ncols=2, width=17)
    return md


def _heddle_of(ctx):
    """The heddle binary the sweep ran (its SHA-256 is in ctx.identity): $HEDDLE or
    build/heddle."""
    for c in (os.environ.get("HEDDLE"), os.path.join(ctx.root, "build", "heddle")):
        if c and os.path.isfile(c) and sha256_file(c) in ctx.identity:
            return c
    raise SweepError("expars.py: the Maxwell study needs the sweep's heddle binary: set "
                     "HEDDLE=PATH (the binary whose SHA-256 the store names)")


if __name__ == "__main__":
    # experiments/expars.py maxwell [HEDDLE]: the Maxwell study's section on stdout and its
    # numbers as JSON on fd 3 when open (the CTest expars_maxwell_study).
    import json
    import sys
    if len(sys.argv) < 2 or sys.argv[1] != "maxwell":
        sys.exit("usage: experiments/expars.py maxwell [HEDDLE]")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    hed = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else os.path.join(root, "build",
                                                                               "heddle")
    st = maxwell_study(hed, root)
    print("\n".join(maxwell_report(st)))
    print("\nMEANS " + json.dumps(st["means"], sort_keys=True))
