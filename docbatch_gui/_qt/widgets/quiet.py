"""Values the program sets without the widgets telling anyone they changed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from PySide6.QtCore import QObject, QSignalBlocker


@contextmanager
def blocked(*objects: QObject) -> Iterator[None]:
    """Qt's ``QSignalBlocker`` over several objects at once: a form filled from a
    template or a guess is not an edit of the operator's."""
    with ExitStack() as stack:
        for obj in objects:
            stack.enter_context(QSignalBlocker(obj))
        yield
