# SPDX-License-Identifier: MIT
"""shieh_figures.py - the figures of experiments/shieh.py (issue 24: one figure per question,
the legend outside the data, the thesis's values visibly distinct, no overlapping labels).

Ours are coloured bars; the thesis's published values are black diamonds on the bar of the
same scheme (hatched grey bars when they have no bar of ours), so they never read as ours.
Value labels are written only when the chart has few bars (the numbers are in report.md's
tables); the legend sits to the right of the axes. Uses the shared style of heddle_sweep.figures
(deterministic PNGs)."""

import textwrap

from heddle_sweep.figures import COLORS, PAPER_STYLE, _plt, _save

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
