# SPDX-License-Identifier: MIT
"""The results store: one SQLite file per experiment. Table `points` holds one row per point
(key, axes as JSON, the heddle arguments, identity of the binary, status, exit code, message,
wall/CPU seconds, peak RSS, the runner's own time, the statistics report, stdout, the SHA-256 of
the canonical result, backend and host); table `runs` one row per invocation of the runner.
Views: `point_axes` (key, axis, value: one row per axis of each point) and `summary` (the
per-point columns without the large texts). Table `claims` holds the points a runner is running
now (host, pid), so two runners of one sweep do not run a point twice. tidy() gives the table that `sweep.py FILE --csv`
prints: one row per point of the sweep, axes then standard columns then [collect] columns."""

import json
import os
import socket
import sqlite3
import sys
import time

from . import SweepError
from .heddle import lookup, parse_stats

SCHEMA = """
CREATE TABLE IF NOT EXISTS points (
    key         TEXT PRIMARY KEY,
    sweep       TEXT NOT NULL,
    label       TEXT NOT NULL,
    axes        TEXT NOT NULL,
    argv        TEXT NOT NULL,
    identity    TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'error')),
    exit_code   INTEGER,
    message     TEXT NOT NULL DEFAULT '',
    wall_s      REAL,
    cpu_s       REAL,
    peak_rss_kb INTEGER,
    runner_s    REAL,
    stats       TEXT NOT NULL DEFAULT '',
    stdout      TEXT NOT NULL DEFAULT '',
    result_sha  TEXT NOT NULL DEFAULT '',
    backend     TEXT NOT NULL,
    host        TEXT NOT NULL DEFAULT '',
    finished    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    sweep       TEXT NOT NULL,
    file        TEXT NOT NULL,
    backend     TEXT NOT NULL,
    workers     INTEGER,
    identity    TEXT NOT NULL,
    started     TEXT NOT NULL,
    seconds     REAL,
    total       INTEGER,
    skipped     INTEGER,
    ran         INTEGER,
    failed      INTEGER,
    errors      INTEGER,
    outcome     TEXT
);
CREATE TABLE IF NOT EXISTS claims (
    key         TEXT PRIMARY KEY,
    host        TEXT NOT NULL,
    pid         INTEGER NOT NULL,
    started     TEXT NOT NULL
);
CREATE VIEW IF NOT EXISTS point_axes AS
    SELECT points.key AS key, j.key AS axis, j.value AS value
    FROM points, json_each(points.axes) AS j;
CREATE VIEW IF NOT EXISTS summary AS
    SELECT key, sweep, label, status, exit_code, message, wall_s, cpu_s, peak_rss_kb,
           runner_s, result_sha, backend, host, finished
    FROM points;
"""


POINT_COLUMNS = {"key", "sweep", "label", "axes", "argv", "identity", "status", "exit_code",
                 "message", "wall_s", "cpu_s", "peak_rss_kb", "runner_s", "stats", "stdout",
                 "result_sha", "backend", "host", "finished"}
RUN_COLUMNS = {"id", "sweep", "file", "backend", "workers", "identity", "started", "seconds",
               "total", "skipped", "ran", "failed", "errors", "outcome"}


def now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Store:
    def __init__(self, path):
        """Open (or create) the store at `path`; a file that is not one (random bytes, a
        truncated database, a directory, a device, another schema) is a SweepError naming it."""
        self.path = path
        d = os.path.dirname(os.path.abspath(path))
        if os.path.exists(path) and not os.path.isfile(path):
            raise SweepError(f"{path}: not a results store: "
                             f"{'a directory' if os.path.isdir(path) else 'not a regular file'}")
        try:
            os.makedirs(d, exist_ok=True)
        except OSError as e:
            raise SweepError(f"{path}: cannot create its directory: {e.strerror}") from None
        self.db = None
        try:
            self.db = sqlite3.connect(path, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            # a commit survives the runner being killed (the resume case); only a power cut
            # may lose the last points, which the next run then reruns
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            self.db.commit()
            ok = self.db.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise sqlite3.DatabaseError(f"damaged: {ok}")
            for table, cols in (("points", POINT_COLUMNS), ("runs", RUN_COLUMNS)):
                have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
                if not cols <= have:
                    raise sqlite3.DatabaseError(f"table {table} lacks the columns "
                                                f"{', '.join(sorted(cols - have))}")
        except sqlite3.Error as e:
            if self.db is not None:
                self.db.close()
            raise SweepError(f"{path}: not a results store (SQLite): {e}") from None

    def close(self):
        self.db.close()

    def done(self, keys, retry_failed=False):
        """The keys among `keys` that need not run again: ok and failed (heddle's own answer),
        or only ok with retry_failed."""
        ok = ("ok",) if retry_failed else ("ok", "failed")
        have = set()
        keys = list(keys)
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            q = (f"SELECT key FROM points WHERE key IN ({','.join('?' * len(chunk))}) "
                 f"AND status IN ({','.join('?' * len(ok))})")
            have.update(r[0] for r in self.db.execute(q, (*chunk, *ok)))
        return have

    def put(self, sweep, point, key, identity, rec, backend, runner_s):
        self.db.execute(
            "INSERT OR REPLACE INTO points (key, sweep, label, axes, argv, identity, status, "
            "exit_code, message, wall_s, cpu_s, peak_rss_kb, runner_s, stats, stdout, "
            "result_sha, backend, host, finished) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, sweep, point.label(), json.dumps(point.axes), json.dumps(point.argv),
             identity, rec["status"], rec.get("exit_code"), rec.get("message", ""),
             rec.get("wall_s"), rec.get("cpu_s"), rec.get("peak_rss_kb"),
             None if runner_s is None else round(runner_s, 6), rec.get("stats", ""),
             rec.get("stdout", ""), rec.get("result_sha", ""), backend, rec.get("host", ""),
             now()))
        self.db.commit()

    def claim(self, keys):
        """Claim `keys` for this runner (host and pid) in one transaction. Returns {key: (host,
        pid)} of the keys another runner holds; a claim of a runner that no longer runs on this
        host is taken over (a claim from another host is kept: that runner may still run)."""
        me_host, me_pid = socket.gethostname(), os.getpid()
        others, keys = {}, list(keys)
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for i in range(0, len(keys), 500):
                chunk = keys[i:i + 500]
                held = {r[0]: (r[1], r[2]) for r in self.db.execute(
                    f"SELECT key, host, pid FROM claims WHERE key IN "
                    f"({','.join('?' * len(chunk))})", chunk)}
                for k in chunk:
                    h = held.get(k)
                    if h == (me_host, me_pid):
                        continue
                    if h is not None and (h[0] != me_host or _alive(h[1])):
                        others[k] = h
                        continue
                    self.db.execute("INSERT OR REPLACE INTO claims (key, host, pid, started) "
                                    "VALUES (?, ?, ?, ?)", (k, me_host, me_pid, now()))
            self.db.commit()
        except BaseException:
            self.db.rollback()
            raise
        return others

    def release(self):
        """Drop this runner's claims (its points are stored or will be rerun)."""
        self.db.execute("DELETE FROM claims WHERE host = ? AND pid = ?",
                        (socket.gethostname(), os.getpid()))
        self.db.commit()

    def begin_run(self, sweep, backend, workers, identity, total, skipped):
        cur = self.db.execute(
            "INSERT INTO runs (sweep, file, backend, workers, identity, started, total, "
            "skipped) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (sweep.name, sweep.path, backend, workers, identity, now(), total, skipped))
        self.db.commit()
        return cur.lastrowid

    def end_run(self, run_id, seconds, ran, failed, errors, outcome):
        self.db.execute("UPDATE runs SET seconds = ?, ran = ?, failed = ?, errors = ?, "
                        "outcome = ? WHERE id = ?",
                        (round(seconds, 3), ran, failed, errors, outcome, run_id))
        self.db.commit()

    def rows(self, keys):
        """{key: row dict} for the given keys (every column)."""
        out = {}
        self.db.row_factory = sqlite3.Row
        try:
            keys = list(keys)
            for i in range(0, len(keys), 500):
                chunk = keys[i:i + 500]
                q = f"SELECT * FROM points WHERE key IN ({','.join('?' * len(chunk))})"
                for r in self.db.execute(q, chunk):
                    out[r["key"]] = dict(r)
        finally:
            self.db.row_factory = None
        return out


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True     # EPERM: a process of another user
    return True


TIDY_STANDARD = ("status", "exit_code", "message", "wall_s", "cpu_s", "peak_rss_kb")


def tidy(store, sweep, keys, warn=sys.stderr):
    """One dict per point of the sweep, in the sweep's order: the axes, the standard columns,
    then each [collect] column looked up in the point's statistics; a point not run yet has
    status 'missing'. A [collect] path found in no ok point's report is warned about (a typo
    or an old key gives an empty column)."""
    rows = store.rows(keys)
    out = []
    found = {c: 0 for c in sweep.collect}
    nok = 0
    for p, k in zip(sweep.points, keys):
        row = {a: p.axes.get(a, "") for a in sweep.axes}
        r = rows.get(k)
        if r is None:
            row.update({c: "" for c in TIDY_STANDARD})
            row["status"] = "missing"
            row.update({c: "" for c in sweep.collect})
        else:
            row.update({c: r[c] for c in TIDY_STANDARD})
            stats = parse_stats(r["stats"]) if sweep.collect and r["stats"] else {}
            nok += r["status"] == "ok"
            for col, path in sweep.collect.items():
                v = lookup(stats, path)
                found[col] += v is not None
                row[col] = "" if v is None else (json.dumps(v) if isinstance(v, (dict, list))
                                                 else v)
        row["key"] = k[:16]
        out.append(row)
    for col, n in found.items():
        if nok and n == 0 and warn is not None:
            print(f"{sweep.name}: warning: [collect] {col} = \"{sweep.collect[col]}\" is in "
                  f"none of the {nok} ok points' statistics: the column is empty", file=warn)
    return out
