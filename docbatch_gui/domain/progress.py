"""Progress and cancel for every long operation: intake, Yandex.Disk downloads, registry
import, search and export, and the Celery tasks that run them.

One shape for all of them, so one GUI helper shows any of them with a Cancel button,
the CLI prints any of them, and a Celery task reports any of them to its result
backend. The work runs in a worker thread: a sink may be called from any thread, and
the token is checked between two units of work (a file, a chunk of rows), so a
cancel takes effect within one unit and what was done so far stays.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from docbatch_gui.domain.errors import DocBatchError, ErrorKind, ExitCode

__all__ = [
    "CancelToken",
    "Canceled",
    "Progress",
    "ProgressSink",
    "canceled",
    "raise_if_canceled",
    "report",
]

#: how finely ``Progress.of_share`` cuts a fraction (a job's 0..1 progress)
SHARE_STEPS = 1000


@dataclass(frozen=True)
class Progress:
    """Where a long operation stands: ``done`` of ``total`` units (files, rows).

    ``total`` is None while unknown (an import before the last chunk is read);
    ``what`` is the item at hand or the stage (a file name, "rows imported").
    """

    done: int
    total: int | None = None
    what: str = ""

    @classmethod
    def of_share(cls, share: float, what: str = "") -> Progress:
        """A progress known only as a fraction 0..1 (a job's own ``progress``)."""
        clamped = min(max(share, 0.0), 1.0)
        return cls(round(clamped * SHARE_STEPS), SHARE_STEPS, what)

    @property
    def share(self) -> float | None:
        """``done / total`` in 0..1; None while the total is unknown."""
        if not self.total:
            return None
        return min(self.done / self.total, 1.0)

    @property
    def finished(self) -> bool:
        """The last word of an operation: throttled reporters must not drop it."""
        return self.total is not None and self.done >= self.total


#: Hears of progress; may be called from a worker thread, must be quick and never raise.
ProgressSink = Callable[[Progress], None]


def report(sink: ProgressSink | None, done: int, total: int | None = None, what: str = "") -> None:
    """Tell ``sink`` (if any) where the work stands."""
    if sink is not None:
        sink(Progress(done, total, what))


class Canceled(DocBatchError):
    """The operator canceled a long operation; what was done so far stays.

    Retryable: running it again finishes the work.
    """

    kind = ErrorKind.RETRYABLE
    exit_code = ExitCode.INTERRUPTED


class CancelToken:
    """Set from the GUI thread (a Cancel button), read by the worker thread between
    two units of work. Thread-safe: it is a ``threading.Event`` underneath."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def canceled(self) -> bool:
        return self._event.is_set()

    def raise_if_canceled(self, what: str = "the operation") -> None:
        """Raise :class:`Canceled` if the operator asked to stop."""
        if self._event.is_set():
            raise Canceled(f"{what} canceled by the operator")


def canceled(token: CancelToken | None) -> bool:
    """Whether an optional token was canceled (no token: never)."""
    return token is not None and token.canceled


def raise_if_canceled(token: CancelToken | None, what: str = "the operation") -> None:
    """:meth:`CancelToken.raise_if_canceled` for an optional token."""
    if token is not None:
        token.raise_if_canceled(what)
