# SPDX-License-Identifier: MIT
"""hdsynth - Heddle's synthesis flow: area and critical path of every RTL block (Yosys, OpenSTA),
an SRAM model for storage arrays, scaling to 40 nm and comparison with the papers' claims.

Entry point: synth/run.sh (python3 -m hdsynth). Design notes: docs/synth.md.
"""
