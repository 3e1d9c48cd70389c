#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check.py - the tests of experiments/sweep.py (tests/sweep.cmake runs one subcommand per CTest):

  errors     bad sweep files (malformed TOML, unknown axis, workload, parameter, config, size,
             flags, table) give exit 2 and a FILE:LINE error before anything runs (no store)
  local      3 workloads x 3 configurations x 2 schedulers, 2 workers: killed (SIGKILL, the whole
             process group) part way, rerun runs exactly the missing points; a third run none;
             --csv gives one row per point
  failure    a bad --set value: the point is recorded as failed with heddle's message and exit
             code, the sweep exits 1 and names it; a rerun keeps it (no rerun) and still exits 1
  slurm      the same grid as `local` on a private one-node Slurm cluster (slurm-localhost.sh)
             as a job array: every point's canonical result is byte-identical to the local
             backend's; records lost by the runner are collected from the job directory and
             only missing points resubmitted; exit 77 (CTest: skipped) with the reason when
             Slurm cannot run here
  baselines  the memory-baselines analysis on a small sweep (memory-baselines-small.toml):
             report.md with the paper's values, latency.png and bandwidth.png, JSON
  figures    bar (normalised, geometric mean), line and box PNGs with the paper's values, the
             same bytes when drawn twice

  tests/sweep/check.py SUBCOMMAND HEDDLE [TMPDIR]
Prints what it measured (e.g. the runner's time per point beyond heddle)."""

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SWEEP = os.path.join(ROOT, "experiments", "sweep.py")
SKIP = 77

GRID = """\
[sweep]
name = "grid"
quiet = true

[[grid]]
workload = ["chase", "chase_l2", "vecadd"]
config = ["fermi-gtx480", "kepler-gk110", "maxwell-gpuduet"]
set.sm.scheduler = ["lrr", "gto"]

[collect]
cycles = "timing.totals.cycles"
"""


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def sweep(heddle, *args, env=None, timeout=240):
    """Run sweep.py; a run over `timeout` seconds fails the test (under CTest's own timeout,
    so that the slurm test still stops the daemons it started)."""
    try:
        p = subprocess.run([sys.executable, SWEEP, *args, "--heddle", heddle], cwd=ROOT,
                           capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"sweep.py {' '.join(args)}: still running after {timeout} s")
    return p.returncode, p.stdout, p.stderr


def rows(db):
    con = sqlite3.connect(db)
    try:
        return {k: (st, sha, stats, out) for k, st, sha, stats, out in
                con.execute("SELECT key, status, result_sha, stats, stdout FROM points")}
    finally:
        con.close()


def count(db):
    if not os.path.exists(db):
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return con.execute("SELECT count(*) FROM points").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def planned(stderr):
    m = re.search(r": (\d+) points, (\d+) already in .*?, (\d+) to run", stderr)
    if not m:
        fail(f"no plan line in the runner's output:\n{stderr}")
    return tuple(int(x) for x in m.groups())


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


# ---- errors ----
BAD = [
    ("malformed.toml", '[[grid]\nworkload = ["vecadd"]\n', r":1:\d+: malformed TOML"),
    ("axis.toml", '[[grid]]\nworkload = ["vecadd"]\nschedulr = ["lrr"]\n',
     r":3: unknown axis 'schedulr'"),
    ("workload.toml", '[sweep]\nname = "w"\n\n[[grid]]\nworkload = ["vecadd",\n  "nosuch"]\n',
     r":6: unknown workload .*'nosuch'"),
    ("param.toml", '[[grid]]\nworkload = "vecadd"\nset.sm.schedulr = ["lrr"]\n',
     r":3: unknown axis 'set.sm.schedulr'"),
    ("config.toml", '[[grid]]\nworkload = "vecadd"\n\nconfig = ["fermi-gtx480", "nosuch"]\n',
     r":4: unknown config .*'nosuch'"),
    ("size.toml", '[[grid]]\nworkload = "vecadd"\nsize = "huge"\n', r":3: unknown size"),
    ("flags.toml", '[[grid]]\nworkload = "vecadd"\nflags = ["--frobnicate"]\n',
     r":3: unknown flags"),
    ("table.toml", '[[grid]]\nworkload = "vecadd"\n[grids]\nx = 1\n',
     r":3: unknown table or key 'grids'"),
    ("both.toml", '[[grid]]\nworkload = "vecadd"\nmix = "sgemm+vecadd"\n',
     r":1: grid 1 must name exactly one"),
    ("collect.toml", '[[grid]]\nworkload = "vecadd"\n[collect]\ncycles = "timing..x"\n',
     r":4: \[collect\] cycles must be a dotted path"),
    ("empty.toml", '[sweep]\nname = "x"\n', r":1: no \[\[grid\]\] table"),
    ("scalar.toml", 'x = 1\nsweep = 3\n[[grid]]\nworkload = "vecadd"\n',
     r":1: unknown table or key 'x'"),
    ("type.toml", 'sweep = 3\n[[grid]]\nworkload = "vecadd"\n',
     r":1: 'sweep' must be a table"),
    ("mix.toml", '[sweep]\nquiet = true\n[[grid]]\nmix = ["sgemm+vecadd", "a+b"]\n',
     r":4: unknown mix .*'a\+b'"),
]


def t_errors(heddle, tmp):
    db = os.path.join(tmp, "never.sqlite")
    for name, text, want in BAD:
        path = write(os.path.join(tmp, name), text)
        rc, out, err = sweep(heddle, path, "--db", db, "--no-report")
        if rc != 2 or not re.search(re.escape(path) + want, err):
            fail(f"{name}: expected exit 2 and /{want}/, got exit {rc}: {err.strip()}")
        if os.path.exists(db):
            fail(f"{name}: a store was created: something ran")
        print(f"ok {name}: {err.strip()}")
    rc, out, err = sweep(heddle, os.path.join(tmp, "missing.toml"))
    if rc != 2 or "cannot read the sweep file" not in err:
        fail(f"missing file: exit {rc}: {err}")
    print("every bad sweep file rejected with its line, before anything ran")


# ---- local ----
def t_local(heddle, tmp):
    spec = write(os.path.join(tmp, "grid.toml"), GRID)
    db = os.path.join(tmp, "local.sqlite")
    args = [sys.executable, SWEEP, spec, "--heddle", heddle, "-j", "2", "--db", db]
    # its scratch files (left by the SIGKILL) go into this test's directory
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True,
                            env=dict(os.environ, TMPDIR=tmp))
    t0 = time.time()
    while count(db) < 7 and proc.poll() is None and time.time() - t0 < 120:
        time.sleep(0.01)
    before = count(db)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    stored = count(db)
    print(f"killed the sweep (SIGKILL to its process group) with {before} of 18 points "
          f"stored; {stored} in the store after the kill")
    if not 0 < stored < 18:
        fail(f"could not interrupt the sweep part way ({stored} points stored)")
    rc, out, err = sweep(heddle, spec, "-j", "2", "--db", db)
    total, done, todo = planned(err)
    print(err.strip())
    if (total, done, todo) != (18, stored, 18 - stored) or rc != 0:
        fail(f"rerun: expected 18 points, {stored} done, {18 - stored} to run, exit 0; got "
             f"{total}, {done}, {todo}, exit {rc}")
    r = rows(db)
    if len(r) != 18 or any(v[0] != "ok" for v in r.values()):
        fail(f"after the rerun: {len(r)} points, statuses {sorted(v[0] for v in r.values())}")
    rc, out, err = sweep(heddle, spec, "--db", db)
    if planned(err) != (18, 18, 0) or rc != 0:
        fail(f"third run: expected nothing to run and exit 0, got {planned(err)}, exit {rc}")
    rc, out, err = sweep(heddle, spec, "--db", db, "--csv")
    lines = out.strip().splitlines()
    if rc != 0 or len(lines) != 19 or not lines[0].startswith("workload,config,"
                                                              "set.sm.scheduler,status"):
        fail(f"--csv: exit {rc}, {len(lines)} lines: {lines[:2]}")
    if any(",ok," not in l or l.split(",")[-2] == "" for l in lines[1:]):
        fail(f"--csv: a row without status ok or cycles: {lines[1:]}")
    print("resume ran exactly the missing points; --csv has every point with its cycles")


# ---- failure ----
def t_failure(heddle, tmp):
    spec = write(os.path.join(tmp, "fail.toml"), '[[grid]]\nworkload = "chase"\n'
                 'set.sm.scheduler = ["gto", "bogus"]\n')
    db = os.path.join(tmp, "fail.sqlite")
    for attempt in (1, 2):
        rc, out, err = sweep(heddle, spec, "-j", "2", "--db", db)
        if rc != 1 or "1 of 2 points not ok" not in err or \
                not re.search(r"NOT OK: chase bogus: failed: exit 2: .*unknown value 'bogus'",
                              err):
            fail(f"run {attempt}: expected exit 1 naming the failed point, got {rc}: {err}")
        if attempt == 2 and planned(err) != (2, 2, 0):
            fail(f"rerun ran a point again: {planned(err)}")
    con = sqlite3.connect(db)
    st = con.execute("SELECT status, exit_code, message FROM points WHERE axes LIKE "
                     "'%bogus%'").fetchall()
    con.close()
    if len(st) != 1 or st[0][0] != "failed" or st[0][1] != 2 or "bogus" not in st[0][2]:
        fail(f"the failed point's record: {st}")
    print(f"failed point recorded: status {st[0][0]}, exit {st[0][1]}, message: "
          f"{st[0][2]!r}; the sweep exits 1")


# ---- slurm ----
def t_slurm(heddle, tmp):
    cluster = os.path.join(tmp, "cluster")
    helper = os.path.join(HERE, "slurm-localhost.sh")
    p = subprocess.run([helper, "start", cluster, "2"], capture_output=True, text=True)
    if p.returncode == SKIP:
        print(p.stderr.strip() or "slurm-localhost.sh: skipped")
        return SKIP
    if p.returncode != 0:
        fail(f"slurm-localhost.sh start: exit {p.returncode}: {p.stderr}")
    try:
        env = dict(os.environ, SLURM_CONF=os.path.join(cluster, "slurm.conf"))
        spec = write(os.path.join(tmp, "grid.toml"), GRID)
        dbl, dbs = os.path.join(tmp, "local.sqlite"), os.path.join(tmp, "slurm.sqlite")
        t0 = time.time()
        rc, out, err = sweep(heddle, spec, "-j", "2", "--db", dbl)
        tl = time.time() - t0
        if rc != 0:
            fail(f"local backend: exit {rc}: {err}")
        t0 = time.time()
        rc, out, err = sweep(heddle, spec, "--backend", "slurm", "--chunk", "3", "--poll",
                             "0.5", "--db", dbs, "--workdir", os.path.join(tmp, "jobs"),
                             env=env, timeout=150)
        ts = time.time() - t0
        print(err.strip())
        if rc != 0 or "submitted Slurm job" not in err:
            fail(f"slurm backend: exit {rc}")
        a, b = rows(dbl), rows(dbs)
        if set(a) != set(b) or len(a) != 18:
            fail(f"different points: local {len(a)}, slurm {len(b)}")
        from_slurm = set()
        con = sqlite3.connect(dbs)
        for (backend,) in con.execute("SELECT DISTINCT backend FROM points"):
            from_slurm.add(backend)
        con.close()
        if from_slurm != {"slurm"}:
            fail(f"slurm store holds records of {from_slurm}")
        sys.path.insert(0, os.path.join(ROOT, "experiments"))
        from heddle_sweep.heddle import canonical_result
        for k in a:
            ca, cb = canonical_result(a[k][2], a[k][3]), canonical_result(b[k][2], b[k][3])
            if a[k][0] != "ok" or b[k][0] != "ok" or ca != cb or a[k][1] != b[k][1]:
                fail(f"point {k[:16]}: local and slurm results differ")
        print(f"18 points: local backend (2 workers) {tl:.1f} s, slurm job array (6 tasks "
              f"of 3) {ts:.1f} s; every point's canonical result byte-identical")
        # a runner that lost its records (as if killed while its job went on): the rerun
        # collects them from the job directory and submits nothing; then 4 really missing
        # points (their records gone too) are submitted as a new job of 2 tasks
        con = sqlite3.connect(dbs)
        con.execute("DELETE FROM points WHERE key IN (SELECT key FROM points ORDER BY key "
                    "LIMIT 9)")
        con.commit()
        gone = [k for (k,) in con.execute("SELECT key FROM points ORDER BY key LIMIT 4")]
        con.execute(f"DELETE FROM points WHERE key IN ({','.join('?' * len(gone))})", gone)
        con.commit()
        con.close()
        jobs = os.path.join(tmp, "jobs")
        for j in os.listdir(jobs):
            for k in gone:
                rec = os.path.join(jobs, j, "results", k + ".json")
                if os.path.exists(rec):
                    os.unlink(rec)
        rc, out, err = sweep(heddle, spec, "--backend", "slurm", "--chunk", "2", "--poll",
                             "0.5", "--db", dbs, "--workdir", jobs, env=env, timeout=150)
        print(err.strip())
        if rc != 0 or planned(err) != (18, 5, 13) or \
                "9 points collected from earlier Slurm jobs" not in err or \
                "(2 array tasks of up to 2 points" not in err:
            fail(f"slurm resume: exit {rc}, plan {planned(err)}")
        b = rows(dbs)
        if any(b[k][1] != a[k][1] for k in a) or len(b) != 18:
            fail("slurm resume: results differ from the local backend's")
        print("slurm resume: 9 records collected from the earlier job, 4 points rerun as a "
              "job of 2 array tasks; still identical to local")
        return 0
    finally:
        subprocess.run([helper, "stop", cluster])


# ---- baselines ----
def t_baselines(heddle, tmp):
    out = os.path.join(tmp, "mb")
    rc, o, err = sweep(heddle, os.path.join(HERE, "memory-baselines-small.toml"), "-j", "2",
                       "--out", out)
    if rc != 0:
        fail(f"exit {rc}: {err}")
    for png in ("latency.png", "bandwidth.png"):
        with open(os.path.join(out, png), "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                fail(f"{png} is not a PNG")
    rep = open(os.path.join(out, "report.md")).read()
    for want in ("![latency per level](latency.png)", "| 450 | Lin thesis Table 3.1",
                 "| 307 | Lin thesis Table 3.1", "## maxwell-gpuduet"):
        if want not in rep:
            fail(f"report.md lacks {want!r}")
    if not os.path.exists(os.path.join(out, "memory-baselines.json")):
        fail("no memory-baselines.json")
    print(err.strip())
    print("report.md, latency.png and bandwidth.png written from the store, paper values beside")


# ---- figures ----
def t_figures(heddle, tmp):
    sys.path.insert(0, os.path.join(ROOT, "experiments"))
    from heddle_sweep import figures
    cats = ["bfs", "sgemm", "lbm"]
    def draw(d):
        figures.bar_panels(os.path.join(d, "bars.png"), [{
            "title": "speedup", "ylabel": "normalised IPC", "categories": cats,
            "series": {"base": [1.0, 2.0, 4.0], "ours": [1.5, 2.0, 2.0]},
            "paper": {"paper": ["1.4", "0.9-1.1", None]}, "normalise": "base",
            "geomean": True}])
        figures.lines(os.path.join(d, "lines.png"), [1, 2, 4, 8], {"ours": [1, 1.8, 3.1, 4.0]},
                      "ME", "speedup", paper={"paper": [None, "1.9", "3.0", "~4"]}, logx=True)
        figures.boxes(os.path.join(d, "boxes.png"), {"a": [1, 2, 3, 4], "b": [2, 2.5, 3]},
                      "slowdown", paper={"a": "1.5-3.5"})
    a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    os.makedirs(a)
    os.makedirs(b)
    draw(a)
    draw(b)
    for png in ("bars.png", "lines.png", "boxes.png"):
        da, db = (open(os.path.join(d, png), "rb").read() for d in (a, b))
        if not da.startswith(b"\x89PNG\r\n\x1a\n") or da != db:
            fail(f"{png}: not a PNG, or not the same bytes when drawn twice")
    if figures.paper_range("400-800") != (400.0, 800.0) or \
            figures.paper_range("~60 (of 614 GB/s)") != (60.0, 60.0) or \
            abs(figures.geomean([1.0, 4.0]) - 2.0) > 1e-12:
        fail("paper_range or geomean")
    print("bar (normalised, geometric mean, paper beside), line and box PNGs; same data, "
          "same bytes")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    what, heddle = sys.argv[1], os.path.abspath(sys.argv[2])
    tests = {"errors": t_errors, "local": t_local, "failure": t_failure, "slurm": t_slurm,
             "baselines": t_baselines, "figures": t_figures}
    if what not in tests:
        print(f"check.py: unknown test '{what}'", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix=f"hd-sweep-{what}-", dir=sys.argv[3] if len(sys.argv) > 3
                           else None)
    try:
        rc = tests[what](heddle, tmp) or 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if rc == 0:
        print(f"PASS sweep {what}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
