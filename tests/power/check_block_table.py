#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# check_block_table.py - every RTL block is in the energy model's table (model/power/
# power_blocks.c; docs/power.md "Added structures"), the CTest power_block_table:
#     check_block_table.py [SOURCE_DIR]
#
# A block is a directory rtl/<block>/ with <block>_ports.def (docs/synth.md "Which blocks"). The
# check fails when one has no row in the table, when a row names no such block, or when a row's
# instances disagree with synth/blocks.ini (per_sm, default 1, or per_gpu). A row
# "<block>:<config>" (session 28: zorua_map:smt, zorua_map:tmt) is the block in configuration
# [<config>] of configs/rtl/<block>.ini: that configuration must exist and synth/blocks.ini must
# have the row [<block>:<config>] (its instances its own, or else [<block>]'s). test_power checks
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
            for m in re.finditer(r'\{"(\w+(?::\w+)?)",\s*[\d.]+,\s*[\d.]+,\s*(\d+),\s*(\d+),', src)}
    ini = configparser.ConfigParser(inline_comment_prefixes=("#",))
    ini.read(os.path.join(root, "synth", "blocks.ini"))

    def instances(name):
        """(per_sm, per_gpu) of a blocks.ini row; a [<block>:<config>] row falls back to [<block>]."""
        secs = [ini[s] for s in (name, name.split(":")[0]) if ini.has_section(s)]
        for key in ("per_gpu", "per_sm"):
            for sec in secs:
                if key in sec:
                    return (0, int(sec[key])) if key == "per_gpu" else (int(sec[key]), 0)
        return (1, 0)

    bad = []
    for b in blocks:
        if b not in rows:
            bad.append(f"rtl/{b} has no row in power_blocks.c")
            continue
    for r, got in rows.items():
        base, _, conf = r.partition(":")
        if base not in blocks:
            bad.append(f"row {r} names no rtl/ block")
            continue
        if conf:
            cfg = configparser.ConfigParser(inline_comment_prefixes=("#",))
            cfg.optionxform = str
            cfg.read(os.path.join(root, "configs", "rtl", f"{base}.ini"))
            if not cfg.has_section(conf):
                bad.append(f"row {r}: configs/rtl/{base}.ini has no [{conf}]")
            if not ini.has_section(r):
                bad.append(f"row {r}: synth/blocks.ini has no [{r}] (the synthesized row it prices)")
                continue
        if got != instances(r):
            bad.append(f"{r}: table instances (per_sm, per_gpu) {got}, blocks.ini {instances(r)}")
    for m in bad:
        print("FAIL " + m)
    print(f"{len(blocks)} rtl blocks, {len(rows)} table rows")
    if bad or not blocks:
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
