#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# verify.py - one workload with HAWS off and on (issue 30; docs/blocks/haws.md §2): both runs
# must verify against the CPU reference, discard no result collection unit, commit no more
# results than ran ahead; with --same-instrs also execute exactly the same warp and thread
# instructions (every result committed once, nothing executed twice or lost: true of every
# workload whose control flow does not depend on the order of other warps' atomics or stores,
# e.g. bucketsort's differs between GTO and LRR without HAWS), and with --want-runahead issue
# at least one instruction ahead.
# Prints one line: WL SCHED cycles off -> on (speedup), HAWS counters; "haws_verify: OK".
#   verify.py HEDDLE WORKLOAD [--size S] [--config FILE] [--set S.K=V]... [--want-runahead]
import json
import os
import subprocess
import sys
import tempfile


def run(heddle, wl, extra, enable, tmp):
    stats = os.path.join(tmp, f"{wl}-{enable}.json")
    cmd = [heddle, "run", wl, "--quiet", "--stats", stats, "--set", f"haws.enable={enable}"] + extra
    p = subprocess.run(cmd, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode != 0 or "VERIFIED" not in out or "NOT VERIFIED" in out:
        sys.exit(f"haws_verify: FAILED: {' '.join(cmd)}\n{out}")
    t = json.load(open(stats))["timing"]
    sums = {}
    for sm in t["sms"]:
        for k, v in sm.items():
            if k.startswith("haws_"):
                sums[k] = sums.get(k, 0) + v
    return t["totals"], sums


def main():
    a = sys.argv[1:]
    if len(a) < 2:
        sys.exit(2)
    heddle, wl, rest = a[0], a[1], a[2:]
    want = "--want-runahead" in rest
    same = "--same-instrs" in rest
    extra = [x for x in rest if x not in ("--want-runahead", "--same-instrs")]
    with tempfile.TemporaryDirectory() as tmp:
        off, soff = run(heddle, wl, extra, "false", tmp)
        on, son = run(heddle, wl, extra, "true", tmp)
    bad = []
    for k in ("warp_instrs", "thread_instrs"):
        if same and off[k] != on[k]:
            bad.append(f"{k} {off[k]} (off) != {on[k]} (on)")
    if any(soff.values()):
        bad.append(f"HAWS counters with HAWS off: {soff}")
    if son.get("haws_discards", 0):
        bad.append(f"{son['haws_discards']} result collection units discarded")
    committed = son.get("haws_skips", 0) + son.get("haws_copies", 0)
    if committed > son.get("haws_issued", 0) - son.get("haws_branches", 0):
        bad.append("more results committed than issued ahead")
    if want and son.get("haws_issued", 0) == 0:
        bad.append("no instruction ran ahead")
    sched = next((extra[i + 1] for i in range(len(extra) - 1)
                  if extra[i] == "--set" and extra[i + 1].startswith("sm.scheduler=")), "")
    print(f"{wl} {sched}: cycles {off['cycles']} -> {on['cycles']} "
          f"(speedup {off['cycles'] / max(on['cycles'], 1):.3f}); episodes "
          f"{son.get('haws_episodes', 0)}, issued ahead {son.get('haws_issued', 0)} "
          f"(branches {son.get('haws_branches', 0)}), committed {committed} "
          f"(skips {son.get('haws_skips', 0)}, copies {son.get('haws_copies', 0)}), "
          f"loads {son.get('haws_loads', 0)}, RCU full {son.get('haws_rcu_full', 0)}; "
          f"warp instrs {off['warp_instrs']} -> {on['warp_instrs']}")
    if bad:
        sys.exit("haws_verify: FAILED: " + "; ".join(bad))
    print("haws_verify: OK")


main()
