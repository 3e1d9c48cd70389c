# SPDX-License-Identifier: MIT
"""shieh: Shieh's dual-kernel preemption study (NTU thesis 2016, digest
../shared/reference/papers/shieh-dual-kernel-preemption.md §4-6; issue 14 item 6).

Each Table 4.2 benchmark (shieh_setup.py VICTIMS; in the faithful setup at Table 4.2's footprint
and a size of >= 3 waves where one fits, FAITHFUL_VICTIMS; workloads/mixes.ini `V+preempter_gpu`)
runs, and the synthetic preempting task (workload `preempter`, §5.2: 256 threads, 4096 registers,
2048 B of shared memory per CTA, pathfinder-like) arrives at priority 1 at REQUESTS seeded times
drawn uniformly over the victim's standalone run (random.Random(f"{SEED}:{victim}")), one request
per run. Per request: the `sm` reference (whole SMs, every CTA switched; no latency constraint)
once, and per L_c in LC_US (at the thesis's 1.4 GHz SM clock: L_c cycles = us x 1400) the schemes
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
  techniques  CTAs asked to leave by switch, drain and flush (refused flushes count as drains);
  drain error every drained CTA's drain latency as estimated when it was asked, by Shieh's
              lower-variance CPI predictor and by Chimera's residency estimate (both computed on
              the same CTA whichever the scheme decided by), against its true drain time (the
              cycle after it left the SM less the cycle it was asked): |est - true| / true, the
              mean over the drained CTAs both estimators could estimate (Fig 4.2; digest §5.4);
              drains an estimator could not estimate (no finished TB of the kernel: L236's
              maximum) are counted apart;
  utilisation per request and SM, from the request to the preempter's first CTA placed there:
              the registers (and threads) held by the SM's running CTAs of either kernel (not
              being suspended, saved or restored) over the SM's, per cycle, averaged over those
              cycles of every request of the scheme whose SM took the preempter's CTA (a
              request whose SM the preempter never needed has no end; cycle-weighted; Fig
              4.4: the thesis names no resource, digest §8.1 item 12); 'at request' is the
              same fraction at the request, before any CTA left (the victim's, our stand-in
              for the thesis's MAX).
Nothing is fitted to the thesis's numbers.

Two stages (experiments/shieh.sh): stage 1 (experiments/shieh.toml) runs every victim and the
preempter alone; `shieh.py requests` writes stage 2 from its table; stage 2's analysis is
report() below. HD_EXP_SIZE=tiny: one victim, one request, L_c 2 and 5 us (the CTest).

This file is the entry point (the command line, and the analysis script stage 2's sweep file
names); the experiment's parts, one concept a file:
  shieh_setup.py    the setups, victims, sizes, schemes, time base and the thesis's numbers;
  shieh_points.py   the request schedule and stage 2's points (`shieh.py requests`);
  shieh_oracle.py   the Oracle's two passes (`shieh.py oracle`);
  shieh_measure.py  the metrics above, per run and per scheme and L_c;
  shieh_tables.py   the report's tables and issue 24's acceptance;
  shieh_trace.py    the sample-size and acceptance traces (session 17);
  shieh_figures.py  the figures;
  shieh_text.py     report.md, and why ours differs from the thesis.
"""

import json
import os
import types

from heddle_sweep import stage
from shieh_measure import aggregate, measure, results_json
from shieh_oracle import profile_kernels, write_oracle
from shieh_points import arrival, request_times, write_stage2
from shieh_setup import S16_JSON, NAMES, VICTIMS, base, setup, setup_bounds, size_params
from shieh_tables import acceptance, acceptance_rows, coverage, history, past_runs, tables
from shieh_text import markdown


def report(ctx):
    """Stage 2's analysis (experiments/sweep.py calls it): shieh.json, points.csv, the figures
    and report.md from the results store."""
    import shieh_figures as sfig
    import shieh_trace
    from heddle_sweep import SweepError
    from heddle_sweep.heddle import parse_stats
    from heddle_sweep.report import md_table

    # the setup is the store's (a report regenerated without HD_EXP_SETUP names it right)
    os.environ["HD_EXP_SETUP"] = ("faithful" if any("set.context.preempt_sms" in p.axes
                                                    for p in ctx.sweep.points) else "earlier")
    size, par = size_params()
    alone, alone_sz, runs, alone_launches = {}, {}, [], {}
    prof_bad = 0
    for p, key in zip(ctx.sweep.points, ctx.keys):
        row = ctx.store.rows([key]).get(key)
        if row is None:
            raise SweepError(f"shieh: the point {p.label()} has no result in the store")
        data = parse_stats(row["stats"])
        if "workload" in p.axes:
            alone_sz[(p.axes["workload"], p.axes.get("size"))] = data["timing"]["totals"]["cycles"]
            alone_launches[p.axes["workload"]] = data["timing"]["launches"]
            if p.axes["workload"] not in alone or p.axes.get("size") == "small":
                alone[p.axes["workload"]] = data["timing"]["totals"]["cycles"]
            continue
        pol = p.axes["set.context.preempt_policy"]
        b = p.axes.get("set.context.latency_bound")
        if pol == "oracle":
            pk = profile_kernels(os.path.join(ctx.root, p.axes["set.context.oracle_profile"]))
            ids = {lc["id"]: lc["kernel"] for lc in data["timing"]["launches"]}
            if any(ids.get(i) != k for i, k in pk.items()):
                prof_bad += 1
        runs.append({"victim": p.axes["mix"].split("+")[0], "policy": pol,
                     "bound": int(b) if b not in (None, "0") else None,
                     "arrival": arrival(p.axes), "data": data, "size": p.axes.get("size")})
    t_p = alone[setup()[1]["preempter"]]
    # a mix runs both workloads at its size: the deadline adds the preempter's standalone time
    # at the run's size (medium victims: preempter_gpu at medium, more waves)
    t_ps = {sz: c for (w, sz), c in alone_sz.items() if w == setup()[1]["preempter"]}
    victims = sorted((v for v in alone if not v.startswith("preempter")),
                     key=lambda v: VICTIMS.index(base(v)) if base(v) in VICTIMS else len(VICTIMS))
    vsize = {p.axes["workload"]: p.axes.get("size", "") for p in ctx.sweep.points
             if "workload" in p.axes}
    cfg = next(p.axes["config"] for p in ctx.sweep.points if "config" in p.axes)
    bounds, mhz = setup_bounds(par["lc_us"], cfg)
    tot = runs[0]["data"]["timing"]["totals"] if runs else {}
    bpc = tot.get("sm_bytes_per_cycle")   # the model's B / N_SM (statistics JSON)
    lcs_ratio = (18432 / bpc / bounds[0]) if bpc else None   # pathfinder CTA at the first L_c
    res = []
    for r in runs:
        tp = t_ps.get(r["size"], t_p)
        if r["policy"] == "sm":   # no constraint: judged against every deadline
            for b in bounds:
                m = measure(r["data"], r["arrival"], tp, b)
                res.append({"victim": r["victim"], "policy": "sm", "bound": b,
                            "arrival": r["arrival"], "t_p": tp, **m})
        else:
            m = measure(r["data"], r["arrival"], tp, r["bound"])
            res.append({"victim": r["victim"], "policy": r["policy"], "bound": r["bound"],
                        "arrival": r["arrival"], "t_p": tp, **m})
    s = types.SimpleNamespace(size=size, par=par, lc=par["lc_us"], alone=alone, t_p=t_p,
                              t_ps=t_ps, victims=victims, vsize=vsize, bounds=bounds, mhz=mhz,
                              bpc=bpc, lcs_ratio=lcs_ratio, res=res, prof_bad=prof_bad)
    s.__dict__.update(aggregate(res, bounds, victims, s.lc))
    ctx.write_json("shieh.json", results_json(s))
    ctx.write_csv("points.csv")
    s.__dict__.update(tables(s))
    s.__dict__.update(past_runs())
    s.__dict__.update(history(s))
    s.__dict__.update(coverage(s))
    s.__dict__.update(acceptance(s))
    # session 17: the sample, paired outcomes, statistics windows and occupancy (shieh_trace)
    lc, names = s.lc, NAMES
    s16 = None
    if setup()[0] == "faithful" and os.path.isfile(S16_JSON):
        with open(S16_JSON) as fh:
            s16 = json.load(fh)
    trace_md, trace_js = shieh_trace.section(
        res, victims, names, bounds, lc, alone, alone_launches, os.path.join(ctx.out, "p"),
        (runs[0]["data"]["timing"].get("config", {}).get("gpu", {}).get("num_sms", 15)
         if runs else 15), md_table,
        lambda v: set(request_times(v, int(alone[v]), min(4, par["requests"]))), s16)
    with open(ctx.path("shieh.json")) as fh:
        js = json.load(fh)
    js["trace"] = trace_js
    js["acceptance"] = s.acc
    js["victims"] = s.victim_info
    ctx.write_json("shieh.json", js)
    s.trace_md, s.trace_js = trace_md, trace_js
    s.__dict__.update(acceptance_rows(s))
    sfig.report_figures(ctx, s)
    ctx.write_text("report.md", markdown(ctx, s))


if __name__ == "__main__":
    stage.main("shieh.py", [
        ("requests", write_stage2, "STAGE1.csv STAGE1.toml OUT.toml PROFILE_DIR", ""),
        ("oracle", write_oracle, "STAGE1.csv STAGE1.toml OUT.toml PROFILE_DIR STORE", "")])
