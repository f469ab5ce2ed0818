"""The data folder for its owner only.

The data folder holds scanned documents, their text and the extracted fields: other
users of the machine must not read it. On POSIX a folder is ``0700`` and a file
``0600``; on Windows a protected ACL grants the current user alone full control.
``exposure`` says what drifted (a copy made with ``cp -r``, a backup restored by
another user), for ``docbatch doctor``.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.platform == "win32":
    from docbatch_gui.system import _windows as _impl
else:
    from docbatch_gui.system import _posix as _impl

__all__ = ["exposure", "make_private", "make_shared", "privacy_fix"]


def make_private(path: Path) -> None:
    """Owner-only access to the folder or file ``path``; OSError when it cannot be set."""
    _impl.make_private(Path(path))


def make_shared(path: Path) -> None:
    """The access an ordinary new file gets (POSIX: ``0666`` less the umask; Windows:
    its folder's), for a file created owner-only by ``mkstemp`` that is meant to be
    shared, such as an export; OSError when it cannot be set."""
    _impl.make_shared(Path(path))


def exposure(path: Path) -> str | None:
    """What lets other users in (POSIX: the octal mode; Windows: the other accounts);
    None when only the owner can. OSError when ``path`` cannot be read."""
    return _impl.exposure(Path(path))


def privacy_fix(folder: Path) -> str:
    """The command an operator runs to make ``folder`` private again."""
    return _impl.privacy_fix(Path(folder))
