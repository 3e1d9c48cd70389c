# SPDX-License-Identifier: MIT
"""experiments/sweep.py: the command line of the sweep runner."""

import argparse
import importlib.util
import os
import shlex
import sys
import traceback

from hdout import write_csv

from . import SweepError, spec
from .heddle import Heddle
from .local import LocalBackend, default_workers
from .outfile import check_paths
from .report import Context, inputs
from .runner import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, point_key, run
from .store import Store, tidy

USAGE_EPILOG = """\
exit status: 0 every point ok (and the report written), 1 some point failed or has no
result (each is listed), 2 bad sweep file or usage, 130 interrupted (rerun to resume).
The sweep file format and how to write an experiment: experiments/README.md."""


def parse_args(argv, root):
    ap = argparse.ArgumentParser(
        prog="sweep.py", description="Run a sweep of heddle runs (a grid described in a TOML "
        "file) locally or as a Slurm job array, keep every result in SQLite, and write the "
        "experiment's report and figures.", epilog=USAGE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", help="the sweep file (TOML)")
    ap.add_argument("--backend", choices=("local", "slurm"), default="local")
    ap.add_argument("-j", "--workers", type=int, default=0,
                    help="local backend: heddle processes at once (default: the cores)")
    ap.add_argument("--heddle", default=os.path.join(root, "build", "heddle"),
                    help="the heddle binary (default: build/heddle)")
    ap.add_argument("--out", help="report directory (default: experiments/results/NAME)")
    ap.add_argument("--db", help="results store (default: OUT/store.sqlite)")
    ap.add_argument("--retry-failed", action="store_true",
                    help="rerun the points that failed too (by default only those with no "
                    "answer from heddle are rerun)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per point before it is killed (default: the sweep file's, "
                    "else none)")
    ap.add_argument("--dry-run", action="store_true",
                    help="check the sweep file and list its points; run nothing")
    ap.add_argument("--csv", action="store_true",
                    help="print the sweep's results from the store as CSV; run nothing")
    ap.add_argument("--no-report", action="store_true", help="do not run the analysis")
    ap.add_argument("--report-only", action="store_true",
                    help="write the report from the store; run nothing")
    sl = ap.add_argument_group("slurm backend")
    sl.add_argument("--chunk", type=int, default=4,
                    help="points per array task (default 4)")
    sl.add_argument("--partition", help="sbatch --partition")
    sl.add_argument("--sbatch-arg", action="append", default=[],
                    help="one more sbatch option, e.g. --sbatch-arg=--time=10 (repeatable)")
    sl.add_argument("--poll", type=float, default=1.0,
                    help="seconds between squeue polls (default 1)")
    sl.add_argument("--workdir", help="shared directory for the job's files "
                    "(default: OUT/slurm)")
    a = ap.parse_args(argv)
    for name in ("workers", "chunk"):
        if getattr(a, name) < 0 or (name == "chunk" and a.chunk == 0):
            ap.error(f"--{name} must be positive")
    return a


def main(argv, root):
    try:
        a = parse_args(argv, root)
    except SystemExit as e:
        return EXIT_USAGE if e.code not in (0, None) else 0
    try:
        heddle = Heddle(a.heddle, root)
        sweep = spec.load(a.file, heddle, root)
        out = os.path.abspath(a.out) if a.out else \
            os.path.join(root, "experiments", "results", sweep.name)
        db = os.path.abspath(a.db) if a.db else os.path.join(out, "store.sqlite")
        # the store never overwrites an input (the sweep file, a configuration, heddle ...)
        check_paths(inputs(sweep, root, heddle.path), [("--db", db)])
        if a.timeout is not None:
            if spec.check_timeout(a.timeout) is not None:
                raise SweepError(f"--timeout {spec.check_timeout(a.timeout)}")
            sweep.timeout = a.timeout
        if a.dry_run:
            identity = heddle.identity()
            print(f"# {sweep.name}: {len(sweep.points)} points ({identity})")
            for p in sweep.points:
                print(f"{point_key(p, identity)[:16]}  heddle {shlex.join(p.argv)}")
            return EXIT_OK
        if a.csv:
            if not os.path.exists(db):
                raise SweepError(f"no results store at {db}: run the sweep first (or --db)")
            keys = [point_key(p, heddle.identity()) for p in sweep.points]
            st = Store(db)
            try:
                write_csv(tidy(st, sweep, keys), sys.stdout)
            finally:
                st.close()
            return EXIT_OK
        status = EXIT_OK
        if not a.report_only:
            if a.backend == "local":
                backend = LocalBackend(heddle.path, root, a.workers or default_workers(),
                                       sweep.timeout)
            else:
                from .slurm import SlurmBackend
                backend = SlurmBackend(heddle.path, root, sweep, a, out)
            status, _ = run(sweep, heddle, db, backend, a.retry_failed)
        if sweep.analysis and not a.no_report and status == EXIT_OK:
            if a.report_only and not os.path.exists(db):
                raise SweepError(f"no results store at {db}: run the sweep first (or --db)")
            status = analyse(sweep, heddle, db, out, root)
        elif sweep.analysis and status == EXIT_FAILED:
            print(f"{sweep.name}: report not written: some points are not ok", file=sys.stderr)
        return status
    except SweepError as e:
        print(f"sweep.py: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("sweep.py: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:         # stdout closed by a pager or head: nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def analyse(sweep, heddle, db, out, root):
    """Load the sweep's analysis script and call its report(ctx)."""
    mod_spec = importlib.util.spec_from_file_location(
        "hd_analysis_" + sweep.name.replace("-", "_").replace(".", "_"), sweep.analysis)
    mod = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(mod)
    if not hasattr(mod, "report"):
        raise SweepError(f"{sweep.analysis}: defines no report(ctx) function")
    keys = [point_key(p, heddle.identity()) for p in sweep.points]
    st = Store(db)
    try:
        ctx = Context(sweep, st, keys, out, root, heddle.identity())
        mod.report(ctx)
    except SweepError:
        raise
    except Exception:
        traceback.print_exc()
        print(f"{sweep.name}: the report failed: {sweep.analysis} raised the error above",
              file=sys.stderr)
        return EXIT_FAILED
    finally:
        st.close()
    for f in ctx.written:
        print(f"{sweep.name}: written {os.path.relpath(f, os.getcwd())}", file=sys.stderr)
    return EXIT_OK
