# SPDX-License-Identifier: MIT
"""What the sweep needs to know about one `heddle` binary: its identity (version string and a
hash of the binary itself, part of every point's key), the names it accepts (workloads,
variants, mixes, configuration keys) so a sweep file is checked before anything runs, and how
to canonicalise a run's report so that results can be compared byte for byte (the wall-clock
fields are the only ones that differ between two runs of the same point)."""

import hashlib
import json
import os
import re
import subprocess

from . import SweepError

# Lines and fields that hold host wall-clock time, not simulated results.
VOLATILE_LINE = re.compile(r"^\s*(wall time|warp instrs/s|wall_seconds\s*=)")


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Heddle:
    """One heddle binary, run from the repository root `root`."""

    def __init__(self, path, root):
        self.path = os.path.abspath(path)
        self.root = root
        if not (os.path.isfile(self.path) and os.access(self.path, os.X_OK)):
            raise SweepError(f"no heddle binary at {self.path} (build it: cmake --build build "
                             f"--target heddle, or pass --heddle PATH)")
        self._cache = {}

    def _out(self, *args):
        if args not in self._cache:
            try:
                p = subprocess.run([self.path, *args], cwd=self.root, capture_output=True,
                                   text=True, timeout=60)
            except (OSError, subprocess.TimeoutExpired) as e:
                raise SweepError(f"{self.path} {' '.join(args)}: {e}") from None
            if p.returncode != 0:
                raise SweepError(f"{self.path} {' '.join(args)} exited {p.returncode}: "
                                 f"{p.stderr.strip()}")
            self._cache[args] = p.stdout
        return self._cache[args]

    def identity(self):
        """`heddle --version` and the binary's SHA-256: the same identity, the same results."""
        if "identity" not in self._cache:
            version = self._out("--version").strip()
            self._cache["identity"] = f"{version} sha256:{sha256_file(self.path)}"
        return self._cache["identity"]

    def _first_column(self, *args):
        names = set()
        for line in self._out(*args).splitlines()[1:]:
            if line and not line[0].isspace():
                names.add(line.split()[0])
        return names

    def is_workload(self, name):
        """A built-in workload or variant? (`heddle list --variants` names those with variants;
        `heddle ptx-info NAME` answers for the rest in milliseconds, where `heddle list` takes
        seconds to compute every occupancy.)"""
        if name in self._first_column("list", "--variants"):
            return True
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            return False
        try:
            p = subprocess.run([self.path, "ptx-info", name], cwd=self.root,
                               capture_output=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return p.returncode == 0

    def mixes(self):
        return self._first_column("list", "--mixes")

    def config_keys(self):
        """{section: {key: type text}} from `heddle --help-config`."""
        keys, section = {}, None
        for line in self._out("--help-config").splitlines():
            m = re.match(r"^\[([a-z0-9_]+)\]\s*$", line)
            if m:
                section = keys.setdefault(m.group(1), {})
                continue
            m = re.match(r"^  ([a-z0-9_]+)\s+=\s+(\S.*)$", line)
            if m and section is not None:
                section[m.group(1)] = m.group(2)
        return keys


def canonical_result(stats_text, stdout):
    """The part of a point's output that the model determines: the statistics report with its
    wall-clock fields removed (JSON: re-serialised with sorted keys) and the summary printed on
    stdout without its wall-time lines. Two runs of the same point give the same bytes."""
    try:
        obj = json.loads(stats_text)
    except ValueError:
        obj = None
    if isinstance(obj, dict):
        if isinstance(obj.get("run"), dict):
            obj["run"].pop("wall_seconds", None)
        stats = json.dumps(obj, sort_keys=True, separators=(",", ":"))
    else:
        stats = "\n".join(l for l in stats_text.splitlines() if not VOLATILE_LINE.match(l))
    out = "\n".join(l for l in stdout.splitlines() if not VOLATILE_LINE.match(l))
    return stats + "\n--- stdout ---\n" + out + "\n"


def parse_stats(stats_text):
    """The statistics report as a nested dict: the JSON report of `heddle run`, or the INI
    report of `heddle run --mix` ({section: {key: value}}, numbers converted)."""
    try:
        obj = json.loads(stats_text)
        if isinstance(obj, dict):
            return obj
    except ValueError:
        pass
    out_root = {}
    section = out_root
    for line in stats_text.splitlines():
        s = line.strip()
        if not s or s[0] in "#;":
            continue
        m = re.match(r"^\[([^\]]+)\]$", s)
        if m:
            section = out_root
            for part in m.group(1).split("."):
                section = section.setdefault(part, {})
            continue
        if "=" in s:
            k, v = (x.strip() for x in s.split("=", 1))
            section[k] = _number(v.strip('"'))
    return out_root


def _number(v):
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def lookup(obj, path):
    """obj at a dotted path ('timing.launches.0.cycles'); None when absent."""
    for part in path.split("."):
        if isinstance(obj, dict) and part in obj:
            obj = obj[part]
        elif isinstance(obj, list) and re.fullmatch(r"-?\d+", part) and \
                -len(obj) <= int(part) < len(obj):
            obj = obj[int(part)]
        else:
            return None
    return obj
