# SPDX-License-Identifier: MIT
"""shieh_trace: the sample-size and acceptance traces of experiments/shieh.py's report (issue 24,
session 17; Shieh thesis §4, digest §5.2-5.4). Pure functions over the per-run measures that
shieh_measure.measure() returns and the victims' standalone runs; shieh.report() prints their
tables.

  wilson()          the 95 % Wilson interval of a rate (k of n requests);
  paired_flips()    the requests whose outcome changes between consecutive L_c (the same
                    requests run at every L_c, so a rate falls strictly only if some request goes
                    from missed to met and fewer go the other way);
  stats_window()    the part of a victim's standalone run in which the kernel running has no
                    finished CTA yet (requests there cannot have finished-TB statistics: the
                    statistics are per kernel over its launches, so the window is the first wave
                    of each kernel's first launch);
  occupancy_why()   why an SM's first preemption record did not find the victim at its full
                    occupancy: a launch under one wave, the launch's last wave, or mid-launch.
Nothing here is fitted to the thesis's numbers.
"""

import math


def wilson(k, n, z=1.96):
    """95 % Wilson score interval of k successes in n trials, in percent (lo, hi)."""
    if not n:
        return None, None
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return 100.0 * max(0.0, c - h), 100.0 * min(1.0, c + h)


def paired_flips(res, pol, bounds):
    """Per consecutive pair of bounds: (b0, b1, fell, rose), fell = the requests missed at b0 and
    met at b1, rose = met at b0 and missed at b1; each a list of dicts (victim, arrival, and per
    bound, keyed str(bound), the latency / L_c, (turnaround - latency) / T_p and the
    techniques)."""
    by = {}
    for x in res:
        if x["policy"] == pol and x["bound"] in bounds:
            by.setdefault((x["victim"], x["arrival"]), {})[x["bound"]] = x

    def info(key, xs):
        out = {"victim": key[0], "arrival": key[1]}
        for b, x in xs.items():
            lat = x["latency"] if x["latency"] is not None else x["gone_latency"]
            out[str(b)] = {"latency_over_lc": lat / b if lat is not None else None,
                      "after_over_tp": ((x["turnaround"] - lat) / x["t_p"]
                                        if lat is not None else None),
                      "tech": x["tech"]}
        return out
    rows = []
    for b0, b1 in zip(bounds, bounds[1:]):
        fell, rose = [], []
        for key, xs in sorted(by.items()):
            if b0 not in xs or b1 not in xs:
                continue
            v0, v1 = xs[b0]["violation"], xs[b1]["violation"]
            if v0 and not v1:
                fell.append(info(key, {b0: xs[b0], b1: xs[b1]}))
            elif v1 and not v0:
                rose.append(info(key, {b0: xs[b0], b1: xs[b1]}))
        rows.append((b0, b1, fell, rose))
    return rows


def read_profile(path):
    """launch id -> list of (cta, warp instructions, cycles) of a drain profile (drain_profile.h)."""
    out = {}
    try:
        for ln in open(path):
            t = ln.split("#")[0].split()
            if len(t) == 5:
                out.setdefault(int(t[0]), []).append((int(t[2]), int(t[3]), int(t[4])))
    except OSError:
        return None
    return out


def stats_window(launches, prof, nsms, total):
    """The cycles of a standalone run in which the running kernel had no finished CTA: per
    kernel, from its first launch's start to the first of that launch's first-wave CTAs to end
    (those placed at the start: CTA ids below SMs x its CTAs per SM), summed over kernels.
    Returns (cycles, fraction of the run, {kernel: cycles}) or None without a profile."""
    if prof is None or not total:
        return None
    first = {}
    for lc in sorted(launches, key=lambda lc: lc["start_cycle"]):
        if lc["kernel"].startswith("pe_") or lc["kernel"] in first:
            continue
        first[lc["kernel"]] = lc
    per = {}
    for k, lc in first.items():
        wave = nsms * max(1, lc["ctas_per_sm"])
        res = [c for cta, _, c in prof.get(lc["id"], []) if cta < wave]
        if res:
            per[k] = min(res)
    cyc = sum(per.values())
    return cyc, cyc / total, per


def occupancy_why(run_launches, short, arrival, alone_launches, prof, nsms):
    """Classify an SM's first records that found the victim below its occupancy. short: list
    of victim launch ids, one per such record; run_launches: {id: launch} of the run. The run
    is the standalone run until the arrival, so the launch is matched to the standalone run's
    launch of the same kernel and ordinal. Returns counts {"under one wave", "last wave",
    "mid-launch"}: under one wave = the launch has fewer CTAs than the GPU holds; last wave =
    the arrival is within the launch's longest CTA residency of its standalone end (its last
    CTAs were placed); mid-launch = otherwise (a CTA had just left and the next not yet
    placed)."""
    out = {"under one wave": 0, "last wave": 0, "mid-launch": 0}
    order = {}
    for lc in sorted(run_launches.values(), key=lambda lc: lc["id"]):
        if not lc["kernel"].startswith("pe_"):
            order[lc["id"]] = sum(1 for o in run_launches.values()
                                  if o["kernel"] == lc["kernel"] and o["id"] < lc["id"])
    sa = {}
    for lc in sorted(alone_launches, key=lambda lc: lc["id"]):
        sa.setdefault(lc["kernel"], []).append(lc)
    for vid in short:
        lc = run_launches.get(vid)
        if lc is None:
            continue
        if lc["ctas"] < nsms * max(1, lc["ctas_per_sm"]):
            out["under one wave"] += 1
            continue
        ks = sa.get(lc["kernel"], [])
        i = order.get(vid, 0)
        if i < len(ks):
            a = ks[i]
            longest = max((c for _, _, c in (prof or {}).get(a["id"], [])), default=0)
            if arrival >= a["end_cycle"] - longest:
                out["last wave"] += 1
                continue
        out["mid-launch"] += 1
    return out


def _f(x, nd=1):
    return "-" if x is None else f"{x:.{nd}f}"


def section(res, victims, names, bounds, lc, alone, alone_launches, prof_dir, nsms, md_table,
            first_of, s16=None):
    """The report's trace section (markdown lines) and its JSON. res: shieh_measure.measure()
    per run (with victim, policy, bound, arrival, t_p); alone: standalone cycles; alone_launches:
    the standalone runs' launches; prof_dir: the victims' profiles (V.prof); first_of(v): the
    arrival times of the first 4 requests of victim v (session 16's); s16: session 16's
    shieh.json or None."""
    md, js = [], {}
    pols = [p for p in ("chimera", "shieh", "oracle") if any(x["policy"] == p for x in res)]
    # 1. the sample: rates with their 95 % intervals, and the same rates over session 16's
    # requests (the first 4 per victim: request_times draws them first)
    rows = []
    js["violation_interval_pct"] = {}
    for p in pols:
        for b, u in zip(bounds, lc):
            xs = [x for x in res if x["policy"] == p and x["bound"] == b]
            if not xs:
                continue
            k = sum(1 for x in xs if x["violation"])
            lo, hi = wilson(k, len(xs))
            old = [x for x in xs if x["arrival"] in first_of(x["victim"])]
            ko = sum(1 for x in old if x["violation"])
            s16v = None
            if s16:
                try:
                    s16v = s16["per_lc"][p]["violation_pct"][s16["lc_us"].index(u)]
                except (KeyError, ValueError, IndexError, TypeError):
                    s16v = None
            js["violation_interval_pct"].setdefault(p, []).append(
                {"lc_us": u, "requests": len(xs), "violations": k, "lo": lo, "hi": hi,
                 "first4_requests": len(old), "first4_violations": ko, "session16": s16v})
            rows.append([names[p], f"{u} us", len(xs), k, _f(100.0 * k / len(xs)),
                         f"{_f(lo)} - {_f(hi)}", f"{ko} / {len(old)} = "
                         f"{_f(100.0 * ko / len(old) if old else None)}", _f(s16v)])
    md += ["### Traces (issue 24, session 17)", "",
           "**The sample.** Each rate with its 95 % Wilson interval, and over the first 4 "
           "requests of each victim only (the requests session 16 ran: `request_times` draws "
           "them first), beside session 16's rate (its 4 requests per victim, another binary). "
           "Neighbouring rates differ by less than these intervals' width, so the intervals "
           "cannot order them; what decides a strict fall is the paired table below (the "
           "same requests at every L_c).", "",
           md_table(["scheme", "L_c", "requests", "violations", "rate %", "95 % interval",
                     "first 4 per victim %", "session 16 % (4 per victim)"], rows)]
    # 2. paired flips between consecutive L_c
    frows = []
    js["flips"] = {}
    for p in [q for q in ("chimera", "shieh") if q in pols]:
        for b0, b1, fell, rose in paired_flips(res, p, bounds):
            u0, u1 = lc[bounds.index(b0)], lc[bounds.index(b1)]
            js["flips"].setdefault(p, []).append({"from_us": u0, "to_us": u1, "fell": fell,
                                                  "rose": rose})

            def lst(xs):
                return "; ".join(
                    f"{x['victim']}@{x['arrival']} (latency/L_c "
                    f"{_f(x[str(b0)]['latency_over_lc'], 2)} -> "
                    f"{_f(x[str(b1)]['latency_over_lc'], 2)}, "
                    f"after/T_p {_f(x[str(b0)]['after_over_tp'], 4)} -> "
                    f"{_f(x[str(b1)]['after_over_tp'], 4)})" for x in xs) or "-"
            frows.append([names[p], f"{u0} -> {u1} us", len(fell), len(rose), lst(fell),
                          lst(rose)])
    md += ["**Paired outcomes.** Requests whose outcome changes from one L_c to the next: "
           "`fell` = missed, then met; `rose` = met, then missed. A rate falls strictly only "
           "with more `fell` than `rose`. `latency/L_c`: the last SM freed (signal to the "
           "preempter's CTA placed, or its victims gone) over L_c; `after/T_p`: the "
           "preempter's time after that over its standalone time (the deadline leaves it "
           "1 + (L_c - latency) / T_p).", "",
           md_table(["scheme", "L_c", "fell", "rose", "fell: requests", "rose: requests"],
                    frows)]
    # 3. finished-TB statistics: the window without them, per victim
    srows = []
    js["statistics"] = {}
    for v in victims:
        xs = [x for x in res if x["victim"] == v and x["policy"] in ("chimera", "shieh")]
        a, e = sum(x["asked"] for x in xs), sum(x["asked_est"] for x in xs)
        reqs = sorted({x["arrival"] for x in xs})
        b0 = bounds[0]
        first = {x["arrival"]: x for x in xs if x["policy"] == "chimera" and x["bound"] == b0}
        none = sum(1 for t in reqs if t in first and first[t]["asked"]
                   and first[t]["asked_est"] * 2 < first[t]["asked"])
        w = stats_window(alone_launches.get(v, []), read_profile(f"{prof_dir}/{v}.prof"), nsms,
                         alone.get(v))
        js["statistics"][v] = {"asked": a, "asked_with_statistics": e, "requests": len(reqs),
                               "requests_without": none,
                               "window_cycles": w[0] if w else None,
                               "window_fraction": w[1] if w else None,
                               "window_per_kernel": w[2] if w else None}
        srows.append([v, _f(100.0 * e / a if a else None), f"{none} of {len(reqs)}",
                      ", ".join(f"{k} {c:,}" for k, c in (w[2] if w else {}).items()) or "-",
                      f"{alone.get(v, 0):,}", _f(100.0 * (1 - w[1]) if w else None)])
    md += ["**Finished-TB statistics.** They are per kernel over all its launches (the "
           "firmware's sums from the status tables' exit reports, as L236's 'average "
           "instructions of a TB in the preempted kernel'; no reset between launches), so a "
           "request has none only between the start of a kernel's first launch and the end "
           "of the first CTA of that launch's first wave. `window`: those cycles per kernel in "
           "the victim's standalone run (its first-wave CTAs' shortest residency, from the "
           "Oracle's profile); `expected`: the share of uniform requests after every window "
           "(1 - windows / run), the share this setting can give; `requests without`: requests "
           "whose Chimera run at the first L_c asked CTAs mostly without statistics.", "",
           md_table(["victim", "asked with statistics %", "requests without",
                     "window (cycles) per kernel", "standalone cycles", "expected %"], srows)]
    # 4. full occupancy: why an SM's first record found fewer CTAs than the occupancy
    orows = []
    js["occupancy"] = {}
    for v in victims:
        xs = [x for x in res if x["victim"] == v and x["policy"] in ("chimera", "shieh")]
        prof = read_profile(f"{prof_dir}/{v}.prof")
        why = {"under one wave": 0, "last wave": 0, "mid-launch": 0}
        q = sum(x["sm_first"] for x in xs)
        qf = sum(x["sm_first_full"] for x in xs)
        for x in xs:
            w = occupancy_why(x["launches"], x["first_short"], x["arrival"],
                              alone_launches.get(v, []), prof, nsms)
            for k in why:
                why[k] += w[k]
        js["occupancy"][v] = {"sm_requests": q, "full": qf, **why}
        orows.append([v, q, _f(100.0 * qf / q if q else None)] + [why[k] for k in why])
    md += ["**Full occupancy.** Per victim, the SMs' first records (Chimera and proposed "
           "runs) and why one found fewer victim CTAs than its occupancy: `under one wave` = "
           "the launch has fewer CTAs than the GPU holds (it can never fill); `last wave` = "
           "the request came within the launch's longest CTA residency of its standalone end "
           "(its last CTAs placed, SMs emptying); `mid-launch` = otherwise (an SM between a "
           "CTA's exit and the next placement, or a launch still filling).", "",
           md_table(["victim", "SM requests", "full %", "under one wave", "last wave",
                     "mid-launch"], orows)]
    return md, js
