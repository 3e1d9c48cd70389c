# SPDX-License-Identifier: MIT
"""shieh_measure: the metrics of experiments/shieh.py (Shieh thesis §5.4, digest §5.4; the
definitions are in shieh.py's docstring), per run and over runs.

  measure()      one preemption run's statistics JSON (`timing.launches`, `timing.preemptions`)
                 -> its turnaround and violation, wasted and normalising instructions, the
                 techniques, the drains' estimates and true times, the utilisation window, the
                 per-SM trace of late SMs (session 15) and the occupancy the requests found;
  viol(), ovh(), techs(), derr(), utl()
                 the violation rate, throughput overhead, technique shares, drain-estimate
                 errors (Fig 4.2) and utilisation during preemption (Fig 4.4) over a set of
                 measured runs;
  aggregate()    those per scheme and L_c, per benchmark, and the proposed / Chimera
                 utilisation ratio;
  results_json() shieh.json's summary and per-run records.
Nothing here is fitted to the thesis's numbers.
"""

from shieh_setup import BOUNDED, SCHEMES, setup


def median(xs):
    xs = sorted(xs)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def measure(data, arrival, t_p, bound):
    t = data["timing"]
    pe = [lc for lc in t["launches"] if lc["kernel"].startswith("pe_")]
    end = max(lc["end_cycle"] for lc in pe)
    recs = [p for p in t["preemptions"] if p["launch"] != "signal"]
    wasted, norm = 0.0, 0
    tech = {"switch": 0, "drain": 0, "flush": 0}
    drains = [tuple(d) for p in recs for d in p.get("drains", [])]
    met = [p for p in recs if p["met"]]   # (a window that ends with the placement)
    util = {"cycles": sum(p.get("util_cycles", 0) for p in met),
            "regs": sum(p.get("util_cycles", 0) * p.get("util_regs", 0) for p in met),
            "threads": sum(p.get("util_cycles", 0) * p.get("util_threads", 0) for p in met),
            "n": len(met), "at_regs": sum(p.get("regs_at_signal", 0) for p in met),
            "at_threads": sum(p.get("threads_at_signal", 0) for p in met)}
    for p in recs:
        save = p["saved"] - p["quiet"] if p["switched"] and p["saved"] > p["quiet"] > 0 else 0
        wasted += p["flushed_instrs"] + p["switch_ipc"] * 2 * save
        norm += p["victim_instrs"]
        tech["switch"] += p["switched"]
        tech["drain"] += p["drained"]
        tech["flush"] += p["flushed"]
    turnaround = end - arrival
    cps = {lc["id"]: lc["ctas_per_sm"] for lc in t["launches"]}
    nsms = t.get("config", {}).get("gpu", {}).get("num_sms", 15)
    first = {}   # each SM's first record: what the preemption request found there
    for p in recs:
        if p["victim"] in cps and (p["sm"] not in first or p["signal"] < first[p["sm"]]["signal"]):
            first[p["sm"]] = p
    freed_in = bool(recs) and all(p["met"] and (bound is None or p["freed"] - p["signal"] <= bound)
                                  for p in recs)
    # the preemption latency: the last SM freed (signal to freed), None when one never was
    lat = (max(p["freed"] - p["signal"] for p in recs) if recs and all(p["met"] for p in recs)
           else None)
    pe_start = min(lc.get("start_cycle", end) for lc in pe)
    # session 15 (issue 24, the proposed scheme's violations traced): per SM, from its first
    # request to the last of its victims gone (a drained CTA: request + its true drain time; a
    # switched one: saved; a flushed one: at once). Not the records' `freed` (the preempter's
    # CTA placed there): with several plans on an SM a record can close only when the
    # preempter's next wave needs the position (its thread limit left no room for it before).
    # An SM is late when that passes the bound. Why: its longest drain over the bound, by
    # Shieh's estimate at the request (within the bound = the predictor erred; the maximum = no
    # finished-TB statistics; over the bound = nothing met L_c and the least latency was
    # taken), else a switch (quiesce + L_CS) over the bound.
    late_sms, why = 0, {"drain: estimate within L_c": 0, "drain: no statistics": 0,
                        "drain: nothing met L_c": 0, "switch": 0}
    late_drains = []   # [estimate, true] of the drains over the bound on late SMs
    gone_lat = 0       # the latest SM's victims-gone latency
    if bound is not None:
        by_sm = {}
        for p in recs:
            by_sm.setdefault(p["sm"], []).append(p)
        for sm_recs in by_sm.values():
            sig0 = min(p["signal"] for p in sm_recs)
            gone = max([p["signal"] + max([d[2] for d in p.get("drains", [])] or [0])
                        for p in sm_recs]
                       + [p["saved"] for p in sm_recs if p["switched"] and p["saved"]])
            gone_lat = max(gone_lat, gone - sig0)
            if gone - sig0 <= bound:
                continue
            late_sms += 1
            over = [d for p in sm_recs for d in p.get("drains", []) if d[2] > bound]
            if not over:
                why["switch"] += 1
                continue
            d = max(over, key=lambda d: d[2])
            late_drains.append([d[0], d[2]])
            why["drain: no statistics" if d[0] is None or d[0] >= 2 ** 32 - 1 else
                "drain: estimate within L_c" if d[0] <= bound else
                "drain: nothing met L_c"] += 1
    return {"sms_used": max(lc.get("sms_used", 0) for lc in pe),
            "late_sms": late_sms, "late_why": why, "late_drains": late_drains,
            "gone_latency": gone_lat,
            "latency": lat, "pe_start": pe_start, "pe_end": end,
            "sms_freed": len({p["sm"] for p in recs}), "freed_in_bound": freed_in,
            "turnaround": turnaround, "violation": bound is not None and turnaround > bound + t_p,
            "requests": len(recs), "wasted": wasted, "victim_instrs": norm, "tech": tech,
            "missed": sum(1 for p in recs if p["missed"]), "drains": drains, "util": util,
            "asked": sum(p.get("asked", 0) for p in recs),
            "asked_est": sum(p.get("asked_estimated", 0) for p in recs),
            "sm_reqs": len([p for p in recs if p["victim"] in cps]),
            "sm_reqs_full": sum(1 for p in recs if p["victim"] in cps
                                and p.get("ctas_at_signal", 0) >= cps[p["victim"]]),
            "sm_first": len(first),
            "sm_first_full": sum(1 for p in first.values()
                                 if p.get("ctas_at_signal", 0) >= cps[p["victim"]]),
            # session 17 (shieh_trace.occupancy_why): the victim launch of each SM's first
            # record below full occupancy, and the run's launches to classify it
            "first_short": [p["victim"] for p in first.values()
                            if p.get("ctas_at_signal", 0) < cps[p["victim"]]],
            "launches": {lc["id"]: {k: lc.get(k) for k in ("id", "kernel", "ctas", "ctas_per_sm",
                                                            "start_cycle", "end_cycle")}
                         for lc in t["launches"]},
            "waves": _max_waves(t, nsms),
            "tbs_per_sm": {lc["kernel"]: lc["ctas_per_sm"] for lc in t["launches"]
                           if not lc["kernel"].startswith("pe_")},
            "kernel_instrs": _kernel_instrs(t)}


def _max_waves(t, nsms):
    """The most waves one launch of each victim kernel runs: CTAs / (SMs x TBs per SM)."""
    out = {}
    for lc in t["launches"]:
        if not lc["kernel"].startswith("pe_") and lc["ctas_per_sm"]:
            w = lc["ctas"] / (nsms * lc["ctas_per_sm"])
            out[lc["kernel"]] = max(out.get(lc["kernel"], 0), w)
    return out


def _kernel_instrs(t):
    """Warp instructions per victim kernel over the run (the dominant kernel: the most)."""
    out = {}
    for lc in t["launches"]:
        if not lc["kernel"].startswith("pe_"):
            out[lc["kernel"]] = out.get(lc["kernel"], 0) + lc.get("warp_instrs", 0)
    return out


def select(res, pol, b=None, v=None):
    """The measured runs of scheme pol (at bound b, of victim v where given)."""
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


def derr(xs, own=None):
    """Drain-estimate error (%) over the drains of runs xs: (Shieh's, Chimera's, drains
    both estimated, drains timed, no estimate by Shieh's, by Chimera's). own: 0 or 1 = only
    that estimator, over the drains it estimated (the thesis's view of one scheme)."""
    ds = [d for x in xs for d in x["drains"] if d[2]]
    both = [d for d in ds if d[0] is not None and d[1] is not None]
    if own is not None:
        mine = [d for d in ds if d[own] is not None]
        return (100.0 * sum(abs(d[own] - d[2]) / d[2] for d in mine) / len(mine)
                if mine else None), len(mine)
    es = 100.0 * sum(abs(d[0] - d[2]) / d[2] for d in both) / len(both) if both else None
    ec = 100.0 * sum(abs(d[1] - d[2]) / d[2] for d in both) / len(both) if both else None
    return (es, ec, len(both), len(ds), sum(1 for d in ds if d[0] is None),
            sum(1 for d in ds if d[1] is None))


def utl(xs):
    """Utilisation during preemption (%): registers, threads (cycle-weighted), registers at
    the request (mean over requests), cycles, requests."""
    c = sum(x["util"]["cycles"] for x in xs)
    n = sum(x["util"]["n"] for x in xs)
    return (100.0 * sum(x["util"]["regs"] for x in xs) / c if c else None,
            100.0 * sum(x["util"]["threads"] for x in xs) / c if c else None,
            100.0 * sum(x["util"]["at_regs"] for x in xs) / n if n else None, c, n)


def ratio(a, b):
    return a / b if a is not None and b else None


def aggregate(res, bounds, victims, lc):
    """The metrics per scheme and L_c (and per benchmark at each L_c), over the runs res."""
    def sel(pol, b=None, v=None):
        return select(res, pol, b, v)

    ran = [p for p in SCHEMES if any(x["policy"] == p for x in res)]   # this setup's schemes
    ranb = [p for p in BOUNDED if p in ran]
    per_lc = {pol: {"violation": [viol(sel(pol, b)) for b in bounds],
                    "overhead": [ovh(sel(pol, b)) for b in bounds],
                    "techniques": [techs(sel(pol, b)) for b in bounds]} for pol in SCHEMES}
    per_bench = {pol: {v: [viol(sel(pol, b, v)) for b in bounds] for v in victims}
                 for pol in SCHEMES}
    preempted = {pol: {b: sum(1 for x in sel(pol, b) if x["requests"]) for b in bounds}
                 for pol in SCHEMES}
    drain_lc = {pol: [derr(sel(pol, b)) for b in bounds] for pol in SCHEMES}
    drain_all = [derr([x for x in res if x["bound"] == b and x["policy"] != "sm"]) for b in bounds]
    drain_bench = {v: derr([x for x in res if x["bound"] == bounds[0] and x["victim"] == v
                            and x["policy"] != "sm"]) for v in victims}
    drain_own = {"chimera": [derr(sel("chimera", b), own=1) for b in bounds],
                 "shieh": [derr(sel("shieh", b), own=0) for b in bounds]}
    util_lc = {pol: [utl(sel(pol, b)) for b in bounds] for pol in SCHEMES}
    util_bench = {pol: {v: utl(sel(pol, bounds[0], v)) for v in victims} for pol in SCHEMES}

    util_ratio = [ratio(util_lc["shieh"][i][0], util_lc["chimera"][i][0]) for i in range(len(lc))]
    return {"ran": ran, "ranb": ranb, "per_lc": per_lc, "per_bench": per_bench,
            "preempted": preempted, "drain_lc": drain_lc, "drain_all": drain_all,
            "drain_bench": drain_bench, "drain_own": drain_own, "util_lc": util_lc,
            "util_bench": util_bench, "util_ratio": util_ratio}


def results_json(s):
    """shieh.json's content (the summary per scheme and L_c and every run's measure) of the
    report's state s (shieh.report)."""
    res, bounds, lc, size, par = s.res, s.bounds, s.lc, s.size, s.par
    t_p, t_ps, alone, prof_bad = s.t_p, s.t_ps, s.alone, s.prof_bad
    per_lc, per_bench, drain_lc, util_lc = s.per_lc, s.per_bench, s.drain_lc, s.util_lc
    util_ratio, mhz, bpc, lcs_ratio = s.util_ratio, s.mhz, s.bpc, s.lcs_ratio

    def sel(pol, b=None, v=None):
        return select(res, pol, b, v)
    return {
        "experiment": "shieh", "size": size, "requests_per_victim": par["requests"],
        "lc_us": lc, "lc_cycles": bounds, "preempter_cycles": t_p, "standalone": alone,
        "preempter_cycles_by_size": t_ps,
        "per_lc": {pol: {"violation_pct": per_lc[pol]["violation"],
                         "overhead_pct": per_lc[pol]["overhead"],
                         "techniques_pct": [t for t, _ in per_lc[pol]["techniques"]],
                         "ctas_asked": [n for _, n in per_lc[pol]["techniques"]]}
                   for pol in SCHEMES},
        "per_benchmark_violation_pct": per_bench, "oracle_profile_id_mismatch": prof_bad,
        "drain_error_pct": {pol: [{"shieh": e[0], "chimera": e[1], "both_estimated": e[2],
                                   "timed": e[3], "no_est_shieh": e[4], "no_est_chimera": e[5]}
                                  for e in drain_lc[pol]] for pol in SCHEMES},
        "utilisation_pct": {pol: [{"regs": u[0], "threads": u[1], "regs_at_request": u[2],
                                   "cycles": u[3], "requests": u[4]} for u in util_lc[pol]]
                            for pol in SCHEMES},
        "utilisation_ratio_shieh_chimera": util_ratio,
        "setup": setup()[0], "core_mhz": mhz, "sm_bytes_per_cycle": bpc,
        "lcs_over_lc_pathfinder_cta": lcs_ratio,
        "sms_used_median": {pol: [median([x["sms_used"] for x in sel(pol, b)]) for b in bounds]
                            for pol in SCHEMES},
        "sms_freed_median": {pol: [median([x["sms_freed"] for x in sel(pol, b) if x["requests"]])
                                   for b in bounds] for pol in SCHEMES},
        "runs": [{k: x[k] for k in ("victim", "policy", "bound", "arrival", "turnaround", "t_p",
                                    "sms_used", "sms_freed", "freed_in_bound", "latency",
                                    "pe_start",
                                    "violation", "requests", "wasted", "victim_instrs", "tech",
                                    "missed", "drains", "util", "asked", "asked_est",
                                    "sm_reqs", "sm_reqs_full", "sm_first", "sm_first_full",
                                    "late_sms", "late_why", "late_drains", "gone_latency")}
                 for x in res]}
