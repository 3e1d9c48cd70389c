#!/usr/bin/env python3
"""Sums the zorua_loop.py logs of session 31 per generation: points ok, failed, skipped, block steps."""
import glob, re, sys, collections
d = sys.argv[1]
for g in ["fermi", "kepler", "maxwell"]:
    ok = {}; fails = []; skipped = 0; steps = 0; rtl = 0
    for f in sorted(glob.glob(f"{d}/{g}-part*.log")):
        for l in open(f):
            if l.startswith("ok "):
                name = l.split()[1]
                ok[name] = int(l.split()[2])
                for m in re.finditer(r"(ref|rtl): (\d+) steps \((\d+) RTL\)", l):
                    steps += int(m.group(2)); rtl += int(m.group(3))
            elif l.startswith("FAIL"):
                fails.append(l.strip())
            elif l.startswith("skip"):
                skipped += 1
    cyc = sorted(ok.values())
    print(f"{g}: {len(ok)} points ok, {len(fails)} FAIL, {skipped} skipped; cycles {cyc[0] if cyc else 0}"
          f"..{cyc[-1] if cyc else 0}; {steps} block steps ({rtl} against the RTL)")
    for x in fails: print("  ", x)
