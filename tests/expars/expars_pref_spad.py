#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# expars_pref_spad.py HEDDLE - run from the source tree (docs/expars.md "Scratchpad passes").
# The effect of [expars] pref_spad on the expars experiment's EXPARS runs at small size
# (experiments/expars.toml: 13 stand-ins x lrr, gto, ltlws_lrr, ltlws_gto, two_level with 6
# active warps; two_level without hotspot_r36). Prints one row per run and the means.
import json, os, subprocess, sys, tempfile
heddle = sys.argv[1]
W = ["lbm_r36", "stencil3d_r28", "mriq_r28", "sgemm_c2_r44", "hotspot_r36", "leukocyte_tb192_r24",
     "montecarlo", "convsep_tb192_r24", "estimatepi_r24", "mergesort_tb512_r24", "quasirandom_r32",
     "asianoption_r24", "asianoption"]
tmp = tempfile.mkdtemp(prefix="hd-prefspad-")
def run(w, sched, on):
    st = os.path.join(tmp, "s.json"); log = os.path.join(tmp, "log.txt")
    cmd = [heddle, "run", w, "--size", "small", "--quiet", "--config", "configs/fermi-gtx480.ini",
           "--stats", st, "--set", "sm.allocator=expars", "--set", "sm.scheduler=" + sched,
           "--set", "sm.sched_active_warps=6", "--set", "expars.pref_spad=" + ("true" if on else "false"),
           "--set", "expars.log=" + log]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0 or "VERIFIED" not in out.stdout:
        sys.exit("FAILED: %s\n%s" % (" ".join(cmd), (out.stdout + out.stderr)[-1500:]))
    cyc = json.load(open(st))["timing"]["totals"]["cycles"]
    tot = {}
    for line in open(log):
        f = line.split()
        for k, v in zip(f[0::2], f[1::2]):
            if k in ("pref_fills", "pref_writebacks", "pref_passes", "pref_pass_waits", "prefetches"):
                tot[k] = tot.get(k, 0) + int(v)
    return cyc, tot
rows = []
for sched in ("lrr", "gto", "ltlws_lrr", "ltlws_gto", "two_level"):
    for w in W:
        if sched == "two_level" and w == "hotspot_r36":
            continue
        off, t0 = run(w, sched, False)
        on, t1 = run(w, sched, True)
        rows.append((sched, w, off, on, t1))
        print("%-10s %-22s off %8d on %8d  %+7.3f %%  passes %d refused %d prefetches %d" % (
            sched, w, off, on, 100.0 * (on - off) / off, t1.get("pref_passes", 0),
            t1.get("pref_pass_waits", 0), t1.get("prefetches", 0)), flush=True)
for sched in ("lrr", "gto", "ltlws_lrr", "ltlws_gto", "two_level"):
    r = [x for x in rows if x[0] == sched]
    d = [100.0 * (x[3] - x[2]) / x[2] for x in r]
    ch = sum(1 for x in r if x[3] != x[2])
    print("%-10s mean %+.3f %%, max %+.3f %%, %d of %d runs change" % (sched, sum(d) / len(d), max(d), ch, len(r)))
print("prefspad done")
