#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh - Heddle's synthesis flow: for every RTL block, Yosys (generic gates and a standard-cell
# library), OpenSTA (critical path in ps, FO4 and core-clock cycles), an SRAM model for storage
# arrays, scaling to 40 nm, per-SM and per-chip totals, and one table (text and JSON) beside the
# papers' area/storage/latency claims. Needs python3, yosys, sta (opensta) and, by default,
# the osu018 library (qflow-tech-osu018); scripts/setup.sh installs them. docs/synth.md.
#
# Usage: synth/run.sh [--liberty FILE] [--lef FILE] [--spice FILE] [--block NAME]... [--smoke]
#                     [--gpu-config FILE] [--out DIR] [--json FILE] [--timeout S]
#        synth/run.sh --sram ROWS BITS PORTS [--banks N]   (one array through the SRAM model)
#        synth/run.sh --sram-check                         (the SRAM model against CACTI)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v python3 >/dev/null || { echo "synth/run.sh: python3 is required" >&2; exit 2; }
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m hdsynth "$@"
