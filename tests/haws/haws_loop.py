#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# haws_loop.py - the HAWS blocks (haws_rcu, haws_rename, haws_shadow_stack, haws_warp_ctl) in the
# timing loop (issue 30 item 4;
# docs/blocks/haws.md "The blocks in the loop"; model/mech/haws/haws_loop.h).
#   haws_loop.py HEDDLE loop SIZE W...   for each workload W on the Kepler configuration with
#                                        HAWS on: `heddle cosim --blocks haws --in-loop`
#                                        verifies with 0 mismatches and steps against the RTL;
#                                        its cycles, those with --drive rtl and those of plain
#                                        `heddle run` with HAWS on (blocks off) are identical
#   haws_loop.py HEDDLE rtl SIZE W...    the same without the C-reference-driven cosim run (CI)
#   haws_loop.py HEDDLE grid SIZE W...   each W with HAWS on under GTO and LRR and with warped
#                                        pre-execution, the blocks' C references in the loop:
#                                        verified, 0 mismatches, cycles unchanged
#   (settings after "--" go to every run, e.g. -- --set gpu.num_sms=2)
#   haws_loop.py HEDDLE fault W          a wrong expectation ([haws] blocks_fault N) stops the
#                                        run with a located mismatch naming cycle, SM, warp
#                                        slot, block and port; N from 50 up until each of the
#                                        four blocks has been the one
# Prints "haws loop ok" / "haws fault ok" or fails with the first difference.
import os
import re
import subprocess
import sys
import tempfile

heddle, mode = sys.argv[1], sys.argv[2]
# settings for every run after "--" (e.g. -- --set gpu.num_sms=2)
EXTRA = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
ARGS = sys.argv[:sys.argv.index("--")] if "--" in sys.argv else sys.argv
here = os.path.dirname(os.path.abspath(__file__))
kepler = os.path.join(here, "..", "..", "configs", "kepler-gk110.ini")
tmp = tempfile.mkdtemp(prefix="hd-hawsloop-")
ON = ["--config", kepler, "--set", "haws.enable=true"] + EXTRA


sys.path.insert(0, os.path.join(here, ".."))
from inloop import cosim as _cosim, fail, run_timing  # noqa: E402 (tests/inloop.py)


def run(w, size, extra):
    t = run_timing(heddle, w, size, ON + extra, os.path.join(tmp, "s.json"))
    return t["totals"]["cycles"], sum(sm.get("haws_issued", 0) for sm in t["sms"])


def cosim(w, size, extra):
    return _cosim(heddle, "haws", w, size, ON + extra)


if mode in ("loop", "rtl"):
    size, names = ARGS[3], ARGS[4:]
    for w in names:
        plain, issued = run(w, size, [])
        # (rtl: only the --drive rtl run; the RTL and the C references step in lockstep there
        # too, port by port, so it checks what the C-reference run checks)
        ref = None if mode == "rtl" else cosim(w, size, [])[0]
        rtl, inst, steps = cosim(w, size, ["--drive", "rtl"])
        ref = rtl if ref is None else ref
        if not plain == ref == rtl:
            fail("%s: cycles differ: heddle run %d, in the loop %d, --drive rtl %d"
                 % (w, plain, ref, rtl))
        print("%s (%s): %d cycles with the blocks off, in the loop and with --drive rtl; %d "
              "run-ahead instructions; %d instances, %d block steps against the RTL, "
              "0 mismatches" % (w, size, plain, issued, inst, steps))
    print("haws loop ok")
elif mode == "grid":
    size, names = ARGS[3], ARGS[4:]
    for w in names:
        for v in (["--set", "sm.scheduler=gto"], ["--set", "sm.scheduler=lrr"],
                  ["--set", "haws.wpe=true"]):
            plain, issued = run(w, size, v)
            on, _ = run(w, size, v + ["--set", "haws.blocks=true"])
            if on != plain:
                fail("%s %s: the blocks in the loop changed the cycles: %d vs %d"
                     % (w, " ".join(v), on, plain))
            print("%s (%s) %s: %d cycles, %d run-ahead instructions, 0 mismatches, cycles "
                  "unchanged" % (w, size, " ".join(v[1:]), plain, issued))
    print("haws loop ok")
elif mode == "fault":
    # The N-th block step's block gets a wrong expectation at its next check: N = 50 first
    # (the RCU or the rename table), then N upwards until every one of the four blocks has
    # stopped a run with a located mismatch (the shadow stack's and the warp controller's
    # read-outs and decisions are checked too).
    w, size = ARGS[3], "small"
    pat = (r"haws: MISMATCH at cycle \d+, SM \d+, warp slot \d+, block (haws_\w+) "
           r"\(sm\d+\.w\d+\.haws_\w+, [^)]*\)(, port \w+ = \d+|: its .* is \d+)")
    seen = {}
    for n in list(range(50, 80)):
        cmd = [heddle, "run", w, "--size", size, "--quiet"] + ON + \
            ["--set", "haws.blocks=true", "--set", "haws.blocks_fault=%d" % n]
        out = subprocess.run(cmd, capture_output=True, text=True)
        m = re.search(pat + r".*", out.stderr + out.stdout)
        if out.returncode == 0 or not m:
            fail("%s: expected a located mismatch (exit != 0, /%s/), got exit %d\n%s%s"
                 % (" ".join(cmd), pat, out.returncode, out.stdout[-1500:], out.stderr[-1500:]))
        if m.group(1) not in seen:
            seen[m.group(1)] = n
            print("blocks_fault=%d: %s" % (n, m.group(0)[:300]))
        if len(seen) == 4:
            break
    missing = {"haws_rcu", "haws_rename", "haws_shadow_stack", "haws_warp_ctl"} - set(seen)
    if missing:
        fail("blocks_fault 50..79 never stopped the run at %s" % ", ".join(sorted(missing)))
    print("haws fault ok")
else:
    fail("unknown mode " + mode)
