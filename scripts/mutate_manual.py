# SPDX-License-Identifier: MIT
"""mutate_manual.py - hand-written mutants beside the generated ones (issue 16: "all 14 mutants
described above are killed (a CTest replays them)").

A block's list testbenches/mutants/<b>.manual (RTL) or <b>.c.manual (C reference) holds
plausible bugs a reviewer wrote by hand, which the operator-level generators of mutate.py and
mutate_c.py need not produce. `mutate.py instrument --manual FILE` and `mutate_c.py instrument
--manual FILE` put them into the same instrumented file, behind the same run-time selector
(+hd_mut=N / HD_MUT_C=N), numbered from MANUAL_BASE + 1 so that the generated mutants keep
their numbers, and list them in OUTDIR/<b>.manual.mutants (<b>.c.manual.mutants) in
mutate.py's format; `mutate.py run` replays that list like any other.

File format (one block per mutant, '#' comments):
  mutant NAME FORM          FORM: expr (the marked span is an expression) or stmt (statements,
                            procedural code: the replacement runs instead of the span)
    find: TEXT              source text with the span to replace marked @[ ... ]@; matched as a
                            token sequence (whitespace and comments ignored), exactly once
    repl: TEXT              the span's replacement (one line)
    why: TEXT               what the bug is (the report's description)
    config: NAME            (RTL, optional) configs/rtl/<b>.ini configuration whose mutant
                            testbench replays it (the default one elaborates it not)
The span must cover whole generated mutation units (an assignment's right-hand side, a whole
condition, a whole C expression statement with its ';'), never cut one.
"""
import hashlib
import re
import sys

MANUAL_BASE = 100000


class Manual:
    def __init__(self, name, form, path, line):
        self.name, self.form, self.path, self.line = name, form, path, line
        self.find = self.repl = self.why = None
        self.config = ""


def load(path):
    out, cur = [], None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            m = re.match(r"mutant\s+(\w+)\s+(expr|stmt)\s*$", s)
            if m:
                cur = Manual(m.group(1), m.group(2), path, n)
                out.append(cur)
                continue
            m = re.match(r"(find|repl|why|config):\s?(.*)$", s)
            if not m or cur is None:
                sys.exit(f"{path}:{n}: expected 'mutant NAME expr|stmt' or 'find:/repl:/why:/config:'")
            setattr(cur, m.group(1), m.group(2).strip())
    for mm in out:
        if mm.find is None or mm.repl is None or mm.why is None:
            sys.exit(f"{path}:{mm.line}: mutant {mm.name} needs find:, repl: and why:")
        if mm.find.count("@[") != 1 or mm.find.count("]@") != 1:
            sys.exit(f"{path}:{mm.line}: mutant {mm.name}: find: must mark one span @[ ... ]@")
    if len({mm.name for mm in out}) != len(out):
        sys.exit(f"{path}: duplicate mutant names")
    return out


def locate(mm, src, toks, tokenize):
    """(first token, last token + 1) of the marked span in the source tokens."""
    pre, rest = mm.find.split("@[", 1)
    mid, post = rest.split("]@", 1)
    tp, tm, tq = (tokenize(x, mm.path) for x in (pre, mid, post))
    pat = [t.text for t in tp + tm + tq]
    texts = [t.text for t in toks]
    hits = [k for k in range(len(texts) - len(pat) + 1) if texts[k:k + len(pat)] == pat]
    if len(hits) != 1:
        sys.exit(f"{mm.path}:{mm.line}: mutant {mm.name}: find: text occurs {len(hits)} times in the "
                 "source (must be exactly once: add context)")
    a = hits[0] + len(tp)
    return a, a + len(tm)


def apply(manuals, src, toks, edits, tokenize, sel, stmt_wrap):
    """Wrap each manual mutant's span (with the generated edits inside it) behind its selector.
    edits: the generated (start, end, text) edits on src, replaced in place. sel(id) -> the
    condition text; stmt_wrap(cond, repl, orig) -> the statement form. Returns
    [(id, key, line, name, why, config)]."""
    spans = []
    for n, mm in enumerate(manuals, 1):
        a, b = locate(mm, src, toks, tokenize)
        spans.append((toks[a].start, toks[b - 1].end, toks[a].line, MANUAL_BASE + n, mm))
    out = []
    for s, e, line, mid, mm in sorted(spans, key=lambda x: x[1] - x[0]):  # inner spans first
        inner, rest = [], []
        for ed in edits:
            if s <= ed[0] and ed[1] <= e:
                inner.append(ed)
            elif ed[1] <= s or ed[0] >= e:
                rest.append(ed)
            else:
                sys.exit(f"{mm.path}:{mm.line}: mutant {mm.name}: the marked span cuts a generated "
                         f"mutation unit ({src[ed[0]:ed[1]][:60]!r}): widen it to the whole unit")
        text, pos = [], s
        for es, ee, et in sorted(inner):
            text.append(src[pos:es])
            text.append(et)
            pos = ee
        text.append(src[pos:e])
        orig = "".join(text)
        if mm.form == "expr":
            wrapped = f"({sel(mid)} ? ({mm.repl}) : ({orig}))"
        else:
            wrapped = stmt_wrap(sel(mid), mm.repl, orig)
        rest.append((s, e, wrapped))
        edits[:] = rest
        key = hashlib.sha1(f"manual|{mm.name}".encode()).hexdigest()[:10]
        out.append((mid, key, line, mm.name, mm.why, mm.config))
    return sorted(out)
