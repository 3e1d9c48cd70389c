# SPDX-License-Identifier: MIT
"""heddle_sweep - sweeps of Heddle runs: a grid described in a TOML file, run locally in
parallel or as a Slurm job array, every result kept in SQLite, figures drawn as PNG.

Modules: spec (the sweep file: parse, validate, expand into points), point (run one point as
one `heddle` process and capture its result), store (the SQLite results store), local and
slurm (the backends), runner (resume, progress, exit status), figures (PNG plots in the
papers' style), report (Markdown reports), cli (experiments/sweep.py), outfile (the sweep's
words for pylib/hdout.py, which writes every output file, shared with synth/).
Python 3.11 standard library; figures need Debian's python3-matplotlib.
"""

import os
import sys

# pylib/ (hdout: how the tools write their outputs), beside this package's folder
_PYLIB = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "pylib")
if _PYLIB not in sys.path:
    sys.path.append(_PYLIB)


class SweepError(Exception):
    """A located, user-facing error (bad sweep file, bad option, unusable backend)."""
