#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""mutate.py - mutation testing of the RTL blocks (issue 16 item 1).

One Verilator build per block holds every mutant: `instrument` rewrites rtl/<b>/<b>.sv so that
each mutation site is guarded by a selector read at run time (`+hd_mut=N`, 0 = the original
design), and writes the mutant list; `run` runs the block's checks (its SystemC testbench, one
or more argument sets) once per mutant and reports which are killed (any check fails: a
mismatch with the C reference, a firing assertion, a crash or a timeout).

Mutation operators (all sites outside assertions, `ifdef HD_FAULT_*` regions, declarations,
bit/part selects, casts and replication counts):
  op       relational/equality/logical/bitwise/arithmetic/shift operator swapped
           (== !=, < <=, > >=, && ||, & |, ^ |, + -, << >>), unary ! or ~ dropped,
           reduction & |  swapped
  const    sized literal value +1 (or -1 at its maximum), unsized integer +1, '0 <-> '1
  cond     an if condition inverted (procedural code)
  case     a case selector inverted (~sel: the arms swap)
  hold     a registered signal never updates (enable stuck off)
  stuck    a registered signal stuck at 0/1 (scalars) or its bit 0 / top bit stuck (vectors)
  reset    a reset term dropped (the flop keeps its value during reset; runs use
           +verilator+rand+reset+2 so flops start random)

A mutant's key (a hash of the statement text, the site's offset in it and the replacement) is
stable when lines move; reviewed equivalent mutants are listed by key in
testbenches/mutants/<b>.equiv ("key  reason") and reported as such, never dropped.

  mutate.py instrument BLOCK --rtl RTLDIR --out OUTDIR      -> OUTDIR/<b>/<b>.sv, OUTDIR/<b>.mutants
                [--manual FILE]   + hand-written mutants (mutate_manual.py) -> OUTDIR/<b>.manual.mutants
  (BLOCK "<b>.c": the C reference's mutants of scripts/mutate_c.py, selected by the environment
  variable HD_MUT_C with the RTL unmutated)
  mutate.py run BLOCK --tb EXE --mutants LIST [--check "ARGS"]... [--sample N --seed S]
                [--equiv FILE] [--report FILE.md] [--jobs N] [--memcheck-tb EXE]

The memory checker (C mutants only): --memcheck-tb names tb_<b>_mut_asan, the same testbench
with the C reference compiled under ASan/UBSan (-fno-sanitize-recover=all;
testbenches/mutants.cmake). A C mutant that survives every check is rerun there; a sanitizer
report kills it ("killed by the memory checker": an access past an array, undefined behaviour
that shows in no output). Only survivors pay for it; a CI list entry so killed runs only there.

The token stream (tokens, bracket matching, splicing the edits into the source) is
scripts/mutate_lex.py, shared with mutate_c.py; this file holds the SystemVerilog grammar.
"""
import argparse
import concurrent.futures
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time

import mutate_lex
import mutate_manual
from mutate_lex import match_back, match_fwd

TOKEN_RE = re.compile(r"""
  (?P<ws>\s+)
 |(?P<comment>//[^\n]*|/\*.*?\*/)
 |(?P<define>`define(?:[^\n\\]|\\.)*)
 |(?P<string>"(?:[^"\\]|\\.)*")
 |(?P<sized>\d+\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-F_xXzZ?]+)
 |(?P<fill>'[01xXzZ])
 |(?P<num>\d+)
 |(?P<macro>`[A-Za-z_][A-Za-z0-9_]*)
 |(?P<sys>\$[A-Za-z_][A-Za-z0-9_$]*)
 |(?P<id>[A-Za-z_][A-Za-z0-9_$]*)
 |(?P<op><<<|>>>|===|!==|==|!=|<=|>=|&&|\|\||<<|>>|~&|~\||~\^|\^~|\+:|-:|\+\+|--|\+=|-=|::|[-+*/%&|^~!<>=?:;,.()\[\]{}#@'])
""", re.X | re.S)

TYPE_WORDS = {"logic", "bit", "reg", "wire", "int", "integer", "byte", "shortint", "longint",
              "genvar", "localparam", "parameter", "typedef", "signed", "unsigned", "input",
              "output", "inout", "automatic", "var"}
STMT_BEFORE = {";", "begin", "end", "else", ")", ":", "assign", "always_comb", "always_latch",
               "endcase"}
BINOP_SWAP = {"==": "!=", "!=": "==", "<": "<=", "<=": "<", ">": ">=", ">=": ">", "&&": "||",
              "||": "&&", "+": "-", "-": "+", "<<": ">>", ">>": "<<", "&": "|", "|": "&", "^": "|"}
PROC_START = {"always", "always_comb", "always_ff", "always_latch", "initial", "final"}

tokenize = mutate_lex.tokenizer(TOKEN_RE, ("ws", "comment", "define"), "mutate.py")


def operand_end(t):
    return t.kind in ("id", "num", "sized", "fill", "sys") or t.text in (")", "]", "}")


def const_mutant(t):
    """Replacement text for a literal, or None."""
    if t.kind == "fill":
        return {"'0": "'1", "'1": "'0"}.get(t.text)
    if t.kind == "num":
        return str(int(t.text) + 1)
    m = re.match(r"(\d+)\s*'([sS]?)([bBoOdDhH])\s*([0-9a-fA-F_]+)$", t.text)
    if not m:
        return None
    w, s, base, digits = int(m.group(1)), m.group(2), m.group(3).lower(), m.group(4).replace("_", "")
    v = int(digits, {"b": 2, "o": 8, "d": 10, "h": 16}[base])
    nv = v + 1 if v + 1 < (1 << w) else v - 1
    if w > 64:
        return None
    if nv < 0:
        return None
    digits = {"b": format(nv, "b"), "o": format(nv, "o"), "d": str(nv), "h": format(nv, "x")}[base]
    return f"{w}'{s}{m.group(3)}{digits}"


class Site:
    def __init__(self, kind, tok, repl, desc):
        self.kind, self.tok, self.repl, self.desc = kind, tok, repl, desc


def expr_sites(toks, lo, hi, skip_ids=()):
    """Mutation sites of the expression toks[lo:hi]."""
    sites, brack, cast = [], 0, set()
    for i in range(lo, hi):  # (W)'(x): the parenthesised width is not mutated
        if toks[i].text == ")" and i + 1 < len(toks) and toks[i + 1].text == "'":
            cast.update(range(match_back(toks, i, "(", ")"), i + 1))
    for i in range(lo, hi):
        t = toks[i]
        if i in cast:
            continue
        if t.text == "[":
            brack += 1
            continue
        if t.text == "]":
            brack -= 1
            continue
        if brack:
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        prev = toks[i - 1] if i > lo else None
        if t.kind in ("num", "sized", "fill"):
            if nxt is not None and nxt.text in ("'", "{"):  # cast width, replication count
                continue
            r = const_mutant(t)
            if r == "1'b0" and ((prev is not None and prev.text in ("+", "-")) or
                                (nxt is not None and nxt.text in ("+", "-"))):
                r = "'0"  # x + 1'b0 is a WIDTH warning (Verilator exempts only 1'b1)
            if r is not None:
                sites.append(Site("const", t, r, f"{t.text} -> {r}"))
        elif t.kind == "op":
            binary = prev is not None and operand_end(prev)
            if t.text in BINOP_SWAP and binary and t.text not in ("?", ":"):
                r = BINOP_SWAP[t.text]
                sites.append(Site("op", t, r, f"{t.text} -> {r}"))
            elif t.text in ("&", "|") and not binary:
                r = "|" if t.text == "&" else "&"
                sites.append(Site("op", t, r, f"reduction {t.text} -> {r}"))
            elif t.text in ("!", "~") and not binary:
                sites.append(Site("op", t, "", f"{t.text} dropped"))
    return sites


def declarations(toks):
    """name -> True if a packed vector (or int), False if a scalar."""
    vec, i = {}, 0
    while i < len(toks):
        t = toks[i]
        if t.text in ("logic", "bit", "reg", "wire", "int", "integer"):
            is_vec = t.text in ("int", "integer")
            j = i + 1
            while j < len(toks) and toks[j].text in ("signed", "unsigned"):
                j += 1
            while j < len(toks) and toks[j].text == "[":
                is_vec = True
                j = match_fwd(toks, j, "[", "]") + 1
            while j < len(toks) and toks[j].kind == "id":
                vec.setdefault(toks[j].text, is_vec)
                j += 1
                while j < len(toks) and toks[j].text == "[":
                    j = match_fwd(toks, j, "[", "]") + 1
                if j < len(toks) and toks[j].text == "=":  # skip an initialiser
                    while j < len(toks) and toks[j].text not in (",", ";"):
                        j += 1
                if j < len(toks) and toks[j].text == ",":
                    j += 1
                else:
                    break
            i = j
        else:
            i += 1
    return vec


class Instrumenter:
    def __init__(self, block, src, path, manual=()):
        self.block, self.src, self.path = block, src, path
        self.manual = manual  # hand-written mutants (scripts/mutate_manual.py)
        self.manual_out = []
        self.toks = tokenize(src, path)
        self.vec = declarations(self.toks)
        self.mutants = []  # (id, key, line, kind, desc)
        self.edits = []    # (start, end, text) on src

    def new_mutant(self, kind, line, stmt_text, offset, repl, desc):
        mid = len(self.mutants) + 1
        norm = re.sub(r"\s+", " ", stmt_text)
        key = hashlib.sha1(f"{norm}|{offset}|{kind}|{repl}|{desc}".encode()).hexdigest()[:10]
        # distinct keys for textually identical statements
        while any(m[1] == key for m in self.mutants):
            key = hashlib.sha1((key + "+").encode()).hexdigest()[:10]
        self.mutants.append((mid, key, line, kind, desc))
        return mid

    def skip_regions(self):
        """Token indices that are never mutated: macro calls (assertions), includes,
        `ifdef HD_FAULT_* regions."""
        skip, toks, i, stack = set(), self.toks, 0, []
        while i < len(toks):
            t = toks[i]
            if t.kind == "macro":
                name = t.text[1:]
                if name in ("ifdef", "ifndef"):
                    fault = toks[i + 1].text.startswith("HD_FAULT")
                    stack.append([fault and name == "ifdef", fault])
                    skip.update((i, i + 1))
                    i += 2
                    continue
                if name == "else" and stack:
                    stack[-1][0] = stack[-1][1] and not stack[-1][0]
                    skip.add(i)
                elif name == "endif" and stack:
                    stack.pop()
                    skip.add(i)
                elif name == "include":
                    skip.update((i, i + 1))
                    i += 2
                    continue
                elif i + 1 < len(toks) and toks[i + 1].text == "(":
                    j = match_fwd(toks, i + 1, "(", ")")
                    skip.update(range(i, j + 1))
                    i = j + 1
                    continue
                else:
                    skip.add(i)
            if any(e[0] for e in stack):
                skip.add(i)
            i += 1
        return skip

    def procedural(self):
        """Set of token indices inside always/initial/function bodies."""
        toks, proc, i = self.toks, set(), 0
        while i < len(toks):
            t = toks[i]
            if t.text in PROC_START or t.text in ("function", "task"):
                endkw = {"function": "endfunction", "task": "endtask"}.get(t.text)
                j = i + 1
                if endkw:
                    k = j
                    while toks[k].text != endkw:
                        k += 1
                    proc.update(range(i, k + 1))
                    i = k + 1
                    continue
                if toks[j].text == "@":
                    j = match_fwd(toks, j + 1, "(", ")") + 1
                if toks[j].text == "begin":
                    d, k = 0, j
                    while True:
                        if toks[k].text == "begin":
                            d += 1
                        elif toks[k].text == "end":
                            d -= 1
                            if d == 0:
                                break
                        k += 1
                else:
                    k = j
                    while toks[k].text != ";":
                        k += 1
                proc.update(range(i, k + 1))
                i = k + 1
                continue
            i += 1
        return proc

    def reset_branches(self, proc):
        """(token ranges of reset branches, token ranges of clocked normal branches) of
        always_ff blocks with an asynchronous reset."""
        toks, resets, normals = self.toks, [], []
        for i, t in enumerate(toks):
            if t.text != "always_ff":
                continue
            j = match_fwd(toks, i + 2, "(", ")")
            sens = " ".join(x.text for x in toks[i + 2:j + 1])
            m = re.search(r"negedge (\w+)", sens)
            k = j + 1
            if toks[k].text == "begin":
                k += 1
            if m and toks[k].text == "if" and m.group(1) in [x.text for x in toks[k:match_fwd(toks, k + 1, "(", ")")]]:
                c = match_fwd(toks, k + 1, "(", ")")
                b0 = c + 1
                b1 = match_fwd(toks, b0, "begin", "end") if toks[b0].text == "begin" else b0
                if toks[b0].text != "begin":
                    while toks[b1].text != ";":
                        b1 += 1
                resets.append((b0, b1))
                e = b1 + 1
                if toks[e].text == "else":
                    e0 = e + 1
                    e1 = match_fwd(toks, e0, "begin", "end") if toks[e0].text == "begin" else e0
                    normals.append((e0, e1))
            else:
                b0 = j + 1
                b1 = match_fwd(toks, b0, "begin", "end") if toks[b0].text == "begin" else b0
                normals.append((b0, b1))
        return resets, normals

    def run(self):
        toks, src = self.toks, self.src
        skip = self.skip_regions()
        proc = self.procedural()
        resets, normals = self.reset_branches(proc)
        in_reset = lambda i: any(a <= i <= b for a, b in resets)
        in_normal = lambda i: any(a <= i <= b for a, b in normals)
        # the module header ends at the first ';' after `module`
        hdr_end = next(i for i, t in enumerate(toks) if t.text == ";" and i > 0)
        depth, i = 0, hdr_end + 1
        while i < len(toks):
            t = toks[i]
            if t.text in ("(", "[", "{"):
                depth += 1
            elif t.text in (")", "]", "}"):
                depth -= 1
            if i in skip:
                i += 1
                continue
            if t.text == "if" and i in proc and toks[i + 1].text == "(":
                c = match_fwd(toks, i + 1, "(", ")")
                if not self.is_reset_if(i, resets):
                    self.guard_if(i + 1, c)
                # the condition's tokens are consumed here (depth unchanged)
                i = c + 1
                continue
            if t.text in ("case", "casez", "casex") and i in proc and toks[i + 1].text == "(":
                c = match_fwd(toks, i + 1, "(", ")")
                self.guard_case(i + 1, c)
                i = c + 1
                continue
            if depth == 0 and t.text in ("=", "<=") and i in proc or \
                    (depth == 0 and t.text == "=" and self.is_assign(i)):
                lhs0 = self.lhs_start(i)
                before = toks[lhs0 - 1].text if lhs0 > 0 else ";"
                if before in STMT_BEFORE or toks[lhs0 - 1].kind == "num" or \
                        toks[lhs0 - 1].text == "default":
                    semi = i
                    d2 = 0
                    while not (toks[semi].text == ";" and d2 == 0):
                        if toks[semi].text in ("(", "[", "{"):
                            d2 += 1
                        elif toks[semi].text in (")", "]", "}"):
                            d2 -= 1
                        semi += 1
                    self.guard_assign(lhs0, i, semi, in_reset(i), in_normal(i) and t.text == "<=")
                    i = semi
                    continue
            i += 1
        if self.manual:  # hand-written mutants, wrapped around the generated edits they hold
            self.manual_out = mutate_manual.apply(
                self.manual, src, toks, self.edits, tokenize, self.sel,
                lambda c, r, o: f"if ({c}) begin {r} end else begin {o} end")
        try:
            text = mutate_lex.splice(src, self.edits)
        except ValueError as e:
            sys.exit(f"{self.path}: {e}")
        # the selector, after the module header
        hdr = toks[hdr_end]
        sel = ("\n\n  // Mutation selector (scripts/mutate.py): +hd_mut=N enables mutant N, 0 = original.\n"
               "  int unsigned hd_mut;\n"
               "  initial begin\n"
               "    if (!$value$plusargs(\"hd_mut=%d\", hd_mut)) hd_mut = 0;\n"
               "  end\n")
        shift = sum(len(tx) - (e - s) for s, e, tx in self.edits if s < hdr.end)
        text = text[:hdr.end + shift] + sel + text[hdr.end + shift:]
        return text

    def inactive_lines(self, params):
        """(first line, last line, note) of generate-if branches that the parameters exclude
        (conditions `P` or `!P` on a parameter only)."""
        toks, proc, out = self.toks, self.procedural(), []
        for i, t in enumerate(toks):
            if t.text != "if" or i in proc or toks[i + 1].text != "(":
                continue
            c = match_fwd(toks, i + 1, "(", ")")
            cond = [x.text for x in toks[i + 2:c]]
            neg = cond[:1] == ["!"]
            name = cond[-1] if len(cond) == 1 + neg else None
            if name not in params:
                continue
            taken = bool(params[name]) != neg
            if toks[c + 1].text != "begin":
                continue
            e = match_fwd(toks, c + 1, "begin", "end")
            note = f"not elaborated ({name}={params[name]})"
            if not taken:
                out.append((toks[c + 1].line, toks[e].line, note))
            if toks[e + 1].text == "else" and toks[e + 2].text == "begin":
                e2 = match_fwd(toks, e + 2, "begin", "end")
                if taken:
                    out.append((toks[e + 2].line, toks[e2].line, note))
        return out

    def is_reset_if(self, i, resets):
        c = match_fwd(self.toks, i + 1, "(", ")")
        return any(a == c + 1 for a, _ in resets)

    def is_assign(self, i):
        j = i
        while j > 0 and self.toks[j].text not in (";", "begin", "end", "endgenerate", ")"):
            j -= 1
            if self.toks[j].text == "assign":
                return True
        return False

    def lhs_start(self, i):
        toks, j = self.toks, i - 1
        while True:
            if toks[j].text == "]":
                j = match_back(toks, j, "[", "]") - 1
                continue
            if toks[j].text == "}":
                return match_back(toks, j, "{", "}")
            if toks[j].kind == "id":
                if j > 0 and toks[j - 1].text == ".":
                    j -= 2
                    continue
                return j
            return j + 1

    def sel(self, mid):
        return f"(hd_mut == 32'd{mid})"

    def text(self, a, b):
        return self.src[self.toks[a].start:self.toks[b - 1].end]

    def variant(self, a, b, site):
        s0 = self.toks[a].start
        t = self.text(a, b)
        return t[:site.tok.start - s0] + site.repl + t[site.tok.end - s0:]

    def guard_if(self, p0, p1):
        """Condition tokens p0+1 .. p1-1 (between the parens)."""
        a, b = p0 + 1, p1
        stmt = "if (" + self.text(a, b) + ")"
        chain = []
        for s in expr_sites(self.toks, a, b):
            mid = self.new_mutant(s.kind, s.tok.line, stmt, s.tok.start - self.toks[a].start, s.repl,
                                  f"`{stmt}`: {s.desc}")
            chain.append((mid, f"(({self.variant(a, b, s)}) != '0)"))
        mid = self.new_mutant("cond", self.toks[a].line, stmt, -1, "!", f"`{stmt}`: inverted")
        chain.append((mid, f"(({self.text(a, b)}) == '0)"))
        expr = "".join(f"{self.sel(m)} ? {v} : " for m, v in chain) + f"(({self.text(a, b)}) != '0)"
        self.edits.append((self.toks[a].start, self.toks[b - 1].end, expr))

    def case_labels(self, p1):
        """Single-label arms of the case whose selector closes at p1: label texts in order."""
        toks, labels, k = self.toks, [], p1 + 1
        while toks[k].text not in ("endcase",):
            j, d = k, 0
            while not (toks[j].text == ":" and d == 0):
                d += toks[j].text in ("(", "[", "{")
                d -= toks[j].text in (")", "]", "}")
                j += 1
            if toks[k].text != "default" and "," not in [t.text for t in toks[k:j]]:
                labels.append(self.text(k, j))
            k = j + 1
            while True:  # skip the arm's statement
                if toks[k].text == "begin":
                    k = match_fwd(toks, k, "begin", "end") + 1
                elif toks[k].text in ("unique", "priority", "case", "casez"):
                    d = 0
                    while True:
                        d += toks[k].text in ("case", "casez", "casex")
                        d -= toks[k].text == "endcase"
                        k += 1
                        if d == 0 and toks[k - 1].text == "endcase":
                            break
                elif toks[k].text == "if":
                    k = match_fwd(toks, k + 1, "(", ")") + 1
                    continue
                else:
                    d = 0
                    while not (toks[k].text == ";" and d == 0):
                        d += toks[k].text in ("(", "[", "{")
                        d -= toks[k].text in (")", "]", "}")
                        k += 1
                    k += 1
                if toks[k].text == "else":
                    k += 1
                    continue
                break
        return labels

    def guard_case(self, p0, p1):
        a, b = p0 + 1, p1
        stmt = "case (" + self.text(a, b) + ")"
        sel_t = self.text(a, b)
        mid = self.new_mutant("case", self.toks[a].line, stmt, -1, "~", f"`{stmt}`: selector inverted (arms swapped)")
        expr = f"{self.sel(mid)} ? ~({sel_t}) : "
        labels = self.case_labels(p1)
        for x, y in zip(labels, labels[1:]):
            mid = self.new_mutant("case", self.toks[a].line, stmt, -1, f"{x}<->{y}",
                                  f"`{stmt}`: arms {x} and {y} swapped")
            expr += f"{self.sel(mid)} ? (({sel_t}) == ({x}) ? ({y}) : ({sel_t}) == ({y}) ? ({x}) : ({sel_t})) : "
        expr += f"({sel_t})"
        self.edits.append((self.toks[a].start, self.toks[b - 1].end, expr))

    def guard_assign(self, l0, op, semi, is_reset, is_reg):
        toks = self.toks
        lhs = self.text(l0, op)
        a, b = op + 1, semi
        rhs = self.text(a, b)
        stmt = f"{lhs} {toks[op].text} {rhs};"
        chain, extra = [], []
        for s in expr_sites(toks, a, b):
            mid = self.new_mutant(s.kind, s.tok.line, stmt, s.tok.start - toks[a].start, s.repl,
                                  f"`{stmt}`: {s.desc}")
            chain.append((mid, self.variant(a, b, s)))
        plain = op - l0 == 1 and toks[l0].kind == "id"
        if not is_reset and not (b - a == 1 and toks[a].kind in ("num", "sized", "fill")):
            mid = self.new_mutant("zero", toks[l0].line, stmt, -1, "'0", f"`{stmt}`: value forced to 0")
            chain.append((mid, "'0"))
        if is_reset:
            mid = self.new_mutant("reset", toks[l0].line, stmt, -1, "drop", f"`{stmt}`: reset term dropped")
            chain.append((mid, lhs))
        if is_reg and plain:
            mid = self.new_mutant("hold", toks[l0].line, stmt, -1, "hold", f"`{stmt}`: never updates")
            chain.append((mid, lhs))
            if self.vec.get(lhs, False):
                for what, bit, val in (("bit 0 stuck at 0", "0", "1'b0"), ("bit 0 stuck at 1", "0", "1'b1"),
                                       ("top bit stuck at 1", f"$bits({lhs})-1", "1'b1")):
                    mid = self.new_mutant("stuck", toks[l0].line, stmt, -1, what, f"`{stmt}`: {what}")
                    extra.append(f" if ({self.sel(mid)}) {lhs}[{bit}] <= {val};")
            else:
                for val in ("1'b0", "1'b1"):
                    mid = self.new_mutant("stuck", toks[l0].line, stmt, -1, val, f"`{stmt}`: stuck at {val}")
                    chain.append((mid, val))
        if not chain and not extra:
            return
        expr = "".join(f"{self.sel(m)} ? ({v}) : " for m, v in chain) + f"({rhs})"
        if extra:
            self.edits.append((toks[l0].start, toks[semi].end,
                               f"begin {lhs} {toks[op].text} {expr};{''.join(extra)} end"))
        else:
            self.edits.append((toks[a].start, toks[b - 1].end, expr))


def cmd_instrument(args):
    b = args.block
    path = os.path.join(args.rtl, b, b + ".sv")
    with open(path) as f:
        src = f.read()
    params = {}
    for g in args.param:
        m = re.match(r"-G(\w+)=(.*)$", g)
        if m:
            v = m.group(2).strip()
            v = int(v.split("'")[-1].lstrip("bdh"), 0) if "'" in v else int(v, 0)
            params[m.group(1)] = v
    manual = mutate_manual.load(args.manual) if args.manual else ()
    ins = Instrumenter(b, src, path, manual)
    text = ins.run()
    dead = ins.inactive_lines(params)
    os.makedirs(os.path.join(args.out, b), exist_ok=True)
    inc = os.path.join(args.out, "include")
    os.makedirs(inc, exist_ok=True)
    for f in os.listdir(os.path.join(args.rtl, "include")):
        shutil.copy(os.path.join(args.rtl, "include", f), inc)
    hdr = f"// Generated by scripts/mutate.py from {path}: {len(ins.mutants)} mutants. Do not edit.\n"
    out_sv = os.path.join(args.out, b, b + ".sv")
    old = open(out_sv).read() if os.path.exists(out_sv) else None
    if old != hdr + text:  # unchanged: keep the timestamp (no new Verilator build)
        with open(out_sv, "w") as f:
            f.write(hdr + text)
    with open(os.path.join(args.out, b + ".mutants"), "w") as f:
        f.write(f"# {b}: mutants of {path} (id key line kind description)\n")
        for mid, key, line, kind, desc in ins.mutants:
            note = next((d for lo, hi, d in dead if lo <= line <= hi), "")
            desc = re.sub(r"\s+", " ", desc)
            f.write(f"{mid}\t{key}\t{line}\t{kind}\t{desc}\t{note}\n")
    if args.manual:  # mutate_manual.py: the hand-written list, replayed by mutation_manual_<b>
        with open(os.path.join(args.out, b + ".manual.mutants"), "w") as f:
            f.write(f"# {b}: hand-written mutants of {args.manual} (id key line kind description)\n")
            for mid, key, line, name, why, cfg in ins.manual_out:
                note = next((d for lo, hi, d in dead if lo <= line <= hi), "")
                f.write(f"{mid}\t{key}\t{line}\tmanual\t{name}: {why}\t{note}\n")
    print(f"{b}: {len(ins.mutants)} mutants" +
          (f" + {len(ins.manual_out)} hand-written" if args.manual else "") + f" -> {args.out}/{b}/{b}.sv")


def load_mutants(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            f = line.rstrip("\n").split("\t")
            out.append((int(f[0]), f[1], int(f[2]), f[3], f[4], f[5] if len(f) > 5 else ""))
    return out


def load_equiv(path):
    eq = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    k, _, why = line.partition(" ")
                    eq[k] = why.strip()
    return eq


# Flops start all ones, then all zeros (Verilator's +verilator+rand+reset+1 / +0), so that a
# dropped reset term is visible whatever its reset value.
INIT_MODES = ("+verilator+rand+reset+1", "+verilator+rand+reset+0")


# A block name "<b>.c" selects the C reference's mutants (scripts/mutate_c.py): the selector is
# the environment variable HD_MUT_C and the RTL runs unmutated (+hd_mut=0).
def run_check(tb, check, mid, timeout, init, cmode=False):
    env = dict(os.environ)
    env.pop("HD_MUT_C", None)
    if cmode:
        env["HD_MUT_C"] = str(mid)
        mid = 0
    cmd = [tb] + check.split() + [f"+hd_mut={mid}", init]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout,
                           env=env)
        out = p.stdout.decode(errors="replace")
        return p.returncode, out
    except subprocess.TimeoutExpired:
        return -999, "timeout"


# A sanitizer's report in a memory-checker run (ASan, UBSan with -fno-sanitize-recover=all).
ASAN_RE = re.compile(r"ERROR: AddressSanitizer: ([\w-]+)")
ASAN_FRAME_RE = re.compile(r"#\d+ 0x[0-9a-f]+ in (\S+) (\S+)")
UBSAN_RE = re.compile(r"(\S+):\d+: runtime error: ([^\n]*)")


def memcheck_why(rc, out):
    """The sanitizer report of a failed memory-checker run, or None (no report: not a kill)."""
    if rc == 0 or rc == -999:
        return None
    m = UBSAN_RE.search(out)
    if m:
        return f"memory checker: UBSan {m.group(2)} at {os.path.basename(m.group(1))}"
    m = ASAN_RE.search(out)
    if m:
        at = ""
        for f in ASAN_FRAME_RE.finditer(out, m.end()):  # the first frame outside the runtime
            if "sanitizer" not in f.group(2) and not f.group(1).startswith(("__interceptor", "__asan")):
                at = f" in {f.group(1)} at {os.path.basename(f.group(2))}"
                break
        return f"memory checker: ASan {m.group(1)}{at}"
    return None


def why_killed(rc, out):
    if rc == -999:
        return "timeout"
    if "Assertion failed" in out or "assertion" in out.lower() and "failed" in out:
        m = re.search(r"assertion (\w+) failed", out)
        return "assertion " + (m.group(1) if m else "")
    if "MISMATCH" in out:
        m = re.search(r"port=(\w+)", out)
        return "mismatch " + (m.group(1) if m else "")
    if rc < 0:
        return f"signal {-rc}"
    return f"exit {rc}"


def cmd_run(args):
    cmode = args.block.endswith(".c")
    muts = load_mutants(args.mutants)
    equiv = load_equiv(args.equiv)
    checks = args.check or ["--seed 1 --cycles 20000"]
    unelab = [m for m in muts if m[5]]
    muts = [m for m in muts if not m[5]]
    ci_mode = bool(args.sample or args.ci)
    mem_only = set()  # CI list entries killed only by the memory checker: run only there
    if ci_mode:
        hard = []
        skip = set()  # the CI list's keys: never in the random sample
        if args.ci:  # the hardest mutants of the last full run (keys), all must still be killed
            bykey = {m[1]: m for m in muts}
            for k, why in load_equiv(args.ci).items():
                k0 = k.lstrip("-")  # "-key": killed only by the memory checker, never sampled
                if k0 not in bykey:
                    sys.exit(f"{args.ci}: mutant {k0} no longer exists (the RTL changed): "
                             f"regenerate with the full run's --ci-out")
                skip.add(k0)
                if k.startswith("-"):
                    continue
                if "memory checker" in why:
                    if not args.memcheck_tb:
                        print(f"NOTE: {k} is killed only by the memory checker: skipped "
                              "(no --memcheck-tb; configure with HD_MUT_MEMCHECK=ON)")
                        continue
                    mem_only.add(k)
                hard.append(bykey[k])
        known = load_equiv(args.open)  # survivors of the last full run, still open
        pool = [m for m in muts if m[1] not in equiv and m[1] not in known and m[1] not in skip]
        rng = random.Random(args.seed)
        muts = sorted(hard + rng.sample(pool, min(args.sample, len(pool))))
        unelab = []
    t0 = time.time()
    runs = [(c, i) for c in checks for i in INIT_MODES]
    for c, i in runs:  # the original design must pass every check
        rc, out = run_check(args.tb, c, 0, args.timeout, i, cmode)
        if rc != 0:
            print(out[-3000:])
            sys.exit(f"{args.block}: the unmutated design fails check '{c}' {i} (rc {rc}): fix that first")
    killed, survived, eq_surv, eq_killed = [], [], [], []
    mem_lock = threading.Lock()
    mem_base = []  # the unmutated design's memory-checker verdict, once, when first needed

    def memcheck(m):
        """A survivor's rerun under the memory checker: the first sanitizer report, or None."""
        with mem_lock:
            if not mem_base:
                for c, i in runs:
                    rc, out = run_check(args.memcheck_tb, c, 0, args.timeout, i, cmode)
                    if rc != 0:
                        print(out[-3000:])
                        sys.exit(f"{args.block}: the unmutated design fails check '{c}' {i} under "
                                 f"the memory checker {args.memcheck_tb} (rc {rc}): fix that first")
                mem_base.append(True)
        for c, i in runs:
            rc, out = run_check(args.memcheck_tb, c, m[0], args.timeout, i, cmode)
            why = memcheck_why(rc, out)
            if why:
                return (c, why)
        return None

    def one(m):
        first, kchecks, cyc = None, set(), 0
        if m[1] in mem_only:  # CI: known to survive every check, killed by the memory checker
            return memcheck(m)
        for c, i in runs:  # with --ci-out every run, to measure how hard the mutant is to kill
            rc, out = run_check(args.tb, c, m[0], args.timeout, i, cmode)
            if rc != 0:
                mc = re.search(r"cycle=(\d+)", out)
                c_at = int(mc.group(1)) if mc else 0
                cyc = c_at if first is None else min(cyc, c_at)  # the earliest catch
                kchecks.add(c)
                if first is None:
                    first = (c, why_killed(rc, out))
                if not args.ci_out:
                    break
        hardness[m[1]] = (len(kchecks), -cyc)
        if first is None and cmode and args.memcheck_tb:
            first = memcheck(m)
        return first

    hardness = {}

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        results = list(ex.map(one, muts))
    for m, res in zip(muts, results):
        if res:
            killed.append((m, res))
            if m[1] in equiv:
                eq_killed.append(m)
        elif m[1] in equiv:
            eq_surv.append(m)
        else:
            survived.append(m)
    secs = time.time() - t0
    n = len(muts)
    counted = n - len(eq_surv)
    ratio = len(killed) / counted if counted else 1.0
    nmem = sum(1 for _, (c, why) in killed if why.startswith("memory checker"))
    lines = [f"{args.block}: {n} mutants, {len(killed)} killed"
             + (f" ({nmem} by the memory checker)" if nmem else "") + f", {len(survived)} survived, "
             f"{len(eq_surv)} reviewed equivalent; kill ratio {100 * ratio:.1f} % "
             f"(killed / non-equivalent) in {secs:.1f} s"
             + (f"; {len(unelab)} more in code this configuration does not elaborate" if unelab else "")]
    for m in survived:
        lines.append(f"  SURVIVED #{m[0]} [{m[1]}] line {m[2]} {m[3]}: {m[4]}")
    for m in eq_surv:
        lines.append(f"  equivalent #{m[0]} [{m[1]}] line {m[2]} {m[3]}: {m[4]} -- {equiv[m[1]]}")
    for m in eq_killed:
        lines.append(f"  NOTE: #{m[0]} [{m[1]}] is listed as equivalent but was killed")
    for m, (c, why) in killed:
        if why.startswith("memory checker") and not args.verbose:
            lines.append(f"  killed by the memory checker #{m[0]} [{m[1]}] line {m[2]} {m[3]} "
                         f"('{c}', {why[16:]}): {m[4]}")
    for m in unelab:
        lines.append(f"  not run #{m[0]} line {m[2]} {m[3]}: {m[4]} -- {m[5]}")
    if args.verbose:
        for m, (c, why) in killed:
            lines.append(f"  killed #{m[0]} line {m[2]} {m[3]} by '{c}' ({why}): {m[4]}")
    print("\n".join(lines))
    if args.report:
        with open(args.report, "a") as f:
            f.write("\n".join(lines) + "\n")
    if args.summary:
        with open(args.summary, "a") as f:
            f.write(f"{args.block}\t{n}\t{len(killed)}\t{len(survived)}\t{len(eq_surv)}\t{100 * ratio:.1f}\t{len(unelab)}\n")
    if args.ci_out:  # the CI list: killed by the fewest runs, then latest first mismatch
        # the hardest killed by a check, then one killed only by the memory checker (CI keeps
        # the checker working at the cost of one sanitized run)
        memk = [m for m, (c, why) in killed if why.startswith("memory checker") and m[1] not in equiv]
        hard = sorted((hardness[m[1]], m[1], m) for m, _ in killed
                      if m[1] not in equiv and m not in memk)
        with open(args.ci_out, "w") as f:
            f.write(f"# {args.block}: the {args.ci_count} hardest-to-kill mutants of the last full run "
                    "(scripts/mutate.py run --ci-out):\n# key  checks that kill it / earliest mismatch: "
                    "statement. CTest mutation_<b> requires each still killed.\n")
            for (nk, mc), k, m in hard[:args.ci_count]:
                f.write(f"{k} {nk}/{len(checks)} checks, cycle {-mc}: line {m[2]} {m[3]}: {m[4]}\n")
            for m in memk[:1]:
                f.write(f"{m[1]} 0/{len(checks)} checks, killed by the memory checker: line {m[2]} "
                        f"{m[3]}: {m[4]}\n")
            if memk[1:]:
                f.write("# killed only by the memory checker, never in the CI sample (the full run "
                        "counts them):\n")
            for m in memk[1:]:
                f.write(f"-{m[1]} line {m[2]} {m[3]}: {m[4]}\n")
    if ci_mode:
        return 0 if not survived and not eq_surv else 1
    return 0 if ratio >= args.min_ratio else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("instrument")
    a.add_argument("block")
    a.add_argument("--rtl", required=True)
    a.add_argument("--out", required=True)
    a.add_argument("--param", action="append", default=[], help="-G<Key>=<Value> of the built configuration")
    a.add_argument("--manual", help="hand-written mutants (testbenches/mutants/<b>.manual, "
                   "scripts/mutate_manual.py): also instrumented, listed in OUTDIR/<b>.manual.mutants")
    r = sub.add_parser("run")
    r.add_argument("block")
    r.add_argument("--tb", required=True)
    r.add_argument("--mutants", required=True)
    r.add_argument("--check", action="append", help="testbench arguments of one check (repeatable)")
    r.add_argument("--equiv")
    r.add_argument("--sample", type=int, default=0, help="run N seeded mutants (CI): all must die")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--timeout", type=float, default=60)
    r.add_argument("--min-ratio", type=float, default=0.95)
    r.add_argument("--jobs", type=int, default=1)
    r.add_argument("--ci", help="CI list of hard mutants' keys (run with --sample)")
    r.add_argument("--open", help="known survivors of the last full run (not equivalent, not yet "
                   "killed): the CI sample skips them; the full run still counts them")
    r.add_argument("--ci-out", help="full run: write the CI list of the hardest mutants here")
    r.add_argument("--ci-count", type=int, default=5)
    r.add_argument("--memcheck-tb", help="C mutants: the testbench with the C reference under "
                   "ASan/UBSan (tb_<b>_mut_asan); a mutant that survives every check is rerun there")
    r.add_argument("--report")
    r.add_argument("--summary")
    r.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.cmd == "instrument":
        cmd_instrument(args)
        return 0
    return cmd_run(args)


if __name__ == "__main__":
    sys.exit(main())
