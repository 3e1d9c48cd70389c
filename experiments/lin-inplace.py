# SPDX-License-Identifier: MIT
"""lin-inplace: Lin's in-place context switching (thesis §2.2, SC'16; digest §6.1: "register
plus shared-memory spill latency falls a further 21.5 % on average versus 'complete' on 8
random kernel pairs, e.g. BT_1-HG_1; draining can be higher with in-place switching").

Contended pairs: B must arrive while A fills every SM, or nothing is preempted (the first run of
this study, B at cycle 5000: in 6 of 8 pairs B's CTAs found room beside A's). `lin-inplace.py
plan HEDDLE` runs every stand-in alone (small, GTX480, --stats) and keeps as first kernels those
with a launch L whose CTAs fill every SM (ctas >= SMs x ctas_per_sm, the launch's occupancy
limit); B arrives halfway through L's first wave: start + (end - start) x min(1, SMs x
ctas_per_sm / ctas) / 2 (every SM then holds ctas_per_sm CTAs of A, and A's occupancy limit -
threads, registers, shared memory or slots - leaves no room for a CTA of B). The 8 pairs are
drawn with random.Random(SEED) from (first kernel that fills, any other stand-in); plan prints
the sweep grid (experiments/lin-inplace.toml) and the mixes (workloads/mixes.ini). A and B run
on the GTX480 configuration with SMs that may hold two kernels ([sm] concurrent_kernels =
true), and the lower-priority A gives room by context switching with liveness + compression
(save = compressed, Lin's 'complete' baseline of the in-place study) under two preemption
policies (model/policy/preempt_policy.h):
  sm       every CTA of A on as many SMs as B needs (Lin's whole-SM switching);
  inplace  on each SM only the minimum victim set for one CTA of B (Lin's allocation tables;
           here the allocator's plan_victims, which answers the same minimum spill query).
Per run, over the preemption requests (statistics JSON `timing.preemptions`, launch B): bytes
saved, CTAs switched, latency = freed - signal (B's first CTA placed there), its drain part
(quiet - signal) and spill part (freed - quiet), and B's turnaround. Nothing is fitted to the
thesis's number.
"""

import json
import os
import random
import subprocess
import tempfile

from heddle_sweep import stage

SEED = 2026
KERNELS = ["backprop", "bfs", "btree", "cfd", "hotspot", "kmeans", "leukocyte", "lud", "srad",
           "pathfinder", "streamcluster", "histogram", "dwt2d", "heartwall"]
POLICIES = ["sm", "inplace"]
PAPER_REDUCTION = "21.5"   # % further spill-latency reduction vs 'complete' (digest §6.1, L1180-L1200)
# issue 24: the thesis's setup, as experiments/lin-ch2-faithful.py runs it (Table 2.1's 2
# round-robin schedulers, drained warps, one register allocation), with the selective points of
# the final design (the in-place study's 'complete' is liveness + compression at the points,
# L1180-L1200), the victims decided by Lin's two allocation tables in the loop and, for
# preempt_policy = inplace, Fig 2.4's split (room for an SM's worth of the newcomer's CTAs in
# one plan; a victim short only of registers keeps its shared memory in place)
FAITHFUL = {"sm.scheduler": "lrr", "sm.num_schedulers": 2, "sm.regs_source": "regalloc",
            "sm.allocator": "lin_tables", "context.quiesce": "writeback",
            "context.points": "selective", "context.inplace_split": True,
            "context.save_order": "warp"}  # Fig 2.13 step 5: each warp saved once drained
# the study before issue 24 (GTO schedulers, any-instruction stops, the partitioned allocator),
# kept as the earlier column
EARLIER_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "lin-inplace",
                            "earlier.json")


def fill_point(launches, sms):
    """The arrival cycle in A's run alone: halfway through the first wave of its launch that
    fills every SM by the most (None: no launch fills every SM)."""
    full = [l for l in launches if l["ctas"] >= sms * l["ctas_per_sm"] > 0]
    if not full:
        return None
    l = max(full, key=lambda l: (l["ctas"] / (sms * l["ctas_per_sm"]), -l["start_cycle"]))
    wave = min(1.0, sms * l["ctas_per_sm"] / l["ctas"])
    return l["start_cycle"] + int((l["end_cycle"] - l["start_cycle"]) * wave / 2)


def solo_arrivals(heddle, root):
    """Per stand-in: its fill point alone (small, GTX480), or None."""
    out = {}
    with tempfile.TemporaryDirectory() as d:
        for k in KERNELS:
            f = os.path.join(d, k + ".json")
            sets = [a for kv in FAITHFUL.items() for a in ("--set", f"{kv[0]}={kv[1]}")]
            subprocess.run([heddle, "run", k, "--size", "small", "--config",
                            os.path.join(root, "configs", "fermi-gtx480.ini"), "--quiet",
                            "--stats", f] + sets, check=True, capture_output=True, cwd=root)
            t = json.load(open(f))["timing"]
            out[k] = fill_point(t["launches"], t["config"]["gpu"]["num_sms"])
    return out


def pairs(arrivals):
    fillers = [k for k in KERNELS if arrivals.get(k) is not None]
    r, out = random.Random(SEED), []
    while len(out) < 8:
        a = r.choice(fillers)
        b = r.choice([k for k in KERNELS if k != a])
        if (a, b) not in out:
            out.append((a, b))
    return out


def plan(heddle):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    arr = solo_arrivals(heddle, root)
    print("# fill points (cycle, alone): " + ", ".join(f"{k} {v}" for k, v in arr.items()
                                                        if v is not None))
    grid, mixes = [], []
    for a, b in pairs(arr):
        grid.append(f'[[grid]]\nmix = "{a}+{b}"\nconfig = "fermi-gtx480"\nsize = "small"\n'
                    f'flags = "--arrive {b}@{arr[a]}:1"\nset.sm.concurrent_kernels = true\n'
                    + "".join(f'set.{k} = {_toml(v)}\n' for k, v in FAITHFUL.items()) +
                    'set.context.save = "compressed"\n'
                    'set.context.preempt_policy = ["sm", "inplace"]\n')
        mixes.append(f"[{a}+{b}]\nworkloads = {a} {b}\nkind = preemption\nwhy = Lin's in-place "
                     f"switching pair: {b} arriving at higher priority while {a} fills every SM "
                     f"takes only the room it needs (preempt_policy = inplace) or whole SMs (sm)\n")
    print("\n".join(grid))
    print("# ---- mixes.ini ----")
    print("\n".join(mixes))


def _toml(v):
    return ("true" if v else "false") if isinstance(v, bool) else (
        str(v) if isinstance(v, int) else f'"{v}"')


def arrival_of(flags):
    """The arrival cycle in a point's --arrive W@CYCLE:PRIO flag."""
    for tok in (flags or "").split():
        if "@" in tok:
            return int(tok.split("@")[1].split(":")[0])
    raise ValueError(f"no --arrive cycle in flags {flags!r}")


def _mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def measure(data, arrive):
    t = data["timing"]
    mhz = t["totals"]["core_mhz"]
    recs = [p for p in t["preemptions"] if p["launch"] != "signal" and p["met"]]
    lat = [p["freed"] - p["signal"] for p in recs]
    drain = [max(0, min(p["quiet"], p["freed"]) - p["signal"]) if p["quiet"] >= p["signal"]
             else 0 for p in recs]
    spill = [a - d for a, d in zip(lat, drain)]
    # Lin L1079: each warp's spill from its point to its registers out, accumulated over the
    # warps (the switched CTAs of a request), per request
    wsp = [p.get("warp_spill_cycles") for p in recs if p["switched"]]
    b = data["workloads"][1]
    return {
        "requests": len(recs),
        "ctas_switched": sum(p["switched"] for p in recs),
        "bytes": sum(p["bytes"] for p in recs),
        "latency_us": _mean(lat) / mhz if lat else None,
        "drain_us": _mean(drain) / mhz if drain else None,
        "spill_us": _mean(spill) / mhz if spill else None,
        "warp_spill_us": _mean(wsp) / mhz if wsp and None not in wsp else None,
        "smem_kept": sum(p.get("smem_kept", 0) for p in recs),
        "arriving_turnaround_us": (b["turnaround_cycles"] - arrive) / mhz,
        "arrive": arrive,
        "cycles": t["totals"]["cycles"],
        "verified": data["mix"]["verified"],
    }


def report(ctx):
    from heddle_sweep import SweepError, figures
    from heddle_sweep.heddle import parse_stats
    from heddle_sweep.report import md_table

    res = {}
    for p, key in zip(ctx.sweep.points, ctx.keys):
        row = ctx.store.rows([key]).get(key)
        if row is None:
            raise SweepError(f"lin-inplace: the point {p.label()} has no result in the store")
        res[(p.axes["mix"], p.axes["set.context.preempt_policy"])] = measure(
            parse_stats(row["stats"]), arrival_of(p.axes.get("flags")))
    mixes = []
    for p in ctx.sweep.points:
        if p.axes["mix"] not in mixes and (p.axes["mix"], "sm") in res:
            mixes.append(p.axes["mix"])

    def red(m, k):
        a, b = res[(m, "sm")][k], res.get((m, "inplace"), {}).get(k)
        return None if a in (None, 0) or b is None else 100.0 * (1 - b / a)

    rows, keys = [], ["bytes", "spill_us", "warp_spill_us", "latency_us", "drain_us"]
    for m in mixes:
        s, i = res[(m, "sm")], res.get((m, "inplace"), {})
        rows.append([m, s["arrive"], s["ctas_switched"], i.get("ctas_switched"), s["bytes"], i.get("bytes"),
                     _r(s["spill_us"]), _r(i.get("spill_us")), _r(s["drain_us"]),
                     _r(i.get("drain_us")), _r(red(m, "bytes")), _r(red(m, "spill_us")),
                     _r(s["arriving_turnaround_us"]), _r(i.get("arriving_turnaround_us")),
                     _r(s["warp_spill_us"]), _r(i.get("warp_spill_us")),
                     _r(red(m, "warp_spill_us"))])
    avg = {k: _mean([red(m, k) for m in mixes]) for k in keys}

    def pooled(k):  # over the pairs with a value under both: 1 - sum(in-place) / sum(sm)
        ms = [m for m in mixes if res[(m, "sm")][k] not in (None, 0) and
              res.get((m, "inplace"), {}).get(k) is not None]
        a = sum(res[(m, "sm")][k] for m in ms)
        return None if not ms or a == 0 else 100.0 * (1 - sum(res[(m, "inplace")][k]
                                                              for m in ms) / a)
    pool = {k: pooled(k) for k in keys}
    preempted = [m for m in mixes if res[(m, "sm")]["requests"] or
                 res.get((m, "inplace"), {}).get("requests")]
    ctx.write_json("lin-inplace.json", {"experiment": "lin-inplace",
                                        "seed": SEED, "pairs": mixes, "preempted": preempted,
                                        "runs": {f"{m}/{p}": v for (m, p), v in res.items()},
                                        "mean_reduction_percent": avg,
                                        "pooled_reduction_percent": pool})
    ctx.write_csv("points.csv")
    _hbar(ctx.path("inplace.png"), "Spill latency accumulated per warp (Lin L1079), per request",
          "us", mixes, {"whole SM (complete)": [res.get((m, "sm"), {}).get("warp_spill_us")
                                                for m in mixes],
                        "in-place (Fig 2.4 split)": [res.get((m, "inplace"), {}).get("warp_spill_us")
                                                     for m in mixes]})
    _hbar(ctx.path("reduction.png"), "Further reduction by in-place, per pair and mean of pairs",
          "% (higher: in-place better)", mixes + ["mean of pairs"],
          {"accumulated per-warp spill latency": [red(m, "warp_spill_us") for m in mixes]
           + [avg["warp_spill_us"]],
           "spilled bytes": [red(m, "bytes") for m in mixes] + [avg["bytes"]]},
          paper=(float(PAPER_REDUCTION), f"Lin, mean of pairs ({PAPER_REDUCTION} %)"))
    ej = json.load(open(EARLIER_JSON)) if os.path.exists(EARLIER_JSON) else {}

    def ea(k):
        return _r((ej.get("mean_reduction_percent") or {}).get(k))
    setup = ", ".join(f"`{k} = {v}`" for k, v in FAITHFUL.items())
    sw = [(m, red(m, "spill_us")) for m in mixes if red(m, "spill_us") is not None]
    spills = [v for m in mixes for p in POLICIES
              for v in [res.get((m, p), {}).get("spill_us")] if v is not None]
    worst = min(sw, key=lambda x: x[1]) if sw else None
    kept = [m for m in mixes if res.get((m, "inplace"), {}).get("smem_kept")]
    note = (f"In-place writes {_r(avg['bytes'], 1)} % fewer bytes (mean of pairs): only the "
            "victims the tables name leave, and those short only of registers keep their shared "
            f"memory (blocks kept in place in {len(kept)} of {len(mixes)} pairs). Lin's "
            f"accumulated per-warp spill latency falls {_r(avg['warp_spill_us'], 1)} % (pooled "
            f"{_r(pool['warp_spill_us'], 1)} %) against the thesis's {PAPER_REDUCTION} %. The "
            "SM's wall time from quiet to room is a few tens of cycles per request "
            f"({_r(min(spills), 3) if spills else '-'} to {_r(max(spills), 3) if spills else '-'}"
            " us), so single pairs swing its mean"
            + (f" ({worst[0]}: {_r(worst[1], 1)} %)" if worst else "") +
            ". The drain part "
            + (f"grows with in-place ({_r(-avg['drain_us'], 1)} % longer, mean of pairs), as "
               "the thesis reports for BT_1-HG_1: with fewer victims, spilling no longer "
               "overlaps the drain of the others." if avg["drain_us"] is not None
               and avg["drain_us"] < 0 else
               f"falls {_r(avg['drain_us'], 1)} % (mean of pairs); the thesis reports that it "
               "can grow (BT_1-HG_1)."))
    md = ["# lin-inplace: Lin's in-place context switching on 8 random pairs", "",
          "Generated by `experiments/sweep.py experiments/lin-inplace.toml` from its results "
          "store; do not edit. Method: `experiments/lin-inplace.py`.", "",
          f"Per pair A+B (seed {SEED}), A runs and B arrives at priority 1 halfway through the "
          "first wave of A's launch that fills every SM (the cycle from A's run alone on the "
          "same setup, `lin-inplace.py plan`; column 'arrive') "
          "(GTX480, `sm.concurrent_kernels = true`, `context.save = compressed`; the thesis's "
          f"setup as lin-ch2-faithful runs it: {setup}); A gives room "
          "with `preempt_policy = sm` (every CTA on as many SMs as B needs: Lin's 'complete') "
          "or `inplace` with Fig 2.4's split (`context.inplace_split = true`: per SM one plan "
          "makes room for as many of B's CTAs as an SM holds, from the two allocation tables' "
          "spill queries; a victim short only of registers spills its registers and keeps its "
          "shared memory in place until it resumes on that SM). Every run verified both "
          "outputs.",
          "", "![inplace](inplace.png)", "", "![reduction](reduction.png)", "",
          "## Ours beside the thesis", "",
          f"In {len(preempted)} of {len(mixes)} pairs B had to take room from A "
          f"({', '.join(preempted) or 'none'})"
          + ("." if len(preempted) == len(mixes) else
             "; in the others B's CTAs found room beside A's, so nothing was preempted.")
          + " The headline is the mean of the per-pair reductions (as the thesis states its "
          "21.5 %); pooled (1 - the sum over pairs of in-place / the sum of whole-SM) is "
          "beside it. Two spill latencies: the SM's wall time from quiet to room, and Lin's "
          "(L1079): each switched warp's time from its preemption point to its registers out, "
          "accumulated over the warps of a request. 'Earlier' is this study before issue 24 "
          "(GTO schedulers, stops at any instruction, the partitioned allocator; "
          "results/lin-inplace/earlier.json).", "",
          md_table(["measure", "Heddle, mean of pairs", "Heddle, pooled", "earlier, mean of pairs",
                    "Lin"], [
              ["further spill-latency reduction, in-place vs complete, SM wall time (%)",
               _r(avg["spill_us"]), _r(pool["spill_us"]), ea("spill_us"), PAPER_REDUCTION],
              ["further spill-latency reduction, accumulated per warp (Lin L1079) (%)",
               _r(avg["warp_spill_us"]), _r(pool["warp_spill_us"]), None, PAPER_REDUCTION],
              ["further spilled-bytes reduction (%)", _r(avg["bytes"]), _r(pool["bytes"]),
               ea("bytes"), ""],
              ["preemption-latency reduction, signal to room (%)", _r(avg["latency_us"]),
               _r(pool["latency_us"]), ea("latency_us"), ""],
              ["drain-part reduction (%; negative: in-place drains longer)",
               _r(avg["drain_us"]), _r(pool["drain_us"]), ea("drain_us"),
               "can be negative (BT_1-HG_1)"]]),
          "How ours differs and why: the thesis's pairs are its GT200 kernels with Rodinia "
          "inputs; ours are our stand-ins at small size (only the stand-ins with a launch "
          "that fills every SM there can be first kernels: backprop, btree, hotspot, "
          "histogram). The pooled figures weigh each pair by its time. "
          + note, "",
          "## Per pair", "",
          md_table(["pair", "arrive", "CTAs sm", "CTAs in-place", "bytes sm", "bytes in-place",
                    "spill us sm", "spill us in-place", "drain us sm", "drain us in-place",
                    "bytes -%", "spill -%", "B turnaround us sm", "B turnaround us in-place",
                    "warp-accumulated spill us sm", "... in-place", "warp-accumulated -%"],
                   rows),
          "", f"{len(ctx.sweep.points)} heddle runs of {ctx.identity}; every row in "
          "[points.csv](points.csv).", ""]
    ctx.write_text("report.md", "\n".join(md))


def _hbar(path, title, xlabel, labels, series, paper=None):
    """Horizontal grouped bars, one group per pair, legend outside the data, the paper's value a
    dashed line named in the legend."""
    from heddle_sweep import figures
    plt = figures._plt()
    n, m = len(labels), max(1, len(series))
    fig, ax = plt.subplots(figsize=(8.5, 0.32 * n * m + 1.6))
    h = 0.8 / m
    for j, (name, vals) in enumerate(series.items()):
        ys = [i + (j - (m - 1) / 2) * h for i in range(n)]
        ax.barh(ys, [v if v is not None else 0 for v in vals], height=h, label=name)
    if paper is not None:
        ax.axvline(paper[0], color="black", linestyle="--", linewidth=1.2, label=paper[1])
    ax.axvline(0, color="grey", linewidth=0.6)
    ax.set_yticks(range(n))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    figures._save(fig, path)
    plt.close(fig)


def _r(v, nd=2):
    return None if v is None else round(v, nd)


if __name__ == "__main__":
    stage.main("lin-inplace.py", [("plan", plan, "HEDDLE",
                                   "(prints the sweep grid and the mixes)")])
