# SPDX-License-Identifier: MIT
"""metrics - a block's numbers from its synthesis and timing results, and at 40 nm.

Library numbers: cells, flip-flops, transistors (SPICE device count per cell, when a SPICE
netlist is known), area (LEF footprint per cell when a LEF is known, else liberty area),
NAND2-equivalent gates GE = area / area of the library's smallest NAND2 (same source).
Scaling to the 40 nm target (tech40.ini): area40 = GE x NAND2 area at 40 nm / placement
utilisation; delay40 = delay in FO4 of this library x FO4 at 40 nm; cycles = delay40 / core
clock period. Storage: SRAM variant = the block's logic without its storage arrays (a Yosys run
without the inferred memories, or minus the flip-flops of the explicit arrays) plus the SRAM
model of each array (a macro: its area is CACTI-like layout, no utilisation factor).
"""

import math

from .errors import FlowError


class Tech:
    """The 40 nm target: nand2_um2, utilisation, um2_per_ge, fo4_ps, feature_nm, sram."""

    def __init__(self, ini, sram_model):
        self.feature_nm = ini.number("node", "feature_nm")
        ref = ini.number("logic", "nand2_ref_um2")
        ref_nm = ini.number("logic", "nand2_ref_nm")
        self.nand2_um2 = ref * (self.feature_nm / ref_nm) ** 2
        self.utilisation = ini.number("logic", "placement_utilisation")
        if self.utilisation > 1:
            raise FlowError(ini.where("logic", "placement_utilisation"),
                            "placement_utilisation is a fraction of the placed area (0 to 1)")
        self.um2_per_ge = self.nand2_um2 / self.utilisation
        self.fo4_ps = ini.number("logic", "fo4_ps")
        self.sram = sram_model


class LibFacts:
    """Per-cell area (LEF or liberty), transistors (SPICE), the NAND2 reference, FO4."""

    def __init__(self, lib, lef_areas, spice_counts, fo4info):
        self.lib = lib
        self.area_source = "lef" if lef_areas else "liberty"
        self.area = {}
        self.mismatch = {}
        for name, cell in lib.cells.items():
            a = lef_areas.get(name) if lef_areas else None
            self.area[name] = a if a is not None else cell.area
            if a is not None and abs(a - cell.area) > 1e-6:
                self.mismatch[name] = {"liberty": cell.area, "lef": a}
        self.transistors = spice_counts or {}
        self.nand2 = lib.nand2().name
        self.nand2_um2 = self.area[self.nand2]
        self.fo4 = fo4info


def library_numbers(cells_by_type, facts):
    area, ffs, trans, missing = 0.0, 0, 0, []
    for name, n in cells_by_type.items():
        area += n * facts.area[name]
        if facts.lib.cells[name].seq == "ff":
            ffs += n * _ff_bits(name)
        if name in facts.transistors:
            trans += n * facts.transistors[name]
        else:
            missing.append(name)
    return {"cells": sum(cells_by_type.values()), "flip_flops": ffs, "area_um2": area,
            "ge": area / facts.nand2_um2,
            "transistors": trans if not missing else None,
            "transistors_missing": sorted(missing)}


def _ff_bits(name):
    return 1            # multi-bit flops (ff_bank) would count their width; none in osu018


def _int(text):
    if text is None:
        return None
    digits = "".join(ch for ch in str(text) if ch.isdigit())
    return int(digits) if digits else None


def block_numbers(blk, syn, syn_sram, tim, facts, tech, core_mhz, num_sms, arrays=None):
    """arrays: the block's explicit arrays at this run's parameters (default blk.arrays)."""
    explicit = blk.arrays if arrays is None else arrays
    lib = library_numbers(syn["mapped"]["num_cells_by_type"], facts)
    gen = syn["generic"]
    out = {
        "generic": {"cells": gen.get("num_cells"),
                    "transistors_estimate": _int(gen.get("estimated_num_transistors"))},
        "mapped": lib,
        "storage_bits": lib["flip_flops"],
        "latency_cycles": blk.latency,
    }
    period_ps = 1e6 / core_mhz
    if tim and tim.get("crit_ps") is not None:
        fo4s = tim["crit_ps"] / facts.fo4["fo4_ps"]
        out["timing"] = dict(tim, crit_fo4=fo4s, crit40_ps=fo4s * tech.fo4_ps,
                             cycles=fo4s * tech.fo4_ps / period_ps)
    else:
        out["timing"] = tim
    flops40 = lib["ge"] * tech.um2_per_ge
    out["area40_flops_um2"] = flops40
    out["area40_quadratic_um2"] = lib["area_um2"] * (tech.feature_nm / 180.0) ** 2
    arrays = []
    ge_rest = None
    if syn.get("memories"):
        for m in syn["memories"]:
            ports = f"{m['rd']}R{m['wr']}W" if m["rd"] and m["wr"] else max(1, m["rd"] + m["wr"])
            est = tech.sram.estimate(m["size"], m["width"], ports)
            arrays.append(dict(est, name=m["name"], source="inferred by Yosys ($mem)"))
        if syn_sram is not None:
            ge_rest = library_numbers(syn_sram["mapped"]["num_cells_by_type"], facts)["ge"]
    if explicit:
        ffs = [(n, facts.area[n]) for n in syn["mapped"]["num_cells_by_type"]
               if facts.lib.cells[n].seq == "ff"]
        ff_um2 = (sum(a for _, a in ffs) / len(ffs)) if ffs else 0.0
        ge_rest = lib["ge"] if ge_rest is None else ge_rest
        for a in explicit:
            est = tech.sram.estimate(a.entries, a.width, a.port_spec, a.banks)
            arrays.append(dict(est, name=a.name, source="synth/blocks.ini arrays"))
            ge_rest -= a.entries * a.width * ff_um2 / facts.nand2_um2
    out["arrays"] = arrays
    if arrays and ge_rest is not None:
        out["logic40_um2"] = max(0.0, ge_rest) * tech.um2_per_ge
        out["area40_sram_um2"] = out["logic40_um2"] + sum(x["area_um2"] for x in arrays)
    else:
        out["logic40_um2"] = flops40
        out["area40_sram_um2"] = None
    # A global block (per_gpu) is spread over the SMs, so that per chip = per SM x num_sms.
    per_sm = blk.per_sm if blk.per_gpu is None else blk.per_gpu / num_sms
    out["logic_per_sm_mm2"] = out["logic40_um2"] * per_sm / 1e6
    best = out["area40_sram_um2"] if out["area40_sram_um2"] is not None else flops40
    out["per_sm_mm2"] = {"flops": flops40 * per_sm / 1e6,
                         "sram": None if out["area40_sram_um2"] is None
                         else out["area40_sram_um2"] * per_sm / 1e6,
                         "best": best * per_sm / 1e6}
    out["per_chip_mm2"] = {k: (None if v is None else v * num_sms) for k, v in out["per_sm_mm2"].items()}
    out["storage_bytes_per_sm"] = lib["flip_flops"] * per_sm / 8.0
    return out


def ceil_or_none(x):
    return None if x is None else math.ceil(x - 1e-9)
