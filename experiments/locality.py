# SPDX-License-Identifier: MIT
"""locality: Gong's hint-assisted locality-aware block and warp scheduling (PhD thesis 2020,
ch.6; digest ../shared/reference/papers/gong-thesis-haws-locality.md §2.10, §4.8 Table 6.3, §5,
§6 rows 40-51, Appendix A; issue 31 item 7; docs/locality.md).

Each Table 6.2 stand-in (workloads/README.md) runs on Table 6.3's Kepler configuration
(configs/kepler-gk110.ini) at 16 and 8 L1 MSHR entries (Table 6.3 says 16, the text L1245 says 8;
8 requests per entry either way) under six schemes: rr (lrr warps + round-robin CTAs: the
thesis's baseline), gto, cta_aware (OWL-style), mascar, locdist (the locality-aware block
distributor alone) and locality (distributor + the hint's warp-group scheduler). Every launch
carries its workload's Table 6.1 hint ([timing] workload_hint); only the locality policies read it.
One script for three sweep files: experiments/locality.toml (the default: every stand-in at a
size of several CTA waves), experiments/locality-small.toml (all at small: the earlier column)
and tests/sweep/locality-tiny.toml (CI: a subset; rows it cannot compute show "-").

Metrics, from each run's statistics JSON (timing.totals, timing.memory, timing.sms):
  speedup        rr's cycles / the scheme's per workload; averaged as the text does: the
                 arithmetic mean of the per-benchmark gains over the benchmarks it names
                 ("on average 13 % over type 1 and type 2", L1410; CTA-aware and MASCAR over
                 all, L1404-1406); the geometric mean beside it;
  duplicates     dup_mshr_fraction: L1 MSHR allocations for a 128 B line another SM allocated in
                 the previous 2,000 cycles / all allocations (the thesis's "redundant MSHR"
                 definition, L1243-1245; [mem] dup_mshr_window = 2000);
  reduction      1 - locality's duplicate count / rr's (counts, not fractions: the thesis's
                 "reduce the number of duplicate MSHR entries", L1416);
  requests/entry requests_per_mshr_entry: (allocations + merges) / allocations (Fig 6.12);
  L1 hit rate    l1d_hit_rate;
  setup          CTAs per launch, CTAs per SM (occupancy) and waves = CTAs / (CTAs per SM x SMs);
  type 3         what slows the type-3 kernels: the distributor alone (locdist) against the whole
                 scheme, the share of the run an average SM holds no CTA (1 - mean active
                 cycles / cycles: tail and placement), the schedulers' memory-stall share;
  MASCAR's queue the share of SM-cycles in which the L1's oldest request waited for an MSHR or
                 miss-queue slot (l1d_stall_mshr + l1d_stall_missq): the head-of-line blocking
                 that MASCAR's cache-access re-execution queue (not modelled) would let hits
                 behind it bypass.
Nothing is fitted to the thesis's numbers.
"""

import json
import os

from heddle_sweep import SweepError, figures
from heddle_sweep.report import md_table

WORKLOADS = [  # ours, the thesis's abbreviation, Table 6.2 type (= hint)
    ("sgemm", "GEMM", 1), ("mm2", "2MM", 1), ("transpose", "MT", 1),
    ("stencil2d", "JS", 2), ("conv2d", "CONV", 2),
    ("histogram", "HS", 3), ("scan", "SC", 3), ("fwt", "FW", 3), ("bitonic", "BS", 3),
    ("mvt", "MVT", 3),
]
ABBR = {w: a for w, a, _ in WORKLOADS}
TYPE = {w: t for w, _, t in WORKLOADS}
SCHEMES = [  # name, [sm] scheduler, [timing] cta_dist, [timing] cta_dist_order
    ("rr", "lrr", "round_robin", "linear"), ("gto", "gto", "round_robin", "linear"),
    ("cta_aware", "cta_aware", "round_robin", "linear"),
    ("mascar", "mascar", "round_robin", "linear"),
    # the thesis's distributor: each SM keeps its range of adjacent CTAs across waves
    ("locdist", "lrr", "locality", "keep"), ("locality", "locality", "locality", "keep"),
    # the earlier reading: linear chunks in the first wave, later CTAs in global order
    ("locdist_lin", "lrr", "locality", "linear"), ("locality_lin", "locality", "locality", "linear"),
]
MSHRS = [16, 8]
SMALL = os.path.join("experiments", "results", "locality-small", "locality.json")
# The thesis's figures (digest §6; only the text survives, the per-benchmark bars are lost).
PAPER = [
    ("duplicate MSHR allocations, average (RR)", "~60 %", "L1245, Fig 6.1"),
    ("duplicates, GEMM and 2MM", "up to 90 %", "L1245"),
    ("duplicates, JS and CONV", "up to 68 %", "L1273"),
    ("locality speedup over RR, types 1 and 2, average (geomean)", "+13 %", "L1410, L1436"),
    ("locality speedup, maximum", "+19 % (MT)", "L1408"),
    ("CTA-aware over RR, average (geomean)", "+5 %", "L1404"),
    ("MASCAR over RR, average (geomean)", "+7.7 %", "L1406"),
    ("MVT: MASCAR beats locality", "yes", "L1412"),
    ("BS: MASCAR beats locality", "yes", "L1406"),
    ("duplicate reduction, high-locality kernels", ">= 10 %, all but MT", "L1416"),
    ("requests per MSHR entry, locality / RR, MT and SC", "~2x", "L1420"),
    ("requests per MSHR entry increase", "in all", "L1420"),
    ("locality with linear chunks (not kept over waves), types 1 and 2, average (geomean)", "-",
     "docs/locality.md"),
    ("duplicate reduction with linear chunks", "-", "docs/locality.md"),
]


def _present(ctx):
    have = {p.axes.get("workload") for p in ctx.sweep.points}
    return [w for w, _, _ in WORKLOADS if w in have]


# Stand-ins whose launches have fewer CTAs than SMs: linear chunks and keep ranges are both one
# CTA, CTA i on SM i, so the *_lin schemes are the keep runs (experiments/locality.toml).
ONE_WAVE = {"mvt"}


def _rec(ctx, w, mshr, scheme):
    _, sched, dist, order = next(s for s in SCHEMES if s[0] == scheme)
    if order == "linear" and dist == "locality" and w in ONE_WAVE and \
            ctx.sweep.name == "locality":
        order = "keep"
    r = ctx.record(workload=w, set__l1d__mshr_entries=mshr, set__sm__scheduler=sched,
                   set__timing__cta_dist=dist, set__timing__cta_dist_order=order)
    if r.get("status") != "ok":
        raise SweepError(f"locality: {w} {scheme} mshr {mshr}: {r.get('status')}")
    t = r["data"]["timing"]
    d = t["memory"]["derived"]
    tot = t["memory"]["total"]
    sms = t["sms"]
    st = t["schedulers_total"]
    slots = sum(v for k, v in st.items() if k.startswith("stall_")) + st["issue_cycles"]
    cyc = t["totals"]["cycles"]
    return {"cycles": cyc, "dup": d["dup_mshr_fraction"],
            "dups": tot["l1d_dup_mshr"], "allocs": tot["l1d_mshr_allocs"],
            "rpm": d["requests_per_mshr_entry"], "l1": d["l1d_hit_rate"],
            "size": next(p.axes["size"] for p in ctx.sweep.points
                         if p.axes.get("workload") == w),
            "launches": [[la["ctas"], la["ctas_per_sm"]] for la in t["launches"]],
            "sms": len(sms),
            "sm_idle": 1 - sum(s["active_cycles"] for s in sms) / (len(sms) * cyc),
            "mem_stall": st["stall_memory"] / slots if slots else 0.0,
            "l1_blocked": (tot["l1d_stall_mshr"] + tot["l1d_stall_missq"]) / (len(sms) * cyc),
            "cpu_s": r.get("cpu_s") or 0.0}


def measure(ctx):
    ws = _present(ctx)
    have = {str(p.axes.get("set.l1d.mshr_entries")) for p in ctx.sweep.points}
    return {m: {w: {s[0]: _rec(ctx, w, m, s[0]) for s in SCHEMES} for w in ws}
            for m in MSHRS if str(m) in have}


def _mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def _gmean(xs):
    return figures.geomean([x for x in xs if x is not None])


def _pct(x):
    return "-" if x is None else f"{100 * x:+.1f} %"


def _pct0(x):
    return "-" if x is None else f"{100 * x:.0f} %"


def _gain(xs):
    """Arithmetic mean of the gains (the text's average), geometric mean in parentheses."""
    if not xs:
        return "-"
    return f"{_pct(_mean([x - 1 for x in xs]))} ({_pct(_gmean(xs) - 1)})"


def speedups(r):
    return {w: {s: r[w]["rr"]["cycles"] / r[w][s]["cycles"] for s, *_ in SCHEMES} for w in r}


def summary(r):
    """Our value for each PAPER row, at one MSHR count ('-' where a stand-in is missing)."""
    sp = speedups(r)
    t12 = [w for w in r if TYPE[w] in (1, 2)]
    high = [w for w in t12 if w != "transpose"]

    def dups(abbrs):
        ws = [w for w in r if ABBR[w] in abbrs]
        return ", ".join(f"{ABBR[w]} {100 * r[w]['rr']['dup']:.0f} %" for w in ws) or "-"

    def red(w, s="locality"):
        a, b = r[w]["rr"]["dups"], r[w][s]["dups"]
        return None if not a else 1 - b / a

    def beats(w):
        return "-" if w not in r else "yes" if sp[w]["mascar"] > sp[w]["locality"] else "no"
    best = max(r, key=lambda w: sp[w]["locality"]) if r else None
    reds = {w: red(w) for w in t12}
    rpm = {w: r[w]["locality"]["rpm"] / r[w]["rr"]["rpm"] for w in r}
    return [
        f"{100 * _mean([r[w]['rr']['dup'] for w in r]):.0f} %" if r else "-",
        dups(("GEMM", "2MM")),
        dups(("JS", "CONV")),
        _gain([sp[w]["locality"] for w in t12]),
        f"{_pct(sp[best]['locality'] - 1)} ({ABBR[best]})" if best else "-",
        _gain([sp[w]["cta_aware"] for w in r]),
        _gain([sp[w]["mascar"] for w in r]),
        beats("mvt"),
        beats("bitonic"),
        (", ".join(f"{ABBR[w]} {'-' if reds[w] is None else f'{100 * reds[w]:.0f} %'}"
                   for w in t12) +
         f" ({sum(1 for w in high if reds[w] is not None and reds[w] >= 0.10)} of {len(high)} "
         "high-locality >= 10 %)") if t12 else "-",
        ", ".join(f"{ABBR[w]} {rpm[w]:.2f}x" for w in r if ABBR[w] in ("MT", "SC")) or "-",
        f"{sum(1 for w in r if rpm[w] > 1.005)} of {len(r)} up by > 0.5 %" if r else "-",
        _gain([sp[w]["locality_lin"] for w in t12]),
        ", ".join(f"{ABBR[w]} {_pct0(red(w, 'locality_lin'))}" for w in t12) or "-",
    ]


def _small(ctx):
    """The earlier all-small sweep's results (experiments/locality-small.toml), if it ran."""
    if ctx.sweep.name != "locality":
        return None
    p = os.path.join(ctx.root, SMALL)
    if not os.path.exists(p):
        return None
    with open(p) as f:
        res = json.load(f)["results"]
    return {m: {w: res[str(m)][w] for w, _, _ in WORKLOADS if w in res[str(m)]}
            for m in MSHRS if str(m) in res}


def _waves(x):
    ws = [c / (per * x["sms"]) for c, per in x["launches"] if per]
    return (min(ws), max(ws)) if ws else (0, 0)


def _rng(lo, hi, f):
    return f(lo) if f(lo) == f(hi) else f"{f(lo)}-{f(hi)}"


def draw(ctx, res, small):
    ms = list(res)
    ws = list(res[ms[0]])
    names = [f"{ABBR[w]}\n({TYPE[w]})" for w in ws]
    panels = []
    for m in ms:
        sp = speedups(res[m])
        vals = [sp[w][s] for w in ws for s, *_ in SCHEMES] + [1.19]
        panels.append({
            "title": f"speedup over RR per stand-in, {m} MSHR entries (Table 6.2 type)",
            "ylabel": "RR cycles / cycles", "categories": names, "hline": 1.0,
            "labels": False, "legend": "outside",
            "ylim": (max(0.0, min(vals) - 0.05), max(vals) + 0.05),
            "series": {s: [sp[w][s] for w in ws] for s, *_ in SCHEMES if s != "rr"},
            "paper": {"thesis: locality (MT, the maximum)":
                      ["1.19" if w == "transpose" else None for w in ws]}})
    figures.bar_panels(ctx.path("speedup.png"), panels, ncols=1, width=12)

    cats = ["locality,\ntypes 1-2", "CTA-aware,\nall", "MASCAR,\nall"]

    def avgs(r):
        sp = speedups(r)
        t12 = [w for w in r if TYPE[w] in (1, 2)]
        return [_mean([sp[w]["locality"] for w in t12]),
                _mean([sp[w]["cta_aware"] for w in r]), _mean([sp[w]["mascar"] for w in r])]
    series = {f"ours, {m} MSHR": avgs(res[m]) for m in ms}
    for m in (small or {}):
        series[f"ours at small, {m} MSHR"] = avgs(small[m])
    figures.bar_panels(ctx.path("average.png"), [{
        "title": "mean speedup over RR (arithmetic, as the thesis's text)",
        "ylabel": "RR cycles / cycles", "categories": cats, "hline": 1.0,
        "legend": "outside", "series": series,
        "ylim": (min([0.95] + [v for vs in series.values() for v in vs if v]) - 0.02,
                 max([1.13] + [v for vs in series.values() for v in vs if v]) + 0.05),
        "paper": {"thesis": ["1.13", "1.05", "1.077"]}}], width=9)

    panels = []
    for m in ms:
        r = res[m]
        mean = {s: _mean([r[w][s]["dup"] for w in ws]) for s in ("rr", "locdist", "locality")}
        paper = {"thesis, RR (up to; average)":
                 ["0.9" if ABBR[w] in ("GEMM", "2MM") else
                  "0.68" if ABBR[w] in ("JS", "CONV") else None for w in ws] + ["0.6"]}
        panels.append({
            "title": f"duplicate MSHR allocations (other SM, 2,000 cycles), {m} entries",
            "ylabel": "share of allocations", "categories": names + ["mean"], "paper": paper,
            "labels": False, "legend": "outside",
            "series": {s: [r[w][s]["dup"] for w in ws] + [mean[s]]
                       for s in ("rr", "locdist", "locality")}})
        panels.append({
            "title": f"requests per MSHR entry, relative to RR, {m} entries",
            "ylabel": "scheme / RR", "categories": names, "hline": 1.0,
            "labels": False, "legend": "outside",
            "paper": {"thesis: locality ~2x (MT, SC)":
                      ["2" if ABBR[w] in ("MT", "SC") else None for w in ws]},
            "series": {s: [r[w][s]["rpm"] / r[w]["rr"]["rpm"] for w in ws]
                       for s in ("locdist", "locality")}})
    figures.bar_panels(ctx.path("mshr.png"), panels, ncols=1, width=12)


def report(ctx):
    res = measure(ctx)
    small = _small(ctx)
    ctx.write_json("locality.json", {"experiment": ctx.sweep.name,
                                     "results": {str(m): res[m] for m in res}})
    ctx.write_csv("points.csv")
    draw(ctx, res, small)
    ms = list(res)
    ws = list(res[ms[0]])
    cpu = sum(x["cpu_s"] for m in ms for w in ws for x in res[m][w].values())
    md = ["# locality: Gong ch.6 locality-aware scheduling beside the thesis", "",
          f"Generated by `experiments/sweep.py {os.path.relpath(ctx.sweep.path, ctx.root)}` "
          "from its results store; do not edit. Method: `experiments/locality.py`, "
          "`docs/locality.md`.", "",
          "![speedup](speedup.png)", "", "![average](average.png)", "", "![MSHR](mshr.png)", "",
          "## Beside the thesis", ""]
    head = ["measure", "thesis"] + [f"ours, {m} MSHR" for m in ms]
    cols = [summary(res[m]) for m in ms]
    if small:
        head += [f"all at small, {m} MSHR" for m in small]
        cols += [summary(small[m]) for m in small]
    rows = [[p[0], p[1]] + [c[i] for c in cols] + [p[2]] for i, p in enumerate(PAPER)]
    md += [md_table(head + ["source"], rows), ""]
    if small:
        md += ["The small-size columns: `experiments/locality-small.toml` "
               "(`experiments/results/locality-small/`).", ""]

    md += ["## Setup", "",
           "Table 6.3's Kepler configuration (`configs/kepler-gk110.ini`). Waves = CTAs per "
           "launch / (CTAs per SM x SMs), over the launches (RR, 16 MSHR entries).", ""]
    rows = []
    for w in ws:
        x = res[ms[0]][w]["rr"]
        lo, hi = _waves(x)
        ctas = [c for c, _ in x["launches"]]
        rows.append([f"{ABBR[w]} ({w})", str(TYPE[w]), x["size"], str(len(x["launches"])),
                     _rng(min(ctas), max(ctas), str),
                     _rng(min(p for _, p in x["launches"]), max(p for _, p in x["launches"]),
                          str),
                     _rng(lo, hi, lambda v: f"{v:.1f}"), str(x["cycles"])])
    md += [md_table(["workload", "type", "size", "launches", "CTAs per launch", "CTAs per SM",
                     "waves", "RR cycles"], rows), ""]

    for m in ms:
        r = res[m]
        md += [f"## {m} MSHR entries per SM", ""]
        rows = []
        for w in ws:
            x = r[w]
            rows.append([f"{ABBR[w]} ({w})", str(TYPE[w]), str(x["rr"]["cycles"])] +
                        [f"{x['rr']['cycles'] / x[s]['cycles']:.3f}" for s, *_ in SCHEMES[1:]] +
                        [f"{100 * x['rr']['dup']:.0f} -> {100 * x['locality']['dup']:.0f} %",
                         f"{x['rr']['dups']} -> {x['locality']['dups']}",
                         f"{x['rr']['rpm']:.2f} -> {x['locality']['rpm']:.2f}",
                         f"{100 * x['rr']['l1']:.0f} -> {100 * x['locality']['l1']:.0f} %"])
        md += [md_table(["workload", "type", "RR cycles"] +
                        [f"speedup {s}" for s, *_ in SCHEMES[1:]] +
                        ["duplicates RR -> locality", "duplicate count", "requests/entry",
                         "L1 hits"], rows), ""]

    md += ["## Type 3 under the locality policies", "",
           "Speedup of the distributor alone (locdist: lrr warps) and of the whole scheme; the "
           "share of the run an average SM holds no CTA (1 - mean active cycles / cycles); the "
           "warp schedulers' slots lost to memory stalls; L1 hit rate. RR -> locdist -> "
           "locality.", ""]
    rows = []
    for m in ms:
        for w in ws:
            if TYPE[w] != 3:
                continue
            x = res[m][w]
            trio = ("rr", "locdist", "locality")
            rows.append([f"{ABBR[w]} ({w})", str(m),
                         f"{x['rr']['cycles'] / x['locdist']['cycles']:.3f}",
                         f"{x['rr']['cycles'] / x['locality']['cycles']:.3f}",
                         " -> ".join(f"{100 * x[s]['sm_idle']:.1f}" for s in trio) + " %",
                         " -> ".join(f"{100 * x[s]['mem_stall']:.0f}" for s in trio) + " %",
                         " -> ".join(f"{100 * x[s]['l1']:.0f}" for s in trio) + " %"])
    md += [md_table(["workload", "MSHR", "speedup locdist", "speedup locality",
                     "SM idle share", "memory-stall slots", "L1 hits"], rows), ""]

    md += ["## L1 head-of-line blocking (MASCAR's re-execution queue is not modelled)", "",
           "Share of SM-cycles in which the L1's oldest request waited for an MSHR entry or "
           "miss-queue slot, blocking every request behind it (hits too): the structural "
           "hazard MASCAR's cache-access re-execution queue removes (docs/locality.md).", ""]
    rows = []
    for w in ws:
        rows.append([f"{ABBR[w]} ({w})"] +
                    [f"{100 * res[m][w][s]['l1_blocked']:.1f} %" for m in ms
                     for s in ("rr", "mascar")])
    md += [md_table(["workload"] + [f"{s}, {m} MSHR" for m in ms for s in ("rr", "mascar")],
                    rows), ""]
    md += ["## Points", "", f"{len(ctx.sweep.points)} heddle runs of {ctx.identity}, "
           f"{cpu / 60:.1f} CPU-minutes in all; every row in [points.csv](points.csv).", ""]
    ctx.write_text("report.md", "\n".join(md))
