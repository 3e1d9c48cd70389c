#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""experiments/ccbp.py's class rules (Lin §2.15) on hand-made profiles: the rank rule keeps the
top 4 by the busier crossbar's use as NBI and the top 4 by DRAM bus use as DBI, a kernel in both
lists goes where it ranks higher and the other list takes its next kernel; the threshold rule
classifies each kernel by its own use; fewer than 9 kernels fall back to the thresholds."""
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("ccbp", os.path.join(ROOT, "experiments", "ccbp.py"))
ccbp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ccbp)


def profs(rows):
    return {w: {"noc_busier": n, "dram_util": d} for w, n, d in rows}


def check(got, want, what):
    if got != want:
        sys.exit(f"classify_test: {what}: got {got}, want {want}")


# 13 kernels: 'both' is 1st by NoC and 3rd by DRAM (NBI: it ranks higher there), so DBI takes
# its 5th kernel (d5); 'tie' is 2nd in both lists (DBI on a tie), so NBI takes its 5th (n5)
rows = [("both", 70, 60), ("tie", 65, 70), ("n3", 60, 10), ("n4", 55, 11), ("n5", 50, 12),
        ("n6", 45, 13), ("d1", 20, 80), ("d4", 21, 55), ("d5", 22, 50), ("d6", 23, 45),
        ("l1", 5, 5), ("l2", 6, 6), ("l3", 7, 7)]
p = profs(rows)
ccbp.CLASS_RULE = "rank"
ccbp.classify(p)
rank = {w: p[w]["type"] for w in p}
check(sorted(w for w in p if rank[w] == "nbi"), ["both", "n3", "n4", "n5"], "rank NBI")
check(sorted(w for w in p if rank[w] == "dbi"), ["d1", "d4", "d5", "tie"], "rank DBI")
check(sum(1 for w in p if rank[w] == "ls"), 5, "rank LS count")
# the threshold rule on the same profiles: DBI at >= 50 % DRAM first, NBI at >= 50 % NoC
check({w: p[w]["type_threshold"] for w in ("both", "tie", "n5", "n6", "d5", "d6")},
      {"both": "dbi", "tie": "dbi", "n5": "nbi", "n6": "ls", "d5": "dbi", "d6": "ls"},
      "threshold classes")
ccbp.CLASS_RULE = "threshold"
p = profs(rows)
ccbp.classify(p)
check(all(p[w]["type"] == p[w]["type_threshold"] for w in p) and
      not any("type_rank" in v for v in p.values()), True, "CCBP_CLASS=threshold")
ccbp.CLASS_RULE = "rank"
p = profs(rows[:8])
ccbp.classify(p)
check(all(p[w]["type"] == p[w]["type_threshold"] for w in p), True, "8 kernels: thresholds")
print("ccbp classify ok")
