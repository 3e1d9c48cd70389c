# SPDX-License-Identifier: MIT
"""hdout - how Heddle's Python tools write their outputs, shared by experiments/ (heddle_sweep:
reports, figures, the tidy CSV) and synth/ (hdsynth: synth.txt, synth.json) so that both keep
the same data-safety rules (issue 17) with one implementation (issue 23 item 7). Python 3.11
standard library; the tools reach it through their package (heddle_sweep/__init__.py,
hdsynth/__init__.py put this folder on sys.path).

- A file is written whole or not at all: to a temporary file beside the target
  (`.NAME.tmp-XXXXXX.EXT`, the extension kept last because writers such as matplotlib choose the
  format by it), flushed to disk and renamed over the target when complete (os.replace is
  atomic within a directory). A killed writer leaves the old file or the complete new one; an
  exception inside the write removes the temporary file. A symbolic link is followed and kept;
  a target that is not a regular file (/dev/null, a FIFO) is written in place; a directory is
  refused. Permissions: the old file's, else 0666 less the umask.
- find_clash compares paths by identity (device and inode when the file exists, else the
  canonical path), so "./x.json" and "x.json" are one file; character devices never clash. The
  tools refuse, before anything runs, an output that names one of their inputs or another
  output, each in its own words (heddle_sweep/outfile.py, hdsynth/outfile.py).
- The formats: JSON with sorted keys and a final newline; Markdown tables; CSV with "\\n" line
  ends and None as an empty cell; PNG figures through atomic_path.
The same rules as the `heddle` command's outputs (model/hw/hd_outfile.c, model/cli/cli_out.c).

Every failure is raised through `fail(path, message)`, the caller's error type (default
OutputError), so a tool's user sees its usual located message.
"""

import contextlib
import csv
import io
import json
import os
import stat
import tempfile


class OutputError(Exception):
    """An output that cannot be written; str() is "PATH: message"."""

    def __init__(self, path, msg):
        super().__init__(f"{path}: {msg}")
        self.path, self.msg = path, msg


@contextlib.contextmanager
def atomic_path(path, fail=OutputError):
    """Yield a temporary path to write `path` by name; renamed over `path` when the block ends
    normally, removed when it raises."""
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise fail(path, "is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):  # /dev/null, a FIFO: in place
        yield target
        return
    d, base = os.path.split(target)
    root, ext = os.path.splitext(base)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{root}.tmp-", suffix=ext, dir=d or ".")
    except OSError as e:
        raise fail(path, f"cannot write: {e.strerror}") from None
    os.close(fd)
    try:
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_atomic(path, chunks, fail=OutputError):
    """Write `chunks` (a str, or an iterable of str) to `path` as UTF-8, whole or not at all.
    An OSError while writing is raised as fail(path, "cannot write: ...")."""
    if isinstance(chunks, str):
        chunks = (chunks,)
    try:
        with atomic_path(path, fail) as tmp:
            with open(tmp, "w", encoding="utf-8") as f:
                for c in chunks:
                    f.write(c)
    except OSError as e:
        raise fail(path, f"cannot write: {e.strerror}") from None


def json_text(obj, indent=1):
    """The JSON text of a report: sorted keys, `indent`, a final newline."""
    return json.dumps(obj, indent=indent, sort_keys=True) + "\n"


def write_json(path, obj, indent=1, fail=OutputError):
    write_atomic(path, json_text(obj, indent), fail)


def save_figure(fig, path, fail=OutputError, **savefig):
    """A matplotlib figure saved whole (savefig's options as keywords, e.g. dpi, metadata)."""
    with atomic_path(path, fail) as tmp:
        fig.savefig(tmp, **savefig)


def write_csv(rows, f):
    """Rows (dicts with the same keys, the first row's order) as CSV on the text file f: a
    header line, "\\n" line ends, None as an empty cell; nothing for no rows."""
    if not rows:
        return
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else v) for k, v in r.items()})


def csv_text(rows):
    buf = io.StringIO()
    write_csv(rows, buf)
    return buf.getvalue()


def md_table(headers, rows):
    """A Markdown table; cells are str()-ed (None empty), '|' escaped, newlines folded."""
    def cell(v):
        return ("" if v is None else str(v)).replace("|", "\\|").replace("\n", " ")
    out = ["| " + " | ".join(cell(h) for h in headers) + " |",
           "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def _ident(path):
    try:
        st = os.stat(path)
        if stat.S_ISCHR(st.st_mode):
            return None  # /dev/null and the like never clash
        return ("inode", st.st_dev, st.st_ino)
    except OSError:
        return ("path", os.path.realpath(path))


def find_clash(inputs, outputs):
    """inputs, outputs: lists of (what, path); None paths are skipped. The first output that
    names an input or an earlier output, as ("input" or "output", (what, path) of the output,
    (what, path) of the file it clashes with); None when there is none."""
    ins = [(w, p, _ident(p)) for w, p in inputs if p]
    seen = []
    for w, p in outputs:
        i = _ident(p) if p else None
        if i is None:
            continue
        for wi, pi, ii in ins:
            if ii == i:
                return "input", (w, p), (wi, pi)
        for wo, po, io_ in seen:
            if io_ == i:
                return "output", (w, p), (wo, po)
        seen.append((w, p, i))
    return None
