# SPDX-License-Identifier: MIT
"""shieh_tables: the report's tables of experiments/shieh.py (Shieh thesis §4-§6, digest §5.4 and
§6: our figures beside the thesis's) and issue 24's acceptance, as rows for report.md.

  tables()          violations and overhead beside the thesis (rows 3, 8-11), techniques,
                    turnaround / T_p, per-benchmark violations, drain-estimate errors (Fig 4.2),
                    utilisation (Fig 4.4), the SMs the preempter got, Chimera's turnaround check,
                    each violation's cause and the violations traced SM by SM (session 15);
  past_runs()       the earlier runs kept in experiments/results (earlier setup, stand-ins,
                    sub-wave, traffic, session 15) that the faithful setup's report compares;
  history()         this run's violations and overhead beside those runs and the thesis;
  coverage()        the victims beside Table 4.2: TBs per SM, waves, finished-TB statistics and
                    full occupancy (issue 24 item 3);
  acceptance()      issue 24 items 1-3's criteria, measured and judged (shieh.json, asserted by
                    tests/shieh/acceptance.py), and acceptance_rows() their table.
Each takes the report's state (shieh.report: the measured runs and shieh_measure.aggregate()'s
metrics) and returns a dict of what it adds.
"""

import json
import os

from shieh_measure import median, select
from shieh_setup import (BOUNDED, EARLIER_JSON, NAMES, PAPER_LC, PAPER_OVH, PAPER_UTIL_RATIO,
                         PAPER_VIOL, S15_JSON, S17_JSON, SCHEMES, STANDINS_JSON, SUBWAVE_JSON,
                         TABLE42_TBS, TRAFFIC_JSON, base, setup, thesis_name)


def fmt(v, nd=1):
    return "-" if v is None else f"{v:.{nd}f}"


def beside_head(paper, ran, ranb):
    """The columns of tables()'s rows beside the thesis (comp, comp_o)."""
    names = NAMES
    return ["L_c"] + [h for p in ranb + [x for x in ran if x not in BOUNDED]
                      for h in ([names[p], "thesis"] if p in paper else [names[p]])]


def pct(n, d):
    return 100.0 * n / d if d else None


def early(pol, key, u, src):
    """An earlier run's (src: its shieh.json) value of key for scheme pol at L_c = u us."""
    if not src or u not in src.get("lc_us", []) or pol not in src["per_lc"]:
        return "-"
    return fmt(src["per_lc"][pol][key][src["lc_us"].index(u)])


def thesis_at(tab, pol, u):
    return fmt(tab[pol][PAPER_LC.index(u)]) if pol in tab and u in PAPER_LC else "-"


def tables(s):
    """The rows of the tables of this run's own numbers."""
    res, victims, lc, bounds, t_p, alone = s.res, s.victims, s.lc, s.bounds, s.t_p, s.alone
    ran, ranb, per_lc, per_bench, preempted = s.ran, s.ranb, s.per_lc, s.per_bench, s.preempted
    drain_lc, drain_all, drain_bench, drain_own = s.drain_lc, s.drain_all, s.drain_bench, \
        s.drain_own
    util_lc, util_bench, util_ratio = s.util_lc, s.util_bench, s.util_ratio
    names = NAMES

    def sel(pol, b=None, v=None):
        return select(res, pol, b, v)

    def beside(key, paper):
        """Rows per L_c: each scheme this setup ran, followed by the thesis's value where the
        thesis gives that scheme (the columns: beside_head)."""
        rows = []
        for i, u in enumerate(lc):
            j = PAPER_LC.index(u) if u in PAPER_LC else None
            row = [f"{u} us ({bounds[i]} cyc)"]
            for p in ranb + [x for x in ran if x not in BOUNDED]:
                row.append(fmt(per_lc[p][key][i]))
                if p in paper:
                    row.append(fmt(paper[p][j]) if j is not None else "-")
            rows.append(row)
        return rows

    comp = beside("violation", PAPER_VIOL)
    comp_o = beside("overhead", PAPER_OVH)
    tech_rows = []
    for p in ranb:
        for i, u in enumerate(lc):
            t, n = per_lc[p]["techniques"][i]
            tech_rows.append([names[p], f"{u} us", n, fmt(t["switch"]), fmt(t["drain"]),
                              fmt(t["flush"]), preempted[p][bounds[i]]])
    turn_rows = [[names[p]] + [fmt(sum(x["turnaround"] / x["t_p"] for x in sel(p, b)) / len(sel(p, b)), 2)
                               if sel(p, b) else "-" for b in bounds] for p in ran]
    bench_rows = [[thesis_name(v), alone[v]] + [fmt(per_bench[p][v][i]) for p in ran
                                                        for i in (0,)] for v in victims]
    derr_rows = []
    for i, u in enumerate(lc):
        e = drain_all[i]
        derr_rows.append([f"{u} us", "every scheme", e[3], e[2], fmt(e[0]), fmt(e[1]),
                          fmt(e[1] - e[0] if e[0] is not None and e[1] is not None else None),
                          f"{e[4]} / {e[5]}"])
        for p in ranb:
            e = drain_lc[p][i]
            derr_rows.append(["", names[p], e[3], e[2], fmt(e[0]), fmt(e[1]),
                              fmt(e[1] - e[0] if e[0] is not None and e[1] is not None else None),
                              f"{e[4]} / {e[5]}"])
    own_rows = [[f"{u} us", fmt(drain_own["chimera"][i][0]), drain_own["chimera"][i][1],
                 fmt(drain_own["shieh"][i][0]), drain_own["shieh"][i][1]]
                for i, u in enumerate(lc)]
    derr_bench_rows = [[thesis_name(v), drain_bench[v][3], drain_bench[v][2],
                        fmt(drain_bench[v][0]), fmt(drain_bench[v][1])] for v in victims]
    util_rows = []
    for i, u in enumerate(lc):
        for p in ranb + [x for x in ran if x not in BOUNDED]:
            x = util_lc[p][i]
            util_rows.append([f"{u} us" if p == ranb[0] else "", names[p], x[4], x[3],
                              fmt(x[0]), fmt(x[1]), fmt(x[2])])
    ratio_rows = [[f"{u} us", fmt(util_ratio[i], 2),
                   fmt(PAPER_UTIL_RATIO, 2) if i == 0 else "-"] for i, u in enumerate(lc)]
    util_bench_rows = [[thesis_name(v)] +
                       [fmt(util_bench[p][v][0]) for p in ranb] +
                       [fmt(util_bench["chimera"][v][2])] for v in victims]
    sms_used = {p: [median([x["sms_used"] for x in sel(p, b)]) for b in bounds] for p in SCHEMES}
    sms_freed = {p: [median([x["sms_freed"] for x in sel(p, b) if x["requests"]]) for b in bounds]
                 for p in SCHEMES}
    chim_rows = []
    for i, b in enumerate(bounds):
        ok = [x for x in sel("chimera", b) if x["freed_in_bound"]]
        lim = 1 + b / t_p + 0.05
        worst = max((x["turnaround"] / x["t_p"] for x in ok), default=None)
        chim_rows.append([f"{lc[i]} us", len(ok), fmt(worst, 3), fmt(lim, 3),
                          sum(1 for x in ok if x["turnaround"] / x["t_p"] > 1 + b / x["t_p"]
                              + 0.05)])
    # why each violation happened: (a) an SM was freed later than L_c (or never: the preempter
    # ran on the SMs it had), (b) every SM was freed within L_c and the preempter still ran
    # longer than T_p after that (it ran slower than alone: victim CTAs kept beside it, the
    # switched CTAs' saves and restores in the memory system)
    cause_rows = []
    for p in ranb:
        for i, b in enumerate(bounds):
            xs = sel(p, b)
            vs = [x for x in xs if x["violation"]]
            late = [x for x in vs if x["latency"] is None or x["latency"] > b]
            slow = [x for x in vs if x not in late]
            lat = sorted(x["latency"] / b for x in late if x["latency"] is not None)
            cause_rows.append([names[p], f"{lc[i]} us", len(xs), len(vs), len(late),
                               fmt(median(lat), 2) if lat else "-",
                               sum(1 for x in late if x["latency"] is None), len(slow),
                               fmt(median([(x["turnaround"] - (x["latency"] or 0)) / x["t_p"]
                                         for x in slow]), 3) if slow else "-",
                               fmt(median([(x["turnaround"] - (x["latency"] or 0)) / x["t_p"]
                                         for x in xs if not x["violation"]]), 3)
                               if len(vs) < len(xs) else "-"])
    # session 15: the violations traced SM by SM (measure(): late_sms, late_why, late_drains)
    trace_rows = []
    for p in ranb:
        for i, b in enumerate(bounds):
            vs = [x for x in sel(p, b) if x["violation"]]
            late = [x for x in vs if x.get("late_sms")]
            why = {}
            for x in late:
                for k, n in x.get("late_why", {}).items():
                    why[k] = why.get(k, 0) + n
            under = [d[0] / d[1] for x in late for d in x.get("late_drains", [])
                     if d[0] is not None and d[0] <= b and d[1] > 0]
            ontime = [x for x in vs if not x.get("late_sms")]
            trace_rows.append([names[p], f"{lc[i]} us", len(vs), len(late),
                               sum(x.get("late_sms", 0) for x in late)]
                              + [why.get(k, 0) for k in ("drain: estimate within L_c",
                                                         "drain: no statistics",
                                                         "drain: nothing met L_c",
                                                         "switch")]
                              + [fmt(median(under), 2) if under else "-", len(ontime),
                                 fmt(median([x["turnaround"] / x["t_p"] for x in ontime]), 3)
                                 if ontime else "-"])
    return {"comp": comp, "comp_o": comp_o, "tech_rows": tech_rows, "turn_rows": turn_rows,
            "bench_rows": bench_rows, "derr_rows": derr_rows, "own_rows": own_rows,
            "derr_bench_rows": derr_bench_rows, "util_rows": util_rows, "ratio_rows": ratio_rows,
            "util_bench_rows": util_bench_rows, "sms_used": sms_used, "sms_freed": sms_freed,
            "chim_rows": chim_rows, "cause_rows": cause_rows, "trace_rows": trace_rows}


def past_runs():
    """The earlier runs' shieh.json (None where not kept or not comparable): the faithful
    setup's report sets its numbers beside them."""
    earlier = None
    if setup()[0] == "faithful" and os.path.isfile(EARLIER_JSON):
        with open(EARLIER_JSON) as fh:
            earlier = json.load(fh)

    standins = None
    if setup()[0] == "faithful" and os.path.isfile(STANDINS_JSON):
        with open(STANDINS_JSON) as fh:
            standins = json.load(fh)
    traffic = None   # session 14's run, the switch through the memory system
    if setup()[0] == "faithful" and setup()[1].get("switch") != "traffic" and \
            os.environ.get("HD_EXP_SWITCH", "stall_tb") != "traffic" and \
            os.path.isfile(TRAFFIC_JSON):
        with open(TRAFFIC_JSON) as fh:
            traffic = json.load(fh)
    s15 = None   # session 15's run (stall_tb, the hold per launch)
    if setup()[0] == "faithful" and os.path.isfile(S15_JSON):
        with open(S15_JSON) as fh:
            s15 = json.load(fh)
    s17 = None   # session 17's run (the victims before session 19's inputs)
    if setup()[0] == "faithful" and os.path.isfile(S17_JSON):
        with open(S17_JSON) as fh:
            s17 = json.load(fh)
    subwave = None
    if setup()[0] == "faithful" and os.path.isfile(SUBWAVE_JSON):
        with open(SUBWAVE_JSON) as fh:
            subwave = json.load(fh)
    return {"earlier": earlier, "standins": standins, "traffic": traffic, "s15": s15,
            "s17": s17, "subwave": subwave}


def history(s):
    """This run's violations and overhead beside the earlier runs' and the thesis's."""
    lc, per_lc = s.lc, s.per_lc
    earlier, standins, traffic, s15, subwave = s.earlier, s.standins, s.traffic, s.s15, \
        s.subwave
    s17 = s.s17
    early_rows = [[f"{u} us"] + [x for p in ("chimera", "shieh", "oracle")
                                 for x in (fmt(per_lc[p]["violation"][i]),
                                           early(p, "violation_pct", u, s17 or {}),
                                           early(p, "violation_pct", u, s15 or {}),
                                           early(p, "violation_pct", u, traffic or {}),
                                           early(p, "violation_pct", u, subwave or {}),
                                           early(p, "violation_pct", u, standins or {}),
                                           early(p, "violation_pct", u, earlier),
                                           thesis_at(PAPER_VIOL, p, u))]
                  for i, u in enumerate(lc)]
    early_ovh = [[f"{u} us"] + [x for p in ("chimera", "shieh")
                                for x in (fmt(per_lc[p]["overhead"][i]),
                                          early(p, "overhead_pct", u, s17 or {}),
                                          early(p, "overhead_pct", u, s15 or {}),
                                          early(p, "overhead_pct", u, traffic or {}),
                                          early(p, "overhead_pct", u, subwave or {}),
                                          early(p, "overhead_pct", u, standins or {}),
                                          early(p, "overhead_pct", u, earlier),
                                          thesis_at(PAPER_OVH, p, u))]
                 for i, u in enumerate(lc)]
    return {"early_rows": early_rows, "early_ovh": early_ovh}


def coverage(s):
    """The victims beside Table 4.2 (issue 24 item 3; the bounded schemes' requests)."""
    res, victims, vsize = s.res, s.victims, s.vsize
    cov_rows = []
    tot_cov = [0, 0, 0, 0]
    tot_3w = [0, 0, 0, 0]
    tot_all = [0, 0]
    victim_info = {}
    for v in victims:
        xs = [x for x in res if x["victim"] == v and x["policy"] in BOUNDED]
        a, e = sum(x["asked"] for x in xs), sum(x["asked_est"] for x in xs)
        q, qf = sum(x["sm_first"] for x in xs), sum(x["sm_first_full"] for x in xs)
        qa, qaf = sum(x["sm_reqs"] for x in xs), sum(x["sm_reqs_full"] for x in xs)
        tot_cov = [tot_cov[0] + a, tot_cov[1] + e, tot_cov[2] + q, tot_cov[3] + qf]
        tot_all[0] += qa
        tot_all[1] += qaf
        ours = {}
        waves = {}
        kin = {}
        for x in xs:
            ours.update(x["tbs_per_sm"])
            for k, w in x["waves"].items():
                waves[k] = max(waves.get(k, 0), w)
            for k, n in x["kernel_instrs"].items():
                kin[k] = max(kin.get(k, 0), n)
        dom = max(kin, key=lambda k: kin[k]) if kin else None
        w3 = dom is not None and waves.get(dom, 0) >= 3
        if w3:
            tot_3w = [tot_3w[0] + a, tot_3w[1] + e, tot_3w[2] + q, tot_3w[3] + qf]
        victim_info[v] = {"size": vsize.get(v), "dominant_kernel": dom,
                          "dominant_waves": waves.get(dom) if dom else None, "three_waves": w3,
                          "asked": a, "asked_with_statistics": e, "sm_requests": q,
                          "sm_requests_full": qf}
        cov_rows.append([thesis_name(v), f"`{v}` {vsize.get(v, '')}",
                         " / ".join(f"{k} {n}" for k, n in sorted(ours.items())) or "-",
                         " / ".join(map(str, TABLE42_TBS.get(base(v), []))),
                         " / ".join(f"{w:.1f}" for _, w in sorted(waves.items())) or "-",
                         f"{dom} {'yes' if w3 else 'no'}" if dom else "-",
                         fmt(100.0 * e / a if a else None), a,
                         fmt(100.0 * qf / q if q else None), q,
                         fmt(100.0 * qaf / qa if qa else None)])
    cov_rows.append(["all", "", "", "", "", "", fmt(pct(tot_cov[1], tot_cov[0])), tot_cov[0],
                     fmt(pct(tot_cov[3], tot_cov[2])), tot_cov[2], fmt(pct(tot_all[1], tot_all[0]))])
    cov_rows.append(["victims at >= 3 waves", "", "", "", "",
                     str(sum(1 for i in victim_info.values() if i["three_waves"])),
                     fmt(pct(tot_3w[1], tot_3w[0])), tot_3w[0], fmt(pct(tot_3w[3], tot_3w[2])),
                     tot_3w[2], ""])
    return {"cov_rows": cov_rows, "victim_info": victim_info, "tot_cov": tot_cov,
            "tot_3w": tot_3w, "tot_all": tot_all}


def acceptance(s):
    """Issue 24 items 1-3's criteria, measured from this run, and whether each is met."""
    lc, per_lc, lcs_ratio, sms_used, chim_rows = s.lc, s.per_lc, s.lcs_ratio, s.sms_used, \
        s.chim_rows
    tot_cov, tot_3w, tot_all, victim_info = s.tot_cov, s.tot_3w, s.tot_all, s.victim_info
    # issue 24 item 3's acceptance, printed and stored (tests/shieh/acceptance.py asserts it)
    i2 = lc.index(2) if 2 in lc else None
    i5 = lc.index(5) if 5 in lc else None
    dr = [per_lc["shieh"]["techniques"][i][0]["drain"] for i in range(len(lc))]
    ov = per_lc["shieh"]["overhead"]
    ovs = [x for x in ov if x is not None]
    acc = {
        "asked_with_statistics_pct": pct(tot_cov[1], tot_cov[0]),
        "asked_with_statistics_pct_3waves": pct(tot_3w[1], tot_3w[0]),
        "requests_full_occupancy_pct": pct(tot_cov[3], tot_cov[2]),
        "requests_full_occupancy_pct_3waves": pct(tot_3w[3], tot_3w[2]),
        "plans_full_occupancy_pct": pct(tot_all[1], tot_all[0]),
        "shieh_drain_pct_2us": dr[i2] if i2 is not None else None,
        "shieh_drain_pct_5us": dr[i5] if i5 is not None else None,
        "shieh_overhead_pct": ov, "asked": tot_cov[0], "sm_requests": tot_cov[2],
        "victims_at_3_waves": sorted(v for v, i in victim_info.items() if i["three_waves"])}
    # items 1 and 2 (issue 24), from the same runs: the time base, the SMs the preempter gets,
    # Chimera's violations over L_c and its turnaround when its SMs were freed within L_c
    cv = per_lc["chimera"]["violation"]
    acc.update({
        "lcs_over_lc": lcs_ratio,
        "sms_used_median": {p: sms_used[p] for p in ("chimera", "shieh")},
        "chimera_violation_pct": cv,
        "chimera_freed_in_lc_runs": [r[1] for r in chim_rows],
        "chimera_freed_over_limit": [r[4] for r in chim_rows]})
    acc["pass"] = {
        "timebase": lcs_ratio is not None and lc[0] == 2 and abs(lcs_ratio - 0.78) <= 0.02,
        "equal_sms": all(a is not None and a == b for a, b in zip(sms_used["chimera"],
                                                                  sms_used["shieh"])),
        "chimera_falls": len(cv) >= 2 and None not in cv
        and all(b < a for a, b in zip(cv, cv[1:])),
        "chimera_turnaround": sum(r[1] for r in chim_rows) > 0
        and not any(r[4] for r in chim_rows),
        "statistics": acc["asked_with_statistics_pct"] is not None
        and acc["asked_with_statistics_pct"] >= 80,
        "full_occupancy": acc["requests_full_occupancy_pct"] is not None
        and acc["requests_full_occupancy_pct"] >= 90,
        "drain_share_rises": None not in (acc["shieh_drain_pct_2us"], acc["shieh_drain_pct_5us"])
        and acc["shieh_drain_pct_5us"] > acc["shieh_drain_pct_2us"],
        "overhead_not_rising": len(ovs) >= 2 and all(b <= a for a, b in zip(ovs, ovs[1:]))}
    return {"acc": acc, "cv": cv, "ov": ov}


def _earlier_column(earlier, n, fmt):
    """The acceptance rows' column for an earlier run's shieh.json (or n dashes without one)."""
    a = (earlier or {}).get("acceptance", {})
    if not a:
        return ["-"] * n
    return ["", "", " -> ".join(fmt(x) for x in a.get("chimera_violation_pct", [])) + " %",
            ", ".join(f"{x} of {y}" for x, y in zip(a.get("chimera_freed_over_limit", []),
                                                    a.get("chimera_freed_in_lc_runs", []))),
            fmt(a.get("asked_with_statistics_pct")), fmt(a.get("requests_full_occupancy_pct")),
            f"{fmt(a.get('shieh_drain_pct_2us'))} -> {fmt(a.get('shieh_drain_pct_5us'))} %",
            " / ".join(fmt(x) for x in a.get("shieh_overhead_pct", [])) + " %"]


def acceptance_rows(s):
    """The acceptance table: each criterion, this run's measure, and the earlier runs'."""
    lc, acc, cv, ov, lcs_ratio, sms_used, chim_rows = s.lc, s.acc, s.cv, s.ov, s.lcs_ratio, \
        s.sms_used, s.chim_rows
    standins, subwave, traffic, s15 = s.standins, s.subwave, s.traffic, s.s15
    sa = (standins or {}).get("acceptance", {})
    sw = (subwave or {}).get("acceptance", {})
    acc_rows = [
        ["1: L_CS / L_c, pathfinder CTA at 2 us", "0.78 +- 0.02", fmt(lcs_ratio, 3), "",
         "yes" if acc["pass"]["timebase"] else "no", "", ""],
        ["2: SMs the preempter ran on, median per L_c (Chimera / proposed)", "equal",
         ", ".join(f"{fmt(a, 0)} / {fmt(b, 0)}" for a, b in zip(sms_used["chimera"],
                                                            sms_used["shieh"])), "",
         "yes" if acc["pass"]["equal_sms"] else "no", "", ""],
        [f"2: Chimera's violations, {' -> '.join(str(u) for u in lc)} us", "fall strictly",
         " -> ".join(fmt(x) for x in cv) + " %", "",
         "yes" if acc["pass"]["chimera_falls"] else "no",
         " -> ".join(early("chimera", "violation_pct", u, subwave or {}) for u in lc) + " %"
         if subwave else "-",
         " -> ".join(early("chimera", "violation_pct", u, standins or {}) for u in lc) + " %"
         if standins else "-"],
        ["2: Chimera runs freed within L_c over 1 + L_c/T_p + 0.05", "none",
         ", ".join(f"{r[4]} of {r[1]}" for r in chim_rows), "",
         "yes" if acc["pass"]["chimera_turnaround"] else "no", "", ""],
        ["3: CTAs asked to leave with finished-TB statistics", ">= 80 %",
         fmt(acc["asked_with_statistics_pct"]), fmt(acc["asked_with_statistics_pct_3waves"]),
         "yes" if acc["pass"]["statistics"] else "no", fmt(sw.get("asked_with_statistics_pct")),
         fmt(sa.get("asked_with_statistics_pct"))],
        ["3: SM requests finding the victim at full occupancy", ">= 90 %",
         fmt(acc["requests_full_occupancy_pct"]), fmt(acc["requests_full_occupancy_pct_3waves"]),
         "yes" if acc["pass"]["full_occupancy"] else "no",
         fmt(sw.get("requests_full_occupancy_pct")),
         fmt(sa.get("requests_full_occupancy_pct")) + " (every plan)" if sa else "-"],
        ["3: proposed scheme's drain share, 2 -> 5 us", "rises",
         f"{fmt(acc['shieh_drain_pct_2us'])} -> {fmt(acc['shieh_drain_pct_5us'])} %", "",
         "yes" if acc["pass"]["drain_share_rises"] else "no",
         f"{fmt(sw.get('shieh_drain_pct_2us'))} -> {fmt(sw.get('shieh_drain_pct_5us'))} %"
         if sw else "-",
         f"{fmt(sa.get('shieh_drain_pct_2us'))} -> {fmt(sa.get('shieh_drain_pct_5us'))} %"
         if sa else "-"],
        ["3: proposed scheme's overhead over L_c", "does not rise",
         " / ".join(fmt(x) for x in ov) + " %", "",
         "yes" if acc["pass"]["overhead_not_rising"] else "no",
         " / ".join(fmt(x) for x in sw.get("shieh_overhead_pct", [])) + " %" if sw else "-",
         " / ".join(fmt(x) for x in sa.get("shieh_overhead_pct", [])) + " %" if sa else "-"]]
    # session 15: the same criteria in session 14's run (switch through the memory system)
    for r, x in zip(acc_rows, _earlier_column(traffic, len(acc_rows), fmt)):
        r.insert(5, x)
    # session 16: and in session 15's run (stall_tb, the hold per launch)
    for r, x in zip(acc_rows, _earlier_column(s15, len(acc_rows), fmt)):
        r.insert(5, x)
    # session 19: and in session 17's run (the victims before session 19's inputs)
    for r, x in zip(acc_rows, _earlier_column(s.s17, len(acc_rows), fmt)):
        r.insert(5, x)
    return {"acc_rows": acc_rows}
