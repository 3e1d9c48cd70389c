# SPDX-License-Identifier: MIT
"""One point of a sweep: one `heddle` process, run from the repository root with its report
written to a private temporary file, and what it left: exit status, a message when it failed,
wall and CPU seconds and peak RSS of the process (wait4's rusage), the statistics report, the
summary on stdout, and the SHA-256 of the canonical result (heddle.canonical_result). Both
backends call run_point, so the same point gives the same record wherever it runs.

Peak RSS is wait4's ru_maxrss, as the kernel keeps it: Linux counts the spawning process's
pages when the child execs, so it never reads below the runner's own RSS (~20 MB); the runs
that matter (medium and large sizes) are above that.

Status: ok (exit 0 with its statistics report, verified; or, with `--window W`, a window
measurement: stopped at cycle W, not verified, its message says so and its report says
`measured = window`); failed (heddle exited non-zero: its
own, deterministic answer, kept and not rerun; also exit 0 without a report, or a report beyond
MAX_STATS); error (no answer from heddle: killed by a signal, timed out, interrupted by SIGINT
or SIGTERM (exit 130, 143), could not start, or an input file changed after the point's key was
computed from it; rerun by the next sweep).

With the local backend each point runs in its own session (process group): a timeout or an
interrupted runner signals the whole group, so nothing the point started outlives it."""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time

from .heddle import canonical_result


def _window_message(stats):
    """The message of an ok point: "" for a verified run; for `heddle run --window W` stopped
    at W, that it is a window measurement and not verified (so no one reads it as a check)."""
    try:
        run = json.loads(stats).get("run", {})
    except (ValueError, AttributeError):
        return ""
    if run.get("measured") == "window":
        return (f"window measurement: the first {run.get('window_cycles')} cycles, "
                "output not verified (--window)")
    return ""

RESULT_FIELDS = ("key", "status", "exit_code", "message", "wall_s", "cpu_s", "peak_rss_kb",
                 "stats", "stdout", "result_sha", "host")
MAX_TEXT = 4 << 20          # stdout kept per point (bytes); larger is cut, and says so
MAX_STATS = 64 << 20        # statistics report read per point (bytes); larger is refused:
                            # the runner would hold it, its parse and the store's copy at once
INTERRUPTED = {130: "SIGINT", 143: "SIGTERM"}   # heddle's exits when a signal stopped it


def _tail(text, lines=6):
    out = [l for l in text.splitlines() if l.strip()]
    return "\n".join(out[-lines:])


def _read(path, limit=None):
    try:
        with open(path, "rb") as f:
            data = f.read() if limit is None else f.read(limit + 1)
    except OSError:
        return ""
    text = data.decode("utf-8", "replace")
    if limit is not None and len(data) > limit:
        text = text[:limit] + "\n[... cut at %d bytes by the sweep runner]\n" % limit
    return text


def signal_group(proc, sig):
    """Send `sig` to the point's process group (its session), else to the process alone."""
    try:
        os.killpg(proc.pid, sig)
    except OSError:
        try:
            proc.send_signal(sig)
        except OSError:
            pass


def _stats_size(path):
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def changed_input(root, inputs):
    """The first of a point's inputs (its key's `inputs`: a configuration file by its
    repository-relative path, or "[section] key = path" for a file a value names) whose
    contents differ from those the key was computed from; None when all still match. A sweep
    plans its points (and their keys) before it runs them: a file edited meanwhile (a branch
    merged into the tree the sweep reads) would otherwise be run under the old key."""
    from .heddle import sha256_file
    for name, want in sorted((inputs or {}).items()):
        rel = name.split(" = ", 1)[1] if name.startswith("[") and " = " in name else name
        full = os.path.join(root, rel)
        have = sha256_file(full) if os.path.isfile(full) else "not a file"
        if have != want:
            return rel
    return None


def run_point(heddle_path, root, key, argv, timeout=0.0, live=None, scratch=None,
              own_group=True, inputs=None):
    """Run `heddle ARGV --stats TMP` in `root`; return the point's record (a dict). `live`, a
    set, holds the process while it runs (so that an interrupted runner can stop it).
    `scratch`: a private directory for the report and output files, reused point after point
    (else a temporary one per point; creating and removing it costs a few ms). `own_group`:
    the point runs in a session of its own, signalled as a group (the local backend); a Slurm
    task keeps its points in its own group, which scancel signals (a plugin that tracks process
    groups would lose a point in another session)."""
    rec = {"key": key, "host": os.uname().nodename}
    moved = changed_input(root, inputs)
    if moved is not None:
        rec.update(status="error", exit_code=None, wall_s=0.0, cpu_s=0.0, peak_rss_kb=0,
                   stats="", stdout="", result_sha="",
                   message=f"{moved} changed after the sweep computed this point's key from "
                   "it: not run (run the sweep again, or from a checkout nobody edits)")
        return rec
    tmp = scratch or tempfile.mkdtemp(prefix="hd-sweep-")
    try:
        stats_path = os.path.join(tmp, "stats.json")
        out_path, err_path = os.path.join(tmp, "out"), os.path.join(tmp, "err")
        cmd = [heddle_path, *argv, "--stats", stats_path]
        timed_out = threading.Event()
        t0 = time.perf_counter()
        try:
            with open(out_path, "wb") as fo, open(err_path, "wb") as fe:
                proc = subprocess.Popen(cmd, cwd=root, stdin=subprocess.DEVNULL, stdout=fo,
                                        stderr=fe, start_new_session=own_group)
        except OSError as e:
            rec.update(status="error", exit_code=None, message=f"cannot start heddle: {e}",
                       wall_s=0.0, cpu_s=0.0, peak_rss_kb=0, stats="", stdout="",
                       result_sha="")
            return rec
        if live is not None:
            live.add(proc)
        timer = None
        if timeout > 0:
            def expire():
                timed_out.set()
                if own_group:
                    signal_group(proc, signal.SIGKILL)
                else:
                    try:
                        proc.send_signal(signal.SIGKILL)
                    except OSError:
                        pass
            timer = threading.Timer(timeout, expire)
            timer.start()
        while True:
            try:
                _, status, ru = os.wait4(proc.pid, 0)
                break
            except InterruptedError:
                continue
        wall = time.perf_counter() - t0
        if live is not None:
            live.discard(proc)
        if timer:
            timer.cancel()
        code = os.waitstatus_to_exitcode(status)
        proc.returncode = code           # reaped here: keep Popen from waiting again
        stdout, stderr = _read(out_path, MAX_TEXT), _read(err_path, MAX_TEXT)
        stats_size = _stats_size(stats_path)
        stats = _read(stats_path) if stats_size is not None and stats_size <= MAX_STATS else ""
        rec.update(exit_code=code, wall_s=round(wall, 6),
                   cpu_s=round(ru.ru_utime + ru.ru_stime, 6), peak_rss_kb=ru.ru_maxrss,
                   stats=stats, stdout=stdout)
        if timed_out.is_set():
            rec.update(status="error", message=f"timed out after {timeout:g} s (killed)")
        elif code < 0:
            rec.update(status="error", message=f"killed by signal {-code} "
                       f"({signal.Signals(-code).name})\n{_tail(stderr)}".rstrip())
        elif code in INTERRUPTED:
            rec.update(status="error", message=f"interrupted (exit {code}: "
                       f"{INTERRUPTED[code]})\n{_tail(stderr)}".rstrip())
        elif code != 0:
            rec.update(status="failed",
                       message=f"exit {code}: {_tail(stderr) or _tail(stdout)}")
        elif stats_size is None or stats_size == 0:
            rec.update(status="failed", message="exit 0 without a statistics report (--stats "
                       "was not written): not a result")
        elif stats_size > MAX_STATS:
            rec.update(status="failed", message=f"statistics report of {stats_size} bytes: "
                       f"more than the runner reads ({MAX_STATS >> 20} MiB, MAX_STATS); a "
                       "larger --sample period keeps it smaller")
        else:
            rec.update(status="ok", message=_window_message(stats))
        rec["result_sha"] = hashlib.sha256(
            canonical_result(stats, stdout).encode()).hexdigest()
        return rec
    finally:
        if scratch is None:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            for name in ("stats.json", "out", "err"):
                try:
                    os.unlink(os.path.join(tmp, name))
                except OSError:
                    pass


def write_record(path, rec):
    """Write a record as JSON atomically (the Slurm tasks' results directory)."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(rec, f, sort_keys=True)
    os.replace(tmp, path)
