"""Writing an output file so that a reader never sees half of it."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path

from docbatch_gui.system.names import check_writable_name


@contextlib.contextmanager
def atomic_output(out: Path) -> Iterator[Path]:
    """A ``.part`` file beside ``out`` to write, renamed to ``out`` when the block ends
    without an error: a canceled or failed export never leaves a half-written file
    under the name the operator chose, and a script watching the folder never picks
    up a file still being written. A missing or read-only folder, or a name Windows
    cannot hold (there), fails at once, with the name the operator gave."""
    out = Path(out)
    check_writable_name(out)
    partial = out.with_name(out.name + ".part")
    if out.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(out))
    try:
        partial.touch()
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, str(out)) from exc
    try:
        yield partial
        partial.replace(out)
    finally:
        partial.unlink(missing_ok=True)
