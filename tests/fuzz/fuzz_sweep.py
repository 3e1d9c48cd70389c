#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fuzz_sweep.py - a coverage-guided fuzzer of the sweep files (TOML) as read by
experiments/sweep.py (experiments/heddle_sweep/spec.py: parse, check against the heddle binary,
expand into points). The sweep reader is Python, so this is the Python counterpart of the
libFuzzer targets (issue 17 item 4): same loop, same rules.

Each input is written to a file and loaded with spec.load(). The property:
  - it returns a Sweep whose points are sound (1..MAX_POINTS points, each `run` with exactly one
    of a workload or --mix, a --size in SIZES, a --config that exists in the tree, no two points
    with the same arguments, every axis of a point listed in sweep.axes, axis values text, the
    [collect] columns identifiers), or
  - it raises SweepError whose message is located: it starts with the file's path (and a line
    when one applies);
  - and it ends within TIME_LIMIT seconds (SIGALRM).
Anything else (another exception, an unlocated error, a hang, an unsound sweep) is a finding:
the input is saved as CRASH_DIR/crash-<sha1>.toml and the run fails.

Inputs are made from the seeds by mutation (bytes flipped, inserted, deleted; lines deleted,
duplicated, swapped; tokens of the format inserted from a dictionary; two inputs spliced). An
input joins the corpus when it reaches a line pair (arc) of heddle_sweep that no earlier input
reached (sys.settrace over the package's files): coverage-guided like libFuzzer, in Python.
Deterministic for a given --seed and corpus.

Seeds: experiments/*.toml, tests/sweep/*.toml, tests/fuzz/sweep_seeds/*.toml. Findings, once
fixed, are copied into tests/fuzz/sweep_seeds/ so the replay (CTest sweep_fuzz_replay) keeps
them fixed.

Usage: tests/fuzz/fuzz_sweep.py HEDDLE [--seconds S | --runs N] [--replay] [--seed N]
                                [--corpus DIR] [--crash-dir DIR]
  --replay     load every seed once, check the property, no mutation (CI replay)
  --seconds S  fuzz for S seconds (scripts/fuzz-sweep.sh S: hours on demand)
Prints executions, corpus size, arcs covered and findings; exit 0 clean, 1 findings, 2 usage.
"""

import argparse
import glob
import hashlib
import math
import os
import random
import re
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXP = os.path.join(ROOT, "experiments")
sys.path.insert(0, EXP)

from heddle_sweep import SweepError, spec  # noqa: E402
from heddle_sweep.heddle import Heddle  # noqa: E402

PKG = os.path.join(EXP, "heddle_sweep") + os.sep
# (a hang's bound, not a speed target: experiments/zorua-fermi-zorua.toml, a seed, loads in
# about 10 s with the line tracer on when the CI tier's other tests share the 2 cores; session 26
# saw it pass at 10 s on a quiet machine and fail beside them)
TIME_LIMIT = 30
MAX_LEN = 8192
SEED_DIRS = [os.path.join(ROOT, "experiments", "*.toml"), os.path.join(ROOT, "tests", "sweep", "*.toml"),
             os.path.join(HERE, "sweep_seeds", "*.toml")]
DICT = [
    "[sweep]\n", "[[grid]]\n", "[defaults]\n", "[collect]\n", "[grid]\n", "name = \"x\"\n",
    "description = \"d\"\n", "analysis = \"lin-ch2.py\"\n", "quiet = true\n", "quiet = 1\n",
    "timeout = 60\n", "timeout = -1\n", "timeout = 1e308\n", "workload = \"vecadd\"\n",
    "workload = [\"vecadd\", \"sgemm\"]\n", "workload = []\n", "mix = \"sgemm+vecadd\"\n",
    "config = \"fermi-gtx480\"\n", "config = \"../../configs/kepler-gk110.ini\"\n",
    "config = \"default\"\n", "size = [\"small\", \"medium\"]\n", "size = \"huge\"\n",
    "set.sm.scheduler = [\"lrr\", \"gto\"]\n", "set.gpu.num_sms = [1, 2, 15]\n",
    "set.l1d.sets = 64\n", "set.sm = 1\n", "set.nosuch.key = 1\n", "set.a.b.c = 1\n",
    "flags = \"--alone\"\n", "flags = \"--arrive vecadd@100:1\"\n", "flags = \"--sample\"\n",
    "flags = \"'\"\n", "cycles = \"timing.totals.cycles\"\n", "key = \"a.b\"\n", "x-y = \"a\"\n",
    "[", "]", "[[", "]]", "\"", "'", "=", ",", ".", "#", "\n", "\\u0000", "\\", "{", "}",
    "{a = 1}", "1979-05-27T07:32:00Z", "inf", "nan", "true", "0x10", "1_000", "\"\"\"", "'''",
    "\xff", "\u00e9", "\t", "\r\n",
    # issue 34: timeouts that are not finite, numbers written two ways, mix-only flags on
    # workload grids, a file-valued parameter
    "timeout = inf\n", "timeout = nan\n", "timeout = -inf\n", "timeout = 2592001\n",
    "set.gpu.num_sms = [2, 2.0, 2e0]\n", "set.context.stress_fraction = [0.5, 0.50, 1.0]\n",
    "flags = \"--alone --arrive vecadd@5\"\n", "set.context.oracle_profile = \"p.prof\"\n",
    "set.context.signal_at = \"100 200\"\n", "-0.0", "1e400",
]


class FuzzHeddle(Heddle):
    """The real binary's answers, memoised (is_workload runs `heddle ptx-info NAME`)."""

    def __init__(self, path, root):
        super().__init__(path, root)
        self._wl = {}

    def is_workload(self, name):
        if name not in self._wl:
            self._wl[name] = super().is_workload(name)
        return self._wl[name]


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def check_sweep(sw, path):
    """The soundness of a loaded sweep; a list of violations."""
    bad = []
    if not 1 <= len(sw.points) <= spec.MAX_POINTS:
        bad.append(f"{len(sw.points)} points")
    if not re.fullmatch(r"[A-Za-z0-9_.+-]+", sw.name or "") or set(sw.name) == {"."}:
        bad.append(f"name {sw.name!r} (the report directory is experiments/results/NAME)")
    if not (isinstance(sw.timeout, float) and math.isfinite(sw.timeout) and
            0 <= sw.timeout <= spec.MAX_TIMEOUT):
        bad.append(f"timeout {sw.timeout!r} (threading.Timer takes finite seconds)")
    seen = set()
    for p in sw.points:
        a = p.argv
        if "workload" in p.axes and any(f in a for f in spec.MIX_ONLY_FLAGS):
            bad.append(f"argv {a}: an option of mixes on a workload")
        if not a or a[0] != "run":
            bad.append(f"argv {a}")
            continue
        if ("workload" in p.axes) == ("mix" in p.axes):
            bad.append(f"axes {p.axes}: not exactly one of workload, mix")
        if "--size" not in a or a.index("--size") + 1 >= len(a) or \
                a[a.index("--size") + 1] not in spec.SIZES:
            bad.append(f"argv {a}: no valid --size")
        if "--config" in a:
            i = a.index("--config")
            if i + 1 >= len(a) or not os.path.isfile(os.path.join(ROOT, a[i + 1])):
                bad.append(f"argv {a}: --config names no file")
        if tuple(a) in seen:
            bad.append(f"argv {a} twice")
        seen.add(tuple(a))
        for k, v in p.axes.items():
            if k not in sw.axes:
                bad.append(f"axis {k} not in sweep.axes")
            if not isinstance(v, str):
                bad.append(f"axis {k} value {v!r} is not text")
    for col in sw.collect:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", col):
            bad.append(f"collect column {col!r}")
    return bad


class Fuzzer:
    def __init__(self, heddle, crash_dir, rng):
        self.heddle, self.crash_dir, self.rng = heddle, crash_dir, rng
        self.arcs = set()
        self.corpus = []
        self.execs = 0
        self.findings = 0
        self.tmp = tempfile.mkdtemp(prefix="fuzz-sweep.")
        self.path = os.path.join(self.tmp, "s.toml")

    def _tracer(self, new):
        last = {}

        def local(frame, event, arg):
            if event == "line":
                key = frame.f_code.co_filename
                cur = frame.f_lineno
                new.add((key, last.get(id(frame), 0), cur))
                last[id(frame)] = cur
            return local

        def glob_(frame, event, arg):
            if frame.f_code.co_filename.startswith(PKG):
                return local
            return None
        return glob_

    def run_one(self, data, trace=True):
        """Load one input; returns (verdict text or None when it holds, arcs reached)."""
        with open(self.path, "wb") as f:
            f.write(data)
        arcs = set()
        verdict = None
        self.execs += 1
        signal.alarm(TIME_LIMIT)
        if trace:
            sys.settrace(self._tracer(arcs))
        try:
            sw = spec.load(self.path, self.heddle, ROOT)
            sys.settrace(None)
            bad = check_sweep(sw, self.path)
            if bad:
                verdict = "unsound sweep: " + "; ".join(bad[:5])
        except SweepError as e:
            sys.settrace(None)
            if not str(e).startswith(self.path):
                verdict = f"unlocated error: {e}"
        except Timeout:
            sys.settrace(None)
            verdict = f"no answer within {TIME_LIMIT} s"
        except RecursionError:
            sys.settrace(None)
            verdict = "RecursionError"
        except Exception as e:  # noqa: BLE001 - any other exception is the finding
            sys.settrace(None)
            verdict = f"{type(e).__name__}: {e}"
        finally:
            sys.settrace(None)
            signal.alarm(0)
        return verdict, arcs

    def finding(self, data, verdict):
        self.findings += 1
        os.makedirs(self.crash_dir, exist_ok=True)
        name = os.path.join(self.crash_dir, "crash-" + hashlib.sha1(data).hexdigest() + ".toml")
        with open(name, "wb") as f:
            f.write(data)
        print(f"FINDING: {verdict}\n  input saved as {name}", flush=True)

    def add(self, data):
        verdict, arcs = self.run_one(data)
        if verdict:
            self.finding(data, verdict)
            return
        if arcs - self.arcs or not self.corpus:
            self.arcs |= arcs
            self.corpus.append(data)

    # {==== mutation ====
    def mutate(self, data):
        r = self.rng
        for _ in range(r.randint(1, 4)):
            op = r.randrange(9)
            if op == 0 and data:  # flip a byte
                i = r.randrange(len(data))
                data = data[:i] + bytes([data[i] ^ (1 << r.randrange(8))]) + data[i + 1:]
            elif op == 1:  # insert a random byte
                i = r.randrange(len(data) + 1)
                data = data[:i] + bytes([r.randrange(256)]) + data[i:]
            elif op == 2 and data:  # delete a range
                i = r.randrange(len(data))
                data = data[:i] + data[i + r.randint(1, 16):]
            elif op in (3, 4):  # a token of the format
                t = r.choice(DICT).encode("utf-8", "surrogatepass")
                i = r.randrange(len(data) + 1)
                if r.random() < 0.5:  # at a line start
                    i = data.rfind(b"\n", 0, i) + 1
                data = data[:i] + t + data[i:]
            elif op == 5:  # delete, duplicate or swap lines
                lines = data.split(b"\n")
                i, j = r.randrange(len(lines)), r.randrange(len(lines))
                k = r.randrange(3)
                if k == 0:
                    del lines[i]
                elif k == 1:
                    lines.insert(j, lines[i])
                else:
                    lines[i], lines[j] = lines[j], lines[i]
                data = b"\n".join(lines)
            elif op == 6 and len(self.corpus) > 1:  # splice with another input
                o = r.choice(self.corpus)
                i, j = r.randrange(len(data) + 1), r.randrange(len(o) + 1)
                data = data[:i] + o[j:]
            elif op == 7:  # replace a number
                m = list(re.finditer(rb"-?[0-9]+", data))
                if m:
                    x = r.choice(m)
                    v = r.choice([b"0", b"-1", b"1", b"65536", b"4294967296",
                                  b"18446744073709551616", b"1e999", str(r.randrange(1 << 20)).encode()])
                    data = data[:x.start()] + v + data[x.end():]
            elif op == 8:  # replace a quoted string's contents
                m = list(re.finditer(rb'"[^"\n]*"', data))
                if m:
                    x = r.choice(m)
                    v = r.choice([b'""', b'"vecadd"', b'"a+b"', b'"../x.ini"', b'"/dev/zero"',
                                  b'"' + b"A" * 300 + b'"', b'"--arrive x@1"', b'"small"'])
                    data = data[:x.start()] + v + data[x.end():]
        return data[:MAX_LEN]
    # }====


def seeds():
    out = []
    for pat in SEED_DIRS:
        for p in sorted(glob.glob(pat)):
            with open(p, "rb") as f:
                out.append((p, f.read()))
    return out


def main(argv):
    ap = argparse.ArgumentParser(prog="fuzz_sweep.py", description=__doc__.split("\n")[0])
    ap.add_argument("heddle")
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--runs", type=int, default=0)
    ap.add_argument("--replay", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpus", help="keep the corpus here across runs (read and written)")
    ap.add_argument("--crash-dir", default=os.path.join(os.getcwd(), "fuzz-sweep-artifacts"))
    a = ap.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    try:
        heddle = FuzzHeddle(a.heddle, ROOT)
    except SweepError as e:
        print(f"fuzz_sweep.py: {e}", file=sys.stderr)
        return 2
    fz = Fuzzer(heddle, a.crash_dir, random.Random(a.seed))
    t0 = time.monotonic()
    init = seeds()
    if a.corpus and os.path.isdir(a.corpus):
        for p in sorted(glob.glob(os.path.join(a.corpus, "*"))):
            with open(p, "rb") as f:
                init.append((p, f.read()))
    for name, data in init:
        verdict, arcs = fz.run_one(data)
        if verdict:
            print(f"seed {name}:", end=" ")
            fz.finding(data, verdict)
        fz.arcs |= arcs
        fz.corpus.append(data)
    print(f"fuzz_sweep: {len(init)} seeds replayed, {len(fz.arcs)} arcs, {fz.findings} findings "
          f"({time.monotonic() - t0:.1f} s)", flush=True)
    if not a.replay:
        n0 = len(fz.corpus)
        last = time.monotonic()
        while True:
            el = time.monotonic() - t0
            if (a.seconds and el >= a.seconds) or (a.runs and fz.execs >= a.runs) or \
                    (not a.seconds and not a.runs):
                break
            fz.add(fz.mutate(fz.rng.choice(fz.corpus)))
            if time.monotonic() - last >= 60:
                last = time.monotonic()
                print(f"fuzz_sweep: {fz.execs} execs, corpus {len(fz.corpus)}, {len(fz.arcs)} "
                      f"arcs, {fz.findings} findings, {el:.0f} s", flush=True)
        if a.corpus:
            os.makedirs(a.corpus, exist_ok=True)
            for data in fz.corpus[n0:]:
                name = hashlib.sha1(data).hexdigest() + ".toml"
                with open(os.path.join(a.corpus, name), "wb") as f:
                    f.write(data)
        el = time.monotonic() - t0
        print(f"fuzz_sweep: {fz.execs} execs in {el:.1f} s ({fz.execs / max(el, 1e-9):.0f}/s), "
              f"corpus {len(fz.corpus)} (+{len(fz.corpus) - n0}), {len(fz.arcs)} arcs, "
              f"{fz.findings} findings", flush=True)
    return 1 if fz.findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
