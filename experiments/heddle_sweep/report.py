# SPDX-License-Identifier: MIT
"""What an experiment's analysis script gets: Context, its view of the results store (the tidy
rows, one point's record by its axes, the point's statistics parsed) and the writers of its
report directory (Markdown, JSON, CSV, PNG paths), every file it writes listed in `written`.
The formats and the atomic writes are pylib/hdout.py's (md_table is re-exported for the
experiments' analysis scripts)."""

import os

from hdout import csv_text, json_text, md_table  # noqa: F401 (md_table: the scripts' import)

from . import SweepError
from .heddle import parse_stats
from .outfile import check_paths, write_atomic
from .store import tidy


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
        axis names, with '__' for '.'; None: the point has no such axis), with 'data' = its
        parsed statistics report."""
        want = {k.replace("__", "."): None if v is None else str(v) for k, v in axes.items()}
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
        self.write_text(name, json_text(obj, indent=1))

    def write_csv(self, name):
        self.write_text(name, csv_text(self.tidy()))
