#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""zorua_loop.py - Zorua's mapping tables (RMT, SMT, TMT), phase-specifier decoder and coordinator
(its o_thresh controller) in the timing loop (docs/blocks/zorua.md "In the loop";
model/mech/zorua/zorua_maploop.h, zorua_decloop.h, zorua_coordloop.h): each
point runs on Fermi (configs/zorua-fermi.ini, allocator = zorua, 64 logical warps, 16 logical CTAs)
without the blocks, then under `heddle cosim --blocks zorua --in-loop` with each --drive side. Every
run must verify, every co-simulated run report 0 mismatches with block steps against the RTL and
five instances per SM (75, all RTL with --drive rtl), and all give the same cycles (the model's
tables and decoder are the blocks' C references, its o_thresh is the coordinator block's output,
the blocks are checked against the model every step).

With --gen kepler or maxwell the points run on configs/zorua-<gen>.ini with 96 logical warps: the
tables, (session 15) the coordinator and (session 20) the decoder are stepped as the blocks'
Kepler/Maxwell configurations (zorua_coord:kepler, :maxwell: 96 logical warps, the model's
admissions its outputs; zorua_phase:kepler, :maxwell: 96 logical warps, the model's phase events
its outputs): five instances per SM, as on Fermi.

usage: zorua_loop.py HEDDLE (--point NAME ... | --experiment TOML | --sample) [--drive ref,rtl]
                     [--gen fermi|kepler|maxwell] [--size small|...|waves] [--resume LOG ...]
--size: the input size of every run (default small; waves is the grid's own, session 17).
--resume LOG (repeatable, session 31): skip every point with an "ok" line in LOG, the output of
an earlier run of this script (a long run, e.g. every Zorua point of experiments/zorua.toml on one
generation, continued where it stopped; the summary counts the points skipped so).
Points: --point (repeatable); --experiment: the Zorua workloads of a sweep file on the --gen
generation (experiments/zorua-sample.toml); --sample: the first, middle and last point of each application of the
specification grid (scripts/gen-zorua-grid.py --list). A point no CTA of fits Fermi is skipped
and counted. Exit 0 when every point passes, 1 otherwise, 2 on usage errors.
"""
import argparse
import os
import re
import subprocess
import sys
import tomllib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GENS = {  # config, logical warps, instances per SM (three tables, the decoder and coordinator)
    "fermi": ("configs/zorua-fermi.ini", 64, 5),
    "kepler": ("configs/zorua-kepler.ini", 96, 5),
    "maxwell": ("configs/zorua-maxwell.ini", 96, 5),
}
NSM = 15  # the SMs of the three generations (Table 2)
SUMMARY = re.compile(r"^(\S+): (verified|FAILED) \(\w+\), (\d+) cycles, blocks in the timing "
                     r"loop: (\d+) instances \((\d+) against RTL[^)]*\), (\d+) block steps \((\d+) "
                     r"against RTL\), (\d+) mismatches", re.M)


def sample_points():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen-zorua-grid.py"),
                          "--list"], capture_output=True, text=True, check=True).stdout
    names = [l.split("\t")[0] for l in out.splitlines() if l and not l.startswith("#")]
    keep = []
    for b in sorted({n.split("_z_")[0] for n in names}):
        mine = [n for n in names if n.split("_z_")[0] == b]
        keep += [mine[i] for i in sorted({0, len(mine) // 2, len(mine) - 1})]
    return keep


def experiment_points(path, gen):
    with open(path, "rb") as f:
        t = tomllib.load(f)
    pts = []
    for g in t.get("grid", []):
        cfg = g.get("config")
        cfgs = cfg if isinstance(cfg, list) else [cfg]
        alloc = g.get("set", {}).get("sm", {}).get("allocator")
        allocs = alloc if isinstance(alloc, list) else [alloc]
        if f"zorua-{gen}" in cfgs and "zorua" in allocs:
            pts += [w for w in g["workload"] if w not in pts]
    return pts


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("heddle")
    ap.add_argument("--point", action="append", default=[])
    ap.add_argument("--experiment")
    ap.add_argument("--sample", action="store_true")
    ap.add_argument("--drive", default="ref,rtl")
    ap.add_argument("--resume", action="append", default=[], metavar="LOG")
    ap.add_argument("--gen", default="fermi", choices=sorted(GENS))
    ap.add_argument("--size", default="small",
                    choices=["small", "medium", "large", "paper", "waves"])
    a = ap.parse_args()
    config, lwarps, per_sm = GENS[a.gen]
    sets = ["--set", f"sm.logical_warps={lwarps}", "--set", "sm.logical_ctas=16"]
    pts = list(a.point)
    if a.experiment:
        pts += experiment_points(a.experiment, a.gen)
    if a.sample:
        pts += sample_points()
    done = set()
    for log in a.resume:
        try:
            with open(log) as f:
                done |= {l.split()[1] for l in f if l.startswith("ok ") and len(l.split()) > 1}
        except OSError as e:
            print(f"zorua_loop.py: --resume {log}: {e.strerror}", file=sys.stderr)
            return 2
    resumed = sum(1 for p in pts if p in done)
    pts = [p for p in pts if p not in done]
    drives = [d for d in a.drive.split(",") if d]
    if resumed and not pts:
        print(f"zorua_loop.py: all {resumed} points already ok in the --resume logs")
        return 0
    if not pts or any(d not in ("ref", "rtl") for d in drives):
        print("zorua_loop.py: no points, or a --drive other than ref, rtl", file=sys.stderr)
        return 2
    fails = skipped = 0
    for p in pts:
        rc, text = run([a.heddle, "run", p, "--size", a.size, "--config", config, "--set",
                        "sm.allocator=zorua"] + sets)
        if rc != 0 and "cannot run on this GPU" in text:
            skipped += 1
            print(f"skip {p}: no CTA fits {a.gen}")
            continue
        m = re.search(r"^\s+cycles\s+(\d+)", text, re.M)
        if rc != 0 or ": VERIFIED" not in text or not m:
            fails += 1
            print(f"FAIL {p} without the blocks: exit {rc}\n{text[-1500:]}")
            continue
        cycles = int(m.group(1))
        why, notes = [], []
        for d in drives:
            rc, text = run([a.heddle, "cosim", "--blocks", "zorua", "--in-loop", p, "--size",
                            a.size, "--config", config, "--drive", d] + sets)
            s = SUMMARY.search(text)
            if rc != 0 or not s or s.group(2) != "verified":
                why.append(f"--drive {d}: exit {rc}: " + (text.strip().splitlines() or [""])[-1])
                continue
            if int(s.group(8)) != 0 or "MISMATCH" in text:
                why.append(f"--drive {d}: {s.group(8)} mismatches")
            if int(s.group(3)) != cycles:
                why.append(f"--drive {d}: {s.group(3)} cycles, {cycles} without the blocks")
            if int(s.group(7)) == 0:
                why.append(f"--drive {d}: no block step against the RTL")
            want = per_sm * NSM
            if int(s.group(4)) != want or (d == "rtl" and int(s.group(5)) != want):
                why.append(f"--drive {d}: {s.group(4)} instances ({s.group(5)} RTL), want "
                           f"{want}: {per_sm} blocks of each of the {NSM} SMs")
            notes.append(f"{d}: {s.group(6)} steps ({s.group(7)} RTL)")
        if why:
            fails += 1
            print(f"FAIL {p}: " + "; ".join(why))
        else:
            print(f"ok   {p:28s} {cycles:8d} cycles, " + ", ".join(notes))
    n = len(pts) - skipped
    print(f"zorua_loop.py: {n - fails} of {n} points in the loop ({a.gen}): verified, 0 "
          f"mismatches, the same cycles with --drive {','.join(drives)} as without the blocks; "
          f"{skipped} skipped (no CTA fits {a.gen})"
          + (f"; {resumed} ok in the --resume logs" if a.resume else ""))
    return 1 if fails or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
