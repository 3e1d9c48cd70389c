#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""zorua-grid-run.py - run the points of Zorua's specification grid (workloads/zorua-grid.toml)
and check each: it verifies against the CPU reference, does the same total work as its base
(the driver's "work:" line, problem size and input hash, equals the base's at the same size),
and, for a register specification R, the timing model counted R registers per thread for the
kernels the point pins ("R (given)" in the run summary) and for no kernel another given count.

Usage: scripts/zorua-grid-run.py HEDDLE [--app BASE]... [--sample] [--size S] [--jobs 1]
                                    [--config FILE] [--wide FILE] [--set KEY=VALUE]...
  --app BASE  only this application's points (repeatable; default all eight)
  --sample    three points per application: the first, the middle and the last of its list
  --size S    small (default), medium or large
  --config F  run every point (and base) with this configuration (e.g. configs/zorua-fermi.ini)
  --wide F    the configuration for points no CTA of fits (default configs/kepler-gk110.ini)
  --set K=V   passed to every run (repeatable; e.g. sm.allocator=zorua, issue 32)
Exit status 0 when every point passes, 1 otherwise (each failure is printed), 2 on usage errors.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def points():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen-zorua-grid.py"),
                          "--list"], capture_output=True, text=True, check=True).stdout
    pts = []
    for line in out.splitlines():
        name, abbr, regs, threads, smem, flags = line.split("\t")
        base = name.split("_z_")[0]
        r = regs.split("=")[1]
        pts.append(dict(name=name, abbr=abbr, base=base, regs=None if r == "-" else int(r),
                        flags=flags))
    return pts


# A specification the default configuration (fermi-gtx480: 32,768 registers and 48 KB of
# scratchpad per SM) cannot hold even one CTA of (e.g. 44 registers x 1,024 threads) is run on
# Kepler's 65,536-register SM, the larger of Zorua's evaluated GPUs (Zorua Table 2), and counted.
WIDE = "configs/kepler-gk110.ini"


def run(heddle, name, size, config=None, sets=()):
    cmd = [heddle, "run", name, "--size", size] + (["--config", config] if config else [])
    for kv in sets:
        cmd += ["--set", kv]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    text = p.stdout + p.stderr
    work = [l for l in text.splitlines() if l.startswith("work: ")]
    given = re.findall(r"^\s+(\w+)\s+\d+\s+\d+\s+\d+\s+[\d.]+\s.*?(\d+) \(given\)\s*$", text,
                       re.M)
    return p.returncode, text, work, given


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("heddle")
    ap.add_argument("--app", action="append", default=[])
    ap.add_argument("--sample", action="store_true")
    ap.add_argument("--size", default="small", choices=["small", "medium", "large"])
    ap.add_argument("--config", default=None)
    ap.add_argument("--wide", default=WIDE)
    ap.add_argument("--set", action="append", default=[], dest="sets")
    a = ap.parse_args()
    pts = points()
    bases = sorted({p["base"] for p in pts})
    for b in a.app:
        if b not in bases:
            print(f"zorua-grid-run.py: --app {b}: not one of {', '.join(bases)}", file=sys.stderr)
            return 2
    if a.app:
        pts = [p for p in pts if p["base"] in a.app]
    if a.sample:
        keep = []
        for b in sorted({p["base"] for p in pts}):
            mine = [p for p in pts if p["base"] == b]
            for i in sorted({0, len(mine) // 2, len(mine) - 1}):
                keep.append(mine[i])
        pts = keep
    fails = 0
    base_work = {}
    for b in sorted({p["base"] for p in pts}):
        rc, text, work, _ = run(a.heddle, b, a.size, a.config, a.sets)
        if rc != 0 or len(work) != 1:
            print(f"FAIL {b} (base): exit {rc}, {len(work)} work line(s)\n{text[-2000:]}")
            return 1
        base_work[b] = work[0]
        print(f"base {b}: {work[0]}")
    wide = 0
    for p in pts:
        rc, text, work, given = run(a.heddle, p["name"], a.size, a.config, a.sets)
        where = ""
        if rc != 0 and "cannot run on this GPU" in text:
            rc, text, work, given = run(a.heddle, p["name"], a.size, a.wide, a.sets)
            where = f" (on {a.wide}: no CTA fits {a.config or 'fermi-gtx480'})"
            wide += 1
        why = []
        if rc != 0 or ": VERIFIED" not in text:
            why.append(f"exit {rc}, not VERIFIED")
        if work != [base_work[p["base"]]]:
            why.append(f"work {work} differs from the base's {base_work[p['base']]}")
        if p["regs"] is not None:
            if not given or any(int(r) != p["regs"] for _, r in given):
                why.append(f"registers given {given}, specified {p['regs']}")
        elif given:
            why.append(f"registers given {given} at a scratchpad point")
        if why:
            fails += 1
            print(f"FAIL {p['name']} ({p['flags']}): " + "; ".join(why))
            print(text[-1500:])
        else:
            kern = ", ".join(f"{k} {r}" for k, r in given) or "-"
            print(f"ok   {p['name']:28s} {p['flags']:40s} regs given: {kern}{where}")
    print(f"zorua-grid-run.py: {len(pts) - fails} of {len(pts)} points pass "
          f"(verified, same work as the base, registers as specified); {wide} of them ran on "
          f"{a.wide} because no CTA fits {a.config or 'fermi-gtx480'}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
