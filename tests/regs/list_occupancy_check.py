#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""list_occupancy_check.py - the occupancy column of `heddle list` against a hand calculation from
ptxas's register counts (issue 15), for every workload and every kernel a small run launches.

Usage: list_occupancy_check.py HEDDLE [CONFIG.ini] [--only NAME,NAME...]

Reads the configuration's limits (`heddle config`), every workloads/*/*.ptxas.txt, and the two
tables of `heddle list` (per workload, and --kernels). For each launched kernel it computes, by the
rules of docs/timing.md "Occupancy" and nothing from the model:
  warps     = ceil(threads / warp_size)
  regs/warp = roundup(min(ptxas registers, max_regs_per_thread) x warp_size, reg_alloc_unit)
  CTAs/SM   = min(registers // (warps x regs/warp), shared_mem_bytes // roundup(shared,
              smem_alloc_unit), (max_threads / warp_size) // warps, max_ctas)
and checks the PTXAS cell and USED column of --kernels, and that each workload row counts ptxas's
registers for one of its kernels (REGS USED "R ptxas") with that kernel's CTAs, warps and limit.
--only: the named workloads alone (`heddle list NAME...`: the CI tier's sample, tests/regs.cmake);
each must have a ptxas summary, and the table must show exactly those. Exits 1 with every
difference listed, 0 when all agree (prints the count checked).
"""
import glob
import os
import re
import subprocess
import sys


def run(args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("%s: exit %d\n%s%s" % (" ".join(args), p.returncode, p.stdout, p.stderr))
    return p.stdout


def config(heddle, cfg_args):
    text = run([heddle, "config"] + cfg_args)
    want = {"gpu": ["warp_size", "name"],
            "sm": ["max_threads", "max_ctas", "registers", "max_regs_per_thread",
                   "shared_mem_bytes", "reg_alloc_unit", "smem_alloc_unit", "regs_source"]}
    out, section = {}, None
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        m = re.match(r"\[(\w+)\]$", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"(\w+)\s*=\s*(.*)$", line)
        if m and section in want and m.group(1) in want[section]:
            v = m.group(2).strip().strip('"')
            out[m.group(1)] = int(v) if re.fullmatch(r"\d+", v) else v
    missing = [k for ks in want.values() for k in ks if k not in out]
    if missing:
        sys.exit("heddle config does not show %s" % missing)
    return out


def ptxas_counts(root):
    regs = {}
    for path in glob.glob(os.path.join(root, "workloads", "*", "*.ptxas.txt")):
        wl = os.path.basename(path)[:-len(".ptxas.txt")]
        if re.search(r"_z_(r|sp)[0-9]+_tb[0-9]+$", wl):
            continue  # a Zorua grid point: heddle list hides them without --zorua
        for line in open(path):
            if line.startswith("#") or not line.strip():
                continue
            f = dict(kv.split("=", 1) for kv in line.split())
            regs.setdefault(wl, {})[f["kernel"]] = int(f["registers"])
    return regs


def roundup(v, unit):
    return v if unit <= 1 else (v + unit - 1) // unit * unit


def hand(c, threads, regs, shared):
    """CTAs per SM, warps per SM and the limiting resources, by hand."""
    ws = c["warp_size"]
    warps = (threads + ws - 1) // ws
    r = min(regs, c["max_regs_per_thread"])
    per_warp = roundup(r * ws, c["reg_alloc_unit"])
    smem = roundup(shared, c["smem_alloc_unit"])
    big = 1 << 40
    by = [("registers", c["registers"] // (warps * per_warp)),
          ("shared memory", c["shared_mem_bytes"] // smem if smem else big),
          ("threads", (c["max_threads"] // ws) // warps),
          ("CTA slots", c["max_ctas"])]
    ctas = min(n for _, n in by)
    limit = "+".join(name for name, n in by if n == ctas)
    return ctas, "%d/%d" % (ctas * warps, c["max_threads"] // ws), limit


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    args, only = sys.argv[1:], None
    if "--only" in args:
        i = args.index("--only")
        if i + 1 >= len(args) or not args[i + 1]:
            sys.exit("--only wants NAME,NAME...\n" + __doc__)
        only = args[i + 1].split(",")
        del args[i:i + 2]
    if not 1 <= len(args) <= 2:
        sys.exit(__doc__)
    heddle = args[0]
    cfg_args = ["--config", args[1]] if len(args) > 1 else []
    root = os.getcwd()
    c = config(heddle, cfg_args)
    if c["regs_source"] != "ptxas":
        sys.exit("the configuration's [sm] regs_source is %s, not ptxas" % c["regs_source"])
    ptxas = ptxas_counts(root)
    if only is not None:
        missing = [w for w in only if w not in ptxas]
        if missing:
            sys.exit("--only: no workloads/*/NAME.ptxas.txt for %s" % missing)
        ptxas = {w: ptxas[w] for w in only}
    names = only or []
    bad, checked = [], 0

    # --kernels: NAME KERNEL LAUNCHES THREADS SHARED REGS <ours cell> <ptxas cell> USED
    kern = {}
    row = re.compile(r"^(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*?)\s+"
                     r"(\d+) (\d+/\d+) (.+?)\s+(\d+) (\S+)\s*$")
    for line in run([heddle, "list", "--kernels"] + cfg_args + names).splitlines()[1:]:
        m = row.match(line)
        if not m:
            continue  # a kernel the small run did not launch, or the footnote
        wl, k, threads, shared = m.group(1), m.group(2), int(m.group(4)), int(m.group(5))
        if k not in ptxas.get(wl, {}):
            bad.append("%s %s: no ptxas count in workloads/*/%s.ptxas.txt" % (wl, k, wl))
            continue
        r = ptxas[wl][k]
        want = hand(c, threads, r, shared)
        got = (int(m.group(8)), m.group(9), m.group(10).strip())
        used = (int(m.group(11)), m.group(12))
        if got != want:
            bad.append("%s %s (%d threads, %d B shared, %d regs): list --kernels says %s, by "
                       "hand %s" % (wl, k, threads, shared, r, got, want))
        if used != (r, "ptxas"):
            bad.append("%s %s: USED %s, expected %d ptxas" % (wl, k, used, r))
        kern.setdefault(wl, []).append((threads, r, want))
        checked += 1

    # the workload table: ... THREADS/CTA  REGS USED  CTAS/SM  WARPS/SM  LIMIT  DESCRIPTION
    lines = run([heddle, "list"] + cfg_args + names).splitlines()
    head = lines[0]
    col = {name: head.index(name) for name in
           ["THREADS/CTA", "REGS USED", "CTAS/SM", "WARPS/SM", "LIMIT ON"]}
    nrows = 0
    for line in lines[1:]:
        if line.startswith("("):
            break
        wl = line.split()[0]
        cell = lambda a, b: line[col[a]:col[b]].strip()
        threads, used = cell("THREADS/CTA", "REGS USED"), cell("REGS USED", "CTAS/SM")
        res = r"(?:registers|shared memory|threads|CTA slots|local memory)"
        lim = re.match(r"%s(?:\+%s)*|does not fit|-" % (res, res), line[col["LIMIT ON"]:])
        got = (cell("CTAS/SM", "WARPS/SM"), cell("WARPS/SM", "LIMIT ON"),
               lim.group(0) if lim else "?")  # a long limit runs into DESCRIPTION's column
        nrows += 1
        m = re.fullmatch(r"(\d+) ptxas", used)
        if not m or not threads.isdigit():
            bad.append("%s: REGS USED '%s', THREADS/CTA '%s' (expected ptxas's count)"
                       % (wl, used, threads))
            continue
        cands = [(str(w[0]), w[1], w[2]) for t, r, w in kern.get(wl, [])
                 if t == int(threads) and r == int(m.group(1))]
        if got not in cands:
            bad.append("%s: list says %s with %s registers and %s threads; by hand: %s"
                       % (wl, got, m.group(1), threads, cands or "no such kernel"))
        checked += 1
    if nrows != len(ptxas):
        bad.append("heddle list shows %d workloads, workloads/ has %d ptxas summaries"
                   % (nrows, len(ptxas)))
    for b in bad:
        print("MISMATCH " + b)
    print("checked %d rows of heddle list on %s by hand from ptxas's counts: %d differences"
          % (checked, c["name"], len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
