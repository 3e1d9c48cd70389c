# SPDX-License-Identifier: MIT
"""memory-baselines: the report of experiments/memory-baselines.toml (run it with
experiments/memory-baselines.sh or experiments/sweep.py experiments/memory-baselines.toml).

For configs/fermi-gtx480.ini, configs/kepler-gk110.ini and configs/maxwell-gpuduet.ini (full
memory model, the default):
  - load-to-use latency of an L1 hit, an L2 hit and a DRAM access, in core cycles: the pointer
    chase of workloads/chase (one thread, one dependent load per hop) over an 8 KiB chain
    (chase: L1), a 128 KiB chain (chase_l2: beyond every L1, within every L2) and a 32 MiB
    chain walked cold (chase_dram). Per hop = (cycles of the launch at size large - at size
    medium) / (hops large - hops medium): both runs share the launch overhead and the cold
    first pass, so the difference holds only hops served by the intended level. The per-launch
    memory counters check that: the extra hops' L1 hits (chase), L2 hits with no L1 hit
    (chase_l2) and L2 misses (chase_dram) are reported as "served" (1.00 = all of them);
  - sustained DRAM bandwidth with STREAM (workloads/stream, variant stream_cg: loads around the
    L1, medium size, 8 MiB per array): per kernel, the launch's DRAM bytes over its time, in
    GB/s and % of the configured peak (as tests/mem/stream_bandwidth.sh computes it);
  - the L2->SM crossbar data rate during the same STREAM run (per kernel, its reply flits x flit
    bytes over its cycles; the busiest kernel) against the crossbar peak as Lin defines it
    (ports x wire width x clock, ports = L2 slices here).
Writes, in the report directory (experiments/results/memory-baselines/ by default):
memory-baselines.json (every figure, ours and the paper's with its source), report.md (a table
per configuration), latency.png and bandwidth.png (ours beside the paper's), points.csv (the
sweep's tidy table). Every number comes from the store; the paper's are the published values
below (../shared/reference/papers/lin-thesis-preemption-gpuduet-ccbp.md)."""

import os
import re

from heddle_sweep import SweepError, figures
from heddle_sweep.report import md_table

CONFIGS = ("fermi-gtx480", "kepler-gk110", "maxwell-gpuduet")

# The papers' published figures, with where they come from. Empty: no counterpart.
LIN21 = "Lin thesis Table 2.1 (GPGPU-Sim 3.2.2 GTX480)"
LIN31 = "Lin thesis Table 3.1 (GPUDuet, Maxwell-like, 1000 MHz core)"
LIN41 = "Lin thesis Table 4.1 (CCBP, 1800 MHz core, not this config)"
SUST = "Lin thesis ch.4 L2875-2888: DRAM saturates at ~60-70% of peak [MC16]"
XBAR = "Lin thesis ch.3/ch.4 L2875-2879: crossbar sustainable ~60% of peak [Kar87]"
WON10 = "Lin thesis ch.3 L1852-1858: global memory 400-800 cycles [Won10, measured GT200]"
M2S = "Multi2Sim Kepler public defaults (digest [X], not in Gong's thesis)"
PAPER = {
    "fermi-gtx480": {
        "l1_hit_cycles": [], "l2_hit_cycles": [],
        "dram_cycles": [("400-800", WON10)],
        "dram_peak_gbs": [("177", LIN21)],
        "stream_best_gbs": [("106-124", "60-70% of 177 GB/s: " + SUST)],
        "stream_pct_peak": [("60-70", SUST)],
        "xbar_pct_peak": [("~60", XBAR)],
    },
    "kepler-gk110": {
        "l1_hit_cycles": [("6", M2S)], "l2_hit_cycles": [("26", M2S + ": L1 6 + L2 20")],
        "dram_cycles": [("326", M2S + ": L1 6 + L2 20 + DRAM 300")],
        "dram_peak_gbs": [], "stream_best_gbs": [], "stream_pct_peak": [],
        "xbar_pct_peak": [],
    },
    "maxwell-gpuduet": {
        "l1_hit_cycles": [],
        "l2_hit_cycles": [("200", LIN31), ("200", LIN41)],
        "dram_cycles": [("450", LIN31), ("380", LIN41 + ", per [MC16]")],
        "dram_peak_gbs": [("307", LIN31), ("319", LIN41)],
        "stream_best_gbs": [("184-215", "60-70% of 307 GB/s: " + SUST)],
        "stream_pct_peak": [("60-70", SUST)],
        "xbar_pct_peak": [("~60 (of 614 GB/s)", XBAR + "; peak 614 GB/s " + LIN31)],
    },
}
LABEL = {
    "l1_hit_cycles": "L1 hit, load-to-use (core cycles)",
    "l2_hit_cycles": "L2 hit, load-to-use (core cycles)",
    "dram_cycles": "DRAM access, load-to-use (core cycles)",
    "dram_peak_gbs": "DRAM peak (GB/s)",
    "stream_best_gbs": "STREAM sustained DRAM BW, best kernel (GB/s)",
    "stream_pct_peak": "STREAM % of DRAM peak (copy/scale/add/triad/dot)",
    "xbar_pct_peak": "crossbar L2->SM data rate in STREAM, % of peak",
}


def _hops(rec, what):
    """The hop count the chase driver logged ("chase: N nodes, ... H hops (W warm-up)"), read
    back rather than repeating workloads/chase/chase.c's schedule here."""
    found = re.findall(r"^chase: .* (\d+) hops ", rec["stdout"], re.M)
    if len(found) != 1:
        raise SweepError(f"memory-baselines: no hop count in the log of {what}")
    return int(found[0])


def _one_launch(rec, what):
    t = rec["data"]["timing"]
    launches, kernels = t["launches"], t["memory"]["per_kernel"]
    if len(launches) != 1 or len(kernels) != 1:
        raise SweepError(f"memory-baselines: {what}: expected one launch, got {len(launches)}")
    return launches[0], kernels[0]


def _find(o, k):
    """The first dict under o that holds key k (the report's clock and crossbar sections)."""
    if isinstance(o, dict):
        if k in o:
            return o
        o = list(o.values())
    if isinstance(o, list):
        for v in o:
            r = _find(v, k)
            if r is not None:
                return r
    return None


def _sizes(ctx, c, w):
    """The sizes the sweep ran workload w at on config c, smallest first."""
    order = ("small", "medium", "large")
    return sorted({p.axes.get("size", "small") for p in ctx.sweep.points
                   if p.axes.get("config") == c and p.axes.get("workload") == w},
                  key=order.index)


def measure(ctx, c):
    rows, raw = {}, {}
    for w, key, served in (("chase", "l1_hit_cycles", "l1"),
                           ("chase_l2", "l2_hit_cycles", "l2"),
                           ("chase_dram", "dram_cycles", "dram")):
        sizes = _sizes(ctx, c, w)
        if len(sizes) != 2:
            raise SweepError(f"memory-baselines: {w} on {c} must run at two sizes (has "
                             f"{sizes or 'none'})")
        sm, sl = sizes
        rm, rl = ctx.record(config=c, workload=w, size=sm), \
            ctx.record(config=c, workload=w, size=sl)
        (lm, km), (ll, kl) = _one_launch(rm, f"{w} {sm} {c}"), _one_launch(rl, f"{w} {sl} {c}")
        hm, hl = _hops(rm, f"{w} {sm} {c}"), _hops(rl, f"{w} {sl} {c}")
        dh = hl - hm
        per_hop = (ll["cycles"] - lm["cycles"]) / dh

        def d(k):
            return kl[k] - km[k]
        if served == "l1":
            frac = d("l1d_read_hits") / dh
        elif served == "l2":
            frac = (d("l2_read_hits") - d("l1d_read_hits")) / dh
        else:
            frac = (d("l2_reads") - d("l2_read_hits") - d("l1d_read_hits")) / dh
        rows[key] = {"ours": round(per_hop, 1), "served": round(frac, 3)}
        raw[w] = {"hops": [hm, hl], "launch_cycles": [lm["cycles"], ll["cycles"]]}
    j = ctx.record(config=c, workload="stream_cg")["data"]
    ck = _find(j, "dram_mhz")
    core, dram, icnt = ck["core_mhz"], ck["dram_mhz"], ck["icnt_mhz"]
    mem = j["timing"]["memory"]
    launches = j["timing"]["launches"]
    peak_b = mem["derived"]["dram_peak_bytes_per_dram_cycle"]
    peak_gbs = peak_b * dram * 1e6 / 1e9
    pct, gbs = [], []
    for L, K in zip(launches, mem["per_kernel"]):
        t = L["cycles"] / (core * 1e6)
        by = K["dram_read_bytes"] + K["dram_write_bytes"]
        gbs.append(by / t / 1e9)
        pct.append(100.0 * by / (L["cycles"] * dram / core) / peak_b)
    flit = _find(j, "flit_bytes")["flit_bytes"]
    port = _find(j, "port_bytes")["port_bytes"]
    slices = len(mem["l2_slices"])
    xbar_gbs = max(K["icnt_rep_flits"] * flit / (L["cycles"] / (core * 1e6)) / 1e9
                   for L, K in zip(launches, mem["per_kernel"]))
    xbar_peak = slices * port * icnt * 1e6 / 1e9
    rows["dram_peak_gbs"] = {"ours": round(peak_gbs, 1)}
    best = max(range(len(gbs)), key=lambda i: gbs[i])
    rows["stream_best_gbs"] = {"ours": round(gbs[best], 1), "kernel": launches[best]["kernel"],
                               "per_kernel": {L["kernel"]: round(g, 1)
                                              for L, g in zip(launches, gbs)}}
    rows["stream_pct_peak"] = {"ours": "/".join(f"{p:.0f}" for p in pct),
                               "per_kernel": {L["kernel"]: round(p, 1)
                                              for L, p in zip(launches, pct)}}
    rows["xbar_pct_peak"] = {"ours": round(100.0 * xbar_gbs / xbar_peak, 1),
                             "gbs": round(xbar_gbs, 1), "peak_gbs": round(xbar_peak, 1)}
    for k, r in rows.items():
        r["measure"] = LABEL[k]
        r["paper"] = [{"value": v, "source": s} for v, s in PAPER[c][k]]
    return {"rows": rows, "raw": raw, "clock_mhz": {"core": core, "icnt": icnt, "dram": dram}}


def _paper(c, k, i=0):
    ps = PAPER[c][k]
    return ps[i][0] if len(ps) > i else None


def draw(ctx, res):
    cs = list(res)
    panels = []
    for k, title in (("l1_hit_cycles", "L1 hit"), ("l2_hit_cycles", "L2 hit"),
                     ("dram_cycles", "DRAM access")):
        panels.append({
            "title": f"{title}: load-to-use latency", "ylabel": "core cycles",
            "categories": cs,
            "series": {"Heddle": [res[c]["rows"][k]["ours"] for c in cs]},
            "paper": {"paper (first source)": [_paper(c, k) for c in cs],
                      "paper (second source)": [_paper(c, k, 1) for c in cs]},
            "rotate": 15})
    for p in panels:
        p["paper"] = {n: v for n, v in p["paper"].items() if any(x is not None for x in v)}
    figures.bar_panels(ctx.path("latency.png"), panels,
                       suptitle="Memory latency per level: Heddle beside Lin's tables "
                       "(grey, hatched: published; bar = range midpoint, whisker = range)")
    kernels = list(res[cs[0]]["rows"]["stream_pct_peak"]["per_kernel"])
    bw = {"title": "DRAM bandwidth", "ylabel": "GB/s", "categories": cs, "rotate": 15,
          "series": {"peak (ours, configured)": [res[c]["rows"]["dram_peak_gbs"]["ours"]
                                                 for c in cs],
                     "STREAM best kernel": [res[c]["rows"]["stream_best_gbs"]["ours"]
                                            for c in cs]},
          "paper": {"peak (paper)": [_paper(c, "dram_peak_gbs") for c in cs],
                    "sustained (paper)": [_paper(c, "stream_best_gbs") for c in cs]}}
    pct = {"title": "STREAM: % of DRAM peak per kernel", "ylabel": "% of peak",
           "categories": cs, "rotate": 15,
           "series": {kn: [res[c]["rows"]["stream_pct_peak"]["per_kernel"].get(kn)
                           for c in cs] for kn in kernels},
           "paper": {"paper: saturation": [_paper(c, "stream_pct_peak") for c in cs]},
           "legend": "lower right"}
    xb = {"title": "Crossbar L2->SM: % of peak (busiest kernel)", "ylabel": "% of peak",
          "categories": cs, "rotate": 15,
          "series": {"Heddle": [res[c]["rows"]["xbar_pct_peak"]["ours"] for c in cs]},
          "paper": {"paper: sustainable": [_paper(c, "xbar_pct_peak") for c in cs]},
          "legend": "lower right"}
    figures.bar_panels(ctx.path("bandwidth.png"), [bw, pct, xb], width=12,
                       suptitle="STREAM DRAM bandwidth and crossbar data rate: Heddle beside "
                       "Lin's tables (grey, hatched)")


def report(ctx):
    present = {p.axes.get("config") for p in ctx.sweep.points}
    res = {c: measure(ctx, c) for c in CONFIGS if c in present}
    if not res:
        raise SweepError("memory-baselines: the sweep runs none of " + ", ".join(CONFIGS))
    ctx.write_json("memory-baselines.json", {"experiment": "memory-baselines", "configs": res})
    ctx.write_csv("points.csv")
    draw(ctx, res)
    warn = []
    md = ["# memory-baselines: memory latency and bandwidth beside Lin's tables", "",
          f"Generated by `experiments/sweep.py {os.path.relpath(ctx.sweep.path, ctx.root)}` "
          "from its results store; do not edit. Method: `experiments/memory-baselines.py`, "
          "`experiments/README.md`.", "",
          "![latency per level](latency.png)", "", "![STREAM bandwidth](bandwidth.png)", ""]
    for c in res:
        r, ck = res[c]["rows"], res[c]["clock_mhz"]
        md += [f"## {c} (core {ck['core']:g} MHz, DRAM {ck['dram']:g} MHz)", ""]
        table = []
        for k in LABEL:
            o = str(r[k]["ours"])
            if "served" in r[k]:
                o += f" [{r[k]['served']:.2f}]"
                if r[k]["served"] < 0.95:
                    warn.append(f"{c}: only {r[k]['served']:.2f} of the measured hops of "
                                f"{k} were served by the intended level")
            if k == "xbar_pct_peak":
                o += f" ({r[k]['gbs']:g}/{r[k]['peak_gbs']:g} GB/s)"
            ps = PAPER[c][k] or [("-", "no counterpart in the papers")]
            for i, (v, s) in enumerate(ps):
                table.append([LABEL[k] if i == 0 else "", o if i == 0 else "", v, s])
        md += [md_table(["measure", "Heddle", "paper", "source"], table)]
    md += ["`[x.xx]` after a latency: the share of the measured hops served by that level "
           "(1.00 = all of them).", ""]
    if warn:
        md += ["## Warnings", ""] + [f"- {w}" for w in warn] + [""]
    md += ["## Points", "", f"{len(ctx.sweep.points)} heddle runs of {ctx.identity}; every "
           "row in [points.csv](points.csv) (status, wall and CPU seconds, peak RSS, cycles).",
           ""]
    ctx.write_text("report.md", "\n".join(md))
