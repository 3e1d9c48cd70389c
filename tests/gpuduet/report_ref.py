# SPDX-License-Identifier: MIT
"""report_ref.py - the reference baseline of experiments/gpuduet.py (session 24).

Lin normalises a benchmark whose L1D the §2.10 rule bypassed (DWT_2) to the baseline with the
L1D bypassed (thesis L2314-L2318). The report must therefore (1) tell the baseline run with
`[l1d] bypass_global = true` apart from the baseline (variant base_l1byp), and (2) normalise a
bypassed point to it, or give no speedup where it is missing, never the cached baseline. The
numbers are gpuduet-paper's SPMV window IPCs (docs/gpuduet.md "Session 24: SPMV and the L1D
hand-over"): baseline 0.6087, bypassed baseline 3.9678, GPUDuet with the controller 4.0327.
Prints "report_ref.py: OK" on success; any failed check exits 1 with what differed.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "experiments"))
import gpuduet  # noqa: E402  (experiments/gpuduet.py)


class FakeCtx:
    """The one method gpuduet._rows reads: the sweep's tidy table."""
    def __init__(self, rows):
        self._rows = rows

    def tidy(self):
        return self._rows


def fail(msg):
    print(f"report_ref.py: FAIL: {msg}")
    sys.exit(1)


def main():
    common = {"workload": "spmv", "status": "ok", "measured": "window", "cycles": 4000000}
    tidy = [dict(common, ipc=0.6087),
            dict(common, ipc=3.9678, **{"set.l1d.bypass_global": "true"}),
            dict(common, ipc=4.0327, **{"set.sm.allocator": "gpuduet",
                                        "set.gpuduet.dynamic": "true"})]
    rows = gpuduet._rows(FakeCtx(tidy))
    if set(rows) != {("spmv", "base"), ("spmv", "base_l1byp"), ("spmv", "gpuduet")}:
        fail(f"variants {sorted(rows)}: the bypassed baseline must be base_l1byp, not base")
    if rows[("spmv", "base")]["ipc"] != 0.6087:
        fail("the cached baseline was replaced by the bypassed one")
    point = rows[("spmv", "gpuduet")]
    ref = gpuduet._reference(rows, "spmv", True)
    if ref is None or ref["ipc"] != 3.9678:
        fail(f"a bypassed point's reference is {ref}, not the bypassed baseline")
    sp = gpuduet._speedup(ref, point)
    if abs(sp - 4.0327 / 3.9678) > 1e-9:
        fail(f"speedup {sp}, want {4.0327 / 3.9678}")
    if gpuduet._reference(rows, "spmv", False)["ipc"] != 0.6087:
        fail("a point that did not bypass must keep the cached baseline")
    del rows[("spmv", "base_l1byp")]
    if gpuduet._reference(rows, "spmv", True) is not None:
        fail("without the bypassed baseline a bypassed point must get no speedup")
    print(f"spmv gpuduet over the bypassed baseline {gpuduet._pct(sp)} "
          f"(over the cached one {gpuduet._pct(4.0327 / 0.6087)})")
    print("report_ref.py: OK")


if __name__ == "__main__":
    main()
