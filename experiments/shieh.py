# SPDX-License-Identifier: MIT
"""shieh: Shieh's dual-kernel preemption study (NTU thesis 2016, digest
../shared/reference/papers/shieh-dual-kernel-preemption.md §4-6; issue 14 item 6).

Each stand-in for a Table 4.2 benchmark (VICTIMS; workloads/mixes.ini `V+preempter`) runs, and
the synthetic preempting task (workload `preempter`, §5.2: 256 threads, 4096 registers, 2048 B
of shared memory per CTA, pathfinder-like) arrives at priority 1 at REQUESTS seeded times drawn
uniformly over the victim's standalone run (random.Random(f"{SEED}:{victim}")), one request per
run. Per request: the `sm` reference (whole SMs, every CTA switched; no latency constraint) once,
and per L_c in LC_US (at the thesis's 1.4 GHz SM clock: L_c cycles = us x 1400) the schemes
chimera, chimera_plus (SM-granular: [sm] concurrent_kernels = false, as Chimera's GPU has no
dual-kernel SMs), shieh and oracle (dual-kernel SMs: concurrent_kernels = true; all with the
aligned allocator). The oracle reads the victim's profile (`heddle run V --profile-out`, each
CTA's true instructions and cycles alone; drain_profile.h).

Metrics (§5.4), from each run's statistics JSON (`timing.launches`, `timing.preemptions`):
  violation   the preempter's last CTA ends later than arrival + L_c + T_p (T_p: the preempter's
              standalone cycles, stage 1), per request; rate per benchmark and per L_c;
  overhead    wasted warp instructions / the instructions of the CTAs asked to leave (what
              flushing them all would waste, the thesis's normaliser L441): flushed CTAs' executed
              instructions + per switched CTA its IPC x 2 x the SM's measured save time (quiet ->
              saved; the thesis's IPC x 2 x L_CS with our measured L_CS); drains waste 0;
  techniques  CTAs asked to leave by switch, drain and flush (refused flushes count as drains).
Nothing is fitted to the thesis's numbers.

Two stages (experiments/shieh.sh): stage 1 (experiments/shieh.toml) runs every victim and the
preempter alone; `shieh.py requests` writes stage 2 from its table; stage 2's analysis is
report() below. HD_EXP_SIZE=tiny: one victim, one request, L_c 2 and 5 us (the CTest).
"""

import csv
import json
import os
import random
import sys

SEED = 2016
MHZ_THESIS = 1400                    # Table 4.1: SM clock 1.4 GHz (L_c in cycles = us x 1400)
SIZES = {
    "default": {"requests": 8, "lc_us": [2, 3, 4, 5]},
    "tiny": {"requests": 1, "lc_us": [2, 5]},
}
VICTIMS = ["pathfinder", "hotspot", "streamcluster", "kmeans", "stencil2d", "srad", "btree", "nw",
           "bfs", "backprop", "dwt2d", "heartwall"]
THESIS_NAME = {"stencil2d": "stencil", "btree": "b+tree"}
BOUNDED = ["chimera", "chimera_plus", "shieh", "oracle"]
SCHEMES = ["sm"] + BOUNDED
DUAL = {"sm": False, "chimera": False, "chimera_plus": False, "shieh": True, "oracle": True}
# digest §6 rows 3, 8-11 (L433, L461, L463)
PAPER_VIOL = {"chimera": [14.03, 7.95, 1.93, 1.28], "shieh": [8.36, 1.30, 0, 0],
              "oracle": [6.9, None, None, None]}
PAPER_OVH = {"chimera": [67, 55.3, 50.1, 40.5], "shieh": [50.1, 38.2, 26.6, 15.9]}
PAPER_LC = [2, 3, 4, 5]
WHY = [
    "**Victims and sizes.** Ours are Heddle's stand-ins at small size (10^4 to 5x10^5 cycles, "
    "many launches of a few dozen CTAs), not Rodinia/Parboil's inputs: several victims do not "
    "fill the 15 SMs (pathfinder 38 CTAs per launch, streamcluster, kmeans, heartwall, nw), so "
    "on dual-kernel SMs (shieh, oracle) the preempter's CTAs are often placed beside the victim "
    "with no preemption at all, and a request can fall between the victim's launches.",
    "**How many SMs the preempter gets.** The thesis's preempting kernel 'gains control of the "
    "GPU' (all SMs, digest §8.1 item 7). Heddle's SM-granular policies (sm, chimera, "
    "chimera_plus) free only the SMs the launch needs by occupancy (ceil(10 CTAs / 6 per SM) = "
    "2 SMs), so its 10 CTAs run 5-6 to an SM instead of one per SM as in its standalone run "
    "(T_p), and it ends later than arrival + T_p even when the SMs are freed at once. Shieh and "
    "the Oracle place one preempting CTA per SM on as many SMs as CTAs are left. This asymmetry, "
    "not the latency of freeing SMs, dominates the SM-granular schemes' violations.",
    "**Co-running.** On dual-kernel SMs the preempter's CTAs share the SM with the victim's, so "
    "they run slower than alone: a violation can happen with zero preemption latency. The "
    "thesis's deadline L_c + T_p assumes the same standalone time.",
    "**Clock and L_c.** L_c is in core cycles at the thesis's 1.4 GHz (2,800 to 7,000 cycles); "
    "Heddle's fermi-gtx480 core runs at 700 MHz, so in our time base the constraints are 4 to "
    "10 us. The context switch moves real bytes through the memory system (save after quiet, "
    "restore before the CTA runs) instead of stalling for Ctx/(B/N_SM).",
    "**Throughput overhead.** Ours is flushed CTAs' executed instructions plus, per switched "
    "CTA, its IPC x 2 x the SM's measured save time, over the instructions of every CTA asked "
    "to leave; the thesis's O_CS uses its estimated L_CS. Drains cost 0 as in the thesis. "
    "Requests that preempted nothing add nothing to either sum.",
    "**Chimera's drain estimate** is the launch's mean CTA residency less the TB's age (digest "
    "§8.2 [R], unverified against Chimera); with no finished CTA of the launch (first waves, "
    "and our short launches are mostly first waves) every estimator charges the maximum and "
    "the schemes flush or switch, so chimera and chimera_plus often decide alike.",
    "**Oracle.** The profile is the victim run alone (renumbered to each request's launch "
    "ids): each CTA's true instructions and mean CPI over its life, not its remaining time at "
    "the request point under the preempter's interference (the thesis profiles each "
    "preemption point). It drains where Shieh's estimator has no statistics and flushes or "
    "switches (most of its CTAs drained against under a third for the proposed scheme: the "
    "technique table), so it wastes almost nothing (the overhead table), but a drain takes "
    "up to L_c, the victim runs slower beside the "
    "preempter than its alone profile says, and the preempter still needs about T_p after "
    "that: our Oracle violates slightly more often than the proposed scheme (thesis: 6.9 % "
    "against 8.36 % at 2 us). It knows the latency, not the deadline.",
    "**Few requests need room on dual-kernel SMs.** The preempter's CTAs are placed beside the "
    "victim's wherever an aligned position is free, so shieh and the Oracle preempted in far "
    "fewer requests than the SM-granular schemes (`runs that preempted` in the technique "
    "table); violation rates are over every request, as the thesis's.",
    "**L_c hardly moves the decisions.** The thesis's proposed scheme drains more as L_c "
    "loosens, so its overhead falls from 50.1 to 15.9 %. Ours decides alike at every L_c: most "
    "requests come in a launch's first wave, where no CTA of the launch has finished, so no "
    "drain can be estimated (the statistics are per launch, docs/blocks/shieh.md) and the "
    "choice is flush (flush bit set) or switch, whose latency does not depend on L_c. The "
    "technique table shows the same split at every L_c, and the overhead stays flat.",
    "**Chimera's violations do not fall with L_c** for the same reason and because the "
    "preempter on 2 SMs runs for much longer than T_p whatever the preemption latency (the "
    "turnaround table: Chimera's turnaround / T_p against the proposed scheme's).",
    "**sm's overhead exceeds 100 %**: a switched CTA's IPC x 2 x the measured save time is "
    "more than the instructions a young CTA has executed (flushing it would waste less).",
    "**Requests.** 8 per victim (the thesis does not say how many), one per run; the thesis's "
    "per-benchmark and average figures are over its own benchmarks' kernels.",
    "**Not measured:** the drain-estimate error (Fig 4.2: the policies' estimates are not in "
    "the preemption records) and the utilisation during preemption (Fig 4.4).",
]


def size_params():
    s = os.environ.get("HD_EXP_SIZE", "default")
    if s not in SIZES:
        sys.exit(f"shieh.py: HD_EXP_SIZE must be one of {', '.join(SIZES)}, not '{s}'")
    return s, SIZES[s]


def request_times(victim, cycles, n):
    r = random.Random(f"{SEED}:{victim}")
    return sorted(int(r.uniform(0, cycles)) + 1 for _ in range(n))


# ---- stage 2 ------------------------------------------------------------------------------------

def write_stage2(stage1_csv, stage1_toml, out_toml, profile_dir, with_oracle=False,
                 oracle_prof=None):
    """Stage 2's sweep file; the oracle points only with with_oracle (their profiles, one per
    request, named by oracle_prof(victim, time), come from write_oracle)."""
    size, par = size_params()
    rows = list(csv.DictReader(open(stage1_csv)))
    bad = [r for r in rows if r.get("status") != "ok" or not r.get("cycles")]
    if bad or not rows:
        sys.exit("shieh.py: stage 1 is not complete: " +
                 ", ".join(f"{r.get('workload')}: {r.get('status')}" for r in bad or [{}]))
    alone = {r["workload"]: r for r in rows}
    if "preempter" not in alone:
        sys.exit("shieh.py: stage 1 has no standalone preempter run")
    victims = [w for w in alone if w != "preempter"]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    here = os.path.dirname(os.path.abspath(__file__))
    rel = os.path.relpath(os.path.join(here, "shieh.py"), os.path.dirname(os.path.abspath(out_toml)))
    lines = ["# SPDX-License-Identifier: MIT",
             f"# shieh, stage 2: generated by experiments/shieh.py ({size} size) from {stage1_toml};"
             " do not edit.",
             f"# Per victim {par['requests']} requests (the preempter arriving at priority 1),"
             f" per request sm once and {', '.join(BOUNDED)} per L_c.", "",
             "[sweep]", 'name = "shieh"',
             f'description = "Shieh dual-kernel preemption, {par["requests"]} requests per victim, '
             f'L_c {"/".join(map(str, par["lc_us"]))} us at 1.4 GHz ({size})"',
             f'analysis = "{rel}"', "quiet = true", "timeout = 1800", ""]
    for r in rows:   # the standalone runs (stored by stage 1)
        lines += ["[[grid]]", f'workload = "{r["workload"]}"', f'config = "{r["config"]}"',
                  f'size = "{r["size"]}"', ""]
    bounds = [us * MHZ_THESIS for us in par["lc_us"]]
    for v in victims:
        r = alone[v]
        prof = os.path.abspath(os.path.join(profile_dir, f"{v}.prof"))
        if not os.path.isfile(prof):
            sys.exit(f"shieh.py: no profile {prof} (experiments/shieh.sh writes it)")
        for t in request_times(v, int(float(r["cycles"])), par["requests"]):
            for pol in (SCHEMES if with_oracle else [x for x in SCHEMES if x != "oracle"]):
                lines += [f"[[grid]]   # {v} at {t}: {pol}", f'mix = "{v}+preempter"',
                          f'config = "{r["config"]}"', f'size = "{r["size"]}"',
                          f'flags = "--arrive preempter@{t}:1"',
                          f'set.context.preempt_policy = "{pol}"',
                          'set.sm.allocator = "aligned"',
                          f"set.sm.concurrent_kernels = {'true' if DUAL[pol] else 'false'}"]
                if pol == "sm":
                    lines.append("set.context.latency_bound = 0")
                else:
                    lines.append(f"set.context.latency_bound = {bounds}")
                if pol == "oracle":
                    lines.append(f'set.context.oracle_profile = "{oracle_prof(v, t)}"')
                lines.append("")
    lines += ["[collect]", 'cycles = "timing.totals.cycles"']
    with open(out_toml, "w") as f:
        f.write("\n".join(lines) + "\n")


def _rel_profile(path, root):
    prel = os.path.relpath(os.path.abspath(path), root)
    prof = prel if not prel.startswith("..") else os.path.abspath(path)
    if len(prof) >= 64:
        sys.exit(f"shieh.py: profile path '{prof}' is too long for [context] oracle_profile "
                 "(at most 63 characters): use a shorter HD_EXP_OUT")
    return prof


def write_oracle(stage1_csv, stage1_toml, out_toml, profile_dir, store):
    """The whole stage 2 with the oracle points. The victim's launch ids in a request's run are
    its ids alone only up to the preempter's arrival (the preempter's launch takes the next id,
    the victim's later launches the ones after): per request, the victim-alone profile
    (PROFILE_DIR/V.prof) is renumbered with the ids of the victim's launches in that request's
    `sm` run (from the store; identical in every scheme's run of the request, since the ids are
    given in launch order and nothing differs before the arrival) into PROFILE_DIR/VVVVT.prof."""
    import sqlite3
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    ids = {}
    for axes, stats in db.execute("select axes, stats from points where status = 'ok'"):
        a = json.loads(axes)
        if a.get("set.context.preempt_policy") != "sm" or "mix" not in a:
            continue
        t = json.loads(stats)["timing"]
        ids[(a["mix"].split("+")[0], _arrival(a))] = [
            (lc["id"], lc["kernel"]) for lc in sorted(t["launches"], key=lambda x: x["id"])
            if not lc["kernel"].startswith("pe_")]
    made = {}

    def prof(v, t):
        if (v, t) in made:
            return made[(v, t)]
        if (v, t) not in ids:
            sys.exit(f"shieh.py: no sm run of {v} at {t} in {store} (run stage 2 first)")
        alone = os.path.join(profile_dir, f"{v}.prof")
        run = ids[(v, t)]
        out = [f"# {v} alone ({alone}) with the launch ids of its run beside the preempter "
               f"arriving at cycle {t} (experiments/shieh.py write_oracle)"]
        for ln in open(alone):
            tok = ln.split("#")[0].split()
            if len(tok) != 5:
                out.append(ln.rstrip("\n"))
                continue
            k = int(tok[0])
            if k >= len(run) or run[k][1] != tok[1]:
                sys.exit(f"shieh.py: {alone}: launch {k} ({tok[1]}) is not the {k}-th victim "
                         f"launch of the run at {t} ({run[k] if k < len(run) else 'none'})")
            out.append(" ".join([str(run[k][0])] + tok[1:]))
        path = os.path.join(profile_dir, f"{v[:4]}{t}.prof")
        with open(path, "w") as f:
            f.write("\n".join(out) + "\n")
        made[(v, t)] = _rel_profile(path, root)
        return made[(v, t)]

    write_stage2(stage1_csv, stage1_toml, out_toml, profile_dir, True, prof)


# ---- the report ---------------------------------------------------------------------------------

def _arrival(axes):
    fl = axes.get("flags", "")
    return int(fl.split("@")[1].split(":")[0]) if "@" in fl else None


def _profile_kernels(path):
    """launch id -> kernel of a profile file (to check the ids match the run's)."""
    out = {}
    try:
        for ln in open(path):
            t = ln.split("#")[0].split()
            if len(t) == 5:
                out[int(t[0])] = t[1]
    except OSError:
        pass
    return out


def measure(data, arrival, t_p, bound):
    t = data["timing"]
    pe = [lc for lc in t["launches"] if lc["kernel"].startswith("pe_")]
    end = max(lc["end_cycle"] for lc in pe)
    recs = [p for p in t["preemptions"] if p["launch"] != "signal"]
    wasted, norm = 0.0, 0
    tech = {"switch": 0, "drain": 0, "flush": 0}
    for p in recs:
        save = p["saved"] - p["quiet"] if p["switched"] and p["saved"] > p["quiet"] > 0 else 0
        wasted += p["flushed_instrs"] + p["switch_ipc"] * 2 * save
        norm += p["victim_instrs"]
        tech["switch"] += p["switched"]
        tech["drain"] += p["drained"]
        tech["flush"] += p["flushed"]
    turnaround = end - arrival
    return {"turnaround": turnaround, "violation": bound is not None and turnaround > bound + t_p,
            "requests": len(recs), "wasted": wasted, "victim_instrs": norm, "tech": tech,
            "missed": sum(1 for p in recs if p["missed"])}


def report(ctx):
    from heddle_sweep import SweepError, figures
    from heddle_sweep.heddle import parse_stats
    from heddle_sweep.report import md_table

    size, par = size_params()
    alone, runs = {}, []
    prof_bad = 0
    for p, key in zip(ctx.sweep.points, ctx.keys):
        row = ctx.store.rows([key]).get(key)
        if row is None:
            raise SweepError(f"shieh: the point {p.label()} has no result in the store")
        data = parse_stats(row["stats"])
        if "workload" in p.axes:
            alone[p.axes["workload"]] = data["timing"]["totals"]["cycles"]
            continue
        pol = p.axes["set.context.preempt_policy"]
        b = p.axes.get("set.context.latency_bound")
        if pol == "oracle":
            pk = _profile_kernels(os.path.join(ctx.root, p.axes["set.context.oracle_profile"]))
            ids = {lc["id"]: lc["kernel"] for lc in data["timing"]["launches"]}
            if any(ids.get(i) != k for i, k in pk.items()):
                prof_bad += 1
        runs.append({"victim": p.axes["mix"].split("+")[0], "policy": pol,
                     "bound": int(b) if b not in (None, "0") else None,
                     "arrival": _arrival(p.axes), "data": data})
    t_p = alone["preempter"]
    victims = [v for v in VICTIMS if v in alone]
    bounds = [us * MHZ_THESIS for us in par["lc_us"]]
    res = []
    for r in runs:
        if r["policy"] == "sm":   # no constraint: judged against every deadline
            for b in bounds:
                m = measure(r["data"], r["arrival"], t_p, b)
                res.append({"victim": r["victim"], "policy": "sm", "bound": b,
                            "arrival": r["arrival"], **m})
        else:
            m = measure(r["data"], r["arrival"], t_p, r["bound"])
            res.append({"victim": r["victim"], "policy": r["policy"], "bound": r["bound"],
                        "arrival": r["arrival"], **m})

    def sel(pol, b=None, v=None):
        return [x for x in res if x["policy"] == pol and (b is None or x["bound"] == b)
                and (v is None or x["victim"] == v)]

    def viol(xs):
        return 100.0 * sum(x["violation"] for x in xs) / len(xs) if xs else None

    def ovh(xs):
        n = sum(x["victim_instrs"] for x in xs)
        return 100.0 * sum(x["wasted"] for x in xs) / n if n else None

    def techs(xs):
        t = {"switch": 0, "drain": 0, "flush": 0}
        for x in xs:
            for k in t:
                t[k] += x["tech"][k]
        n = sum(t.values())
        return {k: (100.0 * c / n if n else None) for k, c in t.items()}, n

    lc = par["lc_us"]
    per_lc = {pol: {"violation": [viol(sel(pol, b)) for b in bounds],
                    "overhead": [ovh(sel(pol, b)) for b in bounds],
                    "techniques": [techs(sel(pol, b)) for b in bounds]} for pol in SCHEMES}
    per_bench = {pol: {v: [viol(sel(pol, b, v)) for b in bounds] for v in victims}
                 for pol in SCHEMES}
    preempted = {pol: {b: sum(1 for x in sel(pol, b) if x["requests"]) for b in bounds}
                 for pol in SCHEMES}
    ctx.write_json("shieh.json", {
        "experiment": "shieh", "size": size, "requests_per_victim": par["requests"],
        "lc_us": lc, "lc_cycles": bounds, "preempter_cycles": t_p, "standalone": alone,
        "per_lc": {pol: {"violation_pct": per_lc[pol]["violation"],
                         "overhead_pct": per_lc[pol]["overhead"],
                         "techniques_pct": [t for t, _ in per_lc[pol]["techniques"]],
                         "ctas_asked": [n for _, n in per_lc[pol]["techniques"]]}
                   for pol in SCHEMES},
        "per_benchmark_violation_pct": per_bench, "oracle_profile_id_mismatch": prof_bad,
        "runs": [{k: x[k] for k in ("victim", "policy", "bound", "arrival", "turnaround",
                                    "violation", "requests", "wasted", "victim_instrs", "tech",
                                    "missed")} for x in res]})
    ctx.write_csv("points.csv")

    names = {"sm": "sm (ref.)", "chimera": "Chimera", "chimera_plus": "Chimera+",
             "shieh": "proposed (shieh)", "oracle": "Oracle"}
    paper_lc = [lc.index(x) if x in lc else None for x in PAPER_LC]

    def paper_at(vals):
        out = [None] * len(lc)
        for i, j in enumerate(paper_lc):
            if j is not None:
                out[j] = vals[i]
        return out

    cats = [f"{u} us" for u in lc]
    figures.bar_panels(ctx.path("violation.png"), [
        {"title": "Deadline violation rate per L_c (Fig 4.5a)", "ylabel": "% of requests",
         "categories": cats, "series": {names[p]: per_lc[p]["violation"] for p in SCHEMES},
         "paper": {f"thesis {names[p]}": paper_at(PAPER_VIOL[p]) for p in PAPER_VIOL}},
        {"title": f"Violation rate per benchmark at L_c = {lc[0]} us (Fig 4.1)",
         "ylabel": "% of requests", "categories": [THESIS_NAME.get(v, v) for v in victims],
         "series": {names[p]: [per_bench[p][v][0] for v in victims] for p in SCHEMES},
         "rotate": 60}], width=14, suptitle="shieh: deadline violations (deadline = request + "
        "L_c + preempter standalone)")
    figures.bar_panels(ctx.path("overhead.png"), [
        {"title": "Normalised throughput overhead (Fig 4.5b)", "ylabel": "% of flushing all",
         "categories": cats, "series": {names[p]: per_lc[p]["overhead"] for p in BOUNDED + ["sm"]},
         "paper": {f"thesis {names[p]}": paper_at(PAPER_OVH[p]) for p in PAPER_OVH}}],
        width=8, suptitle="shieh: wasted instructions / instructions of the preempted CTAs")
    figures.bar_panels(ctx.path("techniques.png"), [
        {"title": f"{names[p]}", "ylabel": "% of CTAs asked to leave", "categories": cats,
         "series": {k: [t[k] for t, _ in per_lc[p]["techniques"]]
                    for k in ("switch", "drain", "flush")}} for p in BOUNDED],
        ncols=4, width=14, suptitle="shieh: technique distribution per L_c (Fig 4.5c)")

    def f(v, nd=1):
        return "-" if v is None else f"{v:.{nd}f}"

    comp = []
    for i, u in enumerate(lc):
        j = PAPER_LC.index(u) if u in PAPER_LC else None
        comp.append([f"{u} us ({bounds[i]} cyc)",
                     f(per_lc["chimera"]["violation"][i]),
                     f(PAPER_VIOL["chimera"][j]) if j is not None else "-",
                     f(per_lc["chimera_plus"]["violation"][i]),
                     f(per_lc["shieh"]["violation"][i]),
                     f(PAPER_VIOL["shieh"][j]) if j is not None else "-",
                     f(per_lc["oracle"]["violation"][i]),
                     f(PAPER_VIOL["oracle"][j]) if j is not None else "-",
                     f(per_lc["sm"]["violation"][i])])
    comp_o = []
    for i, u in enumerate(lc):
        j = PAPER_LC.index(u) if u in PAPER_LC else None
        comp_o.append([f"{u} us", f(per_lc["chimera"]["overhead"][i]),
                       f(PAPER_OVH["chimera"][j]) if j is not None else "-",
                       f(per_lc["chimera_plus"]["overhead"][i]),
                       f(per_lc["shieh"]["overhead"][i]),
                       f(PAPER_OVH["shieh"][j]) if j is not None else "-",
                       f(per_lc["oracle"]["overhead"][i]), f(per_lc["sm"]["overhead"][i])])
    tech_rows = []
    for p in BOUNDED:
        for i, u in enumerate(lc):
            t, n = per_lc[p]["techniques"][i]
            tech_rows.append([names[p], f"{u} us", n, f(t["switch"]), f(t["drain"]),
                              f(t["flush"]), preempted[p][bounds[i]]])
    turn_rows = [[names[p]] + [f(sum(x["turnaround"] for x in sel(p, b)) / len(sel(p, b)) / t_p, 2)
                               if sel(p, b) else "-" for b in bounds] for p in SCHEMES]
    bench_rows = [[THESIS_NAME.get(v, v), alone[v]] + [f(per_bench[p][v][i]) for p in SCHEMES
                                                        for i in (0,)] for v in victims]
    nreq = par["requests"]
    md = ["# shieh: dual-kernel preemption (Shieh 2016) on our Table 4.2 stand-ins", "",
          f"Generated by `experiments/sweep.py {os.path.relpath(ctx.sweep.path, ctx.root)}` "
          "(stage 2 of `experiments/shieh.sh`) from its results store; do not edit. "
          "Method: `experiments/shieh.py`.", "",
          f"Configuration fermi-gtx480 at small size ({size}). Per victim {nreq} requests: the "
          f"preempter (Shieh §5.2; standalone {t_p} cycles) arrives at priority 1 at seeded "
          "times uniform over the victim's standalone run; deadline = arrival + L_c + "
          f"{t_p}; L_c in cycles = us x 1400 (the thesis's SM clock). `sm` (whole SMs, every "
          "CTA switched) runs once per request and is judged against every L_c. Every run "
          "verified both outputs (a point that does not is not ok and the report is not "
          "written).", "",
          "![violation](violation.png)", "", "![overhead](overhead.png)", "",
          "![techniques](techniques.png)", "",
          "## Violation rate (%) beside the thesis (digest §6 rows 3, 8, 9)", "",
          md_table(["L_c", "Chimera", "thesis", "Chimera+", "proposed", "thesis", "Oracle",
                    "thesis", "sm"], comp),
          "## Normalised throughput overhead (%) beside the thesis (rows 10, 11)", "",
          md_table(["L_c", "Chimera", "thesis", "Chimera+", "proposed", "thesis", "Oracle",
                    "sm"], comp_o),
          "## The preempter's turnaround (arrival to its last CTA's end) / its standalone time",
          "", md_table(["scheme"] + [f"{u} us" for u in lc], turn_rows),
          "## Technique distribution (CTAs asked to leave)", "",
          md_table(["scheme", "L_c", "CTAs", "switch %", "drain %", "flush %",
                    "runs that preempted"], tech_rows),
          f"## Violation rate per benchmark at L_c = {lc[0]} us (%)", "",
          md_table(["benchmark", "standalone cycles"] + [names[p] for p in SCHEMES], bench_rows),
          f"Oracle runs whose profile's launch ids name other kernels than the run's: {prof_bad}.",
          "", "## Why ours differs from the thesis (structural; nothing is tuned to it)", ""]
    md += [f"- {w}" for w in WHY] + [
          "", "## Points", "", f"{len(ctx.sweep.points)} heddle runs of {ctx.identity}; every "
          "row in [points.csv](points.csv); per run figures in shieh.json.", ""]
    ctx.write_text("report.md", "\n".join(md))


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "requests":
        write_stage2(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif len(sys.argv) == 7 and sys.argv[1] == "oracle":
        write_oracle(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6])
    else:
        sys.exit("usage: shieh.py requests STAGE1.csv STAGE1.toml OUT.toml PROFILE_DIR\n"
                 "       shieh.py oracle STAGE1.csv STAGE1.toml OUT.toml PROFILE_DIR STORE")
