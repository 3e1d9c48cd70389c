#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""faithful.py - checks of issue 24's Shieh setup (tests/shieh_faithful.cmake).

  faithful.py timebase HEDDLE    L_CS / L_c of a pathfinder CTA at 2 us on the experiment's
                                 configuration, from the model's statistics JSON (context bytes
                                 from the launch record, B / N_SM from totals.sm_bytes_per_cycle,
                                 L_c converted by experiments/shieh_setup.py with the
                                 configuration's clock and read back from the preemption
                                 records): 0.78 +- 0.02
                                 (the thesis's 2182 / 2800, digest Appendix B).
  faithful.py sms HEDDLE         [context] preempt_sms: chimera frees 2 SMs for the small
                                 preempter by occupancy, 10 as its standalone run, 15 with all.
  faithful.py stall HEDDLE       [context] switch_model = stall: each SM chimera switches is
                                 free within a few cycles of ceil(bytes saved / B_SM) (the
                                 thesis's L_CS stall), and with no context traffic in the memory
                                 system's per-class counts; both outputs verify.
  faithful.py stall_tb HEDDLE    [context] switch_model = stall_tb: an SM's switched CTAs stall
                                 in parallel, each its own L_CS, so the SM is saved one CTA's
                                 L_CS after the signal (the thesis's Eq 3.1 max), no traffic.
  faithful.py flushbit HEDDLE    [context] flush_bit: stress flushing refuses no CTA of the
                                 idempotent pathfinder and hotspot with `idempotence` (one with
                                 `store`), and still refuses bfs's (non-idempotent); all verify.
  faithful.py plans HEDDLE       (session 15) the proposed scheme on dual-kernel SMs starts an
                                 SM's next plan as soon as the previous victims were asked: with
                                 pathfinder_w4 (6 TBs per SM) preempted at 5 us, every SM gets
                                 its plans within 400 cycles of its first (each one table read
                                 later; before: one L_CS apart) and its last position is freed
                                 within L_c of its first request.
  faithful.py hold HEDDLE        (session 15) [context] preempt_hold = true keeps the freed SMs
                                 the preempter's until it finished: its turnaround is its
                                 standalone time plus the SMs' preemption latency (+1 %), and
                                 with false (victim CTAs return beside its last wave) at least
                                 2 % of T_p longer.
  faithful.py hold_all HEDDLE    (session 15) [context] preempt_hold_all: stencil3d_tb128_r28_w4
                                 preempted at 46,866 (the tail of its first launch: some SMs
                                 idle, never freed for the preempter) at 5 us: with it the
                                 preempter ends within 1 % of T_p, without it (the victim's
                                 switched and next-launch CTAs placed on those SMs beside it)
                                 at least 2 % later.
  faithful.py stall_req HEDDLE   (session 16) [context] switch_model = stall_req: each switched
                                 CTA's L_CS stall runs from the request, in parallel and not paced
                                 by the engine, so every SM chimera switches is saved and taken by
                                 the preempter exactly one CTA's L_CS after the signal (the
                                 estimate the schemes decide by), no traffic.
  faithful.py hold_stream HEDDLE (session 16) preempt_hold passes the SMs to the preempting
                                 stream's next launch: dwt2d_copy64_r56 at medium preempted by
                                 the medium preempter (3 dependent launches) at 145,606 with
                                 chimera at 3 us: one round of requests (all within L_c of the
                                 arrival; session 15 had a second round 129,526 cycles later, when
                                 the victim had come back between its launches: 1.090 T_p), every
                                 switch over after its CTA's L_CS though its drain took up to 152
                                 cycles, and the preempter within 1 + latency / T_p + 0.01.
  faithful.py hold_release HEDDLE (session 18, issue 24) the Oracle's first pass of
                                 hotspot_r36_w4 at 1,975 (`sm`, drain, dual-kernel SMs, the
                                 faithful setup's keys with preempt_hold_all): the preempter
                                 found room beside the victim on every SM, so preempt_hold_all
                                 held all 15 without asking any (no preemption record); the run
                                 must finish and verify (it stopped on the watchdog: only a
                                 record made the preemption tick run, the one thing that
                                 releases a hold), the victim's launch 0 must wait for the
                                 preempter (held) and place its other CTAs as soon as it
                                 finished (released: its other 135 CTAs within 1.5 times
                                 what its next launch of 180 CTAs takes).
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "experiments"))
import shieh_setup  # noqa: E402  (experiments/shieh_setup.py: the experiment's own conversion)


def run(heddle, args, tmp, name):
    js = os.path.join(tmp, name + ".json")
    r = subprocess.run([heddle, "run"] + args + ["--stats", js, "--quiet"], cwd=ROOT,
                       capture_output=True, text=True)
    if r.returncode != 0 or "VERIFIED" not in r.stdout or "FAIL" in r.stdout:
        sys.exit(f"faithful.py: heddle run {' '.join(args)} failed ({r.returncode}):\n"
                 f"{r.stdout}{r.stderr}")
    with open(js) as f:
        return json.load(f)["timing"]


def timebase(heddle, tmp):
    config = "fermi-gtx480"                      # experiments/shieh.toml's
    os.environ["HD_EXP_SETUP"] = "faithful"
    bounds, mhz = shieh_setup.setup_bounds([2], config)
    pe = shieh_setup.SETUPS["faithful"]["preempter"]
    t = run(heddle, ["--mix", f"pathfinder+{pe}", "--arrive", f"{pe}@8000:1",
                     "--config", f"configs/{config}.ini", "--set", "sm.allocator=aligned",
                     "--set", "context.preempt_policy=shieh",
                     "--set", f"context.latency_bound={bounds[0]}"]
            + [a for s in shieh_setup.SETUPS["faithful"]["sets"]
               for a in ("--set", s[4:].replace(" ", "").replace('"', ""))], tmp, "tb")
    pf = next(lc for lc in t["launches"] if lc["kernel"].startswith("pf_"))
    blk = pf["block"]
    threads = (json.loads(blk) if isinstance(blk, str) else blk)[0]
    ctx = pf["regs_per_thread"] * threads * 4 + pf["shared_bytes"]
    bpc = t["totals"]["sm_bytes_per_cycle"]
    recs = [p for p in t["preemptions"] if p["launch"] != "signal"]
    if not recs:
        sys.exit("faithful.py: the preempter made no preemption request")
    lc_model = recs[0]["bound"]
    l_cs = ctx / bpc
    ratio = l_cs / lc_model
    print(f"pathfinder CTA context {ctx} B, B/N_SM {bpc:.3f} B/cycle at {mhz:g} MHz: "
          f"L_CS {l_cs:.0f} cycles, L_c(2 us) {lc_model} cycles, L_CS / L_c = {ratio:.3f}")
    if ctx != 18432:
        sys.exit(f"faithful.py: a pathfinder CTA holds {ctx} B of context, not Table 4.2's 18,432")
    if abs(ratio - 2182 / 2800) > 0.02:
        sys.exit(f"faithful.py: L_CS / L_c = {ratio:.3f}, not 0.78 +- 0.02")
    print("timebase ok")


def sms(heddle, tmp):
    want = {"occupancy": 2, "standalone": 10, "all": 15}
    for rule, n in want.items():
        t = run(heddle, ["--mix", "pathfinder+preempter", "--arrive", "preempter@16000:1",
                         "--set", "context.latency_bound=1400", "--set", "sm.allocator=aligned",
                         "--set", "context.preempt_policy=chimera",
                         "--set", f"context.preempt_sms={rule}"], tmp, rule)
        got = len({p["sm"] for p in t["preemptions"] if p["launch"] != "signal"})
        print(f"preempt_sms = {rule}: chimera freed {got} SMs")
        if got != n:
            sys.exit(f"faithful.py: preempt_sms = {rule} freed {got} SMs, not {n}")
    print("sms ok")


def stall(heddle, tmp):
    import math
    t = run(heddle, ["--mix", "pathfinder+preempter", "--arrive", "preempter@4000:1",
                     "--set", "context.latency_bound=3000", "--set", "sm.allocator=aligned",
                     "--set", "context.preempt_policy=chimera",
                     "--set", "context.switch_model=stall"], tmp, "stall")
    bpc = t["totals"]["sm_bytes_per_cycle"]
    recs = [p for p in t["preemptions"] if p["switched"]]
    if not recs:
        sys.exit("faithful.py: no switch under switch_model = stall")
    for p in recs:
        want = math.ceil(p["bytes"] / bpc)
        got = p["saved"] - p["signal"]
        print(f"SM {p['sm']}: {p['bytes']} B, L_CS {want} cycles, saved after {got}")
        if not want <= got <= want + 12:
            sys.exit(f"faithful.py: SM {p['sm']} saved after {got} cycles, not ~{want}")
    ctxcls = t.get("memory", {}).get("per_class", {}).get("context", {})
    moved = sum(v for v in ctxcls.values() if isinstance(v, (int, float)))
    print(f"context-class memory events: {moved}")
    if moved:
        sys.exit("faithful.py: switch_model = stall sent context traffic to the memory system")
    print("stall ok")


def stall_tb(heddle, tmp):
    """switch_model = stall_tb: an SM's switched CTAs stall in parallel, each for its own
    bytes over B_SM, so the SM is saved after one CTA's L_CS (Eq 3.1's max), not their sum."""
    import math
    t = run(heddle, ["--mix", "pathfinder+preempter", "--arrive", "preempter@4000:1",
                     "--set", "context.latency_bound=3000", "--set", "sm.allocator=aligned",
                     "--set", "context.preempt_policy=chimera",
                     "--set", "context.switch_model=stall_tb"], tmp, "stall_tb")
    bpc = t["totals"]["sm_bytes_per_cycle"]
    recs = [p for p in t["preemptions"] if p["switched"] >= 2]
    if not recs:
        sys.exit("faithful.py: no SM switched two CTAs under switch_model = stall_tb")
    for p in recs:
        one = math.ceil(p["bytes"] / p["switched"] / bpc)   # (pathfinder's CTAs: one size)
        got = p["saved"] - p["signal"]
        print(f"SM {p['sm']}: {p['switched']} CTAs, {p['bytes']} B, one CTA's L_CS {one} "
              f"cycles (in turn {math.ceil(p['bytes'] / bpc)}), saved after {got}")
        # (the engine still issues one request a cycle, so each further CTA's save starts a
        # request count later than the first's: within a quarter of the serial surplus)
        turn = math.ceil(p["bytes"] / bpc)
        if not one <= got <= one + (turn - one) / 4 + 12:
            sys.exit(f"faithful.py: SM {p['sm']} saved after {got} cycles, not ~{one} "
                     f"(in turn: {turn})")
    ctxcls = t.get("memory", {}).get("per_class", {}).get("context", {})
    if sum(v for v in ctxcls.values() if isinstance(v, (int, float))):
        sys.exit("faithful.py: switch_model = stall_tb sent context traffic to the memory system")
    print("stall_tb ok")


def stall_req(heddle, tmp):
    """switch_model = stall_req: the SM is saved, and the preempter's CTA placed, one CTA's
    L_CS after the signal: the stall runs from the request, the SM's CTAs in parallel."""
    import math
    t = run(heddle, ["--mix", "pathfinder+preempter", "--arrive", "preempter@4000:1",
                     "--set", "context.latency_bound=3000", "--set", "sm.allocator=aligned",
                     "--set", "context.preempt_policy=chimera",
                     "--set", "context.switch_model=stall_req"], tmp, "stall_req")
    bpc = t["totals"]["sm_bytes_per_cycle"]
    recs = [p for p in t["preemptions"] if p["switched"] >= 2]
    if not recs:
        sys.exit("faithful.py: no SM switched two CTAs under switch_model = stall_req")
    for p in recs:
        one = math.ceil(p["bytes"] / p["switched"] / bpc)
        got, freed = p["saved"] - p["signal"], p["freed"] - p["signal"]
        print(f"SM {p['sm']}: {p['switched']} CTAs, {p['bytes']} B, one CTA's L_CS {one} "
              f"cycles, saved after {got}, preempter placed after {freed}")
        if not one <= got <= one + 2 or not got <= freed <= got + 2:
            sys.exit(f"faithful.py: SM {p['sm']} saved after {got} and taken after {freed} "
                     f"cycles, not {one} (one CTA's L_CS)")
    ctxcls = t.get("memory", {}).get("per_class", {}).get("context", {})
    if sum(v for v in ctxcls.values() if isinstance(v, (int, float))):
        sys.exit("faithful.py: switch_model = stall_req sent context traffic to the memory system")
    print("stall_req ok")


def hold_stream(heddle, tmp):
    import math
    alone = run(heddle, ["preempter_gpu", "--size", "medium", "--config",
                         "configs/fermi-gtx480.ini"], tmp, "alone")
    t_p = alone["totals"]["cycles"]
    os.environ["HD_EXP_SETUP"] = "faithful"
    bounds, _ = shieh_setup.setup_bounds([3], "fermi-gtx480")
    _, st = shieh_setup.setup()
    sets = [a for x in st["sets"] for a in ("--set", x[4:].replace(" ", "").replace('"', ""))]
    arr = 145606
    t = run(heddle, ["--mix", "dwt2d_copy64_r56+preempter_gpu", "--size", "medium",
                     "--arrive", f"preempter_gpu@{arr}:1", "--config", "configs/fermi-gtx480.ini",
                     "--set", "sm.allocator=aligned", "--set", "sm.concurrent_kernels=false",
                     "--set", "context.preempt_policy=chimera",
                     "--set", f"context.latency_bound={bounds[0]}"] + sets, tmp, "stream")
    pe = [lc for lc in t["launches"] if lc["kernel"].startswith("pe_")]
    if len(pe) < 2:
        sys.exit(f"faithful.py: the medium preempter ran {len(pe)} launches, not several")
    recs = [p for p in t["preemptions"] if p["launch"] != "signal"]
    late = [p for p in recs if p["signal"] - arr > bounds[0]]
    if not recs or late:
        sys.exit(f"faithful.py: {len(late)} of {len(recs)} requests after L_c ({bounds[0]}) "
                 f"from the arrival (first late at +{late[0]['signal'] - arr if late else 0}): "
                 "the victim came back between the preempter's launches")
    bpc = t["totals"]["sm_bytes_per_cycle"]
    for p in recs:
        if not p["switched"]:
            continue
        one = math.ceil(p["bytes"] / p["switched"] / bpc)
        got = p["saved"] - p["signal"]
        if not one <= got <= one + 2:
            sys.exit(f"faithful.py: SM {p['sm']} saved after {got} cycles, not its CTA's L_CS "
                     f"{one} (quiet after {p['quiet'] - p['signal']})")
    end = max(lc["end_cycle"] for lc in pe)
    lat = max(p["freed"] - p["signal"] for p in recs)
    ratio = (end - arr) / t_p
    print(f"{len(pe)} preempter launches, {len(recs)} requests, latency {lat} cycles, "
          f"turnaround / T_p {ratio:.4f} (limit {1 + lat / t_p + 0.01:.4f}), longest drain "
          f"before a save {max(p['quiet'] - p['signal'] for p in recs if p['switched'])}")
    if ratio > 1 + lat / t_p + 0.01:
        sys.exit("faithful.py: the preempter ran slower than alone after its SMs were freed")
    print("hold_stream ok")


def flushbit(heddle, tmp):
    def refused(w, fb):
        t = run(heddle, [w, "--size", "small", "--set", "context.stress_period=2000",
                         "--set", "context.stress_flush=true", "--set", "context.preempt=flush",
                         "--set", f"context.flush_bit={fb}"], tmp, f"{w}-{fb}")
        return (sum(s.get("ctx_flush_refused", 0) for s in t["sms"]),
                sum(s.get("ctx_flushes", 0) for s in t["sms"]))
    bad = []
    for w, fb, ok in (("pathfinder", "idempotence", lambda r: r == 0),
                      ("pathfinder", "store", lambda r: r > 0),
                      ("hotspot", "idempotence", lambda r: r == 0),
                      ("hotspot", "store", lambda r: r > 0),
                      ("bfs", "idempotence", lambda r: r > 0)):
        r, n = refused(w, fb)
        print(f"{w} flush_bit = {fb}: {n} flushes, {r} refused")
        if not ok(r):
            bad.append(f"{w}/{fb}: {r} refused")
    if bad:
        sys.exit("faithful.py: " + "; ".join(bad))
    print("flushbit ok")


def _pf_preempted(heddle, tmp, name, hold):
    """pathfinder_w4 preempted by preempter_gpu at 6137 with the proposed scheme at 5 us in the
    faithful setup's sets (switch_model = stall_tb), preempt_hold as given."""
    os.environ["HD_EXP_SETUP"] = "faithful"
    bounds, _ = shieh_setup.setup_bounds([5], "fermi-gtx480")
    sets = [a for x in shieh_setup.SETUPS["faithful"]["sets"]
            for a in ("--set", x[4:].replace(" ", "").replace('"', ""))
            if "preempt_hold" not in x]
    t = run(heddle, ["--mix", "pathfinder_w4+preempter_gpu", "--size", "small",
                     "--arrive", "preempter_gpu@6137:1", "--config", "configs/fermi-gtx480.ini",
                     "--set", "sm.allocator=aligned", "--set", "sm.concurrent_kernels=true",
                     "--set", "context.preempt_policy=shieh",
                     "--set", "context.switch_model=stall_tb",
                     "--set", f"context.preempt_hold={'true' if hold else 'false'}",
                     "--set", f"context.latency_bound={bounds[0]}"] + sets, tmp, name)
    return t, bounds[0]


def _sm_spans(t):
    """Per SM: (records, first signal, last signal, last freed) of the preempter's requests."""
    out = {}
    for p in t["preemptions"]:
        if p["launch"] == "signal":
            continue
        if not p["met"]:
            sys.exit(f"faithful.py: SM {p['sm']}'s request at {p['signal']} was never met")
        n, s0, s1, fr = out.get(p["sm"], (0, p["signal"], p["signal"], p["freed"]))
        out[p["sm"]] = (n + 1, min(s0, p["signal"]), max(s1, p["signal"]), max(fr, p["freed"]))
    return out


def plans(heddle, tmp):
    t, bound = _pf_preempted(heddle, tmp, "plans", True)
    spans = _sm_spans(t)
    if len(spans) != 15:
        sys.exit(f"faithful.py: {len(spans)} SMs preempted, not 15")
    for sm, (n, s0, s1, fr) in sorted(spans.items()):
        print(f"SM {sm}: {n} plans, signals {s0}..{s1}, last freed {fr} ({fr - s0} after the "
              f"first; L_c {bound})")
        if n < 2 or s1 - s0 > 400 or fr - s0 > bound:
            sys.exit(f"faithful.py: SM {sm}: {n} plans over {s1 - s0} cycles, freed "
                     f"{fr - s0} after its first request (want >= 2 plans within 400 cycles, "
                     f"freed within {bound})")
    print("plans ok")


def hold(heddle, tmp):
    alone = run(heddle, ["preempter_gpu", "--size", "small", "--config",
                         "configs/fermi-gtx480.ini"], tmp, "alone")
    t_p = alone["totals"]["cycles"]
    ratio = {}
    for h in (True, False):
        t, _ = _pf_preempted(heddle, tmp, f"hold{h}", h)
        pe = [lc for lc in t["launches"] if lc["kernel"].startswith("pe_")]
        end = max(lc["end_cycle"] for lc in pe)
        lat = max(fr for _, _, _, fr in _sm_spans(t).values()) - 6137
        ratio[h] = ((end - 6137) / t_p, lat / t_p)
        print(f"preempt_hold = {str(h).lower()}: turnaround / T_p {ratio[h][0]:.4f}, SMs freed "
              f"after {lat} cycles ({ratio[h][1]:.4f} T_p)")
    if ratio[True][0] > 1 + ratio[True][1] + 0.01:
        sys.exit("faithful.py: with preempt_hold = true the preempter still ran slower than alone")
    if ratio[False][0] < ratio[True][0] + 0.02:
        sys.exit("faithful.py: preempt_hold = false did not slow the preempter's last wave")
    print("hold ok")


def hold_all(heddle, tmp):
    alone = run(heddle, ["preempter_gpu", "--size", "small", "--config",
                         "configs/fermi-gtx480.ini"], tmp, "alone")
    t_p = alone["totals"]["cycles"]
    os.environ["HD_EXP_SETUP"] = "faithful"
    bounds, _ = shieh_setup.setup_bounds([5], "fermi-gtx480")
    sets = [a for x in shieh_setup.SETUPS["faithful"]["sets"]
            for a in ("--set", x[4:].replace(" ", "").replace('"', ""))
            if "preempt_hold" not in x]   # (given below: the last --set would win)
    ratio = {}
    for h in (True, False):
        t = run(heddle, ["--mix", "stencil3d_tb128_r28_w4+preempter_gpu", "--size", "small",
                         "--arrive", "preempter_gpu@46866:1", "--config",
                         "configs/fermi-gtx480.ini", "--set", "sm.allocator=aligned",
                         "--set", "sm.concurrent_kernels=true",
                         "--set", "context.preempt_policy=shieh",
                         "--set", "context.switch_model=stall_tb",
                         "--set", "context.preempt_hold=true",
                         "--set", f"context.preempt_hold_all={'true' if h else 'false'}",
                         "--set", f"context.latency_bound={bounds[0]}"] + sets, tmp, f"all{h}")
        end = max(lc["end_cycle"] for lc in t["launches"] if lc["kernel"].startswith("pe_"))
        ratio[h] = (end - 46866) / t_p
        print(f"preempt_hold_all = {str(h).lower()}: turnaround / T_p {ratio[h]:.4f}")
    if ratio[True] > 1.01:
        sys.exit("faithful.py: with preempt_hold_all the preempter still ran slower than alone")
    if ratio[False] < ratio[True] + 0.02:
        sys.exit("faithful.py: without preempt_hold_all the preempter was not slowed")
    print("hold_all ok")


def hold_release(heddle, tmp):
    os.environ["HD_EXP_SETUP"] = "faithful"
    pe = shieh_setup.setup()[1]["preempter"]
    sets = [a for x in shieh_setup.setup()[1]["sets"]
            for a in ("--set", x[4:].replace(" ", "").replace('"', ""))]
    if "context.preempt_hold_all=true" not in sets:
        sys.exit("faithful.py: the faithful setup no longer sets preempt_hold_all (update the test)")
    # experiments/shieh_oracle.py first_passes' command for this request
    t = run(heddle, ["--mix", f"hotspot_r36_w4+{pe}", "--size", "small", "--config",
                     "configs/fermi-gtx480.ini", "--arrive", f"{pe}@1975:1",
                     "--set", "context.preempt_policy=sm", "--set", "context.preempt=drain",
                     "--set", "sm.allocator=aligned", "--set", "sm.concurrent_kernels=true"]
            + sets, tmp, "release")
    pel = [lc for lc in t["launches"] if lc["kernel"].startswith("pe_")]
    vic = sorted((lc for lc in t["launches"] if not lc["kernel"].startswith("pe_")),
                 key=lambda lc: lc["id"])
    if len(pel) != 1 or len(vic) != 2 or not all(lc["finished"] for lc in t["launches"]):
        sys.exit(f"faithful.py: unexpected launches {[(lc['kernel'], lc['finished']) for lc in t['launches']]}")
    end = pel[0]["end_cycle"]
    waited = vic[0]["end_cycle"] - end
    print(f"preempter {pel[0]['start_cycle']}..{end}, {len(t['preemptions'])} preemption "
          f"records; victim launch 0 ends {waited} cycles after it, launch 1 takes "
          f"{vic[1]['cycles']}")
    if waited <= 0:
        sys.exit("faithful.py: the victim's launch 0 did not wait for the preempter (no hold)")
    if waited > 1.5 * vic[1]["cycles"]:
        sys.exit("faithful.py: the victim's launch 0 was not resumed when the preempter "
                 "finished (the hold outlived it)")
    print("hold_release ok")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("timebase", "sms", "flushbit", "stall",
                                                  "stall_tb", "plans", "hold", "hold_all",
                                                  "stall_req", "hold_stream",
                                                  "hold_release"):
        sys.exit(2 if print(__doc__) is None else 2)
    heddle = os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        {"timebase": timebase, "sms": sms, "flushbit": flushbit, "stall": stall,
         "stall_tb": stall_tb, "plans": plans, "hold": hold,
         "hold_all": hold_all, "stall_req": stall_req,
         "hold_stream": hold_stream, "hold_release": hold_release}[sys.argv[1]](heddle, tmp)


if __name__ == "__main__":
    main()
