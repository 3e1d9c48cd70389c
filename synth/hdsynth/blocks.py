# SPDX-License-Identifier: MIT
"""blocks - which RTL blocks the flow synthesizes, with their parameter sets and context.

A block is a directory rtl/<block>/ holding <block>_ports.def (the block's interface, defined
once, style rule G1) and its Verilog; its top module is <block> unless synth/blocks.ini says
otherwise. synth/blocks.ini may also list blocks outside rtl/ (the flow's own fixtures, with
dir = ...) and gives each block its context: instances per SM, the paper mechanism it belongs
to, explicit storage arrays, parameter overrides and the smaller parameter set of --smoke.
Parameters start from the block's named RTL configuration configs/rtl/<block>.ini (rule R4),
which feeds the C model and Verilator too; blocks.ini's params override them.
A section [<block>:<config>] is the same block synthesized once more in configuration [<config>]
of configs/rtl/<block>.ini (e.g. zorua_map:smt, Zorua's scratchpad mapping table): its own row,
its keys those of [<block>] unless it gives them (never params or rtl_config: the name says the
configuration). Array sizes may be expressions of the parameters, tab_q:{Rows*Sets}x{PW+1}, so that
one arrays key prices every configuration.
"""

import ast
import glob
import os
import re

from . import ini as inimod
from . import sram
from .errors import FlowError

_ROW = re.compile(r"^\s*HD_BLOCK\s*\(\s*(\w+)\s*,\s*([^,]+?)\s*,", re.M)


class Array:
    """An explicit storage array: name (RTL register), entries, width, ports (count),
    port_spec (as written: 1RW, 1R1W, 2R1W or a count), banks."""

    def __init__(self, name, entries, width, ports, port_spec=None, banks=1):
        self.name, self.entries, self.width, self.ports = name, entries, width, ports
        self.port_spec = port_spec if port_spec is not None else str(ports)
        self.banks = banks


class Block:
    def __init__(self, name, base=None):
        self.name = name            # the row's name: <block> or <block>:<config>
        self.base = base or name    # the RTL block (its folder, configs/rtl/<base>.ini)
        self.config = None          # the configuration a <block>:<config> row names
        self.top = self.base
        self.dir = None
        self.sources = []
        self.includes = []
        self.params = {}            # name -> (value text, where it came from)
        self.smoke_params = {}
        self.smoke_skip = ""        # why --smoke leaves the block out (blocks.ini smoke_skip)
        self.buffer_inputs = False  # ABC times inputs and flip-flop outputs from an X1 inverter
        self.per_sm = 1
        self.per_sm_where = "default (block not in synth/blocks.ini)"
        self.per_gpu = None         # instances per GPU for a global block (replaces per_sm)
        self.fixture = False
        self.mechanism = None
        self.arrays = []
        self.arrays_text, self.arrays_where = "", None   # as written (sizes may be expressions)
        self.latency = None         # cycles, from HD_BLOCK in the ports.def
        self.ports_def = None
        self.clock = "clk_i"        # HD_CLOCK / HD_RESET rows of the ports.def, else these
        self.reset = "rst_ni"


def _params(text, where):
    out = {}
    for item in text.split():
        if "=" not in item:
            raise FlowError(where, f"parameter '{item}' is not NAME=VALUE")
        key, val = item.split("=", 1)
        if not re.fullmatch(r"[A-Za-z_]\w*", key) or not val:
            raise FlowError(where, f"parameter '{item}' is not NAME=VALUE")
        out[key] = (val, where)
    return out


_SIZE = r"(\d+|\{[^{}]*\})"
_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.FloorDiv: lambda a, b: a // b}


def size_expr(text, params, where):
    """An array size: an integer, or {EXPR} of integers, parameter names, + - * // and
    parentheses, evaluated with params ({name: (value text, where)})."""
    if not text.startswith("{"):
        return int(text)

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in (params or {}):
                raise FlowError(where, f"array size {text}: no parameter '{node.id}'",
                                f"parameters: {', '.join(sorted(params or {})) or 'none'}")
            try:
                return int(params[node.id][0], 0)
            except ValueError:
                raise FlowError(where, f"array size {text}: parameter {node.id} = "
                                f"'{params[node.id][0]}' is not an integer")
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        raise FlowError(where, f"array size {text}: only integers, parameter names, + - * // "
                               "and parentheses")
    try:
        tree = ast.parse(text[1:-1].strip(), mode="eval")
    except SyntaxError:
        raise FlowError(where, f"array size {text} is not an expression")
    val = ev(tree)
    if val < 1:
        raise FlowError(where, f"array size {text} = {val}: must be positive")
    return val


def parse_arrays(text, where, params=None):
    """NAME:ENTRIESxWIDTH[:PORTS[:BANKS]] items; PORTS a count or 1RW, 1R1W, 2R1W, ...;
    ENTRIES and WIDTH integers or {expressions} of params (size_expr)."""
    out = []
    for item in text.split():
        m = re.fullmatch(rf"(\w+):{_SIZE}x{_SIZE}(?::(\w+))?(?::(\d+))?", item)
        if not m:
            raise FlowError(where, f"array '{item}' is not NAME:ENTRIESxWIDTH[:PORTS[:BANKS]]")
        spec = m.group(4) or "1RW"
        try:
            count, _ = sram.parse_ports(spec)
        except FlowError as e:
            raise FlowError(where, f"array '{item}': {e}")
        banks = int(m.group(5) or 1)
        if banks < 1 or banks & (banks - 1):
            raise FlowError(where, f"array '{item}': banks must be a power of two")
        out.append(Array(m.group(1), size_expr(m.group(2), params, where),
                         size_expr(m.group(3), params, where), count, spec, banks))
    return out


def _rtl_config(root, blk, section):
    path = os.path.join(root, "configs", "rtl", f"{blk.base}.ini")
    if not os.path.isfile(path):
        return
    cfg = inimod.read(path)
    # [block] holds the block's own keys (family, owner, CI choices: cosim/block_meta.cmake)
    confs = {name: keys for name, keys in cfg.sections.items() if name != "block"}
    names = [s for s in confs if confs[s]]
    if section:
        if section not in confs:
            raise FlowError(path, f"no configuration [{section}] (synth/blocks.ini asks for it)",
                            f"sections: {', '.join(names)}")
        pick = section
    elif len(names) == 1:
        pick = names[0]
    elif "default" in confs:
        pick = "default"
    else:
        raise FlowError(path, "several named configurations and none chosen",
                        f"set rtl_config = one of {', '.join(names)} in synth/blocks.ini")
    for key, (val, line) in confs[pick].items():
        blk.params[key] = (val, f"{path}:{line}")


def _read_ports_def(blk, path):
    blk.ports_def = path
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for kind, attr in (("HD_CLOCK", "clock"), ("HD_RESET", "reset")):
        row = re.search(rf"^\s*{kind}\s*\(\s*(\w+)\s*\)", text, re.M)
        if row:
            setattr(blk, attr, row.group(1))
    m = _ROW.search(text)
    if m:
        try:
            blk.latency = int(m.group(2), 0)
        except ValueError:
            blk.latency = None


def _sources(blk, root):
    files = sorted(glob.glob(os.path.join(blk.dir, "*.sv")) + glob.glob(os.path.join(blk.dir, "*.v")))
    blk.sources = [f for f in files if not re.search(r"_tb\.s?v$", f)]
    if not blk.sources:
        raise FlowError(blk.dir, f"block {blk.name}: no Verilog sources (*.sv, *.v)")
    blk.includes = [d for d in (os.path.join(root, "rtl", "include"), blk.dir) if os.path.isdir(d)]


def declared_params(blk):
    """Names of the (non-local) parameters of the block's top module, from its source text."""
    for src in blk.sources:
        with open(src, encoding="utf-8", errors="replace") as f:
            text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", f.read(), flags=re.S)
        m = re.search(rf"\bmodule\s+{re.escape(blk.top)}\s*#\s*\((.*?)\)\s*\(", text, re.S)
        if m:
            return set(re.findall(r"\bparameter\b[^=,;]*?(\w+)\s*=", m.group(1)))
        if re.search(rf"\bmodule\s+{re.escape(blk.top)}\b", text):
            return set(re.findall(r"\bparameter\b[^=,;]*?(\w+)\s*=", text))
    raise FlowError(blk.dir, f"block {blk.name}: no module {blk.top} in {', '.join(blk.sources)}")


def applicable(blk, params):
    """(params the top declares, names skipped): keys of configs/rtl/ that the RTL does not
    declare (C-model-only keys) are skipped; an undeclared blocks.ini override is an error."""
    decl = declared_params(blk)
    use, skipped = {}, []
    for name, (val, where) in params.items():
        if name in decl:
            use[name] = (val, where)
        elif "configs" + os.sep + "rtl" in where:
            skipped.append(name)
        else:
            raise FlowError(where, f"block {blk.name}: module {blk.top} has no parameter '{name}'",
                            f"its parameters: {', '.join(sorted(decl)) or 'none'}")
    return use, skipped


class _Keys:
    """A blocks.ini section's keys, falling back to its block's [<block>] section for a
    [<block>:<config>] row (never for params or rtl_config)."""

    OWN = ("params", "rtl_config")

    def __init__(self, cfg, sec, base_sec=None):
        self.cfg, self.sec, self.base = cfg, sec, base_sec

    def _src(self, key):
        if self.cfg.has(self.sec, key) or self.base is None or key in self.OWN:
            return self.sec
        return self.base if self.cfg.has(self.base, key) else self.sec

    def has(self, key):
        return self.cfg.has(self._src(key), key)

    def get(self, key, default=None):
        return self.cfg.get(self._src(key), key, default)

    def where(self, key=None):
        return self.cfg.where(self._src(key) if key else self.sec, key)

    def number(self, key, **kw):
        return self.cfg.number(self._src(key), key, **kw)


def _context(root, blk, keys):
    """Fills blk from its blocks.ini keys (and its RTL configuration)."""
    blk.top = keys.get("top", blk.top)
    if keys.has("per_sm"):
        blk.per_sm = keys.number("per_sm", integer=True)
        blk.per_sm_where = keys.where("per_sm")
    if keys.has("per_gpu"):
        blk.per_gpu = keys.number("per_gpu", integer=True)
        blk.per_sm_where = keys.where("per_gpu")
    blk.fixture = keys.get("fixture", "false").lower() in ("1", "true", "yes")
    blk.mechanism = keys.get("mechanism")
    _rtl_config(root, blk, blk.config or keys.get("rtl_config"))
    blk.params.update(_params(keys.get("params", ""), keys.where("params")))
    blk.arrays_text, blk.arrays_where = keys.get("arrays", ""), keys.where("arrays")
    blk.arrays = parse_arrays(blk.arrays_text, blk.arrays_where, blk.params)
    blk.smoke_params = _params(keys.get("smoke_params", ""), keys.where("smoke_params"))
    blk.smoke_skip = keys.get("smoke_skip", "")
    if keys.has("buffer_inputs"):
        flag = keys.get("buffer_inputs").strip().lower()
        if flag not in ("true", "false"):
            raise FlowError(keys.where("buffer_inputs"),
                            f"buffer_inputs must be true or false, got '{flag}'")
        blk.buffer_inputs = flag == "true"


def _config_row(root, cfg, sec, found):
    """The Block of a [<block>:<config>] section: <block>'s RTL in configuration <config>."""
    base_name, conf = sec.split(":", 1)
    where = cfg.where(sec)
    if not re.fullmatch(r"\w+", base_name) or not re.fullmatch(r"\w+", conf):
        raise FlowError(where, f"section [{sec}] is not [BLOCK:CONFIG]")
    if cfg.has(sec, "rtl_config") or cfg.has(sec, "dir"):
        key = "rtl_config" if cfg.has(sec, "rtl_config") else "dir"
        raise FlowError(cfg.where(sec, key), f"[{sec}] names its block and configuration: "
                        f"no {key} key")
    base = found.get(base_name)
    if base is None:
        return None        # the block has not landed: a dash, as for [<block>]
    if not os.path.isfile(os.path.join(root, "configs", "rtl", f"{base_name}.ini")):
        raise FlowError(where, f"[{sec}]: block {base_name} has no configs/rtl/{base_name}.ini "
                               f"to take [{conf}] from")
    blk = Block(sec, base_name)
    blk.config = conf
    blk.dir = base.dir
    blk.ports_def, blk.latency, blk.clock, blk.reset = base.ports_def, base.latency, base.clock, base.reset
    blk.top = base.top
    _context(root, blk, _Keys(cfg, sec, base_name if cfg.has(base_name) else None))
    return blk


def discover(root, blocks_ini, only=None):
    """The blocks to synthesize, in name order; only: a set of names (error if unknown)."""
    cfg = inimod.read(blocks_ini) if os.path.isfile(blocks_ini) else inimod.Ini(blocks_ini, {})
    found = {}
    for pdef in sorted(glob.glob(os.path.join(root, "rtl", "*", "*_ports.def"))):
        name = os.path.basename(os.path.dirname(pdef))
        if os.path.basename(pdef) != f"{name}_ports.def":
            continue
        blk = Block(name)
        blk.dir = os.path.dirname(pdef)
        _read_ports_def(blk, pdef)
        found[name] = blk
    for sec in cfg.sections:
        if sec in ("", "flow") or ":" in sec:
            continue
        blk = found.get(sec) or Block(sec)
        where = cfg.where(sec)
        if cfg.has(sec, "dir"):
            blk.dir = os.path.join(root, cfg.get(sec, "dir"))
        if blk.dir is None or not os.path.isdir(blk.dir):
            if sec not in found:
                # listed for a block that has not landed yet: the report shows a dash
                continue
            raise FlowError(where, f"block {sec}: directory {blk.dir} does not exist")
        pdef = os.path.join(blk.dir, f"{sec}_ports.def")
        if blk.ports_def is None and os.path.isfile(pdef):
            _read_ports_def(blk, pdef)
        _context(root, blk, _Keys(cfg, sec))
        found[sec] = blk
    for blk in found.values():
        if not blk.params:
            _rtl_config(root, blk, None)
        _sources(blk, root)
    # [<block>:<config>] rows, after their blocks (whatever the order of the file)
    for sec in cfg.sections:
        if ":" in sec:
            blk = _config_row(root, cfg, sec, found)
            if blk is not None:
                _sources(blk, root)
                found[sec] = blk
    if only:
        unknown = sorted(set(only) - set(found))
        if unknown:
            raise FlowError(None, f"unknown block(s): {', '.join(unknown)}",
                            f"known: {', '.join(sorted(found)) or 'none'}")
        found = {k: v for k, v in found.items() if k in only}
    return [found[k] for k in sorted(found)]


def block_arrays(blk, params):
    """The block's arrays with their sizes evaluated for the parameters of the run (--smoke's
    smaller set changes them)."""
    return parse_arrays(blk.arrays_text, blk.arrays_where, params)


def listed_names(blocks_ini):
    """Every block name synth/blocks.ini mentions (built or not), for the report's dashes."""
    if not os.path.isfile(blocks_ini):
        return {}
    cfg = inimod.read(blocks_ini)
    return {sec: cfg.get(sec, "mechanism") for sec in cfg.sections if sec not in ("", "flow")}
