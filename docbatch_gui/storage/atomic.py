"""Writing an output file so that a reader never sees half of it, and nobody can make
DocBatch write somewhere else.

The one helper the document export and the registry export share. The temporary file
is created by ``tempfile.mkstemp`` in the target's folder: a new name each time,
opened with ``O_CREAT | O_EXCL`` (and ``O_NOFOLLOW`` where the system has it), so a
symbolic link planted beside the target (``report.csv.part`` pointing at another
file) is never opened, let alone overwritten. The finished file is renamed over the
target: a link at the target's own name is replaced, not followed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from docbatch_gui.system import privacy
from docbatch_gui.system.names import check_writable_name


@contextlib.contextmanager
def atomic_output(out: Path, *, private: bool = False) -> Iterator[Path]:
    """A fresh temporary file beside ``out`` to write, renamed to ``out`` when the
    block ends without an error: a canceled or failed export never leaves a
    half-written file under the name the operator chose, and a script watching the
    folder never picks up a file still being written (its name starts with a dot and
    ends in ``.part``). A missing or read-only folder fails at once, with the name the
    operator gave, and so does a name Windows cannot hold. ``private``: owner-only,
    for the data folder's own files; by default the access of an ordinary new file."""
    out = Path(out)
    check_writable_name(out)  # a name Windows cannot hold (there), with the name given
    if out.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(out))
    try:
        fd, name = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".part")
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, str(out)) from exc
    partial = Path(name)
    try:
        os.close(fd)
        with contextlib.suppress(OSError):
            (privacy.make_private if private else privacy.make_shared)(partial)
        yield partial
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
