# SPDX-License-Identifier: MIT
"""main - the command line of the synthesis flow (synth/run.sh).

For every block (blocks.py): Yosys to generic gates and to the liberty (yosys.py), OpenSTA for
the critical path (sta.py), the SRAM model for storage arrays (sram.py), 40 nm scaling and the
per-SM / per-chip totals (metrics.py), then one table, text and JSON, beside the papers'
claims (report.py). Exit status: 0 every block synthesized, 1 a block failed (latch, syntax or
tool error; the table still shows the others), 2 usage or input error.
"""

import argparse
import concurrent.futures
import os
import sys
import time

from . import blocks as blocksmod
from . import cellinfo, ini, liberty, metrics, outfile, report, sram, sta, yosys
from .errors import FlowError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_LIB = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"


def _args(argv):
    ap = argparse.ArgumentParser(
        prog="synth/run.sh",
        description="Area and critical path of every RTL block (Yosys, OpenSTA), scaled to 40 nm, "
                    "beside the papers' figures. Details: docs/synth.md.")
    ap.add_argument("--liberty", default=DEFAULT_LIB, help="standard-cell library (default osu018)")
    ap.add_argument("--lef", help="LEF with the cells' footprints (default: beside the liberty)")
    ap.add_argument("--spice", help="SPICE netlist of the cells, for transistor counts "
                    "(default: beside the liberty)")
    ap.add_argument("--block", action="append", default=[], metavar="NAME",
                    help="synthesize only this block (repeatable)")
    ap.add_argument("--smoke", action="store_true",
                    help="small parameter sets (blocks.ini smoke_params): the fast CI run")
    ap.add_argument("--gpu-config", help="GPU configuration (default: blocks.ini [flow] gpu_config)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "synth"),
                    help="work and report directory (default build/synth)")
    ap.add_argument("--json", help="JSON report path (default OUT/synth.json)")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per tool run")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="blocks synthesized in parallel")
    ap.add_argument("--sram", nargs=3, metavar=("ROWS", "BITS", "PORTS"),
                    help="print the SRAM model's area (mm2 at 40 nm), access time and read energy "
                         "of one array (PORTS: 1RW, 1R1W, 2R1W, ... or a number) and exit")
    ap.add_argument("--banks", type=int, default=1, help="banks of the --sram array (default 1)")
    ap.add_argument("--sram-check", action="store_true",
                    help="print the SRAM model's error on every CACTI calibration point and exit")
    ap.add_argument("--tech", default=os.path.join(ROOT, "synth", "tech40.ini"), help=argparse.SUPPRESS)
    ap.add_argument("--blocks-ini", default=os.path.join(ROOT, "synth", "blocks.ini"), help=argparse.SUPPRESS)
    ap.add_argument("--papers", default=os.path.join(ROOT, "synth", "papers.ini"), help=argparse.SUPPRESS)
    return ap.parse_args(argv)


def _gpu(path):
    cfg = ini.read(path)
    return {"name": cfg.get("gpu", "name", os.path.basename(path)), "path": path,
            "num_sms": cfg.number("gpu", "num_sms", integer=True),
            "core_mhz": cfg.number("clock", "core_mhz")}


def _claims(path):
    cfg = ini.read(path)
    out = []
    for sec in cfg.sections:
        if not sec:
            continue
        c = {"key": sec}
        for key in ("paper", "figure", "meaning", "source", "unit", "mechanism"):
            c[key] = cfg.need(sec, key)
        c["value"] = cfg.number(sec, "value")
        if cfg.has(sec, "sms"):
            c["sms"] = cfg.number(sec, "sms", integer=True)
        if cfg.has(sec, "block"):
            c["block"] = cfg.get(sec, "block")
        if c["unit"] not in ("mm2_chip", "mm2_sm", "bytes_sm", "bytes", "cycles"):
            raise FlowError(cfg.where(sec, "unit"), f"unknown unit '{c['unit']}'")
        c["tables"] = [{"name": a.name, "entries": a.entries, "width": a.width, "ports": a.port_spec,
                        "banks": a.banks}
                       for a in blocksmod.parse_arrays(cfg.get(sec, "tables", ""), cfg.where(sec, "tables"))]
        out.append(c)
    return out


def _library(args):
    lib = liberty.Library(args.liberty)
    lef = args.lef or cellinfo.find_beside(args.liberty, [".lef"])
    spice = args.spice or cellinfo.find_beside(args.liberty, [".sp", ".spi", ".spice", ".cdl"])
    return lib, (cellinfo.lef_areas(lef) if lef else {}), (cellinfo.spice_transistors(spice) if spice else {}), lef, spice


def _one_block(blk, args, lib, facts, tech, gpu, work_root):
    params = dict(blk.params)
    if args.smoke:
        params.update(blk.smoke_params)
    arrays = blocksmod.block_arrays(blk, params)   # sizes of this run's parameters
    params, skipped = blocksmod.applicable(blk, params)
    work = os.path.join(work_root, blk.name.replace(":", "."))
    period_ps = 1e6 / gpu["core_mhz"]
    delay_target = period_ps * facts.fo4["fo4_ps"] / tech.fo4_ps
    t0 = time.monotonic()
    syn = yosys.run(blk, params, lib, os.path.join(work, "flops"), "flops", delay_target, args.timeout)
    syn_sram = None
    if syn["memories"]:
        syn_sram = yosys.run(blk, params, lib, os.path.join(work, "sram"), "sram", delay_target, args.timeout)
    tim = sta.timing(blk.top, syn["netlist"], lib, facts.fo4, os.path.join(work, "flops"),
                     blk.clock, blk.reset, args.timeout)
    nums = metrics.block_numbers(blk, syn, syn_sram, tim, facts, tech, gpu["core_mhz"], gpu["num_sms"],
                                 arrays)
    return {"block": blk.name, "ok": True, "fixture": blk.fixture, "mechanism": blk.mechanism,
            "rtl_block": blk.base, "rtl_config": blk.config, "top": blk.top, "params": {k: v[0] for k, v in params.items()},
            "param_sources": {k: v[1] for k, v in params.items()},
            "params_not_in_rtl": skipped,
            "per_sm": blk.per_sm if blk.per_gpu is None else f"{blk.per_gpu}/GPU",
            "per_sm_source": blk.per_sm_where,
            "sources": [os.path.relpath(s, ROOT) for s in blk.sources],
            "numbers": nums, "seconds": round(time.monotonic() - t0, 1),
            "work": os.path.relpath(work, ROOT)}


def main(argv):
    try:
        args = _args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    try:
        return _run(args)
    except FlowError as e:
        print(f"synth: {e}", file=sys.stderr)
        return 2


def _sram_one(args, model):
    try:
        rows, bits = int(args.sram[0]), int(args.sram[1])
    except ValueError:
        raise FlowError("--sram", f"ROWS and BITS must be integers, got '{args.sram[0]}' '{args.sram[1]}'")
    e = model.estimate(rows, bits, args.sram[2], args.banks)
    print(f"SRAM {rows} x {bits} bits, {e['port_spec']}, {e['banks']} bank(s), "
          f"{model.feature_nm:g} nm (model: docs/synth.md, constants: synth/tech40.ini)")
    print(f"  area         {e['area_mm2']:.6f} mm2 ({e['area_um2']:.1f} um2; cells "
          f"{e['bits'] * e['cell_um2']:.1f} um2, array efficiency {e['efficiency']:.2f})")
    print(f"  access time  {e['access_ps'] / 1000:.3f} ns")
    print(f"  read energy  {e['read_energy_pj'] / 1000:.6f} nJ ({e['read_energy_pj']:.3f} pJ)")
    print(f"  organisation column mux {e['mux']}:1, {e['array_rows']} rows x {e['array_cols']} "
          f"columns per bank" + (f" (of {e['priced_as'][0]} x {e['priced_as'][1]})" if e["cacti_limit"] else ""))
    if e["cacti_limit"]:
        p = e["physical"]
        print(f"  CACTI limit  {e['cacti_limit']}")
        print(f"               (the model for exactly {rows} x {bits}: {p['area_um2'] / 1e6:.6f} mm2, "
              f"{p['access_ps'] / 1000:.3f} ns, {p['read_energy_pj'] / 1000:.6f} nJ)")
    if not e["in_range"]:
        print("  note         outside the calibrated shapes (rows %d-%d, bits %d-%d, ports %d-%d, "
              "banks %d-%d): an extrapolation" % (*model.span_rows, *model.span_width,
                                                  *model.span_ports, *model.span_banks))
    return 0


def _run(args):
    tech_ini = ini.read(args.tech)
    tech = metrics.Tech(tech_ini, sram.SramModel(tech_ini))
    if args.sram:
        return _sram_one(args, tech.sram)
    if args.banks != 1:
        raise FlowError("--banks", "only goes with --sram ROWS BITS PORTS")
    if args.sram_check:
        from . import sramfit
        print(sramfit.table(sramfit.errors(tech.sram, sramfit.points())))
        return 0
    blocks_cfg = ini.read(args.blocks_ini)
    gpu_path = args.gpu_config or os.path.join(ROOT, blocks_cfg.get("flow", "gpu_config", "configs/fermi-gtx480.ini"))
    # no report may overwrite an input or the other report (before anything runs)
    outfile.check_paths([("--liberty", args.liberty), ("--lef", args.lef), ("--spice", args.spice),
                         ("--gpu-config", gpu_path), ("--tech", args.tech),
                         ("--blocks-ini", args.blocks_ini), ("--papers", args.papers)],
                        [("--json", args.json or os.path.join(args.out, "synth.json")),
                         ("synth.txt", os.path.join(args.out, "synth.txt"))])
    gpu = _gpu(gpu_path)
    claims = _claims(args.papers)
    lib, lef_areas, spice_counts, lef, spice = _library(args)
    os.makedirs(args.out, exist_ok=True)
    fo4 = sta.fo4(lib, os.path.join(args.out, "_fo4"), args.timeout)
    facts = metrics.LibFacts(lib, lef_areas, spice_counts, fo4)
    blks = blocksmod.discover(ROOT, args.blocks_ini, set(args.block) if args.block else None)
    if args.smoke:
        for b in blks:
            if b.smoke_skip:
                print(f"synth: {b.name} left out of --smoke: {b.smoke_skip}", file=sys.stderr)
        blks = [b for b in blks if not b.smoke_skip]
    def one(blk):
        print(f"synth: {blk.name} ...", file=sys.stderr, flush=True)
        try:
            return _one_block(blk, args, lib, facts, tech, gpu, args.out)
        except FlowError as e:
            print(f"synth: {e}", file=sys.stderr)
            return {"block": blk.name, "ok": False, "fixture": blk.fixture,
                    "mechanism": blk.mechanism, "error": str(e), "per_sm": blk.per_sm}

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(one, blks))        # tools run as subprocesses; order kept
    failed = sum(1 for r in rows if not r["ok"])
    built = {r["block"] for r in rows}
    if not args.block:
        for name, mech in sorted(blocksmod.listed_names(args.blocks_ini).items()):
            if name not in built:
                rows.append({"block": name, "ok": False, "mechanism": mech, "per_sm": "-"})
    for c in claims:
        c["heddle"], c["heddle_value"], c["heddle_blocks"] = report.heddle_figure(c, rows)
        report.price_tables(c, tech.sram)
        c["heddle_logic_mm2"] = report.heddle_logic(c, rows)
    meta = {
        "library": {"path": lib.path, "name": lib.name, "lef": lef, "spice": spice,
                    "area_source": facts.area_source, "area_mismatch_liberty_vs_lef": facts.mismatch,
                    "nand2": facts.nand2, "nand2_um2": facts.nand2_um2, "fo4_ps": fo4["fo4_ps"],
                    "fo4_slew_ns": fo4["slew_ns"], "fo4_inverter": fo4["inv"]},
        "target": {"feature_nm": tech.feature_nm, "nand2_um2": tech.nand2_um2, "fo4_ps": tech.fo4_ps,
                   "utilisation": tech.utilisation, "logic_um2_per_ge": tech.um2_per_ge,
                   "tech_file": os.path.relpath(args.tech, ROOT)},
        "gpu": gpu, "smoke": args.smoke,
        "timing_setup": {"period_ns": sta.PERIOD_NS, "input_slew": "FO4 slew, ideal driver",
                         "output_load": "4 x inverter input", "reset": "false path"},
    }
    txt = report.text(meta, rows, claims)
    sys.stdout.write(txt)
    outfile.write_atomic(os.path.join(args.out, "synth.txt"), txt, "synth.txt")
    report.write_json(args.json or os.path.join(args.out, "synth.json"), meta, rows, claims)
    return 1 if failed else 0
