# SPDX-License-Identifier: MIT
"""issue_slots.py - the issue cost of Lin's pp points (model/ctx/ctx_points.c "issue"): with
[context] points = selective and no preemption, every time a warp reaches a `pp` point its pp and
dummy instructions take two issue slots, so the SMs' pp_issue_slots must be exactly twice the warp
instructions issued at the points' lines (the points from heddle ptx-info, the per-line issue
counts from the --stats report); `bar.pp` points take none.

  issue_slots.py HEDDLE WORKLOAD [--set SEC.KEY=V ...]
"""

import json
import os
import re
import subprocess
import sys
import tempfile


def main(argv):
    heddle, wl, sets = argv[1], argv[2], argv[3:]
    info = subprocess.run([heddle, "ptx-info", wl] + sets, capture_output=True, text=True,
                          check=True).stdout
    pp_lines = {int(m[1]) for m in re.finditer(r"PC \d+ \(line (\d+)\): pp \+ dummy", info)}
    bar_lines = {int(m[1]) for m in re.finditer(r"PC \d+ \(line (\d+)\): bar\.pp", info)}
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "s.json")
        r = subprocess.run([heddle, "run", wl, "--size", "small", "--set",
                            "context.points=selective", "--stats", js] + sets,
                           capture_output=True, text=True)
        if r.returncode != 0 or "VERIFIED" not in r.stdout:
            sys.stdout.write(r.stdout + r.stderr)
            print(f"issue_slots.py: {wl}: did not verify")
            return 1
        t = json.load(open(js))["timing"]
    slots = sum(s.get("pp_issue_slots", 0) for s in t["sms"])
    at = sum(row[1] for L in t["lines"] for row in L["rows"] if row[0] in pp_lines)
    print(f"{wl}: {len(pp_lines)} pp points, {len(bar_lines)} bar.pp points; {at} warp "
          f"instructions issued at the pp points, {slots} pp issue slots")
    if slots != 2 * at:
        print(f"issue_slots.py: {wl}: expected {2 * at} pp issue slots")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
