# SPDX-License-Identifier: MIT
"""PNG figures in the papers' style (matplotlib, Agg backend, no display): grouped bars per
benchmark or configuration (optionally normalised, with a geometric-mean group), box plots for
performance ranges, lines for sweeps. Wherever the paper publishes a value, it is drawn beside
ours: a hatched grey bar (its midpoint) with the published range as an error bar for bar
charts, a dashed line with markers for line charts. Output is deterministic for the same data
(fixed size, DPI and fonts; no timestamps in the PNG metadata)."""

import math
import re

from .outfile import save_figure

PAPER_STYLE = {"color": "0.85", "edgecolor": "black", "hatch": "//", "linewidth": 0.6}
COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
          "#8c8c8c", "#ccb974", "#64b5cd"]   # ten: a panel of up to ten series repeats none
META = {"Software": None}          # no matplotlib version in the PNG: same data, same bytes


def _plt():
    try:
        import matplotlib
    except ImportError:
        from . import SweepError
        raise SweepError("figures need matplotlib: apt-get install python3-matplotlib "
                         "(scripts/setup.sh installs it) and run with /usr/bin/python3") \
            from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": 8, "axes.titlesize": 9, "legend.fontsize": 7,
                         "font.family": "DejaVu Sans", "svg.hashsalt": "heddle",
                         "axes.axisbelow": True})
    return plt


def paper_range(text):
    """A published value as (low, high): '450' -> (450, 450), '400-800' -> (400, 800),
    '~60 (of 614 GB/s)' -> (60, 60); None when the text holds no number."""
    if text is None:
        return None
    if isinstance(text, (int, float)):
        return (float(text), float(text))
    m = re.match(r"\s*~?\s*([0-9.]+)(?:\s*-\s*([0-9.]+))?", str(text))
    if not m:
        return None
    lo = float(m.group(1))
    return (lo, float(m.group(2)) if m.group(2) else lo)


def geomean(values):
    vs = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in vs) / len(vs)) if vs else None


def bar_panels(path, panels, ncols=None, width=None, suptitle=None):
    """Grouped bar charts side by side, one PNG. Each panel is a dict:
    title, ylabel, categories (x groups), series {name: [value or None per category]},
    paper {name: [published text/number or None per category, and with geomean optionally one
    more: the published mean, drawn in the mean's group]} (drawn beside, hatched, as
    published: not normalised), normalise (a series name: every series of ours divided by it
    per category), geomean (bool: add a
    'gmean' group), log (bool), hline (a value: dashed reference line, e.g. a peak),
    hline_label, ylim ((low, high) of the value axis), labels (bool, default True: the value
    above each bar), legend (a matplotlib location, or "outside": right of the axes, clear of
    the data)."""
    plt = _plt()
    n = len(panels)
    ncols = ncols or n
    nrows = math.ceil(n / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width or 3.3 * ncols, 2.8 * nrows),
                             squeeze=False)
    for ax, pn in zip(axes.flat, panels):
        _bars(ax, pn)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    if suptitle:
        fig.suptitle(suptitle, fontsize=10)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)



def _save(fig, path):
    """The PNG written whole: a temporary file renamed over `path` (outfile.py)."""
    save_figure(fig, path, dpi=130, metadata=META, format="png")


def _bars(ax, pn):
    cats = list(pn["categories"])
    series = {k: list(v) for k, v in pn["series"].items()}
    paper = {k: list(v) for k, v in (pn.get("paper") or {}).items()}
    if pn.get("normalise"):
        base = series[pn["normalise"]]
        series = {k: [None if (v is None or not b) else v / b for v, b in zip(vs, base)]
                  for k, vs in series.items()}
    if pn.get("geomean"):
        cats.append("gmean")
        for k in series:
            series[k].append(geomean(series[k]))
        for k in paper:  # a paper list one longer than the categories has its mean's value
            if len(paper[k]) < len(cats):
                paper[k].append(None)
    nbars = len(series) + len(paper)
    w = 0.8 / max(nbars, 1)
    xs = range(len(cats))
    i = 0
    for ci, (name, vals) in enumerate(series.items()):
        pos = [x - 0.4 + w * (i + 0.5) for x in xs]
        ax.bar([p for p, v in zip(pos, vals) if v is not None],
               [v for v in vals if v is not None], w, label=name,
               color=COLORS[ci % len(COLORS)], edgecolor="black", linewidth=0.6)
        for p, v in zip(pos, vals):
            if v is not None and pn.get("labels", True):
                ax.annotate(_fmt(v), (p, v), ha="center", va="bottom", fontsize=6,
                            xytext=(0, 1), textcoords="offset points")
        i += 1
    for name, vals in paper.items():
        pos = [x - 0.4 + w * (i + 0.5) for x in xs]
        rng = [paper_range(v) for v in vals]
        px = [p for p, r in zip(pos, rng) if r]
        mid = [(r[0] + r[1]) / 2 for r in rng if r]
        err = [[(r[1] - r[0]) / 2 for r in rng if r]] * 2
        if px:
            ax.bar(px, mid, w, yerr=err, capsize=2, label=name, **PAPER_STYLE)
            for p, r in zip(pos, rng):
                if r:
                    ax.annotate(str(vals[pos.index(p)]).split(" ")[0], (p, r[1]),
                                ha="center", va="bottom", fontsize=6, xytext=(0, 1),
                                textcoords="offset points")
        i += 1
    if pn.get("hline") is not None:
        ax.axhline(pn["hline"], color="black", linestyle="--", linewidth=0.8,
                   label=pn.get("hline_label"))
    ax.set_xticks(list(xs))
    ax.set_xticklabels(cats, rotation=pn.get("rotate", 0))
    ax.set_title(pn.get("title", ""))
    ax.set_ylabel(pn.get("ylabel", ""))
    if pn.get("log"):
        ax.set_yscale("log")
    ax.margins(y=0.35)
    if pn.get("ylim"):
        ax.set_ylim(*pn["ylim"])
    ax.grid(axis="y", linewidth=0.3, color="0.8")
    if pn.get("legend") == "outside":
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    else:
        ax.legend(loc=pn.get("legend", "upper left"), frameon=False)


def _fmt(v):
    return f"{v:.0f}" if abs(v) >= 100 else f"{v:.1f}" if abs(v) >= 10 else f"{v:.2f}"


def lines(path, x, series, xlabel, ylabel, title="", paper=None, logx=False):
    """Line plot of a sweep: series {name: [y per x]}; paper {name: [y per x or None]} dashed."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(4.2, 2.8))
    for ci, (name, ys) in enumerate(series.items()):
        ax.plot(x, ys, marker="o", markersize=3, color=COLORS[ci % len(COLORS)], label=name)
    for name, ys in (paper or {}).items():
        pts = [(a, paper_range(b)) for a, b in zip(x, ys) if paper_range(b)]
        ax.plot([a for a, _ in pts], [(r[0] + r[1]) / 2 for _, r in pts], linestyle="--",
                marker="s", markersize=3, color="black", label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if logx:
        ax.set_xscale("log", base=2)
    ax.grid(linewidth=0.3, color="0.8")
    ax.legend(frameon=False)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def boxes(path, data, ylabel, title="", paper=None):
    """Box plots of performance ranges: data {category: [values]}; paper {category: published
    range text} drawn as a hatched span beside each box."""
    plt = _plt()
    cats = list(data)
    fig, ax = plt.subplots(figsize=(max(3.0, 0.6 * len(cats) + 1.5), 2.8))
    ax.boxplot([data[c] for c in cats], positions=range(len(cats)), widths=0.45,
               medianprops={"color": "black"})
    for i, c in enumerate(cats):
        r = paper_range((paper or {}).get(c))
        if r:
            ax.bar(i + 0.4, r[1] - r[0] or 0.01 * (abs(r[0]) or 1), 0.2, bottom=r[0],
                   label="paper" if not any(paper_range((paper or {}).get(x))
                                            for x in cats[:i]) else None, **PAPER_STYLE)
    if any(paper_range((paper or {}).get(c)) for c in cats):
        ax.legend(frameon=False)
    ax.set_xlim(-0.6, len(cats) - 0.3)
    ax.set_xticks(range(len(cats)))
    ax.set_xticklabels(cats, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="y", linewidth=0.3, color="0.8")
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)
