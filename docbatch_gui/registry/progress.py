"""Progress and cancel for the long registry operations (import, search, export).

The GUI runs them in a worker thread with a progress bar and a Cancel button, the CLI
prints progress, a Celery task reports it to the result backend: all three pass the
same ``progress(done, total)`` callback and ``threading.Event``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from docbatch_gui.domain.errors import DocBatchError, ErrorKind, ExitCode

__all__ = ["Cancelled", "ProgressFn", "check_cancel"]

#: ``progress(done, total)``; total is None while unknown (an import before the end).
ProgressFn = Callable[[int, int | None], None]


class Cancelled(DocBatchError):
    """The operator canceled a long operation; what was written so far stays."""

    kind = ErrorKind.RETRYABLE
    exit_code = ExitCode.INTERRUPTED


def check_cancel(cancel: threading.Event | None, what: str) -> None:
    """Raise Cancelled between chunks when the operator asked to stop."""
    if cancel is not None and cancel.is_set():
        raise Cancelled(f"{what} canceled by the operator")
