# SPDX-License-Identifier: MIT
"""report - the flow's one table (text and JSON): every block, then the papers' claims beside
Heddle's figure for the same mechanism. Blocks that are listed but not built show a dash; a
claim whose mechanism has no built block shows a dash.
"""

from . import outfile


def _f(x, fmt="{:.0f}"):
    return "-" if x is None else fmt.format(x)


def _params(p):
    return " ".join(f"{k}={v}" for k, v in sorted(p.items())) or "-"


def heddle_figure(claim, rows):
    """(text, value or None, blocks used) for one papers.ini claim."""
    mine = [r for r in rows if r.get("mechanism") == claim["mechanism"] and r.get("ok")]
    if claim.get("block"):
        mine = [r for r in mine if r["block"] == claim["block"]]
    if not mine:
        return "-", None, []
    names = ", ".join(r["block"] + ("*" if r.get("fixture") else "") for r in mine)
    unit = claim["unit"]
    if unit == "cycles":
        r = mine[0]
        lat = r["numbers"]["latency_cycles"]
        cyc = (r["numbers"].get("timing") or {}).get("cycles")
        text = f"{_f(lat)} cycles; critical path {_f(cyc, '{:.2f}')} cycle at the core clock ({names})"
        return text, lat, [r["block"] for r in mine]
    if unit == "bytes_sm":
        val = sum(r["numbers"]["storage_bytes_per_sm"] for r in mine)
        return f"{val:.1f} B/SM of flip-flops ({names})", val, [r["block"] for r in mine]
    if unit == "bytes":  # in total over the claim's sms (global blocks: synth/blocks.ini per_gpu)
        val = sum(r["numbers"]["storage_bytes_per_sm"] for r in mine) * claim.get("sms", 1)
        return f"{val:.1f} B of flip-flops ({names})", val, [r["block"] for r in mine]
    if unit in ("mm2_chip", "mm2_sm"):
        per_sm = sum(r["numbers"]["per_sm_mm2"]["best"] for r in mine)
        val = per_sm * claim.get("sms", 1) if unit == "mm2_chip" else per_sm
        scope = f"for {claim.get('sms')} SMs" if unit == "mm2_chip" else "per SM"
        return f"{val:.4f} mm2 {scope} ({names})", val, [r["block"] for r in mine]
    return "-", None, []


def heddle_logic(claim, rows):
    """mm^2 of logic (Yosys, storage arrays excluded) of the claim's built blocks, in the
    claim's scope (all its SMs for a per-chip claim, else per SM); None when none is built."""
    mine = [r for r in rows if r.get("mechanism") == claim["mechanism"] and r.get("ok")]
    if claim.get("block"):
        mine = [r for r in mine if r["block"] == claim["block"]]
    if not mine:
        return None
    scope = claim.get("sms", 1) if claim["unit"] == "mm2_chip" else 1
    return sum(r["numbers"]["logic_per_sm_mm2"] for r in mine) * scope


def price_tables(claim, model):
    """The paper's own tables (papers.ini tables) through the SRAM model, per SM and in the
    claim's scope (all its SMs for a per-chip claim)."""
    if not claim["tables"]:
        claim["tables_sram"] = None
        return
    ests = [dict(model.estimate(t["entries"], t["width"], t["ports"], t.get("banks", 1)), name=t["name"])
            for t in claim["tables"]]
    per_sm = sum(e["area_um2"] for e in ests) / 1e6
    scope = claim.get("sms", 1) if claim["unit"] == "mm2_chip" else 1
    claim["tables_sram"] = {"tables": ests, "bits_per_sm": sum(e["bits"] for e in ests),
                            "mm2_per_sm": per_sm, "mm2_in_claim_scope": per_sm * scope}


def text(meta, rows, claims):
    lines = []
    lib = meta["library"]
    lines.append(f"Heddle synthesis flow: {lib['name']} ({lib['area_source']} areas, "
                 f"{'SPICE' if lib['spice'] else 'no'} transistor counts), FO4 {lib['fo4_ps']:.1f} ps, "
                 f"NAND2 {lib['nand2']} {lib['nand2_um2']:.2f} um2")
    t = meta["target"]
    g = meta["gpu"]
    lines.append(f"40 nm target: NAND2 {t['nand2_um2']:.3f} um2 / utilisation {t['utilisation']:.2f} "
                 f"= {t['logic_um2_per_ge']:.3f} um2 per GE, FO4 {t['fo4_ps']:.1f} ps; "
                 f"{g['name']}: {g['num_sms']} SMs, core {g['core_mhz']:.0f} MHz "
                 f"({1e6 / g['core_mhz']:.1f} ps)" + ("; SMOKE parameter sets" if meta["smoke"] else ""))
    lines.append("")
    hdr = ("block", "cells", "FFs", "transist", "um2(lib)", "GE", "crit ps", "FO4",
           "40nm um2 ff", "40nm um2 sram", "/SM", "mm2/SM", "mm2/chip", "cycles", "lat")
    wide = max([16] + [len(r["block"]) + 1 for r in rows])     # [<block>:<config>] rows are longer
    fmt = "{:<" + str(wide) + "} {:>7} {:>6} {:>9} {:>10} {:>8} {:>8} {:>6} {:>11} {:>13} {:>3} {:>8} {:>8} {:>6} {:>3}"
    lines.append(fmt.format(*hdr))
    for r in rows:
        name = r["block"] + ("*" if r.get("fixture") else "")
        if not r.get("ok"):
            lines.append(fmt.format(name, *(["-"] * 14)))
            continue
        n = r["numbers"]
        m = n["mapped"]
        tim = n.get("timing") or {}
        lines.append(fmt.format(
            name, m["cells"], m["flip_flops"], _f(m["transistors"]), _f(m["area_um2"]),
            _f(m["ge"]), _f(tim.get("crit_ps")), _f(tim.get("crit_fo4"), "{:.1f}"),
            _f(n["area40_flops_um2"]), _f(n["area40_sram_um2"]), r["per_sm"],
            _f(n["per_sm_mm2"]["best"], "{:.5f}"), _f(n["per_chip_mm2"]["best"], "{:.4f}"),
            _f(tim.get("cycles"), "{:.2f}"), _f(n["latency_cycles"])))
    for r in rows:
        if r.get("ok"):
            lines.append(f"  {r['block']}: {_params(r['params'])}; worst path "
                         f"{(r['numbers'].get('timing') or {}).get('start') or '-'} -> "
                         f"{(r['numbers'].get('timing') or {}).get('end') or '-'}")
            for a in r["numbers"]["arrays"]:
                lines.append(f"    array {a['name']}: {a['entries']}x{a['width']} {a['port_spec']} "
                             f"as SRAM {a['area_um2']:.0f} um2, access {a['access_ps']:.0f} ps, "
                             f"read {a['read_energy_pj']:.2f} pJ"
                             + (f" [{a['cacti_limit']}]" if a["cacti_limit"] else "")
                             + ("" if a["in_range"] else " (outside the calibrated shapes)"))
        elif r.get("error"):
            lines.append(f"  {r['block']}: FAILED: {r['error']}")
        else:
            lines.append(f"  {r['block']}: not built yet")
    lines.append("")
    lines.append("* flow test fixture (synth/tests), not Heddle RTL. Area: 'best' = SRAM variant "
                 "when the block has storage arrays, else flip-flops.")
    lines.append("")
    cfmt = "{:<40} {:<42} {:<20} {:<16} {}"
    lines.append(cfmt.format("paper", "claim", "tables as SRAM", "Heddle logic", "Heddle"))
    for c in claims:
        ts = c.get("tables_sram")
        unit = f" mm2/{c['sms']} SMs" if c["unit"] == "mm2_chip" else " mm2/SM"
        tab = "-" if not ts else f"{ts['mm2_in_claim_scope']:.4f}{unit}"
        logic = c.get("heddle_logic_mm2")
        lines.append(cfmt.format(c["paper"], c["figure"], tab,
                                 "-" if logic is None else f"{logic:.4f}", c["heddle"]))
    lines.append("")
    lines.append("tables as SRAM: the claim's own storage tables (synth/papers.ini) through Heddle's "
                 "SRAM model at 40 nm (shape, ports; CACTI's limits applied as docs/synth.md says).")
    lines.append("Heddle logic: the Yosys area of the claim's built blocks without their storage "
                 "arrays, same unit; Heddle: the blocks in the claim's unit.")
    for c in claims:
        ts = c.get("tables_sram")
        if not ts:
            continue
        parts = [f"{t['name']} {t['entries']}x{t['width']} {t['port_spec']} {t['area_um2']:.0f} um2 "
                 f"{t['access_ps'] / 1000:.2f} ns {t['read_energy_pj']:.2f} pJ"
                 + ("*" if t["cacti_limit"] else "") for t in ts["tables"]]
        lines.append(f"  {c['key']}: " + "; ".join(parts))
    lines.append("  (* below CACTI's limits: priced as the nearest accepted array scaled by bits)")
    return "\n".join(lines) + "\n"


def write_json(path, meta, rows, claims):
    """The JSON report, written atomically (outfile.py)."""
    outfile.write_json(path, {"meta": meta, "blocks": rows, "papers": claims}, "--json")
