#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""zorua_check.py - run one workload under [sm] allocator = zorua and check its Zorua counters
(tests/zorua.cmake): it verifies, and the per-SM sums of the named counters satisfy each
condition NAME>VALUE, NAME<VALUE or NAME=VALUE.

Usage: tests/zorua/zorua_check.py HEDDLE STATS_JSON -- RUN_ARGS... -- COND...
Exit 0 when all hold, 1 otherwise, 2 on usage errors.
"""
import json
import re
import subprocess
import sys


def sums(stats):
    tot = {}

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if k.startswith(("zorua_", "warp_placed_absent", "oloc_fills_mem",
                                  "warp_absent_bar_releases", "smem_swap_",
                                  "fetch_extra_cycles")) and \
                        isinstance(v, int):
                    tot[k] = tot.get(k, 0) + v
                else:
                    walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    # the SMs' counters only: the energy model's events (`power.events`, docs/power.md) repeat
    # some of them by name (zorua_phase_events since session 27)
    walk({k: v for k, v in stats.items() if k != "power"})
    return tot


def main():
    a = sys.argv[1:]
    if len(a) < 4 or a.count("--") != 2:
        print(__doc__, file=sys.stderr)
        return 2
    heddle, out = a[0], a[1]
    j = a.index("--")
    i = a.index("--", j + 1)
    run_args, conds = a[j + 1:i], a[i + 1:]
    p = subprocess.run([heddle, "run"] + run_args + ["--stats", out], capture_output=True,
                       text=True)
    text = p.stdout + p.stderr
    if p.returncode != 0 or ": VERIFIED" not in text:
        print(f"FAIL: exit {p.returncode}, not VERIFIED\n{text[-2000:]}")
        return 1
    with open(out) as f:
        tot = sums(json.load(f))
    bad = 0
    for c in conds:
        m = re.fullmatch(r"(\w+)([<>=])(\d+)", c)
        if not m:
            print(f"zorua_check.py: bad condition {c!r}", file=sys.stderr)
            return 2
        k, op, v = m.group(1), m.group(2), int(m.group(3))
        got = tot.get(k)
        ok = got is not None and (got > v if op == ">" else got < v if op == "<" else got == v)
        print(f"{'ok  ' if ok else 'FAIL'} {k} = {got} ({op} {v})")
        bad += not ok
    cyc = re.search(r"^  cycles\s+(\d+)", text, re.M)
    print(f"cycles {cyc.group(1) if cyc else '?'}; " + ("all conditions hold" if not bad else
                                                       f"{bad} condition(s) fail"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
