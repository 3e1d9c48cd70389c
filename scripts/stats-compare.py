#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stats-compare.py - compare two directories of statistics written by scripts/carve-check.sh
(or any two sets of heddle --stats JSON files with the same names): every value present in both
files must be equal; keys only one side has (counters or configuration keys a later commit
added) are listed by name, not counted as differences. Text summaries (*.json that are not
JSON: the co-simulation's) must be identical. Exit 0 when they agree, 1 when not, 2 on usage.

    scripts/stats-compare.py OLD_DIR NEW_DIR
"""
import json
import re
import os
import sys


def walk(a, b, path, diffs, added):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            if k in b:
                walk(a[k], b[k], f"{path}.{k}", diffs, added)
            else:
                added.add(f"-{path}.{k}")
        for k in b:
            if k not in a:
                added.add(f"+{path}.{k}")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            diffs.append(f"{path}: {len(a)} vs {len(b)} elements")
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}[{i}]", diffs, added)
    elif a != b:
        diffs.append(f"{path}: {a!r} vs {b!r}")


def main(argv):
    if len(argv) != 3 or not all(os.path.isdir(d) for d in argv[1:]):
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    old, new = argv[1], argv[2]
    names = sorted(f for f in os.listdir(old) if f.endswith(".json"))
    bad = 0
    for name in names:
        pa, pb = os.path.join(old, name), os.path.join(new, name)
        if not os.path.exists(pb):
            print(f"{name}: missing in {new}")
            bad += 1
            continue
        ta, tb = open(pa).read(), open(pb).read()
        try:
            ja, jb = json.loads(ta), json.loads(tb)
        except ValueError:
            if ta != tb:
                print(f"{name}: the summaries differ")
                bad += 1
            continue
        diffs, added = [], set()
        walk(ja, jb, "", diffs, added)
        if diffs:
            bad += 1
            print(f"{name}: {len(diffs)} values differ: " + "; ".join(diffs[:5]))
        elif added:
            keys = sorted({re.sub(r"\[[0-9]+\]", "", k).rsplit(".", 1)[-1] for k in added})
            print(f"{name}: equal ({len(added)} fields on one side only: {', '.join(keys[:12])})")
        else:
            print(f"{name}: equal")
    print(f"stats-compare.py: {len(names)} files, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
