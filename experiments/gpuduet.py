# SPDX-License-Identifier: MIT
"""gpuduet: Lin thesis ch.3's GPUDuet beside the thesis's figures (issue 28; digest §6.3).

Points (experiments/gpuduet.toml at small size, experiments/gpuduet-medium.toml at medium size: a
subset of the workloads and MEs), all on configs/maxwell-gpuduet.ini (Table 3.1):
  base        [sm] allocator = partitioned (no switching): the baseline of every speedup
  me1..me8    allocator = gpuduet, [gpuduet] dynamic = false, me = N (Fig 3.12; each kernel's
              ME is capped by its upper bound, so "8" is min(8, ME_ub))
  gpuduet     allocator = gpuduet with the throughput monitor and ME controller (Fig 3.13)
  gpuduet_tb  allocator = gpuduet_tb, same controller (TB-level switching only)
  vt          allocator = vt, me = 32: every extra TB its RF and shared memory hold
  port64/256  gpuduet with [sm] warp_move_bytes = 64 / 256 (Fig 3.15; 128 is `gpuduet`)
  csl         `gpuduet` (the same GPU-wide controller) with [gpuduet] blocks = true and
              monitor_blocks = false: every warp move timed by the CSL's data-mover block
              (State / port width with the pipeline's port use in the way, one job per SM at a
              time) instead of Lin's contention-free State / BW (gpuduet-lin, session 20)
Speedup = base cycles / point cycles (the whole workload: every kernel of it); where a run is
a window measurement (`--window W`, gpuduet-paper: Lin's first 4 M cycles, session 21), the
IPC over the first W cycles / the baseline's (a run that ends sooner: over all of it, Lin's
"unless it finishes"); with `--sample`
rows in the runs (gpuduet-lin, Session 19) also over Lin's window: IPC over each launch's
baseline span, first TB to last TB placed (_spans, _window_ipc). Categories are
the thesis's Fig 3.12 groups with our stand-ins (workloads/README.md, "Lin thesis Table 3.2").
TLP = resident warp-cycles of the launches / cycles / SMs (warps in a slot, as the SMs count
them). Register allocation (session 27): each kernel's r / R from the statistics GPUDuet's plan
writes (launch_stats.def gpuduet_*), averaged as the thesis's 44 % (_reg_mean). Port width
(Fig 3.15): every kernel run at 256, 128 and 64 B, by the measure of the headline. Nothing here is fitted to the thesis's numbers; the thesis's are quoted beside ours.
"""

import math
import os

from heddle_sweep import SweepError, figures
from heddle_sweep.heddle import parse_stats
from heddle_sweep.report import md_table

CATEGORIES = {
    # HG: histo1024_r10 since session 25 (24 registers in the model: the thesis's 8 extra TBs;
    # docs/gpuduet.md "Session 25: HG"), histo1024 (55) before, kept so that older stores report
    # BT: btree_r28 (session 28) is btree with both kernels counted at the thesis's 28 registers
    # per thread (its RF 88 % full at 8 TBs/SM; docs/gpuduet.md "Session 28"); HS: hotspot_r31
    # (session 28) is hotspot counted at 31 registers, register-limited with no room for a VT TB
    # as the thesis's HS (L2377-L2379; hotspot's 16 leave it warp-slot-limited)
    "underutilised": [("BFS", "bfs"), ("BT", "btree"), ("BT", "btree_r28"), ("DWT_2", "dwt2d"),
                      ("HG", "histogram"),
                      ("HG", "histo1024"), ("HG", "histo1024_r10"), ("HS", "hotspot"),
                      ("HS", "hotspot_r31")],
    # MM: mm2_poly, Polybench/GPU 2MM's own kernels (session 22); mm2 (a register accumulator)
    # before, kept so that older stores still report; SPMV: spmv_jds, Parboil's one JDS kernel
    # (session 24), spmv (CSR scalar, vector, ELL) before
    "moderate": [("MMS", "sgemm"), ("CONV", "conv2d"), ("MM", "mm2_poly"), ("MM", "mm2"),
                 ("ST", "stencil3d"), ("SPMV", "spmv_jds"), ("SPMV", "spmv")],
    "saturated": [("BP_1", "backprop"), ("CFD", "cfd"), ("KM", "kmeans"), ("LBM", "lbm"),
                  ("SAD_2", "sad")],
    "other Table 3.2": [("FDTD_1/2", "fdtd2d"), ("CP", "cutcp")],
}
# The thesis's statements (digest §6.3; Fig 3.12-3.15 give bars, the text gives these numbers).
PAPER = {
    "underutilised": "+23 % to +47 % at the ME upper bound; the controller finds it",
    "moderate": "MMS, CONV, MM, ST +7 % to +25 %; SPMV only degrades; MM best at ME 3",
    "saturated": "BP_1 gains very little; CFD, KM, LBM, SAD_2 lose; KM down to -26 %: ME = 0",
    "other Table 3.2": "-",
}
PAPER_HEADLINE = [
    ("GPUDuet geomean over the baseline (Fig 3.13)", "+22 % (up to +47 %)"),
    ("GPUDuet over VT, all / unsaturated", "+12 % / +16 %"),
    ("TLP on unsaturated kernels, VT / GPUDuet", "+18 % / +70 %"),
    ("port width 256 / 128 / 64 B (Fig 3.15)", "+24 % / +22 % / +18 %"),
    ("register allocation after liveness + compression", "44 % of the original"),
]
# What the thesis says of single kernels (digest §6.3; the bars of Fig 3.12/3.13 are not in
# the source, only these statements).
PAPER_KERNEL = {
    "BFS": "within +23..47 %; warp level beats TB level",
    "BT": "within +23..47 %; GPUDuet 6 extra TBs, VT 1",
    "DWT_2": "within +23..47 %; 2 extra TBs (registers in L1D)",
    "HG": "within +23..47 %; 8 extra TBs (smem to RF)",
    "HS": "within +23..47 %; warp level beats TB level",
    "MMS": "+7..25 %; VT adds none",
    "CONV": "+7..25 %",
    "MM": "+7..25 %; best at ME 3",
    "ST": "+7..25 %; VT adds none",
    "SPMV": "degrades with ME",
    "BP_1": "very little",
    "CFD": "loses with ME; VT adds none",
    "KM": "down to -26 %: ME 0; VT below base",
    "LBM": "loses with ME; VT adds none",
    "SAD_2": "loses with ME",
}
MES = [1, 2, 4, 8]
# Table 3.2's data set against our medium input (workloads/*/README.md): where Lin's is ours,
# his kernel ends well within his 4 M cycles (ours take 0.12-0.29 M), so he measured the whole
# kernel, tail included; where his is larger his first 4 M cycles lie before the tail. Lin's
# measure is then the whole run or the window (Session 19, docs/gpuduet.md).
LIN_INPUT = {
    "bfs": ("larger", "16 M nodes; ours 131,072"),
    "btree": ("same", "1 M nodes = ours"),
    "btree_r28": ("same", "1 M nodes = ours"),
    "histo1024": ("same", "4 M elements = ours"),
    "histo1024_r10": ("same", "4 M elements = ours"),
    "hotspot": ("same", "512 x 512 = ours"),
    "hotspot_r31": ("same", "512 x 512 = ours"),
    "sgemm": ("larger", "1024^2; ours 256^3"),
    "conv2d": ("larger", "4096^2; ours 2048^2"),
    "mm2": ("larger", "2048^2; ours 256"),
    "mm2_poly": ("larger", "2048^2; ours 256"),
    "spmv": ("larger", "Parboil large; ours 16,384 rows"),
    "spmv_jds": ("larger", "Parboil large (Dubcova3); ours 80,001 rows"),
    "backprop": ("same", "65,536 nodes = ours"),
    "cfd": ("larger", "0.2 M nodes; ours 30,000"),
    "kmeans": ("larger", "494,020 points; ours 65,536"),
    "lbm": ("larger", "Parboil long; ours 32^3"),
    "sad": ("same", "Parboil default; ours QCIF"),
    "fdtd2d": ("larger", "2048^2; ours 512^2"),
}


def _rows(ctx):
    """{(workload, variant): row} from the tidy table."""
    out = {}
    for r in ctx.tidy():
        a = r.get("set.sm.allocator") or "partitioned"
        if a == "partitioned" and str(r.get("set.l1d.bypass_global")).lower() == "true":
            v = "base_l1byp"  # (the baseline of a point whose L1D §2.10's rule bypassed)
        elif a == "partitioned":
            v = "base"
        elif str(r.get("set.gpuduet.blocks")).lower() == "true":
            v = "csl"
        elif str(r.get("set.sm.warp_move_bytes") or "") in ("64", "256"):
            v = "port" + str(r["set.sm.warp_move_bytes"])
        elif a == "gpuduet" and str(r.get("set.gpuduet.dynamic")).lower() == "false":
            v = "me" + str(r["set.gpuduet.me"])
        else:
            v = a
        if r["status"] in ("missing", "failed"):  # not run yet, or named in the report
            continue
        if r["status"] != "ok":
            raise SweepError(f"gpuduet: {r['workload']} {v}: {r['status']}")
        out[(r["workload"], v)] = r
    return out


def _speedup(base, r):
    """A point's speedup over its baseline: base cycles / cycles for runs to their end; IPC /
    the baseline's IPC when either run is a window measurement (`heddle run --window W`: both
    measured over their first W cycles, or over the whole run where it ended sooner)."""
    if "window" in (base.get("measured"), r.get("measured")):
        return float(r["ipc"]) / float(base["ipc"]) if float(base["ipc"] or 0) else None
    return base["cycles"] / r["cycles"]


def _reference(rows, w, bypassed):
    """The baseline a point of workload w is normalised to. Lin normalises a benchmark whose L1D
    §2.10's rule bypassed (DWT_2) to "the baseline architecture with the bypassed L1 D-cache"
    (L2314-L2318), so that the speedup is the extra TBs', not the bypass's: such a point's
    reference is the baseline run with `[l1d] bypass_global = true` (variant base_l1byp), and
    None (no speedup: not comparable) where that run is missing; every other point's is the
    baseline (session 24, docs/gpuduet.md "SPMV and the L1D hand-over")."""
    return rows.get((w, "base_l1byp" if bypassed else "base"))


def _l1d_bypassed(ctx, r):
    """Did the run bypass the L1D for some loads (the memory model's l1d_bypass counter: the
    §2.10 rule's hand-over, or a configuration that bypasses it)?"""
    return int(_stats(ctx, r)["memory"]["total"].get("l1d_bypass", 0)) > 0


def _gmean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def _pct(x):
    return "-" if x is None else f"{(x - 1) * 100:+.1f} %"


def _tlp(ctx, r):
    full = [k for k in ctx.keys if k.startswith(r["key"])]
    rec = ctx.store.rows(full)[full[0]]
    t = parse_stats(rec["stats"])["timing"]
    cyc = t["totals"]["cycles"]
    warps = sum(l.get("resident_warp_cycles", 0) for l in t["launches"])
    outs = sum(s.get("warp_switch_outs", 0) for s in t["sms"])
    nsm = max(1, len(t["sms"]))
    waves = max([l["ctas"] / (nsm * l["ctas_per_sm"]) for l in t["launches"]
                 if l.get("ctas_per_sm")] or [0.0])
    return (warps / cyc / nsm if cyc else 0.0), outs, waves


def _stats(ctx, r):
    full = [k for k in ctx.keys if k.startswith(r["key"])]
    return parse_stats(ctx.store.rows(full)[full[0]]["stats"])["timing"]


def _cum(t):
    """Cumulative warp instructions of the whole GPU at a cycle, from the run's `--sample`
    rows (linear between two samples; after the last one, the run's totals at its end)."""
    pts = [(0, 0)] + [(row[0], row[1]) for row in t.get("samples", {}).get("rows", [])]
    pts.append((t["totals"]["cycles"], t["totals"]["warp_instrs"]))

    def at(c):
        for (c0, i0), (c1, i1) in zip(pts, pts[1:]):
            if c0 <= c <= c1:
                return i0 + (i1 - i0) * (c - c0) / (c1 - c0) if c1 > c0 else i1
        return pts[-1][1]
    return at


def _spans(tb):
    """The measured span of each launch of a baseline run (Session 19, docs/gpuduet.md): from
    its first TB placed to its last fresh TB placed, after which the grid only drains. Lin
    measures each kernel over its first 4 M cycles (L1574-L1580, L2295-L2299) on inputs long
    enough that, for most kernels, every SM is full of TBs the whole time; the span is that
    part of our (shorter) launches. A launch placed in one go has span 0 and is not measured."""
    return [max(0, l.get("last_place_cycle", l["start_cycle"]) - l["start_cycle"])
            for l in tb["launches"]]


def _window_ipc(t, spans):
    """IPC of a run over each launch's first `spans[i]` cycles from its own first TB (all of
    the launch if it ended sooner: Lin's "unless the kernel finishes sooner"), summed over the
    launches: (instructions, cycles, launches overlapping their successor)."""
    at, ins, cyc, over = _cum(t), 0.0, 0, 0
    ls = t["launches"]
    for i, (l, d) in enumerate(zip(ls, spans)):
        if d <= 0:
            continue
        if i + 1 < len(ls) and ls[i + 1]["start_cycle"] < l["end_cycle"]:
            over += 1  # (the GPU's totals would mix two launches: counted, reported)
        if l["cycles"] <= d:
            ins, cyc = ins + l["warp_instrs"], cyc + l["cycles"]
        else:
            ins, cyc = ins + at(l["start_cycle"] + d) - at(l["start_cycle"]), cyc + d
    return ins, cyc, over


def _util(ctx, r):
    """Table 3.3's five utilisations of a run over its whole length (the controller's per-window
    quantities, docs/gpuduet.md "Throughput monitor"), and the class they give."""
    full = [k for k in ctx.keys if k.startswith(r["key"])]
    t = parse_stats(ctx.store.rows(full)[full[0]]["stats"])["timing"]
    c, m = t["config"], t["memory"]
    mt, cyc = m["total"], m["cycles"]
    nsm = c["gpu"]["num_sms"]
    u = {"sched": t["schedulers_total"]["issued"] / max(1, cyc["core"] * nsm *
                                                          c["sm"]["num_schedulers"]),
         "L1": mt.get("l1d_hit_port", mt["l1d_reads"] + mt["l1d_writes"]) /
               max(1, cyc["core"] * nsm),
         "icnt": max(mt["icnt_req_flits"], mt["icnt_rep_flits"]) / max(1, cyc["icnt"] * nsm * 0.6),
         "L2": mt.get("l2_hit_port", mt["l2_reads"] + mt["l2_writes"] + mt["l2_atomics"]) /
               max(1, cyc["l2"] * len(m["l2_slices"])),
         "DRAM": sum(d["data_cycles"] for d in m["dram_commands"]) /
                 max(1, cyc["dram"] * len(m["dram_commands"]))}
    if (u["sched"] > .8 or u["icnt"] > .9 or u["DRAM"] > .7 or u["L1"] > .8 or u["L2"] > .8):
        cls = "saturated"
    elif (u["sched"] < .6 and u["icnt"] < .6 and u["DRAM"] < .5 and u["L1"] < .6 and
          u["L2"] < .6):
        cls = "underutilised"
    else:
        cls = "moderate"
    return u, cls


# The points whose statistics give a workload's GPUDuet plan (session 27): the plan depends on
# the kernel and the SM, not on ME or the port, so any point with a GPUDuet allocator has it;
# the controller's point first.
REG_VARIANTS = ["gpuduet", "me4", "me1", "me2", "me8", "gpuduet_tb", "csl", "port64", "port256",
                "vt"]


def _regsize(ctx, rows, w):
    """The register allocation sizes of workload w's kernels (Lin §3.6.6, L2207-L2224): from the
    per-launch statistics a GPUDuet run writes (launch_stats.def gpuduet_*: R = register units
    per warp as allocated, live = most live units at a switch-out point, r = the same live
    registers compressed, the plan's reduced size, at most R; points = switch-out points), one
    entry per distinct kernel (its first planned launch). [] when no point of w has them (a
    store from before session 27, or only the baseline)."""
    for v in REG_VARIANTS:
        r = rows.get((w, v))
        if not r:
            continue
        ks, seen = [], set()
        for l in _stats(ctx, r)["launches"]:
            if not l.get("gpuduet_reg_units") or l["kernel"] in seen:
                continue
            seen.add(l["kernel"])
            ks.append({"kernel": l["kernel"], "R": l["gpuduet_reg_units"],
                       "live": l.get("gpuduet_reg_units_live", 0),
                       "r": l.get("gpuduet_reg_units_reduced", 0),
                       "points": l.get("gpuduet_switch_points", 0), "from": v})
        if ks:
            return ks
    return []


def _reg_mean(regs):
    """The thesis's average (L2222-L2224: "the register allocation size is 44 % of the original
    size on average"; the size is one per kernel, the maximum over its switch-out points): the
    arithmetic mean of r / R over the kernels, each distinct kernel of each workload once,
    leaving out kernels with no switch-out point (no warp of theirs is ever switched out, so
    they have no allocation size; r = R there). (mean, kernels averaged, kernels left out)."""
    xs = [k["r"] / k["R"] for ks in regs.values() for k in ks if k["points"] and k["R"]]
    left = sum(1 for ks in regs.values() for k in ks if not k["points"])
    return (sum(xs) / len(xs) if xs else None), len(xs), left


# Table 3.1 (digest §4.2) against the runs' configuration: (section, key, thesis value).
TABLE31 = [("gpu", "num_sms", 16), ("clock", "core_mhz", 1000.0), ("sm", "num_schedulers", 4),
           ("sm", "scheduler", "gto"), ("sm", "max_ctas", 32), ("sm", "max_threads", 2048),
           ("sm", "registers", 65536), ("sm", "shared_mem_bytes", 98304),
           ("l1d", "sets", 32), ("l1d", "line", 128), ("icnt", "port_bytes", 32),
           ("clock", "icnt_mhz", 1200.0), ("dram", "channels", 16), ("sm", "warp_move_bytes", 128)]


def _setup(ctx, rows):
    """The configuration of a baseline run beside Table 3.1."""
    r = next(r for (w, v), r in rows.items() if v == "base")
    full = [k for k in ctx.keys if k.startswith(r["key"])]
    c = parse_stats(ctx.store.rows(full)[full[0]]["stats"])["timing"]["config"]
    out = []
    for sec, key, want in TABLE31:
        got = c.get(sec, {}).get(key)
        out.append([f"[{sec}] {key}", str(got), str(want), "yes" if got == want else "NO"])
    return out


def _monitor_timing(ctx):
    """The warm-up / window of the dynamic points, as the sweep set them (else the config's)."""
    got = set()
    for r in ctx.tidy():
        if str(r.get("set.gpuduet.dynamic")).lower() == "true":
            got.add((r.get("set.gpuduet.warmup") or "10000", r.get("set.gpuduet.window") or "10000"))
    if not got:
        return "- (no dynamic point)"
    return ", ".join(f"{int(float(w)):,} / {int(float(n)):,}" for w, n in sorted(got))


def report(ctx):
    rows = _rows(ctx)
    size = "/".join(sorted({str(r.get("size") or "small") for r in ctx.tidy()}))
    missing = sum(r["status"] == "missing" for r in ctx.tidy())
    failed = [r for r in ctx.tidy() if r["status"] == "failed"]
    wls = sorted({w for w, _ in rows})
    variants = ["base"] + [f"me{m}" for m in MES] + ["gpuduet", "gpuduet_tb", "vt", "port64",
                                                      "port256", "csl"]
    sp, tlp, outs, waves = {}, {}, {}, {}
    byp = {}  # (w, v) -> speedup over the cached baseline, for points whose L1D was bypassed
    for w in wls:
        base = rows.get((w, "base"))
        if not base:
            continue
        for v in variants:
            r = rows.get((w, v))
            if r:
                b = v != "base" and _l1d_bypassed(ctx, r) and not _l1d_bypassed(ctx, base)
                ref = _reference(rows, w, b)
                sp[(w, v)] = _speedup(ref, r) if ref else None
                if b:
                    byp[(w, v)] = _speedup(base, r)
                tlp[(w, v)], outs[(w, v)], waves[(w, v)] = _tlp(ctx, r)
    # Lin's measure (Session 19): IPC over each launch's baseline span, the same cycles for
    # every scheme; the whole-run speedup stays beside it
    spw, span = {}, {}
    for w in wls:
        base = rows.get((w, "base"))
        if not base:
            continue
        tb = _stats(ctx, base)
        if not tb.get("samples", {}).get("rows"):
            continue  # (a store run without --sample: no window)
        spans = _spans(tb)
        bi, bc, bo = _window_ipc(tb, spans)
        if not bc or not bi:
            continue
        span[w] = (bc, base["cycles"], bo)
        for v in variants:
            r = rows.get((w, v))
            if r:
                ri, rc, _ = _window_ipc(_stats(ctx, r), spans)
                if (w, v) in byp:  # (over the bypassed baseline's same spans, if it has them)
                    ref = _reference(rows, w, True)
                    ts = _stats(ctx, ref) if ref else {}
                    xi, xc, _ = (_window_ipc(ts, spans) if ts.get("samples", {}).get("rows")
                                 else (0, 0, 0))
                    spw[(w, v)] = (ri / rc) / (xi / xc) if rc and xi and xc else None
                else:
                    spw[(w, v)] = (ri / rc) / (bi / bc) if rc else None
    def lin(w, v):  # Lin's measure for this data set: the window, or the whole run
        return (spw if LIN_INPUT.get(w, ("larger",))[0] == "larger" else sp).get((w, v))
    res = {"speedup": {f"{w}/{v}": x for (w, v), x in sp.items()},
           "speedup_lin_measure": {f"{w}/{v}": lin(w, v) for w in span for v in variants
                                   if lin(w, v)},
           "speedup_window": {f"{w}/{v}": x for (w, v), x in spw.items()},
           "window_cycles": {w: x[0] for w, x in span.items()},
           "tlp": {f"{w}/{v}": x for (w, v), x in tlp.items()},
           "switch_outs": {f"{w}/{v}": x for (w, v), x in outs.items()},
           "base_waves": {w: x for (w, v), x in waves.items() if v == "base"},
           "l1d_bypassed_over_cached_base": {f"{w}/{v}": x for (w, v), x in byp.items()}}
    regs = {w: ks for w in wls for ks in [_regsize(ctx, rows, w)] if ks}
    res["reg_alloc"] = {w: [{k: x[k] for k in ("kernel", "R", "live", "r", "points")}
                            for x in ks] for w, ks in regs.items()}
    meas = {w: _util(ctx, rows[(w, "base")]) for w in wls if (w, "base") in rows}
    res["base_class"] = {w: {"class": c, **{k: round(v, 4) for k, v in u.items()}}
                         for w, (u, c) in meas.items()}
    ctx.write_json("gpuduet.json", {"experiment": "gpuduet", **res})
    ctx.write_csv("points.csv")

    # Fig 3.12: the ME sweep per category
    panels = []
    for cat, ks in CATEGORIES.items():
        present = [(lab, w) for lab, w in ks if (w, "base") in rows]
        if not present:
            continue
        panels.append({"title": f"{cat}: fixed ME", "ylabel": "speedup over baseline",
                       "categories": [f"{lab}\n({w})" for lab, w in present],
                       "series": {f"ME {m}": [sp.get((w, f"me{m}")) for _, w in present]
                                  for m in MES},
                       "hline": 1.0, "rotate": 0})
    figures.bar_panels(ctx.path("me_sweep.png"), panels, ncols=2, width=13,
                       suptitle="Fig 3.12 (ours): GPUDuet speedup per fixed ME, Table 3.2 "
                       "stand-ins on maxwell-gpuduet, " + size + " inputs")
    allw = [(lab, w) for ks in CATEGORIES.values() for lab, w in ks if (w, "base") in rows]
    figures.bar_panels(ctx.path("compare.png"), [{
        "title": "GPUDuet vs Virtual Thread vs GPUDuet_TB", "ylabel": "speedup over baseline",
        "categories": [lab for lab, _ in allw],
        "series": {n: [sp.get((w, v)) for _, w in allw]
                   for n, v in (("GPUDuet", "gpuduet"), ("VT", "vt"),
                                ("GPUDuet_TB", "gpuduet_tb"))},
        "hline": 1.0, "rotate": 60}], width=13,
        suptitle="Fig 3.13 (ours): dynamic ME (GPUDuet, GPUDuet_TB) and VT at its capacity")

    md = ["# gpuduet: GPUDuet, Virtual Thread and GPUDuet_TB beside Lin's thesis ch.3", "",
          f"Generated by `experiments/sweep.py {os.path.relpath(ctx.sweep.path, ctx.root)}` "
          "from its results store; do not edit. Method: `experiments/gpuduet.py`, "
          f"docs/gpuduet.md. Configuration `configs/maxwell-gpuduet.ini` (Table 3.1), {size} "
          f"inputs, monitor warm-up / window {_monitor_timing(ctx)} cycles (Lin: 10,000 / "
          "10,000; our kernels last tens to hundreds of thousands of cycles, Lin's about 4 M). "
          "The workloads, "
          "fixed MEs and sizes run are the sweep file's (its header says what it leaves out); "
          "a configuration not run shows as \"-\"." +
          (f" **Partial: {missing} points not run yet.**" if missing else "") +
          (" **Failed points (left out of every table, shown as \"-\"): " + "; ".join(
              f"{r['workload']} {r.get('set.sm.allocator') or 'partitioned'}: "
              f"{str(r.get('message') or '')[:160]}" for r in failed) + ".**" if failed else ""),
          "",
          "![ME sweep](me_sweep.png)", "", "![comparison](compare.png)", "",
          "## Setup check (a baseline run's configuration beside Table 3.1)", "",
          md_table(["key", "ours", "Table 3.1", "same"], _setup(ctx, rows)), "",
          "(Table 3.1 says 98 KB of shared memory; its address map uses 96 KB: "
          "digest §8.2 item 13.)", "",
          "## Headline numbers", ""]
    unsat = [w for cat in ("underutilised", "moderate") for _, w in CATEGORIES[cat]
             if (w, "base") in rows]
    g_all = _gmean([sp.get((w, "gpuduet")) for _, w in allw])
    vt_all = _gmean([sp.get((w, "gpuduet")) / sp[(w, "vt")] for _, w in allw
                     if sp.get((w, "gpuduet")) and sp.get((w, "vt"))])
    vt_un = _gmean([sp.get((w, "gpuduet")) / sp[(w, "vt")] for w in unsat
                    if sp.get((w, "gpuduet")) and sp.get((w, "vt"))])
    best = max((sp.get((w, "gpuduet")) or 0, lab) for lab, w in allw) if allw else (0, "-")

    def tlp_gain(v):
        return _gmean([tlp[(w, v)] / tlp[(w, "base")] for w in unsat
                       if tlp.get((w, v)) and tlp.get((w, "base"))])
    under = [w for _, w in CATEGORIES["underutilised"] if (w, "base") in rows]
    # Fig 3.15 (session 27): the thesis's 128 B bar is its headline +22 %, the geomean over all
    # its benchmarks (the underutilised group alone gains +23..47 % each, L2324-L2336), so the
    # figure covers every benchmark; ours: the kernels run at all three widths, by the measure
    # of the 128 B headline (Lin's where the runs have it, else whole run or window)
    pmeas = (lambda w, v: lin(w, v)) if spw else (lambda w, v: sp.get((w, v)))
    pws = [(lab, w) for lab, w in allw
           if all(pmeas(w, v) for v in ("port256", "gpuduet", "port64"))]
    ports = [_gmean([pmeas(w, v) for _, w in pws]) for v in ("port256", "gpuduet", "port64")]
    ports_un = [_gmean([pmeas(w, v) for _, w in pws if w in under])
                for v in ("port256", "gpuduet", "port64")]
    reg_mean, reg_n, reg_left = _reg_mean(regs)
    gw_all = _gmean([spw.get((w, "gpuduet")) for _, w in allw])
    vtw_all = _gmean([spw.get((w, "gpuduet")) / spw[(w, "vt")] for _, w in allw
                      if spw.get((w, "gpuduet")) and spw.get((w, "vt"))])
    vtw_un = _gmean([spw.get((w, "gpuduet")) / spw[(w, "vt")] for w in unsat
                     if spw.get((w, "gpuduet")) and spw.get((w, "vt"))])
    ours = [f"{_pct(g_all)} (best {_pct(best[0])}, {best[1]})",
            f"{_pct(vt_all)} / {_pct(vt_un)}",
            f"{_pct(tlp_gain('vt'))} / {_pct(tlp_gain('gpuduet'))}",
            (" / ".join(_pct(x) for x in ports) +
             f" ({len(pws)} kernels run at the three widths: " +
             ", ".join(lab for lab, _ in pws) + "; underutilised among them " +
             " / ".join(_pct(x) for x in ports_un) + ")" if pws else
             "- / - / - (no kernel run at the three widths)"),
            (f"{100 * reg_mean:.0f} % (mean of r / R over {reg_n} kernels, each once"
             + (f"; {reg_left} without a switch-out point left out" if reg_left else "") +
             "; table below)" if reg_mean is not None else
             "- (no GPUDuet point with the plan in its statistics)")]
    hl = [[m, o, p] for (m, p), o in zip(PAPER_HEADLINE, ours)]
    if spw:
        gl_all = _gmean([lin(w, "gpuduet") for _, w in allw])
        vtl_all = _gmean([lin(w, "gpuduet") / lin(w, "vt") for _, w in allw
                          if lin(w, "gpuduet") and lin(w, "vt")])
        hl[0:2] = [[PAPER_HEADLINE[0][0] + ", Lin's measure (window or whole run by data set)",
                    _pct(gl_all), PAPER_HEADLINE[0][1]],
                   [PAPER_HEADLINE[1][0].split(",")[0] + ", Lin's measure", _pct(vtl_all),
                    PAPER_HEADLINE[1][1].split(" /")[0]],
                   [PAPER_HEADLINE[0][0] + ", Lin's window", _pct(gw_all), PAPER_HEADLINE[0][1]],
                   [PAPER_HEADLINE[1][0] + ", Lin's window", f"{_pct(vtw_all)} / "
                    f"{_pct(vtw_un)}", PAPER_HEADLINE[1][1]],
                   [PAPER_HEADLINE[0][0] + ", whole run", ours[0], PAPER_HEADLINE[0][1]],
                   [PAPER_HEADLINE[1][0] + ", whole run", ours[1], PAPER_HEADLINE[1][1]]]
        if any(v == "csl" for _, v in rows):
            hl[1:1] = [["GPUDuet geomean with the CSL block's port contention, Lin's measure",
                        _pct(_gmean([lin(w, "csl") for _, w in allw])),
                        "- (State / 128 B, no contention)"]]
    md += [md_table(["measure", "Heddle", "thesis"], hl), ""]
    if byp:
        md += ["**L1D bypassed** (§2.10: an unsaturated kernel out of register-file and "
               "shared-memory room whose L1D utilisation is below 3 % gives the L1D to "
               "contexts and bypasses it). Lin normalises such a benchmark (DWT_2) to the "
               "baseline with the L1D bypassed (L2314-L2318); so do these tables, from the "
               "baseline run with `[l1d] bypass_global = true` (\"-\" where it was not run). "
               "Over the cached baseline: " + "; ".join(
                   f"{w} {v} {_pct(x)} (over the bypassed baseline {_pct(sp.get((w, v)))})"
                   for (w, v), x in sorted(byp.items())) + ".", ""]
    if spw:
        md += ["## Lin's window beside the whole run", "",
               "Lin measures IPC over each kernel's first 4 M cycles, or the whole kernel if it "
               "finishes sooner, the same for the baseline, VT and GPUDuet (L1574-L1580, "
               "L2295-L2299); on its long inputs most kernels fill every SM the whole time. "
               "Ours: each launch's **span** is the baseline's cycles from its first TB placed "
               "to its last TB placed (after which the grid only drains: the tail); every "
               "scheme is measured over the first span cycles of the same launch from its own "
               "first TB (all of the launch if it ends sooner), instructions from the runs' "
               "`--sample` series; launches placed in one go (span 0) are left out. Window = "
               "IPC over the spans / the baseline's; whole = baseline cycles / cycles. The "
               "window is the baseline's, not chosen per scheme.", ""]
        wt = []
        for cat, ks in CATEGORIES.items():
            for lab, w in ks:
                if w not in span:
                    continue
                bc, tot, over = span[w]
                wt.append([f"{lab} ({w})", f"{bc:,}", f"{100 * bc / tot:.0f} %"] +
                          [f"{_pct(spw.get((w, v)))} / {_pct(sp.get((w, v)))}"
                           for v in ("me1", "me4", "gpuduet", "csl", "vt")] +
                          [str(over) if over else "-",
                           ": ".join(LIN_INPUT.get(w, ("-", "-"))),
                           _pct(lin(w, "gpuduet")), _pct(lin(w, "csl"))])
        wt.append(["**geomean**", "", ""] +
                  [f"{_pct(_gmean([spw.get((w, v)) for w in span]))} / "
                   f"{_pct(_gmean([sp.get((w, v)) for w in span]))}"
                   for v in ("me1", "me4", "gpuduet", "csl", "vt")] +
                  ["", "", _pct(_gmean([lin(w, "gpuduet") for w in span])),
                   _pct(_gmean([lin(w, "csl") for w in span]))])
        md += [md_table(["kernel", "span (cycles)", "of base run", "ME 1 window / whole",
                         "ME 4", "GPUDuet (controller)", "GPUDuet, CSL block", "VT", "overlaps",
                         "Lin's data set (vs ours)", "GPUDuet, Lin's measure",
                         "CSL block, Lin's measure"], wt), "",
               "GPUDuet, CSL block: the same controller with every warp move timed by the CSL's "
               "data-mover block (`[gpuduet] blocks`, C references; State / port width with the "
               "pipeline's port use in the way, one job per SM at a time, a swap one job) "
               "instead of Lin's contention-free State / BW: the difference is what the port "
               "contention costs (docs/blocks/gpuduet.md \"The CSL's data mover\").", "",
               "Lin's measure: the window where Table 3.2's data set is larger than ours (his "
               "first 4 M cycles are before the tail), the whole run where it is ours (his "
               "kernel ends within 4 M cycles, so he measured all of it, tail included).", ""]

    if any(r.get("measured") for r in rows.values()):
        md += ["## Measured as the thesis (`--window`: the first W cycles)", "",
               "Lin runs \"each benchmark for 4 million cycles unless it finishes within 4 "
               "million cycles\" (§3.7, L2295-L2299) on Table 3.2's data sets. Each run here "
               "(`heddle run --window W`) stops at cycle W as a *window measurement* (exit 0, "
               "`measured = window`, output not verified) or ends sooner and is verified as "
               "usual (`whole`); speedup = IPC / the baseline's IPC over those cycles. The "
               "verification of each large input is a complete run elsewhere "
               "(docs/gpuduet.md \"Session 21\").", ""]
        wt = []
        for cat, ks in CATEGORIES.items():
            for lab, w in ks:
                base = rows.get((w, "base"))
                if not base:
                    continue
                meas_v = {v: (rows[(w, v)].get("measured") or "?") if (w, v) in rows else "-"
                          for v in ("base", "gpuduet", "gpuduet_tb", "vt")}
                wt.append([f"{lab} ({w})", str(base.get("size") or "-"),
                           " / ".join(f"{m}" for m in meas_v.values()),
                           f"{int(base['cycles']):,}", f"{float(base['ipc']):.2f}"] +
                          [_pct(sp.get((w, v))) for v in ("me1", "me4", "gpuduet", "gpuduet_tb",
                                                          "vt")])
        md += [md_table(["kernel", "input", "measured: base / GPUDuet / GPUDuet_TB / VT",
                         "base cycles", "base IPC", "ME 1", "ME 4", "GPUDuet (controller)",
                         "GPUDuet_TB", "VT"], wt), ""]
    if pws:
        md += ["## Port width (Fig 3.15)", "",
               "GPUDuet with the controller at `[sm] warp_move_bytes` = 256 / 128 / 64 B (the "
               "switch latency State / port width, Eq. 3.1-3.3), speedup over the baseline by "
               "the headline's measure" + (" (Lin's measure)" if spw else "") + ". The thesis: "
               "+24 / +22 / +18 % over its benchmarks (its 128 B bar is the +22 % geomean); "
               "HG and BT the most sensitive (L2446-L2462).", ""]
        pt = [[f"{lab} ({w})"] + [_pct(pmeas(w, v)) for v in ("port256", "gpuduet", "port64")]
              for lab, w in pws]
        pt.append(["**geomean**"] + [_pct(x) for x in ports])
        md += [md_table(["kernel", "256 B", "128 B", "64 B"], pt), ""]
    if regs:
        md += ["## Register allocation after liveness and compression (§3.6.6)", "",
               "Per kernel, from the runs' statistics (`launches[].gpuduet_reg_units*`, "
               "written by GPUDuet's plan): R = register units (128 B) per warp as allocated; "
               "live = the most live registers at a switch-out point (first uses of a "
               "global load's destination, barriers); r = the same compressed by their static "
               "pattern classes, the fixed per-warp size GPUDuet spills (at most R). The thesis: "
               "44 % of the original on average (L2222-L2224); ours is the arithmetic mean of "
               "r / R over the kernels below, each once (kernels with no switch-out point, "
               "r = R, left out).", ""]
        rt = []
        for cat, ks in CATEGORIES.items():
            for lab, w in ks:
                for k in regs.get(w, []):
                    rt.append([f"{lab} ({w})", k["kernel"], str(k["R"]), str(k["live"]),
                               str(k["r"]), str(k["points"]),
                               f"{100 * k['live'] / k['R']:.0f} %" if k["R"] else "-",
                               (f"{100 * k['r'] / k['R']:.0f} %" if k["points"] else
                                "- (no point)") if k["R"] else "-"])
        per_wl = [sum(k["r"] / k["R"] for k in ks if k["points"]) /
                  sum(1 for k in ks if k["points"]) for ks in regs.values()
                  if any(k["points"] for k in ks)]
        rt.append(["**mean**", f"{reg_n} kernels", "", "", "", "", "",
                   f"{100 * reg_mean:.0f} %" if reg_mean is not None else "-"])
        md += [md_table(["kernel (ours)", "kernel", "R", "live", "r", "points", "live / R",
                         "r / R"], rt), ""]
        if per_wl:
            md += [f"Each workload once (its kernels' mean first): "
                   f"{100 * sum(per_wl) / len(per_wl):.0f} % over {len(per_wl)} workloads.", ""]
    md += ["## Per workload", "",
           "Speedup over the baseline; TB waves = the largest launch's TBs over what the SMs "
           "hold natively (SMs x its TBs/SM at the baseline): at or below 1 no TB ever waits "
           "for room, so an extra TB has nothing to run and GPUDuet switches nothing out; "
           "GPUDuet outs = warps it switched out (dynamic ME); TLP = mean resident warps per "
           "SM.", ""]
    table = []
    for cat, ks in CATEGORIES.items():
        for lab, w in ks:
            if (w, "base") not in rows:
                continue
            table.append([cat, f"{lab} ({w})", str(rows[(w, "base")]["cycles"]),
                          f"{waves.get((w, 'base'), 0):.2f}", str(outs.get((w, "gpuduet"), 0))] +
                         [_pct(sp.get((w, v))) for v in variants[1:9]] +
                         [f"{tlp.get((w, 'base'), 0):.1f} / {tlp.get((w, 'gpuduet'), 0):.1f} / "
                          f"{tlp.get((w, 'vt'), 0):.1f}", PAPER_KERNEL.get(lab, "-")])
    md += [md_table(["category", "kernel (ours)", "base cycles", "TB waves", "GPUDuet outs"] +
                    variants[1:9] +
                    ["TLP base / GPUDuet / VT", "thesis (§6.3)"], table), ""]
    md += ["## Categories measured (Fig 3.4 / Table 3.3 on the baseline runs)", "",
           "Table 3.3's utilisations over the whole baseline run (the controller classifies "
           "the first window after its warm-up instead): scheduler issue slots, L1D "
           "data-port cycles of hits per SM-cycle, interconnect flits of the busier direction "
           "over 60 % of peak, L2 data-port cycles of hits per slice-cycle (Lin L1582-L1625: "
           "\"the data port is utilized when there is a cache hit\"), DRAM data-bus cycles. The thesis's group is the one "
           "its Fig 3.12 puts the kernel in.", ""]
    mt = []
    for cat, ks in CATEGORIES.items():
        for lab, w in ks:
            if w not in meas:
                continue
            u, c = meas[w]
            mt.append([f"{lab} ({w})", cat, c] +
                      [f"{u[k] * 100:.0f} %" for k in ("sched", "L1", "icnt", "L2", "DRAM")] +
                      ["yes" if c == cat else ("-" if cat.startswith("other") else "no")])
    md += [md_table(["kernel", "thesis's group", "measured", "sched", "L1D", "icnt", "L2",
                     "DRAM", "same"], mt), ""]
    md += ["## Per category: ours beside the thesis", ""]
    ct = []
    for cat, ks in CATEGORIES.items():
        ws = [w for _, w in ks if (w, "base") in rows]
        bestme = [max((sp.get((w, f"me{m}")) or 0) for m in MES) for w in ws]
        ct.append([cat, _pct(_gmean(bestme)), _pct(_gmean([sp.get((w, "gpuduet")) for w in ws])),
                   _pct(_gmean([sp.get((w, "vt")) for w in ws])),
                   _pct(_gmean([sp.get((w, "gpuduet_tb")) for w in ws])), PAPER[cat]])
    md += [md_table(["category", "best fixed ME (gmean)", "GPUDuet", "VT", "GPUDuet_TB",
                     "thesis"], ct), ""]
    md += ["Switch-outs per run are in `gpuduet.json` (`switch_outs`). Read the differences "
           "with docs/gpuduet.md, \"Experiment\" and \"What differs from the thesis\"" +
           (": at small size most grids do not fill the SMs, so no TB waits for room and "
            "GPUDuet does nothing (the TB waves and TLP columns show it)." if size == "small"
            else "."), ""]
    ctx.write_text("report.md", "\n".join(md))
