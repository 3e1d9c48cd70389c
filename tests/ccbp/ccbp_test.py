#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/ccbp/ccbp_test.py HEDDLE MODE - CCBP (Lin ch.4, model/mech/ccbp) at small size.

irc     the acceptance two-kernel test: pathfinder (LS) + lbm (bandwidth-hungry) on
        configs/maxwell-ccbp.ini, every workload re-executed until a 100,000-cycle budget.
        CCBP attached with no quota and no LS priority gives the cycles of the run without it;
        with the IRC on (lbm at 4 requests per SM per 200-cycle window, LS first) pathfinder's
        slowdown (IPC alone / IPC shared over the budget) falls, lbm's requests per SM-window
        never exceed 4 and reach it in some windows, lbm's IRC count equals the miss-queue
        departures the memory statistics give its launches, and both workloads verify.
verify  two more pairs (backprop+cfd, cfd+fdtd2d) with a CTA combination and quotas, and a
        profile run of Algorithm 1, re-run every 20,000 cycles on measured costs: every
        instance of both workloads verifies, the quotas hold.
base    the baselines' gates (docs/blocks/ccbp.md "Baselines") on pathfinder+lbm: SMK's time
        quotas and Dai18's load limit set too high to bind leave the cycles of the run without
        them; SMK's quotas (half of each kernel's standalone IPC per SM and 2,000-cycle epoch)
        hold warps, no application issues more than its quota per SM and epoch (counts
        asserted) and the fairness rises; Dai18's limit of 2 loads in flight per SM on lbm
        holds warps, lowers lbm's largest count in flight and never clears a count; every
        instance verifies.
dmil    Dai18's dynamic limit ([ccbp] mil_epoch) on pathfinder+lbm, lbm at most 8 loads in
        flight per SM: the static limit never adapts; with 2,000-cycle epochs the limit is
        halved and raised (counts asserted), goes below 8, holds warps more often than the
        static one, never clears a count; mil_epoch without mil is refused (full tier).
pair    a pair added with the rest of Lin Table 4.2's stand-ins (PAIR_CI below) co-run as the
        experiment's CCBP point runs it (Algorithm 1 on its committed profile,
        experiments/results/ccbp/profiles/), every workload re-executed until a 50,000-cycle
        budget: every instance of both workloads verifies, Algorithm 1 gave both applications
        CTAs, and a BI application's requests per SM-window stay within its quota.
ws      Warped-Slicer's online form ([ccbp] ws_online; docs/blocks/ccbp.md "Session 30") on
        btree+sad: the co-run starts with a sampling phase (each SM runs one application at its
        own CTA limit), the log has one IPC-vs-CTA curve per application made of the SMs'
        points, the combination it chose fits one SM and is the one water-filling (the default)
        or the smallest sum of slowdowns (ws_rule = sum) gives on the logged curves, it holds
        after the phase, and every instance of both workloads verifies.
wsmil   Dai18's limit on Warped-Slicer's online form ([ccbp] ws_online with mil and mil_epoch;
        docs/blocks/ccbp.md "Session 31") on btree+sad, sad limited: a limit too high to bind
        leaves the cycles and the phases of the run without it and holds nothing; the dynamic
        limit (ceiling 8, 2,000-cycle epochs) holds sad's warps, halves its limit, lowers its
        largest count in flight, clears no count, and the sampling phase still chooses a
        combination; every instance verifies. ws_online with SMK's time quotas, ctas or a
        profile is refused with a message naming the keys.
schemes every point of experiments/ccbp.toml (every pair under every scheme, each Dai18 limit and
        each combination of the oracle search) at small size with a 50,000-cycle budget: both
        workloads of the pair verify every instance (full tier).
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HEDDLE = os.path.abspath(sys.argv[1])
MODE = sys.argv[2]
CFG = "configs/maxwell-ccbp.ini"

BUDGET = 100000


def fail(msg):
    print(f"ccbp {MODE} FAILED: {msg}")
    sys.exit(1)


def run(args):
    p = subprocess.run([HEDDLE] + args, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"heddle {' '.join(args)} exited {p.returncode}: {p.stdout[-800:]} {p.stderr[-800:]}")
    return p.stdout


def log_apps(path):
    apps = {}
    for line in open(path):
        w = line.split()
        if w and w[0] == "alg1_runs":
            apps["alg1_runs"] = int(w[1])
        if w and w[0] == "app":
            apps[int(w[1])] = {w[i]: (w[i + 1] if w[i] == "type" else float(w[i + 1]))
                               for i in range(2, len(w) - 1, 2)}
    return apps


def corun(tmp, mix, tag, sets, stats=False):
    log = os.path.join(tmp, f"{tag}.log")
    js = os.path.join(tmp, f"{tag}.json")
    args = ["run", "--mix", mix, "--size", "small", "--config", CFG,
            "--repeat", "all", "--repeat-until", str(BUDGET), "--set", "ccbp.enable=true",
            "--set", f"ccbp.budget={BUDGET}", "--set", f"ccbp.log={log}"]
    for s in sets:
        args += ["--set", s]
    if stats:
        args += ["--stats", js]
    out = run(args)
    if not re.search(r"VERIFIED \(2 of 2 workloads verified\)", out):
        fail(f"{mix} {tag}: not both verified")
    for m in re.finditer(r"repeated: (\d+) instances, (\d+) verified", out):
        if m.group(1) != m.group(2):
            fail(f"{mix} {tag}: an instance did not verify ({m.group(0)})")
    cyc = int(re.search(r"^\s+cycles\s+([\d,]+)\s*$", out, re.M).group(1).replace(",", ""))
    return out, log_apps(log), (json.load(open(js)) if stats else None), cyc


def mode_irc(tmp):
    # IPC alone: pathfinder by itself, GTO (Lin T4.1: GTO for standalone runs)
    out = run(["run", "pathfinder", "--size", "small", "--config", CFG, "--set",
               "sm.scheduler=gto"])
    instrs = int(re.search(r"warp instructions\s+([\d,]+)", out).group(1).replace(",", ""))
    cycles = int(re.search(r"^\s+cycles\s+(\d+)", out, re.M).group(1))
    ipc_alone = instrs / cycles
    # the mix without CCBP and with CCBP watching only: the same cycles
    plain = run(["run", "--mix", "pathfinder+lbm", "--size", "small",
                 "--config", CFG, "--repeat", "all", "--repeat-until", str(BUDGET)])
    pcyc = int(re.search(r"^\s+cycles\s+([\d,]+)\s*$", plain, re.M).group(1).replace(",", ""))
    _, off, _, ocyc = corun(tmp, "pathfinder+lbm", "off",
                            ["ccbp.types=ls dbi", "ccbp.ls_first=false"])
    if ocyc != pcyc:
        fail(f"CCBP attached with no quota and no priority changed the cycles: {ocyc} != {pcyc}")
    _, on, st, _ = corun(tmp, "pathfinder+lbm", "on",
                         ["ccbp.types=ls dbi", "ccbp.quota=0 4"], stats=True)
    s_off = ipc_alone / off[1]["ipc"]
    s_on = ipc_alone / on[1]["ipc"]
    print(f"pathfinder IPC alone {ipc_alone:.3f}; shared {off[1]['ipc']:.3f} (IRC off, slowdown "
          f"{s_off:.3f}) -> {on[1]['ipc']:.3f} (IRC on, slowdown {s_on:.3f})")
    if not s_on < s_off * 0.97:
        fail(f"the LS kernel's slowdown did not fall: {s_off:.3f} -> {s_on:.3f}")
    bi = on[2]
    if bi["quota"] != 4 or bi["irc_max_window"] > 4 or bi["irc_windows_at_quota"] < 1:
        fail(f"lbm's requests per SM-window: max {bi['irc_max_window']}, quota {bi['quota']}, "
             f"windows at quota {bi['irc_windows_at_quota']}")
    # the memory statistics' miss-queue departures of lbm's launches = the IRC's count
    names = {l["id"]: l["kernel"] for l in st["timing"]["launches"]}
    mq = sum(k["mq_requests"] for k in st["timing"]["memory"]["per_kernel"]
             if names.get(k["launch"], "").startswith("lbm"))
    end = st["timing"]["totals"]["cycles"] if "cycles" in st["timing"]["totals"] else None
    if mq != bi["irc_sent"]:
        fail(f"lbm: {mq} miss-queue departures in the statistics, {bi['irc_sent']:.0f} by the IRC")
    if end is not None and mq > 4 * 16 * math.ceil(end / 200):
        fail(f"lbm sent {mq} requests in {end} cycles: above 4 per SM per 200 cycles")
    print(f"lbm: {mq} requests (statistics = IRC), at most {bi['irc_max_window']:.0f} per "
          f"SM-window, {bi['irc_windows_at_quota']:.0f} SM-windows at the quota of 4")


def mode_verify(tmp):
    for mix, sets in (("backprop+cfd", ["ccbp.types=ls nbi", "ccbp.ctas=7 4", "ccbp.quota=0 6"]),
                      ("cfd+fdtd2d", ["ccbp.types=nbi dbi", "ccbp.ctas=4 7",
                                      "ccbp.quota=6 6"])):
        _, apps, _, _ = corun(tmp, mix, mix.replace("+", "_"), sets)
        for a, q in ((1, None), (2, 6)):
            if q and apps[a]["irc_max_window"] > q:
                fail(f"{mix}: application {a} sent {apps[a]['irc_max_window']} in one window")
        print(f"{mix}: verified; " + ", ".join(
            f"app {a} ipc {apps[a]['ipc']:.3f} max/window {apps[a]['irc_max_window']:.0f}"
            for a in (1, 2)))
    # Algorithm 1 from a profile: its combination and quotas are applied and hold
    prof = os.path.join(tmp, "prof.txt")
    with open(prof, "w") as f:
        f.write("app 1 type ls\napp 1 nbw 2 4 6 8 10 12 14 16\napp 1 dbw 3 6 9 12 15 18 21 24\n"
                "app 2 type dbi\napp 2 nbw 10 18 24 28 30 31 32 32\n"
                "app 2 dbw 20 35 45 52 56 58 59 60\napp 2 cost_noc 5\napp 2 cost_dram 4\n")
    _, apps, _, cyc = corun(tmp, "pathfinder+lbm", "alg1", [f"ccbp.profile={prof}",
                                                             "ccbp.period=20000"])
    q = apps[2]["quota"]
    if apps[2]["type"] != "dbi" or not q or apps[2]["irc_max_window"] > q or not apps[1]["ctas"]:
        fail(f"Algorithm 1's allocation not applied: {apps}")
    # [ccbp] period: re-run every 20,000 cycles on the measured per-request costs
    if apps["alg1_runs"] < 1 + (min(cyc, BUDGET) // 20000) - 1:
        fail(f"Algorithm 1 ran {apps['alg1_runs']} times in {cyc} cycles with period 20000")
    print(f"alg1: ctas {apps[1]['ctas']:.0f},{apps[2]['ctas']:.0f}; lbm quota {q:.0f}, max "
          f"{apps[2]['irc_max_window']:.0f}")


def log_base(path):
    """The baselines' lines of the log: the GPU line and per application."""
    g, apps = {}, {}
    for line in open(path):
        w = line.split()
        if w and w[0] == "baselines":
            g = {w[i]: int(w[i + 1]) for i in range(1, len(w) - 1, 2)}
        if w and w[0] == "base":
            apps[int(w[1])] = {w[i]: int(w[i + 1]) for i in range(2, len(w) - 1, 2)}
    return g, apps


def ipc_alone(w):
    out = run(["run", w, "--size", "small", "--config", CFG, "--set", "sm.scheduler=gto"])
    instrs = int(re.search(r"warp instructions\s+([\d,]+)", out).group(1).replace(",", ""))
    cycles = int(re.search(r"^\s+cycles\s+(\d+)", out, re.M).group(1))
    return instrs / cycles


def fairness(alone, apps):
    prog = [apps[a]["ipc"] / alone[a - 1] for a in (1, 2)]
    return min(prog) / max(prog), prog


def mode_base(tmp):
    mix, nsm, epoch = "pathfinder+lbm", 16, 2000
    alone = [ipc_alone("pathfinder"), ipc_alone("lbm")]
    common = ["ccbp.types=ls dbi", "ccbp.ls_first=false"]
    _, off, _, ocyc = corun(tmp, mix, "off", common)
    # the gates with limits that never bind: the cycles of the run without them
    _, _, _, ncyc = corun(tmp, mix, "nobind", common + [
        f"ccbp.smk_epoch={epoch}", "ccbp.smk_quota=1000000 1000000", "ccbp.mil=0 100000"])
    g, b = log_base(os.path.join(tmp, "nobind.log"))
    if ncyc != ocyc or g.get("mil_resets") != 0 or b[1]["smk_held"] or b[2]["mil_held"]:
        fail(f"gates that never bind changed the run: {ncyc} != {ocyc} cycles, {g}, {b}")
    unl = b[2]["mil_max_inflight"]
    # SMK: quotas proportional to the standalone IPC, half of it each
    q = [max(1, round(a / nsm * epoch / 2)) for a in alone]
    _, smk, _, scyc = corun(tmp, mix, "smk", common + [
        f"ccbp.smk_epoch={epoch}", f"ccbp.smk_quota={q[0]} {q[1]}"])
    g, b = log_base(os.path.join(tmp, "smk.log"))
    held = b[1]["smk_held"] + b[2]["smk_held"]
    if not held:
        fail(f"SMK's time quotas {q} held no warp: {b}")
    for a in (1, 2):  # per SM the count restarts at an epoch's start or a refill only
        cap = q[a - 1] * (nsm * (scyc // epoch + 1) + g["smk_refills"])
        if b[a]["issued"] > cap:
            fail(f"application {a} issued {b[a]['issued']} warp instructions, above its quota "
                 f"{q[a - 1]} per SM-epoch ({cap} in {scyc} cycles with {g['smk_refills']} "
                 "refills)")
    f0, p0 = fairness(alone, off)
    f1, p1 = fairness(alone, smk)
    print(f"SMK quotas {q} per SM per {epoch} cycles: {held} hold answers, "
          f"{g['smk_refills']} refills; progress {p0[0]:.3f}/{p0[1]:.3f} -> {p1[0]:.3f}/"
          f"{p1[1]:.3f}, fairness {f0:.3f} -> {f1:.3f}")
    if not f1 > f0:
        fail(f"SMK's time quotas did not raise the fairness: {f0:.3f} -> {f1:.3f}")
    # Dai18: at most 2 of lbm's loads in flight per SM
    _, dai, _, dcyc = corun(tmp, mix, "dai", common + ["ccbp.mil=0 2"])
    g, b = log_base(os.path.join(tmp, "dai.log"))
    if not b[2]["mil_held"] or g["mil_resets"] or not b[2]["mil_max_inflight"] < unl or \
            b[1]["mil_held"]:
        fail(f"Dai18's limit: held {b[2]['mil_held']}, resets {g['mil_resets']}, lbm's most "
             f"in flight {b[2]['mil_max_inflight']} (unlimited {unl}); pathfinder held "
             f"{b[1]['mil_held']}")
    print(f"Dai18 limit 2 on lbm: {b[2]['mil_held']} hold answers, most in flight "
          f"{b[2]['mil_max_inflight']} (unlimited {unl}); lbm IPC {off[2]['ipc']:.3f} -> "
          f"{dai[2]['ipc']:.3f}, pathfinder {off[1]['ipc']:.3f} -> {dai[1]['ipc']:.3f}")


def mode_dmil(tmp):
    """Dai18's dynamic limit ([ccbp] mil_epoch): at most 8 of lbm's loads in flight per SM, the
    limit halved in a congested epoch and raised by 1 otherwise; both verify."""
    mix = "pathfinder+lbm"
    common = ["ccbp.types=ls dbi", "ccbp.ls_first=false", "ccbp.mil=0 8"]
    corun(tmp, mix, "static", common)
    _, b = log_base(os.path.join(tmp, "static.log"))
    if b[2]["dmil_down"] or b[2]["dmil_up"] or b[2]["dmil_min"] != 8:
        fail(f"the static limit adapted: {b[2]}")
    corun(tmp, mix, "dmil", common + ["ccbp.mil_epoch=2000"])
    g, d = log_base(os.path.join(tmp, "dmil.log"))
    if g.get("mil_epoch") != 2000 or g["mil_resets"] or not d[2]["dmil_down"] or \
            not d[2]["dmil_up"] or not d[2]["dmil_min"] < 8 or d[1]["dmil_down"] or \
            d[2]["mil_max_inflight"] > b[2]["mil_max_inflight"] or \
            not d[2]["mil_held"] > b[2]["mil_held"]:
        fail(f"Dai18's dynamic limit: {g}, {d} (static: {b[2]})")
    out = subprocess.run([HEDDLE, "run", "--mix", mix, "--size", "small", "--config", CFG,
                          "--set", "ccbp.enable=true", "--set", "ccbp.mil_epoch=2000"],
                         capture_output=True, text=True)
    if out.returncode == 0 or "mil_epoch needs a [ccbp] mil limit" not in out.stdout + out.stderr:
        fail(f"mil_epoch without mil was not refused: rc {out.returncode}, {out.stderr[-200:]}")
    print(f"Dai18 DMIL on lbm (limit <= 8, epochs of 2000 cycles): {d[2]['dmil_down']} halvings,"
          f" {d[2]['dmil_up']} raises, lowest {d[2]['dmil_min']}; {d[2]['mil_held']} hold answers "
          f"(static: {b[2]['mil_held']})")


PAIR_CI = "bfs+spmv"


def mode_pair(tmp):
    global BUDGET
    BUDGET = 50000
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.chdir(root)
    prof = os.path.join("experiments", "results", "ccbp", "profiles",
                        PAIR_CI.replace("+", "_") + ".txt")
    _, apps, _, cyc = corun(tmp, PAIR_CI, "pair", [f"ccbp.profile={prof}"])
    for a in (1, 2):
        if not apps[a]["ctas"]:
            fail(f"{PAIR_CI}: Algorithm 1 gave application {a} no CTAs: {apps}")
        q = apps[a]["quota"]
        if apps[a]["type"] != "ls" and (not q or apps[a]["irc_max_window"] > q):
            fail(f"{PAIR_CI}: application {a} ({apps[a]['type']}) quota {q}, "
                 f"max {apps[a]['irc_max_window']} per SM-window")
    print(f"{PAIR_CI}: {cyc} cycles, every instance verified; " + ", ".join(
        f"app {a} {apps[a]['type']} ctas {apps[a]['ctas']:.0f} quota {apps[a]['quota']:.0f} "
        f"max/window {apps[a]['irc_max_window']:.0f}" for a in (1, 2)))


WS_CI = "btree+sad"
CAPS = {"threads": 2048, "regs": 65536, "smem": 98304, "ctas": 32}  # configs/maxwell-ccbp.ini


def log_ws(path):
    """The ws_* lines of the log: the phase, the SMs' points, per application its demand and
    curve, the choice."""
    ws = {"sm": [], "app": {}, "curve": {}}
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "ws_online":
            ws["phase"] = {w[i]: (w[i + 1] if w[i] == "rule" else int(w[i + 1]))
                           for i in range(1, len(w) - 1, 2)}
        elif w[0] == "ws_phase":
            ws.setdefault("phases", []).append(
                {"start": int(w[3]), "end": int(w[5]), "choice": [int(x) for x in w[7:]]})
        elif w[0] == "ws_sm":
            ws["sm"].append(dict({w[i]: float(w[i + 1]) for i in range(2, len(w) - 1, 2)},
                                 sm=int(w[1])))
        elif w[0] == "ws_app":
            k = w.index("points")
            ws["app"][int(w[1])] = dict({w[i]: int(w[i + 1]) for i in range(2, k, 2)},
                                        points={int(p.split(":")[0]): float(p.split(":")[1])
                                                for p in w[k + 1:]})
        elif w[0] == "ws_curve":
            ws["curve"][int(w[1])] = [0.0] + [float(x) for x in w[2:]]
        elif w[0] == "ws_choice":
            ws["choice"] = [int(x) for x in w[1:w.index("score")]]
    return ws


def ws_fits(ws, n):
    apps = [ws["app"][a] for a in (1, 2)]
    return all(x <= p["nmax"] for x, p in zip(n, apps)) and sum(n) <= CAPS["ctas"] and all(
        sum(x * p[r] for x, p in zip(n, apps)) <= CAPS[r] for r in ("threads", "regs", "smem"))


def ws_expect(ws, rule):
    """The choice on the logged curves, computed here: water-filling (one CTA at a time to the
    application with the lowest IPC over its curve's top, while it fits and raises its IPC;
    ties to the lower index) or the smallest sum of slowdowns over the fitting combinations."""
    cv = [ws["curve"][a] for a in (1, 2)]
    top = [max(c[1:]) for c in cv]
    if rule == "sum":
        best = None
        for a in range(1, len(cv[0])):
            for b in range(1, len(cv[1])):
                if ws_fits(ws, (a, b)):
                    s = sum(t / c[x] if c[x] > 0 else 1e9 for t, c, x in zip(top, cv, (a, b)))
                    if best is None or s < best[0] - 1e-12:
                        best = (s, [a, b])
        return best[1]
    n = [0, 0]
    while True:
        cand = []
        for i in (0, 1):
            t = list(n)
            t[i] += 1
            if t[i] < len(cv[i]) and ws_fits(ws, t) and (n[i] == 0 or cv[i][n[i] + 1] > cv[i][n[i]]):
                cand.append((cv[i][n[i]] / top[i] if n[i] else 0.0, i))
        if not cand:
            return n
        n[min(cand)[1]] += 1


def mode_ws(tmp):
    os.chdir(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    common = ["ccbp.types=ls dbi", "ccbp.ls_first=false", "ccbp.ws_online=true"]
    # water-filling (the default) re-profiles when sad's second kernel (sad_merge) first
    # arrives, after the first choice; sum: one phase at the start (ws_reprofile = false)
    for rule, reprof in (("water", True), ("sum", False)):
        _, apps, _, cyc = corun(tmp, WS_CI, rule, common + [
            f"ccbp.ws_rule={rule}", f"ccbp.ws_reprofile={'true' if reprof else 'false'}"])
        ws = log_ws(os.path.join(tmp, f"{rule}.log"))
        ph, phs = ws.get("phase"), ws.get("phases", [])
        if not ph or ph["rule"] != rule or ph["sample"] != 20000 or ph["warmup"] != 5000 or \
                not phs or phs[0]["start"] != 0 or phs[0]["end"] != 25000 or \
                min(phs[0]["choice"]) < 1:
            fail(f"{rule}: no sampling phase of 5,000 + 20,000 cycles with a choice: {ph} {phs}")
        if reprof and (len(phs) != 2 or phs[1]["start"] <= 25000):
            fail(f"{rule}: sad_merge's first launch did not start a second phase: {phs}")
        if not reprof and len(phs) != 1:
            fail(f"{rule}: ws_reprofile = false, {len(phs)} phases: {phs}")
        if len(ws["sm"]) != 16 or sorted({int(s["app"]) for s in ws["sm"]}) != [1, 2]:
            fail(f"{rule}: the SMs do not sample both applications: {ws['sm']}")
        last = ph["chosen_at"] == ph["end"] and ph["chosen"] == 1  # (the last phase chose:
        for a in (1, 2):  # the logged SMs' limits, points and curves are the choice's)
            if not last:
                break
            # (a point's CTA count: the SM's mean resident CTAs, rounded; none below 0.5)
            lims = sorted({int(s["resident"] + 0.5) for s in ws["sm"]
                           if s["app"] == a and s["resident"] >= 0.5})
            p = ws["app"].get(a)
            c = ws["curve"].get(a)
            if not p or not c or len(c) != p["nmax"] + 1 or sorted(p["points"]) != lims or \
                    not all(v > 0 for v in p["points"].values()):
                fail(f"{rule}: application {a}: limits {lims}, curve {c}, points {p}")
            if p["nmax"] > 1 and len({int(s["limit"]) for s in ws["sm"] if s["app"] == a}) < 2:
                fail(f"{rule}: application {a} (nmax {p['nmax']}) sampled one limit: {ws['sm']}")
        n = ws["choice"]
        if len(n) != 2 or min(n) < 1 or not ws_fits(ws, n):
            fail(f"{rule}: the combination {n} does not fit one SM ({ws['app']})")
        want = ws_expect(ws, rule) if last else phs[0]["choice"]
        if n != want:
            fail(f"{rule}: the combination {n}, on the logged curves {want}")
        if [int(apps[a]["ctas"]) for a in (1, 2)] != n:
            fail(f"{rule}: the CTA combination after the phase {apps} is not the choice {n}")
        print(f"{WS_CI} ws_online {rule}: {cyc} cycles, {len(phs)} phase(s); curves " + "; ".join(
            f"app {a} " + " ".join(f"{k}:{v:.3f}" for k, v in ws["app"][a]["points"].items())
            for a in (1, 2)) + f"; combination {n[0]},{n[1]}")


def refused(sets, want):
    """A co-run with these --set values must be refused before it runs, with want in the
    message."""
    args = [HEDDLE, "run", "--mix", WS_CI, "--size", "small", "--config", CFG,
            "--set", "ccbp.enable=true", "--set", "ccbp.types=ls dbi", "--set",
            "ccbp.ws_online=true"]
    for st in sets:
        args += ["--set", st]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode == 0 or want not in p.stdout + p.stderr:
        fail(f"{' '.join(sets)} with ws_online was not refused naming '{want}': rc "
             f"{p.returncode}, {(p.stdout + p.stderr)[-300:]}")


def mode_wsmil(tmp):
    """Dai18's limit on Warped-Slicer online (session 31): the two compose, the rest is
    refused."""
    global BUDGET
    BUDGET = 50000
    os.chdir(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    common = ["ccbp.types=ls dbi", "ccbp.ls_first=false", "ccbp.ws_online=true"]
    _, _, _, wcyc = corun(tmp, WS_CI, "ws", common)
    wph = log_ws(os.path.join(tmp, "ws.log")).get("phases")
    # a limit that never binds: the run of ws_online alone, nothing held
    _, _, _, ncyc = corun(tmp, WS_CI, "nobind", common + ["ccbp.mil=0 100000"])
    g, b = log_base(os.path.join(tmp, "nobind.log"))
    nph = log_ws(os.path.join(tmp, "nobind.log")).get("phases")
    if ncyc != wcyc or nph != wph or not b or b[2]["mil_held"] or g["mil_resets"]:
        fail(f"a limit that cannot bind changed ws_online's run: {ncyc} != {wcyc} cycles, "
             f"phases {nph} != {wph}, {g}, {b}")
    unl = b[2]["mil_max_inflight"]
    # Dai18's dynamic limit on sad (the experiment's dmil_online: ceiling 8, 2,000 cycles)
    _, _, _, dcyc = corun(tmp, WS_CI, "dmil", common + ["ccbp.mil=0 8", "ccbp.mil_epoch=2000"])
    g, d = log_base(os.path.join(tmp, "dmil.log"))
    ws = log_ws(os.path.join(tmp, "dmil.log"))
    phs = ws.get("phases", [])
    if g.get("mil_epoch") != 2000 or g["mil_resets"] or not d[2]["mil_held"] or \
            d[1]["mil_held"] or not d[2]["dmil_down"] or not d[2]["dmil_min"] < 8 or \
            not d[2]["mil_max_inflight"] < unl:
        fail(f"Dai18's dynamic limit on ws_online: {g}, {d} (sad's most in flight without "
             f"it: {unl})")
    if not phs or phs[0]["end"] != 25000 or min(phs[0]["choice"]) < 1 or \
            not ws_fits(ws, ws["choice"]):
        fail(f"with the limit, no sampling phase with a fitting choice: {phs} {ws.get('choice')}")
    refused(["ccbp.smk_epoch=2000", "ccbp.smk_quota=100 100"], "smk_epoch / smk_quota")
    refused(["ccbp.ctas=2 2", "ccbp.mil=0 8"], "[ccbp] ctas must not be set")
    print(f"{WS_CI} ws_online + DMIL on sad: {dcyc} cycles ({wcyc} without), "
          f"{d[2]['mil_held']} hold answers, {d[2]['dmil_down']} halvings, {d[2]['dmil_up']} "
          f"raises, lowest {d[2]['dmil_min']}, most in flight {d[2]['mil_max_inflight']} "
          f"({unl} unlimited); phases " + ", ".join(f"{p['start']}-{p['end']} {p['choice']}"
                                                   for p in phs))


def mode_schemes(tmp):
    import tomllib
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "experiments", "ccbp.toml"), "rb") as f:
        grid = tomllib.load(f)["grid"]
    os.chdir(root)
    for i, g in enumerate(grid):
        sets = [f"ccbp.{k}={'true' if v is True else 'false' if v is False else v}"
                for k, v in g.get("set", {}).get("ccbp", {}).items()]
        args = ["run", "--mix", g["mix"], "--size", "small", "--config",
                f"configs/{g['config']}.ini", "--repeat", "all", "--repeat-until", "50000"]
        for st in sets:  # (a profile path is relative to the root: the cwd, set above)
            args += ["--set", st]
        out = run(args)
        if not re.search(r"VERIFIED \(2 of 2 workloads verified\)", out):
            fail(f"point {i} ({g['mix']} {' '.join(sets)}): not both verified")
        reps = re.findall(r"repeated: (\d+) instances, (\d+) verified", out)
        if len(reps) != 2 or any(a != b for a, b in reps):
            fail(f"point {i} ({g['mix']} {' '.join(sets)}): instances {reps}")
    print(f"{len(grid)} points of experiments/ccbp.toml at small size: every instance verified")


with tempfile.TemporaryDirectory() as tmp:
    {"irc": mode_irc, "verify": mode_verify, "base": mode_base, "dmil": mode_dmil,
     "schemes": mode_schemes, "pair": mode_pair, "ws": mode_ws,
     "wsmil": mode_wsmil}[MODE](tmp)
print(f"ccbp {MODE} ok")
