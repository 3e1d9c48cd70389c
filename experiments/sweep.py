#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""sweep.py - run a sweep of heddle runs described in a TOML file, locally in parallel or as a
Slurm job array; keep every result in SQLite; write the experiment's report and PNG figures.

    experiments/sweep.py FILE [--backend local|slurm] [-j N] [--heddle PATH] [--csv] ...
    experiments/sweep.py --help

Needs Python 3.11 (tomllib); figures need Debian's python3-matplotlib, which lives in the
system interpreter: when the python3 on PATH lacks matplotlib and /usr/bin/python3 has it, the
tool re-runs itself with /usr/bin/python3. The sweep file format and how to write an
experiment: experiments/README.md.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEM_PYTHON = "/usr/bin/python3"


def _want_system_python():
    if importlib.util.find_spec("matplotlib") is not None or os.environ.get("HD_SWEEP_REEXEC"):
        return False
    return os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON) and \
        os.access(SYSTEM_PYTHON, os.X_OK)


if __name__ == "__main__":
    if sys.version_info < (3, 11):
        sys.exit("sweep.py: needs Python 3.11 or newer (tomllib)")
    if _want_system_python():
        os.environ["HD_SWEEP_REEXEC"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__), *sys.argv[1:]])
    sys.path.insert(0, HERE)
    if len(sys.argv) == 4 and sys.argv[1] == "--slurm-task":
        from heddle_sweep.slurm import task_main
        sys.exit(task_main(sys.argv[2], sys.argv[3]))
    from heddle_sweep.cli import main
    sys.exit(main(sys.argv[1:], os.path.dirname(HERE)))
