# SPDX-License-Identifier: MIT
"""What an experiment's analysis script gets: Context, its view of the results store (the tidy
rows, one point's record by its axes, the point's statistics parsed) and the writers of its
report directory (Markdown, JSON, CSV, PNG paths), every file it writes listed in `written`."""

import io
import json
import os

from . import SweepError
from .heddle import parse_stats
from .outfile import check_paths, write_atomic
from .store import tidy, write_csv


def inputs(sweep, root, heddle_path=None):
    """The files a sweep reads, as (what, path): the sweep file, its analysis script, every
    configuration file of its points, the heddle binary."""
    out = [("the sweep file", sweep.path), ("the analysis script", sweep.analysis),
           ("the heddle binary", heddle_path)]
    for p in sweep.points:
        out += [("the configuration", os.path.join(root, rel)) for rel in p.inputs]
    seen, uniq = set(), []
    for w, p in out:
        if p and p not in seen:
            seen.add(p)
            uniq.append((w, p))
    return uniq


class Context:
    def __init__(self, sweep, store, keys, out, root, identity=""):
        self.sweep, self.store, self.keys, self.out, self.root = sweep, store, keys, out, root
        self.identity = identity        # `heddle --version` and the binary's SHA-256
        self.written = []
        # no report file may overwrite one of these
        self.inputs = inputs(sweep, root) + [("the results store", store.path)]
        self._rows = store.rows(keys)
        os.makedirs(out, exist_ok=True)

    def tidy(self):
        return tidy(self.store, self.sweep, self.keys)

    def record(self, **axes):
        """The stored record of the one point whose axes have these values (keyword names are
        axis names, with '__' for '.'), with 'data' = its parsed statistics report."""
        want = {k.replace("__", "."): str(v) for k, v in axes.items()}
        hits = [k for p, k in zip(self.sweep.points, self.keys)
                if all(p.axes.get(a) == v for a, v in want.items())]
        if len(hits) != 1:
            raise SweepError(f"{self.sweep.analysis}: {len(hits)} points match {want} "
                             "(expected one)")
        r = self._rows.get(hits[0])
        if r is None:
            raise SweepError(f"{self.sweep.analysis}: the point {want} has no result in the "
                             "store")
        r = dict(r)
        r["data"] = parse_stats(r["stats"])
        return r

    def path(self, name):
        """The path of report file `name` (listed in `written`); refused when it is one of the
        sweep's inputs (outfile.check_paths)."""
        p = os.path.join(self.out, name)
        check_paths(self.inputs, [(f"report file {name}", p)])
        self.written.append(p)
        return p

    def write_text(self, name, text):
        write_atomic(self.path(name), text)

    def write_json(self, name, obj):
        self.write_text(name, json.dumps(obj, indent=1, sort_keys=True) + "\n")

    def write_csv(self, name):
        buf = io.StringIO()
        write_csv(self.tidy(), buf)
        self.write_text(name, buf.getvalue())


def md_table(headers, rows):
    """A Markdown table; cells are str()-ed, '|' escaped."""
    def cell(v):
        return ("" if v is None else str(v)).replace("|", "\\|").replace("\n", " ")
    out = ["| " + " | ".join(cell(h) for h in headers) + " |",
           "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return "\n".join(out) + "\n"
