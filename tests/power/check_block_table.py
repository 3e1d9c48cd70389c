#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# check_block_table.py - every RTL block is in the energy model's table (model/power/
# power_blocks.c; docs/power.md "Added structures"), the CTest power_block_table:
#     check_block_table.py [SOURCE_DIR]
#
# A block is a directory rtl/<block>/ with <block>_ports.def (docs/synth.md "Which blocks"). The
# check fails when one has no row in the table, when a row names no such block, or when a row's
# instances disagree with synth/blocks.ini (per_sm, default 1, or per_gpu). test_power checks
# that each row is priced when its mechanism is configured and scales with its event count.
import configparser
import os
import re
import sys


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    rtl = os.path.join(root, "rtl")
    blocks = sorted(d for d in os.listdir(rtl)
                    if os.path.isfile(os.path.join(rtl, d, f"{d}_ports.def")))
    with open(os.path.join(root, "model", "power", "power_blocks.c")) as f:
        src = f.read()
    rows = {m.group(1): (int(m.group(2)), int(m.group(3)))
            for m in re.finditer(r'\{"(\w+)",\s*[\d.]+,\s*[\d.]+,\s*(\d+),\s*(\d+),', src)}
    ini = configparser.ConfigParser(inline_comment_prefixes=("#",))
    ini.read(os.path.join(root, "synth", "blocks.ini"))
    bad = []
    for b in blocks:
        if b not in rows:
            bad.append(f"rtl/{b} has no row in power_blocks.c")
            continue
        sec = ini[b] if ini.has_section(b) else {}
        want = (0, int(sec["per_gpu"])) if "per_gpu" in sec else (int(sec.get("per_sm", 1)), 0)
        if rows[b] != want:
            bad.append(f"{b}: table instances (per_sm, per_gpu) {rows[b]}, blocks.ini {want}")
    bad += [f"row {r} names no rtl/ block" for r in rows if r not in blocks]
    for m in bad:
        print("FAIL " + m)
    print(f"{len(blocks)} rtl blocks, {len(rows)} table rows")
    if bad or not blocks:
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
