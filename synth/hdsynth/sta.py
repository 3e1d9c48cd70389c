# SPDX-License-Identifier: MIT
"""sta - timing with OpenSTA: the library's FO4 delay and a block's critical path.

FO4 is measured in the library itself: a chain of the smallest inverter where every stage
drives four copies of itself (the next stage plus three loads); the delay of a middle stage,
the mean of its rising and falling arcs (report_dcalc), is the FO4 delay, and its output slew
is the "FO4 slew" used below.

A block is timed with ideal clocks on its clock port (a virtual clock for purely combinational
blocks), every other input arriving at the clock edge with the FO4 slew from an ideal driver,
every output required at the next edge and loaded with four inverter inputs, and no wire load.
The asynchronous reset is a false path (it would be a buffered reset tree). The clock period
is long (100 ns) so that every path meets it: critical path = period - worst slack, i.e. the
shortest clock period the netlist meets, setup time included.
"""

import os
import re
import subprocess

from .errors import FlowError

PERIOD_NS = 100.0


def _sta(tcl_path, log_path, timeout):
    try:
        proc = subprocess.run(["sta", "-no_init", "-exit", tcl_path], capture_output=True,
                              text=True, timeout=timeout)
    except FileNotFoundError:
        raise FlowError(None, "OpenSTA (sta) is not installed", "run scripts/setup.sh (Debian package opensta)")
    except subprocess.TimeoutExpired:
        raise FlowError(tcl_path, f"OpenSTA took more than {timeout} s")
    out = proc.stdout + proc.stderr
    with open(log_path, "w", encoding="utf-8") as f:
        f.write(out)
    errs = [l for l in out.splitlines() if l.startswith("Error")]
    if proc.returncode != 0 or errs:
        raise FlowError(log_path, f"OpenSTA failed: {errs[0] if errs else 'exit ' + str(proc.returncode)}")
    return out


def _tcl_path(path):
    return "{" + path + "}"


def fo4(lib, work, timeout=300):
    """dict: fo4_ps, slew_ns, inv (cell name), inv_cap_pf, from a characterization netlist."""
    os.makedirs(work, exist_ok=True)
    inv = lib.inverter()
    a, y = inv.inputs[0], inv.outputs[0]
    stages = 4
    lines = ["module hd_fo4 (in, out);", "  input in;", "  output out;"]
    nets = ["in"] + [f"n{i}" for i in range(1, stages + 1)]
    lines.append("  wire " + ", ".join(nets[1:] + [f"l{i}_{k}" for i in range(stages) for k in range(3)]) + ";")
    for i in range(stages):
        lines.append(f"  {inv.name} s{i} (.{a}({nets[i]}), .{y}({nets[i + 1]}));")
        for k in range(3):
            lines.append(f"  {inv.name} l{i}_{k} (.{a}({nets[i + 1]}), .{y}(l{i}_{k}));")
    lines += ["  assign out = n%d;" % stages, "endmodule", ""]
    vpath = os.path.join(work, "fo4.v")
    with open(vpath, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    cap = inv.pin_cap.get(a, 0.0) * lib.cap_pf
    tcl = os.path.join(work, "fo4.tcl")
    with open(tcl, "w", encoding="utf-8") as f:
        f.write(f"""set_cmd_units -time ns -capacitance pF
read_liberty {_tcl_path(lib.path)}
read_verilog {_tcl_path(vpath)}
link_design hd_fo4
report_dcalc -from [get_pins s2/{a}] -to [get_pins s2/{y}] -digits 6
""")
    out = _sta(tcl, os.path.join(work, "fo4.log"), timeout)
    delays = [float(x) for x in re.findall(r"^Delay = ([0-9.eE+-]+)", out, re.M)]
    slews = [float(x) for x in re.findall(r"^Slew = ([0-9.eE+-]+)", out, re.M)]
    if len(delays) < 2:
        raise FlowError(os.path.join(work, "fo4.log"), f"no rise/fall delays for {inv.name} in report_dcalc")
    # report_dcalc prints in the library's time unit
    scale = lib.time_ns
    return {"fo4_ps": 1000.0 * scale * sum(delays[:2]) / 2, "slew_ns": scale * sum(slews[:2]) / 2,
            "inv": inv.name, "inv_cap_pf": cap}


def timing(top, netlist, lib, fo4info, work, clock=None, reset=None, timeout=1800):
    """dict: crit_ps, start, end, cells_on_path (worst path), sequential (has a clock)."""
    tcl = os.path.join(work, "timing.tcl")
    load = 4 * fo4info["inv_cap_pf"]
    with open(netlist, encoding="utf-8", errors="replace") as f:
        text = f.read()
    m = re.search(r"module\s+\\?(\S+)\s*\((.*?)\);", text, re.S)
    ports = set(p.strip().lstrip("\\") for p in m.group(2).split(",")) if m else set()
    has_clk = bool(clock) and clock in ports
    excl = [p for p in (clock if has_clk else None, reset if reset in ports else None) if p]
    clk_cmd = (f"create_clock -name clk -period {PERIOD_NS} [get_ports {clock}]" if has_clk
               else f"create_clock -name clk -period {PERIOD_NS}")
    ins = (f"[delete_from_list [all_inputs] [get_ports {{{' '.join(excl)}}}]]" if excl else "[all_inputs]")
    with open(tcl, "w", encoding="utf-8") as f:
        f.write(f"""set_cmd_units -time ns -capacitance pF
read_liberty {_tcl_path(lib.path)}
read_verilog {_tcl_path(netlist)}
link_design {top}
{clk_cmd}
set hd_ins {ins}
set_input_delay 0 -clock clk $hd_ins
set_input_transition {fo4info['slew_ns']:.6f} $hd_ins
set_output_delay 0 -clock clk [all_outputs]
set_load {load:.6f} [all_outputs]
""" + (f"set_false_path -from [get_ports {reset}]\n" if reset in ports else "") + """report_worst_slack -digits 4
report_checks -path_delay max -digits 4
""")
    out = _sta(tcl, os.path.join(work, "timing.log"), timeout)
    ws = re.search(r"^worst slack\s+([-0-9.eE+]+)", out, re.M)
    if not ws:
        return {"crit_ps": None, "start": None, "end": None, "cells_on_path": 0, "sequential": has_clk}
    start = re.search(r"^Startpoint:\s+(.*)$", out, re.M)
    end = re.search(r"^Endpoint:\s+(.*)$", out, re.M)
    insts = re.findall(r"^\s+[0-9.-]+\s+[0-9.-]+ [v^] (\S+)/\S+ \(", out, re.M)
    stages = len(dict.fromkeys(insts))          # distinct cells on the worst path
    return {"crit_ps": 1000.0 * (PERIOD_NS - float(ws.group(1))),
            "start": _name_point(start.group(1).strip(), text, lib) if start else None,
            "end": _name_point(end.group(1).strip(), text, lib) if end else None,
            "cells_on_path": stages, "sequential": has_clk}


def _name_point(point, netlist_text, lib):
    """'_123_ (rising edge-triggered flip-flop ...)' -> 'used_q[5] (flip-flop)': the register a
    flip-flop instance holds (its output net), so the report names RTL signals."""
    inst = point.split(" ", 1)[0]
    if "flip-flop" not in point and "latch" not in point:
        return point
    m = re.search(r"^\s*(\S+)\s+" + re.escape(inst) + r"\s*\((.*?)\);", netlist_text, re.S | re.M)
    if not m or m.group(1) not in lib.cells:
        return point
    for pin in lib.cells[m.group(1)].outputs:
        q = re.search(r"\." + re.escape(pin) + r"\(\s*([^)]*?)\s*\)", m.group(2))
        if q and q.group(1):
            net = q.group(1)
            names = [net] + re.findall(r"^\s*assign\s+(\S+(?:\s*\[\d+\])?)\s*=\s*" + re.escape(net) + r"\s*;",
                                       netlist_text, re.M)
            best = next((n for n in names if re.search(r"_q\b|_q\s*\[|_q\[", n)), names[0])
            return f"{best.replace(' ', '').lstrip(chr(92))} (flip-flop {inst})"
    return point
