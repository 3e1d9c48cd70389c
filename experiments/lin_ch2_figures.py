# SPDX-License-Identifier: MIT
"""lin_ch2_figures.py - the figures issue 24 item 9 adds to experiments/lin-ch2-faithful.py:
what Lin's chapter 2 measures that the earlier figures did not show, each beside the thesis's
published value where the surviving text gives one (digest lin-thesis-preemption-gpuduet-ccbp.md
§5.4, §6.1):

  split_bars   Fig 2.14: each technique's spill latency per kernel, split into register file,
               shared memory and SIMT stack (the context engine's cycles per part), as % of the
               kernel's Occup total; Lin's one published ratio (live+cp 1.8 of Occup's 9.9 us)
               as a dashed line;
  occupancy    Fig 2.3: register-file and shared-memory occupancy of a full SM per kernel; Lin's
               BP_1 (60.9 / 13.7 %, L514-L517) as black diamonds on the same rows;
  k_sweep      L842-L844: the selective points' preemption latency and saved bytes per CTA at
               each K, relative to K = 1000 (the thesis gives no number: "little effect").

One question per figure; the legend outside the axes; the thesis's values black and named in
the legend, so they never read as ours; no value labels (the numbers are in report.md's
tables). Uses heddle_sweep.figures' style (deterministic PNGs)."""

import textwrap

from heddle_sweep.figures import COLORS, _plt, _save

PARTS = ("register file", "shared memory", "SIMT stack")
K_MARKERS = ("o", "s", "^", "v", "D", "P")


def split_bars(path, title, kernels, techs, split, paper=None):
    """Horizontal stacked bars, one per (kernel, technique): split {(kernel, technique): [regs,
    smem, stack] as % of the kernel's Occup total}; kernels and techs give the order (techs as
    (key, label)); paper = (value %, label) drawn as a dashed vertical line."""
    plt = _plt()
    rows = [(k, t, lab) for k in kernels for t, lab in techs if split.get((k, t))]
    n = len(rows)
    fig, ax = plt.subplots(figsize=(8.5, 0.16 * n + 1.8))
    left = [0.0] * n
    for i, part in enumerate(PARTS):
        vals = [split[(k, t)][i] or 0.0 for k, t, _ in rows]
        ax.barh(range(n), vals, 0.75, left=left, label=part, color=COLORS[i],
                edgecolor="black", linewidth=0.3)
        left = [a + b for a, b in zip(left, vals)]
    if paper is not None:
        ax.axvline(paper[0], color="black", linestyle="--", linewidth=1.2, label=paper[1])
    ax.set_yticks(range(n))
    ax.set_yticklabels([f"{k} {lab}" for k, _, lab in rows], fontsize=6)
    # a thin gap line between kernels
    for j in range(1, n):
        if rows[j][0] != rows[j - 1][0]:
            ax.axhline(j - 0.5, color="0.75", linewidth=0.4)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlabel("% of the kernel's Occup spill time (register file + shared memory + "
                  "SIMT stack)")
    ax.set_xlim(0, max(left + [100.0]) * 1.05)
    ax.grid(axis="x", linewidth=0.3, color="0.85")
    ax.set_title("\n".join(textwrap.wrap(title, 75)), fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def occupancy(path, title, kernels, rf, smem, paper):
    """Grouped horizontal bars per kernel (register file %, shared memory %); paper {kernel:
    (rf, smem)} as black diamonds (rf) and black squares (smem) on the kernel's bars."""
    plt = _plt()
    n = len(kernels)
    fig, ax = plt.subplots(figsize=(8.0, 0.3 * n + 1.6))
    h = 0.38
    ys_rf = [i - h / 2 for i in range(n)]
    ys_sm = [i + h / 2 for i in range(n)]
    ax.barh(ys_rf, [v or 0.0 for v in rf], h, label="register file (Heddle)", color=COLORS[0],
            edgecolor="black", linewidth=0.3)
    ax.barh(ys_sm, [v or 0.0 for v in smem], h, label="shared memory (Heddle)",
            color=COLORS[1], edgecolor="black", linewidth=0.3)
    pk = [i for i, k in enumerate(kernels) if k in paper]
    if pk:
        ax.scatter([paper[kernels[i]][0] for i in pk], [ys_rf[i] for i in pk], marker="D",
                   s=30, color="black", zorder=5, label="Lin, register file (text, L514-L517)")
        ax.scatter([paper[kernels[i]][1] for i in pk], [ys_sm[i] for i in pk], marker="s",
                   s=30, facecolor="white", edgecolor="black", linewidth=1.2, zorder=5,
                   label="Lin, shared memory (text, L514-L517)")
    ax.set_yticks(range(n))
    ax.set_yticklabels(kernels, fontsize=7)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(0, 105)
    ax.set_xlabel("% of the SM's register file / shared memory held by a full SM of the "
                  "kernel's CTAs")
    ax.grid(axis="x", linewidth=0.3, color="0.85")
    ax.set_title("\n".join(textwrap.wrap(title, 75)), fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def k_sweep(path, title, kernels, ks, latency, nbytes, note):
    """Two panels sharing the kernels' rows: latency[k][i] and nbytes[k][i] (% of K = 1000's,
    None where not run) for each K in ks (one marker per K); a line at 100 %."""
    plt = _plt()
    n = len(kernels)
    fig, axes = plt.subplots(1, 2, sharey=True, figsize=(9.5, 0.3 * n + 2.0))
    for ax, vals, lab in ((axes[0], latency, "preemption latency, % of K = 1000's"),
                          (axes[1], nbytes, "saved bytes per CTA, % of K = 1000's")):
        ax.axvline(100, color="0.5", linewidth=0.8)
        for j, k in enumerate(ks):
            pts = [(v, i) for i, v in enumerate(vals[k]) if v is not None]
            off = (j - (len(ks) - 1) / 2) * 0.12
            ax.scatter([v for v, _ in pts], [i + off for _, i in pts],
                       marker=K_MARKERS[j % len(K_MARKERS)], s=18,
                       color=COLORS[j % len(COLORS)], zorder=3,
                       label=f"K = {k}" if ax is axes[0] else None)
        allv = [v for k in ks for v in vals[k] if v is not None] + [100.0]
        lo, hi = min(allv), max(allv)
        pad = max(2.0, 0.08 * (hi - lo))
        ax.set_xlim(lo - pad, hi + pad)
        ax.set_xlabel(lab, fontsize=8)
        ax.grid(axis="x", linewidth=0.3, color="0.85")
    axes[0].set_yticks(range(n))
    axes[0].set_yticklabels(kernels, fontsize=7)
    axes[0].set_ylim(n - 0.5, -0.5)
    fig.suptitle("\n".join(textwrap.wrap(title, 90)), fontsize=10)
    fig.legend(loc="upper left", bbox_to_anchor=(0.87, 0.9), fontsize=8, frameon=False)
    fig.text(0.01, 0.005, note, fontsize=7, color="0.3")
    fig.tight_layout(rect=(0, 0.03, 0.86, 1))
    _save(fig, path)
    plt.close(fig)
