# SPDX-License-Identifier: MIT
"""outfile - the sweep's outputs never clobber its inputs and report files are written whole
(issue 17, data safety).

- Report files (Markdown, JSON, CSV through report.Context; PNG figures through figures.py) are
  written whole or not at all, by pylib/hdout.py (shared with the synthesis flow): a temporary
  file beside the target renamed over it when complete; a symbolic link is followed and kept; a
  target that is not a regular file (/dev/null) is written in place.
- The results store (SQLite) is not a file written once: every point is one transaction in
  WAL mode (store.py), so a killed runner leaves every committed point and a sound database
  (tests/sweep/store_safety.py checks it), and the next run reruns the rest.
- check_paths refuses, before anything runs, a store or report file that names an input (the
  sweep file, its analysis script, a configuration it reads, the heddle binary) or another
  output. Paths are compared by identity (device and inode, else the canonical path).
This file gives hdout's writers the sweep's error (SweepError, "PATH: why") and its words.
"""

import hdout

from . import SweepError


def _fail(path, msg):
    return SweepError(f"{path}: {msg}")


def atomic_path(path):
    """A temporary path to write `path` by name (matplotlib's savefig); renamed over `path`
    when the block ends normally, removed when it raises (a context manager)."""
    return hdout.atomic_path(path, _fail)


def save_figure(fig, path, **savefig):
    """A matplotlib figure written whole (savefig's options as keywords)."""
    hdout.save_figure(fig, path, _fail, **savefig)


def write_atomic(path, text):
    """Write the str `text` to `path` through a temporary file."""
    hdout.write_atomic(path, text, _fail)


def check_paths(inputs, outputs):
    """inputs, outputs: lists of (what, path) (None paths skipped). Raises SweepError when an
    output names an input or another output."""
    clash = hdout.find_clash(inputs, outputs)
    if clash is None:
        return
    kind, (w, p), (w2, p2) = clash
    if kind == "input":
        raise SweepError(f"{w} {p} would overwrite {w2} {p2}")
    raise SweepError(f"{w} {p} and {w2} {p2} write the same file")
