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
                    'set.context.preempt_policy = ["sm", "inplace"]\n'
                    'set.context.inplace_stop = [true, false]\n')
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


# {==== The matched comparison (issue 24: the in-place study's metric as the thesis defines it) ====
# Lin L1182-L1196: "kernel1 is preempted by kernel2" and the switching-out latency of kernel1 is
# measured, 'complete' against in-place, on the same preemption. A run makes many requests (B's
# later launches ask again, resumed CTAs are preempted again) and the two policies' runs diverge
# after the first one, so their per-request means average different request sets (whole-SM
# switching asked 30 times in backprop+btree, in-place 15). Here only the requests both runs make
# for the same preemption are compared: the arriving kernel's first launch that asked, per SM
# asked in both runs at the same signal cycle (the runs are equal up to it). Spill latency is
# Lin's Fig 2.14 total, registers + shared memory + SIMT stacks: 'eng' the cycles the SM's save
# pipeline was busy with them (the Fig 2.15 / 2.17 'spill' bar: the time the pipeline works, not
# the drain; cycles_engine), 'acc' with the register part as L1079 accumulates it per warp (each
# warp from its point to its registers out) plus the shared-memory and stack parts' cycles.
PARTS = ("cycles_regs", "cycles_smem", "cycles_stack")


def spill_of(p):
    """Lin's spill latency of one preemption record: the save pipeline's busy time
    (cycles_engine: each SM cycle once; records without it: the sum of the parts' cycles, which
    counts a cycle once per part and CTA) and with the register part accumulated per warp."""
    rest = p["cycles_smem"] + p["cycles_stack"]
    eng = p.get("cycles_engine", p["cycles_regs"] + rest)
    return {"eng": eng, "acc": p["warp_spill_cycles"] + rest}


def first_round(data):
    """The arriving kernel's first preemption: (its launch id, {SM: that launch's first record
    met there}); (None, {}) when nothing was preempted."""
    recs = [p for p in data["timing"]["preemptions"]
            if p["launch"] != "signal" and p["met"] and p["switched"]]
    if not recs:
        return None, {}
    first = min(p["launch"] for p in recs)
    out = {}
    for p in sorted(recs, key=lambda p: p["signal"]):
        if p["launch"] == first and p["sm"] not in out:
            out[p["sm"]] = p
    return first, out


def matched(sm_data, ip_data):
    """The same preemption under both policies: per pair the sums over the SMs both first rounds
    asked at the same signal cycle ({} when the first rounds are of different launches or share
    no SM)."""
    ls, s = first_round(sm_data)
    li, i = first_round(ip_data)
    if ls is None or ls != li:
        return {}
    sms = sorted(k for k in s if k in i and s[k]["signal"] == i[k]["signal"])
    if not sms:
        return {}

    def tot(recs, f):
        return sum(f(recs[k]) for k in sms)
    launches = {l["id"]: l for l in sm_data["timing"]["launches"]}
    victim = launches.get(s[sms[0]].get("victim"), {})
    asker = launches.get(ls, {})
    out = {"launch": ls, "sms": len(sms), "sms_sm": len(s), "sms_inplace": len(i),
           "victim_kernel": victim.get("kernel"), "victim_limiter": victim.get("limiter"),
           "victim_ctas_per_sm": victim.get("ctas_per_sm"),
           # the register file in vector registers (32 x 32 bit, the table's unit): per SM
           # what A's CTAs hold at full occupancy and what an SM's worth of B's CTAs needs
           "rf_cap": sm_data["timing"]["config"]["sm"]["registers"] // 32,
           "rf_a": _vregs(victim) * victim.get("ctas_per_sm", 0),
           "rf_b": _vregs(asker) * asker.get("ctas_per_sm", 0)}
    for name, recs in (("sm", s), ("inplace", i)):
        out[name] = {
            "eng": tot(recs, lambda p: spill_of(p)["eng"]),
            "acc": tot(recs, lambda p: spill_of(p)["acc"]),
            "regs_acc": tot(recs, lambda p: p["warp_spill_cycles"]),
            **{k: tot(recs, lambda p, k=k: p[k]) for k in PARTS},
            "bytes": tot(recs, lambda p: p["bytes"]),
            "switched": tot(recs, lambda p: p["switched"]),
            "ctas_at_signal": tot(recs, lambda p: p["ctas_at_signal"]),
            "smem_kept": tot(recs, lambda p: p.get("smem_kept", 0)),
            "regs_kept": tot(recs, lambda p: p.get("regs_kept", 0)),
            "warps": tot(recs, lambda p: p["warp_spill_warps"]),
            "latency": tot(recs, lambda p: p["freed"] - p["signal"]),
            # Lin's drain (Fig 2.15, L1121-L1125): the time the save pipeline waits for warps,
            # i.e. the latency less its busy time; and the SM's wall clock to the last warp quiet
            "drain": tot(recs, lambda p: max(0, p["freed"] - p["signal"] - spill_of(p)["eng"])),
            "drain_wall": tot(recs, lambda p: max(0, min(p["quiet"], p["freed"]) - p["signal"])),
        }
    return out


def _vregs(launch):
    """Vector registers (32 x 32 bit) one CTA of a launch holds (0: unknown)."""
    b = launch.get("block") or [0]
    threads = b[0] * b[1] * b[2] if isinstance(b, list) and len(b) == 3 else int(b[0] if
                                                                                 isinstance(b, list) else b)
    return -(-launch.get("regs_per_thread", 0) * threads // 32)


def matched_reduction(m, k):
    """1 - in-place / complete of measure k over a pair's matched SMs, in %."""
    a, b = m["sm"][k], m["inplace"][k]
    return None if not a else 100.0 * (1 - b / a)
# }====


STOP_AXIS = "set.context.inplace_stop"
VARIANTS = ((True, "stop in place"), (False, "run beside"))


def report(ctx):
    from heddle_sweep import SweepError
    from heddle_sweep.heddle import parse_stats
    from heddle_sweep.report import md_table

    res, raw = {}, {}
    for p, key in zip(ctx.sweep.points, ctx.keys):
        row = ctx.store.rows([key]).get(key)
        if row is None:
            raise SweepError(f"lin-inplace: the point {p.label()} has no result in the store")
        k = (p.axes["mix"], p.axes["set.context.preempt_policy"],
             str(p.axes.get(STOP_AXIS, False)).lower() == "true")
        raw[k] = parse_stats(row["stats"])
        res[k] = measure(raw[k], arrival_of(p.axes.get("flags")))
    stops = [v for v, _ in VARIANTS if any(k[2] == v for k in raw)]
    mixes = []
    for p in ctx.sweep.points:
        if p.axes["mix"] not in mixes:
            mixes.append(p.axes["mix"])
    mt = {v: {m: matched(raw[(m, "sm", v)], raw[(m, "inplace", v)]) for m in mixes
              if (m, "sm", v) in raw and (m, "inplace", v) in raw} for v in stops}
    mm = {v: [m for m in mixes if mt[v].get(m)] for v in stops}
    main = stops[0]  # stop in place when the sweep has it
    M, MM = mt[main], mm[main]
    mkeys = ["eng", "acc", "regs_acc", "cycles_smem", "bytes", "latency", "drain", "drain_wall"]

    def mavg(v, k):
        return _mean([matched_reduction(mt[v][m], k) for m in mm[v]])

    def mpool(v, k):
        a = sum(mt[v][m]["sm"][k] for m in mm[v])
        return None if not a else 100.0 * (1 - sum(mt[v][m]["inplace"][k] for m in mm[v]) / a)
    # the whole-SM runs do not read inplace_stop: the same cycles under both values
    sm_same = [m for m in mixes if all((m, "sm", v) in raw for v in (True, False)) and
               raw[(m, "sm", True)]["timing"]["totals"]["cycles"] ==
               raw[(m, "sm", False)]["timing"]["totals"]["cycles"]]
    sm_both = [m for m in mixes if all((m, "sm", v) in raw for v in (True, False))]
    old = False if False in stops else main  # the earlier metric: in-place running beside

    def red(m, k):  # the earlier per-request means (all requests of each run)
        a, b = res[(m, "sm", old)][k], res.get((m, "inplace", old), {}).get(k)
        return None if a in (None, 0) or b is None else 100.0 * (1 - b / a)
    keys = ["bytes", "spill_us", "warp_spill_us", "latency_us", "drain_us"]
    avg = {k: _mean([red(m, k) for m in mixes]) for k in keys}

    def pooled(k):  # over the pairs with a value under both: 1 - sum(in-place) / sum(sm)
        ms = [m for m in mixes if res[(m, "sm", old)][k] not in (None, 0) and
              res.get((m, "inplace", old), {}).get(k) is not None]
        a = sum(res[(m, "sm", old)][k] for m in ms)
        return None if not ms or a == 0 else 100.0 * (1 - sum(res[(m, "inplace", old)][k]
                                                              for m in ms) / a)
    pool = {k: pooled(k) for k in keys}
    preempted = [m for m in mixes if res[(m, "sm", main)]["requests"] or
                 res.get((m, "inplace", main), {}).get("requests")]
    mhz = next(iter(raw.values()))["timing"]["totals"]["core_mhz"] if raw else 700.0
    ctx.write_json("lin-inplace.json", {
        "experiment": "lin-inplace", "seed": SEED, "pairs": mixes, "preempted": preempted,
        "matched": {("stop" if v else "beside"): mt[v] for v in stops},
        "matched_mean_reduction_percent": {("stop" if v else "beside"):
                                           {k: mavg(v, k) for k in mkeys} for v in stops},
        "matched_pooled_reduction_percent": {("stop" if v else "beside"):
                                             {k: mpool(v, k) for k in mkeys} for v in stops},
        "sm_runs_equal_under_both_keys": sm_same,
        "runs": {f"{m}/{p}/{'stop' if v else 'beside'}": x for (m, p, v), x in res.items()},
        "mean_reduction_percent": avg, "pooled_reduction_percent": pool})
    ctx.write_csv("points.csv")
    us = lambda c, n=1: None if c is None else c / mhz / max(1, n)
    ser = {"whole SM (complete)": [us(M[m]["sm"]["eng"], M[m]["sms"]) for m in MM]}
    for v, name in VARIANTS:
        if v in stops:
            ser[f"in-place, {name}"] = [us(mt[v][m]["inplace"]["eng"], mt[v][m]["sms"])
                                        if m in mt[v] and mt[v][m] else None for m in MM]
    _hbar(ctx.path("inplace.png"),
          "Spill latency (registers + shared memory + SIMT stacks) per preempted SM,\n"
          "the same preemption under each policy", "us (save-engine time)", MM, ser)
    rser = {}
    for v, name in VARIANTS:
        if v in stops:
            rser[f"in-place {name}: save-engine time"] = [
                matched_reduction(mt[v][m], "eng") if mt[v].get(m) else None for m in MM] + [
                mavg(v, "eng")]
            rser[f"in-place {name}: regs accumulated per warp"] = [
                matched_reduction(mt[v][m], "acc") if mt[v].get(m) else None for m in MM] + [
                mavg(v, "acc")]
    _hbar(ctx.path("reduction.png"), "Further spill-latency reduction by in-place, per pair and "
          "mean of pairs (the same preemption)", "% (higher: in-place better)",
          MM + ["mean of pairs"], rser,
          paper=(float(PAPER_REDUCTION), f"Lin, mean of pairs ({PAPER_REDUCTION} %)"))
    ej = json.load(open(EARLIER_JSON)) if os.path.exists(EARLIER_JSON) else {}

    def ea(k):
        return _r((ej.get("mean_reduction_percent") or {}).get(k))
    setup = ", ".join(f"`{k} = {v}`" for k, v in FAITHFUL.items())
    # facts for the explanation, computed from the runs
    stopped = [m for m in MM if M[m]["inplace"]["regs_kept"]]
    nokeep = [m for m in MM if not M[m]["inplace"]["regs_kept"]]
    b = mt.get(False, {})
    allout = [m for m in mm.get(False, []) if b[m]["inplace"]["switched"] ==
              b[m]["inplace"]["ctas_at_signal"]]
    smem_share = _mean([100.0 * M[m]["sm"]["cycles_smem"] / M[m]["sm"]["eng"]
                        for m in MM if M[m]["sm"]["eng"]])
    regs_share = _mean([100.0 * M[m]["sm"]["cycles_regs"] / M[m]["sm"]["eng"]
                        for m in MM if M[m]["sm"]["eng"]])
    wait = _mean([100.0 * (1 - M[m]["sm"]["cycles_regs"] / M[m]["sm"]["regs_acc"])
                  for m in MM if M[m]["sm"]["regs_acc"]])
    rd = max(mixes, key=lambda m: abs(res[(m, "sm", old)]["requests"] -
                                      res.get((m, "inplace", old), {}).get("requests", 0)))
    reqdiff = (f"{rd}: {res[(rd, 'sm', old)]['requests']} requests against "
               f"{res.get((rd, 'inplace', old), {}).get('requests')}")

    def pct(x):
        return "-" if x is None else f"{_r(x, 1)} %"
    mrows = []
    for m in MM:
        x = M[m]
        mrows.append([m, x["launch"], f"{x['sms']} ({x['sms_sm']}/{x['sms_inplace']})",
                      x["victim_kernel"], x["victim_limiter"],
                      f"{x['rf_a']}/{x['rf_b']}/{x['rf_cap']}",
                      f"{x['sm']['switched']}/{x['sm']['ctas_at_signal']}",
                      f"{x['inplace']['switched']}/{x['inplace']['ctas_at_signal']}",
                      x["inplace"]["regs_kept"], x["inplace"]["smem_kept"],
                      x["sm"]["bytes"], x["inplace"]["bytes"],
                      _r(us(x["sm"]["eng"], x["sms"]), 3), _r(us(x["inplace"]["eng"], x["sms"]), 3),
                      _r(us(x["sm"]["acc"], x["sms"]), 3), _r(us(x["inplace"]["acc"], x["sms"]), 3),
                      _r(us(x["sm"]["drain"], x["sms"]), 3), _r(us(x["inplace"]["drain"], x["sms"]), 3),
                      _r(matched_reduction(x, "eng"), 1), _r(matched_reduction(x, "acc"), 1),
                      _r(matched_reduction(x, "bytes"), 1)])
    brows = []
    for m in mm.get(False, []):
        x = b[m]
        brows.append([m, f"{x['inplace']['switched']}/{x['inplace']['ctas_at_signal']}",
                      x["inplace"]["smem_kept"], x["inplace"]["bytes"],
                      _r(matched_reduction(x, "eng"), 1), _r(matched_reduction(x, "acc"), 1),
                      _r(matched_reduction(x, "bytes"), 1), _r(matched_reduction(x, "drain"), 1)])
    rows = []
    for m in mixes:
        s_, i = res[(m, "sm", old)], res.get((m, "inplace", old), {})
        rows.append([m, s_["arrive"], s_["requests"], i.get("requests"), s_["ctas_switched"],
                     i.get("ctas_switched"), _r(s_["spill_us"]), _r(i.get("spill_us")),
                     _r(s_["warp_spill_us"]), _r(i.get("warp_spill_us")),
                     _r(red(m, "spill_us")), _r(red(m, "warp_spill_us")),
                     _r(s_["arriving_turnaround_us"]), _r(i.get("arriving_turnaround_us"))])
    head = [["measure (the same preemption)"]]
    cols = []
    for v, name in VARIANTS:
        if v in stops:
            cols.append(v)
            head[0] += [f"in-place {name}: mean of pairs", "pooled"]
    head[0] += ["earlier, mean of pairs", "Lin"]

    def line(label, k, earlier, lin):
        r = [label]
        for v in cols:
            r += [_r(mavg(v, k)), _r(mpool(v, k))]
        return r + [earlier, lin]
    table = [line("further spill-latency reduction, regs + smem + stacks, save-engine time (%)",
                  "eng", ea("spill_us"), PAPER_REDUCTION),
             line("further spill-latency reduction, regs accumulated per warp (L1079) + smem + "
                  "stacks (%)", "acc", None, PAPER_REDUCTION),
             line("  of which the register part alone, accumulated per warp (%)", "regs_acc",
                  None, ""),
             line("further spilled-bytes reduction (%)", "bytes", ea("bytes"), ""),
             line("preemption-latency reduction, signal to room (%)", "latency",
                  ea("latency_us"), ""),
             line("drain-part reduction, pipeline waiting for warps (%; negative: longer)",
                  "drain", None, "can be negative (BT_1-HG_1)"),
             line("  signal to the last warp quiet, wall clock (%)", "drain_wall",
                  ea("drain_us"), "")]
    note = (
        f"With the thesis's stop in place, on the same preemption, in-place cuts Lin's spill "
        f"latency by {pct(mavg(main, 'eng'))} (mean of pairs; pooled {pct(mpool(main, 'eng'))}) "
        f"as save-engine time and by {pct(mavg(main, 'acc'))} (pooled "
        f"{pct(mpool(main, 'acc'))}) with the register part accumulated per warp, against the "
        f"thesis's {PAPER_REDUCTION} %. TBs stopped in place (registers and shared memory kept, "
        f"stacks saved only) in {len(stopped)} of {len(MM)} pairs"
        + (f"; none in {', '.join(nokeep)}, where an SM's worth of B's CTAs needs "
           + ", ".join(f"{M[m]['rf_b']}" for m in nokeep)
           + f" of the {M[nokeep[0]]['rf_cap']} vector registers beside A's "
           + ", ".join(f"{M[m]['rf_a']}" for m in nokeep)
           + ", so the spill query's contiguous windows (each B block overlapping A blocks) "
           "take every A TB's registers, as the thesis's own Fig 2.4 needs contiguous blocks"
           if nokeep else "")
        + f". Shared memory is {pct(smem_share)} of complete's engine time (mean of pairs), "
        "and in-place keeps it in place in every pair. "
        + (f"Running beside instead (`inplace_stop = false`, this study before the fix) "
           f"in-place cuts only {pct(mavg(False, 'eng'))} / {pct(mavg(False, 'acc'))}: in "
           f"{len(allout)} of {len(mm[False])} pairs ({', '.join(allout) or '-'}) it still "
           "switched every CTA of A, because where threads, warps or CTA slots limit A (column "
           "'limiter') B's CTAs need what A's CTAs hold beyond registers and shared memory, and "
           "a CTA that leaves its slots there leaves with its registers; in the thesis the "
           "preempted SM's TBs all stop and give up their slots, and only the tables decide what "
           "spills (L1186-L1190, Fig 2.12's NULL pointers). " if False in stops else "")
        + f"The accumulated register part is mostly waiting, not sending: {pct(wait)} of "
        "complete's accumulated per-warp register latency (mean of pairs) is the warps' wait "
        "from the point to the first register request (their loads landing under `quiesce = "
        "writeback`, the warps ahead of them in the engine), the same under both policies for "
        "the warps that still spill. The drain part "
        + (f"grows with in-place ({pct(-mavg(main, 'drain'))} longer, mean of pairs), as the "
           "thesis reports for BT_1-HG_1." if (mavg(main, "drain") or 0) < 0 else
           f"is {pct(mavg(main, 'drain'))} shorter (mean of pairs): every TB of the SM still "
           "stops at its point, so the drain is the same work as complete's; the thesis reports "
           "it can grow (BT_1-HG_1), which needs a drain that spilling no longer overlaps.")
        + " (Drain as the thesis defines it, L1121-L1125: the time the save pipeline waits for "
        "warps, i.e. the latency less the pipeline's busy time; the wall clock from the signal "
        "to the last warp quiet is the row below it.)")
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
          "shared memory in place until it resumes on that SM), and with `context.inplace_stop "
          "= true` (the thesis's 2.5.5: every A CTA of the preempted SM stops at its point and "
          "gives up its slots; the ones the tables do not name keep registers and shared memory "
          "in place and save their SIMT stacks only) or `false` (they run on beside B). Every "
          "run verified both outputs. The whole-SM runs do not read `inplace_stop`: "
          f"{len(sm_same)} of {len(sm_both)} pairs give the same cycles under both values.", "",
          "**The metric (issue 24).** The thesis measures kernel1's switching-out latency when "
          "kernel2 preempts it, 'complete' against in-place, on the same preemption (L1182-"
          f"L1196), and its {PAPER_REDUCTION} % is the further cut of the latency 'for spilling "
          "the register and shared memory states'. Compared here: the requests both runs make "
          "for the same preemption (B's first launch that asked, per SM asked by both at the "
          "same signal cycle: the runs are equal up to it), and as spill latency Lin's Fig 2.14 "
          "total, registers + shared memory + SIMT stacks, once as the save engine's time on "
          "each part (the 'spill' bar of Fig 2.15 / 2.17) and once with the register part "
          "accumulated per warp (L1079). The earlier headline ('SM wall time' and 'accumulated "
          f"per warp', {pct(avg['spill_us'])} and {pct(avg['warp_spill_us'])} on this run's "
          "run-beside points) averaged per request over all requests of each run: the two "
          "runs' request sets differ after the first preemption (whole-SM switching asks again "
          f"when B's later launches start, on SMs holding fewer CTAs; {reqdiff}), the wall "
          "time from the last warp quiet to room is the tail of a pipelined save (tens of "
          "cycles, so single pairs swing the mean), and the accumulated per-warp figure left "
          "out shared memory, which is what in-place keeps. Those figures are in the last "
          "table.", "",
          "![inplace](inplace.png)", "", "![reduction](reduction.png)", "",
          "## Ours beside the thesis", "",
          f"In {len(preempted)} of {len(mixes)} pairs B had to take room from A"
          + ("." if len(preempted) == len(mixes) else
             "; in the others B's CTAs found room beside A's, so nothing was preempted.")
          + f" Matched preemptions in {len(MM)} of {len(mixes)} pairs. The headline is the mean "
          f"of the per-pair reductions (as the thesis states its {PAPER_REDUCTION} %); pooled "
          "(1 - the sum over pairs of in-place / the sum of complete) beside it.", "",
          md_table(head[0], table),
          "'Earlier' is this study before issue 24 (GTO schedulers, stops at any instruction, "
          "the partitioned allocator, per-request means; results/lin-inplace/earlier.json).", "",
          "How ours differs and why: the thesis's pairs are its GT200 kernels with Rodinia "
          "inputs; ours are our stand-ins at small size (only the stand-ins with a launch "
          "that fills every SM there can be first kernels: backprop, btree, hotspot, "
          "histogram). " + note + " Ours is above the thesis's 21.5 % because what in-place "
          "keeps weighs more here: every pair keeps all of A's shared memory (its part is busy "
          f"{pct(smem_share)} of complete's engine time, the registers' {pct(regs_share)}: the "
          f"parts overlap), and in {len(stopped)} of {len(MM)} pairs B's register needs let "
          "whole TBs stay; the thesis gives no per-pair breakdown (Fig 2.17 "
          "only), so how much its pairs keep is not known.", "",
          "## Per pair, the same preemption (stop in place)", "",
          "Sums over the matched SMs, latencies per SM. 'SMs': matched (asked by complete / by "
          "in-place); 'limiter': A's occupancy limiter; 'RF A/B/SM': vector registers A's CTAs "
          "of one SM hold, an SM's worth of B's CTAs needs, the SM has; 'CTAs': switched / "
          "resident at the signal; 'regs kept': stopped in place.", "",
          md_table(["pair", "launch", "SMs", "A", "limiter", "RF A/B/SM", "CTAs sm", "CTAs in-place",
                    "regs kept", "smem kept", "bytes sm", "bytes in-place",
                    "spill us sm (engine)", "... in-place", "spill us sm (acc.)", "... in-place",
                    "drain us sm", "... in-place", "engine -%", "acc. -%", "bytes -%"], mrows),
          ""]
    if brows:
        md += ["## Per pair, the same preemption (in-place running beside, `inplace_stop = "
               "false`)", "",
               md_table(["pair", "CTAs in-place", "smem kept", "bytes in-place", "engine -%",
                         "acc. -%", "bytes -%", "drain -%"], brows), ""]
    md += ["## Per request over all requests (the earlier metric)", "",
           "Means per request over every request of each run (the request sets differ between "
           "the two runs after the first preemption): SM wall time from the last warp quiet to "
           "room, and the register part accumulated per warp"
           + (" (in-place running beside, as before the fix)." if old is False else "."), "",
           md_table(["measure", "mean of pairs", "pooled"], [
               ["spill-latency reduction, SM wall time (%)", _r(avg["spill_us"]),
                _r(pool["spill_us"])],
               ["spill-latency reduction, registers accumulated per warp (%)",
                _r(avg["warp_spill_us"]), _r(pool["warp_spill_us"])],
               ["spilled-bytes reduction (%)", _r(avg["bytes"]), _r(pool["bytes"])]]), "",
           md_table(["pair", "arrive", "requests sm", "requests in-place", "CTAs sm",
                     "CTAs in-place", "wall spill us sm", "... in-place", "acc. regs us sm",
                     "... in-place", "wall -%", "acc. -%", "B turnaround us sm",
                     "... in-place"], rows),
           "", f"{len(ctx.sweep.points)} heddle runs of {ctx.identity}; every row in "
           "[points.csv](points.csv).", ""]
    ctx.write_text("report.md", "\n".join(md))


def _hbar(path, title, xlabel, labels, series, paper=None):
    """Horizontal grouped bars, one group per pair, legend outside the data, the paper's value a
    dashed line named in the legend."""
    from heddle_sweep import figures
    plt = figures._plt()
    n, m = len(labels), max(1, len(series))
    fig, ax = plt.subplots(figsize=(11, 0.3 * n * m + 1.6))
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
