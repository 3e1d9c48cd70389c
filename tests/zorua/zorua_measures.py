#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""zorua_measures.py - the Sec. 6 measures of experiments/zorua.py (Zorua, ISCA 2016, Sec. 5.4)
on hand-worked points: performance range, best point, all-spec improvement, the porting loss
with the 5 %-of-best rule over ordered generation pairs (only specifications both generations
run), the register and scratchpad hit rates and the energy ratio. Prints "zorua measures: N checks pass"."""
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "experiments"))
import zorua  # noqa: E402

F, K, M = "zorua-fermi", "zorua-kepler", "zorua-maxwell"
CHECKS = [0]


def pt(cycles, energy=1.0, rf_reads=0, rf_swap=0, smem_lookups=0, smem_swap=0):
    return {"cycles": cycles, "energy": energy, "rf_reads": rf_reads, "rf_swap": rf_swap,
            "smem_accesses": smem_lookups, "smem_lookups": smem_lookups,
            "smem_swap": smem_swap, "swapped_sets": 0, "sched": 4.0, "warps": 8.0}


def gen(b, w, z, **kw):
    return {"partitioned": pt(b), "wlm": pt(w), "zorua": pt(z, **kw)}


def near(a, b, what):
    CHECKS[0] += 1
    if a is None or b is None or abs(a - b) > 1e-6:
        print(f"FAIL {what}: {a} != {b}")
        sys.exit(1)


def main():
    res = {
        # DCT: Fermi Baseline 100 / 200 / 300 cycles (range (1/100 - 1/300) / (1/300) = 200 %),
        # Zorua 100 / 125 (25 %); Kepler's best is the other spec; Maxwell as Fermi.
        "dct8x8": {
            "r20_tb64": {F: gen(100, 100, 100, energy=0.8, rf_reads=1000, rf_swap=10,
                                smem_lookups=500, smem_swap=2),
                         K: gen(150, 150, 110), M: gen(100, 100, 100)},
            "r24_tb128": {F: gen(200, 160, 125, energy=1.1, rf_reads=1000, rf_swap=30,
                                 smem_lookups=1500, smem_swap=6),
                          K: gen(100, 100, 100), M: gen(200, 160, 125)},
            # far from every generation's best: the 5 % rule leaves it out of the porting loss
            # (without the rule Fermi>Kepler would be 1 - 100/400 = 75 %)
            "r28_tb256": {F: gen(300, 160, 125), K: gen(400, 150, 110), M: gen(300, 160, 125)},
        },
        # BH: r44_tb1024 runs on Kepler only (does not fit Fermi) and is Kepler's best: the
        # pairs from Kepler have no point both generations run.
        "barneshut": {
            "r28_tb128": {F: gen(100, 100, 100), K: gen(100, 100, 100), M: gen(100, 100, 100)},
            "r44_tb1024": {K: gen(50, 50, 50), M: gen(100, 100, 100)},
        },
    }
    r = zorua.measures(res)
    d = r["apps"]["DCT"]
    near(d["range"]["partitioned"], 200.0, "DCT Baseline range")
    near(d["range"]["wlm"], 60.0, "DCT WLM range")
    near(d["range"]["zorua"], 25.0, "DCT Zorua range")
    # Baseline: Fermi>Kepler: r20 within 5 % of Fermi's best, on Kepler 1 - (1/150)/(1/100);
    # Kepler>Fermi: r24, on Fermi 1 - (1/200)/(1/100) = 50 %; Fermi<>Maxwell 0.
    pp = d["port_pairs"]["partitioned"]
    near(pp["Fermi>Kepler"]["loss"], 100 / 3, "DCT Fermi>Kepler")
    near(pp["Kepler>Fermi"]["loss"], 50.0, "DCT Kepler>Fermi")
    near(pp["Fermi>Maxwell"]["loss"], 0.0, "DCT Fermi>Maxwell")
    near(d["port"]["partitioned"], 50.0, "DCT Baseline max porting loss")
    # Zorua: Kepler 110 / 100: r20 is within 5 %? 100/110 = 0.909: no; Kepler>Fermi r24 on
    # Fermi: 1 - 100/125 = 20 %; Fermi>Kepler r20: 1 - 100/110.
    near(d["port"]["zorua"], 20.0, "DCT Zorua max porting loss")
    near(d["port_pairs"]["zorua"]["Fermi>Kepler"]["loss"], 100 * (1 - 100 / 110),
         "DCT Zorua Fermi>Kepler")
    near(d["best"], 0.0, "DCT best point (both 100 cycles)")
    near(d["all"], 100 * ((100 / 100 + 200 / 125 + 300 / 125) / 3 - 1), "DCT all specs")
    near(d["hit_rf"], 100 * (1 - 40 / 2000), "DCT register hit rate")
    # scratchpad (session 16): set lookups over the Fermi Zorua points; BH has none
    near(d["hit_smem"], 100 * (1 - 8 / 2000), "DCT scratchpad hit rate")
    CHECKS[0] += 1
    if r["apps"]["BH"]["hit_smem"] is not None:
        print("FAIL BH scratchpad hit rate: no lookups, so none")
        return 1
    near(r["mean"]["hit_smem"], 100 * (1 - 8 / 2000), "mean scratchpad hit rate (DCT only)")
    near(d["energy"]["zorua"], 100 * ((0.8 + 1.1 + 1.0) / 3 - 1), "DCT Zorua energy")
    b = r["apps"]["BH"]
    near(float(b["specs"]["Fermi"]), 1.0, "BH specs on Fermi")
    bp = b["port_pairs"]["partitioned"]
    CHECKS[0] += 1
    if bp["Kepler>Fermi"]["loss"] is not None or bp["Kepler>Fermi"]["points"] != 0:
        print(f"FAIL BH Kepler>Fermi: {bp['Kepler>Fermi']} (Kepler's best does not run on Fermi)")
        return 1
    near(bp["Kepler>Maxwell"]["loss"], 0.0, "BH Kepler>Maxwell (r44 equal to r28 there)")
    near(b["range"]["partitioned"], 0.0, "BH Fermi range (one spec)")
    # Fermi>Kepler and Maxwell>Kepler: r28 (Fermi's and Maxwell's best) on Kepler 100 vs 50
    near(bp["Fermi>Kepler"]["loss"], 50.0, "BH Fermi>Kepler")
    near(b["port"]["partitioned"], 50.0, "BH max porting loss")
    near(r["mean"]["port"]["partitioned"], 50.0, "mean Baseline porting loss")
    near(r["mean"]["range"]["zorua"], (25.0 + 0.0) / 2, "mean Zorua range")
    print(f"zorua measures: {CHECKS[0]} checks pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
