# SPDX-License-Identifier: MIT
"""yosys - synthesize one block with Yosys: generic gates, then the liberty's cells.

One Yosys run per block and variant writes, into the block's work directory:
  generic.json   stat -json -tech cmos of the generic gate netlist (and its transistor estimate)
  mapped.json    stat -json of the netlist mapped with dfflibmap + abc -liberty
  mapped.v       the mapped netlist for OpenSTA (constants tied, nets split, no expressions)
  memories.txt   the RTLIL of the memories Yosys inferred ($mem_v2), before they become flops
  yosys.log      the full log
Variant "flops" maps every memory to flip-flops (what the RTL is); variant "sram" removes the
inferred memories and exposes their read data as inputs, so its area is the block without its
storage arrays (the SRAM model adds them back). A latch anywhere (Yosys' "Latch inferred"
message, a $dlatch/$_DLATCH_ cell, a liberty latch cell after mapping) or an unmapped internal
cell fails the block. ABC maps for a delay target and buffers/sizes gates (documented in
docs/synth.md). ABC sees the block's inputs and its flip-flop outputs as the inputs of its
network, ideally driven, and leaves them unbuffered; blocks.ini buffer_inputs = true drives them
from the library's smallest inverter (abc -constr) so that buffer -p gives them a buffer tree.
"""

import json
import os
import re
import subprocess

from .errors import FlowError

# topo (a depth-first copy of the mapped network) drops nodes that map left without a fanout, which
# buffer -p refuses ("node N has no fanout"; the 2048-bit word shifters of ctx_packer leave some);
# on a network without such nodes it changes nothing (ctx_unpacker maps to the same gates, area and
# delay with and without it).
ABC_SCRIPT = "+strash;dch,-f;map,-D,{d};topo;buffer,-p;upsize,-D,{d};dnsize,-D,{d};stime,-p"


def _q(path):
    """Yosys commands take paths as plain words: refuse whitespace instead of quoting."""
    if any(ch.isspace() for ch in path):
        raise FlowError(path, "path contains whitespace, which Yosys scripts cannot take")
    return path


def constraints(lib):
    """ABC's -constr file: inputs driven by the library's smallest inverter, outputs loaded with
    four of its inputs (the FO4 load OpenSTA puts on the block's outputs; ABC takes fF)."""
    inv = lib.inverter()
    cap_ff = 4 * sum(inv.pin_cap.get(a, 0.0) for a in inv.inputs) * lib.cap_pf * 1000.0
    return f"set_driving_cell {inv.name}\nset_load {cap_ff:.3f}\n"


def script(blk, params, liberty, work, variant, delay_ps, constr=None):
    inc = " ".join(f"-I {_q(d)}" for d in blk.includes)
    # -defer + hierarchy -chparam: the top is elaborated once, with the chosen parameters
    chp = " ".join(f"-chparam {name} {_q(params[name][0])}" for name in sorted(params))
    lines = [f"read_verilog -defer -sv -DHD_SYNTH {inc} {' '.join(_q(s) for s in blk.sources)}"]
    lines += [
        f"hierarchy -check -top {blk.top} {chp}",
        f"synth -top {blk.top} -flatten -run :fine",
        f"tee -q -o {_q(os.path.join(work, 'memories.txt'))} dump t:$mem_v2 t:$mem",
    ]
    if variant == "sram":
        lines += ["delete t:$mem_v2 t:$mem", "setundef -undriven -expose"]
    lines += [
        f"synth -top {blk.top} -flatten -run fine:",
        f"tee -q -o {_q(os.path.join(work, 'generic.json'))} stat -json -tech cmos",
        f"dfflibmap -liberty {_q(liberty)}",
        f"abc -liberty {_q(liberty)}{f' -constr {_q(constr)}' if constr else ''} "
        f"-script {ABC_SCRIPT.format(d=int(round(delay_ps)))}",
        "setundef -zero",
        "splitnets -ports -format __",
        "opt_clean -purge",
        f"tee -q -o {_q(os.path.join(work, 'mapped.json'))} stat -json",
        f"write_verilog -noattr -noexpr -nohex -nodec {_q(os.path.join(work, 'mapped.v'))}",
    ]
    return "\n".join(lines) + "\n"


def _cells(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise FlowError(path, f"cannot read Yosys statistics: {e}")
    design = data.get("design") or {}
    if not design and data.get("modules"):
        design = next(iter(data["modules"].values()))
    return design


def _memories(path):
    mems, cur = [], None
    if not os.path.isfile(path):
        return mems
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.split(None, 2)
            if len(parts) >= 3 and parts[0] == "cell" and parts[1].startswith("$mem"):
                cur = {"name": parts[2].strip(), "size": 0, "width": 0, "rd": 0, "wr": 0}
                mems.append(cur)
            elif cur is not None and len(parts) >= 3 and parts[0] == "parameter":
                key, val = parts[1].lstrip("\\"), parts[2].strip()
                num = re.match(r"(?:\d+')?([01]+)$", val)
                if key == "MEMID":
                    cur["name"] = val.strip('"').lstrip("\\")
                elif key in ("SIZE", "WIDTH", "RD_PORTS", "WR_PORTS"):
                    ival = int(num.group(1), 2) if num and "'" in val else int(val)
                    cur[{"SIZE": "size", "WIDTH": "width", "RD_PORTS": "rd", "WR_PORTS": "wr"}[key]] = ival
            elif parts and parts[0] == "end":
                cur = None
    return mems


def run(blk, params, lib, work, variant="flops", delay_ps=10000.0, timeout=3600):
    """Runs Yosys; returns dict generic (stat), mapped (stat), memories, netlist, log."""
    os.makedirs(work, exist_ok=True)
    ys = os.path.join(work, "synth.ys")
    log = os.path.join(work, "yosys.log")
    constr = None
    if blk.buffer_inputs:
        constr = os.path.join(work, "abc.constr")
        with open(constr, "w", encoding="utf-8") as f:
            f.write(constraints(lib))
    with open(ys, "w", encoding="utf-8") as f:
        f.write(script(blk, params, lib.path, work, variant, delay_ps, constr))
    try:
        proc = subprocess.run(["yosys", "-q", "-l", log, "-s", ys], capture_output=True,
                              text=True, timeout=timeout)
    except FileNotFoundError:
        raise FlowError(None, "yosys is not installed", "run scripts/setup.sh (Debian package yosys)")
    except subprocess.TimeoutExpired:
        raise FlowError(log, f"block {blk.name}: Yosys took more than {timeout} s")
    text = ""
    if os.path.isfile(log):
        with open(log, encoding="utf-8", errors="replace") as f:
            text = f.read()
    latches = sorted(set(re.findall(r"Latch inferred for signal `([^']+)'", text)))
    if proc.returncode != 0 and latches:
        raise FlowError(blk.dir, f"block {blk.name}: latch inferred: {'; '.join(latches)}",
                        "every storage element must be an always_ff flip-flop (see yosys.log)")
    if proc.returncode != 0:
        errs = [l.strip() for l in (text + proc.stderr).splitlines() if "ERROR" in l]
        raise FlowError(log, f"block {blk.name}: Yosys failed: "
                        f"{errs[0] if errs else (proc.stderr.strip() or 'exit ' + str(proc.returncode))}")
    generic = _cells(os.path.join(work, "generic.json"))
    mapped = _cells(os.path.join(work, "mapped.json"))
    gtypes = generic.get("num_cells_by_type", {})
    latches += [f"{n} x {t}" for t, n in gtypes.items() if "dlatch" in t.lower()
                or t.startswith("$_DLATCH") or t.startswith("$_SR_")]
    mtypes = mapped.get("num_cells_by_type", {})
    latches += [f"{n} x {t}" for t, n in mtypes.items() if t in lib.cells and lib.cells[t].seq == "latch"]
    if latches:
        raise FlowError(blk.dir, f"block {blk.name}: latch inferred: {'; '.join(latches)}",
                        "every storage element must be an always_ff flip-flop (see yosys.log)")
    unmapped = [t for t in mtypes if t.startswith("$")]
    if unmapped:
        raise FlowError(log, f"block {blk.name}: cells not mapped to the liberty: {', '.join(unmapped)}")
    unknown = [t for t in mtypes if t not in lib.cells]
    if unknown:
        raise FlowError(log, f"block {blk.name}: mapped cells missing from {lib.path}: {', '.join(unknown)}")
    return {"generic": generic, "mapped": mapped, "memories": _memories(os.path.join(work, "memories.txt")),
            "netlist": os.path.join(work, "mapped.v"), "log": log,
            "transistors_generic": _transistors(text)}


def _transistors(text):
    m = re.findall(r"Estimated number of transistors:\s+(\d+)", text)
    return int(m[-1]) if m else None
