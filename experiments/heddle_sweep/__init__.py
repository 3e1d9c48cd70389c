# SPDX-License-Identifier: MIT
"""heddle_sweep - sweeps of Heddle runs: a grid described in a TOML file, run locally in
parallel or as a Slurm job array, every result kept in SQLite, figures drawn as PNG.

Modules: spec (the sweep file: parse, validate, expand into points), point (run one point as
one `heddle` process and capture its result), store (the SQLite results store), local and
slurm (the backends), runner (resume, progress, exit status), figures (PNG plots in the
papers' style), report (Markdown reports), cli (experiments/sweep.py).
Python 3.11 standard library; figures need Debian's python3-matplotlib.
"""


class SweepError(Exception):
    """A located, user-facing error (bad sweep file, bad option, unusable backend)."""
