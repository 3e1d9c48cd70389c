# SPDX-License-Identifier: MIT
"""mutate_lex.py - the token stream the mutation generators share (issue 16 item 1; merged in
issue 23 item 7): mutate.py (SystemVerilog), mutate_c.py (C reference) and mutate_manual.py
(the find: text of a hand-written mutant, through the generator's own tokenizer).

Each generator keeps its language - the token regular expression, which kinds are dropped
(white space, comments, preprocessor or `define lines) and what ends an operand - and gets from
here the rest, which is the same for both:
  Tok             one token: kind (the regular expression's group name), text, start and end
                  offsets in the source, line of its first character
  tokenizer()     tokenize(src, path) for one language; text it cannot read is a located error
  match_fwd/back  the token closing (opening) a bracket pair, nesting counted
  splice()        the source with the generated edits (start, end, text) put in place
"""
import sys


class Tok:
    __slots__ = ("kind", "text", "start", "end", "line")

    def __init__(self, kind, text, start, end, line):
        self.kind, self.text, self.start, self.end, self.line = kind, text, start, end, line


def tokenizer(token_re, dropped, tool):
    """tokenize(src, path) -> [Tok] for the language of `token_re` (one named group per
    alternative); tokens of the kinds in `dropped` are read but not kept. `tool` names the
    generator in the error for text no alternative matches (exit status 1)."""
    def tokenize(src, path):
        toks, pos, line = [], 0, 1
        while pos < len(src):
            m = token_re.match(src, pos)
            if not m:
                sys.exit(f"{path}:{line}: {tool} cannot tokenize {src[pos:pos + 20]!r}")
            kind, text = m.lastgroup, m.group()
            if kind not in dropped:
                toks.append(Tok(kind, text, pos, m.end(), line))
            line += text.count("\n")
            pos = m.end()
        return toks
    return tokenize


def match_fwd(toks, i, open_, close):
    """Index of the `close` that pairs with the `open_` at or after toks[i]; ValueError when
    the pair never closes."""
    d = 0
    for j in range(i, len(toks)):
        if toks[j].text == open_:
            d += 1
        elif toks[j].text == close:
            d -= 1
            if d == 0:
                return j
    raise ValueError("unbalanced " + open_)


def match_back(toks, i, open_, close):
    """Index of the `open_` that pairs with the `close` at or before toks[i]; ValueError when
    none does."""
    d = 0
    for j in range(i, -1, -1):
        if toks[j].text == close:
            d += 1
        elif toks[j].text == open_:
            d -= 1
            if d == 0:
                return j
    raise ValueError("unbalanced " + close)


def splice(src, edits):
    """src with every edit (start, end, text) replacing src[start:end], in order of start;
    ValueError naming the offset when two edits overlap."""
    out, pos = [], 0
    for s, e, text in sorted(edits, key=lambda x: x[0]):
        if s < pos:
            raise ValueError(f"overlapping mutation units at offset {s}")
        out.append(src[pos:s])
        out.append(text)
        pos = e
    out.append(src[pos:])
    return "".join(out)
