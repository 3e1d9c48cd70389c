#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# signals.py - Lin §5.4's preemption signals on one workload: run it once alone to learn its
# length, then again with N signals spread uniformly over that run ([context] signals,
# signal_span) and the given settings; the output must verify, every signal that found CTAs
# must have freed its SMs (each record met), a switch must have saved bytes, and the CTAs that
# left must have come back (restored or restarted) - the run ends only when they all finished.
# usage: signals.py HEDDLE WORKLOAD N [--set KEY=VALUE ...]
import json
import os
import subprocess
import sys
import tempfile

heddle, workload, nsig = sys.argv[1], sys.argv[2], int(sys.argv[3])
extra = sys.argv[4:]


def run(args, stats):
    p = subprocess.run([heddle, "run", workload, "--size", "small", "--quiet", "--stats", stats]
                       + args, capture_output=True, text=True)
    sys.stdout.write(p.stdout.splitlines()[0] + "\n" if p.stdout else "")
    sys.stderr.write(p.stderr)
    if p.returncode != 0 or "VERIFIED" not in p.stdout:
        sys.stdout.write(p.stdout)
        sys.exit(f"signals.py: {workload} {' '.join(args)}: exit {p.returncode}, not VERIFIED")
    return json.load(open(stats))["timing"]


with tempfile.TemporaryDirectory() as tmp:
    base = run([], os.path.join(tmp, "base.json"))
    span = base["totals"]["cycles"]
    t = run(["--set", f"context.signals={nsig}", "--set", f"context.signal_span={span}"] + extra,
            os.path.join(tmp, "sig.json"))
recs = [r for r in t["preemptions"] if r["launch"] == "signal"]
cycles = sorted({r["signal"] for r in recs})
want = [span * i // (nsig + 1) for i in range(1, nsig + 1)]
late = [c for c in cycles if c not in want]
assert not late, f"signals at cycles {late}, expected only {want}"
# a signal that meets an SM that is empty, or still being emptied, does nothing there
assert len(cycles) >= nsig // 2, f"only {len(cycles)} of {nsig} signals found CTAs to preempt"
unmet = [r for r in recs if not r["met"]]
assert not unmet, f"{len(unmet)} signal requests never emptied their SM: {unmet[:2]}"
switched = sum(r["switched"] for r in recs)
flushed = sum(r["flushed"] for r in recs)
drained = sum(r["drained"] for r in recs)
saved = sum(r["bytes"] for r in recs)
if switched:
    assert saved > 0, "CTAs were switched out but no bytes were saved"
ctx = {}
for sm in t["sms"]:
    for k, v in sm.items():
        if k.startswith("ctx_"):
            ctx[k] = ctx.get(k, 0) + v
assert ctx.get("ctx_saves", 0) == ctx.get("ctx_restores", 0), f"saves != restores: {ctx}"
lat = sorted(r["freed"] - r["signal"] for r in recs)
moved = ctx.get("ctx_restores_moved", 0)
# Lin's acceptance: a switched-out CTA may resume on another SM (signal i empties SM i only)
if switched:
    assert moved > 0, f"{switched} CTAs switched out, none resumed on another SM"
print(f"{workload}: {len(cycles)} signals, {len(recs)} SM requests: {switched} CTAs switched "
      f"({saved} bytes; {moved} of the restored resumed on another SM), {flushed} flushed, {drained} drained; freed after {lat[0]}..{lat[-1]} "
      f"cycles (median {lat[len(lat) // 2]}); {span} -> {t['totals']['cycles']} cycles")
