# SPDX-License-Identifier: MIT
"""inloop - what the in-loop block checks of the mechanisms share (tests/locality/locality_loop.py,
tests/haws/haws_loop.py, tests/expars/expars_loop.py; docs/cosim.md): a verified `heddle run`'s
timing statistics, and a `heddle cosim --blocks FAMILY --in-loop` run's summary line, which must
say verified, 0 mismatches, and that something stepped against the RTL. The scripts import it
with tests/ on sys.path."""

import json
import re
import subprocess
import sys

SUMMARY = re.compile(r": verified \(\w+\), (\d+) cycles, blocks in the timing loop: (\d+) instances "
                     r"\((\d+) against RTL.*?\), (\d+) block steps \((\d+) against RTL\), "
                     r"0 mismatches")


def fail(msg):
    sys.exit("FAIL: " + msg)


def _failed(cmd, out):
    fail("%s\n%s%s" % (" ".join(cmd), out.stdout[-2000:], out.stderr[-2000:]))


def run_timing(heddle, w, size, args, stats):
    """`heddle run w` verified at size with args; the statistics JSON's "timing" object (written
    to the file stats)."""
    cmd = [heddle, "run", w, "--size", size, "--quiet", "--stats", stats] + args
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0 or "VERIFIED" not in out.stdout:
        _failed(cmd, out)
    with open(stats) as f:
        return json.load(f)["timing"]


def cosim(heddle, family, w, size, args):
    """`heddle cosim --blocks family --in-loop w` verified with 0 mismatches and RTL stepped:
    (cycles, block instances, block steps against the RTL)."""
    cmd = [heddle, "cosim", "--blocks", family, "--in-loop", w, "--size", size] + args
    out = subprocess.run(cmd, capture_output=True, text=True)
    m = SUMMARY.search(out.stdout)
    if out.returncode != 0 or not m:
        _failed(cmd, out)
    cycles, inst, rtl_inst, _, rtl_steps = (int(x) for x in m.groups())
    if rtl_inst == 0 or rtl_steps == 0:
        fail("%s: nothing stepped against the RTL" % " ".join(cmd))
    return cycles, inst, rtl_steps
