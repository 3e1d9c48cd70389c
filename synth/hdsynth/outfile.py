# SPDX-License-Identifier: MIT
"""outfile - the flow's reports (synth.txt, synth.json) written atomically, and no report path
naming an input (issue 17, data safety).

A report is written whole or not at all by pylib/hdout.py (shared with the experiments' sweep
tool): a temporary file beside it (`.NAME.tmp-XXXXXX.EXT`), flushed to disk and renamed over the
target only when complete, so a killed or failed run leaves the old report or the complete new
one. A symbolic link is followed (the file it names is replaced, the link kept); a target that
is not a regular file (/dev/null) is written in place. Paths are compared by identity (device
and inode when both exist, else the canonical path), so "./x.json" and "x.json" are the same
file. This file gives hdout the flow's error (FlowError) and its words. The same rules as the
`heddle` command's outputs (model/hw/hd_outfile.c, model/cli/cli_out.c).
"""

import hdout

from .errors import FlowError


def write_atomic(path, chunks, what="report"):
    """Write `chunks` (a str, or an iterable of str) to `path` through a temporary file."""
    hdout.write_atomic(path, chunks, lambda p, msg: FlowError(p, f"{what}: {msg}"))


def write_json(path, obj, what="report"):
    """obj as JSON (sorted keys, indent 2, a final newline), written atomically."""
    hdout.write_json(path, obj, 2, lambda p, msg: FlowError(p, f"{what}: {msg}"))


def check_paths(inputs, outputs):
    """Refuse, before the run, an output naming an input or another output.

    inputs, outputs: lists of (what, path); None paths are skipped. Raises FlowError."""
    clash = hdout.find_clash(inputs, outputs)
    if clash is None:
        return
    kind, (w, p), (w2, p2) = clash
    if kind == "input":
        raise FlowError(w, f"{p} would overwrite the input {w2} {p2}")
    raise FlowError(w, f"{p} and {w2} {p2} write the same file")
