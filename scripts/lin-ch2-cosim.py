#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""lin-ch2-cosim.py HEDDLE SIGNALS_TOML - issue 13's acceptance check on the lin-ch2 experiment:
every run of experiments/results/lin-ch2/lin-ch2-signals.toml (15 preemption signals per
technique) under `heddle cosim --in-loop` with Lin's blocks (regpat compressor, decompressor and
TB classifier, the preemption controller, packer and unpacker, the pp decoder, the two allocation
tables), once with the C references driving and once with the RTL (--drive rtl). A run passes
when it verifies, has 0 mismatches, and both drives give the same cycles and block steps.
Techniques whose save mode bypasses the codec (occupied, live) are skipped: heddle cosim refuses
them (nothing for the codec's blocks to compare); --blocks pp makes every run use the selective
points. Exit 1 if any run fails. On demand (about 4 minutes on 2 cores), not a CTest."""
import os
import re
import subprocess
import sys
import tomllib
if len(sys.argv) != 3:
    sys.exit(__doc__)
heddle, toml = sys.argv[1], sys.argv[2]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = tomllib.load(open(toml, 'rb'))
rows = []
bad = 0
for g in spec['grid']:
    sets = g.get('set', {})
    if not sets:
        continue
    if sets.get('context', {}).get('save') in ('occupied', 'live'):
        continue  # these save modes bypass the codec: nothing for its blocks to compare
    flat = []
    def walk(prefix, d):
        for k, v in d.items():
            if isinstance(v, dict):
                walk(prefix + k + '.', v)
            else:
                flat.append(f"{prefix}{k}={v}")
    walk('', sets)
    res = {}
    for drive in ('ref', 'rtl'):
        cmd = [heddle, 'cosim', '--blocks', 'regpat', '--blocks', 'pp', '--blocks', 'alloc_table',
               g['workload'], '--in-loop', '--size', g['size'], '--drive', drive]
        for f in flat:
            cmd += ['--set', f]
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
        out = p.stdout + p.stderr
        m = re.search(r'verified \(\w+\), (\d+) cycles.*?(\d+) block steps.*?(\d+) mismatches', out)
        if p.returncode != 0 or not m:
            res[drive] = ('FAIL', out.strip().splitlines()[-1:] )
        else:
            res[drive] = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
    ok = all(r[0] != 'FAIL' for r in res.values()) and res['ref'] == res['rtl'] and res['ref'][2] == 0
    bad += not ok
    tech = [f for f in flat if 'save' in f or 'preempt=' in f or 'points' in f]
    print(f"{'ok ' if ok else 'BAD'} {g['workload']:14s} {' '.join(tech):60s} ref={res['ref']} rtl={res['rtl']}", flush=True)
print(f"{bad} bad")
sys.exit(1 if bad else 0)
