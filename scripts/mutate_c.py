#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""mutate_c.py - mutation testing of a block's C reference (issue 16 item 1: "mutants of the
SystemVerilog and of the C reference").

The C twin of `mutate.py instrument`: rewrites the block's reference (compressors/<b>.c or
tables/<b>.c) into BUILD/mutants/c/<b>.c with every mutation site guarded by a selector read at
run time from the environment (HD_MUT_C=N, unset or 0 = the original code), and writes the
mutant list BUILD/mutants/<b>.c.mutants in mutate.py's format. The block's mutant testbench
tb_<b>_mut links this file in place of the library's object (testbenches/mutants.cmake), so one
binary holds the RTL mutants (+hd_mut=N) and the C mutants (HD_MUT_C=N, with the RTL
unmutated); `mutate.py run <b>.c ...` runs them through the same checks (the testbench compares
the unmutated RTL with the mutated reference every cycle: a wrong reference is a mismatch).

Sites (only inside function bodies; never in preprocessor lines, declarations' types or array
sizes, case labels):
  op     == !=, < <=, > >=, && ||, & |, ^ -> |, + -, << >> swapped (binary only), += -=, |= &=,
         <<= >>= swapped; unary ! or ~ dropped
  const  an integer literal +1 (suffixes kept)
  cond   an if / while / for condition inverted
  stmt   an expression statement deleted (a store, a call: the C twin of the RTL's hold/zero)

Expressions (conditions, initialisers, returned values) get the selector as a ternary chain;
expression statements as an if/else chain in a block. The selector is a function-local static
read once (HD_MUT_C): generated test code only, never part of the model.

  mutate_c.py instrument BLOCK --src FILE.c --out OUTDIR  -> OUTDIR/c/<b>.c, OUTDIR/<b>.c.mutants
              [--manual FILE]  + hand-written mutants (mutate_manual.py) -> OUTDIR/<b>.c.manual.mutants

The token stream (tokens, bracket matching, splicing the edits) is scripts/mutate_lex.py, shared
with mutate.py; this file holds the C grammar.
"""
import argparse
import hashlib
import os
import re
import sys

import mutate_lex
import mutate_manual

TOKEN_RE = re.compile(r"""
  (?P<ws>\s+)
 |(?P<comment>//[^\n]*|/\*.*?\*/)
 |(?P<pp>\#(?:[^\n\\]|\\.)*)
 |(?P<string>"(?:[^"\\\n]|\\.)*")
 |(?P<char>'(?:[^'\\\n]|\\.)+')
 |(?P<num>0[xX][0-9a-fA-F]+[uUlL]*|\d+\.\d*(?:[eE][-+]?\d+)?[fFlL]?|\d+[uUlL]*)
 |(?P<id>[A-Za-z_][A-Za-z0-9_]*)
 |(?P<op><<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|\|=|\^=|[-+*/%&|^~!<>=?:;,.()\[\]{}])
""", re.X | re.S)

BINOP_SWAP = {"==": "!=", "!=": "==", "<": "<=", "<=": "<", ">": ">=", ">=": ">", "&&": "||",
              "||": "&&", "+": "-", "-": "+", "<<": ">>", ">>": "<<", "&": "|", "|": "&", "^": "|",
              "+=": "-=", "-=": "+=", "|=": "&=", "&=": "|=", "<<=": ">>=", ">>=": "<<="}
TYPE_WORDS = {"void", "char", "short", "int", "long", "unsigned", "signed", "float", "double",
              "bool", "_Bool", "const", "static", "struct", "union", "enum", "volatile",
              "register", "size_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t",
              "int16_t", "int32_t", "int64_t", "uintptr_t"}
SKIP_STMT = {"break", "continue", "goto", "case", "default", "return", "if", "else", "for",
             "while", "do", "switch"}

tokenize = mutate_lex.tokenizer(TOKEN_RE, ("ws", "comment", "pp"), "mutate_c.py")


def match(toks, i, open_, close):
    try:
        return mutate_lex.match_fwd(toks, i, open_, close)
    except ValueError:
        sys.exit(f"line {toks[i].line}: unbalanced {open_}")


def operand_end(t):
    return t.kind in ("id", "num", "char", "string") or t.text in (")", "]")


def const_repl(text):
    m = re.match(r"(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)$", text)
    if not m:
        return None  # floating point: not mutated
    v = int(m.group(1), 0) + 1
    return (hex(v) if m.group(1).lower().startswith("0x") else str(v)) + m.group(2)


def is_cast(toks, close):
    """toks[close] is the ')' of a cast `(type)` (then the next operator is unary)."""
    depth, k = 0, close
    while k > 0:
        depth += toks[k].text == ")"
        depth -= toks[k].text == "("
        if depth == 0:
            break
        k -= 1
    inner = toks[k + 1:close]
    return bool(inner) and (inner[0].text in TYPE_WORDS or inner[-1].text == "*" or
                            (len(inner) == 1 and inner[0].text.endswith("_t")))


def ordinal(n):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def sites(toks, lo, hi):
    """(token index, replacement, description) of the tokens toks[lo:hi]."""
    out = []
    seen = {}  # a token's text -> occurrences so far in the unit
    for i in range(lo, hi):
        t, prev = toks[i], toks[i - 1] if i > lo else None
        seen[t.text] = seen.get(t.text, 0) + 1
        # which one, when the unit holds the same token more than once (`a < N && b < M`)
        nth = "" if sum(1 for k in range(lo, hi) if toks[k].text == t.text) < 2 else \
            f" (the {ordinal(seen[t.text])} `{t.text}`)"
        binary = prev is not None and operand_end(prev) and not (prev.text == ")" and is_cast(toks, i - 1))
        if t.kind == "num":
            r = const_repl(t.text)
            if r is not None:
                out.append((i, r, "const", f"{t.text} -> {r}{nth}"))
        elif t.kind == "op":
            if t.text in BINOP_SWAP and (binary or t.text.endswith("=")):
                out.append((i, BINOP_SWAP[t.text], "op", f"{t.text} -> {BINOP_SWAP[t.text]}{nth}"))
            elif t.text in ("!", "~") and not binary:
                out.append((i, "", "op", f"{t.text} dropped{nth}"))
    return out


class Instrumenter:
    def __init__(self, src, path, manual=()):
        self.src, self.path = src, path
        self.manual, self.manual_out = manual, []  # hand-written mutants (mutate_manual.py)
        self.toks = tokenize(src, path)
        self.mutants = []  # (id, key, line, kind, description)
        self.edits = []  # (start, end, text) of the source
        self.seen = {}  # mutant identity -> occurrences so far (keys stay unique)

    def text(self, lo, hi):
        return self.src[self.toks[lo].start:self.toks[hi - 1].end]

    def variant(self, lo, hi, i, repl):
        """toks[lo:hi] as text with token i replaced."""
        t = self.toks[i]
        return self.src[self.toks[lo].start:t.start] + repl + self.src[t.end:self.toks[hi - 1].end]

    def new(self, lo, hi, i, repl, kind, desc):
        base = re.sub(r"\s+", " ", self.text(lo, hi))
        off = self.toks[i].start - self.toks[lo].start if i is not None else -1
        ident = f"{base}|{off}|{repl}|{kind}"
        n = self.seen.get(ident, 0)  # the same text twice in the file: number the later ones
        self.seen[ident] = n + 1
        key = hashlib.sha1((ident + (f"|{n}" if n else "")).encode()).hexdigest()[:10]
        mid = len(self.mutants) + 1
        line = self.toks[i].line if i is not None else self.toks[lo].line
        self.mutants.append((mid, key, line, kind, f"`{base}`: {desc}"))
        return mid

    def expr(self, lo, hi, cond):
        """An expression unit: a ternary chain over its mutants."""
        if lo >= hi:
            return
        arms = []
        orig = self.text(lo, hi)
        for i, repl, kind, desc in sites(self.toks, lo, hi):
            arms.append((self.new(lo, hi, i, repl, kind, desc), self.variant(lo, hi, i, repl)))
        if cond:
            arms.append((self.new(lo, hi, None, "!", "cond", "condition inverted"), f"!({orig})"))
        if arms:
            chain = "".join(f"HD_MUT_C_IS({m}) ? ({v}) : " for m, v in arms)
            self.edits.append((self.toks[lo].start, self.toks[hi - 1].end, f"({chain}({orig}))"))

    def stmt(self, lo, hi):
        """An expression statement toks[lo:hi] (without its ';'): an if/else chain."""
        arms = []
        for i, repl, kind, desc in sites(self.toks, lo, hi):
            arms.append((self.new(lo, hi, i, repl, kind, desc), self.variant(lo, hi, i, repl)))
        arms.append((self.new(lo, hi, None, "", "stmt", "statement deleted"), ""))
        orig = self.text(lo, hi)
        chain = "".join(f"if (HD_MUT_C_IS({m})) {{ {v}; }} else " for m, v in arms)
        self.edits.append((self.toks[lo].start, self.toks[hi].end, f"{{ {chain}{{ {orig}; }} }}"))

    def is_decl(self, lo, hi):
        t = self.toks
        if t[lo].text in TYPE_WORDS:
            return True
        # a typedef name followed by a declarator: `name id`, `name *id`
        return (hi - lo >= 2 and t[lo].kind == "id" and
                (t[lo + 1].kind == "id" or (t[lo + 1].text == "*" and lo + 2 < hi and t[lo + 2].kind == "id"
                                            and (lo + 3 >= hi or t[lo + 3].text in ("=", ";", ",", "[")))))

    def body(self, lo, hi):
        """Statements of a function body toks[lo:hi] (inside its braces)."""
        t = self.toks
        i = lo
        while i < hi:
            w = t[i].text
            if w in ("{", "}", ";", "else", "do"):
                i += 1
            elif w in ("if", "while", "switch"):
                j = match(t, i + 1, "(", ")")
                self.expr(i + 2, j, cond=w != "switch")
                i = j + 1
            elif w == "for":
                j = match(t, i + 1, "(", ")")
                semis = [k for k in range(i + 2, j) if t[k].text == ";"]
                if len(semis) == 2:
                    self.expr(semis[0] + 1, semis[1], cond=True)
                i = j + 1
            elif w in ("case", "default"):
                while t[i].text != ":":
                    i += 1
                i += 1
            elif w == "return":
                j = i
                while t[j].text != ";":
                    j += 1
                self.expr(i + 1, j, cond=False)
                i = j + 1
            elif w in SKIP_STMT:
                while t[i].text != ";":
                    i += 1
                i += 1
            else:
                j, depth = i, 0
                while depth or t[j].text != ";":
                    depth += t[j].text in ("(", "[", "{")
                    depth -= t[j].text in (")", "]", "}")
                    j += 1
                if self.is_decl(i, j):  # each declarator's initialiser
                    cuts, depth = [i - 1], 0
                    for k in range(i, j):
                        depth += t[k].text in ("(", "[", "{")
                        depth -= t[k].text in (")", "]", "}")
                        if depth == 0 and t[k].text == ",":
                            cuts.append(k)
                    cuts.append(j)
                    for a, z in zip(cuts, cuts[1:]):
                        eq = [k for k in range(a + 1, z) if t[k].text == "="]
                        if eq and t[eq[0] + 1].text != "{":
                            self.expr(eq[0] + 1, z, cond=False)
                else:
                    self.stmt(i, j)
                i = j + 1

    def run(self):
        t = self.toks
        i = 0
        while i < len(t):
            if t[i].text == "{":
                j = match(t, i, "{", "}")
                if i > 0 and t[i - 1].text == ")":  # a function definition's body
                    self.body(i + 1, j)
                i = j + 1
            else:
                i += 1
        if self.manual:  # hand-written mutants, wrapped around the generated edits they hold
            self.manual_out = mutate_manual.apply(
                self.manual, self.src, t, self.edits, tokenize, lambda m: f"HD_MUT_C_IS({m})",
                lambda c, r, o: f"if ({c}) {{ {r} }} else {{ {o} }}")
        try:
            return mutate_lex.splice(self.src, self.edits)
        except ValueError as e:
            sys.exit(f"{self.path}: {e}")


PRELUDE = """#include <stdlib.h>
/* The mutant selector (HD_MUT_C=N; unset or 0: the original code), read once. */
static long hd_mut_c_sel(void)
{
    static long v = -1;
    if (v < 0) {
        const char *e = getenv("HD_MUT_C");
        v = e ? strtol(e, NULL, 10) : 0;
    }
    return v;
}
#define HD_MUT_C_IS(n) (hd_mut_c_sel() == (n))
"""


def cmd_instrument(args):
    b = args.block
    with open(args.src) as f:
        src = f.read()
    ins = Instrumenter(src, args.src, mutate_manual.load(args.manual) if args.manual else ())
    text = ins.run()
    os.makedirs(os.path.join(args.out, "c"), exist_ok=True)
    hdr = (f"/* Generated by scripts/mutate_c.py from {args.src}: {len(ins.mutants)} mutants. "
           "Do not edit. */\n")
    out_c = os.path.join(args.out, "c", b + ".c")
    body = hdr + PRELUDE + text
    old = open(out_c).read() if os.path.exists(out_c) else None
    if old != body:  # unchanged: keep the timestamp (no rebuild)
        with open(out_c, "w") as f:
            f.write(body)
    with open(os.path.join(args.out, b + ".c.mutants"), "w") as f:
        f.write(f"# {b}.c: mutants of {args.src} (id key line kind description); selector HD_MUT_C\n")
        for mid, key, line, kind, desc in ins.mutants:
            f.write(f"{mid}\t{key}\t{line}\t{kind}\t{re.sub(chr(10) + '|' + chr(9), ' ', desc)}\t\n")
    if args.manual:  # mutate_manual.py: the hand-written list, replayed by mutation_manual_<b>.c
        with open(os.path.join(args.out, b + ".c.manual.mutants"), "w") as f:
            f.write(f"# {b}.c: hand-written mutants of {args.manual} (id key line kind description); "
                    "selector HD_MUT_C\n")
            for mid, key, line, name, why, _ in ins.manual_out:
                f.write(f"{mid}\t{key}\t{line}\tmanual\t{name}: {why}\t\n")
    print(f"{b}.c: {len(ins.mutants)} mutants" +
          (f" + {len(ins.manual_out)} hand-written" if args.manual else "") + f" -> {out_c}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("instrument")
    a.add_argument("block")
    a.add_argument("--src", required=True)
    a.add_argument("--out", required=True)
    a.add_argument("--manual", help="hand-written mutants (testbenches/mutants/<b>.c.manual, "
                   "scripts/mutate_manual.py) -> OUTDIR/<b>.c.manual.mutants")
    args = ap.parse_args()
    cmd_instrument(args)


if __name__ == "__main__":
    main()
