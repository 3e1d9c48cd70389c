#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# signals.py - the signals for policies (issue 25 items 6 and 7; docs/hooks.md, docs/monitor.md,
# docs/admission.md) checked end to end through the signals probe (model/mech/probe) and the
# statistics JSON.
#   signals.py HEDDLE hitmiss   the L1D hit/miss of loads reaches the SM: sgemm's loads are told
#                               apart (both kinds seen); with [l1d] bypass_global or the fixed
#                               memory model none hits; barrier stall events = barrier_waits;
#                               the probe changes no cycle
#   signals.py HEDDLE window    the monitor's windows are the differences of the cumulative
#                               counters: 1-cycle windows sum to the run's totals (per measure,
#                               per kernel, per class); 2000-cycle windows' issue = the samples'
#                               differences
#   signals.py HEDDLE admit     [timing] admit = launch_quota changes placement (CTAs per SM)
#   signals.py HEDDLE hint      a launch's hint reaches the CTA distributor: heddle run --hint and
#                               a mix's --hint WORKLOAD=N with [timing] cta_dist = sm_mask
#   signals.py HEDDLE repeat    --repeat instances share one kernel id; analyses made once
#   signals.py HEDDLE tail      a launch's last_place_cycle (its last fresh CTA placed) lies in
#                               the launch, after its start when the grid is more than one wave,
#                               and no CTA of it is placed later (the samples' resident CTAs
#                               never rise after it); the caches' hit-port cycles (Lin 3.4.1):
#                               one per hit at a 128 B L1D port, more at 32 B, and the
#                               [l1d] data_port_bytes key changes no cycle
# Prints "signals MODE ok" or fails with the first mismatch.
import json
import os
import subprocess
import sys
import tempfile

heddle, mode = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="hd-signals-")


def run(args, probe=None, window=0, sample=0):
    stats = os.path.join(tmp, "s.json")
    cmd = [heddle, "run"] + args + ["--stats", stats]
    if probe:
        cmd += ["--set", "timing.probe_log=" + probe, "--set", "timing.probe_window=%d" % window]
    if sample:
        cmd += ["--sample", str(sample)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0 or "VERIFIED" not in out.stdout:
        sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), out.stdout[-2000:], out.stderr[-2000:]))
    with open(stats) as f:
        return json.load(f)["timing"]


launches = []  # (launch id, kernel id, kernel name) of the last probe log read


def probe_log(path):
    counts, windows, kernels = {}, [], []
    launches.clear()
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] == "launch":
                launches.append((int(w[1]), int(w[2]), w[3]))
            elif w[0] == "window":
                windows.append([int(x) for x in w[1:]])
            elif w[0] == "kernel":
                kernels.append([int(x) for x in w[1:]])
            else:
                counts[w[0]] = int(w[1])
    return counts, windows, kernels


def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)


def cycles(t):
    return t["totals"]["cycles"]


if mode == "hitmiss":
    p = os.path.join(tmp, "p.log")
    base = run(["sgemm", "--size", "small"])
    t = run(["sgemm", "--size", "small"], p)
    c, _, _ = probe_log(p)
    check(cycles(t) == cycles(base), "the probe changed the cycles: %d vs %d" % (cycles(t), cycles(base)))
    check(c["loads_l1_hit"] > 0 and c["loads_l1_miss"] > 0,
          "sgemm: loads that hit and loads that missed the L1D both seen: %s" % c)
    check(c["stalled_load_miss"] > 0, "sgemm: warps stalled on loads that missed: %s" % c)
    bw = sum(s["barrier_waits"] for s in t["sms"])
    check(c["stalled_barrier"] == bw, "barrier stall events %d = barrier_waits %d" % (c["stalled_barrier"], bw))
    t = run(["sgemm", "--size", "small", "--set", "l1d.bypass_global=true"], p)
    c, _, _ = probe_log(p)
    check(c["loads_l1_hit"] == 0 and c["loads_l1_miss"] > 0 and c["stalled_load_miss"] > 0,
          "bypass_global: every load misses the L1D: %s" % c)
    t = run(["sgemm", "--size", "small", "--set", "mem.model=fixed"], p)
    c, _, _ = probe_log(p)
    check(c["loads_l1_hit"] == 0 and c["loads_l1_miss"] > 0, "fixed memory model: no L1D hit: %s" % c)
    print("signals hitmiss ok")
elif mode == "window":
    p = os.path.join(tmp, "p.log")
    for w in ["vecadd", "bfs"]:
        t = run([w, "--size", "small"], p, window=1)
        _, wins, kers = probe_log(p)
        # (cycles 0 .. n-1: the first window, ending at cycle 1, holds cycle 0 too)
        check(len(wins) == cycles(t) - 1, "%s: %d one-cycle windows over %d cycles" % (w, len(wins), cycles(t)))
        tot = [sum(x[i] for x in wins) for i in range(2, 12)]
        m = t["memory"]["total"]
        want = [sum(s["warp_instrs"] for s in t["sms"]), sum(s["gmem_requests"] for s in t["sms"]),
                m["l1d_read_hits"] + m["l1d_writes"] + m["l1d_mshr_allocs"],
                m["l2_reads"] + m["l2_writes"] + m["l2_atomics"],
                m["icnt_req_flits"], m["icnt_rep_flits"], m["dram_data"]]
        check(tot[:7] == want, "%s: window sums %s = totals %s" % (w, tot[:7], want))
        check(sum(tot[7:]) == m["mq_requests"], "%s: per-class requests %s sum to mq_requests %d" % (w, tot[7:], m["mq_requests"]))
        for l in t["launches"]:
            ki = sum(k[2] for k in kers if k[1] == l["id"])
            check(ki == l["warp_instrs"], "%s: launch %d windows' issue %d = its warp_instrs %d" % (w, l["id"], ki, l["warp_instrs"]))
    t = run(["sgemm", "--size", "small"], p, window=2000, sample=2000)
    _, wins, _ = probe_log(p)
    rows = t["samples"]["rows"]
    at = {r[0]: r[1] for r in rows}
    check(len(wins) >= 5, "sgemm: %d windows of 2000 cycles" % len(wins))
    for x in wins:
        check(x[0] in at and x[1] in at and x[2] == at[x[1]] - at[x[0]],
              "window (%d, %d] issue %d = samples' difference" % (x[0], x[1], x[2]))
    print("signals window ok: %d windows" % len(wins))
elif mode == "admit":
    base = run(["sgemm", "--size", "small"])
    t = run(["sgemm", "--size", "small", "--set", "timing.admit=launch_quota", "--set", "timing.admit_quota=1"])
    def per_cycle(t):
        return max(s["resident_ctas"] / max(1, s["active_cycles"]) for s in t["sms"])
    check(per_cycle(base) > 1.5, "sgemm holds several CTAs per SM by default (%.2f)" % per_cycle(base))
    check(per_cycle(t) <= 1.0, "admit = launch_quota, quota 1: at most one CTA per SM (%.2f)" % per_cycle(t))
    check(cycles(t) != cycles(base), "the quota changes the timing")
    t2 = run(["sgemm", "--size", "small", "--set", "timing.admit=kernel_quota", "--set", "timing.admit_quota=2"])
    check(1.0 < per_cycle(t2) <= 2.0, "admit = kernel_quota, quota 2: at most two (%.2f)" % per_cycle(t2))
    print("signals admit ok")
elif mode == "hint":
    t = run(["sgemm", "--size", "small", "--set", "timing.cta_dist=sm_mask", "--hint", "0x5"])
    used = [s["id"] for s in t["sms"] if s["ctas_launched"] > 0]
    check(used == [0, 2], "--hint 0x5 with cta_dist = sm_mask: CTAs on SMs 0 and 2 only, not %s" % used)
    t = run(["sgemm", "--size", "small", "--set", "timing.cta_dist=sm_mask"])
    used = [s["id"] for s in t["sms"] if s["ctas_launched"] > 0]
    check(len(used) == len(t["sms"]), "no hint: every SM (%s)" % used)
    t = run(["--mix", "sgemm+vecadd", "--quiet", "--set", "timing.cta_dist=sm_mask",
             "--hint", "sgemm=0x3", "--hint", "vecadd=0xc"])
    used = [s["id"] for s in t["sms"] if s["ctas_launched"] > 0]
    check(used == [0, 1, 2, 3], "a mix's per-workload hints: SMs 0-1 and 2-3 only, not %s" % used)
    mixes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hint_mixes.ini")
    t = run(["--mix", "sgemm+vecadd", "--quiet", "--mixes-file", mixes, "--set", "timing.cta_dist=sm_mask",
             "--hint", "vecadd=0x10"])
    used = [(s["id"], s["ctas_launched"]) for s in t["sms"] if s["ctas_launched"] > 0]
    check(used == [(0, 28), (1, 28), (4, 256)],
          "the mix's hint key (sgemm=0x3) and --hint vecadd=0x10 over its vecadd=0xc: not %s" % used)
    print("signals hint ok")
elif mode == "repeat":
    p = os.path.join(tmp, "p.log")
    t = run(["--mix", "hotspot+lbm", "--repeat", "hotspot", "--quiet"], p)
    probe_log(p)
    names = sorted(set(n for _, _, n in launches))
    ids = {n: sorted(set(k for _, k, m in launches if m == n)) for n in names}
    runs = {n: sum(1 for _, _, m in launches if m == n) for n in names}
    check(max(runs.values()) >= 2, "a kernel launched by two instances at least: %s" % runs)
    check(all(len(v) == 1 for v in ids.values()), "one kernel id per kernel over every instance: %s" % ids)
    check(len(set(v[0] for v in ids.values())) == len(names), "different kernels, different ids: %s" % ids)
    check(len(t["lines"]) == len(names),
          "each kernel's analyses (its timing view, its per-line record) made once: %d records for %d kernels"
          % (len(t["lines"]), len(names)))
    print("signals repeat ok")
elif mode == "tail":
    t = run(["backprop", "--size", "small"], sample=100)
    nsm = len(t["sms"])
    multi = 0
    for l in t["launches"]:
        check(l["start_cycle"] <= l["last_place_cycle"] <= l["end_cycle"],
              "launch %d: start %d <= last placed %d <= end %d"
              % (l["id"], l["start_cycle"], l["last_place_cycle"], l["end_cycle"]))
        if l.get("ctas_per_sm") and l["ctas"] > nsm * l["ctas_per_sm"]:
            multi += 1
            check(l["last_place_cycle"] > l["start_cycle"] + 100,
                  "launch %d of %d CTAs (%d per wave): its last placed %d cycles after its first"
                  % (l["id"], l["ctas"], nsm * l["ctas_per_sm"],
                     l["last_place_cycle"] - l["start_cycle"]))
        rows = [r for r in t["samples"]["rows"]
                if l["last_place_cycle"] < r[0] <= l["end_cycle"] and str(l["id"]) in r[5]]
        done = [r[5][str(l["id"])] for r in rows]
        res = [r[4] for r in rows]
        check(all(a >= b for a, b in zip(res, res[1:])) and done == sorted(done),
              "launch %d: no CTA placed after its last_place_cycle (resident %s)" % (l["id"], res))
    check(multi > 0, "backprop at small size has a launch of more than one wave")
    m = t["memory"]["total"]
    check(m["l1d_read_hits"] > 0 and m["l2_read_hits"] > 0, "hits at the L1D and L2: %s" % m)
    check(m["l1d_read_hits"] <= m["l1d_hit_port"] <= m["l1d_read_hits"] + m["l1d_write_hits"],
          "128 B L1D port: one cycle per load or local-store hit (%d, %d read hits)"
          % (m["l1d_hit_port"], m["l1d_read_hits"]))
    check(m["l2_hit_port"] >= m["l2_read_hits"] + m["l2_write_hits"],
          "L2 hit-port cycles %d >= hits %d" % (m["l2_hit_port"], m["l2_read_hits"] + m["l2_write_hits"]))
    t2 = run(["backprop", "--size", "small", "--set", "l1d.data_port_bytes=32"])
    check(cycles(t2) == cycles(t), "[l1d] data_port_bytes changes no cycle: %d vs %d" % (cycles(t2), cycles(t)))
    m2 = t2["memory"]["total"]
    check(m2["l1d_read_hits"] == m["l1d_read_hits"] and m2["l1d_hit_port"] > m["l1d_hit_port"],
          "a 32 B L1D port is busy longer per hit: %d > %d" % (m2["l1d_hit_port"], m["l1d_hit_port"]))
    print("signals tail ok: %d multi-wave launches" % multi)
else:
    sys.exit("signals.py: unknown mode " + mode)
