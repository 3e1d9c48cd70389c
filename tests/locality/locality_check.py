#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# locality_check.py - Gong ch.6 locality-aware scheduling end to end (issue 31, docs/locality.md).
#   locality_check.py HEDDLE verify W...  every workload W verifies under the locality
#                                         distributor + group scheduler with each Table 6.1 hint
#                                         (0-3, both chunk orders) and under the cta_aware and
#                                         mascar schedulers (Kepler configuration, size small)
#   locality_check.py HEDDLE hint0 W...   hint 0 changes nothing: cta_dist = locality and
#                                         scheduler = locality with hint 0 give the same
#                                         statistics as round_robin + lrr (Kepler), and
#                                         cta_dist = locality alone as round_robin (defaults)
#   locality_check.py HEDDLE class        our stand-ins' measured sharing agrees with their Table
#                                         6.2 class: under the round-robin baseline every type-1
#                                         and type-2 kernel has a larger share of cross-SM
#                                         duplicate MSHR allocations than every type-3 one, each
#                                         stand-in at the experiment's default size (the size
#                                         experiments/locality.toml gives it: several CTA waves,
#                                         as the thesis's setup; at small, bitonic (under one
#                                         wave per launch) shares more than MT)
#   locality_check.py HEDDLE list         heddle list shows each workload's hint
# Prints "locality MODE ok" or fails with the first mismatch.
import json
import os
import subprocess
import sys
import tempfile
import tomllib

heddle, mode, names = sys.argv[1], sys.argv[2], sys.argv[3:]
here = os.path.dirname(os.path.abspath(__file__))
kepler = os.path.join(here, "..", "..", "configs", "kepler-gk110.ini")
tmp = tempfile.mkdtemp(prefix="hd-locality-")

LOC = ["--set", "timing.cta_dist=locality", "--set", "sm.scheduler=locality"]
# the Table 6.2 stand-ins (workloads/README.md) and their type
CLASSES = {"sgemm": 1, "mm2": 1, "transpose": 1, "stencil2d": 2, "conv2d": 2,
           "histogram": 3, "scan": 3, "fwt": 3, "bitonic": 3, "mvt": 3}


def experiment_sizes():
    """workload -> size in experiments/locality.toml (its [defaults] size unless a grid names
    one)"""
    with open(os.path.join(here, "..", "..", "experiments", "locality.toml"), "rb") as f:
        t = tomllib.load(f)
    default = t.get("defaults", {}).get("size", "small")
    sizes = {}
    for g in t.get("grid", []):
        ws = g["workload"] if isinstance(g["workload"], list) else [g["workload"]]
        for w in ws:
            sizes[w] = g.get("size", default)
    return sizes


def run(w, args, config=kepler, size="small"):
    stats = os.path.join(tmp, "s.json")
    cmd = [heddle, "run", w, "--size", size, "--quiet", "--stats", stats] + \
        (["--config", config] if config else []) + args
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0 or "VERIFIED" not in out.stdout:
        sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), out.stdout[-2000:], out.stderr[-2000:]))
    with open(stats) as f:
        return json.load(f)["timing"]


def strip(t):
    """the statistics that must not change (the configuration echo differs by design)"""
    return {k: v for k, v in t.items() if k not in ("config",)}


def fail(msg):
    sys.exit("FAIL: " + msg)


if mode == "verify":
    for w in names:
        for h in range(4):
            run(w, LOC + ["--hint", str(h)])
        run(w, LOC + ["--hint", "2", "--set", "timing.cta_dist_order=column",
                      "--set", "timing.cta_dist_chunk=2"])
        run(w, LOC + ["--hint", "1", "--set", "timing.cta_dist_order=keep"])
        for s in ("cta_aware", "mascar"):
            run(w, ["--set", "sm.scheduler=" + s])
        print("  %s: verified under hints 0-3, column order, keep, cta_aware, mascar" % w)
elif mode == "hint0":
    for w in names:
        base = run(w, [])
        loc = run(w, LOC + ["--hint", "0"])
        if strip(base) != strip(loc):
            fail("%s: hint 0 under locality/locality differs from round_robin/lrr: %d vs %d "
                 "cycles" % (w, base["totals"]["cycles"], loc["totals"]["cycles"]))
        base = run(w, [], config=None)
        loc = run(w, ["--set", "timing.cta_dist=locality"], config=None)
        if strip(base) != strip(loc):
            fail("%s: cta_dist = locality with no hint differs from round_robin" % w)
        print("  %s: hint 0 = baseline (%d cycles)" % (w, base["totals"]["cycles"]))
elif mode == "class":
    dup = {}
    sizes = experiment_sizes()
    for w, c in CLASSES.items():
        if w not in sizes:
            fail("%s is not in experiments/locality.toml" % w)
        d = run(w, [], size=sizes[w])["memory"]["derived"]
        dup[w] = d["dup_mshr_fraction"]
        print("  %-10s type %d  %-6s  duplicate MSHR allocations %.3f  requests/entry %.3f  "
              "L1 hits %.3f" % (w, c, sizes[w], dup[w], d["requests_per_mshr_entry"],
                                d["l1d_hit_rate"]))
    high = [w for w, c in CLASSES.items() if c in (1, 2)]
    low = [w for w, c in CLASSES.items() if c == 3]
    lo_high = min(high, key=lambda w: dup[w])
    hi_low = max(low, key=lambda w: dup[w])
    if dup[lo_high] <= dup[hi_low]:
        fail("type-1/2 %s (%.3f) shares no more than type-3 %s (%.3f)"
             % (lo_high, dup[lo_high], hi_low, dup[hi_low]))
elif mode == "list":
    out = subprocess.run([heddle, "list", "--static"], capture_output=True, text=True)
    if out.returncode != 0:
        fail("heddle list --static: %s" % out.stderr)
    lines = out.stdout.splitlines()
    head = lines[0]
    col = head.index("HINT")
    seen = {}
    for line in lines[1:]:
        w = line.split()[0] if line.strip() else ""
        if w in CLASSES or w == "vecadd":
            seen[w] = line[col:col + 4].strip()
    want = {w: str(c) for w, c in CLASSES.items()}
    want["vecadd"] = "-"
    if seen != want:
        fail("heddle list HINT column: %s, want %s" % (seen, want))
else:
    fail("unknown mode " + mode)
print("locality %s ok" % mode)
