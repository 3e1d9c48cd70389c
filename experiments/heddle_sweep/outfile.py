# SPDX-License-Identifier: MIT
"""outfile - the sweep's outputs never clobber its inputs and report files are written whole
(issue 17, data safety).

- Report files (Markdown, JSON, CSV through report.Context; PNG figures through figures.py) go
  to a temporary file beside the target (`.NAME.tmp-XXXXXX`), flushed to disk and renamed over
  it when complete (os.replace is atomic within a directory): a killed analysis leaves the old
  file or the complete new one. A symbolic link is followed and kept; a target that is not a
  regular file (/dev/null) is written in place.
- The results store (SQLite) is not a file written once: every point is one transaction in
  WAL mode (store.py), so a killed runner leaves every committed point and a sound database
  (tests/sweep/store_safety.py checks it), and the next run reruns the rest.
- check_paths refuses, before anything runs, a store or report file that names an input (the
  sweep file, its analysis script, a configuration it reads, the heddle binary) or another
  output. Paths are compared by identity (device and inode, else the canonical path).
The same rules as the `heddle` command's outputs (model/hw/hd_outfile.c) and the synthesis
reports (synth/hdsynth/outfile.py).
"""

import contextlib
import os
import stat
import tempfile

from . import SweepError


@contextlib.contextmanager
def atomic_path(path):
    """Yield a temporary path to write `path` by name (matplotlib's savefig); renamed over
    `path` when the block ends normally, removed when it raises."""
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise SweepError(f"{path}: is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):  # /dev/null, a FIFO: in place
        yield target
        return
    d, base = os.path.split(target)
    root, ext = os.path.splitext(base)
    try:  # the extension kept last: writers choose the format by it
        fd, tmp = tempfile.mkstemp(prefix=f".{root}.tmp-", suffix=ext, dir=d or ".")
    except OSError as e:
        raise SweepError(f"{path}: cannot write: {e.strerror}") from None
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


def write_atomic(path, text):
    """Write the str `text` to `path` through a temporary file."""
    with atomic_path(path) as tmp:
        with open(tmp, "w") as f:
            f.write(text)


def _ident(path):
    try:
        st = os.stat(path)
        if stat.S_ISCHR(st.st_mode):
            return None  # /dev/null and the like never clash
        return ("inode", st.st_dev, st.st_ino)
    except OSError:
        return ("path", os.path.realpath(path))


def check_paths(inputs, outputs):
    """inputs, outputs: lists of (what, path) (None paths skipped). Raises SweepError when an
    output names an input or another output."""
    ins = [(w, p, _ident(p)) for w, p in inputs if p]
    seen = []
    for w, p in outputs:
        i = _ident(p) if p else None
        if i is None:
            continue
        for wi, pi, ii in ins:
            if ii == i:
                raise SweepError(f"{w} {p} would overwrite {wi} {pi}")
        for wo, po, io in seen:
            if io == i:
                raise SweepError(f"{w} {p} and {wo} {po} write the same file")
        seen.append((w, p, i))


def same_file(a, b):
    ia = _ident(a)
    return ia is not None and ia == _ident(b)
