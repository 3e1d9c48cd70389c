#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# power-arrays.py - the read energy of every storage array the energy model prices (docs/power.md
# "Energies and their sources"), from the project's CACTI-calibrated SRAM model at 40 nm
# (synth/hdsynth/sram.py, synth/tech40.ini). The [power] keys of configs/*.ini hold these values,
# rounded; rerun this after a change of the SRAM model or of an array's shape.
#
#   scripts/power-arrays.py            (from anywhere; prints one line per array)
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "synth"))

from hdsynth import ini, sram  # noqa: E402

# name: (entries, width bits, ports, banks, [power] key, what it is on the GTX480)
ARRAYS = [
    ("rf_bank", 64, 1024, "1RW", 1, "e_rf_read_pj", "one of 16 register banks (8 KB)"),
    ("oc_buffer", 16, 1024, "1RW", 1, "e_opc_word_pj", "an operand-collector array"),
    ("icache", 16, 1024, "1RW", 1, "e_fetch_pj (array part)",
     "2 KB instruction cache (4 x 4 x 128 B)"),
    ("smem_bank", 384, 32, "1RW", 1, "e_smem_pass_pj / 32", "one of 32 shared-memory banks"),
    ("l1d_tags", 32, 96, "1RW", 1, "e_l1d_tag_pj", "L1D tags, 32 sets x 4 ways x 24 b"),
    ("l1d_data", 128, 1024, "1RW", 1, "e_l1d_data_pj", "L1D data, 16 KB"),
    ("l1c_data", 128, 512, "1RW", 1, "e_l1c_pj (data)", "constant cache data, 8 KB"),
    ("l1c_tags", 64, 48, "1RW", 1, "e_l1c_pj (tags)", "constant cache tags"),
    ("l2_tags", 64, 192, "1RW", 1, "e_l2_tag_pj", "L2 slice tags, 64 sets x 8 ways x 24 b"),
    ("l2_data", 512, 1024, "1RW", 1, "e_l2_data_pj", "L2 slice data, 64 KB"),
]


def main():
    model = sram.SramModel(ini.read(os.path.join(ROOT, "synth", "tech40.ini")))
    print(f"{'array':<10} {'shape':>10} {'pJ/read':>8}  {'[power] key':<24} what")
    for name, e, w, ports, banks, key, what in ARRAYS:
        r = model.estimate(e, w, ports, banks)
        note = " (below CACTI's limits: scaled)" if r["cacti_limit"] else ""
        print(f"{name:<10} {f'{e}x{w}':>10} {r['read_energy_pj']:>8.3f}  {key:<24} {what}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
