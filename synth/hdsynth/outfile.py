# SPDX-License-Identifier: MIT
"""outfile - the flow's reports (synth.txt, synth.json) written atomically, and no report path
naming an input (issue 17, data safety).

A report is written to a temporary file beside it (`.NAME.tmp-XXXXXX`), flushed to disk and
renamed over the target only when complete, so a killed or failed run leaves the old report or
the complete new one (os.replace is atomic within a directory). A symbolic link is followed (the
file it names is replaced, the link kept); a target that is not a regular file (/dev/null) is
written in place. Paths are compared by identity (device and inode when both exist, else the
canonical path), so "./x.json" and "x.json" are the same file. The same rules as the `heddle`
command's outputs (model/hw/hd_outfile.c, model/cli/cli_out.c).
"""

import os
import stat
import tempfile

from .errors import FlowError


def write_atomic(path, chunks, what="report"):
    """Write `chunks` (a str, or an iterable of str) to `path` through a temporary file."""
    if isinstance(chunks, str):
        chunks = (chunks,)
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise FlowError(path, f"{what}: is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):  # /dev/null, a FIFO: in place
        with open(target, "w", encoding="utf-8") as f:
            for c in chunks:
                f.write(c)
        return
    d, base = os.path.split(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{base}.tmp-", dir=d or ".")
    except OSError as e:
        raise FlowError(path, f"{what}: cannot write: {e.strerror}")
    try:
        if st is not None:
            os.fchmod(fd, stat.S_IMODE(st.st_mode))
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for c in chunks:
                f.write(c)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise FlowError(path, f"{what}: cannot write: {e.strerror}")
        raise


def _ident(path):
    try:
        st = os.stat(path)
        if stat.S_ISCHR(st.st_mode):
            return None  # /dev/null and the like never clash
        return ("inode", st.st_dev, st.st_ino)
    except OSError:
        return ("path", os.path.realpath(path))


def check_paths(inputs, outputs):
    """Refuse, before the run, an output naming an input or another output.

    inputs, outputs: lists of (what, path); None paths are skipped. Raises FlowError."""
    ins = [(w, p, _ident(p)) for w, p in inputs if p]
    seen = []
    for w, p in outputs:
        if not p:
            continue
        i = _ident(p)
        if i is None:
            continue
        for wi, pi, ii in ins:
            if ii == i:
                raise FlowError(w, f"{p} would overwrite the input {wi} {pi}")
        for wo, po, io in seen:
            if io == i:
                raise FlowError(w, f"{p} and {wo} {po} write the same file")
        seen.append((w, p, i))
