#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""robust.py - robustness of the sweep runner (issue 34 items 4, 5, 6, 8 and 10):

  key_files     a point's key holds the contents of a file named by a configuration value
                ([context] oracle_profile, by --set or inside a --config file): editing the
                profile changes the key (the rerun does not say "already in store")
  interrupted   heddle's SIGTERM exit (143) is an `error` (rerun), like 130
  signal        SIGTERM (then SIGINT) to the runner while a point hangs (ignoring SIGTERM, with a child of
                its own): the runner signals the point's process group before joining its
                pool, kills it after the grace period and exits 130 within seconds; nothing
                of the point survives
  timeout_group a point's timeout kills its whole process group (a child it started too)
  timeouts      [sweep] timeout = inf, nan, -1 and --timeout inf are located errors (exit 2)
  stores        a store of random bytes, a truncated one, a directory, /dev/null: exit 2 with
                the path, no traceback
  stats         a statistics report beyond MAX_STATS is refused unread; exit 0 without a
                report is `failed`, not `ok`
  checks        --arrive on a grid of workloads is refused; 2 and 2.0 are one point;
                --dry-run prints commands a shell reads back as they were; a [collect] path
                found in no report is warned about
  claims        two runners of one sweep at once run every point once
  edited        a configuration file edited while its sweep runs: the points not yet started
                are not run under the keys computed from the old contents (`error`, naming the
                file); the next sweep runs them under the new keys

The points run a stand-in for heddle (a shell script that passes every command but `run` to
the real binary), so each case takes seconds.

  tests/sweep/robust.py CASE HEDDLE     prints "PASS sweep-robust CASE"
"""

import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXP = os.path.join(ROOT, "experiments")
SWEEP = os.path.join(EXP, "sweep.py")
sys.path.insert(0, EXP)

from heddle_sweep import SweepError, point, spec  # noqa: E402
from heddle_sweep.heddle import Heddle  # noqa: E402
from heddle_sweep.runner import point_key  # noqa: E402
from heddle_sweep.store import Store, tidy  # noqa: E402


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


# The stand-in: every command but `run` goes to the real heddle; `run` logs its pid and
# arguments and behaves as $HD_FAKE_MODE says.
FAKE = r"""#!/bin/bash
real=%(real)s
dir=%(dir)s
[ "$1" = run ] || exec "$real" "$@"
echo "$$ $*" >> "$dir/runs.log"
stats=
prev=
for a in "$@"; do [ "$prev" = --stats ] && stats=$a; prev=$a; done
case "${HD_FAKE_MODE:-}" in
exit143) exit 143 ;;
nostats) exit 0 ;;
bigstats) head -c 5000 /dev/zero | tr '\0' x > "$stats"; exit 0 ;;
hang)   # a hung point: ignores SIGTERM, and so does the child it starts
    trap '' TERM
    sleep 600 &
    echo $! > "$dir/child.pid"
    touch "$dir/started"
    wait ;;
spawn)  # a point with a child of its own, running past the timeout
    sleep 600 &
    echo $! > "$dir/child.pid"
    touch "$dir/started"
    wait ;;
slow) sleep 2; exec "$real" "$@" ;;
*) exec "$real" "$@" ;;
esac
"""


def make_fake(tmp, heddle):
    path = os.path.join(tmp, "fake-heddle")
    with open(path, "w") as f:
        f.write(FAKE % {"real": shlex.quote(heddle), "dir": shlex.quote(tmp)})
    os.chmod(path, 0o755)
    return path


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def sweep_file(tmp, name="s", extra="", grid='workload = ["vecadd"]\n'
               'set.timing.max_cycles = [100000000, 100000001]\n'):
    return write(os.path.join(tmp, f"{name}.toml"),
                 f'[sweep]\nname = "{name}"\n{extra}[[grid]]\n{grid}')


def run_sweep(args, env_mode=None, **kw):
    env = dict(os.environ)
    if env_mode:
        env["HD_FAKE_MODE"] = env_mode
    return subprocess.run([sys.executable, SWEEP, *args], capture_output=True, text=True,
                          env=env, **kw)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead for this purpose
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def runs_logged(tmp):
    try:
        with open(os.path.join(tmp, "runs.log")) as f:
            return len(f.read().splitlines())
    except OSError:
        return 0


# {==== item 4 ====
def case_key_files(tmp, heddle):
    h = Heddle(heddle, ROOT)
    prof = os.path.join(tmp, "p.prof")
    r = subprocess.run([heddle, "run", "vecadd", "--quiet", "--profile-out", prof],
                       cwd=ROOT, capture_output=True)
    if r.returncode != 0:
        fail(f"heddle run --profile-out: {r.stderr}")
    by_set = sweep_file(tmp, "byset", grid='workload = ["vecadd"]\n'
                        'set.context.preempt_policy = "oracle"\n'
                        f'set.context.oracle_profile = "{prof}"\n')
    write(os.path.join(tmp, "o.ini"),
          f"[context]\npreempt_policy = oracle\noracle_profile = {prof}  # profile\n")
    by_cfg = sweep_file(tmp, "bycfg", grid='workload = ["vecadd"]\nconfig = "o.ini"\n')

    def keys():
        return [point_key(spec.load(f, h, ROOT).points[0], "id") for f in (by_set, by_cfg)]
    before = keys()
    with open(prof, "a") as f:
        f.write("# edited\n")
    after = keys()
    for how, a, b in zip(("--set", "--config file"), before, after):
        if a == b:
            fail(f"editing the oracle profile named by {how} left the point's key unchanged")
    print("key_files: editing the profile changes the key (by --set and in a --config file)")
# }====


# {==== items 5, 6 ====
def case_interrupted(tmp, heddle):
    fake = make_fake(tmp, heddle)
    os.environ["HD_FAKE_MODE"] = "exit143"
    try:
        rec = point.run_point(fake, ROOT, "k", ["run", "vecadd"])
    finally:
        del os.environ["HD_FAKE_MODE"]
    if rec["status"] != "error" or "143" not in rec["message"]:
        fail(f"exit 143 recorded as {rec['status']}: {rec['message']!r}")
    toml = sweep_file(tmp)
    db = os.path.join(tmp, "st.sqlite")
    args = [toml, "--heddle", fake, "--db", db, "--out", os.path.join(tmp, "o"), "-j", "1"]
    run_sweep(args, "exit143")
    r = run_sweep(args)
    if "0 already in" not in r.stderr or "2 to run" not in r.stderr or r.returncode != 0:
        fail(f"the interrupted points were not rerun (exit {r.returncode}):\n{r.stderr}")
    print(f"interrupted: exit 143 is an error, rerun by the next sweep: {rec['message']!r}")


def wait_for(path, secs):
    t0 = time.monotonic()
    while not os.path.exists(path):
        if time.monotonic() - t0 > secs:
            return False
        time.sleep(0.05)
    return True


def one_signal(tmp, heddle, sig):
    fake = make_fake(tmp, heddle)
    toml = sweep_file(tmp, grid='workload = ["vecadd"]\n')
    env = dict(os.environ, HD_FAKE_MODE="hang")
    runner = subprocess.Popen([sys.executable, SWEEP, toml, "--heddle", fake, "--db",
                               os.path.join(tmp, "st.sqlite"), "--out",
                               os.path.join(tmp, "o"), "-j", "1"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    try:
        if not wait_for(os.path.join(tmp, "started"), 30):
            fail("the point did not start")
        child = int(open(os.path.join(tmp, "child.pid")).read())
        t0 = time.monotonic()
        runner.send_signal(sig)
        try:
            out, _ = runner.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            fail(f"{sig.name} to the runner: still waiting for the hung point after 30 s")
        secs = time.monotonic() - t0
    finally:
        try:
            os.killpg(runner.pid, signal.SIGKILL)
        except OSError:
            pass
    print(out.strip())
    if runner.returncode != 130:
        fail(f"the interrupted runner exited {runner.returncode}, not 130")
    time.sleep(0.2)
    if alive(child):
        os.kill(child, signal.SIGKILL)
        fail("the hung point's child outlived the runner")
    print(f"signal: {sig.name} to the runner: exit 130 after {secs:.1f} s (a hung point "
          "ignoring SIGTERM, killed after the grace period); nothing of it left")


def case_signal(tmp, heddle):
    for sig in (signal.SIGTERM, signal.SIGINT):
        d = os.path.join(tmp, sig.name)
        os.mkdir(d)
        one_signal(d, heddle, sig)



def case_timeout_group(tmp, heddle):
    fake = make_fake(tmp, heddle)
    toml = sweep_file(tmp, extra="timeout = 1\n", grid='workload = ["vecadd"]\n')
    t0 = time.monotonic()
    r = run_sweep([toml, "--heddle", fake, "--db", os.path.join(tmp, "st.sqlite"), "--out",
                   os.path.join(tmp, "o"), "-j", "1"], "spawn", timeout=60)
    print(r.stderr.strip())
    child = int(open(os.path.join(tmp, "child.pid")).read())
    time.sleep(0.2)
    if alive(child):
        os.kill(child, signal.SIGKILL)
        fail("the timed-out point's child survived")
    if r.returncode != 1 or "timed out after 1 s" not in r.stderr:
        fail(f"the timed-out point: exit {r.returncode}")
    print(f"timeout_group: the point and its child killed at the timeout "
          f"({time.monotonic() - t0:.1f} s)")
# }====


# {==== item 8 ====
def case_timeouts(tmp, heddle):
    h = Heddle(heddle, ROOT)
    for v in ("inf", "nan", "-1", "-inf", "1e12"):
        f = sweep_file(tmp, extra=f"timeout = {v}\n")
        try:
            spec.load(f, h, ROOT)
            fail(f"[sweep] timeout = {v} accepted")
        except SweepError as e:
            if "s.toml:3:" not in str(e) or "finite number of seconds" not in str(e):
                fail(f"timeout = {v}: {e}")
            print(f"timeout = {v}: {e}")
    f = sweep_file(tmp)
    r = run_sweep([f, "--heddle", heddle, "--timeout", "inf", "--dry-run"])
    if r.returncode != 2 or "--timeout must be a finite" not in r.stderr:
        fail(f"--timeout inf: exit {r.returncode}: {r.stderr}")
    print(r.stderr.strip())


def case_stores(tmp, heddle):
    f = sweep_file(tmp)
    good = os.path.join(tmp, "good.sqlite")
    st = Store(good)
    for i in range(50):
        st.db.execute("INSERT INTO runs (sweep, file, backend, identity, started) VALUES "
                      "(?, ?, ?, ?, ?)", ("s" * 1000, "f", "b", "i", "t"))
    st.db.commit()
    st.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    st.close()
    data = open(good, "rb").read()
    cases = {"random.sqlite": os.urandom(20000), "truncated.sqlite": data[:len(data) // 2]}
    for name, blob in cases.items():
        with open(os.path.join(tmp, name), "wb") as fh:
            fh.write(blob)
    os.mkdir(os.path.join(tmp, "dir.sqlite"))
    for db in (*cases, "dir.sqlite", "/dev/null"):
        path = os.path.join(tmp, db)
        for mode in ([], ["--csv"]):
            r = run_sweep([f, "--heddle", heddle, "--db", path, "--out",
                           os.path.join(tmp, "o"), *mode])
            if r.returncode != 2 or "Traceback" in r.stderr or path not in r.stderr or \
                    "not a results store" not in r.stderr:
                fail(f"store {db} {mode}: exit {r.returncode}:\n{r.stderr}")
        print(r.stderr.strip())


def case_stats(tmp, heddle):
    fake = make_fake(tmp, heddle)
    old = point.MAX_STATS if hasattr(point, "MAX_STATS") else None
    point.MAX_STATS = 1000
    os.environ["HD_FAKE_MODE"] = "bigstats"
    try:
        rec = point.run_point(fake, ROOT, "k", ["run", "vecadd"])
    finally:
        del os.environ["HD_FAKE_MODE"]
        if old is not None:
            point.MAX_STATS = old
    if rec["status"] != "failed" or len(rec["stats"]) > 1000 or "5000 bytes" not in \
            rec["message"]:
        fail(f"a 5000-byte report with MAX_STATS 1000: {rec['status']}, "
             f"{len(rec['stats'])} bytes kept: {rec['message']!r}")
    print(f"stats: {rec['message']}")
    os.environ["HD_FAKE_MODE"] = "nostats"
    try:
        rec = point.run_point(fake, ROOT, "k", ["run", "vecadd"])
    finally:
        del os.environ["HD_FAKE_MODE"]
    if rec["status"] != "failed" or "without a statistics report" not in rec["message"]:
        fail(f"exit 0 without statistics recorded as {rec['status']}: {rec['message']!r}")
    print(f"stats: {rec['message']}")
# }====


# {==== item 10 ====
def case_checks(tmp, heddle):
    h = Heddle(heddle, ROOT)
    f = sweep_file(tmp, grid='workload = ["vecadd"]\nflags = ["--arrive vecadd@100"]\n')
    try:
        spec.load(f, h, ROOT)
        fail("--arrive accepted on a grid of workloads")
    except SweepError as e:
        if "s.toml:5:" not in str(e) or "--arrive is an option of mixes" not in str(e):
            fail(f"--arrive on workloads: {e}")
        print(e)
    f = sweep_file(tmp, grid='workload = ["vecadd"]\nset.context.stress_fraction = [0.5, 1, '
                   '1.0, 0.50]\nset.gpu.num_sms = [2, 2.0]\n')
    pts = spec.load(f, h, ROOT).points
    if len(pts) != 2:
        fail(f"0.5, 1, 1.0, 0.50 x 2, 2.0 gave {len(pts)} points, not 2: "
             f"{[p.argv for p in pts]}")
    f = sweep_file(tmp, grid='workload = ["vecadd"]\nset.context.signal_at = "100 200"\n')
    r = run_sweep([f, "--heddle", heddle, "--dry-run"])
    line = [l for l in r.stdout.splitlines() if "  heddle " in l][0]
    argv = shlex.split(line.split("  heddle ", 1)[1])
    if argv != spec.load(f, h, ROOT).points[0].argv:
        fail(f"--dry-run printed '{line}', which a shell reads as {argv}")
    print(f"dry run: {line}")
    st = Store(os.path.join(tmp, "st.sqlite"))
    try:
        sw = spec.load(write(os.path.join(tmp, "c.toml"), '[[grid]]\nworkload = "vecadd"\n'
                             '[collect]\ncycles = "timing.totals.cycles"\n'
                             'typo = "timing.totals.cycels"\n'), h, ROOT)
        keys = [point_key(p, "id") for p in sw.points]
        stats = json.dumps({"timing": {"totals": {"cycles": 123}}})
        st.put(sw.name, sw.points[0], keys[0], "id", {"status": "ok", "stats": stats},
               "local", 0.1)
        warn = os.path.join(tmp, "warn.txt")
        with open(warn, "w") as w:
            rows = tidy(st, sw, keys, warn=w)
        text = open(warn).read()
    finally:
        st.close()
    if rows[0]["cycles"] != 123 or "typo" not in text or "cycles =" in text:
        fail(f"[collect] warning: {text!r}, rows {rows}")
    print(text.strip())
    readme = open(os.path.join(EXP, "README.md")).read()
    if '"workload.0.turnaround_cycles"' in readme:
        fail("experiments/README.md still collects workload.0.turnaround_cycles")


def case_claims(tmp, heddle):
    fake = make_fake(tmp, heddle)
    toml = sweep_file(tmp)
    db = os.path.join(tmp, "st.sqlite")
    args = [sys.executable, SWEEP, toml, "--heddle", fake, "--db", db, "--out",
            os.path.join(tmp, "o"), "-j", "2"]
    env = dict(os.environ, HD_FAKE_MODE="slow")
    a = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    t0 = time.monotonic()
    while runs_logged(tmp) < 2 and time.monotonic() - t0 < 30:
        time.sleep(0.05)
    b = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    out_a, _ = a.communicate(timeout=120)
    print(out_a.strip())
    print(b.stderr.strip())
    n = runs_logged(tmp)
    if n != 2:
        fail(f"two runners of a 2-point sweep ran {n} points")
    if a.returncode != 0 or b.returncode != 1 or "being run by another runner" not in b.stderr:
        fail(f"runner A exit {a.returncode}, runner B exit {b.returncode}")
    r = run_sweep(args[2:])
    if r.returncode != 0 or "2 already in" not in r.stderr:
        fail(f"after both: {r.stderr}")
    print("claims: two runners at once ran each point once; the second one says why it "
          "waits for nothing")
# }====


def case_edited(tmp, heddle):
    fake = make_fake(tmp, heddle)
    ini = write(os.path.join(tmp, "e.ini"), "[timing]\nmax_cycles = 100000000\n")
    toml = sweep_file(tmp, grid='workload = ["vecadd"]\nconfig = "e.ini"\n'
                      'set.sm.max_ctas = [6, 7, 8]\n')
    db = os.path.join(tmp, "st.sqlite")
    args = [toml, "--heddle", fake, "--db", db, "--out", os.path.join(tmp, "o"), "-j", "1"]
    env = dict(os.environ, HD_FAKE_MODE="slow")
    runner = subprocess.Popen([sys.executable, SWEEP, *args], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    t0 = time.monotonic()
    while runs_logged(tmp) < 1 and time.monotonic() - t0 < 30:
        time.sleep(0.05)
    if runs_logged(tmp) < 1:
        runner.kill()
        fail("the first point did not start")
    write(ini, "[timing]\nmax_cycles = 100000001\n")
    out, _ = runner.communicate(timeout=90)
    if runs_logged(tmp) != 1:
        fail(f"{runs_logged(tmp)} points ran; only the one started before the edit should:\n"
             f"{out}")
    import sqlite3
    con = sqlite3.connect(db)
    msgs = [m for st, m in con.execute("SELECT status, message FROM points") if st != "ok"]
    con.close()
    if len(msgs) != 2 or not all("e.ini changed after the sweep" in m for m in msgs):
        fail(f"the points after the edit were not refused naming the file: {msgs}\n{out}")
    r = run_sweep(args)
    if r.returncode != 0 or "3 to run" not in r.stderr:
        fail(f"the next sweep did not run the three points under the new key "
             f"(exit {r.returncode}):\n{r.stderr}")
    print(f"edited: 1 point ran before the edit, 2 refused ({msgs[0]!r}); the rerun ran 3")


CASES = {"key_files": case_key_files, "interrupted": case_interrupted, "signal": case_signal,
         "timeout_group": case_timeout_group, "timeouts": case_timeouts,
         "stores": case_stores, "stats": case_stats, "checks": case_checks,
         "claims": case_claims, "edited": case_edited}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in CASES:
        print(__doc__)
        return 2
    sub, heddle = sys.argv[1], os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        CASES[sub](tmp, heddle)
    print(f"PASS sweep-robust {sub}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
