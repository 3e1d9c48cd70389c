#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""safety.py - data safety of the sweep runner (issue 17; experiments/heddle_sweep/outfile.py):

  store     a runner killed with SIGKILL in the middle of a point's transaction leaves a sound
            SQLite store (integrity_check ok) holding every committed point and not the one
            being written (the next run reruns it)
  report    a report file (report.Context.write_text) killed half way keeps the old file; a
            complete write replaces it whole, no temporary file left; a PNG through
            figures' atomic path gets its format from the target's extension
  clobber   `sweep.py FILE --db FILE` (the store over the sweep file) and --db over a
            configuration the sweep reads are refused with exit 2 before anything runs, the
            file unchanged; a report file named like an input is refused by Context.path;
            a grid of more than MAX_POINTS points is a located error (nothing expanded)

  tests/sweep/safety.py SUBCOMMAND HEDDLE     prints "PASS sweep-safety SUBCOMMAND"
Each case takes about a second (no heddle run)."""

import glob
import os
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXP = os.path.join(ROOT, "experiments")
SWEEP = os.path.join(EXP, "sweep.py")
sys.path.insert(0, EXP)

from heddle_sweep import SweepError, spec  # noqa: E402
from heddle_sweep.heddle import Heddle  # noqa: E402
from heddle_sweep.outfile import atomic_path, write_atomic  # noqa: E402
from heddle_sweep.report import Context  # noqa: E402
from heddle_sweep.store import Store  # noqa: E402


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def child(code, *args):
    """Run python code in a child; its return code (negative: the signal)."""
    return subprocess.run([sys.executable, "-c", code, EXP, *args]).returncode


STORE_KILLER = """
import os, signal, sys
sys.path.insert(0, sys.argv[1])
from heddle_sweep.spec import Point
from heddle_sweep.store import Store
st = Store(sys.argv[2])
for i in range(5):
    p = Point(axes={"workload": f"w{i}"}, argv=["run", f"w{i}"])
    st.put("s", p, f"key{i}", "id", {"status": "ok", "stats": "x" * 100000}, "local", 0.1)
p = Point(axes={"workload": "w5"}, argv=["run", "w5"])
st.db.execute("INSERT INTO points (key, sweep, label, axes, argv, identity, status, backend, "
              "finished) VALUES ('key5', 's', 'w5', '{}', '[]', 'id', 'ok', 'local', 'now')")
os.kill(os.getpid(), signal.SIGKILL)   # the sixth point's transaction is open
"""


def case_store(tmp):
    db = os.path.join(tmp, "store.sqlite")
    rc = child(STORE_KILLER, db)
    if rc != -signal.SIGKILL:
        fail(f"the store writer ended with {rc}, not SIGKILL")
    st = Store(db)  # recovers the WAL
    try:
        ok = st.db.execute("PRAGMA integrity_check").fetchone()[0]
        keys = sorted(r[0] for r in st.db.execute("SELECT key FROM points"))
    finally:
        st.close()
    if ok != "ok":
        fail(f"integrity_check after SIGKILL: {ok}")
    if keys != [f"key{i}" for i in range(5)]:
        fail(f"points after SIGKILL: {keys} (want key0..key4, not the open key5)")
    print(f"store: SIGKILL mid-transaction: integrity ok, {len(keys)} committed points kept, "
          "the open one absent")


REPORT_KILLER = """
import os, signal, sys
sys.path.insert(0, sys.argv[1])
from heddle_sweep.outfile import atomic_path
with atomic_path(sys.argv[2]) as tmp:
    with open(tmp, "w") as f:
        f.write("NEW " * 100000)
        f.flush()
        os.kill(os.getpid(), signal.SIGKILL)   # half way through the report
"""


def case_report(tmp):
    p = os.path.join(tmp, "report.md")
    with open(p, "w") as f:
        f.write("OLD\n")
    rc = child(REPORT_KILLER, p)
    if rc != -signal.SIGKILL:
        fail(f"the report writer ended with {rc}, not SIGKILL")
    if open(p).read() != "OLD\n":
        fail("report.md damaged by a killed write")
    left = glob.glob(os.path.join(tmp, ".report.tmp-*"))
    if len(left) != 1:
        fail(f"expected the killed write's temporary file, found {left}")
    os.unlink(left[0])
    write_atomic(p, "NEW\n")
    if open(p).read() != "NEW\n" or glob.glob(os.path.join(tmp, ".*tmp-*")):
        fail("a complete write did not replace report.md whole or left a temporary file")
    try:  # a failing writer: the old file stays, no temporary file
        with atomic_path(p) as t:
            with open(t, "w") as f:
                f.write("HALF")
            raise RuntimeError("analysis failed")
    except RuntimeError:
        pass
    if open(p).read() != "NEW\n" or glob.glob(os.path.join(tmp, ".*tmp-*")):
        fail("a failed write changed report.md or left a temporary file")
    with atomic_path(os.path.join(tmp, "fig.png")) as t:
        if not t.endswith(".png"):
            fail(f"the temporary name {t} lost the extension the writer's format comes from")
    print("report: SIGKILL mid-write keeps the old file; complete and failed writes clean")


def case_clobber(tmp, heddle):
    toml = os.path.join(tmp, "s.toml")
    text = '[sweep]\nname = "s"\n[[grid]]\nworkload = ["vecadd"]\nconfig = ["cfg.ini"]\n'
    with open(toml, "w") as f:
        f.write(text)
    cfg = os.path.join(tmp, "cfg.ini")
    cfg_text = subprocess.run([heddle, "config"], capture_output=True, text=True).stdout
    with open(cfg, "w") as f:
        f.write(cfg_text)
    for db, what in ((toml, "the sweep file"), (cfg, "the configuration"),
                     (heddle, "the heddle binary")):
        before = open(db, "rb").read()
        r = subprocess.run([sys.executable, SWEEP, toml, "--heddle", heddle, "--db", db,
                            "--out", os.path.join(tmp, "out")], capture_output=True, text=True)
        print(r.stderr.strip())
        if r.returncode != 2 or f"would overwrite {what}" not in r.stderr:
            fail(f"--db over {what}: exit {r.returncode}: {r.stderr}")
        if open(db, "rb").read() != before:
            fail(f"--db over {what} changed it")
    if os.path.exists(os.path.join(tmp, "out")):
        fail("the refused sweep created its report directory")
    # a report file named like an input (the analysis writes into the sweep file's directory)
    sw = spec.load(toml, Heddle(heddle, ROOT), ROOT)
    st = Store(os.path.join(tmp, "st.sqlite"))
    try:
        ctx = Context(sw, st, [], tmp, ROOT)
        try:
            ctx.write_text("s.toml", "x")
            fail("a report file over the sweep file was written")
        except SweepError as e:
            print(f"report over the sweep file: {e}")
        try:
            ctx.write_text("st.sqlite", "x")
            fail("a report file over the results store was written")
        except SweepError as e:
            print(f"report over the store: {e}")
    finally:
        st.close()
    if open(toml).read() != text:
        fail("the sweep file changed")
    big2 = os.path.join(tmp, "big2.toml")
    with open(big2, "w") as f:
        f.write('[sweep]\nname = "big2"\n[[grid]]\nworkload = ["vecadd"]\n'
                f"set.gpu.num_sms = {list(range(1, 401))}\n"
                f"set.l1d.sets = {list(range(1, 401))}\n")
    try:
        spec.load(big2, Heddle(heddle, ROOT), ROOT)
        fail("a grid of 160000 points was expanded")
    except SweepError as e:
        if "expands to 160000 points" not in str(e) or "big2.toml:3" not in str(e):
            fail(f"a huge grid's error: {e}")
        print(f"huge grid: {e}")
    print("clobber: the store and report files never overwrite an input")


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    sub, heddle = sys.argv[1], os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        if sub == "store":
            case_store(tmp)
        elif sub == "report":
            case_report(tmp)
        elif sub == "clobber":
            case_clobber(tmp, heddle)
        else:
            print(f"safety.py: unknown subcommand {sub}")
            return 2
    print(f"PASS sweep-safety {sub}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
