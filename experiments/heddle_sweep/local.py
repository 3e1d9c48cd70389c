# SPDX-License-Identifier: MIT
"""The local backend: N worker threads, each running one point at a time as one heddle
process (the threads only wait on their process, so N processes keep N cores busy). Records
are yielded to the runner, which stores them, as each point finishes. On interruption the
points still running are signalled (SIGTERM to each point's process group, SIGKILL after
GRACE_S seconds) before the pool is joined, and nothing more is yielded."""

import os
import shutil
import signal
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, FIRST_COMPLETED, wait

from .point import run_point, signal_group

GRACE_S = 5.0   # seconds an interrupted point has to stop before it is killed


def default_workers():
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


class LocalBackend:
    name = "local"

    def __init__(self, heddle_path, root, workers, timeout):
        self.heddle_path, self.root = heddle_path, root
        self.workers, self.timeout = workers, timeout
        self._stop = threading.Event()
        self._live = set()          # heddle processes running now
        self._tls = threading.local()   # each worker's scratch directory
        self._scratch = []

    def describe(self):
        return f"{self.workers} workers"

    def _one(self, key, point):
        if self._stop.is_set():
            return key, None, 0.0
        t0 = time.perf_counter()
        if not hasattr(self._tls, "scratch"):
            self._tls.scratch = tempfile.mkdtemp(prefix="hd-sweep-")
            self._scratch.append(self._tls.scratch)
        rec = run_point(self.heddle_path, self.root, key, point.argv, self.timeout,
                        live=self._live, scratch=self._tls.scratch,
                        inputs=point.inputs)
        return key, rec, time.perf_counter() - t0

    def execute(self, items):
        """Run (key, point) items; yield (key, record, runner seconds) as they finish."""
        pool = ThreadPoolExecutor(max_workers=self.workers)
        complete = False
        try:
            pending = {pool.submit(self._one, k, p) for k, p in items}
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in sorted(finished, key=lambda f: f.result()[0]):
                    key, rec, secs = f.result()
                    if rec is not None and not self._stop.is_set():
                        yield key, rec, secs
            complete = True
        finally:
            if not complete:    # a signal or an error: stop the running points first, since
                self.interrupt()    # joining the pool waits for them
            self._stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            for d in self._scratch:
                shutil.rmtree(d, ignore_errors=True)

    def interrupt(self):
        """SIGTERM to every running point's process group (heddle writes its statistics and
        exits 143), SIGKILL to those still running GRACE_S seconds later."""
        if self._stop.is_set() and not self._live:
            return
        self._stop.set()
        procs = list(self._live)
        for proc in procs:
            signal_group(proc, signal.SIGTERM)

        def kill_rest():
            for proc in procs:
                if proc in self._live:
                    signal_group(proc, signal.SIGKILL)
        if procs:
            t = threading.Timer(GRACE_S, kill_rest)
            t.daemon = True
            t.start()
