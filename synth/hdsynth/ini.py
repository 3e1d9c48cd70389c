# SPDX-License-Identifier: MIT
"""ini - a small INI reader that remembers where every key came from.

Heddle's configuration files are INI with named keys only (style rule C6). This reader keeps
each value's file:line so that a semantic error ("key 'per_sm' must be a positive integer")
points at the offending line. Syntax: [section], key = value, '#' or ';' comments (also after a
value, when preceded by whitespace), double-quoted strings. Duplicate keys are errors.
"""

from .errors import FlowError


class Ini:
    """sections: {name: {key: (value, line)}} in file order; path: the file read."""

    def __init__(self, path, sections):
        self.path = path
        self.sections = sections

    def has(self, section, key=None):
        if section not in self.sections:
            return False
        return key is None or key in self.sections[section]

    def where(self, section, key=None):
        if key is not None and self.has(section, key):
            return f"{self.path}:{self.sections[section][key][1]}"
        return str(self.path)

    def get(self, section, key, default=None):
        if self.has(section, key):
            return self.sections[section][key][0]
        return default

    def need(self, section, key):
        if not self.has(section, key):
            raise FlowError(self.path, f"missing key '{key}' in section [{section}]")
        return self.sections[section][key][0]

    def number(self, section, key, default=None, positive=True, integer=False):
        raw = self.get(section, key)
        if raw is None:
            if default is None:
                raise FlowError(self.path, f"missing key '{key}' in section [{section}]")
            return default
        try:
            val = int(raw, 0) if integer else float(raw)
        except ValueError:
            kind = "an integer" if integer else "a number"
            raise FlowError(self.where(section, key), f"key '{key}' = '{raw}' is not {kind}")
        if positive and val <= 0:
            raise FlowError(self.where(section, key), f"key '{key}' = {raw} must be positive")
        return val


def _strip_comment(text):
    out, quoted = [], False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        if not quoted and ch in "#;" and (i == 0 or text[i - 1] in " \t"):
            break
        out.append(ch)
    return "".join(out).strip()


def read(path):
    """Parses an INI file; raises FlowError with file:line on a syntax error."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise FlowError(str(path), f"cannot read: {e.strerror}")
    sections, cur = {}, None
    for num, raw in enumerate(lines, 1):
        line = _strip_comment(raw)
        if not line:
            continue
        if line.startswith("["):
            if not line.endswith("]") or len(line) < 3:
                raise FlowError(f"{path}:{num}", f"malformed section header '{raw.strip()}'")
            cur = line[1:-1].strip()
            if cur in sections:
                raise FlowError(f"{path}:{num}", f"section [{cur}] appears twice")
            sections[cur] = {}
            continue
        if "=" not in line:
            raise FlowError(f"{path}:{num}", f"expected 'key = value', got '{raw.strip()}'")
        if cur is None:
            cur = ""
            sections.setdefault(cur, {})
        key, val = (s.strip() for s in line.split("=", 1))
        if len(val) >= 2 and val[0] == '"' and val[-1] == '"':
            val = val[1:-1]
        if key in sections[cur]:
            raise FlowError(f"{path}:{num}", f"key '{key}' appears twice in [{cur}]")
        sections[cur][key] = (val, num)
    return Ini(path, sections)
