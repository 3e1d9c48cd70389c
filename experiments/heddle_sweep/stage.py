# SPDX-License-Identifier: MIT
"""stage - what an experiment's script shares when it is also run by hand or by its driver
(experiments/<name>.sh) to generate a later sweep from an earlier one (issue 23 item 7):

- its command line, `experiments/<name>.py COMMAND ARG...` (main): the command is run when the
  number of arguments is the one it takes; anything else prints the usage, one line per
  command, and exits with status 1;
- stage 1's tidy table (read_stage1, the CSV of `sweep.py STAGE1 --csv`): every point ok and
  with its cycles, or the script stops naming those that are not;
- the generated sweep file's shared parts: the standalone points of stage 1 again (stored
  already, so not rerun) and the collected cycles (standalone_grid, write_sweep).
"""

import csv
import sys

from .outfile import write_atomic


def main(prog, commands, argv=None):
    """commands: [(name, function, "ARG ...", note)]; argv defaults to sys.argv[1:]. Returns
    what the chosen function returns."""
    argv = sys.argv[1:] if argv is None else argv
    for name, fn, args, _ in commands:
        if argv and argv[0] == name and len(argv) - 1 == len(args.split()):
            return fn(*argv[1:])
    sys.exit("usage: " + "\n       ".join(f"{prog} {name} {args}" + (f"  {note}" if note else "")
                                          for name, _, args, note in commands))


def read_stage1(path, prog):
    """The rows of stage 1's tidy table; exits when a point failed or has no cycles."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    bad = [r for r in rows if r.get("status") != "ok" or not r.get("cycles")]
    if bad or not rows:
        sys.exit(f"{prog}: stage 1 is not complete: " +
                 ", ".join(f"{r.get('workload')}: {r.get('status')}" for r in bad or [{}]))
    return rows


def standalone_grid(rows):
    """The sweep-file lines of stage 1's standalone points (workload, config, size)."""
    lines = []
    for r in rows:
        lines += ["[[grid]]", f'workload = "{r["workload"]}"', f'config = "{r["config"]}"',
                  f'size = "{r["size"]}"', ""]
    return lines


def write_sweep(path, lines):
    """The generated sweep file: `lines`, then the cycles collected from every run."""
    write_atomic(path, "\n".join(lines + ["[collect]", 'cycles = "timing.totals.cycles"']) + "\n")
