# SPDX-License-Identifier: MIT
"""The sweep file (TOML): what to run and what to collect, checked against the heddle binary
and expanded into points before anything runs. experiments/README.md documents the format:

    [sweep]                      name, description, analysis (a Python file beside the sweep
                                 file that writes the report), quiet, timeout (s per point)
    [defaults]                   one value per axis for every grid that does not name it
    [[grid]]                     axes; the points are the cartesian product of the values,
                                 the sweep the union of its grids (duplicates run once)
    [collect]                    column = dotted path into the run's statistics report

Axes: workload (built-in workloads and variants) or mix (multi-kernel mixes), config (a name in
configs/ or an .ini path relative to the sweep file; "default" = built-in), size (small, medium,
large, waves, waves3, paper: heddle run --size NAME), set.SECTION.KEY (any configuration parameter: one --set per
point), flags (extra `heddle run` options: --alone, --functional, --sample N, --window W (the
first W cycles, Lin's measure: exit 0 and status ok, never verified; docs/gpuduet.md "Session
21"), --arrive
W@CYCLE[:PRIORITY]; --arrive and --alone only on grids of mixes). Every error names the file and
line. A sweep holds at most MAX_POINTS points. Numbers are canonical (2 and 2.0 are one value, one
point); a point's inputs (its key) hold the contents of its --config file and of every file a
configuration value names (FILE_PARAMS), however the value is given.
"""

import itertools
import math
import os
import re
import shlex
import tomllib
from dataclasses import dataclass, field

from . import SweepError

SIZES = ("small", "medium", "large", "waves", "waves3", "paper")
# points in one sweep at most (a grid of a few long axes is refused before it is expanded)
MAX_POINTS = 100000
# option: the pattern of its operand (None: it takes none)
FLAG_OPTIONS = {"--alone": None, "--functional": None, "--sample": r"[0-9]+",
                "--window": r"[0-9]+",
                "--arrive": r"[a-z][a-z0-9_]*(#[0-9]+)?@[0-9]+(:-?[0-9]+)?",
                "--repeat": r"[a-z][a-z0-9_]*(#[0-9]+)?", "--repeat-until": r"[0-9]+"}
MIX_ONLY_FLAGS = ("--arrive", "--alone", "--repeat", "--repeat-until")  # `heddle run --mix` only
SWEEP_KEYS = {"name", "description", "analysis", "quiet", "timeout"}
# seconds per point at most (threading.Timer overflows on inf; 30 days is longer than any run)
MAX_TIMEOUT = 30 * 86400.0
# configuration parameters whose value names a file the run reads: its contents are part of
# the point's key (model/config/params.def; the others are names and numbers)
FILE_PARAMS = (("context", "oracle_profile"), ("ccbp", "profile"))
STANDARD_COLUMNS = {"key", "status", "exit_code", "message", "wall_s", "cpu_s", "peak_rss_kb"}


@dataclass
class Point:
    axes: dict                 # axis -> value (text), in axis order
    argv: list                 # heddle arguments (no binary, no --stats), repository-relative
    inputs: dict = field(default_factory=dict)   # repository-relative file -> its SHA-256

    def label(self):
        return " ".join(f"{v}" for v in self.axes.values())


@dataclass
class Sweep:
    path: str
    name: str
    description: str
    analysis: str              # absolute path of the analysis script, or ""
    quiet: bool
    timeout: float
    points: list
    axes: list                 # every axis name, in order of first appearance
    collect: dict              # column -> dotted path


class _Locator:
    """Line numbers of keys and values in the sweep file's text (tomllib gives none)."""

    def __init__(self, path, text):
        self.path, self.lines = path, text.splitlines()
        self.headers = [(i + 1, l.strip()) for i, l in enumerate(self.lines)
                        if re.match(r"^\s*\[", l)]

    def table(self, name, index=None):
        """(first, last) line of table `name` ([name] or the index-th [[name]])."""
        n = -1
        for k, (line, h) in enumerate(self.headers):
            hn = h.strip("[]").strip().strip('"')
            if hn == name or hn.startswith(name + "."):
                n += 1
                if index is None or n == index:
                    end = self.headers[k + 1][0] - 1 if k + 1 < len(self.headers) \
                        else len(self.lines)
                    return line, end
        return 1, len(self.lines)

    def key(self, table, key, index=None):
        first, last = self.table(table, index)
        pat = re.compile(r"^\s*" + r"\s*\.\s*".join(rf'"?{re.escape(p)}"?' for p in
                                                     key.split(".")) + r"\s*=")
        for i in range(first - 1, last):
            if pat.match(self.lines[i]):
                return i + 1
        return first

    def value(self, table, key, value, index=None):
        start = self.key(table, key, index)
        _, last = self.table(table, index)
        for i in range(start - 1, last):
            if re.search(rf"""["']{re.escape(str(value))}["']|\b{re.escape(str(value))}\b""",
                         self.lines[i]):
                return i + 1
        return start

    def error(self, line, msg):
        return SweepError(f"{self.path}:{line}: {msg}")


def _flatten_axes(table):
    """The grid's axes with nested set.SECTION.KEY tables flattened to dotted names."""
    out = {}
    for k, v in table.items():
        if k == "set" and isinstance(v, dict):
            for sec, keys in v.items():
                if not isinstance(keys, dict):
                    out[f"set.{sec}"] = keys
                    continue
                for key, vals in keys.items():
                    out[f"set.{sec}.{key}"] = vals
        else:
            out[k] = v
    return out


def _text(v):
    """A value as heddle gets it: booleans as true/false, a whole float as an integer (2.0 and
    2 are one value, so one point), other floats by repr (round-trips exactly)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and math.isfinite(v) and v.is_integer() and abs(v) < 2 ** 53:
        return str(int(v))
    return str(v)


def check_timeout(t):
    """None when `t` is a valid timeout in seconds (0: none), else what is wrong."""
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t) or \
            t < 0 or t > MAX_TIMEOUT:
        return (f"must be a finite number of seconds from 0 (no timeout) to {MAX_TIMEOUT:g} "
                f"(30 days), not {t!r}")
    return None


def load(path, heddle, root):
    """Parse, check and expand the sweep file at `path` (raises SweepError, located)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise SweepError(f"{path}: cannot read the sweep file: {e.strerror}") from None
    try:
        text = raw.decode("utf-8")
        doc = tomllib.loads(text)
    except UnicodeDecodeError as e:
        raise SweepError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        where = f"{m.group(1)}:{m.group(2)}" if m else "1"
        raise SweepError(f"{path}:{where}: malformed TOML: {msg}") from None
    loc = _Locator(path, text)
    base = os.path.dirname(os.path.abspath(path))

    for k in doc:
        if k not in ("sweep", "defaults", "grid", "collect"):
            raise loc.error(loc.key("", k) if not isinstance(doc[k], dict) else
                            loc.table(k)[0], f"unknown table or key '{k}' (expected [sweep], "
                            "[defaults], [[grid]], [collect])")
    for k in ("sweep", "defaults", "collect"):
        if k in doc and not isinstance(doc[k], dict):
            raise loc.error(loc.key("", k), f"'{k}' must be a table ([{k}])")
    if "grid" in doc and not (isinstance(doc["grid"], dict) or (
            isinstance(doc["grid"], list) and all(isinstance(g, dict) for g in doc["grid"]))):
        raise loc.error(loc.key("", "grid"), "'grid' must be tables ([[grid]])")
    meta = doc.get("sweep", {})
    for k in meta:
        if k not in SWEEP_KEYS:
            raise loc.error(loc.key("sweep", k), f"unknown [sweep] key '{k}' (expected "
                            f"{', '.join(sorted(SWEEP_KEYS))})")
    name = meta.get("name", os.path.splitext(os.path.basename(path))[0])
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.+-]+", name) or \
            set(name) == {"."}:  # "." or "..": the report directory would leave results/
        raise loc.error(loc.key("sweep", "name"), "[sweep] name must be letters, digits, "
                        "'_', '.', '+' or '-', not only dots")
    analysis = meta.get("analysis", "")
    if analysis:
        analysis = os.path.join(base, analysis)
        if not os.path.isfile(analysis):
            raise loc.error(loc.key("sweep", "analysis"), f"analysis script {analysis} "
                            "does not exist")
    timeout = meta.get("timeout", 0)
    if check_timeout(timeout) is not None:
        raise loc.error(loc.key("sweep", "timeout"), f"[sweep] timeout {check_timeout(timeout)}")
    quiet = meta.get("quiet", False)
    if not isinstance(quiet, bool):
        raise loc.error(loc.key("sweep", "quiet"), "[sweep] quiet must be true or false")

    grids = doc.get("grid")
    if grids is None:
        raise loc.error(1, "no [[grid]] table: nothing to run")
    if isinstance(grids, dict):
        grids = [grids]
    defaults = _flatten_axes(doc.get("defaults", {}))
    for k, v in defaults.items():
        if isinstance(v, (list, dict)):
            raise loc.error(loc.key("defaults", k), f"[defaults] {k} must be one value")

    checker = _Checker(loc, heddle, root, base)
    for k, v in defaults.items():
        checker.check_axis("defaults", None, k, [v])

    points, seen, axes_order = [], set(), []
    for gi, grid in enumerate(grids):
        ax = _flatten_axes(grid)
        if not ax:
            raise loc.error(loc.table("grid", gi)[0], f"grid {gi + 1} names no axis")
        for k, v in defaults.items():
            ax.setdefault(k, v)
        if ("workload" in ax) == ("mix" in ax):
            raise loc.error(loc.table("grid", gi)[0], f"grid {gi + 1} must name exactly one "
                            "of the axes workload and mix")
        values = {}
        for k, v in ax.items():
            vals = v if isinstance(v, list) else [v]
            if not vals:
                raise loc.error(loc.key("grid", k, gi), f"axis '{k}' has no values")
            values[k] = checker.check_axis("grid", gi, k, vals)
            if k == "flags" and "workload" in ax:
                for f in values[k]:
                    opt = next((o for o in MIX_ONLY_FLAGS if o in shlex.split(f)), None)
                    if opt:
                        raise loc.error(loc.value("grid", k, f, gi), f"flags '{f}': {opt} "
                                        "is an option of mixes (heddle run --mix): this grid "
                                        "runs workloads")
        # a canonical axis order: what runs, then where, then the rest as written
        order = [k for k in ("workload", "mix", "config", "size") if k in values] + \
                [k for k in values if k not in ("workload", "mix", "config", "size")]
        for k in order:
            if k not in axes_order:
                axes_order.append(k)
        n = 1
        for k in order:
            n *= len(values[k])
        if n + len(points) > MAX_POINTS:
            raise loc.error(loc.table("grid", gi)[0], f"grid {gi + 1} expands to {n} points "
                            f"({len(points)} before it): more than {MAX_POINTS} in one sweep "
                            "(split it into several sweep files)")
        for combo in itertools.product(*(values[k] for k in order)):
            p = _point(dict(zip(order, combo)), checker, quiet)
            sig = tuple(p.argv)
            if sig not in seen:
                seen.add(sig)
                points.append(p)

    collect = doc.get("collect", {})
    for col, pth in collect.items():
        line = loc.key("collect", col)
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", col):
            raise loc.error(line, f"[collect] column '{col}' must be an identifier")
        if col in STANDARD_COLUMNS or col in axes_order:
            raise loc.error(line, f"[collect] column '{col}' clashes with an axis or a "
                            "standard column")
        if not isinstance(pth, str) or not re.fullmatch(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*",
                                                          pth):
            raise loc.error(line, f"[collect] {col} must be a dotted path into the statistics "
                            "report, e.g. \"timing.totals.cycles\"")
    return Sweep(path=os.path.abspath(path), name=name, description=meta.get("description", ""),
                 analysis=analysis, quiet=quiet, timeout=float(timeout), points=points,
                 axes=axes_order, collect=dict(collect))


class _Checker:
    def __init__(self, loc, heddle, root, base):
        self.loc, self.heddle, self.root, self.base = loc, heddle, root, base

    def check_axis(self, table, gi, axis, vals):
        loc = self.loc
        for v in vals:
            if isinstance(v, (list, dict)):
                raise loc.error(loc.key(table, axis, gi), f"axis '{axis}': values must be "
                                "strings or numbers")
        vals = [_text(v) for v in vals]
        if axis == "workload":
            bad = [v for v in vals if not self.heddle.is_workload(v)]
            what = "workload (see heddle list)"
        elif axis == "mix":
            known = self.heddle.mixes()
            bad = [v for v in vals if v not in known]
            what = "mix (see heddle list --mixes)"
        elif axis == "size":
            bad = [v for v in vals if v not in SIZES]
            what = "size (small, medium, large, waves, waves3 or paper)"
        elif axis == "config":
            bad = [v for v in vals if v != "default" and self.config_path(v) is None]
            what = "config (a name in configs/, an .ini file or 'default')"
        elif axis == "flags":
            bad = [v for v in vals if not self._flags_ok(v)]
            what = ("flags (--alone, --functional, --sample N, --window W, "
                    "--arrive W@CYCLE[:PRIORITY], "
                    "--repeat W|all, --repeat-until N)")
        elif axis.startswith("set."):
            parts = axis.split(".")
            keys = self.heddle.config_keys()
            if len(parts) != 3 or parts[1] not in keys or parts[2] not in keys[parts[1]]:
                raise loc.error(loc.key(table, axis, gi), f"unknown axis '{axis}': no "
                                "configuration parameter of that name (see heddle "
                                "--help-config)")
            bad = [v for v in vals if not v or "\n" in v]
            what = f"value for {axis}"
        else:
            raise loc.error(loc.key(table, axis, gi), f"unknown axis '{axis}' (expected "
                            "workload, mix, config, size, flags or set.SECTION.KEY)")
        if bad:
            raise loc.error(loc.value(table, axis, bad[0], gi), f"unknown {what}: '{bad[0]}'")
        return vals

    def config_path(self, v):
        """Repository-relative path of a configuration name or file, None if it is missing."""
        cands = [os.path.join(self.root, "configs", v + ".ini")] if "/" not in v and \
            not v.endswith(".ini") else [os.path.join(self.base, v)]
        for c in cands:
            if os.path.isfile(c):
                return os.path.relpath(os.path.abspath(c), self.root)
        return None

    @staticmethod
    def _flags_ok(v):
        try:
            toks = shlex.split(v)
        except ValueError:
            return False
        i = 0
        while i < len(toks):
            if toks[i] not in FLAG_OPTIONS:
                return False
            pat = FLAG_OPTIONS[toks[i]]
            if pat is not None and (i + 1 >= len(toks) or not re.fullmatch(pat, toks[i + 1])):
                return False
            i += 1 if pat is None else 2
        return True


def _file_values(ini):
    """{(section, key): value} of the FILE_PARAMS an INI configuration file sets."""
    out, section = {}, None
    try:
        with open(ini, encoding="utf-8", errors="replace") as f:
            for line in f:
                s = line.split("#", 1)[0].split(";", 1)[0].strip()
                m = re.fullmatch(r"\[\s*([A-Za-z0-9_]+)\s*\]", s)
                if m:
                    section = m.group(1)
                elif "=" in s and section:
                    k, v = (x.strip() for x in s.split("=", 1))
                    if (section, k) in FILE_PARAMS:
                        out[(section, k)] = v.strip('"')
    except OSError:
        pass
    return out


def _point(axes, checker, quiet):
    from .heddle import sha256_file
    argv, inputs = ["run"], {}
    if "workload" in axes:
        argv.append(axes["workload"])
    else:
        argv += ["--mix", axes["mix"]]
    argv += ["--size", axes.get("size", "small")]
    cfg = axes.get("config", "default")
    files = {}     # FILE_PARAMS value: from the configuration file, then --set
    if cfg != "default":
        rel = checker.config_path(cfg)
        argv += ["--config", rel]
        inputs[rel] = sha256_file(os.path.join(checker.root, rel))
        files.update(_file_values(os.path.join(checker.root, rel)))
    for k in sorted(a for a in axes if a.startswith("set.")):
        argv += ["--set", f"{k[4:]}={axes[k]}"]
        sec_key = tuple(k.split(".")[1:])
        if sec_key in FILE_PARAMS:
            files[sec_key] = axes[k]
    for (sec, key), path in sorted(files.items()):
        if path:   # heddle opens it relative to its working directory, the repository root
            full = os.path.join(checker.root, path)
            inputs[f"[{sec}] {key} = {path}"] = sha256_file(full) if os.path.isfile(full) \
                else "not a file"
    if "flags" in axes:
        argv += shlex.split(axes["flags"])
    if quiet:
        argv.append("--quiet")
    return Point(axes=axes, argv=argv, inputs=inputs)
