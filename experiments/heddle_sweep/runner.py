# SPDX-License-Identifier: MIT
"""Runs a sweep: keys every point (SHA-256 of its heddle arguments, the identity of the binary
and the contents of the files it reads), skips the points the store already holds, hands the
rest to a backend, stores each record as it arrives, shows progress (points done/total,
failures, ETA) and returns the sweep's exit status: 0 every point ok, 1 some point failed or
has no answer, 130 interrupted."""

import hashlib
import json
import signal
import sys
import time

from .store import Store

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def point_key(point, identity):
    doc = {"argv": point.argv, "identity": identity, "inputs": point.inputs}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def _clock(s):
    s = int(round(s))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else \
        f"{s // 60}:{s % 60:02d}"


class Progress:
    def __init__(self, name, total, todo, stream=sys.stderr):
        self.name, self.total, self.todo, self.stream = name, total, todo, stream
        self.done = total - todo
        self.ran = self.failed = self.errors = 0
        self.t0 = time.perf_counter()
        self.tty = stream.isatty()

    def point(self, label, rec):
        self.ran += 1
        self.done += 1
        st = rec["status"]
        if st == "failed":
            self.failed += 1
        elif st == "error":
            self.errors += 1
        el = time.perf_counter() - self.t0
        eta = el / self.ran * (self.todo - self.ran)
        line = (f"{self.name}: [{self.done}/{self.total}] {self.failed} failed, "
                f"{self.errors} errors, {_clock(el)} elapsed, ETA {_clock(eta)}")
        if st != "ok":
            msg = rec.get("message", "").replace("\n", " | ")
            self._line(f"{self.name}: {st.upper()}: {label}: {msg}")
        if self.tty:
            self.stream.write(f"\r\033[K{line}")
        else:
            self.stream.write(f"{line}  {label}: {st} {rec.get('wall_s') or 0:.2f} s\n")
        self.stream.flush()

    def _line(self, text):
        self.stream.write(("\r\033[K" if self.tty else "") + text + "\n")

    def finish(self):
        if self.tty:
            self.stream.write("\n")
        self.stream.flush()


def run(sweep, heddle, store_path, backend, retry_failed=False, log=sys.stderr):
    """Run the missing points of `sweep` on `backend`; return (exit status, keys)."""
    identity = heddle.identity()
    keys = [point_key(p, identity) for p in sweep.points]
    store = Store(store_path)
    try:
        done = store.done(keys, retry_failed)
        todo = [(k, p) for k, p in zip(keys, sweep.points) if k not in done]
        # another runner of the same store may be running some of them: not twice
        busy = store.claim(k for k, _ in todo)
        todo = [(k, p) for k, p in todo if k not in busy]
        total = len(keys)
        print(f"{sweep.name}: {total} points, {total - len(todo) - len(busy)} already in "
              f"{store_path}, {len(todo)} to run ({backend.name}, {backend.describe()})", file=log)
        if busy:
            holders = sorted({f"{h} pid {p}" for h, p in busy.values()})
            print(f"{sweep.name}: {len(busy)} points are being run by another runner "
                  f"({', '.join(holders)}): not run here", file=log)
        run_id = store.begin_run(sweep, backend.name, getattr(backend, "workers", None),
                                 identity, total, total - len(todo))
        prog = Progress(sweep.name, total, len(todo), log)
        by_key = dict(todo)
        t0 = time.perf_counter()
        outcome = "complete"
        overhead = []
        old = signal.signal(signal.SIGTERM, _raise_interrupt)
        try:
            for key, rec, runner_s in backend.execute(todo):
                t1 = time.perf_counter()
                store.put(sweep.name, by_key[key], key, identity, rec, backend.name, runner_s)
                store_s = time.perf_counter() - t1
                if rec.get("wall_s") is not None and runner_s is not None:
                    overhead.append((runner_s - rec["wall_s"], store_s))
                prog.point(by_key[key].label(), rec)
        except KeyboardInterrupt:
            outcome = "interrupted"
            backend.interrupt()
        finally:
            signal.signal(signal.SIGTERM, old)
            prog.finish()
        secs = time.perf_counter() - t0
        store.end_run(run_id, secs, prog.ran, prog.failed, prog.errors, outcome)
        if outcome == "interrupted":
            print(f"{sweep.name}: interrupted after {prog.ran} of {len(todo)} points; "
                  "rerun the same command to run the rest", file=log)
            return EXIT_INTERRUPTED, keys
        if overhead:
            ov = sum(o for o, _ in overhead) / len(overhead)
            sv = sum(s for _, s in overhead) / len(overhead)
            print(f"{sweep.name}: ran {prog.ran} points in {secs:.1f} s; runner time per point "
                  f"beyond the heddle process: {ov * 1000:.1f} ms around it (start, report, "
                  f"hash) + {sv * 1000:.1f} ms storing it (means)", file=log)
        rows = store.rows(keys)
        bad = [(sweep.points[i], rows.get(k), k) for i, k in enumerate(keys)
               if rows.get(k) is None or rows[k]["status"] != "ok"]
        for p, r, k in bad:
            what = "no result" if r is None else f"{r['status']}: {r['message']}"
            if r is None and k in busy:
                what = f"no result yet: being run by another runner ({busy[k][0]} pid " \
                       f"{busy[k][1]})"
            print(f"{sweep.name}: NOT OK: {p.label()}: {what}".replace("\n", " | "), file=log)
        if bad:
            print(f"{sweep.name}: {len(bad)} of {total} points not ok", file=log)
            return EXIT_FAILED, keys
        print(f"{sweep.name}: all {total} points ok", file=log)
        return EXIT_OK, keys
    finally:
        store.release()
        store.close()


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt
