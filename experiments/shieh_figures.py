# SPDX-License-Identifier: MIT
"""shieh_figures.py - the figures of experiments/shieh.py (issue 24: one figure per question,
the legend outside the data, the thesis's values visibly distinct, no overlapping labels).

Ours are coloured bars; the thesis's published values are black diamonds on the bar of the
same scheme (hatched grey bars when they have no bar of ours), so they never read as ours.
Value labels are written only when the chart has few bars (the numbers are in report.md's
tables); the legend sits to the right of the axes. Uses the shared style of heddle_sweep.figures
(deterministic PNGs). report_figures() draws the report's figures (Figs 4.1, 4.2, 4.4, 4.5a-c and
the setups compared) from shieh.report()'s measured state."""

import textwrap

from heddle_sweep.figures import COLORS, PAPER_STYLE, _plt, _save
from shieh_setup import (NAMES, PAPER_DRAIN_ERR_REDUCTION, PAPER_OVH, PAPER_UTIL_RATIO, PAPER_VIOL,
                         paper_at, thesis_name)

LABEL_MAX_BARS = 16        # more bars than this: no value labels (they would overlap)


def _width(ncats, nbars):
    return max(7.0, min(14.0, 3.4 + 0.22 * ncats * max(nbars, 1)))


def grouped(path, title, ylabel, cats, series, paper=None, rotate=0, ymax=None, note=None):
    """Grouped bars: series {name: [value|None per category]}; paper {name of a series:
    [value|None per category]} drawn as a black diamond on that series' bar, or {other name:
    [...]} as a hatched bar of its own."""
    plt = _plt()
    paper = paper or {}
    own = {k: v for k, v in paper.items() if k not in series}
    nb = len(series) + len(own)
    fig, ax = plt.subplots(figsize=(_width(len(cats), nb), 3.2))
    w = 0.8 / max(nb, 1)
    xs = list(range(len(cats)))
    label = nb * len(cats) <= LABEL_MAX_BARS
    top = max([v for vs in series.values() for v in vs if v is not None] + [1e-9])
    marked = False
    for i, (name, vals) in enumerate(series.items()):
        pos = [x - 0.4 + w * (i + 0.5) for x in xs]
        pv = [(p, v) for p, v in zip(pos, vals) if v is not None]
        ax.bar([p for p, _ in pv], [v for _, v in pv], w, label=name,
               color=COLORS[i % len(COLORS)], edgecolor="black", linewidth=0.5)
        tv = paper.get(name)
        if label:
            th = dict(zip(pos, tv)) if tv else {}
            for p, v in pv:
                if v < 0.04 * top:   # (a label on a bar too short would sit on its neighbours')
                    continue
                t = th.get(p)        # (above the thesis's diamond when that is higher)
                y = max(v, t + 0.04 * top) if t is not None and t >= v - 0.06 * top else v
                ax.annotate(_fmt(v), (p, y), ha="center", va="bottom", fontsize=6,
                            xytext=(0, 1), textcoords="offset points")
        if tv:
            tp = [(p, t) for p, t in zip(pos, tv) if t is not None]
            if tp:
                ax.scatter([p for p, _ in tp], [t for _, t in tp], marker="D", s=22,
                           color="black", zorder=5,
                           label="thesis (black diamond on its scheme)" if not marked else None)
                marked = True
    for j, (name, vals) in enumerate(own.items()):
        i = len(series) + j
        pos = [x - 0.4 + w * (i + 0.5) for x in xs]
        pv = [(p, v) for p, v in zip(pos, vals) if v is not None]
        ax.bar([p for p, _ in pv], [v for _, v in pv], w, label=name, **PAPER_STYLE)
    ax.set_xticks(xs)
    ax.set_xticklabels(cats, rotation=rotate, ha="right" if rotate else "center")
    ax.set_title("\n".join(textwrap.wrap(title, 70)))
    ax.set_ylabel(ylabel)
    if ymax is not None:
        ax.set_ylim(0, ymax)
    else:
        ax.margins(y=0.15)
    ax.grid(axis="y", linewidth=0.3, color="0.8")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    if note:
        fig.text(0.01, 0.01, note, fontsize=6, color="0.3")
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def stacked(path, title, ylabel, groups, parts):
    """Stacked bars: groups [(label, {part: value})] (one bar each), parts the stacking order;
    a blank label separates schemes."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(6.0, 0.45 * len(groups) + 2.5), 3.2))
    xs = list(range(len(groups)))
    bottom = [0.0] * len(groups)
    for i, part in enumerate(parts):
        vals = [(g[1] or {}).get(part) or 0.0 for g in groups]
        ax.bar(xs, vals, 0.7, bottom=bottom, label=part, color=COLORS[i % len(COLORS)],
               edgecolor="black", linewidth=0.5)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xticks(xs)
    ax.set_xticklabels([g[0] for g in groups], rotation=60, ha="right")
    ax.set_title("\n".join(textwrap.wrap(title, 70)))
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 105)
    ax.grid(axis="y", linewidth=0.3, color="0.8")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def _fmt(v):
    return f"{v:.0f}" if abs(v) >= 100 else f"{v:.1f}" if abs(v) >= 10 else f"{v:.2f}"


def report_figures(ctx, s):
    """The report's figures (one per question; the numbers are in report.md's tables), of the
    report's state s (shieh.report): only the schemes this setup ran (the faithful setup:
    Chimera, proposed, Oracle at 2 us)."""
    lc, victims, ran, ranb, per_lc, per_bench = s.lc, s.victims, s.ran, s.ranb, s.per_lc, \
        s.per_bench
    drain_all, util_lc, earlier, standins = s.drain_all, s.util_lc, s.earlier, s.standins
    cats = [f"{u} us" for u in lc]
    bn = [thesis_name(v) for v in victims]
    thesis = {NAMES[p]: paper_at(PAPER_VIOL[p], lc) for p in PAPER_VIOL}
    grouped(ctx.path("violation.png"), "Deadline violations per L_c (Fig 4.5a; deadline = "
                 "request + L_c + preempter standalone)", "% of requests", cats,
                 {NAMES[p]: per_lc[p]["violation"] for p in ran}, paper=thesis, ymax=105)
    grouped(ctx.path("violation_bench.png"), f"Deadline violations per benchmark at "
                 f"L_c = {lc[0]} us (Fig 4.1)", "% of requests", bn,
                 {NAMES[p]: [per_bench[p][v][0] for v in victims] for p in ranb},
                 rotate=45, ymax=105)
    grouped(ctx.path("overhead.png"), "Throughput overhead per L_c (Fig 4.5b): wasted / "
                 "instructions of the CTAs asked to leave", "% of flushing them all", cats,
                 {NAMES[p]: per_lc[p]["overhead"] for p in ranb},
                 paper={NAMES[p]: paper_at(PAPER_OVH[p], lc) for p in PAPER_OVH})
    groups = []
    for p in ranb:
        for i, u in enumerate(lc):
            groups.append((f"{NAMES[p]} {u} us", per_lc[p]["techniques"][i][0]))
        groups.append(("", None))
    stacked(ctx.path("techniques.png"), "Technique of the CTAs asked to leave (Fig 4.5c)",
                 "% of CTAs asked", groups[:-1], ["switch", "drain", "flush"])
    grouped(ctx.path("drain_error.png"), "Drain-estimate error on the same drained CTAs "
                 f"(Fig 4.2; thesis: Shieh's {PAPER_DRAIN_ERR_REDUCTION} % lower)",
                 "mean |est - true| / true (%)", cats,
                 {"Shieh's CPI predictor": [e[0] for e in drain_all],
                  "Chimera's estimate": [e[1] for e in drain_all]})
    grouped(ctx.path("utilisation.png"), "Registers held by running CTAs, request to "
                 f"placement (Fig 4.4; thesis: proposed / Chimera = {PAPER_UTIL_RATIO}x)",
                 "% of the SM's registers", cats,
                 {NAMES[p]: [u[0] for u in util_lc[p]] for p in ran})
    if earlier:
        ev = {pol: [earlier["per_lc"][pol]["violation_pct"][earlier["lc_us"].index(u)]
                    if u in earlier.get("lc_us", []) else None for u in lc]
              for pol in ("chimera", "shieh")}
        sv = {pol: [standins["per_lc"][pol]["violation_pct"][standins["lc_us"].index(u)]
                    if standins and u in standins.get("lc_us", []) else None for u in lc]
              for pol in ("chimera", "shieh")}
        grouped(ctx.path("setups.png"), "Violations: faithful setup beside the earlier "
                     "ones (issue 24)", "% of requests", cats,
                     {"Chimera (faithful)": per_lc["chimera"]["violation"],
                      "Chimera (stand-ins)": sv["chimera"],
                      "Chimera (earlier)": ev["chimera"],
                      "proposed (faithful)": per_lc["shieh"]["violation"],
                      "proposed (stand-ins)": sv["shieh"],
                      "proposed (earlier)": ev["shieh"]},
                     note="thesis: black diamonds on the faithful bars; stand-ins: the faithful "
                          "setup before item 3 (shieh-standins.json); earlier: before issue 24 "
                          "(shieh-earlier.json)",
                     paper={"Chimera (faithful)": paper_at(PAPER_VIOL["chimera"], lc),
                            "proposed (faithful)": paper_at(PAPER_VIOL["shieh"], lc)}, ymax=105)
