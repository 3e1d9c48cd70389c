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

Metrics, from each run's statistics JSON (timing.totals, timing.memory.derived):
  speedup        rr's cycles / the scheme's (per workload; 'average' = arithmetic mean, as the
                 thesis gives no rule);
  duplicates     dup_mshr_fraction: L1 MSHR allocations for a 128 B line another SM allocated in
                 the previous 2,000 cycles / all allocations (the thesis's "redundant MSHR"
                 definition, L1243-1245; [mem] dup_mshr_window = 2000);
  reduction      1 - locality's duplicate count / rr's (counts, not fractions: the thesis's
                 "reduce the number of duplicate MSHR entries", L1416);
  requests/entry requests_per_mshr_entry: (allocations + merges) / allocations (Fig 6.12);
  L1 hit rate    l1d_hit_rate.
Nothing is fitted to the thesis's numbers.
"""

import os

from heddle_sweep import SweepError, figures
from heddle_sweep.report import md_table

WORKLOADS = [  # ours, the thesis's abbreviation, Table 6.2 type (= hint)
    ("sgemm", "GEMM", 1), ("mm2", "2MM", 1), ("transpose", "MT", 1),
    ("stencil2d", "JS", 2), ("conv2d", "CONV", 2),
    ("histogram", "HS", 3), ("scan", "SC", 3), ("fwt", "FW", 3), ("bitonic", "BS", 3),
    ("mvt", "MVT", 3),
]
SCHEMES = [  # name, [sm] scheduler, [timing] cta_dist
    ("rr", "lrr", "round_robin"), ("gto", "gto", "round_robin"),
    ("cta_aware", "cta_aware", "round_robin"), ("mascar", "mascar", "round_robin"),
    ("locdist", "lrr", "locality"), ("locality", "locality", "locality"),
]
MSHRS = [16, 8]
# The thesis's figures (digest §6; only the text survives, the per-benchmark bars are lost).
PAPER = [
    ("duplicate MSHR allocations, average (RR)", "~60 %", "L1245, Fig 6.1"),
    ("duplicates, GEMM and 2MM", "up to 90 %", "L1245"),
    ("duplicates, JS and CONV", "up to 68 %", "L1273"),
    ("locality speedup over RR, types 1 and 2, average", "+13 %", "L1410, L1436"),
    ("locality speedup, maximum", "+19 % (MT)", "L1408"),
    ("CTA-aware over RR, average", "+5 %", "L1404"),
    ("MASCAR over RR, average", "+7.7 %", "L1406"),
    ("MVT: MASCAR beats locality", "yes", "L1412"),
    ("duplicate reduction, high-locality kernels", ">= 10 %, all but MT", "L1416"),
    ("requests per MSHR entry, MT and SC", "~2x RR", "L1420"),
]


def _rec(ctx, w, mshr, scheme):
    _, sched, dist = next(s for s in SCHEMES if s[0] == scheme)
    r = ctx.record(workload=w, set__l1d__mshr_entries=mshr, set__sm__scheduler=sched,
                   set__timing__cta_dist=dist)
    if r.get("status") != "ok":
        raise SweepError(f"locality: {w} {scheme} mshr {mshr}: {r.get('status')}")
    t = r["data"]["timing"]
    d = t["memory"]["derived"]
    tot = t["memory"]["total"]
    return {"cycles": t["totals"]["cycles"], "dup": d["dup_mshr_fraction"],
            "dups": tot["l1d_dup_mshr"], "allocs": tot["l1d_mshr_allocs"],
            "rpm": d["requests_per_mshr_entry"], "l1": d["l1d_hit_rate"]}


def measure(ctx):
    res = {}
    for m in MSHRS:
        res[m] = {w: {s[0]: _rec(ctx, w, m, s[0]) for s in SCHEMES} for w, _, _ in WORKLOADS}
    return res


def _mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def _pct(x):
    return "-" if x is None else f"{100 * x:+.1f} %"


def summary(r):
    """Our value for each PAPER row, at one MSHR count."""
    sp = {w: {s: r[w]["rr"]["cycles"] / r[w][s]["cycles"] for s, _, _ in SCHEMES} for w in r}
    by = {ab: w for w, ab, _ in WORKLOADS}
    typ = {w: t for w, _, t in WORKLOADS}
    t12 = [w for w in r if typ[w] in (1, 2)]
    high = [w for w in t12 if w != "transpose"]

    def red(w):
        a, b = r[w]["rr"]["dups"], r[w]["locality"]["dups"]
        return None if not a else 1 - b / a
    best = max(r, key=lambda w: sp[w]["locality"])
    reds = {w: red(w) for w in t12}
    return [
        f"{100 * _mean([r[w]['rr']['dup'] for w in r]):.0f} %",
        ", ".join(f"{ab} {100 * r[by[ab]]['rr']['dup']:.0f} %" for ab in ("GEMM", "2MM")),
        ", ".join(f"{ab} {100 * r[by[ab]]['rr']['dup']:.0f} %" for ab in ("JS", "CONV")),
        _pct(_mean([sp[w]["locality"] - 1 for w in t12])),
        f"{_pct(sp[best]['locality'] - 1)} ({dict((w, a) for w, a, _ in WORKLOADS)[best]})",
        _pct(_mean([sp[w]["cta_aware"] - 1 for w in r])),
        _pct(_mean([sp[w]["mascar"] - 1 for w in r])),
        "yes" if sp["mvt"]["mascar"] > sp["mvt"]["locality"] else "no",
        ", ".join(f"{dict((w, a) for w, a, _ in WORKLOADS)[w]} "
                  f"{'-' if reds[w] is None else f'{100 * reds[w]:.0f} %'}" for w in t12) +
        f" ({sum(1 for w in high if reds[w] is not None and reds[w] >= 0.10)} of {len(high)} "
        "high-locality >= 10 %)",
        ", ".join(f"{ab} {r[by[ab]]['locality']['rpm'] / r[by[ab]]['rr']['rpm']:.2f}x"
                  for ab in ("MT", "SC")),
    ]


def draw(ctx, res):
    names = [f"{ab}\n({t})" for _, ab, t in WORKLOADS]
    panels = []
    for m in MSHRS:
        r = res[m]
        panels.append({
            "title": f"speedup over RR, {m} MSHR entries", "ylabel": "RR cycles / cycles",
            "categories": names, "hline": 1.0,
            "series": {s: [r[w]["rr"]["cycles"] / r[w][s]["cycles"] for w, _, _ in WORKLOADS]
                       for s, _, _ in SCHEMES if s != "rr"}})
    figures.bar_panels(ctx.path("speedup.png"), panels, ncols=1, width=11)
    panels = []
    for m in MSHRS:
        r = res[m]
        paper = {"rr": ["0.9" if ab in ("GEMM", "2MM") else "0.68" if ab in ("JS", "CONV")
                        else None for _, ab, _ in WORKLOADS]}
        panels.append({
            "title": f"duplicate MSHR allocations, {m} entries", "ylabel": "fraction",
            "categories": names, "paper": paper,
            "series": {s: [r[w][s]["dup"] for w, _, _ in WORKLOADS]
                       for s in ("rr", "locdist", "locality")}})
        panels.append({
            "title": f"requests per MSHR entry, {m} entries", "ylabel": "requests / entry",
            "categories": names,
            "series": {s: [r[w][s]["rpm"] for w, _, _ in WORKLOADS]
                       for s in ("rr", "locdist", "locality")}})
    figures.bar_panels(ctx.path("mshr.png"), panels, ncols=2, width=14)


def report(ctx):
    res = measure(ctx)
    ctx.write_json("locality.json", {"experiment": "locality",
                                     "results": {str(m): res[m] for m in MSHRS}})
    ctx.write_csv("points.csv")
    draw(ctx, res)
    md = ["# locality: Gong ch.6 locality-aware scheduling beside the thesis", "",
          f"Generated by `experiments/sweep.py {os.path.relpath(ctx.sweep.path, ctx.root)}` "
          "from its results store; do not edit. Method: `experiments/locality.py`, "
          "`docs/locality.md`.", "",
          "![speedup](speedup.png)", "", "![MSHR](mshr.png)", "",
          "## Beside the thesis", ""]
    sums = {m: summary(res[m]) for m in MSHRS}
    rows = [[p[0], p[1], sums[16][i], sums[8][i], p[2]] for i, p in enumerate(PAPER)]
    md += [md_table(["measure", "thesis", "ours, 16 MSHR", "ours, 8 MSHR", "source"], rows), ""]
    for m in MSHRS:
        r = res[m]
        md += [f"## {m} MSHR entries per SM", ""]
        rows = []
        for w, ab, t in WORKLOADS:
            x = r[w]
            rows.append([f"{ab} ({w})", str(t), str(x["rr"]["cycles"])] +
                        [f"{x['rr']['cycles'] / x[s]['cycles']:.3f}" for s, _, _ in SCHEMES[1:]] +
                        [f"{100 * x['rr']['dup']:.0f} -> {100 * x['locality']['dup']:.0f} %",
                         f"{x['rr']['dups']} -> {x['locality']['dups']}",
                         f"{x['rr']['rpm']:.2f} -> {x['locality']['rpm']:.2f}",
                         f"{100 * x['rr']['l1']:.0f} -> {100 * x['locality']['l1']:.0f} %"])
        md += [md_table(["workload", "type", "RR cycles"] +
                        [f"speedup {s}" for s, _, _ in SCHEMES[1:]] +
                        ["duplicates RR -> locality", "duplicate count", "requests/entry",
                         "L1 hits"], rows), ""]
    md += ["## Points", "", f"{len(ctx.sweep.points)} heddle runs of {ctx.identity}; every "
           "row in [points.csv](points.csv).", ""]
    ctx.write_text("report.md", "\n".join(md))
