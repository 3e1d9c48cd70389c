# SPDX-License-Identifier: MIT
"""liberty - what the flow needs from a Liberty (.lib) file.

Reads cell areas, the sequential kind of each cell (ff / latch groups), single-output functions,
input pin capacitances and the library's time and capacitance units. Identifies the reference
cells of the flow by their logic function, not their names, so that any library works: the
smallest-area inverter (FO4 characterization, the output load) and the smallest-area 2-input
NAND (the NAND2-equivalent gate, GE). Functions are evaluated to truth tables (operators
! ' * & space | + ^ and parentheses, per the Liberty reference).
"""

import itertools
import re

from .errors import FlowError

_TOKEN = re.compile(r'\s+|/\*.*?\*/|//[^\n]*|\\\n|"(?:[^"\\]|\\.)*"|[{}();:,]|[^\s{}();:,"]+',
                    re.S)


class Group:
    """A Liberty group: kind (cell, pin, ...), its name arguments, attributes and children."""

    __slots__ = ("kind", "args", "attrs", "children", "line")

    def __init__(self, kind, args, line):
        self.kind, self.args, self.line = kind, args, line
        self.attrs, self.children = {}, []

    def first(self, kind):
        return next((c for c in self.children if c.kind == kind), None)


def _tokens(text):
    line = 1
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if tok[0].isspace() or tok.startswith("/*") or tok.startswith("//") or tok == "\\\n":
            line += tok.count("\n")
            continue
        yield tok, line


def _parse(path, text):
    toks = list(_tokens(text))
    pos = 0

    def err(msg):
        ln = toks[min(pos, len(toks) - 1)][1] if toks else 1
        raise FlowError(f"{path}:{ln}", f"liberty syntax: {msg}")

    def group_body(grp, top=False):
        nonlocal pos
        while pos < len(toks):
            tok, ln = toks[pos]
            if tok == "}":
                pos += 1
                return
            name = tok
            pos += 1
            if pos >= len(toks):
                err("unexpected end of file")
            nxt = toks[pos][0]
            if nxt == ":":
                pos += 1
                vals = []
                while pos < len(toks) and toks[pos][0] not in (";", "}"):
                    vals.append(toks[pos][0])
                    pos += 1
                if pos < len(toks) and toks[pos][0] == ";":
                    pos += 1
                grp.attrs[name] = " ".join(vals).strip('"')
            elif nxt == "(":
                pos += 1
                args = []
                while pos < len(toks) and toks[pos][0] != ")":
                    if toks[pos][0] != ",":
                        args.append(toks[pos][0].strip('"'))
                    pos += 1
                pos += 1
                if pos < len(toks) and toks[pos][0] == "{":
                    pos += 1
                    child = Group(name, args, ln)
                    grp.children.append(child)
                    group_body(child)
                else:
                    if pos < len(toks) and toks[pos][0] == ";":
                        pos += 1
                    grp.attrs[name] = args
            else:
                err(f"unexpected '{nxt}' after '{name}'")
        if not top:
            err("unbalanced braces (end of file inside a group)")

    if len(toks) < 4 or toks[0][0] != "library":
        raise FlowError(str(path), "not a Liberty file (it does not start with 'library (')")
    root = Group("root", [], 1)
    group_body(root, top=True)
    lib = root.first("library")
    if lib is None:
        raise FlowError(str(path), "no library group")
    return lib


# {==== Boolean functions ====

def _eval_function(expr, env):
    """Evaluates a Liberty function string under env {pin: 0/1}; raises ValueError."""
    toks = re.findall(r"[A-Za-z_][A-Za-z0-9_\[\]\.]*|[01]|[!'*&|+^()]", expr)
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else None

    def atom():
        nonlocal pos
        tok = peek()
        if tok is None:
            raise ValueError("truncated")
        pos += 1
        if tok == "!":
            val = 1 - atom()
        elif tok == "(":
            val = orexp()
            if peek() != ")":
                raise ValueError("missing )")
            pos += 1
        elif tok in ("0", "1"):
            val = int(tok)
        elif tok in env:
            val = env[tok]
        else:
            raise ValueError(f"unknown pin {tok}")
        while peek() == "'":
            pos += 1
            val = 1 - val
        return val

    def andexp():
        nonlocal pos
        val = atom()
        while peek() is not None and peek() not in ("|", "+", "^", ")"):
            if peek() in ("*", "&"):
                pos += 1
            val &= atom()
        return val

    def xorexp():
        nonlocal pos
        val = andexp()
        while peek() == "^":
            pos += 1
            val ^= andexp()
        return val

    def orexp():
        nonlocal pos
        val = xorexp()
        while peek() in ("|", "+"):
            pos += 1
            val |= xorexp()
        return val

    val = orexp()
    if pos != len(toks):
        raise ValueError("trailing tokens")
    return val


def truth_table(expr, pins):
    """Tuple of outputs for all input combinations (pins in the given order), or None."""
    try:
        return tuple(_eval_function(expr, dict(zip(pins, bits)))
                     for bits in itertools.product((0, 1), repeat=len(pins)))
    except ValueError:
        return None

# }====


class Cell:
    __slots__ = ("name", "area", "seq", "inputs", "outputs", "function", "line", "pin_cap")

    def __init__(self, name, line):
        self.name, self.line = name, line
        self.area, self.seq = 0.0, None          # seq: None, "ff" or "latch"
        self.inputs, self.outputs, self.function, self.pin_cap = [], [], None, {}


class Library:
    """name, cells {name: Cell}, time_ns (one library time unit in ns), cap_pf, path."""

    def __init__(self, path):
        self.path = str(path)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            raise FlowError(str(path), f"cannot read liberty file: {e.strerror}")
        lib = _parse(self.path, text)
        self.name = lib.args[0] if lib.args else "lib"
        self.time_ns = _unit(lib.attrs.get("time_unit", "1ns"), {"ps": 1e-3, "ns": 1.0,
                                                                   "us": 1e3}, self.path)
        cap = lib.attrs.get("capacitive_load_unit", ["1", "pf"])
        if isinstance(cap, str):
            cap = [cap, "pf"]
        self.cap_pf = float(cap[0]) * {"ff": 1e-3, "pf": 1.0}.get(cap[1].lower(), 1.0)
        self.cells = {}
        for grp in lib.children:
            if grp.kind == "cell" and grp.args:
                self.cells[grp.args[0]] = self._cell(grp)
        if not self.cells:
            raise FlowError(self.path, "the library defines no cells")

    def _cell(self, grp):
        cell = Cell(grp.args[0], grp.line)
        try:
            cell.area = float(grp.attrs.get("area", "0"))
        except ValueError:
            raise FlowError(f"{self.path}:{grp.line}", f"cell {cell.name}: bad area")
        if grp.first("ff") or grp.first("ff_bank"):
            cell.seq = "ff"
        elif grp.first("latch") or grp.first("latch_bank"):
            cell.seq = "latch"
        for pin in grp.children:
            if pin.kind != "pin" or not pin.args:
                continue
            d = pin.attrs.get("direction", "")
            if d == "input":
                cell.inputs.append(pin.args[0])
                try:
                    cell.pin_cap[pin.args[0]] = float(pin.attrs.get("capacitance", "0"))
                except ValueError:
                    cell.pin_cap[pin.args[0]] = 0.0
            elif d == "output":
                cell.outputs.append(pin.args[0])
                if "function" in pin.attrs:
                    cell.function = pin.attrs["function"]
        return cell

    def _smallest(self, want, npins):
        best = None
        for cell in self.cells.values():
            if cell.seq or len(cell.inputs) != npins or len(cell.outputs) != 1 or not cell.function:
                continue
            if truth_table(cell.function, cell.inputs) == want and cell.area > 0:
                if best is None or cell.area < best.area:
                    best = cell
        return best

    def inverter(self):
        cell = self._smallest((1, 0), 1)
        if cell is None:
            raise FlowError(self.path, "no inverter cell (function !A) with an area")
        return cell

    def nand2(self):
        cell = self._smallest((1, 1, 1, 0), 2)
        if cell is None:
            raise FlowError(self.path, "no 2-input NAND cell (function !(A&B)) with an area")
        return cell


def _unit(text, table, path):
    m = re.fullmatch(r'\s*"?([0-9.]+)\s*([a-z]+)"?\s*', str(text).lower())
    if not m or m.group(2) not in table:
        raise FlowError(path, f"unsupported time_unit '{text}'")
    return float(m.group(1)) * table[m.group(2)]
