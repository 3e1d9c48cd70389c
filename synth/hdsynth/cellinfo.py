# SPDX-License-Identifier: MIT
"""cellinfo - physical facts about library cells that a Liberty file does not carry.

Transistor counts come from the library's SPICE netlist (one subcircuit per cell, one M or X
device line per transistor). Cell footprints come from its LEF (MACRO ... SIZE w BY h): when a
LEF is found the flow takes cell areas from it, because a .lib area can be wrong (osu018 gives
OAI21X1 23 instead of 32 and LATCH 0 instead of 56 um^2) and reports every disagreement.
Both files are optional; they are looked for beside the liberty file (same stem, .sp/.spi/.cdl
and .lef) unless given on the command line.
"""

import os
import re

from .errors import FlowError


def find_beside(liberty, exts):
    stem = os.path.splitext(liberty)[0]
    for ext in exts:
        if os.path.isfile(stem + ext):
            return stem + ext
    return None


def spice_transistors(path):
    """{cell: transistor count} from a SPICE netlist's .subckt blocks."""
    counts, cur = {}, None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                low = line.strip().lower()
                if low.startswith(".subckt"):
                    parts = line.split()
                    if len(parts) < 2:
                        raise FlowError(path, ".subckt without a name")
                    cur = parts[1]
                    counts[cur] = 0
                elif low.startswith(".ends"):
                    cur = None
                elif cur is not None and low[:1] in ("m", "x") and not low.startswith("x"):
                    counts[cur] += 1
                elif cur is not None and low.startswith("x") and re.search(
                        r"\b[np](fet|mos|ch)|__[np]fet|_[np]fet_", low):
                    counts[cur] += 1          # PDKs that wrap devices as subcircuits (sky130)
    except OSError as e:
        raise FlowError(path, f"cannot read SPICE file: {e.strerror}")
    return counts


def lef_areas(path):
    """{cell: area in um^2} from the MACRO ... SIZE w BY h statements of a LEF file."""
    areas, cur = {}, None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and parts[0] == "MACRO":
                    cur = parts[1]
                elif cur and len(parts) >= 4 and parts[0] == "SIZE" and parts[2] == "BY":
                    try:
                        areas[cur] = float(parts[1]) * float(parts[3].rstrip(";"))
                    except ValueError:
                        raise FlowError(path, f"macro {cur}: bad SIZE '{line.strip()}'")
                elif len(parts) >= 2 and parts[0] == "END" and parts[1] == cur:
                    cur = None
    except OSError as e:
        raise FlowError(path, f"cannot read LEF file: {e.strerror}")
    return areas
